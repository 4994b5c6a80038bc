--- The rounds of `boardscript train`: self-play in this process or in
-- worker processes (started as the command says, cfg.shard_argv, and read
-- in game order by workers.run_shards, so any --jobs gives the same
-- positions in the same order), a fit after each round, a duel against
-- the hand-written evaluation, the lines of the summary and the progress
-- line. rounds.run takes a plain configuration and returns the lines; the
-- command prints them.
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
  if sp.searched then return ("vs hand evaluation (depth %d)"):format(sp.cfg.depth) end
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

--- The line naming the file written and what is in it (`shape`: "RxC"
-- of a board that is not square, evalfile.shape).
function rounds.written(path, ev, shape)
  local info = ev:info()
  local features = type(info.features) == "table" and table.concat(info.features, ",") or tostring(info.features)
  local rows, cols = tostring(shape or ""):match("^(%d+)x(%d+)$")
  return ("Wrote %s: %d x %d, %d phases, features %s, %d weights (%d not zero)\n"):format(path, rows or info.size,
    cols or info.size, info.phases, features == "" and "none" or features, info.weights, info.nonzero)
end

--- Fits the Multi-ProbCut parameters of `ev` (boardscript.train.mpc) where
-- the core searches the game, unless cfg.mpc_positions is 0: returns the
-- line of the summary that says so, or nil.
function rounds.fit_mpc(cfg, game, sp, ev)
  if not sp.searched or cfg.mpc_positions == 0 then return nil end
  local show = not os.getenv("BOARDSCRIPT_NO_PROGRESS") and require("boardscript.output").stderr_is_terminal()
  local r = require("boardscript.train.mpc").fit {
    sp = sp, ev = ev, n = game.n, positions = cfg.mpc_positions, depth = cfg.mpc_depth,
    on_progress = show and function(done, total)
      io.stderr:write(("\rMulti-ProbCut: position %d of %d   "):format(done, total))
      io.stderr:flush()
    end or nil,
  }
  if show then io.stderr:write("\r", (" "):rep(60), "\r") end
  if not r.params then
    return ("Multi-ProbCut: not fitted (%d positions with a value too few); the file has no parameters\n"):format(
      r.positions)
  end
  local mid = (ev:info().phases + 1) // 2
  return ("Multi-ProbCut: depths 3-%d fitted on %d positions in %.1f s (sigma at depth %d, phase %d: %s discs)\n")
    :format(r.depth, r.positions, r.seconds, r.depth, mid, number(r.params[r.depth].sigma[mid] / 100))
end

