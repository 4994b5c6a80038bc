--- The Game of the Amazons, described (boardscript.describe): 10 x 10,
-- four amazons each; a move is a queen's slide to an empty cell, then an
-- arrow shot from there like a queen, which blocks the cell it lands on.
-- A side with no move loses. (Black moves first here.)
--
--     boardscript perft lua/examples/amazons.lua 1      (2176)
local d = require "boardscript.describe"
return d.game {
  name = "amazons", size = 10,
  symmetry = "mirror", -- the queens stand the same seen from either side
  description = "Each side has four amazons on a 10 x 10 board, Black first. A move slides one amazon like a chess "
    .. "queen across empty cells, then shoots an arrow from where it lands, also like a queen, onto an empty cell that "
    .. "stays blocked for good: written d1-d7/g7. A side that cannot move loses.",
  setup = { black = "a4 d1 g1 j4", white = "a7 d10 g10 j7" },
  moves = { d.slide { to = "empty", arrow = "all" } },
}
