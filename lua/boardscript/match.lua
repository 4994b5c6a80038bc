--- Matches between two players: games in pairs from the same opening with
-- the sides swapped, each game a pure function of (match seed, game
-- number), so a match played in one process, in K worker processes or in
-- shards on many machines gives the same games and the same summary.
--
-- Game i (1-based) belongs to pair p = (i + 1) // 2; in the pair's first
-- game A has the first side (Black; Player 1 in dots), in the second B has
-- it. The pair's opening is line ((p - 1) mod #lines) + 1 of the openings
-- file, or else a random opening of `plies` plies drawn with the pair's
-- seed (balanced: where the C core searches the rule set, the first of up
-- to 32 draws whose 4-ply value is within 4 discs; where the game has
-- symmetries, boardscript.symmetry, none that is an image of an earlier
-- pair's opening, so no two pairs play the same game turned). The set-up (random
-- blocks, say) is drawn with the pair's seed too, so both games of a pair
-- start from the same position; each game's players draw from the game's
-- own seed.
local core = require "boardscript.core"
local elo = require "boardscript.elo"
local errors = require "boardscript.errors"
local game_mod = require "boardscript.game"
local limits = require "boardscript.limits"
local players = require "boardscript.players"
local rules_mod = require "boardscript.rules"

local match = {}

-- splitmix64's finalizer over Lua's wrapping 64-bit integers.
local function mix(x)
  x = x + 0x9E3779B97F4A7C15
  x = (x ~ (x >> 30)) * -4658895280553007687 -- 0xBF58476D1CE4E5B9
  x = (x ~ (x >> 27)) * -7723592293110705685 -- 0x94D049BB133111EB
  return x ~ (x >> 31)
end

--- The seed of stream `k` of unit `n` (a pair or a game) of a match
-- seeded `seed`.
function match.seed_of(seed, n, k)
  return mix(mix(mix(seed) ~ n) ~ k)
end

--- What a rule set's score counts, as the summary names it: its
-- `score_unit` ("discs", "boxes", "pieces"...); without one, "boxes" in the
-- dots family (whose score counts boxes), else the neutral "points".
-- @tparam table rules the rule set
-- @treturn string the unit
function match.unit(rules)
  if type(rules.score_unit) == "string" then return rules.score_unit end
  return rules.family == "dots" and "boxes" or "points"
end

local function legal_now(g, move)
  local ok = g:check(move)
  return ok ~= nil and ok ~= "pass"
end

-- The longest text of one move tried (`a1 a2` in dots; `f5`, `a10`).
local MOVE_TEXT = 16

