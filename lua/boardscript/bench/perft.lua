--- The perft figures of `boardscript bench`: leaves a second from
-- Reversi's start (any size, with blocks, along a direction set) and from
-- mid-game positions.
local core = require "boardscript.core"
local workload = require "boardscript.bench.workload"

local perft = {}

--- A perft figure from the n x n start. With `blocks`, the fixed block
-- pattern (workload.start); with `flip`, a direction set: discs flip only
-- along it (every direction still legal), as in lua/examples/orthogonal.lua's
-- captures.
-- @tparam string name the figure's name
-- @tparam integer n the board's size
-- @tparam integer depth the depth measured
-- @tparam integer quick_depth the depth with --quick
-- @tparam[opt] boolean blocks whether the board has blocks
-- @tparam[opt] string flip the direction set discs flip along
-- @treturn table the figure (name, unit, run)
function perft.figure(name, n, depth, quick_depth, blocks, flip)
  return {
    name = name, unit = "leaves/s",
    run = function(opts)
      local d = opts.quick and quick_depth or depth
      local b, count = workload.start(n, blocks)
      local seconds, leaves = workload.timed(b.perft, b, "black", d, flip and { flip = flip } or nil)
      return {
        what = ("perft reversi %dx%d%s%s depth %d"):format(n, n, blocks and (" with %d blocks"):format(count) or "",
          flip and (", flips %s only"):format(flip) or "", d),
        value = leaves / seconds, seconds = seconds, count = leaves, count_unit = "leaves", depth = d,
      }
    end,
  }
end

--- Perft from a mid-game position: `plies` random plies (seed 1, a pass
-- when stuck) from the n x n start, where the discs no longer fit the
-- 16 x 16 window of the opening and the branching is a mid-game's.
-- @tparam string name the figure's name
-- @tparam integer n the board's size
-- @tparam integer plies the random plies before it
-- @tparam integer depth the depth measured
-- @tparam integer quick_depth the depth with --quick
-- @treturn table the figure (name, unit, run)
function perft.midgame_figure(name, n, plies, depth, quick_depth)
  return {
    name = name, unit = "leaves/s",
    run = function(opts)
      local d = opts.quick and quick_depth or depth
      local b, buffer = workload.start(n), {}
      local player = workload.random_plies(b, "black", plies, core.rng(1), buffer)
      local moves = b:move_list(player, "all", buffer)
      local seconds, leaves = workload.timed(b.perft, b, player, d)
      return {
        what = ("perft reversi %dx%d mid-game (%d random plies, seed 1: %d discs, %d moves) depth %d"):format(
          n, n, plies, b:count("black") + b:count("white"), moves, d),
        value = leaves / seconds, seconds = seconds, count = leaves, count_unit = "leaves", depth = d,
      }
    end,
  }
end

return perft
