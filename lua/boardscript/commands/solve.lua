--- `boardscript solve dots --size RxC`: Dots and Boxes solved exactly.
local output = require "boardscript.output"
local core = require "boardscript.core"
local options = require "boardscript.options"

local command = { summary = "Solve exactly: Dots and Boxes from the start, or Reversi positions of an OBF file." }

--- The longest --time the core's searchers take, in seconds (115 days).
command.MAX_TIME = 10000000

--- "RxC" or "N" boxes, within what the dots solver takes.
local function dots_size(s)
  local rows, cols = s:match("^(%d+)[xX](%d+)$")
  if not rows then rows = s:match("^%d+$"); cols = rows end
  rows, cols = math.tointeger(tonumber(rows or "")), math.tointeger(tonumber(cols or ""))
  if not rows or not cols or rows < 1 or cols < 1 or rows > 16 or cols > 16
      or 2 * rows * cols + rows + cols > core.dots_solver_max_edges then
    return nil, ("size must be RxC or N with at most %d edges (5x5, 4x6, 3x8, ...)"):format(
      core.dots_solver_max_edges)
  end
  return { rows = rows, cols = cols }
end

function command.configure(cmd)
  cmd:argument("game", "The game: dots, or reversi (with --obf)."):choices { "dots", "reversi" }
  cmd:option("--obf", "reversi: a file of OBF positions (one a line) to solve exactly.")
  cmd:option("--jobs", "reversi: solve in this many worker processes.", "1")
    :convert(options.integer_in(1, 256, "jobs"))
  cmd:option("--threads", "reversi: threads solving each position together (sharing the table).", "1")
    :convert(options.integer_in(1, 8, "threads"))
  cmd:option("--without", "reversi: leave out these techniques of the solver, to measure their gain: etc, "
    .. "stability, eval_order, table, joined by +.")
    :convert(function(text)
      local list = require("boardscript.ai.alphabeta").without_list(text)
      if not list then
        return nil, ("without: %s is not a list of etc, stability, eval_order, table joined by +"):format(text)
      end
      return list
    end)
  cmd:option("--shard", "reversi: solve only slice I of N (I/N), positions I, I+N, ..., and print their lines.")
  cmd:option("--merge", "reversi: the listing and totals of shards' outputs (files of --shard lines).")
    :args("+")
  cmd:option("--eval", "reversi: order the moves by this evaluation: a file from 'boardscript train', or hand "
    .. "(default: the 8 x 8 evaluation boardscript ships).")
  cmd:option("--time", "Give up after this many seconds of CPU time (0: never); dots prints the bounds proved.", "0")
    :convert(function(text)
      local n = tonumber(text)
      if not n or not (n >= 0 and n <= command.MAX_TIME) then
        return nil, ("time must be a number of seconds from 0 to %d"):format(command.MAX_TIME)
      end
      return n
    end)
  cmd:option("--size", "Boxes: RxC or N (at most 64 edges: 5x5, 4x6, 3x8, ...).", "3x3")
    :convert(dots_size)
  cmd:option("--tt-mb", "Transposition table size in MiB (default by the grid: 4 up to 3x3, 64 up to 3x4, "
    .. "1024 up to 4x4, 4096 above, at most a quarter of the memory).")
    :convert(options.integer_in(1, 65536, "tt-mb"))
  cmd:option("--node-limit", "Give up after this many nodes (0: never).", "0")
    :convert(options.integer_in(0, math.maxinteger, "node-limit"))
end

--- The first player's margin with perfect play from the empty grid, the
-- nodes searched and the CPU seconds.
local function solve_dots(args)
  local d = core.dots(args.size.rows, args.size.cols)
  local clock = os.clock()
  local tt_mb = args.tt_mb or require("boardscript.ai.dots_solver").table_mb(d:edge_count(), args.node_limit)
  local size = ("%dx%d"):format(args.size.rows, args.size.cols)
  -- A long search reports on stderr every 10 s of CPU time, with the
  -- bounds on the margin proved so far.
  local next_report = 10
  local function progress(nodes, lo, hi)
    local seconds = os.clock() - clock
    if seconds < next_report then return end
    next_report = seconds + 10
    io.stderr:write(("solve dots %s: %d nodes, %.0f s so far, margin in [%s, %s]\n"):format(
      size, nodes, seconds, lo > 0 and "+" .. lo or tostring(lo), hi > 0 and "+" .. hi or tostring(hi)))
  end
  local ok, value, nodes_or_why, stopped_nodes, lo, hi = pcall(d.solve, d,
    { tt_mb = tt_mb, nodes = args.node_limit, progress = progress,
      time = args.time > 0 and args.time or nil })
  if not ok then
    io.stderr:write(("boardscript: cannot solve with a %d MiB table: %s\n"):format(tt_mb, tostring(value)))
    return 1
  end
  local seconds = os.clock() - clock
  if value == nil then
    io.stdout:write(("solve dots %s: %s after %d nodes, %.3f s (no value)\n"):format(
      size, nodes_or_why, stopped_nodes or 0, seconds))
    -- What the finished probes proved (when they proved anything), beside
    -- the progress lines.
    local boxes = args.size.rows * args.size.cols
    if lo and hi and (lo > -boxes or hi < boxes) then
      io.stderr:write(("solve dots %s: stopped with the margin in [%s, %s]\n"):format(
        size, lo > 0 and "+" .. lo or tostring(lo), hi > 0 and "+" .. hi or tostring(hi)))
    end
    return 1
  end
  io.stdout:write(("solve dots %s: first player's margin %s, %d nodes, %.3f s\n"):format(
    size, value > 0 and "+" .. value or tostring(value), nodes_or_why, seconds))
  return 0
