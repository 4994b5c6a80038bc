--- Runs editions: parses their options, builds the console, seeds the
-- generator, and turns end of input and user errors into exit statuses.
local console = require "boardscript.console"
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local limits = require "boardscript.limits"
local sandbox = require "boardscript.sandbox"
local output = require "boardscript.output"
local players = require "boardscript.players"

local play = {}

--- The built-in editions, in the order `--help` lists them.
play.EDITIONS = { "blocks", "dots", "othello", "reversi", "flipflop", "board" }
play.EDITIONS.board = true

--- Status codes.
play.EXIT_USAGE = errors.EXIT_USAGE
play.EXIT_EOF = errors.EXIT_EOF

--- Raises a mistake of the user's, such as an unknown player name: the
-- runner prints the message and exits with status 2 (see boardscript.errors).
play.fail = errors.fail

--- Parses argv with an argparse parser: true and the arguments, or false
-- and the message for the user (the usage of the command that failed, e.g.
-- `boardscript play blocks`, then the error). Unlike parser:parse it never
-- exits the process.
function play.parse(parser, argv)
  argv = play.negative_values(parser, argv)
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

-- The long names of every option (in `parser` and its subcommands) that
-- takes a value.
local function value_options(parser, names)
  names = names or {}
  for _, option in ipairs(parser._options or {}) do
    if (option._maxargs or 1) > 0 then
      for _, alias in ipairs(option._aliases or {}) do names[alias] = true end
    end
  end
  for _, command in ipairs(parser._commands or {}) do value_options(command, names) end
  return names
end

--- argparse reads `-5` as an option: an argument that looks like a negative
-- number right after an option taking a value is joined to it
-- (`--seed -5` -> `--seed=-5`). Returns a new argument list.
function play.negative_values(parser, argv)
  local takes_value
  local out = {}
  local i = 1
  while i <= #argv do
    local a, b = argv[i], argv[i + 1]
    if b and b:match("^%-%d") and a:match("^%-%-[^=]+$") then
      takes_value = takes_value or value_options(parser)
      if takes_value[a] then
        out[#out + 1] = a .. "=" .. b
        i = i + 1
      else
        out[#out + 1] = a
      end
    elseif a == "--" then
      table.move(argv, i, #argv, #out + 1, out)
      break
    else
      out[#out + 1] = a
    end
    i = i + 1
  end
  return out
end

--- `play FILE.lua ...` and `play NAME ...` for a rule set that is not an
-- edition are the generic console: `play board --rules FILE ...`.
function play.rewrite_file_edition(argv)
  local target = argv[2]
  if argv[1] ~= "play" or target == nil or target:sub(1, 1) == "-" then return argv end
  for _, name in ipairs(play.EDITIONS) do
    if name == target then return argv end
  end
  if not play.EDITIONS.board then return argv end
  local out = { "play", "board", "--rules", target }
  table.move(argv, 3, #argv, 5, out)
  return out
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

--- Loads one player by name (see boardscript.players) for rule set `game`
-- (a name, or a rule set table: then its base rule sets count too); a bad
-- name, a broken policy file or a policy for another game is a usage error.
function play.load_player(spec, game)
  local player = players.load(spec, game)
  if not players.plays(player, game) then
    local name = type(game) == "table" and tostring(game.name) or game
    local games = player.policy.games
    play.fail(("player '%s' plays only %s, not %s (for %s: human, %s, or a policy file)"):format(
      spec, games and table.concat(games, ", ") or "rule sets the C core searches exactly", name, name,
      table.concat(players.builtin_for(game), ", ")))
  end
  return player
end

--- The players named by --black and --white, for the rule set named `game`.
function play.load_players(args, game)
  return { black = play.load_player(args.black, game), white = play.load_player(args.white, game) }
end

function play.seed_option(cmd)
  require("boardscript.options").seed(cmd, "Seed for every random choice (default: drawn from the clock, and "
    .. "recorded).")
end

--- Adds one subcommand per edition to an argparse command, each with
-- --record. With `argv` (the arguments after `play`) naming an edition,
-- only that edition is loaded and configured (a quicker start; the
-- parse is the same).
function play.add_editions(cmd, argv)
  cmd:command_target("edition")
  local only = argv and argv[1]
  local known = false
  for _, name in ipairs(play.EDITIONS) do known = known or name == only end
  for _, name in ipairs(play.EDITIONS) do
    if not known or name == only then
      local edition = play.edition(name)
      local sub = cmd:command(name, edition.summary)
      edition.configure(sub)
      sub:option("--record", "Write a record of the game to this file (see 'boardscript replay').")
      limits.add_options(sub)
      sandbox.add_option(sub)
      require("boardscript.game").add_options(sub)
    end
  end
end

local function parser()
  local p = require("argparse")("boardscript play", "Play an edition, or any rule set: play FILE.lua.")
  play.add_editions(p)
  return p
end

local handler = errors.handler(console.EOF)

--- Runs an edition from parsed arguments (args.edition names it).
-- io_opts: { input =, output =, errors = } as for console.new.
--
-- The edition gets ctx = { console, args, rng, seed } and, once its game
-- is set up, sets ctx.game (a boardscript.game) and ctx.players ({ [side]
-- = player spec }); with --record the record is written whatever way the
-- game ends (finished, quit, end of input, a player's fault).
function play.run_parsed(args, io_opts)
  limits.from_args(args)
  sandbox.from_args(args)
  require("boardscript.game").from_args(args)
  local con = console.new(io_opts)
  local edition = play.edition(args.edition)
  local seed = args.seed or require("boardscript.options").clock_seed()
  local ctx = { console = con, args = args, rng = core.rng(seed), seed = seed }
  local record_file
  if args.record then
    local err
    record_file, err = io.open(args.record, "w")
    if not record_file then
      con:warn("boardscript: cannot write the record: " .. err)
      return play.EXIT_USAGE
    end
  end
  local ok, status = xpcall(edition.run, handler, ctx)
  if ok then
    local flushed, err = xpcall(con.flush, handler, con)
    if not flushed then ok, status = false, err end
  end
  if record_file then
    -- the record is written however the game ended; a record that could
    -- not be written whole fails the command (never exit 0 with a cut file)
    local written, err = pcall(function()
      if ctx.game then
        output.write(record_file, args.record, require("boardscript.record").text(ctx.game,
          { edition = args.edition ~= "board" and args.edition or nil, rules = ctx.rules,
            seed = seed, players = ctx.players }))
      end
      output.close(record_file, args.record)
    end)
    if not written then
      pcall(io.close, record_file) -- when the write failed before the close
      if ok or not errors.is_user(status) then ok, status = false, err end
    end
  end
  if ok then return status or 0 end
  if status == console.EOF then
    con:warn("boardscript: input ended before the game finished")
    return play.EXIT_EOF
  end
  if errors.is_user(status) then
    con:warn("boardscript: " .. status.message)
    return status.status
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
  local rewritten = play.rewrite_file_edition({ "play", table.unpack(argv) })
  local ok, args = play.parse(p, table.move(rewritten, 2, #rewritten, 1, {}))
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
