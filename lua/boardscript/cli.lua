--- The command line: boardscript play | run | perft | solve, --help, --version.
local argparse = require "argparse"
local core = require "boardscript.core"
local play = require "boardscript.play"

local cli = {}

local function integer_in(lo, hi, what)
  return function(s)
    local n = s:match("^[+-]?%d+$") and math.tointeger(tonumber(s))
    if not n or n < lo or n > hi then
      return nil, ("%s must be an integer from %d to %d"):format(what, lo, hi)
    end
    return n
  end
end

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

local function build_parser()
  local parser = argparse("boardscript", "A scriptable engine for grid board games.")
    :epilog("Run 'boardscript play --help' for the editions, 'boardscript COMMAND --help' for a command.")
  parser:command_target("command"):require_command(false)
  parser:flag("--version", "Print the version and exit.")
    :action(function()
      io.stdout:write("boardscript ", core.version, "\n")
      os.exit(0)
    end)

  local play_cmd = parser:command("play", "Play a built-in edition.")
  play.add_editions(play_cmd)
  play_cmd:require_command(false)

  local run_cmd = parser:command("run", "Run a Lua script with the boardscript API available.")
    :handle_options(false)
  run_cmd:argument("script", "The Lua file to run.")
  run_cmd:argument("args", "Arguments passed to the script as 'arg'."):args("*")

  local perft = parser:command("perft", "Count the leaves of the game tree from the start position.")
  perft:argument("rules", "A rule set: reversi, blocks, or a path to a .lua file.")
  perft:argument("depth", "Plies to search."):convert(integer_in(0, 64, "depth"))
  perft:option("--size", "Board size.", "8"):convert(integer_in(4, 26, "size"))
  perft:flag("--generic", "Use the multi-word path even on 8 x 8 (to check the fast path).")

  local solve = parser:command("solve", "Solve a game exactly from its start position.")
  solve:argument("game", "The game: dots."):choices { "dots" }
  solve:option("--size", "Boxes: RxC or N (at most 64 edges: 5x5, 4x6, 3x8, ...).", "3x3")
    :convert(dots_size)
  solve:option("--tt-mb", "Transposition table size in MiB (default: 4 up to 3x3, 64 above).")
    :convert(integer_in(1, 65536, "tt-mb"))
  solve:option("--node-limit", "Give up after this many nodes (0: never).", "0")
    :convert(integer_in(0, math.maxinteger, "node-limit"))
  return parser, play_cmd
end

--- `boardscript run FILE args...`: the script sees `arg` as lua.c builds it.
local function run_script(args)
  local chunk, err = loadfile(args.script)
  if not chunk then
    io.stderr:write("boardscript: ", err, "\n")
    return 1
  end
  local script_arg = { [0] = args.script }
  for i, a in ipairs(args.args) do script_arg[i] = a end
  _G.arg = script_arg
  local result = chunk(table.unpack(args.args))
  if math.type(result) == "integer" then return result end
  return 0
end

local function run_perft(args)
  local rules = require("boardscript.rules").load(args.rules)
  if not rules.perft then
    io.stderr:write("boardscript: rule set '", args.rules, "' has no perft hook\n")
    return 1
  end
  local state = rules:setup({ size = args.size })
  local clock = os.clock()
  local leaves = rules:perft(state, args.depth, { generic = args.generic })
  local seconds = os.clock() - clock
  local rate = seconds > 0 and leaves / seconds or 0
  io.stdout:write(("perft %s depth %d size %d: %d leaves, %.3f s, %.0f leaves/s\n"):format(
    rules.name or args.rules, args.depth, args.size, leaves, seconds, rate))
  return 0
end

--- `boardscript solve dots --size RxC`: the first player's margin with
-- perfect play from the empty grid, the nodes searched and the CPU seconds.
local function run_solve(args)
  local d = core.dots(args.size.rows, args.size.cols)
  local clock = os.clock()
  -- A table much larger than the search touches only costs page faults.
  local tt_mb = args.tt_mb or (d:edge_count() <= 24 and 4 or 64)
  local value, nodes_or_why, stopped_nodes = d:solve { tt_mb = tt_mb, node_limit = args.node_limit }
  local seconds = os.clock() - clock
  local size = ("%dx%d"):format(args.size.rows, args.size.cols)
  if value == nil then
    io.stdout:write(("solve dots %s: %s after %d nodes, %.3f s (no value)\n"):format(
      size, nodes_or_why, stopped_nodes or 0, seconds))
    return 1
  end
  io.stdout:write(("solve dots %s: first player's margin %s, %d nodes, %.3f s\n"):format(
    size, value > 0 and "+" .. value or tostring(value), nodes_or_why, seconds))
  return 0
end

--- Entry point: argv holds the arguments after the program name. Returns the
-- process exit status.
function cli.main(argv)
  local parser, play_cmd = build_parser()
  local ok, args = play.parse(parser, argv)
  if not ok then
    io.stderr:write(args)
    return play.EXIT_USAGE
  end
  if args.command == "play" then
    if not args.edition then
      io.stdout:write(play_cmd:get_help(), "\n")
      return 0
    end
    return play.run_parsed(args)
  elseif args.command == "run" then
    return run_script(args)
  elseif args.command == "solve" then
    return run_solve(args)
  elseif args.command == "perft" then
    local okp, status = pcall(run_perft, args)
    if okp then return status end
    io.stderr:write("boardscript: ", tostring(status), "\n")
    return 1
  end
  io.stdout:write(parser:get_help(), "\n")
  return 0
end

return cli
