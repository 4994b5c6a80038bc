--- What the figures of `boardscript bench` share: the positions they start
-- from (the reversi rule set's start, seeded random plies from it), the
-- learned evaluation some of them use, and the processor-time measure.
local core = require "boardscript.core"

local workload = {}

local opponent = require("boardscript.families.board").opponent

-- The reversi and blocks rule sets, loaded when first asked for (not when
-- `boardscript --help` lists the figures).
local reversi, blocks_rules
local function rule_sets()
  if not reversi then
    local rules_mod = require "boardscript.rules"
    reversi, blocks_rules = rules_mod.load("reversi"), rules_mod.load("blocks")
  end
  return reversi, blocks_rules
end

--- The reversi rule set's start on an n x n board; with `blocks`, blocks
-- on the cells where (r * 7 + c * 3) % 11 == 0 that the blocks rule set
-- lets a block take (a fixed pattern, so runs compare).
-- @tparam integer n the board's size (even, 2 to 26)
-- @tparam[opt] boolean blocks whether to place the blocks
-- @return the board (a core board; black to move)
-- @treturn integer the blocks placed
function workload.start(n, blocks)
  local start_rules, block_rules = rule_sets()
  local state = start_rules:setup { size = n }
  local count = 0
  if blocks then
    for r = 1, n do
      for c = 1, n do
        if (r * 7 + c * 3) % 11 == 0 and block_rules:add_block(state, r, c) then count = count + 1 end
      end
    end
  end
  return state.board, count
end

--- Plays `plies` random moves (drawn by rng:random over move_list's
-- order; a pass when stuck) on `board` from `player`'s turn.
-- @param board a core board
-- @tparam string player the side to move
-- @tparam integer plies how many plies
-- @param rng a core.rng
-- @tparam[opt] table buffer move_list's buffer
-- @treturn string the side to move after them
function workload.random_plies(board, player, plies, rng, buffer)
  buffer = buffer or {}
  for _ = 1, plies do
    local k = board:move_list(player, "all", buffer)
    if k > 0 then board:play_index(player, buffer[rng:random(k)]) end
    player = opponent(player)
  end
  return player
end

--- `count` midgame positions: 20 random plies (seeds 1, 2, ...) from the
-- 8 x 8 start, those where the side to move has a move.
-- @tparam integer count how many
-- @treturn table a list of { board =, player = }
function workload.midgame_positions(count)
  local positions = {}
  local seed = 0
  local buffer = {}
  while #positions < count do
    seed = seed + 1
    local b = workload.start(8)
    local player = workload.random_plies(b, "black", 20, core.rng(seed), buffer)
    if b:move_list(player, "all", buffer) > 0 then positions[#positions + 1] = { board = b, player = player } end
  end
  return positions
end

--- Processor seconds `f` takes (at least a microsecond, the clock's
-- resolution, so that rates stay finite), and what it returns.
-- @tparam function f what to time
-- @param ... its arguments
-- @treturn number seconds
-- @return its first three results
function workload.timed(f, ...)
  local start = os.clock()
  local a, b, c = f(...)
  return math.max(os.clock() - start, 1e-6), a, b, c
end

--- The learned 8 x 8 Reversi evaluation the figures use: opts.eval (a
-- file), else the shipped one; nil with "hand" or when none is shipped.
-- @tparam table opts the bench options (`eval`)
-- @return the evaluator, or nil
-- @treturn ?string the path of its file
function workload.learned_8x8(opts)
  local evalfile = require "boardscript.evalfile"
  if opts.eval == "hand" then return nil end
  local ev, meta = evalfile.for_game(opts.eval, "reversi", 8)
  return ev, meta and meta.path
end

return workload
