--- One soak game: a seeded random game of a rule set, checked at every
-- move (see docs/guide.md, "Soak"). checked_game.play returns the game's
-- figures, or raises a failure { soak_failure = true, check =, detail =,
-- ply = } that the caller reports with the moves played.
--
-- At every position: the core's move generators agree with each other (the
-- 8 x 8 word path, its portable loop, the multi-word path and the
-- cell-run reference), the C core's view of the position agrees with the
-- rule set's hooks where the core declares it computes them, a clone equals
-- the original and is independent of it, and play then undo restores the
-- position exactly. At the end: the core's final value and winner, and a
-- record of the game parses back and replays to the same position and
-- result, and the game's image under one of its symmetries (declared, or
-- the capture core's direction sets') plays the same (soak.symmetric).
-- Once a game, at a drawn ply, perft by every path (and by the hooks where
-- the core counts the rule set).
local core = require "boardscript.core"
local game_mod = require "boardscript.game"
local perft = require "boardscript.perft"
local record = require "boardscript.record"
local rules_mod = require "boardscript.rules"
local schedule = require "boardscript.soak.schedule"
local described = require "boardscript.soak.described"
local symmetric = require "boardscript.soak.symmetric"

local checked_game = {}

local PATHS = { "fast", "scalar", "generic", "reference" }
local WIDE_PATHS = { "generic", "reference" }
local opponent = require("boardscript.families.board").opponent

local snapshot -- checked_game.snapshot, below

local function fail(ply, check, fmt, ...)
  error({ soak_failure = true, check = check, detail = fmt:format(...), ply = ply }, 0)
end

local function is_board(b) return core.type(b) == "board" end
local function is_dots(b) return core.type(b) == "dots" end
-- A described game's engine state (boardscript.describe): C or the reference.
local function is_engine(b)
  return not is_board(b) and not is_dots(b) and (type(b) == "table" or type(b) == "userdata")
    and type(b.hash) == "function" and type(b.perft) == "function" and type(b.move_cells) == "function"
end

local function plain(value)
  local kind = type(value)
  return kind ~= "table" and kind ~= "userdata" and kind ~= "function"
end

