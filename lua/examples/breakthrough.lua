--- Breakthrough, described (boardscript.describe): 8 x 8, two rows of
-- pieces each; a piece steps forward to an empty cell, or diagonally
-- forward to an empty cell or onto an enemy (capturing it). Reaching the
-- far row, or taking every enemy piece, wins.
--
--     boardscript perft lua/examples/breakthrough.lua 4      (256036)
local d = require "boardscript.describe"
return d.game {
  name = "breakthrough", size = 8,
  symmetry = "mirror", -- left and right: its moves and set-up do not tell them apart
  description = "Black starts on rows 1 and 2 and moves down the board, White on rows 7 and 8 and moves up. A piece "
    .. "steps one cell forward, straight onto an empty cell or diagonally onto an empty cell or an enemy piece, which "
    .. "it captures; a move is written a2-a3. Reaching your far row, or taking every enemy piece, wins.",
  setup = { black = "a1:h2", white = "a7:h8" },
  moves = { d.step { dirs = "f", to = "empty" }, d.step { dirs = "fe fw", to = "free" } },
  ends = { d.reach { zone = "far" }, d.no_pieces() },
}
