--- The start-up figures of `boardscript bench`: wall-clock milliseconds
-- per start of a host process, run many times in a shell loop.
local core = require "boardscript.core"

local startup = {}

local shell_quote = require("boardscript.text").shell_quote

-- Milliseconds per run of `line` (a shell command) in a shell loop: wall
-- time, and the processor time of the processes it started (the shell's
-- `times`, in ticks of 10 ms: meaningful over many runs).
local function per_run_ms(line, runs)
  local script = ("i=0; while [ $i -lt %d ]; do %s; i=$((i+1)); done; times"):format(runs, line)
  local start = core.clock()
  -- the shell runs the loop being measured: a host started from a shell,
  -- as a user starts it, is the figure
  local pipe = assert(io.popen(script))
  local out = pipe:read("a")
  pipe:close()
  local wall = (core.clock() - start) * 1000 / runs
  local um, us, sm, ss = out:match("\n(%d+)m([%d.]+)s%s+(%d+)m([%d.]+)s")
  local cpu = um and ((tonumber(um) + tonumber(sm)) * 60 + tonumber(us) + tonumber(ss)) * 1000 / runs
  return wall, cpu
end

--- A figure timing `boardscript ARGS <INPUT`.
-- @tparam string name the figure's name
-- @tparam string args the host's arguments (shell words)
-- @tparam string input the file its standard input reads
-- @tparam string about what the run does, for the figure's text
-- @treturn table the figure (name, unit, run)
function startup.figure(name, args, input, about)
  return {
    name = name, unit = "ms",
    run = function(opts)
      local exe = require("boardscript.workers").executable()
      local line = ("%s %s <%s >/dev/null 2>&1"):format(shell_quote(exe), args, input)
      local batches, size = opts.quick and 2 or 10, opts.quick and 3 or 10
      per_run_ms("/bin/true", size) -- warm the caches
      per_run_ms(line, size)
      -- Batches alternate with a /bin/true baseline; the best batch counts
      -- (the machine may be busy), the worst shows the spread.
      local best, worst, baseline, cpu = math.huge, 0, math.huge, 0
      for _ = 1, batches do
        baseline = math.min(baseline, (per_run_ms("/bin/true", size)))
        local ms, cpu_ms = per_run_ms(line, size)
        best, worst, cpu = math.min(best, ms), math.max(worst, ms), cpu + (cpu_ms or 0) / batches
      end
      return {
        what = ("wall time of `boardscript %s`%s: the best of %d batches of %d runs (worst %.2f ms; "
          .. "processor time %.2f ms a run; a /bin/true in the same loop %.2f ms)"):format(
          args, about, batches, size, worst, cpu, baseline),
        value = best, seconds = best * size / 1000, count = batches * size, count_unit = "runs",
        worst_ms = worst, cpu_ms = cpu, baseline_ms = baseline, clock = "wall",
      }
    end,
  }
end

return startup
