--- Breakthrough, described (boardscript.describe): 8 x 8, two rows of
-- pieces each; a piece steps forward to an empty cell, or diagonally
-- forward to an empty cell or onto an enemy (capturing it). Reaching the
-- far row, or taking every enemy piece, wins.
--
--     boardscript perft lua/examples/breakthrough.lua 4      (256036)
local d = require "boardscript.describe"
return d.game {
  name = "breakthrough", size = 8,
  setup = { black = "a1:h2", white = "a7:h8" },
  moves = { d.step { dirs = "f", to = "empty" }, d.step { dirs = "fe fw", to = "free" } },
  ends = { d.reach { zone = "far" }, d.no_pieces() },
}
