--- `boardscript train` for a described game (boardscript.describe): an
-- n-tuple evaluation over the cells (core.dgame_eval) learned by self-play
-- with the C search over the described-game engine. Rounds of games, the
-- first played with the untrained search (the engine's hand-written
-- evaluation), the next with the evaluation fitted so far; every position
-- labelled by a TD(lambda) return of the search's values and the game's
-- result; after each round a logistic fit over the latest positions and a
-- duel of the learned evaluation against the untrained search (the
-- hand-written evaluation) at the same depth. docs/guide.md,
-- "Training an evaluation", "Described games".
local core = require "boardscript.core"
local compile = require "boardscript.describe.compile"
local describe = require "boardscript.describe"
local errors = require "boardscript.errors"
local evalfile = require "boardscript.described_eval"
local output = require "boardscript.output"
local rule_options = require "boardscript.rule_options"

local described = {}

--- The defaults.
described.ROUNDS = 12
--- Self-play's search depth: 3 (2 before; docs/decisions.md, "Described games: learned
-- evaluations": Connect Four's ten minutes scored 66 % at depth 2, 73 % at depth 3).
described.DEPTH = 3
described.EPSILON = 0.3
described.SCORE_GAMES = 20
described.PHASES = 1
described.RIDGE = 30
described.ITERATIONS = 30
--- Tables per side to move (2) or shared by both (1): docs/decisions.md, "Described games: learned evaluations".
described.SIDES = 2
--- The share of the self-play search's value in a position's label, the rest the next position's
-- label (the game's result after the last): a TD(lambda) return, lambda = 1 - LABEL.
described.LABEL = 0.5
--- A logistic evaluation (the tanh link of dgame_ntuple.h: a logit fitted by cross-entropy,
-- the hand-written value read linearly) rather than least squares on the labels.
described.LOGISTIC = true
--- The most positions kept: the latest played (docs/decisions.md,
-- "Described games: the latest positions").
described.MAX_POSITIONS = 600000
--- Where the windows share tables by shape (`described.sharing`), the defaults differ
-- (docs/decisions.md, "Described games: tables by shape"): fewer exploratory moves (a random stone
-- among the many empty cells of a placement game is nearly always a lost tempo, and the random
-- opening plies vary its games enough), one set of tables for both sides to move (a game alike at
-- every cell), windows a cell longer than the winning line, labels that lean on the search, and
-- self-play at depth 2 (a ply of a board of empty cells is many moves: more games pay more).
described.SHAPE = { epsilon = 0.05, sides = 1, label = 0.8, longer = 1, depth = 2 }
--- The share of the self-play positions whose children are added too.
described.CHILDREN = 0
--- A game longer than this many plies per cell (at least 1000 in all) is a draw.
described.PLIES_PER_CELL = 50

-- The options of `boardscript train` that a described game does not take.
local REFUSED = { "shard", "data", "endgame", "features", "chart", "first", "seconds", "lambda", "lambda_depth" }

--- Where the `seen`-th position played goes among at most `max` kept:
-- nil (added) while there is room, then the slot of the oldest (the
-- positions a weaker evaluation labelled go first).
-- @tparam integer seen positions played so far, this one included
-- @tparam integer max the most kept
-- @treturn ?integer the slot it replaces, 1..max
function described.slot(seen, max)
  if seen <= max then return nil end
  return (seen - 1) % max + 1
end

--- Whether `args.rules` is a described game (then `described.run` trains it).
-- @tparam table args the parsed arguments
-- @treturn ?table the rule set, when described
function described.rules_of(args)
  local rules = require("boardscript.rules").load(args.rules)
  if type(rules) ~= "table" or type(rules.described) ~= "table" then return nil end
  return rules
end

local function check_args(args, rules)
  for _, name in ipairs(REFUSED) do
    if args[name] ~= nil then
      errors.fail(("train: --%s is not for a described game (%s)"):format((name:gsub("_", "-")), tostring(rules.name)))
    end
  end
  if args.jobs and args.jobs > 1 then
    errors.fail(("train: a described game (%s) is trained in one process: --jobs 1"):format(tostring(rules.name)))
  end
  if not describe.in_core(rules) then
    errors.fail(("train: %s replaces a hook of its description; train plays described games with the C engine "
      .. "only"):format(tostring(rules.name)))
  end
  if (args.games == nil) == (args.minutes == nil) then
    errors.fail(args.games and "give --games or --minutes, not both"
      or "how long to train: give --games N or --minutes M")
  end
  if args.out == "-" then errors.fail("--out -: an evaluation file is not written to standard output") end
  if args.rounds and args.games and args.rounds > args.games then
    errors.fail(("--rounds %d: more rounds than --games %d"):format(args.rounds, args.games))
  end
end

-- The label of a finished game for `side` ("black"/"white"): 1 a win, -1
-- a loss, 0 a draw; a win decided by a score margin m counts
-- 0.5 + 0.5 min(1, |m| / (cells / 4)) (a narrow win less than a wide one).
local function label_of(S, side, cells)
  local status = S:status()
  if status == nil or status == "draw" then return 0 end
  local a, b = S:score()
  local margin = math.abs(a - b)
  local worth = 1
  if margin > 1 then worth = 0.5 + 0.5 * math.min(1, margin / math.max(1, cells / 4)) end
  return status == side and worth or -worth
end

-- A random legal move of S (nil: none), or "pass" when it must pass.
local function random_move(S, rng)
  local list, n = S:moves()
  if n > 0 then return list[rng:random(n)] end
  if S:can_pass() then return "pass" end
  return nil
end

local function play(S, m)
  if m == "pass" then return S:pass() end
  return S:play(m)
end

-- One game from G's start: `plies` random plies, then the search of `seat`
-- (seat(S) -> move, value) with `epsilon` random moves. Returns the moves,
-- the search's values (for the side to move; nil in the opening), the
-- finished (or given up) state and which moves were random (true). Past the
-- opening every position is searched (its value labels it), and an
-- `epsilon` share of the moves played are random instead of the search's.
local function one_game(G, rng, plies, epsilon, limit, seat)
  local S = G:start()
  local moves, values, random = {}, {}, {}
  while not S:finished() and #moves < limit do
    local m, v
    local by_chance = #moves < plies
    if by_chance then
      m = random_move(S, rng)
    else
      m, v = seat(S) -- searched even where a random move is played: the value labels the position
      if epsilon > 0 and rng:random() < epsilon then m, by_chance = random_move(S, rng), true end
    end
    if m == nil then break end
    assert(play(S, m))
    moves[#moves + 1] = m
    values[#moves], random[#moves] = v, by_chance
  end
  return moves, S, values, random
end

--- The labels of a game's positions, from the last back: a TD(lambda) return with lambda = 1 - mix.
-- A position's label is mix x its search value plus (1 - mix) x the next position's label (from
-- its own side), the last one's next being the game's result; where the move played was random,
-- what follows says nothing of the position, and its label is its search value alone; a
-- position with no search value (the random opening) takes the next one's label.
-- @tparam table points { side =, value = (squashed, or nil), random = (the move played was) } per position
-- @tparam function result result(side) -> the game's result for that side
-- @tparam number mix the share of the search value
-- @treturn table the labels, in order
function described.returns(points, result, mix)
  local labels, later, later_side = {}, nil, nil
  for i = #points, 1, -1 do
    local p = points[i]
    local after
    if later == nil then after = result(p.side) else after = later_side == p.side and later or -later end
    local label = after
    if p.value ~= nil then label = p.random and p.value or mix * p.value + (1 - mix) * after end
    labels[i], later, later_side = label, label, p.side
  end
  return labels
end

-- The seat of the search at `depth` with evaluation E (nil: untrained).
local function searcher(depth, E, values)
  return function(S)
    local m, v = S:search { depth = depth, tt_mb = 1, eval = E, values = values }
    return m, v
  end
end

-- A search value (dgame_search.h) as a label: a result is +-1; a learned
-- evaluation's value is in labels already (times 1000); the untrained
-- one's hundredths are squashed by tanh(v / scale).
local RESULT = 500000
local function tanh(x)
  local e = math.exp(2 * math.max(-20, math.min(20, x)))
  return (e - 1) / (e + 1)
end
-- learned: nil (the untrained search), "logistic" (a logit, times 1000) or "linear" (labels, times 1000)
local function squash(v, learned, scale)
  if v >= RESULT then return 1 elseif v <= -RESULT then return -1 end
  if learned == "logistic" then return tanh(v / 1000) end
  if learned then return math.max(-1, math.min(1, v / 1000)) end
  return tanh(v / scale)
end

--- The scale of the hand-written evaluation's values: the mean size of
-- the one-ply search values over the positions of a few random games
-- (results aside), at least 1.
-- @tparam userdata G the engine game
-- @tparam table values the kinds' values
-- @tparam integer seed the seed
-- @treturn integer the scale
function described.hand_scale(G, values, seed)
  local rng = core.rng(seed + 7)
  local sum, count = 0, 0
  for _ = 1, 10 do
    local S = G:start()
    while not S:finished() and S:ply() < 200 do
      local _, v = S:search { depth = 1, tt_mb = 1, values = values }
      if v and math.abs(v) < RESULT then sum, count = sum + math.abs(v), count + 1 end
      local m = random_move(S, rng)
      if m == nil then break end
      assert(play(S, m))
    end
  end
  return math.max(1, math.min(1000000, count > 0 and math.floor(sum / count + 0.5) or 100))
end

-- The positions of a recorded game as described.returns takes them, its search values
-- squashed by `squash`.
local function game_points(G, game, squash_value)
  local points = {}
  local S = G:start()
  for i, m in ipairs(game.moves) do
    if S:finished() then break end
    local v = game.values[i]
    points[i] = { side = S:player(), value = v and squash_value(v), random = game.random[i] }
    assert(play(S, m))
  end
  return points
end

--- The cells of a window: the k of the game's line end (a window is then a line that could win)
-- where its table fits (at most 6 cells, 65536 entries), else nil (the engine's default).
-- @tparam table n the normalised form
-- @treturn ?integer the length
--- How a new evaluation's windows share tables (core.dgame_eval's `share`): "shape" (one table per
-- window shape, wherever it stands) for a game whose rules are the same at every cell, each move a
-- piece placed on any empty cell (nothing flipped or converted) and each end a line, a full board or
-- a ply limit (Gomoku, tic-tac-toe); else "position" (a table per window).
-- @tparam table n the normalised description
-- @treturn string "shape" or "position"
function described.sharing(n)
  for _, rule in ipairs(n.rules) do
    if rule.op ~= "place" or rule.at ~= "empty" or rule.flips or rule.convert or rule.arrow then return "position" end
  end
  for _, e in ipairs(n.ends) do
    if e.op ~= "line" and e.op ~= "full" and e.op ~= "plies" then return "position" end
  end
  return "shape"
end

--- The windows' length for a game won by k in a row: k (plus `longer`, where that fits too), where a
-- table of that many cells fits (at most 6 cells, 65536 entries, the board's longer side); nil for
-- the core's default.
-- @tparam table n the normalised description
-- @tparam[opt] integer longer cells past the winning line (0)
-- @treturn ?integer the length
function described.window_length(n, longer)
  local base = 2 * #n.kinds + 2
  local function fits(k) return k >= 2 and k <= 6 and base ^ k <= 65536 and k <= math.max(n.rows, n.cols) end
  for _, e in ipairs(n.ends) do
    if e.op == "line" and type(e.k) == "number" and fits(e.k) then
      local k = e.k + (longer or 0)
      return fits(k) and k or e.k
    end
  end
  return nil
end

--- Trains the described game of `args` and writes the file; prints the table.
-- @tparam table args the parsed arguments of `boardscript train`
-- @tparam table rules the described rule set
-- @tparam string command_text the command that makes the same file
-- @treturn integer the exit status
--- The evaluation a run trains: --eval's file, or a new one of the game
-- `G` (normalised form `n`) whose windows' images under the maps the rules
-- keep (declared: boardscript.symmetry) share a table.
function described.evaluation(args, rules, opts, G, n)
  if args.eval then
    if args.eval == args.out then errors.fail("--eval and --out name the same file") end
    local E = evalfile.for_game(args.eval, rules, opts)
    -- a file goes on with the tables it was made with: a --share or --phases that asks for others is refused
    local info = E:info()
    local has = { share = ("tables shared by %s"):format(info.share),
      phases = ("%d phase%s"):format(info.phases, info.phases == 1 and "" or "s") }
    for _, key in ipairs { "share", "phases" } do
      if args[key] ~= nil and args[key] ~= info[key] then
        errors.fail(("train: --%s %s: --eval %s has %s, and goes on with them (leave out --%s, or start a new "
          .. "file without --eval)"):format(key, tostring(args[key]), args.eval, has[key], key))
      end
    end
    return E
  end
  local S0 = G:start()
  local share = args.share or described.sharing(n)
  local shape = share == "shape"
  local ok, made = pcall(core.dgame_eval, S0, { phases = args.phases or described.PHASES,
    length = described.window_length(n, shape and described.SHAPE.longer),
    squares = #n.kinds <= 2, hand_scale = described.hand_scale(G, n.values, args.seed),
    sides = shape and described.SHAPE.sides or described.SIDES,
    logistic = described.LOGISTIC, symmetry = require("boardscript.symmetry").of(rules, S0),
    share = share })
  if not ok then errors.fail("train: " .. tostring(made):gsub("^bad argument #%d to '[%w_.]+' %((.*)%)$", "%1")) end
  return made
end

function described.run(args, rules, command_text)
  check_args(args, rules)
  local opts = rule_options.convert(rules, rule_options.texts(args))
  local id = evalfile.identity(rules, opts)
  local n = compile.normalised(rules.described.description, compile.resolve(rules.described.description, opts))
  local G = compile.game(rules, opts)
  local cells = n.rows * n.cols
  local E = described.evaluation(args, rules, opts, G, n)
  local T = E:trainer { values = n.values }
  local seed = args.seed
  local rng = core.rng(seed)
  local shape = E:info().share == "shape"
  local depth = args.depth or (shape and described.SHAPE.depth or described.DEPTH)
  local duel_depth = args.duel_depth or depth
  local epsilon = args.epsilon or (shape and described.SHAPE.epsilon or described.EPSILON)
  local mix = args.label or (shape and described.SHAPE.label or described.LABEL)
  local children = args.children or described.CHILDREN
  local plies = args.plies or cells // 16
  local limit = args.max_plies or math.max(1000, described.PLIES_PER_CELL * cells)
  local total_rounds = args.rounds or math.min(described.ROUNDS, args.games or described.ROUNDS) -- not over games
  local score_games = args.score_games or described.SCORE_GAMES
  local values = n.values
  local info = E:info()
  local shared = ({ shape = ", one per shape", both = ", per window and per shape" })[info.share] or ""
  output.stdout(("Training %s (%dx%d%s): %d windows of %d cells%s in %d tables (symmetry %s%s), %d phases, %d "
    .. "weights; self-play at depth %d, epsilon %s, %d random plies, labels %s search value, seed %d\n"):format(
    id.rules, id.rows, id.cols, id.options ~= "" and (", " .. id.options) or "", info.instances, info.length,
    info.squares and " and 2x2 squares" or "", info.tables, require("boardscript.symmetry").text(info.symmetry),
    shared, info.phases, info.weights, depth, epsilon, plies, mix, seed))
  output.stdout(("round    games  positions  train rms  held-out rms  vs hand evaluation (depth %d)\n"):format(
    duel_depth))
  local start = core.clock()
  local budget = args.minutes and args.minutes * 60 or nil
  local games, seen = 0, 0
  local kind = E:info().logistic and "logistic" or "linear"
  local trained = args.eval ~= nil and kind or nil
  local duel_time = 0
  for r = 1, total_rounds do
    local seat = searcher(depth, trained and E or nil, values)
    local round_games = args.games and (args.games * r // total_rounds - args.games * (r - 1) // total_rounds)
    local deadline = budget and start + budget * r / total_rounds - duel_time
    local played, record = 0, {}
    while true do
      if round_games and played >= round_games then break end
      if deadline and played > 0 and core.clock() >= deadline then break end
      local moves, final, found, random = one_game(G, rng, plies, epsilon, limit, seat)
      games, played = games + 1, played + 1
      record[played] = { moves = moves, final = final, values = found, random = random, holdout = games % 10 == 0 }
    end
    -- the untrained search's scale: the mean size of its values (results aside)
    local sum, count = 0, 0
    for _, game in ipairs(record) do
      for _, v in pairs(game.values) do
        if math.abs(v) < RESULT then sum, count = sum + math.abs(v), count + 1 end
      end
    end
    local scale = math.max(1, count > 0 and 1.5 * sum / count or 100)
    -- positions into the trainer: the latest MAX_POSITIONS
    local function keep(S, target, holdout)
      seen = seen + 1
      T:add(S, target, holdout, described.slot(seen, described.MAX_POSITIONS))
    end
    -- every child of S, labelled by a search one ply shallower (a finished
    -- one by its result): the positions a search meets besides those played
    local child_seat = searcher(math.max(1, depth - 1), trained and E or nil, values)
    local function add_children(S, holdout)
      local list, count_moves = S:moves()
      for k = 1, count_moves do
        assert(S:play(list[k]))
        if S:finished() then
          keep(S, label_of(S, S:player(), cells), holdout)
        else
          local _, v = child_seat(S)
          if v then keep(S, squash(v, trained, scale), holdout) end
        end
        S:undo()
      end
    end
    for _, game in ipairs(record) do
      local points = game_points(G, game, function(v) return squash(v, trained, scale) end)
      local labels = described.returns(points, function(side) return label_of(game.final, side, cells) end, mix)
      local S = G:start()
      for i = 1, #points do
        keep(S, labels[i], game.holdout)
        if game.values[i] and children > 0 and rng:random() < children then
          add_children(S, game.holdout)
        end
        assert(play(S, game.moves[i]))
      end
    end
    local fit = T:fit { iterations = args.iterations or described.ITERATIONS, ridge = args.shrink or described.RIDGE }
    trained = kind
    local t0 = core.clock()
    local duel = described.duel(G, E, duel_depth, score_games, seed + r, plies, limit, values, cells)
    duel_time = core.clock() - t0
    local score = "-"
    if duel.n > 0 then
      score = ("%d - %d - %d  [%.3f]"):format(duel.w, duel.l, duel.d, (duel.w + duel.d / 2) / duel.n)
    end
    local function rms(x) return x and ("%.3f"):format(x) or "-" end
    output.stdout(("%5d %8d %10d %10s %13s  %s\n"):format(r, games, seen, rms(fit.train_rms),
      rms(fit.holdout_rms), score))
    output.flush_stdout()
    evalfile.save(args.out, E, id, { seed = seed, command = command_text,
      trained = ("%d rounds, %d games, %d positions"):format(r, games, seen) })
  end
  info = E:info()
  output.stdout(("Wrote %s: %s %dx%d, %d weights (%d not zero)\n"):format(args.out, id.rules, id.rows, id.cols,
    info.weights, info.nonzero))
  return 0
end

--- The duel of evaluation E against the untrained search, both at `depth`:
-- `count` games, colours alternating, each pair from the same `plies`
-- random opening plies. { w =, l =, d =, n = } for E's side.
-- @tparam userdata G the engine game
-- @tparam userdata E the evaluation
-- @tparam integer depth the plies both search
-- @tparam integer count the games
-- @tparam integer seed the openings' seed
-- @tparam integer plies random plies of each opening
-- @tparam integer limit the longest game (a draw beyond)
-- @tparam table values the kinds' values of the untrained search
-- @tparam integer cells the board's cells
-- @treturn table the score
function described.duel(G, E, depth, count, seed, plies, limit, values, cells)
  local t = { w = 0, l = 0, d = 0, n = 0 }
  local learned, untrained = searcher(depth, E, values), searcher(depth, nil, values)
  local opening
  for k = 1, count do
    if k % 2 == 1 then
      local rng = core.rng(seed * 100003 + k)
      opening = one_game(G, rng, plies, 0, plies, function() return nil end)
    end
    local S = G:start()
    for _, m in ipairs(opening) do assert(play(S, m)) end
    local mine = (k % 2 == 1) == (S:player() == "black") and "black" or "white"
    while not S:finished() and S:ply() < limit do
      local seat = S:player() == mine and learned or untrained
      local m = seat(S)
      if m == nil then break end
      assert(play(S, m))
    end
    local label = label_of(S, mine, cells)
    local key = label > 0 and "w" or (label < 0 and "l" or "d")
    t[key], t.n = t[key] + 1, t.n + 1
  end
  return t
end

return described
