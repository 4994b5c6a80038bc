--- `boardscript bench`: the engine's speed, one figure a line (`--json` for
-- machines). Each figure says what it measured (depth, positions, games,
-- seconds) so two runs can be compared, and the peak RSS of the process
-- that measured it: every figure runs in a child process of its own
-- (`boardscript bench --only NAME`), unless only one is asked for.
--
-- Times are processor seconds (os.clock) of the process measuring, except
-- the start-up figures, which are wall-clock milliseconds per start of a
-- host process. A benchmark is a command, never a timed test: the specs
-- check the shape of `bench --quick --json`, not the speed.
local output = require "boardscript.output"
local core = require "boardscript.core"
local errors = require "boardscript.errors"

local command = {
  summary = "Measure the engine's speed: perft, search, FFO, playouts, dots, start-up (one figure a line).",
}

local opponent = require("boardscript.families.board").opponent

-- Reversi's start on an n x n board; with `blocks`, block cells where
-- (r * 7 + c * 3) % 11 == 0 outside the centre (a fixed pattern, so runs compare).
local function reversi_start(n, blocks)
  local b = core.board(n)
  local h = n // 2
  local count = 0
  if blocks then
    for r = 1, n do
      for c = 1, n do
        if (r * 7 + c * 3) % 11 == 0 and not ((r == h or r == h + 1) and (c == h or c == h + 1)) then
          b:set(r, c, "block")
          count = count + 1
        end
      end
    end
  end
  b:set(h, h, "white"); b:set(h + 1, h + 1, "white"); b:set(h, h + 1, "black"); b:set(h + 1, h, "black")
  return b, count
end

-- Processor seconds `f` takes (at least a microsecond, the clock's
-- resolution, so that rates stay finite), and what it returns.
local function timed(f, ...)
  local start = os.clock()
  local a, b, c = f(...)
  return math.max(os.clock() - start, 1e-6), a, b, c
end

-- With `flip`, a direction set: discs flip only along it (every direction
-- still legal), as in lua/examples/orthogonal.lua's captures.
local function perft_figure(name, n, depth, quick_depth, blocks, flip)
  return {
    name = name, unit = "leaves/s",
    run = function(opts)
      local d = opts.quick and quick_depth or depth
      local b, count = reversi_start(n, blocks)
      local seconds, leaves = timed(b.perft, b, "black", d, flip and { flip = flip } or nil)
      return {
        what = ("perft reversi %dx%d%s%s depth %d"):format(n, n, blocks and (" with %d blocks"):format(count) or "",
          flip and (", flips %s only"):format(flip) or "", d),
        value = leaves / seconds, seconds = seconds, count = leaves, count_unit = "leaves", depth = d,
      }
    end,
  }
end

-- Perft from a mid-game position: `plies` random plies (seed 1, a pass when
-- stuck) from the n x n start, where the discs no longer fit the 16 x 16
-- window of the opening and the branching is a mid-game's.
local function midgame_perft_figure(name, n, plies, depth, quick_depth)
  return {
    name = name, unit = "leaves/s",
    run = function(opts)
      local d = opts.quick and quick_depth or depth
      local b, rng, player, buffer = reversi_start(n), core.rng(1), "black", {}
      for _ = 1, plies do
        local k = b:move_list(player, "all", buffer)
        if k > 0 then b:play_index(player, buffer[rng:random(k)]) end
        player = opponent(player)
      end
      local moves = b:move_list(player, "all", buffer)
      local seconds, leaves = timed(b.perft, b, player, d)
      return {
        what = ("perft reversi %dx%d mid-game (%d random plies, seed 1: %d discs, %d moves) depth %d"):format(
          n, n, plies, b:count("black") + b:count("white"), moves, d),
        value = leaves / seconds, seconds = seconds, count = leaves, count_unit = "leaves", depth = d,
      }
    end,
  }
end

