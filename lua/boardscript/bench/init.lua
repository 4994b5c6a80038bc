--- The figures `boardscript bench` measures: the engine's speed, each
-- figure a table { name, unit, run = function(opts) -> result }, where
-- opts holds quick, obf and eval and the result says what was measured
-- (what, value, seconds, count, count_unit, ...) or why it was skipped.
--
-- Times are processor seconds (os.clock) of the process measuring, except
-- the start-up figures, which are wall-clock milliseconds per start of a
-- host process. The workloads start from the reversi rule set's positions
-- (bench/workload.lua); the command (commands/bench.lua) runs each figure
-- in a process of its own and prints.
local errors = require "boardscript.errors"
local perft = require "boardscript.bench.perft"
local search = require "boardscript.bench.search"
local playout = require "boardscript.bench.playout"
local startup = require "boardscript.bench.startup"

local bench = {}

--- The figures, in the order they are printed.
bench.FIGURES = {
  perft.figure("perft8", 8, 12, 9),
  perft.figure("perft6", 6, 11, 7),
  perft.figure("perft10", 10, 11, 6),
  perft.figure("perft16", 16, 11, 5),
  perft.figure("perft8_orth", 8, 11, 6, false, "orthogonal"),
  perft.figure("perft16_orth", 16, 11, 5, false, "orthogonal"),
  perft.figure("perft26", 26, 12, 5, true),
  perft.midgame_figure("perft16_mid", 16, 60, 6, 3),
  perft.midgame_figure("perft26_mid", 26, 300, 5, 3),
  search.search,
  search.search_learned,
  search.ffo,
  playout.c,
  playout.lua,
  playout.lua_math,
  playout.lua_own,
  playout.lua_board,
  playout.hooks,
  playout.mcts,
  search.dots,
  startup.figure("start_version", "--version", "/dev/null", ""),
  startup.figure("start_play", "play blocks", "/dev/null", " to its first prompt (then end of input)"),
}

local BY_NAME = {}
for _, figure in ipairs(bench.FIGURES) do BY_NAME[figure.name] = figure end

--- The names of the figures, in order.
-- @treturn table a list of names
function bench.names()
  local names = {}
  for i, figure in ipairs(bench.FIGURES) do names[i] = figure.name end
  return names
end

--- The figures `only` names ("a,b"), or all; an unknown name is a user error.
-- @tparam ?string only names separated by commas or spaces
-- @treturn table a list of figures
function bench.select(only)
  if only == nil then return bench.FIGURES end
  local chosen = {}
  for name in only:gmatch("[^,%s]+") do
    local figure = BY_NAME[name]
    if not figure then
      errors.fail(("bench: unknown figure '%s' (figures: %s)"):format(name, table.concat(bench.names(), ", ")))
    end
    chosen[#chosen + 1] = figure
  end
  if #chosen == 0 then errors.fail("bench: --only needs a figure name") end
  return chosen
end

-- This process's peak resident set in KiB (Linux /proc), or nil.
local function peak_rss_kib()
  local file = io.open("/proc/self/status")
  if not file then return nil end
  local text = file:read("a")
  file:close()
  return tonumber(text:match("VmHWM:%s*(%d+)%s*kB"))
end

--- Measures `figure` in this process: its result table with name, unit,
-- clock and rss_kib added (or `error` when it failed).
-- @tparam table figure one of bench.FIGURES
-- @tparam table opts quick, obf, eval
-- @treturn table the result
function bench.measure(figure, opts)
  local ok, result = pcall(figure.run, opts)
  if not ok then
    if errors.is_user(result) then result = result.message end
    result = { error = tostring(result) }
  end
  result.name, result.unit = figure.name, figure.unit
  result.clock = result.clock or "cpu"
  result.rss_kib = peak_rss_kib()
  return result
end

return bench
