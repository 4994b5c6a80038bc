--- `boardscript nboard [--policy P]`: an Othello engine speaking the NBoard
-- protocol on stdin/stdout (boardscript.protocol.nboard), for the NBoard
-- GUI and other programs that drive NBoard engines. Each line the engine
-- sends is flushed at once; problems with a line go to stderr as
-- `boardscript: nboard: ...`; the end of input ends the session (status 0).
local console = require "boardscript.console"
local nboard = require "boardscript.protocol.nboard"
local options = require "boardscript.options"

local command = { summary = "Play Othello as an engine over the NBoard protocol (for NBoard and other GUIs)." }
-- --max-seconds without the option (boardscript.settings, applied by cli.dispatch)
command.default_max_seconds = options.PROTOCOL_SECONDS

function command.configure(cmd)
  cmd:epilog("Reads NBoard protocol commands on standard input (nboard, set depth, set game, set contempt, "
    .. "move, hint, go, ping, learn, analyze, quit) and answers on standard output, one flushed line at a time. "
    .. "'set depth N' sets the policy's depth option.")
  options.engine_session(cmd)
  cmd:flag("--no-time", "Leave times out of '===' replies and send no 'nodestats' lines (reproducible output).")
end

--- Runs a session over `input` and `output` (default stdin/stdout) and
-- `errors_out` (stderr) until `quit` or the end of input; returns 0.
function command.serve(args, input, output, errors_out)
  input, output, errors_out = input or io.stdin, output or io.stdout, errors_out or io.stderr
  local session = nboard.new {
    policy = args.policy, seed = args.seed or options.clock_seed(), no_time = args.no_time,
    send = function(line)
      output:write(line, "\n")
      output:flush()
    end,
    warn = function(message)
      errors_out:write("boardscript: nboard: ", message, "\n")
      errors_out:flush()
    end,
  }
  console.feed(input, session)
  return 0
end

function command.run(args)
  return command.serve(args)
end

return command
