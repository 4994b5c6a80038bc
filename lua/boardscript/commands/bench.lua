--- `boardscript bench`: the engine's speed, one figure a line (`--json` for
-- machines). Each figure says what it measured (depth, positions, games,
-- seconds) so two runs can be compared, and the peak RSS of the process
-- that measured it: every figure runs in a child process of its own
-- (`boardscript bench --only NAME`), unless only one is asked for.
--
-- The figures and their workloads are the library's (boardscript.bench);
-- this command parses the options, runs them and prints. A benchmark is a
-- command, never a timed test: the specs check the shape of
-- `bench --quick --json`, not the speed.
local output = require "boardscript.output"
local core = require "boardscript.core"

local command = {
  summary = "Measure the engine's speed: perft, search, FFO, playouts, dots, start-up (one figure a line).",
}

function command.configure(cmd)
  local names = table.concat(require("boardscript.bench").names(), ", ")
  cmd:option("--only", "Measure only these figures: NAME[,NAME...] (" .. names .. "; games: the described "
    .. "games' figures, GAME_perft and GAME_playouts).")
  cmd:flag("--games", "Measure the shipped described games (lua/examples): perft leaves/s and random playouts/s "
    .. "each (with --only, added to those named). scripts/rbg-compare sets them beside RBG's.")
  cmd:flag("--quick", "Small depths and counts: a smoke test of every figure in a few seconds.")
  cmd:flag("--json", "Print one JSON object (figures with name, what, value, unit, seconds, count, rss_kib).")
  cmd:option("--obf", "The FFO positions the 'ffo' figure solves (e.g. fforum-20-39.obf); without it, skipped.")
  cmd:option("--eval", "The learned 8 x 8 evaluation of 'search_learned' and of the 'ffo' ordering: a file, or hand "
    .. "(default: the shipped one).")
end

local KEYS = { "name", "what", "value", "unit", "seconds", "clock", "count", "count_unit", "rss_kib", "skipped",
  "error" }

local function json()
  return require "dkjson"
end

-- Runs `figure` in a child host (`bench --only NAME --json`, started
-- without a shell: boardscript.workers) and returns its result.
local function measure_in_child(figure, args)
  local workers = require "boardscript.workers"
  local argv = { workers.executable(), "bench", "--only", figure.name, "--json" }
  if args.quick then argv[#argv + 1] = "--quick" end
  if args.obf then argv[#argv + 1] = "--obf=" .. args.obf end
  if args.eval then argv[#argv + 1] = "--eval=" .. args.eval end
  local w = workers.start(argv)
  local text = w.pipe:read("a") or ""
  local ended = workers.finish(w)
  local decoded = json().decode(text)
  local result = type(decoded) == "table" and type(decoded.figures) == "table" and decoded.figures[1]
  if type(result) ~= "table" then
    local why = ended or text:gsub("%s+$", "")
    result = { name = figure.name, unit = figure.unit, error = "the child process failed: " .. why }
  end
  return result
end

local function group(n)
  local s = ("%.0f"):format(n)
  local int = s:match("^%d+$")
  if not int then return s end
  return (int:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""))
end

--- One figure's line: name, value and unit, what was measured, time and peak RSS.
function command.line(r)
  local rss = r.rss_kib and ("peak RSS %.1f MiB"):format(r.rss_kib / 1024) or "peak RSS n/a"
  if r.error then return ("%-17s failed: %s"):format(r.name, r.error) end
  if r.skipped then return ("%-17s skipped: %s"):format(r.name, r.skipped) end
  local value = r.value >= 100 and group(r.value) or ("%.3f"):format(r.value)
  local extra
  if r.unit == "s" or r.unit == "ms" then
    extra = r.count_unit ~= "runs" and (", %s %s"):format(group(r.count), r.count_unit) or ""
  else
    extra = (", %s %s in %.3f s"):format(group(r.count), r.count_unit, r.seconds)
  end
  return ("%-17s %14s %-10s %s%s (%s); %s"):format(r.name, value, r.unit, r.what, extra, r.clock, rss)
end

--- What this engine was compiled for, and which 8 x 8 path it runs (`core.build`).
function command.build_line()
  local b = core.build
  local target = b.flags ~= "" and ("%s (this CPU's instruction sets%s)"):format(b.flags,
    b.avx512 and ", AVX-512 included" or "") or "portable (the compiler's baseline)"
  local path = b.vector == "avx2" and ("AVX2, %s"):format(b.chosen == "build" and "fixed at build time"
    or "chosen at run time") or "portable C"
  return ("%-17s %s; 8 x 8 path: %s"):format("build", target, path)
end

function command.run(args)
  local bench = require "boardscript.bench"
  local figures = bench.select(args.only, args.games)
  -- a file that is not OBF (a directory, /dev/zero) is the user's mistake,
  -- said once before any figure runs (status 2), not a failed figure
  if args.obf then require("boardscript.formats.obf").load(args.obf) end
  if not args.json then io.stdout:write(command.build_line(), "\n") end
  local opts = { quick = args.quick, obf = args.obf, eval = args.eval }
  local results, failed = {}, false
  for _, figure in ipairs(figures) do
    local result = #figures == 1 and bench.measure(figure, opts) or measure_in_child(figure, args)
    results[#results + 1] = result
    failed = failed or result.error ~= nil
    if not args.json then
      io.stdout:write(command.line(result), "\n")
      output.flush_stdout()
    end
  end
  if args.json then
    local doc = { boardscript = core.version, build = core.build, quick = args.quick and true or false,
      figures = results }
    io.stdout:write(json().encode(doc, { keyorder = { "boardscript", "build", "quick", "figures", "flags",
      "avx512", "vector", "chosen", table.unpack(KEYS) } }),
      "\n")
  end
  return failed and 1 or 0
end

return command
