--- `boardscript test PATH... [--update] [--timeout S] [--max-memory MIB]`:
-- runs golden transcripts, playthroughs and Lua test scripts (see
-- boardscript.testing and docs/decisions.md, "boardscript test").
local testing = require "boardscript.testing"
local options = require "boardscript.options"

local command = { summary = "Run regression tests: transcripts (NAME.in), playthroughs, NAME_test.lua scripts." }

function command.configure(cmd)
  cmd:argument("paths", "Test files, or directories searched recursively for them."):args("+")
  cmd:flag("--update", "Rewrite playthroughs, and transcripts' .out/.err/.status, from this run "
    .. "instead of comparing.")
  cmd:option("--timeout", ("Seconds of wall-clock time each transcript or NAME_test.lua may run before it is "
    .. "stopped and fails (default %d)."):format(testing.TIMEOUT))
    :argname("<S>"):convert(options.positive("--timeout"))
  cmd:option("--max-memory", ("MiB the Lua heap may grow by while a NAME_test.lua runs before it is stopped "
    .. "and fails (default %d)."):format(testing.MAX_MEMORY))
    :argname("<MIB>"):convert(options.positive("--max-memory", options.MAX_MEMORY_MIB))
  -- The runner's child: runs the one NAME_test.lua given in this process
  -- and writes its result to FILE (testing.script_child).
  cmd:option("--script-result"):argname("<FILE>"):hidden(true)
end

function command.run(args)
  if args.script_result then
    if #args.paths ~= 1 then
      require("boardscript.errors").fail("test: --script-result takes exactly one script")
    end
    return testing.script_child(args.paths[1], args.script_result, { max_memory = args.max_memory })
  end
  local _, failed = testing.run(args.paths, { update = args.update, timeout = args.timeout,
    max_memory = args.max_memory })
  return failed > 0 and 1 or 0
end

return command
