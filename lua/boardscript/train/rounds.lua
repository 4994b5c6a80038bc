--- The rounds of `boardscript train`: self-play in this process or in
-- worker processes (each `boardscript train --shard i/K --out -`, read in
-- game order, so any --jobs gives the same positions in the same order),
-- a fit after each round, a duel against the hand-written evaluation, the
-- lines of the summary and the progress line.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local output = require "boardscript.output"
local data = require "boardscript.train.data"

local rounds = {}

--- Adds the positions of a game record to trainer `tr` (their cells as
-- the data files write them go straight to the trainer).
function rounds.add_positions(tr, record)
  local holdout = record.holdout
  for _, p in ipairs(record.positions) do
    tr:add(p.cells, "black", p.target, holdout) -- the cells as the file has them: x is the side to move
  end
end

--- Plays `count` duel games of evaluation `ev` against the hand-written
-- one: { w =, l =, d =, n =, margin = mean margin of ev's side }.
function rounds.duel(sp, ev, count)
  local t = { w = 0, l = 0, d = 0, n = 0, margin = 0 }
  local sum = 0
  for k = 1, count do
    local result, margin = sp:duel(k, ev)
    local key = result == "win" and "w" or (result == "loss" and "l" or "d")
    t[key], t.n = t[key] + 1, t.n + 1
    sum = sum + margin
  end
  if t.n > 0 then t.margin = sum / t.n end
  return t
end

local function number(x, format)
  if x == nil or x ~= x then return "-" end
  return (format or "%.2f"):format(x)
end

--- What the duel plays against, for the header.
function rounds.opponent(sp)
  if sp.searched then return ("vs hand (depth %d)"):format(sp.cfg.depth) end
  return "vs greedy (1 ply)"
end

--- The header of the table of rounds.
function rounds.round_header(sp)
  return ("round    games  positions  train rms  held-out rms  %s\n"):format(rounds.opponent(sp))
end

--- A line of the table: stats = { games, positions, fit, duel }.
function rounds.round_line(r, stats)
  local duel = stats.duel
  local score = "-"
  if duel and duel.n > 0 then
    score = ("%d - %d - %d  [%.3f]  %+.2f"):format(duel.w, duel.l, duel.d, (duel.w + duel.d / 2) / duel.n,
      duel.margin)
  end
  return ("%5d %8d %10d %10s %13s  %s\n"):format(r, stats.games, stats.positions, number(stats.fit.train_error),
    number(stats.fit.holdout_error), score)
end

--- The line naming the file written and what is in it.
function rounds.written(path, ev)
  local info = ev:info()
  local features = type(info.features) == "table" and table.concat(info.features, ",") or tostring(info.features)
  return ("Wrote %s: %d x %d, %d phases, features %s, %d weights (%d not zero)\n"):format(path, info.size,
    info.size, info.phases, features == "" and "none" or features, info.weights, info.nonzero)
end

--- Writes evaluation `ev` to `path` with the meta of the run.
function rounds.save_to(path, game, ev, args, command_text, trained)
  require("boardscript.evalfile").save(path, ev, { rules = game.name, size = game.n, options = game.options,
    seed = args.seed, command = command_text, trained = trained })
end

--- Writes --out.
function rounds.save(args, game, ev, command_text, trained)
  rounds.save_to(args.out, game, ev, args, command_text, trained)
end

-- ---- shards and workers ----

--- `--shard I/N`: plays games first - 1 + I, + N, ... (up to --games of
-- them from --first, or until --seconds / --minutes have passed, at least
-- one) with --eval or the hand-written evaluation, and writes them to
-- --out as a data file. Returns the exit status.
function rounds.shard(args, game, sp)
  local i, n = require("boardscript.workers").shard_of(args.shard)
  local play_ev = args.eval and require("boardscript.train.setup").load_eval(args.eval, game) or nil
  local first = args.first or 1
  local last = args.games and first + args.games - 1 or require("boardscript.train.setup").MAX_GAMES
  local seconds = args.seconds or (args.minutes and args.minutes * 60)
  local deadline = seconds and core.clock() + seconds
  local function play(write)
    write(data.header {
      rules = game.name, size = game.n, options = game.options, seed = args.seed, shard = args.shard,
      depth = sp.cfg.depth, endgame = sp.cfg.endgame, plies = sp.cfg.plies,
      epsilon = data.number_text(sp.cfg.epsilon), label = data.number_text(sp.cfg.label), eval = args.eval or "hand",
    })
    local games, positions = 0, 0
    for g = first - 1 + i, last, n do
      if deadline and games > 0 and core.clock() >= deadline then break end
      local record = sp:game(g, play_ev)
      write(data.game(record))
      games, positions = games + 1, positions + #record.positions
    end
    write(data.ending(games, positions))
  end
  if args.out == "-" then
    -- a worker's stream: each game flushed as it is played
    play(function(text) output.write(io.stdout, "standard output", text) end)
  else
    -- the file replaces an existing one only once whole
    output.replace(args.out, function(writer) play(function(text) writer:write(text) end) end, "wb")
  end
  return 0
end

-- The lines of worker w (its pipe) for data.reader: a worker that ends
-- badly is named with how it ended.
local function pipe_lines(pool, w, i)
  local count = 0
  return function()
    local line = w.pipe:read("l")
    if line == nil then
      local ended = pool.finish(w)
      pool.rethrow(w) -- a rule set's error: the worker's own message and status
      if ended then errors.fail(("train: worker %d stopped (%s)"):format(i, ended), errors.EXIT_FAILURE) end
      return nil
    end
    count = count + 1
    return line, count
  end
end

-- Plays games first .. first + count - 1 (or, with `seconds`, as many as
-- the workers play in that time, the first uncounted game ending the
-- round) in K workers; `take(record)` gets them in game order.
local function from_workers(args, sp, first, count, seconds, eval_path, take)
  local pool = require "boardscript.workers"
  local jobs = math.min(args.jobs, count)
  local base = { pool.executable(), "train", "--rules", args.rules, "--out", "-", "--seed", tostring(args.seed),
                 "--first", tostring(first), "--games", tostring(count), "--depth", tostring(sp.cfg.depth),
                 "--endgame", tostring(sp.cfg.endgame), "--plies", tostring(sp.cfg.plies),
                 "--epsilon", ("%.17g"):format(sp.cfg.epsilon), "--label", ("%.17g"):format(sp.cfg.label) }
  local function add(...) for _, word in ipairs { ... } do base[#base + 1] = word end end
  if args.size then add("--size", args.size) end
  for _, o in ipairs(args.opt or {}) do add("--opt", o) end
  if eval_path then add("--eval", eval_path) end
  if seconds then add("--seconds", ("%.17g"):format(seconds)) end
  if args.max_plies then add("--max-plies", tostring(args.max_plies)) end
  for _, word in ipairs(require("boardscript.sandbox").argv()) do add(word) end
  for _, word in ipairs(require("boardscript.limits").argv()) do add(word) end
  local started = {}
  local ok, err = pcall(function()
    started = pool.start_shards(base, jobs)
    local readers = {}
    for i, w in ipairs(started) do readers[i] = data.reader(pipe_lines(pool, w, i), ("train: worker %d"):format(i)) end
    local index = 0
    while index < count do
      local i = index % jobs + 1
      local record = readers[i]:next_game()
      if record == nil then
        if not seconds then
          errors.fail(("train: worker %d ended before game %d"):format(i, first + index), errors.EXIT_FAILURE)
        end
        break
      end
      if record.game ~= first + index then
        errors.fail(("train: worker %d sent game %d where game %d was due"):format(i, record.game, first + index),
          errors.EXIT_FAILURE)
      end
      take(record)
      index = index + 1
    end
    if not seconds then
      for i, reader in ipairs(readers) do
        if reader:next_game() ~= nil then
          errors.fail(("train: worker %d sent more games than its share"):format(i), errors.EXIT_FAILURE)
        end
        local ended = pool.finish(started[i])
        pool.rethrow(started[i])
        if ended then errors.fail(("train: worker %d ended with %s"):format(i, ended), errors.EXIT_FAILURE) end
      end
    end
  end)
  for _, w in ipairs(started) do pool.stop(w) end
  if not ok then error(err, 0) end
end

-- ---- progress ----

local function clock_text(seconds)
  seconds = math.max(0, math.floor(seconds + 0.5))
  if seconds >= 3600 then return ("%d:%02d:%02d"):format(seconds // 3600, seconds // 60 % 60, seconds % 60) end
  return ("%d:%02d"):format(seconds // 60, seconds % 60)
end

-- The progress line on standard error, drawn only on a terminal (as
-- match's bar; BOARDSCRIPT_NO_PROGRESS=1 turns it off).
local function progress()
  if os.getenv("BOARDSCRIPT_NO_PROGRESS") or not os.execute("test -t 2") then
    return { update = function() end, finish = function() end }
  end
  local bar, last = {}, -math.huge
  function bar.update(s, force)
    local now = core.clock()
    if not force and now - last < 0.25 then return end
    last = now
    local seconds = s.selfplay + s.current
    local rate = seconds > 0 and s.games / seconds or 0
    io.stderr:write(("\rround %d/%d  %d games  %d positions  %.1f games/s  held-out %s  ETA %s   "):format(s.round,
      s.rounds, s.games, s.positions, rate, number(s.holdout), s.eta and clock_text(s.eta) or "?"))
    io.stderr:flush()
  end
  function bar.finish()
    io.stderr:write("\r", (" "):rep(100), "\r")
    io.stderr:flush()
  end
  return bar
end

-- ---- the rounds ----

--- Plays the rounds and writes --out; prints the summary. Returns the
-- history: a list of { games, positions, fit, duel } by round.
function rounds.run(args, game, sp, command_text)
  local train = require "boardscript.train.setup"
  local total_rounds = args.rounds or math.min(train.ROUNDS, args.games or train.ROUNDS)
  local ev = args.eval and train.load_eval(args.eval, game) or train.new_evaluator(args, game)
  local play_ev = args.eval and ev or nil
  local tr = core.trainer(ev)
  local score_games = args.score_games or train.SCORE_GAMES
  local fit_options = { iterations = args.iterations, shrink = args.shrink or train.SHRINK }
  local start = core.clock()
  local budget = args.minutes and args.minutes * 60
  local s = { round = 0, rounds = total_rounds, games = 0, positions = 0, selfplay = 0, current = 0, fit = 0,
              duel = 0 }
  local bar = progress()
  local history, next_game, overhead, tmp = {}, 1, 0, nil
  local how = sp.searched and ("C search %d plies deep, exact at %d empty cells"):format(sp.cfg.depth, sp.cfg.endgame)
    or "1-ply greedy through the rule set's hooks"
  output.stdout(("Training %s %d x %d (%s) by self-play: %s in %d round%s, %s, %d random plies, epsilon %s, "
    .. "seed %d\n"):format(game.name, game.n, game.n, game.options == "" and "no options" or game.options,
    args.games and ("%d games"):format(args.games) or ("%s minutes"):format(data.number_text(args.minutes)),
    total_rounds, total_rounds == 1 and "" or "s", how, sp.cfg.plies, data.number_text(sp.cfg.epsilon), args.seed))
  output.stdout(rounds.round_header(sp))
  local ok, err = pcall(function()
    for r = 1, total_rounds do
      s.round = r
      local count, seconds
      if args.games then
        count = r * args.games // total_rounds - (r - 1) * args.games // total_rounds
      else
        count = train.MAX_GAMES - next_game + 1
        seconds = math.max(0, start + budget * r / total_rounds - core.clock() - overhead)
      end
      local t0 = core.clock()
      local round = { games = 0, positions = 0 }
      local function take(record)
        rounds.add_positions(tr, record)
        round.games, round.positions = round.games + 1, round.positions + #record.positions
        s.games, s.positions = s.games + 1, s.positions + #record.positions
        s.current = core.clock() - t0
        local per_game = (s.selfplay + s.current) / s.games
        s.eta = budget and (start + budget - core.clock()) or per_game * (args.games - s.games)
        bar.update(s)
      end
      local eval_path = r == 1 and args.eval or tmp
      if args.jobs > 1 and count > 0 then
        from_workers(args, sp, next_game, count, seconds, eval_path, take)
      else
        local deadline = seconds and t0 + seconds
        for n = next_game, next_game + count - 1 do
          if deadline and round.games > 0 and core.clock() >= deadline then break end
          take(sp:game(n, play_ev))
        end
      end
      next_game = next_game + round.games
      local t1 = core.clock()
      s.selfplay, s.current = s.selfplay + (t1 - t0), 0
      round.fit = tr:count(false) > 0 and tr:fit(fit_options) or tr:measure()
      local t2 = core.clock()
      s.holdout = round.fit.holdout_error
      bar.update(s, true)
      round.duel = rounds.duel(sp, ev, score_games)
      local t3 = core.clock()
      s.fit, s.duel = s.fit + (t2 - t1), s.duel + (t3 - t2)
      overhead = t3 - t1
      history[r] = round
      bar.finish()
      output.stdout(rounds.round_line(r, round))
      play_ev = ev
      if args.jobs > 1 and r < total_rounds then
        tmp = tmp or os.tmpname()
        rounds.save_to(tmp, game, ev, args, command_text, "between rounds")
      end
    end
  end)
  bar.finish()
  if tmp then os.remove(tmp) end
  if not ok then error(err, 0) end
  if tr:count(false) == 0 then errors.fail("train: no positions to fit (the games were too short?)") end
  local last = history[#history]
  rounds.save(args, game, ev, command_text, ("%d games, %d positions in %d round%s; held-out error %s discs"):format(
    s.games, s.positions, total_rounds, total_rounds == 1 and "" or "s", number(last.fit.holdout_error)))
  output.stdout(("Self-play: %d games, %d positions in %.1f s (%.1f games/s, %.0f positions/s, %d job%s); "
    .. "fitting %.1f s; duels %.1f s\n"):format(s.games, s.positions, s.selfplay, s.games / math.max(s.selfplay, 1e-9),
    s.positions / math.max(s.selfplay, 1e-9), args.jobs, args.jobs == 1 and "" or "s", s.fit, s.duel))
  output.stdout(rounds.written(args.out, ev))
  return history
end

return rounds
