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
local games = require "boardscript.bench.games"

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
  search.search_learned_2t,
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

--- The described games' figures (`bench --games`, or `--only games`):
-- GAME_perft and GAME_playouts for every shipped described game, not
-- measured by a plain `bench`.
bench.GAME_FIGURES = games.figures()

local BY_NAME = {}
for _, figure in ipairs(bench.FIGURES) do BY_NAME[figure.name] = figure end
for _, figure in ipairs(bench.GAME_FIGURES) do BY_NAME[figure.name] = figure end

local function names_of(figures)
  local names = {}
  for i, figure in ipairs(figures) do names[i] = figure.name end
  return names
end

--- The names of the figures a plain `bench` measures, in order.
-- @treturn table a list of names
function bench.names()
  return names_of(bench.FIGURES)
end

--- The names of the described games' figures, in order.
-- @treturn table a list of names
function bench.game_names()
  return names_of(bench.GAME_FIGURES)
end

--- The figures `only` names ("a,b"; `games` stands for every game figure),
-- with `with_games` the game figures too; neither: the plain figures. An
-- unknown name is a user error.
-- @tparam ?string only names separated by commas or spaces
-- @tparam[opt] boolean with_games whether to add the game figures (`--games`)
-- @treturn table a list of figures
function bench.select(only, with_games)
  if only == nil and not with_games then return bench.FIGURES end
  local chosen, seen = {}, {}
  local function add(figure)
    if not seen[figure] then
      seen[figure] = true
      chosen[#chosen + 1] = figure
    end
  end
  for name in (only or ""):gmatch("[^,%s]+") do
    if name == "games" then
      for _, figure in ipairs(bench.GAME_FIGURES) do add(figure) end
    else
      local figure = BY_NAME[name]
      if not figure then
        errors.fail(("bench: unknown figure '%s' (figures: %s; games: games, %s)"):format(name,
          table.concat(bench.names(), ", "), table.concat(bench.game_names(), ", ")))
      end
      add(figure)
    end
  end
  if with_games then
    for _, figure in ipairs(bench.GAME_FIGURES) do add(figure) end
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