-- Whether `text` at `pos` is a pass word (`pass` or `pa`, any case).
local function pass_word(text, pos)
  local word = text:match("^%a+", pos)
  if not word then return nil end
  local lower = word:lower()
  if (lower == "pass" or lower == "pa") and not text:find("^[^%s,]", pos + #word) then return word end
  return nil
end

-- Splits `text` into moves playable from `g` one after the other: moves
-- are separated by spaces or commas, or written together ("f5d6c3"); at
-- each point the longest text (up to MOVE_TEXT bytes) that is a legal move
-- is taken. Linear in the length of `text`, and it stops at the first move
-- that is not legal. Returns the list of texts (and plays them on g), or
-- nil, the number of the bad move and its text.
local function split_moves(g, text)
  local moves, pos, n = {}, 1, #text
  while true do
    pos = text:match("^[%s,]*()", pos)
    if pos > n then return moves end
    local word = pass_word(text, pos)
    local found = false
    if word then
      found = g:can_pass() and g:pass() and true or false
      if found then
        moves[#moves + 1] = "pass"
        pos = pos + #word
      end
    else
      for length = math.min(MOVE_TEXT, n - pos + 1), 1, -1 do
        local stop = pos + length - 1
        local piece = text:sub(pos, stop)
        if not piece:find("%s$") and (stop == n or text:find("^[%s,]", stop + 1) or not piece:find("[%s,]")) then
          local move = g:parse_move(piece)
          if move ~= nil and legal_now(g, move) then
            moves[#moves + 1] = g:move_text(move)
            g:play(move)
            pos, found = stop + 1, true
            break
          end
        end
      end
    end
    if not found then return nil, #moves + 1, text:match("^[^%s,]*", pos):sub(1, MOVE_TEXT) end
  end
end

--- The most bytes an openings file may hold (docs/decisions.md, "Bounded
-- inputs"); a line is at most 64 KiB.
match.MAX_OPENINGS_BYTES = 4 << 20

--- Reads an openings file: one opening a line, in the rule set's notation
-- (`f5d6c3`, `f5 d6 c3`, `a1 a2, b1 b2`, `pass` for a pass); blank lines
-- and `#` comments are skipped. Each is checked from the start position of
-- `new_game()`: returns a list of lists of move texts. A bad line is a
-- user error naming the file, the line and its first move that is not
-- legal; the file is read in pieces, within match.MAX_OPENINGS_BYTES.
function match.read_openings(path, new_game)
  local list = {}
  for line, number in require("boardscript.bounded").lines(path, { limit = match.MAX_OPENINGS_BYTES }) do
    line = line:gsub("#.*$", ""):gsub("\r$", "")
    if line:find("%S") then
      local moves, k, bad = split_moves(new_game(), line)
      if not moves then
        errors.fail(("%s:%d: move %d '%s' is not a legal move there (an opening is legal moves from the start)")
          :format(path, number, k, bad))
      end
      list[#list + 1] = moves
    end
  end
  if #list == 0 then errors.fail(("%s: no openings in the file"):format(path)) end
  return list
end

local Match = {}
Match.__index = Match

--- A match. cfg: { rules = name or path, texts = { option = text } (as
-- --size/--opt give them), a = spec, b = spec, games = N, seed = S,
-- openings = path or nil, plies = random opening plies (default 4) }.
-- Loads and checks the rule set, players and openings (user errors).
function match.new(cfg)
  local self = setmetatable({ cfg = cfg }, Match)
  self.rules = rules_mod.load(cfg.rules)
  self.opts = {}
  for key, text in pairs(cfg.texts or {}) do self.opts[key] = rules_mod.parse_option(self.rules, key, text) end
  self.unit = match.unit(self.rules)
  self.seats = {}
  for _, which in ipairs { "a", "b" } do
    local player = players.load(cfg[which], self.rules)
    if player.human then errors.fail(("--%s: a match is between computer players, not humans"):format(which)) end
    if not players.plays(player, self.rules) then
      errors.fail(("--%s: player '%s' does not play %s (for it: %s)"):format(which, cfg[which],
        tostring(self.rules.name or cfg.rules), table.concat(players.builtin_for(self.rules), ", ")))
    end
    self.seats[which] = player
  end
  self.plies = cfg.plies or 4
  local probe = self:start(1)
  self.size_text = probe:size_text()
  self.sides = { probe:sides() }
  if cfg.openings then
    self.openings = match.read_openings(cfg.openings, function() return self:start(1) end)
  end
  self.searchable = rules_mod.searched_in_core(self.rules)
  return self
end

--- A new game of the match's rule set, set up with pair `pair`'s seed.
function Match:start(pair)
  local g = game_mod.new(self.rules, self.opts, core.rng(match.seed_of(self.cfg.seed, pair, 0)))
  g.source = self.cfg.rules
  return g
end

-- A shallow search's value (hundredths of a disc) of g for the side to move.
local function shallow_value(self, g)
  self.searcher = self.searcher or core.searcher { tt_mb = 1 }
  self.searcher:clear()
  local state = g.state
  local _, value = self.searcher:search(state.board, state.player, {
    game = rules_mod.core_game(g.rules, state), passes = state.passes, piece = state.piece,
    turns = state.turns, unable = state.unable, depth = 4, endgame = 0 })
  return value or 0
end

-- Plays `plies` random plies on g with rng; false if the game ended first.
local function random_plies(g, rng, plies)
  for _ = 1, plies do
    if g:finished() then return false end
    local moves = g:moves()
    if #moves == 0 then
      if not g:can_pass() or not g:pass() then return false end
    else
      g:play(moves[rng:random(#moves)])
    end
  end
  return not g:finished()
end

-- The position of game `g` the same under every map of `group`
-- (boardscript.symmetry): the least of its images' cells, and the side to move.
local function position_key(g, group)
  local symmetry = require "boardscript.symmetry"
  local b = g:board()
  local rows, cols = b:rows(), b:cols()
  local best
  for _, map in ipairs(group) do
    local cells = {}
    for r = 1, rows do
      for c = 1, cols do
        local ir, ic = symmetry.cell(map, r, c, rows, cols)
        cells[(ir - 1) * cols + ic] = b:get(r, c)
      end
    end
    local key = table.concat(cells, ",")
    if not best or key < best then best = key end
  end
  return best .. "/" .. tostring(g:to_move())
end

-- The keys (position_key) of the random openings of pairs 1..pair - 1,
-- worked out once each, or nil where the game has no symmetry to share.
function Match:earlier_openings(pair)
  if self.opening_group == nil then
    local probe = self:start(1)
    local ok, group = false, nil
    if (self.rules.family or "board") == "board" and type(probe.state.board) ~= "nil"
      and type(probe.state.board.rows) == "function" then
      ok, group = pcall(require("boardscript.symmetry").of, self.rules, probe:board(), probe.state)
    end
    self.opening_group = ok and #group > 1 and group or false
    self.opening_keys, self.opening_set = {}, {}
  end
  if not self.opening_group then return nil end
  local keys, set = self.opening_keys, self.opening_set
  for p = #keys + 1, pair - 1 do
    keys[p] = position_key(self:random_opening(p, set), self.opening_group)
    set[keys[p]] = true
  end
  if #keys == pair - 1 then return set end
  local earlier = {}
  for p = 1, pair - 1 do earlier[keys[p]] = true end
  return earlier
end

--- The random opening of pair `pair`: the first draw that is balanced
-- (where the C core searches the rule set) and, where the game has
-- symmetries (boardscript.symmetry), no image of an earlier pair's
-- opening (`taken`: their position keys); else the best of 32 draws.
function Match:random_opening(pair, taken)
  local rng = core.rng(match.seed_of(self.cfg.seed, pair, 1))
  local best, best_value
  for _ = 1, 32 do
    local g = self:start(pair)
    local played = random_plies(g, rng, self.plies)
    local fresh = not taken or not taken[position_key(g, self.opening_group)]
    if played and fresh then
      if not self.searchable then return g end
      local value = math.abs(shallow_value(self, g))
      if value <= 400 then return g end
      if not best or value < best_value then best, best_value = g, value end
    elseif not best then
      best, best_value = g, math.huge
    end
  end
  return best
end

--- The starting game of pair `pair` (opening played) and its moves' texts.
function Match:opening(pair)
  if self.openings then
    local g = self:start(pair)
    local moves = self.openings[(pair - 1) % #self.openings + 1]
    split_moves(g, table.concat(moves, " "))
    return g
  end
  return self:random_opening(pair, self:earlier_openings(pair))
end

local function texts_of(g)
  local out = {}
  for _, entry in ipairs(g.log) do out[#out + 1] = entry.pass and "pass" or entry.text end
  return out
end

--- Sets up game `index` (1-based) for playing a move at a time: a table
-- { index =, pair =, a_first =, g = the game after its opening, seat = {
-- [side] = player }, opening = the opening's move texts }. Match:play
-- plays it to the end; `serve` steps it so the moves can be watched.
function Match:begin(index)
  local pair = (index + 1) // 2
  local a_first = index % 2 == 1
  local g = self:opening(pair)
  local opening = texts_of(g)
  g.rng = core.rng(match.seed_of(self.cfg.seed, index, 2))
  local first, second = g:sides()
  local seat = {
    [first] = players.fresh(self.seats[a_first and "a" or "b"]),
    [second] = players.fresh(self.seats[a_first and "b" or "a"]),
  }
  local game = { index = index, pair = pair, a_first = a_first, g = g, seat = seat, opening = opening }
  local tc = self.cfg.tc
  if tc then -- each side's clock, and what each player spent
    game.left = { [first] = tc.base, [second] = tc.base }
    game.spent = { a = 0, b = 0 }
    game.moves = { a = 0, b = 0 }
  end
  return game
end

-- The seat letter ("a" or "b") of `side` in `game`.
local function letter(game, side)
  local first = game.g:sides()
  return (side == first) == game.a_first and "a" or "b"
end

-- players.choose on the match's clock (--tc): the side's clock set for the
-- player, the wall time taken off it and the increment added; a clock run
-- out is a loss on time.
local function choose_on_clock(self, game, player, g)
  local tc, side = self.cfg.tc, g:to_move()
  players.set_clock(player, g, game.left[side], tc.inc)
  local started = core.clock()
  local move = players.choose(player, g)
  local took = core.clock() - started
  local who = letter(game, side)
  game.spent[who], game.moves[who] = game.spent[who] + took, game.moves[who] + 1
  game.left[side] = game.left[side] - took
  if game.left[side] < 0 then
    game.forfeit, game.loser, game.on_time = ("%s lost on time (%.3f s over)"):format(
      g:side_name(side), -game.left[side]), side, who
    return nil
  end
  game.left[side] = game.left[side] + tc.inc
  return move
end

--- Plays one move (or pass) of a game Match:begin set up; false once the
-- game is over (finished, or forfeited by the player to move).
function Match:step(game)
  local g = game.g
  if game.forfeit or g:finished() then return false end
  if #g:moves() == 0 then
    if not g:can_pass() or not g:pass() then
      errors.fail(("rules %s: %s has no legal move and may not pass, but the game is not over"):format(
        tostring(self.cfg.rules), g:side_name()))
    end
    return true
  end
  local player = game.seat[g:to_move()]
  local ok, move
  if self.cfg.tc then
    ok, move = pcall(choose_on_clock, self, game, player, g)
  else
    ok, move = pcall(players.choose, player, g)
  end
  if ok and game.on_time then return false end
  if not ok then
    -- a rule set over its budget is nobody's forfeit: it stops the match
    if not errors.is_user(move) or limits.culprit(move) == "rules" then
      error(move, 0)
    end
    game.forfeit, game.loser = move.message, g:to_move()
    return false
  end
  if move == "pass" then g:pass() else g:play(move) end
  return true
end

--- The result of a game played out with Match:step: { game, pair, a_side,
-- result = "win"|"loss"|"draw" for A, score_a, score_b, margin, seed,
-- opening, forfeit = message or nil }.
function Match:result(game)
  local g = game.g
  local first, second = g:sides()
  local s1, s2 = g:score()
  s1, s2 = tonumber(s1) or 0, tonumber(s2) or 0
  local a_side = game.a_first and first or second
  local score_a, score_b = s1, s2
  if not game.a_first then score_a, score_b = s2, s1 end
  local result
  if game.forfeit then
    result = (game.loser == a_side) and "loss" or "win"
  else
    local winner = g:winner()
    result = winner == "draw" and "draw" or (winner == a_side and "win" or "loss")
  end
  return {
    game = game.index, pair = game.pair, a_side = tostring(a_side), result = result,
    score_a = score_a, score_b = score_b, margin = score_a - score_b,
    seed = self.cfg.seed, opening = table.concat(game.opening, ","), forfeit = game.forfeit,
    time_a = game.spent and game.spent.a, time_b = game.spent and game.spent.b,
    moves_a = game.moves and game.moves.a, moves_b = game.moves and game.moves.b, on_time = game.on_time,
  }
end

--- Plays game `index` (1-based): returns its result (Match:result) and the
-- finished game and its seats.
function Match:play(index)
  local game = self:begin(index)
  while self:step(game) do end
  return self:result(game), game.g, game.seat
end

--- Running totals of a match from A's point of view, fed results in game
-- order. sprt: settings (elo.parse_sprt) or nil; once its decision is
-- reached, later results are not counted.
function match.tally(sides, sprt)
  return {
    sides = sides, sprt = sprt, n = 0, w = 0, l = 0, d = 0,
    by_side = { [sides[1]] = { w = 0, l = 0, d = 0 }, [sides[2]] = { w = 0, l = 0, d = 0 } },
    first = { w = 0, l = 0, d = 0 }, margins = {}, forfeits = 0,
    time = { a = 0, b = 0 }, moves = { a = 0, b = 0 }, on_time = { a = 0, b = 0 }, timed = false,
  }
end

--- Counts one result; returns the SPRT decision once it is reached.
function match.add(t, r)
  if t.decision then return t.decision end
  local key = r.result == "win" and "w" or (r.result == "loss" and "l" or "d")
  t.n, t[key] = t.n + 1, t[key] + 1
  local side = t.by_side[r.a_side]
  if side then side[key] = side[key] + 1 end
  -- the first side's view: A's win is the first side's win when A had it
  local first_key = key
  if r.a_side ~= tostring(t.sides[1]) and key ~= "d" then first_key = key == "w" and "l" or "w" end
  t.first[first_key] = t.first[first_key] + 1
  t.margins[#t.margins + 1] = r.margin
  if r.forfeit then t.forfeits = t.forfeits + 1 end
  if r.time_a then -- a game on the clock (--tc)
    t.timed = true
    t.time.a, t.time.b = t.time.a + r.time_a, t.time.b + r.time_b
    t.moves.a, t.moves.b = t.moves.a + r.moves_a, t.moves.b + r.moves_b
    if r.on_time then t.on_time[r.on_time] = t.on_time[r.on_time] + 1 end
  end
  if t.sprt then
    local llr, decision = elo.sprt(t.w, t.l, t.d, t.sprt)
    t.llr = llr
    if decision then t.decision, t.decided_at = decision, r.game end
  end
  return t.decision
end

local function wld(name, w, l, d)
  local n = w + l + d
  local score = n > 0 and (w + d / 2) / n or 0
  return ("%s: %d - %d - %d  [%.3f] %d"):format(name, w, l, d, score, n)
end

--- The summary lines of a tally (cutechess-cli's form). names = { a =, b
-- = }, side_name = function(side) -> "Black", unit = what a score counts
-- (match.unit: "discs").
function match.summary(t, names, side_name, unit)
  local out = {}
  out[#out + 1] = wld(("Score of %s vs %s"):format(names.a, names.b), t.w, t.l, t.d)
  for _, side in ipairs(t.sides) do
    local c = t.by_side[side]
    out[#out + 1] = wld(("...      %s playing %s"):format(names.a, side_name(side)), c.w, c.l, c.d)
  end
  out[#out + 1] = wld(("...      %s vs %s"):format(side_name(t.sides[1]), side_name(t.sides[2])),
    t.first.w, t.first.l, t.first.d)
  out[#out + 1] = elo.line(elo.stats(t.w, t.l, t.d), names.a, names.b)
  local sum, sq = 0, 0
  for _, m in ipairs(t.margins) do sum = sum + m end
  local n = #t.margins
  local mean = n > 0 and sum / n or 0
  for _, m in ipairs(t.margins) do sq = sq + (m - mean) ^ 2 end
  -- no spread from fewer than two games: said in words, never "+/- nan"
  local spread = n > 1 and ("+/- " .. elo.number(elo.Z975 * math.sqrt(sq / (n - 1) / n), 2))
    or (n == 1 and "(one game: no margin yet)" or "(no games)")
  out[#out + 1] = ("Mean margin of %s: %s%s %s a game %s"):format(names.a, mean >= 0 and "+" or "",
    elo.number(mean, 2), unit, spread)
  if t.timed then
    local function per_move(k) return t.moves[k] > 0 and t.time[k] / t.moves[k] or 0 end
    out[#out + 1] = ("Time: %s %.3f s a move (%d moves), %s %.3f s a move (%d moves); lost on time: %d, %d"):format(
      names.a, per_move("a"), t.moves.a, names.b, per_move("b"), t.moves.b, t.on_time.a, t.on_time.b)
  end
  if t.forfeits > 0 then
    out[#out + 1] = ("Forfeits: %d game%s lost by a player's fault"):format(t.forfeits, t.forfeits == 1 and "" or "s")
  end
  if t.sprt then
    local llr, _, lower, upper = elo.sprt(t.w, t.l, t.d, t.sprt)
    local percent = llr >= 0 and 100 * llr / upper or 100 * llr / lower
    local line = ("SPRT: llr %.3f (%.1f%%), lbound %.3f, ubound %.3f"):format(llr, percent, lower, upper)
    if t.decision then
      line = line .. (" - %s was accepted"):format(t.decision)
    else
      line = line .. " - no decision"
    end
    out[#out + 1] = line
  end
  return out
end

return match
