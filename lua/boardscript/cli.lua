--- The command line: parses argv and dispatches to one module per command
-- (boardscript.commands.NAME, `-` written `_`, each with `summary`, `configure(cmd)` and
-- `run(args) -> status`), so a new command is a new file.
--
-- Start-up is kept short: `--version` loads nothing but the core, and a
-- command line naming a command configures only that command (argparse,
-- the other command modules and the editions load only for `--help`, a
-- bare `boardscript` or a mistyped command, whose messages list them all).
local console = require "boardscript.console"
local errors = require "boardscript.errors"

local cli = {}

--- The commands, in the order `--help` lists them.
cli.COMMANDS = { "play", "run", "perft", "solve", "replay", "test", "rules", "ai", "match", "match-merge", "render",
  "nboard", "gtp", "convert", "bench", "soak", "train", "serve" }

-- The parser; with `only` (a command's name), that command alone is
-- configured and handed the arguments after it (`play` configures only
-- the edition they name).
local function build_parser(only, rest)
  local argparse = require "argparse"
  local core = require "boardscript.core"
  local parser = argparse("boardscript", "A scriptable engine for grid board games.")
    :epilog("Run 'boardscript COMMAND --help' for a command, 'boardscript play --help' for the editions.")
  parser:command_target("command"):require_command(false)
  parser:flag("--version", "Print the version and exit.")
    :action(function()
      io.stdout:write("boardscript ", core.version, "\n")
      os.exit(0)
    end)
  local modules, commands = {}, {}
  for _, name in ipairs(cli.COMMANDS) do
    if only == nil or name == only then
      local module = require("boardscript.commands." .. name:gsub("%-", "_"))
      local cmd = parser:command(name, module.summary)
      module.configure(cmd, only and rest)
      if cli.USER_CODE[name] then require("boardscript.sandbox").add_option(cmd) end
      modules[name], commands[name] = module, cmd
    end
  end
  return parser, modules, commands
end

--- The commands that load rule set or policy files (which take --trust;
-- `play` takes it after the edition).
cli.USER_CODE = { perft = true, replay = true, render = true, test = true, rules = true, ai = true,
  match = true, nboard = true, gtp = true, soak = true, train = true, serve = true }

--- `name` when it is one of cli.COMMANDS exactly, else nil.
function cli.command_named(name)
  for _, command in ipairs(cli.COMMANDS) do
    if command == name then return name end
  end
  return nil
end

-- Errors of ours keep their traceback; a user's mistake (or an error in a
-- user's file) and the end of input are values the dispatcher turns into a
-- message and a status.
local handler = errors.handler(console.EOF)

--- Runs one command's `run(args)`: returns the exit status. A user error
-- prints `boardscript: message` on stderr; any other error propagates (the
-- host prints it with its traceback and exits 1).
function cli.dispatch(module, args, command)
  -- the settings of the whole run (--trust, budgets, --max-plies), once;
  -- a command with budgets of its own (serve) sets them itself
  if module.budgets == "own" then
    require("boardscript.sandbox").from_args(args)
  else
    require("boardscript.settings").apply(args, module.default_max_seconds)
  end
  local ok, result = xpcall(module.run, handler, args, command)
  -- what the command wrote must have reached standard output
  local flushed, why = io.stdout:flush()
  if not flushed and ok then
    ok, result = pcall(require("boardscript.output").stdout_failed, why)
  elseif not flushed then
    pcall(require("boardscript.output").stdout_failed, why) -- the command's own error is the one to show
  end
  if ok then return math.type(result) == "integer" and result or 0 end
  if result == console.EOF then
    io.stderr:write("boardscript: ", tostring(console.EOF), "\n")
    return errors.EXIT_EOF
  end
  if errors.is_user(result) then
    -- a worker's error goes to the command that started it, which says it
    if not require("boardscript.workers").report(result) then
      io.stderr:write("boardscript: ", result.message, "\n")
    end
    return result.status
  end
  error(result, 0)
end

--- Entry point: argv holds the arguments after the program name. Returns the
-- process exit status.
function cli.main(argv)
  if argv[1] == "--version" then -- what argparse's --version action does, without argparse
    io.stdout:write("boardscript ", require("boardscript.core").version, "\n")
    return 0
  end
  local args_mod = require "boardscript.args"
  argv = args_mod.rewrite_file_edition(argv)
  local parser, modules, commands = build_parser(cli.command_named(argv[1]), table.move(argv, 2, #argv, 1, {}))
  local ok, args = args_mod.parse(parser, argv)
  if not ok then
    io.stderr:write(args)
    return errors.EXIT_USAGE
  end
  local module = modules[args.command]
  if not module then
    io.stdout:write(parser:get_help(), "\n")
    return 0
  end
  return cli.dispatch(module, args, commands[args.command])
end

return cli
