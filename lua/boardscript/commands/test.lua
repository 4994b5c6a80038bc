--- `boardscript test PATH... [--update]`: runs golden transcripts,
-- playthroughs and Lua test scripts (see boardscript.testing and
-- docs/decisions.md, "boardscript test").
local testing = require "boardscript.testing"

local command = { summary = "Run regression tests: transcripts (NAME.in), playthroughs, NAME_test.lua scripts." }

function command.configure(cmd)
  cmd:argument("paths", "Test files, or directories searched recursively for them."):args("+")
  cmd:flag("--update", "Rewrite playthroughs, and transcripts' .out/.err/.status, from this run "
    .. "instead of comparing.")
end

function command.run(args)
  local _, failed = testing.run(args.paths, { update = args.update })
  return failed > 0 and 1 or 0
end

return command
