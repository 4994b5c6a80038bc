--- `boardscript train`: learns an evaluation (core.evaluator, pattern
-- tables fitted by core.trainer) by self-play. Rounds of games, each round
-- played with the evaluation fitted so far (the first with the
-- hand-written one), every position labelled by the game's final margin;
-- after each round a fit over all positions so far and a short duel
-- against the hand-written evaluation. `--jobs K` plays in K worker
-- processes, `--shard I/N` plays one slice and writes the positions as a
-- data file, `--data FILES` fits such files. A described game
-- (boardscript.describe) is trained by boardscript.train.described: an
-- n-tuple evaluation over its cells. docs/guide.md, "Training an
-- evaluation".
local errors = require "boardscript.errors"
local options = require "boardscript.options"
local output = require "boardscript.output"
local rule_options = require "boardscript.rule_options"
local setup = require "boardscript.train.setup"

local command = {
  summary = "Learn an evaluation by self-play (pattern tables fitted to game results), in rounds, "
    .. "in parallel or sharded.",
}

local function number_in(lo, hi, what)
  return function(text)
    local x = tonumber(text)
    if not x or x ~= x or x < lo or x > hi then
      return nil, ("%s must be a number from %s to %s"):format(what, lo, hi)
    end
    return x
  end
end

function command.configure(cmd)
  cmd:epilog("Examples:\n"
    .. "  boardscript train --rules reversi --size 6 --games 2000 --jobs 2 --seed 1 --out six.bse --chart six.svg\n"
    .. "  boardscript train --rules reversi --minutes 60 --jobs 8 --out eight.bse\n"
    .. "  boardscript train --rules reversi --games 10000 --seed 1 --shard 3/16 --out part3.data\n"
    .. "  boardscript train --rules reversi --data part*.data --out eight.bse")
  cmd:option("--rules", "The rule set: a built-in name or a path to a .lua file."):count(1)
  rule_options.add(cmd)
  cmd:option("--out", "The evaluation file to write (with --shard: the data file; '-' for standard output)."):count(1)
  cmd:option("--games", "Self-play games in all (spread over the rounds).")
    :convert(options.integer_in(1, setup.MAX_GAMES, "games"))
  cmd:option("--minutes", "Self-play for about this long (wall clock), instead of --games.")
    :convert(number_in(0, 1e6, "minutes"))
  cmd:option("--rounds", ("Rounds: each plays with the evaluation fitted so far (default %d; %d for a "
    .. "described game)."):format(setup.ROUNDS,
    require("boardscript.train.described").ROUNDS)):convert(options.integer_in(1, 10000, "rounds"))
  options.seed(cmd, "Seed of everything random (set-up, openings, exploration, held-out games); "
    .. "default: from the clock.")
  cmd:option("--jobs", "Play in this many worker processes (the same games, the same file).", "1")
    :convert(options.integer_in(1, 256, "jobs"))
  local described = require "boardscript.train.described"
  cmd:option("--depth", ("Plies the self-play search looks ahead (default %d; %d for a described game, %d for its "
    .. "tables by shape; C searcher only)."):format(setup.DEPTH, described.DEPTH, described.SHAPE.depth))
    :convert(options.integer_in(1, 20, "depth"))
  cmd:option("--duel-depth", "Plies both sides of each round's duel search (described games; default: --depth).")
    :convert(options.integer_in(1, 20, "duel-depth"))
  cmd:option("--children", "Share of the positions whose every child is learned too, valued by a search a ply "
    .. "shallower (described games; default 0).")
    :convert(number_in(0, 1, "children"))
  cmd:option("--share", "How the windows share their tables (described games): position (a table per window), shape "
    .. "(one per window shape, wherever it stands) or both; default: shape for a game placed on any empty cell and "
    .. "won by lines, else position.")
    :choices { "position", "shape", "both" }
  cmd:option("--endgame", "Solve exactly at this many empty cells or fewer (default 12 on 8 x 8, else 10).")
    :convert(options.integer_in(0, 30, "endgame"))
  cmd:option("--plies", "Random plies at the start of every game (default: an eighth of the cells).")
    :convert(options.integer_in(0, 1000, "plies"))
  cmd:option("--epsilon", ("Share of exploratory random moves (default %s)."):format(setup.EPSILON))
    :convert(number_in(0, 1, "epsilon"))
  cmd:option("--label", "Share of the self-play search's value in each position's label, the rest being the game's "
    .. "final margin: 0 (default) to 1 (C searcher only); for a described game the rest is the next position's "
    .. "label, the result after the last (default 0.5).")
    :convert(number_in(0, 1, "label"))
  cmd:option("--lambda", "With --data and --eval: label each position by TD(lambda), (1 - L) x the next "
    .. "position's value by --eval + L x the next position's label, from the game's end back (default 1: the "
    .. "game's final margin).")
    :convert(number_in(0, 1, "lambda"))
  cmd:option("--lambda-depth", "With --lambda: the next position's value is that of a search D plies deep by "
    .. "--eval (no exact solve, no Multi-ProbCut) instead of --eval's static value (default 0: the static value).")
    :convert(options.integer_in(0, 8, "lambda-depth"))
  cmd:option("--iterations", "Conjugate-gradient iterations of each fit (default 20).")
    :convert(options.integer_in(1, 10000, "iterations"))
  cmd:option("--shrink", ("Ridge of each fit: every weight is pulled to zero as by this many positions (default %d).")
    :format(setup.SHRINK))
    :convert(number_in(0, 1e9, "shrink"))
  cmd:option("--phases", "Game phases with weights of their own (default: by the size).")
    :convert(options.integer_in(1, 64, "phases"))
  cmd:option("--features", "Scalar features besides the patterns: all, none, or a list such as "
    .. "mobility,potential,parity,anchored (default: all where the core knows the moves, else none).")
  cmd:option("--score-games", ("Games of each round's duel against the hand-written evaluation (default %d)."):format(
    setup.SCORE_GAMES)):convert(options.integer_in(0, 100000, "score-games"))
  cmd:option("--eval", "Start from this evaluation file: play the first round with it and fit from its weights.")
  cmd:option("--shard", "Play only games I, I+N, ... with --eval (or the hand-written evaluation) "
    .. "and write their positions to --out as a data file.")
  cmd:option("--data", "Fit the positions of these data files (from --shard runs) instead of playing."):args("+")
  cmd:option("--mpc-positions", ("Positions the Multi-ProbCut parameters are fitted on, after the weights (default %d; "
    .. "0: none; C searcher only)."):format(require("boardscript.train.mpc").POSITIONS))
    :convert(options.integer_in(0, 100000, "mpc-positions"))
  cmd:option("--mpc-depth", "The deepest search the Multi-ProbCut parameters are fitted for (default 10 up to "
    .. "8 x 8, else 6; deeper ones are extrapolated).")
    :convert(options.integer_in(3, 30, "mpc-depth"))
  cmd:flag("--mpc-only", "Only fit the Multi-ProbCut parameters of --eval and write it to --out (the weights "
    .. "unchanged).")
  cmd:option("--chart", "Draw the learning curve (held-out error, score against the hand-written evaluation "
    .. "by round) into this SVG file.")
  cmd:option("--first", "(worker) number of the first game"):hidden(true)
    :convert(options.integer_in(1, setup.MAX_GAMES, "first"))
  cmd:option("--seconds", "(worker) stop starting games after this many seconds"):hidden(true)
    :convert(number_in(0, 1e8, "seconds"))
  options.max_plies(cmd)
  options.budgets(cmd, "each call into a rule set file (a hook); --jobs workers get the same budgets")
