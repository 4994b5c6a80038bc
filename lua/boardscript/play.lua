--- Runs editions: parses their options, builds the console, seeds the
-- generator, and turns end of input and user errors into exit statuses.
local console = require "boardscript.console"
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local options = require "boardscript.options"
local sandbox = require "boardscript.sandbox"
local output = require "boardscript.output"
local editions = require "boardscript.editions"
local args_mod = require "boardscript.args"
local seats = require "boardscript.editions.seats"

local play = {}

--- The built-in editions,
-- in the order `--help` lists them.
play.EDITIONS = editions.NAMES

--- Status codes.
play.EXIT_USAGE = errors.EXIT_USAGE
play.EXIT_EOF = errors.EXIT_EOF

--- Raises a mistake of the user's, such as an unknown player name: the
-- runner prints the message and exits with status 2 (see boardscript.errors).
-- @function fail
-- @tparam string message the message
-- @tparam[opt=2] integer status the exit status
play.fail = errors.fail

-- The players' options and loading (boardscript.editions.seats) and the
-- argument parsing (boardscript.args), under their old names here too.
play.player_options, play.load_player, play.load_players, play.seed_option =
  seats.player_options, seats.load_player, seats.load_players, seats.seed_option
play.parse, play.negative_values, play.rewrite_file_edition =
  args_mod.parse, args_mod.negative_values, args_mod.rewrite_file_edition

--- Loads an edition module by name.
-- @function edition
-- @tparam string name one of play.EDITIONS
-- @treturn table the edition module
play.edition = editions.load

--- Adds one subcommand per edition to an argparse command, each with
-- --record. With `argv` (the arguments after `play`) naming an edition,
-- only that edition is loaded and configured (a quicker start; the
-- parse is the same).
-- @tparam table cmd an argparse command
-- @tparam[opt] {string,...} argv the arguments after `play`
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
      options.budgets(sub)
      sandbox.add_option(sub)
      options.max_plies(sub)
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
-- @tparam table args the parsed arguments
-- @tparam[opt] table io_opts { input =, output =, errors = }
-- @treturn integer the exit status
function play.run_parsed(args, io_opts)
  require("boardscript.settings").apply(args)
  local con = console.new(io_opts)
  local edition = play.edition(args.edition)
  local seed = args.seed or require("boardscript.options").clock_seed()
  local ctx = { console = con, args = args, rng = core.rng(seed), seed = seed }
  local record_file
  if args.record then
    -- opened now, so a record that cannot be written is said before the
    -- game; it replaces an existing file only once written whole
    local opened, err = pcall(output.create, args.record)
    if not opened then
      con:warn("boardscript: cannot write the record: " .. tostring(err))
      return play.EXIT_USAGE
    end
    record_file = err
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
      if not ctx.game then return record_file:abandon() end -- no game began: the old file stays
      record_file:write(require("boardscript.record").text(ctx.game,
        { edition = args.edition ~= "board" and args.edition or nil, rules = ctx.rules,
          seed = seed, players = ctx.players }))
      record_file:commit()
    end)
    if not written then
      record_file:abandon() -- when the write failed before the commit
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
-- @tparam {string,...} argv the arguments after `play`
-- @tparam[opt] table io_opts { input =, output =, errors = }
-- @treturn integer the exit status
-- @treturn ?string what was written to stdout
-- @treturn ?string what was written to stderr
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
