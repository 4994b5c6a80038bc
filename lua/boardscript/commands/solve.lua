--- `boardscript solve dots --size RxC`: Dots and Boxes solved exactly.
local core = require "boardscript.core"
local options = require "boardscript.options"

local command = { summary = "Solve a game exactly from its start position." }

--- "RxC" or "N" boxes, within what the dots solver takes.
local function dots_size(s)
  local rows, cols = s:match("^(%d+)[xX](%d+)$")
  if not rows then rows = s:match("^%d+$"); cols = rows end
  rows, cols = math.tointeger(tonumber(rows or "")), math.tointeger(tonumber(cols or ""))
  if not rows or rows < 1 or cols < 1 or rows > 16 or cols > 16
      or 2 * rows * cols + rows + cols > core.dots_solver_max_edges then
    return nil, ("size must be RxC or N with at most %d edges (5x5, 4x6, 3x8, ...)"):format(
      core.dots_solver_max_edges)
  end
  return { rows = rows, cols = cols }
end

function command.configure(cmd)
  cmd:argument("game", "The game: dots."):choices { "dots" }
  cmd:option("--size", "Boxes: RxC or N (at most 64 edges: 5x5, 4x6, 3x8, ...).", "3x3")
    :convert(dots_size)
  cmd:option("--tt-mb", "Transposition table size in MiB (default: 4 up to 3x3, 64 above).")
    :convert(options.integer_in(1, 65536, "tt-mb"))
  cmd:option("--node-limit", "Give up after this many nodes (0: never).", "0")
    :convert(options.integer_in(0, math.maxinteger, "node-limit"))
end

--- The first player's margin with perfect play from the empty grid, the
-- nodes searched and the CPU seconds.
function command.run(args)
  local d = core.dots(args.size.rows, args.size.cols)
  local clock = os.clock()
  -- A table much larger than the search touches only costs page faults.
  local tt_mb = args.tt_mb or (d:edge_count() <= 24 and 4 or 64)
  local size = ("%dx%d"):format(args.size.rows, args.size.cols)
  -- A long search reports on stderr every 10 s of CPU time.
  local next_report = 10
  local function progress(nodes)
    local seconds = os.clock() - clock
    if seconds < next_report then return end
    next_report = seconds + 10
    io.stderr:write(("solve dots %s: %d nodes, %.0f s so far\n"):format(size, nodes, seconds))
  end
  local ok, value, nodes_or_why, stopped_nodes = pcall(d.solve, d,
    { tt_mb = tt_mb, node_limit = args.node_limit, progress = progress })
  if not ok then
    io.stderr:write(("boardscript: cannot solve with a %d MiB table: %s\n"):format(tt_mb, tostring(value)))
    return 1
  end
  local seconds = os.clock() - clock
  if value == nil then
    io.stdout:write(("solve dots %s: %s after %d nodes, %.3f s (no value)\n"):format(
      size, nodes_or_why, stopped_nodes or 0, seconds))
    return 1
  end
  io.stdout:write(("solve dots %s: first player's margin %s, %d nodes, %.3f s\n"):format(
    size, value > 0 and "+" .. value or tostring(value), nodes_or_why, seconds))
  return 0
end

return command
