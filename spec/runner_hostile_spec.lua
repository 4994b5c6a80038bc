-- `boardscript test` cannot be fooled by a hostile NAME_test.lua: each case
-- writes one script (run first, `a_NAME_test.lua`) next to two neighbours, one
-- failing and one passing, runs the real host on the directory, and checks
-- the whole stdout (the hostile script's line and reason, the neighbours'
-- lines, the closing count), that stderr is empty and the exit status.
local support = require "support.host"
local spit = support.spit

-- Run after the hostile script: it fails with its own message.
local FAILS = "assert(false, 'the neighbour fails')\n"
-- Run last: it passes only in a fresh process with the standard library intact.
local PASSES = [[
assert(rawget(_G, "hostile") == nil, "a global leaked from an earlier script")
assert(type(print) == "function" and type(io.write) == "function" and type(os.exit) == "function")
assert(not pcall(error, "x"))
assert(select(2, xpcall(error, function() return "handled" end, "x")) == "handled")
assert(string.format("%d", 1) == "1")
assert(type(package.loaded["boardscript.testing"].run) == "function")
]]

local NEIGHBOURS = "FAIL t/b_fails_test.lua\n    t/b_fails_test.lua:1: the neighbour fails\nok   t/c_passes_test.lua\n"

local function replaced(names)
  return "replaced standard globals and did not restore them: " .. names
end

-- name, the script, extra arguments of `boardscript test`, and its expected
-- output up to the neighbours' lines; `passes` when it is not a failure.
local CASES = {
  { name = "exit0", script = "print('before the exit')\nos.exit(0)\nerror('not reached')\n",
    out = "before the exit\nFAIL t/a_exit0_test.lua\n    exited with os.exit(0) before the script finished\n" },
  { name = "exit_true", script = "os.exit(true)\n",
    out = "FAIL t/a_exit_true_test.lua\n    exited with os.exit(true) before the script finished\n" },
  { name = "exit_close", script = "_G.os.exit(0, true)\n",
    out = "FAIL t/a_exit_close_test.lua\n    exited with os.exit(0, true) before the script finished\n" },
  { name = "loop", script = "while true do end\n", args = { "--timeout", "2" },
    out = "FAIL t/a_loop_test.lua\n    timed out after 2 s\n" },
  { name = "print", script = "_G.print = function() end\n",
    out = "FAIL t/a_print_test.lua\n    " .. replaced("print") .. "\n" },
  { name = "io", script = "_G.io = nil\n",
    out = "FAIL t/a_io_test.lua\n    " .. replaced("io") .. "\n" },
  { name = "error", script = "_G.error = function() end\nerror('this failure is swallowed')\n",
    out = "FAIL t/a_error_test.lua\n    " .. replaced("error") .. "\n" },
  { name = "pcall", script = "_G.pcall = function() return true end\n",
    out = "FAIL t/a_pcall_test.lua\n    " .. replaced("pcall") .. "\n" },
  { name = "xpcall", script = "_G.xpcall = function() return true end\n",
    out = "FAIL t/a_xpcall_test.lua\n    " .. replaced("xpcall") .. "\n" },
  { name = "format", script = "string.format = function() return '' end\n",
    out = "FAIL t/a_format_test.lua\n    " .. replaced("string.format") .. "\n" },
  { name = "os", script = "_G.os = { exit = function() end }\n",
    out = "FAIL t/a_os_test.lua\n    " .. replaced("os") .. "\n" },
  { name = "module",
    script = 'package.loaded["boardscript.testing"] = { run = function() return 1, 0 end }\n',
    out = "FAIL t/a_module_test.lua\n    " .. replaced('package.loaded["boardscript.testing"]') .. "\n" },
  { name = "memory", script = "local t = {}\nwhile true do t[#t + 1] = ('x'):rep(1024 * 1024) .. #t end\n",
    args = { "--max-memory", "64" },
    out = "FAIL t/a_memory_test.lua\n    out of memory (the Lua heap grew by more than --max-memory 64 MiB)\n" },
  { name = "signal", script = "os.execute('kill -KILL $PPID')\n",
    out = "FAIL t/a_signal_test.lua\n    killed by signal 9\n" },
  { name = "raises", script = "_G.hostile = true\nerror('boom')\n",
    out = "FAIL t/a_raises_test.lua\n    t/a_raises_test.lua:2: boom\n" },
  { name = "passes", script = "_G.hostile = true\nassert(1 + 1 == 2)\n", passes = true,
    out = "ok   t/a_passes_test.lua\n" },
}

describe("boardscript test against hostile scripts", function()
  local dir, remove
  before_each(function() dir, remove = support.scratch_dir("t") end)
  after_each(function() remove() end)

  for _, case in ipairs(CASES) do
    it(case.name .. ": " .. case.out:match("[^\n]*\n[^\n]*$"):gsub("^%s+", ""):gsub("\n$", ""), function()
      spit(dir .. "/t/a_" .. case.name .. "_test.lua", case.script)
      spit(dir .. "/t/b_fails_test.lua", FAILS)
      spit(dir .. "/t/c_passes_test.lua", PASSES)
      local args = { "test" }
      for _, a in ipairs(case.args or {}) do args[#args + 1] = a end
      args[#args + 1] = "t"
      local status, out, err = support.run(args, { cwd = dir })
      local counts = case.passes and "2 passed, 1 failed\n" or "1 passed, 2 failed\n"
      assert.equal(case.out .. NEIGHBOURS .. counts, out)
      assert.equal("", err)
      assert.equal(1, status)
    end)
  end
end)
