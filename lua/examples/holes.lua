--- Holes: Reversi with holes punched at random into the board, on any even
-- size. A hole is a block cell: nobody plays there and no line of discs
-- runs through it.
--
-- Option `holes` (default 4) says how many. They are drawn from the game's
-- seeded generator, which `setup` receives as its second argument, so the
-- same seed gives the same board everywhere (records replay, perft is
-- reproducible with `--seed`). The four centre cells are never holes, and
-- `check_options` refuses more holes than the other cells of the board.
--
--     boardscript play ./lua/examples/holes.lua --opt holes=8 --seed 3 --black random --white random
--     boardscript perft ./lua/examples/holes.lua 5 --size 6 --opt holes=2 --seed 3
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

local holes = rules.variant(reversi, {
  name = "holes",
  description = "Reversi with holes: 4 cells (option holes), drawn at random but never in the centre, are blocks that "
    .. "nobody plays on and no line runs through. Black and White take turns, Black first; a move is an empty cell, "
    .. "such as d3, that traps a straight line of the opponent's discs between it and one of yours, and every disc so "
    .. "trapped flips. A player with no such move passes; when neither can move, the one with more discs wins.",
  holes = 4,
  options = {
    size = reversi.options.size,
    centre = reversi.options.centre,
    holes = { type = "integer", min = 0, max = 26 * 26 - 4, help = "block cells placed at random (not the centre)" },
  },
})

--- The options go together when the holes fit outside the four centre
-- cells of the board (checked before any game is set up, by every
-- command, and the soak draws no other).
function holes:check_options(opts)
  local free = opts.size * opts.size - 4
  if opts.holes > free then
    return ("%d holes do not fit in the %d cells outside the centre"):format(opts.holes, free)
  end
end

--- Reversi's start position, then opts.holes blocks on random cells drawn
-- with `rng` (a core generator: rng:random(n) is 1..n).
function holes:setup(opts, rng)
  opts = opts or {}
  local state = reversi.setup(self, opts, rng)
  local board = state.board
  local n = board:size()
  local count = opts.holes or self.holes
  local free = {}
  for row = 1, n do
    for col = 1, n do
      if board:get(row, col) == "empty" then free[#free + 1] = { row, col } end
    end
  end
  if count > #free then
    error(("option holes: %d is more than the %d cells outside the centre"):format(count, #free), 0)
  end
  if count > 0 and not rng then
    error("option holes: the holes are drawn from the game's generator (game.new(rules, opts, core.rng(seed)))", 0)
  end
  for _ = 1, count do
    local i = rng:random(#free)
    board:set(free[i][1], free[i][2], "block")
    free[i] = free[#free] -- swap out the cell taken, so no cell is drawn twice
    free[#free] = nil
  end
  return state
end

return holes