-- The sorted names of the state's plain fields (player, passes, ...),
-- cached in `keys` while the set of names stays the same.
local function plain_keys(state, keys)
  local count, known = 0, true
  for key, value in pairs(state) do
    if plain(value) then
      count = count + 1
      known = known and keys[key] ~= nil
    end
  end
  if known and count == #keys then return keys end
  keys = {}
  for key, value in pairs(state) do
    if plain(value) then keys[#keys + 1] = key end
  end
  table.sort(keys)
  for _, key in ipairs(keys) do keys[key] = true end
  return keys
end

-- A table's contents as text (keys sorted; nested tables to a depth of 4,
-- cycles cut), for the snapshot of a rule set's own state tables.
local function table_text(t, depth, seen)
  if seen[t] or depth > 4 then return "{...}" end
  seen[t] = true
  local keys = {}
  for key in pairs(t) do keys[#keys + 1] = key end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "number" or ta == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  for i, key in ipairs(keys) do
    local value = t[key]
    local text = type(value) == "table" and table_text(value, depth + 1, seen) or tostring(value)
    parts[i] = tostring(key) .. "=" .. text
  end
  seen[t] = nil
  return "{" .. table.concat(parts, ",") .. "}"
end

--- The position as one string: the board's hash (of every plane word) and
-- counts (dots: hash, turn, score and edges), the state's plain fields and
-- the contents of its other tables (the rule set's own: a clone must copy
-- them too), so two positions that differ anywhere give different strings
-- (the hash with overwhelming odds; the checks also compare boards cell
-- for cell with __eq where both exist). `cache`: a table the field names
-- are cached in between calls.
function checked_game.snapshot(state, cache)
  local b, head = state.board
  local engine = is_engine(b)
  if engine then
    -- a described game's engine state (C or the Lua reference): its hash and board text
    head = ("%d|%s"):format(b:hash(), tostring(b))
  elseif is_board(b) then
    head = ("%d|%d|%d|%d|%d"):format(b:hash(), b:count("empty"), b:count("black"), b:count("white"), b:count("block"))
  elseif is_dots(b) then
    local first, second = b:score()
    head = ("%d|%d|%d-%d|%d|%d"):format(b:hash(), b:turn(), first, second, b:edge_count(), b:open_count())
  else
    head = tostring(b)
  end
  cache = cache or {}
  local keys = plain_keys(state, cache.keys or {})
  cache.keys = keys
  for i = 1, #keys do head = head .. "|" .. keys[i] .. "=" .. tostring(state[keys[i]]) end
  if type(state.history) == "table" then head = head .. "|history=" .. #state.history end
  local own
  for key, value in pairs(state) do
    if type(value) == "table" and key ~= "history" and not (engine and key == "board") then
      own = own or {}
      own[#own + 1] = tostring(key)
    end
  end
  if own then
    table.sort(own)
    for _, key in ipairs(own) do head = head .. "|" .. key .. "=" .. table_text(state[key], 1, {}) end
  end
  return head
end

snapshot = checked_game.snapshot

-- Moves {row, col} as one comparable string, sorted (for lists whose order
-- is the rule set's own).
local function sorted_text(list)
  local out = {}
  for i, m in ipairs(list) do out[i] = m[1] * 32 + m[2] end
  table.sort(out)
  for i, code in ipairs(out) do out[i] = string.char(96 + code % 32) .. (code // 32) end
  return table.concat(out, " ")
end

-- The direction sets the side to move plays with: the core's description
-- (the second piece's in FlipFlop), else the rule set's fields.
local function direction_sets(run, state)
  local desc = run.core_desc
  if desc then
    if state.piece == 2 then return desc.legal2 or "diagonal", desc.flip2 or "all" end
    return desc.legal or "all", desc.flip or "all"
  end
  return run.rules.legal_dirs or "all", run.rules.flip_dirs or "all"
end

-- Cell indices (row - 1) * n + col as notation: "f5 d6".
local function indices_text(list, count, n)
  local out = {}
  for i = 1, count do
    local index = list[i] - 1
    out[i] = string.char(97 + index % n) .. (index // n + 1)
  end
  return table.concat(out, " ")
end

-- Every move generator of the core gives the same list (8 x 8: the word
-- path, its portable loop, the multi-word and the reference path; other
-- sizes: the multi-word and the reference path), compared as cell indices
-- in reused buffers.
local function check_paths(run, state)
  local b, player = state.board, state.player
  if not opponent(player) then return end
  local legal = direction_sets(run, state)
  local paths = b:size() == 8 and PATHS or WIDE_PATHS
  local buffers = run.buffers
  local count = b:move_list(player, legal, buffers[1], paths[1])
  local first = buffers[1]
  for i = 2, #paths do
    local other = buffers[i]
    local same = b:move_list(player, legal, other, paths[i]) == count
    for k = 1, count do
      if not same then break end
      same = first[k] == other[k]
    end
    if not same then
      local n = b:size()
      fail(run.ply, "move paths", "%s to move, legal %s: %s path [%s], %s path [%s]", player,
        schedule.dirs_text(legal), paths[1], indices_text(first, count, n), paths[i],
        indices_text(other, #other, n))
    end
  end
  run.checks = run.checks + 1
end

-- The C searcher's view of the position (core_game) against the hooks:
-- moves, whether a pass is allowed, whether the game is over; at the end,
-- its value against the score margin and the winner.
local function check_core_view(run, state, finished, moves, can_pass)
  if not run.core_desc then return end
  local view = run.searcher:position(state.board, state.player, {
    game = run.core_desc, passes = state.passes, piece = state.piece, turns = state.turns, unable = state.unable })
  run.checks = run.checks + 1
  if view.finished ~= finished then
    fail(run.ply, "core view", "the hooks say finished=%s, the core %s", tostring(finished),
      tostring(view.finished))
  end
  if not finished then
    local core_moves, same = view.moves, #view.moves == #moves
    for i = 1, #moves do
      if not same then break end
      same = moves[i][1] == core_moves[i][1] and moves[i][2] == core_moves[i][2]
    end
    if not same and sorted_text(moves) ~= sorted_text(core_moves) then
      fail(run.ply, "core view", "moves: hooks [%s], core [%s]", sorted_text(moves), sorted_text(core_moves))
    end
    if view.can_pass ~= can_pass then
      fail(run.ply, "core view", "can_pass: hooks %s, core %s", tostring(can_pass), tostring(view.can_pass))
    end
    return
  end
  if not run.searched then return end
  local first, second = run.rules:score(state)
  local margin = state.player == run.rules.sides[1] and first - second or second - first
  if run.core_desc.misere then margin = -margin end
  if view.value ~= margin then
    fail(run.ply, "core view", "final value: core %s, hooks' margin for %s %d (score %s-%s)",
      tostring(view.value), tostring(state.player), margin, tostring(first), tostring(second))
  end
  local winner = run.rules:winner(state)
  local expected = view.value > 0 and state.player or view.value < 0 and opponent(state.player) or "draw"
  if winner ~= expected then
    fail(run.ply, "core view", "winner: hooks %s, core value %d for %s", tostring(winner), view.value,
      tostring(state.player))
  end
end

-- Perft by every path of the core, and by the hooks where the core counts
-- the rule set (on a copy of the state; the hooks' count plays and undoes).
local function check_perft(run, state)
  local b = state.board
  if not is_board(b) or not opponent(state.player) then return end
  local legal, flip = direction_sets(run, state)
  local depth = b:size() <= 8 and 3 or 2
  local hooks_depth = b:size() <= 4 and 3 or b:size() <= 12 and 2 or 1
  local counts = {}
  for i, path in ipairs(PATHS) do
    counts[i] = b:perft(state.player, depth, { legal = legal, flip = flip, scalar = path == "scalar",
      generic = path == "generic", reference = path == "reference" })
    if counts[i] ~= counts[1] then
      fail(run.ply, "perft paths", "depth %d, legal %s, flip %s: %s %d, %s %d", depth, schedule.dirs_text(legal),
        schedule.dirs_text(flip), PATHS[1], counts[1], path, counts[i])
    end
  end
  run.checks = run.checks + 1
  if rules_mod.counted_in_core(run.rules) then
    local copy = run.rules:clone(state)
    local before = checked_game.snapshot(copy)
    local core_count = b:perft(state.player, hooks_depth, { legal = legal, flip = flip })
    local hooks = perft.hooks(run.rules, copy, hooks_depth)
    if hooks ~= core_count then
      fail(run.ply, "perft hooks", "depth %d: core %d, hooks %d", hooks_depth, core_count, hooks)
    end
    if copy.board ~= b or checked_game.snapshot(copy) ~= before then
      fail(run.ply, "perft hooks", "the count did not restore the position")
    end
    run.checks = run.checks + 1
  end
end

-- Boxes owned by each player, counted box by box, against the score.
local function check_boxes(run, state)
  local d = state.board
  if not is_dots(d) then return end
  local owned = { 0, 0 }
  for r = 1, d:rows() do
    for c = 1, d:cols() do
      local owner = d:box_owner(r, c)
      if owner then owned[owner] = owned[owner] + 1 end
      if (owner ~= nil) ~= (d:box_sides(r, c) == 4) then
        fail(run.ply, "boxes", "box %d,%d: owner %s with %d sides drawn", r, c, tostring(owner), d:box_sides(r, c))
      end
    end
  end
  local first, second = d:score()
  if owned[1] ~= first or owned[2] ~= second then
    fail(run.ply, "boxes", "owners %d-%d, score %d-%d", owned[1], owned[2], first, second)
  end
  run.checks = run.checks + 1
end

-- What playing `choice` must flip, by the core's cell walk (when the rule
-- set plays on the capture core as it declares): count and squares.
local function expected_flips(run, state, choice)
  if choice == "pass" or not run.core_desc or not is_board(state.board) then return nil end
  local _, flip = direction_sets(run, state)
  return state.board:flips(state.player, choice[1], choice[2], flip)
end

local function check_flips(run, state, player, count, squares, result, before)
  if count == nil then return end
  local b = state.board
  if result ~= count then
    fail(run.ply, "flips", "the move flipped %s, the cell walk says %d", tostring(result), count)
  end
  for _, sq in ipairs(squares) do
    if b:get(sq[1], sq[2]) ~= player then
      fail(run.ply, "flips", "%s%d should now be %s", string.char(96 + sq[2]), sq[1], player)
    end
  end
  if b:count(player) ~= before[player] + count + 1 or b:count(opponent(player)) ~= before[opponent(player)] - count then
    fail(run.ply, "flips", "counts after the move: %s %d, %s %d", player, b:count(player), opponent(player),
      b:count(opponent(player)))
  end
  run.checks = run.checks + 1
end

-- One ply: the checks of the position, then the chosen move played on the
-- game, undone, and played on a clone made before it; returns the clone,
-- with which the game goes on (so clones of clones play whole games).
local function step(run, g, choice_rng)
  local state = g.state
  local snap0 = snapshot(state, run)
  local moves = g.rules:moves(state)
  local can_pass = g.rules:can_pass(state) and true or false
  local choices = #moves + (can_pass and 1 or 0)
  if choices == 0 then fail(run.ply, "hooks", "the game is not finished but there is no move and no pass") end
  if is_board(state.board) then check_paths(run, state) end
  check_core_view(run, state, false, moves, can_pass)
  if run.ply == run.sample_ply then
    check_perft(run, state)
    check_boxes(run, state)
  end
  local pick = choice_rng:random(choices)
  local choice = pick <= #moves and moves[pick] or "pass"
  if run.described then
    local why = described.step(run.described, moves, choice)
    if why then fail(run.ply, "described", "the C engine and the reference: %s", why) end
    run.checks = run.checks + 3
  end
  run.playing = choice == "pass" and "pass" or g:move_text(choice)
  local player = state.player
  local count, squares = expected_flips(run, state, choice)
  local before = count and { black = state.board:count("black"), white = state.board:count("white") }
  local copy = g:clone()
  if copy.state.board ~= state.board or snapshot(copy.state, run) ~= snap0 then
    fail(run.ply, "clone", "the clone differs from the original:\n%s\n%s", snap0, snapshot(copy.state, run))
  end
  local result, why = g:apply(choice)
  if not result then fail(run.ply, "hooks", "a legal choice was refused: %s", tostring(why)) end
  local snap1 = snapshot(g.state, run)
  check_flips(run, g.state, player, count, squares, result, before)
  if not g:undo() then fail(run.ply, "undo", "undo refused right after a move") end
  if g.state.board ~= copy.state.board or snapshot(g.state, run) ~= snap0 then
    fail(run.ply, "undo", "play then undo did not restore the position:\nbefore %s\n%s\nafter  %s\n%s", snap0,
      tostring(copy.state.board), snapshot(g.state, run), tostring(g.state.board))
  end
  local copied
  copied, why = copy:apply(choice)
  if not copied then fail(run.ply, "hooks", "a legal choice was refused on the clone: %s", tostring(why)) end
  if snapshot(g.state, run) ~= snap0 then fail(run.ply, "clone", "playing on the clone changed the original") end
  if copied ~= result or snapshot(copy.state, run) ~= snap1 then
    fail(run.ply, "clone", "the same move on the clone and the original gave different positions")
  end
  run.checks = run.checks + 4
  return copy
end

-- The record of g parses back and replays to the same position, result
-- and (dots) box owners.
local function check_record(run, g, info)
  local text = record.text(g, { rules = info.source or info.name, seed = info.seed })
  local rec = record.parse(text, "soak record")
  local g2
  if info.source then
    g2 = record.start(rec)
  else
    local opts = {}
    for _, key in ipairs(rec.option_order) do opts[key] = rules_mod.parse_option(g.rules, key, rec.options[key]) end
    g2 = game_mod.new(g.rules, opts, core.rng(rec.seed))
  end
  for k, entry in ipairs(rec.moves) do
    local ok, why = record.apply(g2, entry)
    if not ok then fail(run.ply, "record", "replaying move %d: %s", k, why) end
  end
  if g2.state.board ~= g.state.board or checked_game.snapshot(g2.state) ~= checked_game.snapshot(g.state) then
    fail(run.ply, "record", "the replayed record ends in another position")
  end
  if record.result(g2) ~= rec.result.text then
    fail(run.ply, "record", "result: the record says '%s', the replay ends '%s'", rec.result.text, record.result(g2))
  end
  local d1, d2 = g.state.board, g2.state.board
  if is_dots(d1) then
    for r = 1, d1:rows() do
      for c = 1, d1:cols() do
        if d1:box_owner(r, c) ~= d2:box_owner(r, c) then
          fail(run.ply, "record", "box %d,%d: owner %s, after the replay %s", r, c, tostring(d1:box_owner(r, c)),
            tostring(d2:box_owner(r, c)))
        end
      end
    end
  end
  run.checks = run.checks + 1
end

--- Plays game `info` (schedule.game) with every check. searcher: a
-- core.searcher (for its position view). `run.g` holds the game while it
-- is played (the caller reads its history when a check fails). Returns {
-- plies =, checks = }.
function checked_game.play(info, searcher, run)
  run = run or {}
  local setup_rng, choice_rng, opts_rng = schedule.generators(info.seed)
  local g = game_mod.new(info.rules, info.opts, setup_rng)
  g.source = info.source
  run.g, run.rules, run.searcher, run.ply, run.checks = g, g.rules, searcher, 0, 0
  run.buffers = { {}, {}, {}, {} }
  run.searched = rules_mod.searched_in_core(g.rules)
  run.described = described.start(g.rules, g.opts)
  if run.searched or rules_mod.counted_in_core(g.rules) then run.core_desc = rules_mod.core_game(g.rules, g.state) end
  local cells = is_board(g.state.board) and g.state.board:size() ^ 2 or 2 * #g:moves()
  run.sample_ply = opts_rng:random(0, math.max(1, math.floor(cells / 2)))
  local start, start_board = checked_game.snapshot(g.state), g.state.board:clone()
  local group = (g.rules.family or "board") == "board"
    and require("boardscript.symmetry").of(g.rules, g:board(), g.state)
  local map = group and symmetric.map_for(group, info.seed)
  local limit = 64 * math.max(16, math.floor(cells))
  while not g:finished() do
    if run.ply >= limit then fail(run.ply, "hooks", "the game did not end within %d plies", limit) end
    g = step(run, g, choice_rng)
    run.g = g
    run.ply = run.ply + 1
  end
  run.playing = nil
  if run.described then
    local why = described.finish(run.described)
    if why then fail(run.ply, "described", "the C engine and the reference: %s", why) end
  end
  check_core_view(run, g.state, true)
  check_boxes(run, g.state)
  check_record(run, g, info)
  if map then run.checks = run.checks + symmetric.check(info, g, map, schedule.generators, fail) end
  local plies = #g.log
  for _ = 1, plies do
    if not g:undo() then fail(run.ply, "undo", "undo refused before the start of the game") end
  end
  if g.state.board ~= start_board or checked_game.snapshot(g.state) ~= start then
    fail(run.ply, "undo", "undoing every move did not give the start")
  end
  run.checks = run.checks + 1
  return { plies = plies, checks = run.checks }
end

return checked_game
