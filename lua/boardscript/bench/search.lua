--- The search figures of `boardscript bench`: the alphabeta searcher on
-- midgame positions (hand and learned evaluation), the exact solver on FFO
-- positions, and the dots solver.
local core = require "boardscript.core"
local workload = require "boardscript.bench.workload"

local search = {}

-- Searches `count` midgame positions to `depth` (with the learned
-- `evaluator` when given), full-width (no Multi-ProbCut: the same tree as
-- the figures before it), by `threads` threads (default 1): the nodes and
-- processor seconds in all, and the wall seconds.
local function search_midgames(count, depth, evaluator, threads)
  local searcher = core.searcher { tt_mb = 16 }
  local nodes, seconds, wall = 0, 0, 0
  for _, pos in ipairs(workload.midgame_positions(count)) do
    searcher:clear()
    local t, _, _, info = workload.timed(searcher.search, searcher, pos.board, pos.player,
      { depth = depth, endgame = 0, evaluator = evaluator, mpc = false, threads = threads })
    nodes, seconds, wall = nodes + info.nodes, seconds + t, wall + info.seconds
  end
  return nodes, seconds, wall
end

--- The alphabeta search with the hand-written evaluation.
search.search = {
  name = "search", unit = "nodes/s",
  run = function(opts)
    local count, depth = 8, opts.quick and 4 or 9
    local nodes, seconds = search_midgames(count, depth)
    return {
      what = ("alphabeta search depth %d of %d midgame positions (20 random plies, seeds 1..)"):format(depth, count),
      value = nodes / seconds, seconds = seconds, count = nodes, count_unit = "nodes", depth = depth, positions = count,
    }
  end,
}

--- The alphabeta search with the learned 8 x 8 evaluation.
search.search_learned = {
  name = "search_learned", unit = "nodes/s",
  run = function(opts)
    local ev, path = workload.learned_8x8(opts)
    if not ev then return { skipped = "no learned 8 x 8 Reversi evaluation (--eval FILE, or a shipped one)" } end
    local count, depth = 8, opts.quick and 4 or 11
    local nodes, seconds = search_midgames(count, depth, ev)
    return {
      what = ("alphabeta search depth %d of %d midgame positions (20 random plies, seeds 1..), learned evaluation %s, "
        .. "full-width")
        :format(depth, count, path:match("[^/]*$")),
      value = nodes / seconds, seconds = seconds, count = nodes, count_unit = "nodes", depth = depth, positions = count,
    }
  end,
}

--- search_learned's work by two threads (threads=2): the nodes of both a
-- second of wall time, and the wall time against one thread's.
search.search_learned_2t = {
  name = "search_learned_2t", unit = "nodes/s",
  run = function(opts)
    local ev, path = workload.learned_8x8(opts)
    if not ev then return { skipped = "no learned 8 x 8 Reversi evaluation (--eval FILE, or a shipped one)" } end
    local count, depth = 8, opts.quick and 4 or 11
    local _, _, one = search_midgames(count, depth, ev, 1)
    local nodes, seconds, wall = search_midgames(count, depth, ev, 2)
    return {
      what = ("search_learned's positions by 2 threads (Lazy SMP, simplified ABDADA), nodes of both a second of "
        .. "wall time; depth %d in %.3f s of wall time against %.3f s with one thread (%.2fx), %s")
        :format(depth, wall, one, one / wall, path:match("[^/]*$")),
      value = nodes / wall, seconds = wall, cpu_seconds = seconds, wall_one = one, count = nodes,
      count_unit = "nodes", depth = depth, positions = count, clock = "wall",
    }
  end,
}

--- The exact solver on the positions of opts.obf (empties to the winner).
search.ffo = {
  name = "ffo", unit = "s",
  run = function(opts)
    if not opts.obf then
      return { skipped = "no --obf FILE (e.g. the FFO tests fforum-20-39.obf)" }
    end
    local obf = require "boardscript.formats.obf"
    local positions = obf.load(opts.obf)
    local last = opts.quick and math.min(2, #positions) or #positions
    local searcher = core.searcher { tt_mb = 64 }
    local ev, path = workload.learned_8x8(opts)
    local nodes, seconds, ok = 0, 0, 0
    for i = 1, last do
      local pos = positions[i]
      searcher:clear()
      local t, _, margin, info = workload.timed(searcher.solve, searcher, pos.board, pos.player,
        { game = { empties_to_winner = true }, evaluator = ev })
      nodes, seconds = nodes + (info and info.nodes or 0), seconds + t
      local best = pos.best[1] and pos.best[1].score
      if margin ~= nil and (best == nil or best == margin) then ok = ok + 1 end
    end
    local file = opts.obf:match("[^/]*$")
    return {
      what = ("solve exactly %d positions of %s (%d with the expected score), ordered by %s"):format(last, file, ok,
        ev and ("the learned evaluation " .. path:match("[^/]*$")) or "the hand ordering"),
      value = seconds, seconds = seconds, count = nodes, count_unit = "nodes", positions = last, correct = ok,
    }
  end,
}

--- The dots solver from the empty grid.
search.dots = {
  name = "dots", unit = "s",
  run = function(opts)
    local rows, cols = 3, opts.quick and 3 or 4
    local d = core.dots(rows, cols)
    local seconds, value, nodes = workload.timed(d.solve, d, { tt_mb = 64 })
    return {
      what = ("solve dots %dx%d exactly (first player's margin %+d)"):format(rows, cols, value),
      value = seconds, seconds = seconds, count = nodes, count_unit = "nodes",
    }
  end,
}

return search