-- `count` midgame positions: 20 random plies (seeded) from the 8 x 8 start.
local function midgame_positions(count)
  local positions = {}
  local seed = 0
  local buffer = {}
  while #positions < count do
    seed = seed + 1
    local rng = core.rng(seed)
    local b = reversi_start(8)
    local player = "black"
    for _ = 1, 20 do
      local n = b:move_list(player, "all", buffer)
      if n > 0 then b:play_index(player, buffer[rng:random(n)]) end
      player = opponent(player)
    end
    if b:move_list(player, "all", buffer) > 0 then positions[#positions + 1] = { board = b, player = player } end
  end
  return positions
end

local search_figure = {
  name = "search", unit = "nodes/s",
  run = function(opts)
    local count, depth = 8, opts.quick and 4 or 9
    local searcher = core.searcher { tt_mb = 16 }
    local nodes, seconds = 0, 0
    for _, pos in ipairs(midgame_positions(count)) do
      searcher:clear()
      local t, _, _, info = timed(searcher.search, searcher, pos.board, pos.player, { depth = depth, endgame = 0 })
      nodes, seconds = nodes + info.nodes, seconds + t
    end
    return {
      what = ("alphabeta search depth %d of %d midgame positions (20 random plies, seeds 1..)"):format(depth, count),
      value = nodes / seconds, seconds = seconds, count = nodes, count_unit = "nodes", depth = depth, positions = count,
    }
  end,
}

-- The learned 8 x 8 Reversi evaluation the figures use: --eval FILE, else
-- the shipped one; nil with --eval hand or when none is shipped.
local function learned_8x8(opts)
  local evalfile = require "boardscript.evalfile"
  if opts.eval == "hand" then return nil end
  local ev, meta = evalfile.for_game(opts.eval, "reversi", 8)
  return ev, meta and meta.path
end

local search_learned_figure = {
  name = "search_learned", unit = "nodes/s",
  run = function(opts)
    local ev, path = learned_8x8(opts)
    if not ev then return { skipped = "no learned 8 x 8 Reversi evaluation (--eval FILE, or a shipped one)" } end
    local count, depth = 8, opts.quick and 4 or 11
    local searcher = core.searcher { tt_mb = 16 }
    local nodes, seconds = 0, 0
    for _, pos in ipairs(midgame_positions(count)) do
      searcher:clear()
      local t, _, _, info = timed(searcher.search, searcher, pos.board, pos.player,
        { depth = depth, endgame = 0, evaluator = ev })
      nodes, seconds = nodes + info.nodes, seconds + t
    end
    return {
      what = ("alphabeta search depth %d of %d midgame positions (20 random plies, seeds 1..), learned evaluation %s")
        :format(depth, count, path:match("[^/]*$")),
      value = nodes / seconds, seconds = seconds, count = nodes, count_unit = "nodes", depth = depth, positions = count,
    }
  end,
}

local ffo_figure = {
  name = "ffo", unit = "s",
  run = function(opts)
    if not opts.obf then
      return { skipped = "no --obf FILE (e.g. the FFO tests fforum-20-39.obf)" }
    end
    local obf = require "boardscript.formats.obf"
    local positions = obf.load(opts.obf)
    local last = opts.quick and math.min(2, #positions) or #positions
    local searcher = core.searcher { tt_mb = 64 }
    local ev, path = learned_8x8(opts)
    local nodes, seconds, ok = 0, 0, 0
    for i = 1, last do
      local pos = positions[i]
      searcher:clear()
      local t, _, margin, info = timed(searcher.solve, searcher, pos.board, pos.player,
        { game = { empties_to_winner = true }, evaluator = ev })
      nodes, seconds = nodes + (info and info.nodes or 0), seconds + t
      local best = pos.best[1] and pos.best[1].score
      if margin ~= nil and (best == nil or best == margin) then ok = ok + 1 end
    end
    local file = opts.obf:match("[^/]*$")
    return {
      what = ("solve exactly %d positions of %s (%d with the expected score), ordered by %s"):format(last, file, ok,
        ev and ("the learned evaluation " .. path:match("[^/]*$")) or "the hand ordering"),
      value = seconds, seconds = seconds, count = nodes, count_unit = "nodes", positions = last, correct = ok,
    }
  end,
}

-- The games the playout figures play: random moves (uniform, as
-- rng:random(n) picks them) from the 8 x 8 start, a pass only when stuck.

-- A game over board:move_list and board:play_index, taken back with undo.
local function lua_game(b, rng, buffer)
  local player, played = "black", 0
  while true do
    local n = b:move_list(player, "all", buffer)
    if n == 0 then
      if b:move_list(opponent(player), "all", buffer) == 0 then break end
    else
      b:play_index(player, buffer[rng:random(n)])
      played = played + 1
    end
    player = opponent(player)
  end
  for _ = 1, played do b:undo() end
end

-- A game over the rule set's hooks, taken back with undo.
local function hooks_game(rules, state, rng)
  local plies = 0
  while not rules:finished(state) do
    local moves = rules:moves(state)
    if #moves == 0 then rules:pass(state) else rules:play(state, moves[rng:random(#moves)]) end
    plies = plies + 1
  end
  for _ = 1, plies do rules:undo(state) end
end

local function playout_figure(name, games, quick_games, how, play)
  return {
    name = name, unit = "games/s",
    run = function(opts)
      local n = opts.quick and quick_games or games
      local seconds = timed(play, n, core.rng(1))
      return {
        what = ("random games of 8x8 reversi %s"):format(how),
        value = n / seconds, seconds = seconds, count = n, count_unit = "games", games = n,
      }
    end,
  }
end

local playout_c = playout_figure("playout_c", 200000, 2000, "driven from C (core.playout)", function(n, rng)
  local b = reversi_start(8)
  local playout = core.playout
  for _ = 1, n do playout(b, "black", rng) end
end)

-- Games over a cursor: one call a move, the move number drawn in Lua.
local playout_lua = playout_figure("playout_lua", 100000, 1000,
  "driven from Lua, a move a call (cursor:play(k), k = rng:random(count))",
  function(n, rng)
    local c = core.cursor(reversi_start(8), "black")
    local play, reset, random = c.play, c.reset, rng.random
    for _ = 1, n do
      local count = reset(c)
      while count > 0 do count = play(c, random(rng, count)) end
    end
  end)

local playout_lua_math = playout_figure("playout_lua_math", 100000, 1000,
  "driven from Lua, a move a call (cursor:play(k), k = math.random(count))",
  function(n)
    local c = core.cursor(reversi_start(8), "black")
    local play, reset, random = c.play, c.reset, math.random
    math.randomseed(1)
    for _ = 1, n do
      local count = reset(c)
      while count > 0 do count = play(c, random(count)) end
    end
  end)

-- The same with the draw made in Lua itself (xorshift64, Marsaglia 2003:
-- shifts 13, 7, 17), so the loop makes no call but the move.
local playout_lua_own = playout_figure("playout_lua_own", 100000, 1000,
  "driven from Lua, a move a call (cursor:play(k), k drawn in Lua by xorshift64)",
  function(n)
    local c = core.cursor(reversi_start(8), "black")
    local play, reset = c.play, c.reset
    local x = 88172645463325252
    for _ = 1, n do
      local count = reset(c)
      while count > 0 do
        x = x ~ (x << 13)
        x = x ~ (x >> 7)
        x = x ~ (x << 17)
        count = play(c, (x >> 1) % count + 1)
      end
    end
  end)

local playout_lua_board = playout_figure("playout_lua_board", 20000, 200,
  "driven from Lua over a board (move_list, play_index, undo)",
  function(n, rng)
    local b, buffer = reversi_start(8), {}
    for _ = 1, n do lua_game(b, rng, buffer) end
  end)

local playout_hooks = playout_figure("playout_hooks", 4000, 40, "over the reversi rule set's hooks",
  function(n, rng)
    local rules = require("boardscript.rules").load("reversi")
    local state = rules:setup()
    for _ = 1, n do hooks_game(rules, state, rng) end
  end)

local mcts_figure = {
  name = "mcts", unit = "playouts/s",
  run = function(opts)
    local game = require "boardscript.game"
    local mcts = require "boardscript.ai.mcts"
    local n = opts.quick and 200 or 20000
    local g = game.new(require("boardscript.rules").load("reversi"), nil, core.rng(1))
    local seconds = timed(mcts.choose, mcts.new { playouts = n }, g, { rng = core.rng(2) })
    return {
      what = "the mcts policy's first move of 8x8 reversi (its tree walked on a cursor, its random games in C)",
      value = n / seconds, seconds = seconds, count = n, count_unit = "playouts", playouts = n,
    }
  end,
}

local dots_figure = {
  name = "dots", unit = "s",
  run = function(opts)
    local rows, cols = 3, opts.quick and 3 or 4
    local d = core.dots(rows, cols)
    local seconds, value, nodes = timed(d.solve, d, { tt_mb = 64 })
    return {
      what = ("solve dots %dx%d exactly (first player's margin %+d)"):format(rows, cols, value),
      value = seconds, seconds = seconds, count = nodes, count_unit = "nodes",
    }
  end,
}

local shell_quote = require("boardscript.text").shell_quote

-- Milliseconds per run of `line` (a shell command) in a shell loop: wall
-- time, and the processor time of the processes it started (the shell's
-- `times`, in ticks of 10 ms: meaningful over many runs).
local function per_run_ms(line, runs)
  local script = ("i=0; while [ $i -lt %d ]; do %s; i=$((i+1)); done; times"):format(runs, line)
  local start = core.clock()
  local pipe = assert(io.popen(script))
  local out = pipe:read("a")
  pipe:close()
  local wall = (core.clock() - start) * 1000 / runs
  local um, us, sm, ss = out:match("\n(%d+)m([%d.]+)s%s+(%d+)m([%d.]+)s")
  local cpu = um and ((tonumber(um) + tonumber(sm)) * 60 + tonumber(us) + tonumber(ss)) * 1000 / runs
  return wall, cpu
end

local function startup_figure(name, args, input, about)
  return {
    name = name, unit = "ms",
    run = function(opts)
      local exe = require("boardscript.workers").executable()
      local line = ("%s %s <%s >/dev/null 2>&1"):format(shell_quote(exe), args, input)
      local batches, size = opts.quick and 2 or 10, opts.quick and 3 or 10
      per_run_ms("/bin/true", size) -- warm the caches
      per_run_ms(line, size)
      -- Batches alternate with a /bin/true baseline; the best batch counts
      -- (the machine may be busy), the worst shows the spread.
      local best, worst, baseline, cpu = math.huge, 0, math.huge, 0
      for _ = 1, batches do
        baseline = math.min(baseline, (per_run_ms("/bin/true", size)))
        local ms, cpu_ms = per_run_ms(line, size)
        best, worst, cpu = math.min(best, ms), math.max(worst, ms), cpu + (cpu_ms or 0) / batches
      end
      return {
        what = ("wall time of `boardscript %s`%s: the best of %d batches of %d runs (worst %.2f ms; "
          .. "processor time %.2f ms a run; a /bin/true in the same loop %.2f ms)"):format(
          args, about, batches, size, worst, cpu, baseline),
        value = best, seconds = best * size / 1000, count = batches * size, count_unit = "runs",
        worst_ms = worst, cpu_ms = cpu, baseline_ms = baseline, clock = "wall",
      }
    end,
  }
end

--- The figures, in the order they are printed.
command.FIGURES = {
  perft_figure("perft8", 8, 12, 9),
  perft_figure("perft6", 6, 11, 7),
  perft_figure("perft10", 10, 11, 6),
  perft_figure("perft16", 16, 11, 5),
  perft_figure("perft8_orth", 8, 11, 6, false, "orthogonal"),
  perft_figure("perft16_orth", 16, 11, 5, false, "orthogonal"),
  perft_figure("perft26", 26, 12, 5, true),
  midgame_perft_figure("perft16_mid", 16, 60, 6, 3),
  midgame_perft_figure("perft26_mid", 26, 300, 5, 3),
  search_figure,
  search_learned_figure,
  ffo_figure,
  playout_c,
  playout_lua,
  playout_lua_math,
  playout_lua_own,
  playout_lua_board,
  playout_hooks,
  mcts_figure,
  dots_figure,
  startup_figure("start_version", "--version", "/dev/null", ""),
  startup_figure("start_play", "play blocks", "/dev/null", " to its first prompt (then end of input)"),
}

local BY_NAME = {}
for _, figure in ipairs(command.FIGURES) do BY_NAME[figure.name] = figure end

--- The names of the figures, in order.
function command.names()
  local names = {}
  for i, figure in ipairs(command.FIGURES) do names[i] = figure.name end
  return names
end

function command.configure(cmd)
  cmd:option("--only", "Measure only these figures: NAME[,NAME...] (" .. table.concat(command.names(), ", ") .. ").")
  cmd:flag("--quick", "Small depths and counts: a smoke test of every figure in a few seconds.")
  cmd:flag("--json", "Print one JSON object (figures with name, what, value, unit, seconds, count, rss_kib).")
  cmd:option("--obf", "The FFO positions the 'ffo' figure solves (e.g. fforum-20-39.obf); without it, skipped.")
  cmd:option("--eval", "The learned 8 x 8 evaluation of 'search_learned' and of the 'ffo' ordering: a file, or hand "
    .. "(default: the shipped one).")
end

--- The figures `only` names ("a,b"), or all; an unknown name is a usage error.
function command.select(only)
  if only == nil then return command.FIGURES end
  local chosen = {}
  for name in only:gmatch("[^,%s]+") do
    local figure = BY_NAME[name]
    if not figure then
      errors.fail(("bench: unknown figure '%s' (figures: %s)"):format(name, table.concat(command.names(), ", ")))
    end
    chosen[#chosen + 1] = figure
  end
  if #chosen == 0 then errors.fail("bench: --only needs a figure name") end
  return chosen
end

-- This process's peak resident set in KiB (Linux /proc), or nil.
local function peak_rss_kib()
  local file = io.open("/proc/self/status")
  if not file then return nil end
  local text = file:read("a")
  file:close()
  return tonumber(text:match("VmHWM:%s*(%d+)%s*kB"))
end

--- Measures `figure` in this process: its result table with name, unit,
-- clock and rss_kib added (or `error` when it failed).
function command.measure(figure, opts)
  local ok, result = pcall(figure.run, opts)
  if not ok then
    if errors.is_user(result) then result = result.message end
    result = { error = tostring(result) }
  end
  result.name, result.unit = figure.name, figure.unit
  result.clock = result.clock or "cpu"
  result.rss_kib = peak_rss_kib()
  return result
end

local KEYS = { "name", "what", "value", "unit", "seconds", "clock", "count", "count_unit", "rss_kib", "skipped",
  "error" }

local function json()
  return require "dkjson"
end

-- Runs `figure` in a child host (`bench --only NAME --json`) and returns
-- its result.
local function measure_in_child(figure, args)
  local argv = { require("boardscript.workers").executable(), "bench", "--only", figure.name, "--json" }
  if args.quick then argv[#argv + 1] = "--quick" end
  if args.obf then argv[#argv + 1] = "--obf=" .. args.obf end
  if args.eval then argv[#argv + 1] = "--eval=" .. args.eval end
  for i, a in ipairs(argv) do argv[i] = shell_quote(a) end
  local pipe = assert(io.popen(table.concat(argv, " ") .. " 2>&1"))
  local text = pipe:read("a")
  pipe:close()
  local decoded = json().decode(text)
  local result = type(decoded) == "table" and type(decoded.figures) == "table" and decoded.figures[1]
  if type(result) ~= "table" then
    result = { name = figure.name, unit = figure.unit, error = "the child process failed: " .. text:gsub("%s+$", "") }
  end
  return result
end

local function group(n)
  local s = ("%.0f"):format(n)
  local int = s:match("^%d+$")
  if not int then return s end
  return (int:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""))
end

--- One figure's line: name, value and unit, what was measured, time and peak RSS.
function command.line(r)
  local rss = r.rss_kib and ("peak RSS %.1f MiB"):format(r.rss_kib / 1024) or "peak RSS n/a"
  if r.error then return ("%-17s failed: %s"):format(r.name, r.error) end
  if r.skipped then return ("%-17s skipped: %s"):format(r.name, r.skipped) end
  local value = r.value >= 100 and group(r.value) or ("%.3f"):format(r.value)
  local extra
  if r.unit == "s" or r.unit == "ms" then
    extra = r.count_unit ~= "runs" and (", %s %s"):format(group(r.count), r.count_unit) or ""
  else
    extra = (", %s %s in %.3f s"):format(group(r.count), r.count_unit, r.seconds)
  end
  return ("%-17s %14s %-10s %s%s (%s); %s"):format(r.name, value, r.unit, r.what, extra, r.clock, rss)
end

--- What this engine was compiled for, and which 8 x 8 path it runs (`core.build`).
function command.build_line()
  local b = core.build
  local target = b.flags ~= "" and ("%s (this CPU's instruction sets%s)"):format(b.flags,
    b.avx512 and ", AVX-512 included" or "") or "portable (the compiler's baseline)"
  local path = b.vector == "avx2" and ("AVX2, %s"):format(b.chosen == "build" and "fixed at build time"
    or "chosen at run time") or "portable C"
  return ("%-17s %s; 8 x 8 path: %s"):format("build", target, path)
end

function command.run(args)
  local figures = command.select(args.only)
  -- a file that is not OBF (a directory, /dev/zero) is the user's mistake,
  -- said once before any figure runs (status 2), not a failed figure
  if args.obf then require("boardscript.formats.obf").load(args.obf) end
  if not args.json then io.stdout:write(command.build_line(), "\n") end
  local opts = { quick = args.quick, obf = args.obf, eval = args.eval }
  local results, failed = {}, false
  for _, figure in ipairs(figures) do
    local result = #figures == 1 and command.measure(figure, opts) or measure_in_child(figure, args)
    results[#results + 1] = result
    failed = failed or result.error ~= nil
    if not args.json then
      io.stdout:write(command.line(result), "\n")
      output.flush_stdout()
    end
  end
  if args.json then
    local doc = { boardscript = core.version, build = core.build, quick = args.quick and true or false,
      figures = results }
    io.stdout:write(json().encode(doc, { keyorder = { "boardscript", "build", "quick", "figures", "flags",
      "avx512", "vector", "chosen", table.unpack(KEYS) } }),
      "\n")
  end
  return failed and 1 or 0
end

return command
