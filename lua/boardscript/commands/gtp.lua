--- `boardscript gtp [--policy P]`: an Othello engine speaking GTP (the Go
-- Text Protocol, version 2, as Edax speaks it for Othello) on stdin/stdout
-- (boardscript.protocol.gtp). Each response is flushed at once; the end
-- of input ends the session (status 0).
local console = require "boardscript.console"
local gtp = require "boardscript.protocol.gtp"
local options = require "boardscript.options"

local command = { summary = "Play Othello as an engine over GTP (as Edax speaks it), for GTP controllers." }
-- --max-seconds without the option (boardscript.settings, applied by cli.dispatch)
command.default_max_seconds = options.PROTOCOL_SECONDS

function command.configure(cmd)
  cmd:epilog("Reads GTP commands on standard input (protocol_version, name, version, known_command, "
    .. "list_commands, quit, boardsize, clear_board, komi, play, genmove, undo, showboard, final_score, "
    .. "set_game, list_games) and answers on standard output: '=[id] result' or '?[id] error', then an "
    .. "empty line. Moves are Othello cells (f5, a1 top left) or pass.")
  options.engine_session(cmd)
end

--- Runs a session over `input` and `output` (default stdin/stdout) until
-- `quit` or the end of input; returns 0.
function command.serve(args, input, output)
  input, output = input or io.stdin, output or io.stdout
  local session = gtp.new {
    policy = args.policy, seed = args.seed or options.clock_seed(),
    send = function(line) output:write(line, "\n") end,
  }
  console.feed(input, session, function() output:flush() end)
  return 0
end

function command.run(args)
  return command.serve(args)
end

return command
