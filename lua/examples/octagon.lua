--- Octagon: Reversi on a 10 x 10 board whose four corners are cut off.
--
-- The cut cells are blocks: every cell within Manhattan distance 2 of a
-- corner, a triangle of 6 cells per corner (24 in all), so the playing
-- area is an octagon of 76 cells. On 10 x 10:
--
--        a b c d e f g h i j
--      1 # # # . . . . # # #
--      2 # # . . . . . . # #
--      3 # . . . . . . . . #
--      ...
--
-- The option `cut` sets the depth: `--opt cut=1` cuts three cells a
-- corner, the 88-square octagon of GGF's TY[88] (boardscript convert).
--
-- Only `setup` changes, so the C core still counts its perft: blocks are
-- part of the core board, and the hooks the inherited `core_count`
-- vouches for are Reversi's own.
--
--     boardscript perft ./lua/examples/octagon.lua 4
--     boardscript play ./lua/examples/octagon.lua --size 12 --black random --white random --seed 2
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

local octagon = rules.variant(reversi, {
  name = "octagon",
  description = "Reversi on a 10 x 10 board with its corners cut off (option cut): the cut cells are blocks that "
    .. "nobody plays on and no line runs through. Black and White take turns, Black first; a move is an empty cell, "
    .. "such as e4, that traps a straight line of the opponent's discs between it and one of yours, and every disc so "
    .. "trapped flips. A player with no such move passes; when neither can move, the one with more discs wins.",
  size = 10,
  cut = 2, -- a cell is blocked when its Manhattan distance to a corner is at most this
  options = {
    size = { type = "integer", min = 8, max = 26, even = true, help = "board size (even, 8..26)" },
    centre = reversi.options.centre,
    cut = { type = "integer", min = 0, max = 5,
            help = "corner cells cut: those within this Manhattan distance of a corner (1: GGF's 88-square octagon)" },
  },
})

--- Whether (row, col) of an n x n board lies in a corner cut `cut` deep
-- (default: the rule set's field).
function octagon:in_corner(n, row, col, cut)
  local dr = math.min(row - 1, n - row)
  local dc = math.min(col - 1, n - col)
  return dr + dc <= (cut or self.cut)
end

--- Reversi's start position, then a block on every corner cell.
function octagon:setup(opts, rng)
  local state = reversi.setup(self, opts, rng)
  local n = state.board:size()
  for row = 1, n do
    for col = 1, n do
      if self:in_corner(n, row, col, opts and opts.cut) then state.board:set(row, col, "block") end
    end
  end
  return state
end

return octagon