--- Writes evaluation `ev` to `path` with the meta of the run.
function rounds.save_to(path, game, ev, args, command_text, trained)
  require("boardscript.evalfile").save(path, ev, { rules = game.name, size = game.n, shape = game.board_shape,
    options = game.options,
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

-- Plays games first .. first + count - 1 (or, with `seconds`, as many as
-- the workers play in that time, the first uncounted game ending the
-- round) in cfg.jobs workers; `take(record)` gets them in game order.
local function from_workers(cfg, first, count, seconds, eval_path, take)
  local jobs = math.min(cfg.jobs, count)
  -- game first + k - 1, from its worker's data stream
  local function item(w, k)
    local reader = w.state.reader
    if not reader then
      local i, n = (k - 1) % jobs + 1, 0
      reader = data.reader(function()
        local line = w:line()
        -- a worker that ended badly is named with how it ended
        if line == nil and w.ended then
          errors.fail(("train: worker %d stopped (%s)"):format(i, w.ended), errors.EXIT_FAILURE)
        end
        if line then n = n + 1 end
        return line, n
      end, ("train: worker %d"):format(i))
      w.state.reader = reader
    end
    local record = reader:next_game()
    if record ~= nil and record.game ~= first + k - 1 then
      errors.fail(("train: worker %d sent game %d where game %d was due"):format((k - 1) % jobs + 1, record.game,
        first + k - 1), errors.EXIT_FAILURE)
    end
    return record
  end
  local spec = { argv = cfg.shard_argv(first, count, seconds, eval_path), jobs = jobs, count = count, item = item }
  require("boardscript.workers").run_shards(spec, function(fan)
    for k, record, fault in fan.next, fan do
      if fault then
        if fault.ended then
          errors.fail(("train: worker %d stopped (%s)"):format(fault.worker, fault.ended), errors.EXIT_FAILURE)
        end
        if not seconds then
          errors.fail(("train: worker %d ended before game %d"):format(fault.worker, first + k - 1),
            errors.EXIT_FAILURE)
        end
        break
      end
      take(record)
    end
    if not seconds then
      for i, w in ipairs(fan.workers) do
        if w.state.reader and w.state.reader:next_game() ~= nil then
          errors.fail(("train: worker %d sent more games than its share"):format(i), errors.EXIT_FAILURE)
        end
      end
      for _, ended in ipairs(fan:close()) do
        errors.fail(("train: worker %d ended with %s"):format(ended.worker, ended.ended), errors.EXIT_FAILURE)
      end
    end
  end)
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
  if os.getenv("BOARDSCRIPT_NO_PROGRESS") or not require("boardscript.output").stderr_is_terminal() then
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

--- Plays the rounds and writes cfg.out. `cfg` is a plain table: rounds,
-- games or minutes, jobs, seed, out, score_games, iterations, shrink,
-- evaluator (the evaluation to train), eval (the file it came from, or
-- nil), command_text (the command that reproduces the run, for the
-- file's meta), shard_argv(first, count, seconds, eval_path) (how the
-- command starts a worker playing those games, for jobs > 1) and on_line
-- (optional: called with each line of the summary as it is made, so the
-- command can print it then). Returns the history (a list of { games,
-- positions, fit, duel } by round) and the lines of the summary.
-- @tparam table cfg the configuration
-- @tparam table game the game being trained (train.setup's trained_game)
-- @tparam table sp the self-play (train.setup)
-- @treturn table the history
-- @treturn {string,...} the lines of the summary
function rounds.run(cfg, game, sp)
  local train = require "boardscript.train.setup"
  local total_rounds = cfg.rounds or math.min(train.ROUNDS, cfg.games or train.ROUNDS)
  local ev = cfg.evaluator
  local play_ev = cfg.eval and ev or nil
  local lines = {}
  local function emit(text)
    lines[#lines + 1] = text
    if cfg.on_line then cfg.on_line(text) end
  end
  local tr = core.trainer(ev)
  local score_games = cfg.score_games or train.SCORE_GAMES
  local fit_options = { iterations = cfg.iterations, shrink = cfg.shrink or train.SHRINK }
  local start = core.clock()
  local budget = cfg.minutes and cfg.minutes * 60
  local s = { round = 0, rounds = total_rounds, games = 0, positions = 0, selfplay = 0, current = 0, fit = 0,
              duel = 0 }
  local bar = progress()
  local history, next_game, overhead, tmp = {}, 1, 0, nil
  local how = sp.searched and ("C search %d plies deep, exact at %d empty cells"):format(sp.cfg.depth, sp.cfg.endgame)
    or "1-ply greedy through the rule set's hooks"
  emit(("Training %s %s (%s) by self-play: %s in %d round%s, %s, %d random plies, epsilon %s, "
    .. "seed %d; symmetry %s\n"):format(game.name, game.shape or ("%d x %d"):format(game.n, game.n),
    game.options == "" and "no options" or game.options,
    cfg.games and ("%d games"):format(cfg.games) or ("%s minutes"):format(data.number_text(cfg.minutes)),
    total_rounds, total_rounds == 1 and "" or "s", how, sp.cfg.plies, data.number_text(sp.cfg.epsilon), cfg.seed,
    require("boardscript.symmetry").text(game.symmetry or { "identity" })))
  emit(rounds.round_header(sp))
  local ok, err = pcall(function()
    for r = 1, total_rounds do
      s.round = r
      local count, seconds
      if cfg.games then
        count = r * cfg.games // total_rounds - (r - 1) * cfg.games // total_rounds
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
        s.eta = budget and (start + budget - core.clock()) or per_game * (cfg.games - s.games)
        bar.update(s)
      end
      local eval_path = r == 1 and cfg.eval or tmp
      if cfg.jobs > 1 and count > 0 then
        from_workers(cfg, next_game, count, seconds, eval_path, take)
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
      emit(rounds.round_line(r, round))
      play_ev = ev
      if cfg.jobs > 1 and r < total_rounds then
        tmp = tmp or os.tmpname()
        rounds.save_to(tmp, game, ev, cfg, cfg.command_text, "between rounds")
      end
    end
  end)
  bar.finish()
  if tmp then os.remove(tmp) end
  if not ok then error(err, 0) end
  if tr:count(false) == 0 then errors.fail("train: no positions to fit (the games were too short?)") end
  local mpc_line = rounds.fit_mpc(cfg, game, sp, ev)
  if mpc_line then emit(mpc_line) end
  local last = history[#history]
  rounds.save(cfg, game, ev, cfg.command_text, ("%d games, %d positions in %d round%s; held-out error %s discs"):format(
    s.games, s.positions, total_rounds, total_rounds == 1 and "" or "s", number(last.fit.holdout_error)))
  emit(("Self-play: %d games, %d positions in %.1f s (%.1f games/s, %.0f positions/s, %d job%s); "
    .. "fitting %.1f s; duels %.1f s\n"):format(s.games, s.positions, s.selfplay, s.games / math.max(s.selfplay, 1e-9),
    s.positions / math.max(s.selfplay, 1e-9), cfg.jobs, cfg.jobs == 1 and "" or "s", s.fit, s.duel))
  emit(rounds.written(cfg.out, ev, game.board_shape))
  return history, lines
end

return rounds
