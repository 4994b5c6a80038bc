--- The command line: boardscript play | run | perft, --help, --version.
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

--- Entry point: argv holds the arguments after the program name. Returns the
-- process exit status.
function cli.main(argv)
  local parser, play_cmd = build_parser()
  local ok, args = parser:pparse(argv)
  if not ok then
    io.stderr:write(parser:get_usage(), "\n\nError: ", args, "\n")
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