end

local totals

-- One position's line: `#K MOVE +S (best +B ok) nodes N, T s`.
local function position_line(index, pos, move, margin, info, obf)
  local expected = pos.best[1] and pos.best[1].score
  local verdict = ""
  if not info.exact then
    verdict = " (stopped)"
  elseif expected then
    verdict = (" (best %+d %s)"):format(expected, expected == margin and "ok" or "WRONG")
  end
  return ("#%d %s %+d%s nodes %d, %.3f s"):format(index, move == "end" and "--" or obf.move_text(move), margin,
    verdict, info.nodes,
    info.seconds)
end

local function shard_of(text)
  if text == nil then return 1, 1 end
  return require("boardscript.workers").shard_of(text)
end

--- How `solve reversi` starts its --jobs workers: the words of the
-- command with these arguments, before the settings and --shard that
-- workers.run_shards adds.
-- @tparam table args the parsed arguments
-- @treturn {string,...}
function command.worker_argv(args)
  local argv = { require("boardscript.workers").executable(), "solve", "reversi", "--obf", args.obf,
                 "--time", tostring(args.time) }
  if args.eval then argv[#argv + 1] = "--eval=" .. args.eval end
  if args.tt_mb then argv[#argv + 1] = "--tt-mb=" .. args.tt_mb end
  if args.threads > 1 then argv[#argv + 1] = "--threads=" .. args.threads end
  if args.without then argv[#argv + 1] = "--without=" .. table.concat(args.without, "+") end
  return argv
end

-- Runs K workers (this host with --shard i/K) and returns their lines,
-- and a message naming the workers that ended badly and the positions
-- nobody solved (nil when all were).
local function worker_lines(args, count)
  -- position k's line (a worker solves positions i, i + K, ... in order)
  local function item(w, k)
    for line in w.line, w do
      local index = tonumber(line:match("^#(%d+) "))
      if index then
        if index == k then return line end
        return nil, line
      end
    end
    return nil
  end
  local lines, missing, bad = {}, {}, {}
  require("boardscript.workers").run_shards({ argv = command.worker_argv(args), jobs = args.jobs, count = count,
                                               item = item }, function(fan)
    for k, line, fault in fan.next, fan do
      if fault then missing[#missing + 1] = "#" .. k else lines[#lines + 1] = line end
    end
    for _, ended in ipairs(fan:close()) do bad[#bad + 1] = ("worker %d (%s)"):format(ended.worker, ended.ended) end
  end)
  if #bad == 0 and #missing == 0 then return lines, nil end
  return lines, ("solve: %s; %s"):format(#bad > 0 and table.concat(bad, ", ") .. " stopped" or "every worker ended",
    #missing > 0 and ("positions not solved: %s"):format(table.concat(missing, ", ")) or "every position solved")
end

-- The totals line of position lines (wall: seconds this run took, if it
-- ran them); status 1 when a position is wrong or stopped.
totals = function(lines, wall, ordering)
  local nodes, seconds, ok, wrong, stopped = 0, 0, 0, 0, 0
  for _, line in ipairs(lines) do
    nodes = nodes + tonumber(line:match("nodes (%d+)"))
    seconds = seconds + tonumber(line:match("([%d.]+) s$"))
    if line:find("(stopped)", 1, true) then stopped = stopped + 1 end
    if line:find(" ok)", 1, true) then ok = ok + 1 end
    if line:find(" WRONG)", 1, true) then wrong = wrong + 1 end
  end
  io.stdout:write(("total: %d positions, %d ok, %d wrong, %d stopped, %d nodes, %.3f s%s, "
    .. "%.0f nodes/s%s\n"):format(#lines, ok, wrong, stopped, nodes, seconds,
    wall and (" (%.3f s wall)"):format(wall) or "", seconds > 0 and nodes / seconds or 0,
    ordering and (", ordered by " .. ordering) or ""))
  return (wrong > 0 or stopped > 0) and 1 or 0
end

--- `solve reversi --obf FILE`: each position solved exactly (empties go to
-- the winner, as in the FFO scores), one line each, then the totals.
local function solve_reversi(args)
  local obf = require "boardscript.formats.obf"
  if not args.obf then require("boardscript.errors").fail("solve reversi needs --obf FILE") end
  local positions = obf.load(args.obf)
  local first, count = shard_of(args.shard)
  local evaluator, ordering = require("boardscript.solve").ordering(args.eval)
  local wall = core.clock()
  local lines, lost = {}, nil
  if args.jobs > 1 and not args.shard then
    lines, lost = worker_lines(args, #positions)
    for _, line in ipairs(lines) do io.stdout:write(line, "\n") end
  else
    local tt_mb = args.tt_mb or 64
    local made, searcher = pcall(core.searcher, { tt_mb = tt_mb })
    if not made then
      -- a table the machine cannot give (--tt-mb 65536): one line, as for dots
      io.stderr:write(("boardscript: cannot solve with a %d MiB table: %s\n"):format(tt_mb,
        tostring(searcher):gsub("^[^\n]-:%d+: ", "")))
      return 1
    end
    for index = first, #positions, count do
      local pos = positions[index]
      searcher:clear()
      local move, margin, info = require("boardscript.solve").position(searcher, pos, args.time, evaluator,
        args.threads, args.without)
      local line = position_line(index, pos, move, margin, info, obf)
      lines[#lines + 1] = line
      io.stdout:write(line, "\n")
      output.flush_stdout()
    end
  end
  if args.shard then return 0 end
  local status = totals(lines, core.clock() - wall, ordering)
  if lost then
    output.flush_stdout()
    io.stderr:write("boardscript: ", lost, "\n")
    return 1
  end
  return status
end

--- The most bytes one file of shard lines may hold (docs/decisions.md,
-- "Bounded inputs"); a line is at most 64 KiB.
command.MAX_MERGE_BYTES = 16 << 20
-- The largest position number a shard line may give.
local MAX_POSITION = 1000000000

-- Whether `line` is a position line as position_line writes it, with
-- numbers in range (a forged line never reaches the totals).
local function position_line_ok(line)
  local index, move, margin, nodes, seconds = line:match("^#(%d+) (%u[%u%d]) ([+-]%d+)[^\n]* nodes (%d+), ([%d.]+) s$")
  index, margin, nodes = math.tointeger(tonumber(index or "")), math.tointeger(tonumber(margin or "")),
    math.tointeger(tonumber(nodes or ""))
  seconds = tonumber(seconds or "")
  return move and index and index >= 1 and index <= MAX_POSITION and margin and margin >= -64 and margin <= 64
    and nodes and nodes >= 0 and seconds and seconds < math.huge and true or false
end

-- `solve reversi --merge FILES`: the shards' position lines in file order,
-- then the totals (no wall time: the shards ran elsewhere). Each file is
-- read in pieces within command.MAX_MERGE_BYTES; a line starting with `#`
-- that is not a position line is a user error naming the file and line.
local function merge_reversi(args)
  local errors = require "boardscript.errors"
  local bounded = require "boardscript.bounded"
  local lines, seen = {}, {}
  for _, path in ipairs(args.merge) do
    for line, number in bounded.lines(path, { limit = command.MAX_MERGE_BYTES }) do
      if line:find("^#") then
        if not position_line_ok(line) then
          errors.fail(("%s:%d: not a position line of 'solve reversi --shard'"):format(path, number))
        end
        local index = tonumber(line:match("^#(%d+) "))
        if seen[index] then errors.fail(("--merge: position #%d appears twice"):format(index)) end
        seen[index] = true
        lines[#lines + 1] = line
      end
    end
  end
  if #lines == 0 then errors.fail("--merge: no position lines in the files") end
  table.sort(lines, function(a, b) return tonumber(a:match("^#(%d+)")) < tonumber(b:match("^#(%d+)")) end)
  for _, line in ipairs(lines) do io.stdout:write(line, "\n") end
  return totals(lines)
end

function command.run(args)
  if args.game == "reversi" then
    if args.merge then return merge_reversi(args) end
    return solve_reversi(args)
  end
  return solve_dots(args)
end

return command
