--- Runs editions: parses their options, builds the console, seeds the
-- generator, and turns end of input and user errors into exit statuses.
local argparse = require "argparse"
local console = require "boardscript.console"
local core = require "boardscript.core"
local players = require "boardscript.players"

local play = {}

--- The built-in editions, in the order `--help` lists them.
play.EDITIONS = { "blocks", "dots", "othello", "reversi", "flipflop" }

--- Status codes.
play.EXIT_USAGE = 2
play.EXIT_EOF = 3

--- Raised (via play.fail) for a mistake of the user's, such as an unknown
-- player name: the runner prints the message and exits with status 2.
local UserError = {}
UserError.__index = UserError
UserError.__tostring = function(e) return e.message end

function play.fail(message)
  error(setmetatable({ message = message }, UserError), 0)
end

--- Parses argv with an argparse parser: true and the arguments, or false
-- and the message for the user (the usage of the command that failed, e.g.
-- `boardscript play blocks`, then the error). Unlike parser:parse it never
-- exits the process.
function play.parse(parser, argv)
  local failure
  parser.error = function(failed, message) -- called with the failing (sub)command
    failure = ("%s\n\nError: %s\n"):format(failed:get_usage(), message)
    error(failure, 0)
  end
  local ok, args = pcall(parser.parse, parser, argv)
  if ok then return true, args end
  if failure then return false, failure end
  error(args, 0)
end

--- Loads an edition module by name.
function play.edition(name)
  return require("boardscript.editions." .. name)
end

--- Adds --black/--white/--seed, the options of the two-player editions.
function play.player_options(cmd)
  cmd:option("--black", "Who plays black: human, a built-in AI (random, ...) or a policy file.", "human")
  cmd:option("--white", "Who plays white: human, a built-in AI (random, ...) or a policy file.", "human")
  play.seed_option(cmd)
end

--- Loads one player by name (see boardscript.players) for the rule set
-- named `game`; a bad name, a broken policy file or a policy for another
-- game is a usage error.
function play.load_player(spec, game)
  local ok, player = pcall(players.load, spec)
  if not ok then play.fail(tostring(player)) end
  if not players.plays(player, game) then
    play.fail(("player '%s' plays only %s, not %s"):format(
      spec, table.concat(player.policy.games, ", "), game))
  end
  return player
end

--- The players named by --black and --white, for the rule set named `game`.
function play.load_players(args, game)
  return { black = play.load_player(args.black, game), white = play.load_player(args.white, game) }
end

function play.seed_option(cmd)
  cmd:option("--seed", "Seed for every random choice (default: from the clock).")
    :convert(function(s)
      local n = math.tointeger(tonumber(s))
      if not n or not s:match("^[+-]?%d+$") then return nil, "seed must be an integer" end
      return n
    end)
end

--- Adds one subcommand per edition to an argparse command.
function play.add_editions(cmd)
  cmd:command_target("edition")
  for _, name in ipairs(play.EDITIONS) do
    local edition = play.edition(name)
    local sub = cmd:command(name, edition.summary)
    edition.configure(sub)
  end
end

local function parser()
  local p = argparse("boardscript play", "Play one of the built-in editions.")
  play.add_editions(p)
  return p
end

local function handler(err)
  if err == console.EOF or getmetatable(err) == UserError then return err end
  return debug.traceback(tostring(err), 2)
end

--- Runs an edition from parsed arguments (args.edition names it).
-- io_opts: { input =, output =, errors = } as for console.new.
function play.run_parsed(args, io_opts)
  local con = console.new(io_opts)
  local edition = play.edition(args.edition)
  local seed = args.seed or (os.time() ~ math.floor(os.clock() * 1e6))
  local ctx = { console = con, args = args, rng = core.rng(seed) }
  local ok, status = xpcall(edition.run, handler, ctx)
  con:flush()
  if ok then return status or 0 end
  if status == console.EOF then
    con:warn("boardscript: input ended before the game finished")
    return play.EXIT_EOF
  end
  if getmetatable(status) == UserError then
    con:warn("boardscript: " .. status.message)
    return play.EXIT_USAGE
  end
  error(status, 0)
end

--- Runs `boardscript play ARGV...` in memory: returns the exit status, and
-- (when io_opts.input is a string and no output is given) stdout and stderr
-- as strings. Used by specs and regression scripts.
function play.run(argv, io_opts)
  io_opts = io_opts or {}
  local out, err
  if io_opts.output == nil then out = console.buffer() end
  if io_opts.errors == nil then err = console.buffer() end
  local opts = { input = io_opts.input or "", output = io_opts.output or out, errors = io_opts.errors or err }
  local p = parser()
  local ok, args = play.parse(p, argv)
  local status
  if not ok then
    opts.errors:write(args)
    status = play.EXIT_USAGE
  else
    status = play.run_parsed(args, opts)
  end
  return status, out and out:contents(), err and err:contents()
end

return play
