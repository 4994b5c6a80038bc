--- The described-game figures of `boardscript bench --games`: for every
-- shipped described game (lua/examples), perft leaves a second and random
-- playouts a second, run by the C engine (core.dgame) on the game's
-- normalised description with its default options.
--
-- Each figure repeats its work until it has taken at least a few processor
-- seconds (os.clock; one run with --quick), so that a shallow perft is still
-- measured over seconds: scripts/rbg-compare sets these figures beside
-- Regular Boardgames' compiled reasoners for the same games. Perft counts
-- as the engine's S:perft does: the move sequences of the depth, a game
-- finished at the last ply counted, one finished above it not (as RBG's
-- perft counts). A playout is a uniform random game from the start to its
-- end (S:playout), as RBG's flat Monte Carlo plays them.
local core = require "boardscript.core"

local games = {}

--- The described games measured, in order: the example's file name, the
-- perft depth (and with --quick), as in scripts/rbg-compare.
games.GAMES = {
  { name = "connect4", depth = 8, quick_depth = 4 },
  { name = "breakthrough", depth = 5, quick_depth = 3 },
  { name = "gomoku", depth = 3, quick_depth = 2 },
  { name = "hex", depth = 3, quick_depth = 2 },
  { name = "ataxx", depth = 5, quick_depth = 3 },
  { name = "amazons", depth = 2, quick_depth = 1 },
  { name = "draughts", depth = 10, quick_depth = 5 },
  { name = "tictactoe_d", depth = 9, quick_depth = 5 },
}

-- Processor seconds a full figure runs at least (its work repeated).
local MIN_SECONDS = 2
-- Random games a playout call plays (a full figure; --quick plays QUICK_PLAYOUTS once).
local BATCH, QUICK_PLAYOUTS = 200, 5

-- The directory of the shipped examples (lua/examples next to the modules).
local function examples_dir()
  local found = package.searchpath("boardscript.rules", package.path)
  local root = found and found:match("^(.*)/boardscript/rules/init%.lua$")
  return root and (root .. "/examples") or "lua/examples"
end

--- The shipped example `name` compiled for the C engine: its game object
-- (core.dgame over its normalised description with its default options)
-- and the normalised description.
-- @tparam string name the example's file name without .lua
-- @return the game object G
-- @treturn table the normalised description
function games.load(name)
  local rules = require "boardscript.rules"
  local path = ("%s/%s.lua"):format(examples_dir(), name)
  local rs = rules.load(path)
  local opts = rules.resolve_options(rs, {})
  local normalised
  if type(rs.described) == "table" and type(rs.described.normalised) == "function" then
    normalised = rs.described.normalised(opts)
  else
    normalised = require("boardscript.describe").normalize(rs, opts)
  end
  return core.dgame(normalised), normalised
end

-- Repeats f() until `seconds` of processor time have passed (once when 0);
-- returns the seconds taken (at least 1e-6), the runs and the sum of f's results.
local function repeated(seconds, f)
  local start, runs, total = os.clock(), 0, 0
  repeat
    total = total + f()
    runs = runs + 1
  until os.clock() - start >= seconds
  return math.max(os.clock() - start, 1e-6), runs, total
end

local function board_name(n)
  return ("%s %dx%d"):format(n.name, n.cols, n.rows)
end

--- The perft figure of one game: leaves a processor second at its depth.
-- `GAME_perft` may count the last ply in bulk (S:perft's default);
-- `GAME_played` (played = true) plays and undoes every leaf, as RBG's
-- perft does: the figure to set beside RBG's.
-- @tparam table game an entry of games.GAMES
-- @tparam[opt] boolean played every leaf played (S:perft(d, { bulk = false }))
-- @treturn table the figure (name, unit, run)
function games.perft_figure(game, played)
  local popts = played and { bulk = false } or nil
  return {
    name = game.name .. (played and "_played" or "_perft"), unit = "leaves/s",
    run = function(opts)
      local d = opts.quick and game.quick_depth or game.depth
      local G, n = games.load(game.name)
      local S = G:start()
      local seconds, runs, leaves = repeated(opts.quick and 0 or MIN_SECONDS, function() return S:perft(d, popts) end)
      return {
        what = ("perft %s depth %d%s (%d leaves a run, %d run%s)"):format(board_name(n), d,
          played and ", every leaf played" or "", leaves // runs, runs, runs == 1 and "" or "s"),
        value = leaves / seconds, seconds = seconds, count = leaves, count_unit = "leaves", depth = d,
        leaves = leaves // runs, runs = runs,
      }
    end,
  }
end

--- The playout figure of one game: uniform random games from the start to
-- their end a processor second (S:playout, drawn from core.rng(1)).
-- @tparam table game an entry of games.GAMES
-- @treturn table the figure (name, unit, run)
function games.playout_figure(game)
  return {
    name = game.name .. "_playouts", unit = "playouts/s",
    run = function(opts)
      local G, n = games.load(game.name)
      local S, rng = G:start(), core.rng(1)
      local batch = opts.quick and QUICK_PLAYOUTS or BATCH
      local tally = { black = 0, white = 0, draw = 0, plies = 0 }
      local seconds, _, played = repeated(opts.quick and 0 or MIN_SECONDS, function()
        local r = S:playout(rng, batch)
        for key in pairs(tally) do tally[key] = tally[key] + (r[key] or 0) end
        return batch
      end)
      return {
        what = ("random playouts of %s from the start (%.1f plies a game; black %d, white %d, draws %d)"):format(
          board_name(n), tally.plies / played, tally.black, tally.white, tally.draw),
        value = played / seconds, seconds = seconds, count = played, count_unit = "playouts", playouts = played,
        plies = tally.plies,
      }
    end,
  }
end

--- Every game's three figures, perft (bulk), perft with every leaf
-- played, then playouts, in games.GAMES order.
-- @treturn table a list of figures
function games.figures()
  local list = {}
  for _, game in ipairs(games.GAMES) do
    list[#list + 1] = games.perft_figure(game)
    list[#list + 1] = games.perft_figure(game, true)
    list[#list + 1] = games.playout_figure(game)
  end
  return list
end

return games