end

-- ---- the game, the evaluation and the files ----

-- Whether `path` can be written, without emptying an existing file: a
-- user error naming it if not.
local function check_writable(path, what)
  if path == "-" then return end
  local file, err, code = io.open(path, "r+")
  if file then
    file:close()
    return
  end
  if code == 2 then -- ENOENT: try creating it
    file, err = io.open(path, "w")
    if file then
      file:close()
      os.remove(path)
      return
    end
  end
  errors.fail(("%s: cannot write %s"):format(what, tostring(err)))
end

-- The self-play settings of a run.
local function selfplay_of(args, game)
  local selfplay = require "boardscript.train.selfplay"
  return selfplay.new {
    rules = game.rules, source = game.source, opts = game.opts, seed = args.seed,
    depth = args.depth or setup.DEPTH, endgame = args.endgame or selfplay.default_endgame(game.n),
    plies = args.plies or selfplay.default_plies(game.n), epsilon = args.epsilon or setup.EPSILON,
    label = args.label or 0,
  }
end

-- The words of the command that makes the same evaluation (the options that
-- choose the games and the fit; not --out, --jobs, --chart, --trust).
local function reproduce(args)
  local words = { "boardscript", "train", "--rules", args.rules }
  local function add(name, value)
    if value ~= nil then
      words[#words + 1] = name
      words[#words + 1] = type(value) == "number" and require("boardscript.train.data").number_text(value)
        or tostring(value)
    end
  end
  add("--size", args.size)
  for _, o in ipairs(args.opt or {}) do add("--opt", o) end
  add("--games", args.games)
  add("--minutes", args.minutes)
  add("--duel-depth", args.duel_depth)
  add("--children", args.children)
  add("--share", args.share)
  for _, name in ipairs { "rounds", "depth", "endgame", "plies", "epsilon", "label", "lambda", "lambda_depth",
                          "iterations", "shrink", "phases", "features", "eval", "mpc_positions", "mpc_depth" } do
    add("--" .. name:gsub("_", "-"), args[name])
  end
  if args.mpc_only then words[#words + 1] = "--mpc-only" end
  if args.data then
    words[#words + 1] = "--data"
    for _, path in ipairs(args.data) do words[#words + 1] = path end
  end
  add("--seed", args.seed)
  local quote = require("boardscript.text").shell_quote
  for i, w in ipairs(words) do words[i] = w:match("^[%w%._/,:=+-]+$") and w or quote(w) end
  return table.concat(words, " ")
end

-- ---- checking the command line ----

local SELFPLAY_ONLY = { "games", "minutes", "rounds", "plies", "epsilon", "label", "endgame", "shard", "first",
                        "seconds" }

local function check_args(args)
  if args.mpc_only then
    if not args.eval then errors.fail("--mpc-only fits the parameters of an evaluation: give it as --eval FILE") end
    for _, name in ipairs { "games", "minutes", "rounds", "data", "shard", "chart" } do
      if args[name] ~= nil then errors.fail(("--%s goes with training, not with --mpc-only"):format(name)) end
    end
    if args.mpc_positions == 0 then errors.fail("--mpc-only with --mpc-positions 0 would fit nothing") end
    if args.lambda or args.lambda_depth then
      errors.fail(("--%s goes with --data, not with --mpc-only"):format(args.lambda and "lambda" or "lambda-depth"))
    end
    if args.jobs > 1 then errors.fail("--jobs goes with self-play, not with --mpc-only") end
    if args.eval == args.out then errors.fail("--eval and --out name the same file") end
    return
  end
  if args.data then
    for _, name in ipairs(SELFPLAY_ONLY) do
      if args[name] ~= nil then errors.fail(("--%s goes with self-play, not with --data"):format(name)) end
    end
    if args.jobs > 1 then errors.fail("--jobs goes with self-play, not with --data") end
    if args.eval and args.eval == args.out then errors.fail("--eval and --out name the same file") end
    if args.lambda and args.lambda < 1 and not args.eval then
      errors.fail("--lambda blends in an evaluation's values: give it as --eval FILE")
    end
    if args.lambda_depth and not args.lambda then errors.fail("--lambda-depth goes with --lambda") end
    return
  end
  if args.lambda then errors.fail("--lambda goes with --data (and --eval), not with self-play") end
  if args.lambda_depth then errors.fail("--lambda-depth goes with --data and --lambda, not with self-play") end
  if (args.games == nil) == (args.minutes == nil) then
    errors.fail(args.games and "give --games or --minutes, not both"
      or "how long to train: give --games N or --minutes M (or --data FILES to fit data files)")
  end
  if args.shard then
    if args.jobs > 1 then errors.fail("--shard and --jobs do not go together") end
    if args.rounds then errors.fail("--rounds goes without --shard (a shard plays one round, with --eval)") end
    if args.chart then errors.fail("--chart goes without --shard (a shard only plays)") end
    require("boardscript.workers").shard_of(args.shard)
  else
    if args.first or args.seconds then errors.fail("--first and --seconds go with --shard") end
    if args.out == "-" then errors.fail("--out -: an evaluation file is not written to standard output") end
  end
  if args.rounds and args.games and args.rounds > args.games then
    errors.fail(("--rounds %d: more rounds than --games %d"):format(args.rounds, args.games))
  end
end

-- ---- fitting data files ----

local function run_data(args, game)
  local rounds = require "boardscript.train.rounds"
  local ev = args.eval and setup.load_eval(args.eval, game, args) or setup.new_evaluator(args, game)
  local sp = selfplay_of(args, game)
  local td_mod = require "boardscript.train.td"
  local td_values, td_searcher = td_mod.static(ev), nil
  if args.lambda and args.lambda < 1 and (args.lambda_depth or 0) > 0 then
    if not sp.searched then errors.fail("--lambda-depth: the core does not search " .. game.name) end
    td_values, td_searcher = td_mod.searched(sp, ev, args.lambda_depth, game.n)
  end
  local _ <close> = td_searcher
  local stats = require("boardscript.train.fit").data_files {
    game = game, ev = ev, paths = args.data, iterations = args.iterations, shrink = args.shrink or setup.SHRINK,
    selfplay = sp, score_games = args.score_games or setup.SCORE_GAMES,
    -- (every position is read, and relabelled by ev, before the fit changes ev)
    td = args.lambda and args.lambda < 1 and { values = td_values, lambda = args.lambda } or nil,
  }
  local games, positions = stats.games, stats.positions
  local mpc_line = rounds.fit_mpc(args, game, sp, ev)
  rounds.save(args, game, ev, reproduce(args), ("%d games, %d positions from %d data file%s"):format(games,
    positions, #args.data, #args.data == 1 and "" or "s"))
  output.stdout(("Fitted %s (size %s) to %d positions of %d games from %d file%s (read in %.1f s)\n"):format(
    game.name, game.board_shape or game.n, positions, games, #args.data, #args.data == 1 and "" or "s",
    stats.read_time))
  output.stdout(rounds.round_header(sp), rounds.round_line(1, stats))
  if mpc_line then output.stdout(mpc_line) end
  output.stdout(rounds.written(args.out, ev, game.board_shape))
  return 0
end

-- ---- --mpc-only ----

local function run_mpc_only(args, game)
  local rounds = require "boardscript.train.rounds"
  local sp = selfplay_of(args, game)
  if not sp.searched then
    errors.fail(("--mpc-only: %s is played through its hooks; Multi-ProbCut is for the C searcher's rule sets")
      :format(game.name))
  end
  local ev, meta = setup.load_eval(args.eval, game, args)
  local line = rounds.fit_mpc(args, game, sp, ev)
  require("boardscript.evalfile").save(args.out, ev, { rules = meta.rules, size = meta.size, shape = meta.shape,
    options = meta.options, seed = meta.seed, command = meta.command, trained = meta.trained })
  output.stdout(line, rounds.written(args.out, ev, game.board_shape))
  return 0
end

-- ---- the command ----

--- How this command starts a --jobs worker playing games first .. first +
-- count - 1 (or those it plays in `seconds`) with evaluation file
-- `eval_path` (nil: the hand-written one): the words of `boardscript train
-- --shard`, before the settings and --shard that workers.run_shards adds.
-- @tparam table args the parsed arguments
-- @tparam table sp the self-play (its cfg: depth, endgame, plies, epsilon, label)
-- @tparam integer first the first game
-- @tparam integer count how many games
-- @tparam ?number seconds the time to play for, or nil
-- @tparam ?string eval_path the evaluation file to play with, or nil
-- @treturn {string,...}
function command.worker_argv(args, sp, first, count, seconds, eval_path)
  local argv = { require("boardscript.workers").executable(), "train", "--rules", args.rules, "--out", "-",
                 "--seed", tostring(args.seed), "--first", tostring(first), "--games", tostring(count),
                 "--depth", tostring(sp.cfg.depth), "--endgame", tostring(sp.cfg.endgame),
                 "--plies", tostring(sp.cfg.plies), "--epsilon", ("%.17g"):format(sp.cfg.epsilon),
                 "--label", ("%.17g"):format(sp.cfg.label) }
  local function add(...) for _, word in ipairs { ... } do argv[#argv + 1] = word end end
  if args.size then add("--size", args.size) end
  for _, o in ipairs(args.opt or {}) do add("--opt", o) end
  if eval_path then add("--eval", eval_path) end
  if seconds then add("--seconds", ("%.17g"):format(seconds)) end
  return argv
end

function command.run(args)
  local described = require "boardscript.train.described"
  local described_rules = described.rules_of(args)
  if described_rules then
    if args.seed == nil then args.seed = options.clock_seed() end
    if args.out ~= "-" then check_writable(args.out, "--out") end
    return described.run(args, described_rules, reproduce(args))
  end
  check_args(args)
  if args.share then errors.fail("train: --share is for a described game (a rule set made by boardscript.describe)") end
  if args.seed == nil then args.seed = options.clock_seed() end
  local game = setup.trained_game(args)
  if args.eval and not args.data and not args.shard and args.eval == args.out then
    errors.fail("--eval and --out name the same file")
  end
  check_writable(args.out, "--out")
  if args.chart then check_writable(args.chart, "--chart") end
  if args.data then return run_data(args, game) end
  if args.mpc_only then return run_mpc_only(args, game) end
  local rounds = require "boardscript.train.rounds"
  local sp = selfplay_of(args, game)
  if sp.cfg.label > 0 and not sp.searched then
    errors.fail(("--label: %s is played through its hooks, one ply deep, with no search value to label "
      .. "positions with (only the C searcher's rule sets take it)"):format(game.name))
  end
  if args.shard then return rounds.shard(args, game, sp) end
  local history = rounds.run({
    rounds = args.rounds, games = args.games, minutes = args.minutes, jobs = args.jobs, seed = args.seed,
    out = args.out, score_games = args.score_games, iterations = args.iterations, shrink = args.shrink,
    mpc_positions = args.mpc_positions, mpc_depth = args.mpc_depth,
    eval = args.eval, evaluator = args.eval and setup.load_eval(args.eval, game, args)
      or setup.new_evaluator(args, game),
    command_text = reproduce(args), on_line = output.stdout,
    shard_argv = function(first, count, seconds, eval_path)
      return command.worker_argv(args, sp, first, count, seconds, eval_path)
    end,
  }, game, sp)
  if args.chart then
    output.write_file(args.chart, require("boardscript.train.curve").svg(history, game, args, rounds.opponent(sp)),
      "wb")
  end
  return 0
end

return command
