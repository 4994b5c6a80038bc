-- Bounded inputs (issue 18 item 5; docs/decisions.md "Bounded inputs"):
-- every case of spec/support/bounded_cases.lua run through the real binary
-- with spec/support/badinput_run.sh (as the bad-input matrix runs its
-- cases). Each checks the exit status, that standard error is one line
-- (naming the file, where there is one) and no traceback, that the peak
-- RSS stays under RSS_LIMIT_KIB and the CPU time under CPU_LIMIT_MS.
-- Outside the sanitizers the process also runs under `ulimit -v` (2 GiB),
-- so a reader that would fill the memory fails instead of filling it.
local host = require "support.host"
local cases = require("support.bounded_cases").CASES

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local RUNNER = SOURCE .. "/spec/support/badinput_run.sh"
local SANITIZED = os.getenv("BOARDSCRIPT_SANITIZED") ~= nil
-- Under emulation (scripts/cross-test sets BOARDSCRIPT_EMULATED) the same
-- work takes about ten times the processor time.
local SLOWER = os.getenv("BOARDSCRIPT_EMULATED") and 10 or 1
local HANG_GUARD = (SANITIZED and 10 or 3) * SLOWER -- seconds: the runner kills after 6 x this of CPU time
local RSS_LIMIT_KIB = SANITIZED and math.huge or 256 * 1024
local CPU_LIMIT_MS = (SANITIZED and 30000 or 5000) * SLOWER
local ADDRESS_SPACE_KIB = 2 * 1024 * 1024

local figures = { hwm_kib = 0, cpu_ms = 0 }

-- Runs the binary with `args` (stdin empty). Returns { status, stdout,
-- stderr, hwm_kib, cpu_ms, timeout }.
local function run(args)
  local base = os.tmpname()
  local inp, out, err = base .. ".in", base .. ".out", base .. ".err"
  host.spit(inp, "")
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = host.shell_quote(a) end
  local command = ("bash %s %s %s %s %d %s %s"):format(host.shell_quote(RUNNER), inp, out, err, HANG_GUARD,
    host.shell_quote(host.BIN), table.concat(quoted, " "))
  if not SANITIZED then command = ("ulimit -v %d; %s"):format(ADDRESS_SPACE_KIB, command) end
  local pipe = assert(io.popen("env -u LD_PRELOAD bash -c " .. host.shell_quote(command)))
  local report = pipe:read("a")
  pipe:close()
  local r = { stdout = host.slurp(out), stderr = host.slurp(err) }
  os.remove(inp); os.remove(out); os.remove(err); os.remove(base)
  for key, value in report:gmatch("(%w[%w_]*)=(%d+)") do r[key] = tonumber(value) end
  assert(r.status, "the runner gave no report: " .. report)
  return r
end

-- Writes a case's file (a string, or a function given a writer).
local function write_file(path, content)
  local f = assert(io.open(path, "wb"))
  if type(content) == "function" then
    content(function(piece) assert(f:write(piece)) end)
  else
    assert(f:write(content))
  end
  assert(f:close())
end

-- `pattern` with FILE and DIR replaced by the paths, matched literally.
local function expand(pattern, file, dir)
  local function literal(s) return (s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0")) end
  pattern = pattern:gsub("FILE", function() return file and literal(file) or "FILE" end)
  return (pattern:gsub("DIR", function() return literal(dir) end))
end

describe("bounded inputs", function()
  local dir, cleanup
  setup(function() dir, cleanup = host.scratch_dir("a directory") end)
  teardown(function()
    cleanup()
    io.stderr:write(("bounded inputs: %d cases; peak RSS %.1f MiB (%s); most CPU %d ms (%s)\n"):format(#cases,
      figures.hwm_kib / 1024, figures.hwm_case or "-", figures.cpu_ms, figures.cpu_case or "-"))
  end)

  for _, case in ipairs(cases) do
    local test = (case.unsanitized and SANITIZED) and pending or it
    test(case.name, function()
      local file = case.file and (dir .. "/input") or nil
      if file then write_file(file, case.file) end
      local subdir = dir .. "/a directory"
      local args = {}
      for i, a in ipairs(case.args) do
        args[i] = a == "FILE" and file or (a == "DIR" and subdir or a)
      end
      local r = run(args)
      if file then os.remove(file) end
      if r.hwm_kib > figures.hwm_kib then figures.hwm_kib, figures.hwm_case = r.hwm_kib, case.name end
      if r.cpu_ms > figures.cpu_ms then figures.cpu_ms, figures.cpu_case = r.cpu_ms, case.name end
      assert.are.equal(0, r.timeout, "hang guard: the process was killed")
      assert.are.equal(case.status, r.status, r.stderr:sub(1, 400))
      assert.is_nil(r.stderr:find("traceback", 1, true), r.stderr:sub(1, 400))
      if case.usage then
        assert.matches("\nError: " .. case.usage .. "[^\n]*\n$", r.stderr)
      else
        local _, lines = r.stderr:gsub("\n", "")
        assert.are.equal(1, lines, "one line of stderr:\n" .. r.stderr:sub(1, 400))
        assert.matches("^boardscript: " .. expand(case.stderr, file, subdir) .. "[^\n]*\n$", r.stderr)
        -- the line names the file it is about
        local named = case.no_file_name or r.stderr:find(file or "/dev/zero", 1, true)
          or r.stderr:find(subdir, 1, true)
        assert.truthy(named, "the file is not named: " .. r.stderr)
      end
      assert.is_true(r.hwm_kib < RSS_LIMIT_KIB, ("peak RSS %d KiB"):format(r.hwm_kib))
      assert.is_true(r.cpu_ms < CPU_LIMIT_MS, ("CPU time %d ms"):format(r.cpu_ms))
    end)
  end
end)
