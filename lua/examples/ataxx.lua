--- Ataxx, described (boardscript.describe): 7 x 7; a piece clones to a
-- neighbouring empty cell (a placement next to one's own: one move per
-- cell, however many pieces could clone there, as Ataxx counts moves) or
-- jumps two cells away, and the enemy pieces around where it lands turn
-- to its side. A side with no move passes; the game ends when a side has
-- no piece left or the board is full, the side with more pieces winning.
--
--     boardscript perft lua/examples/ataxx.lua 4      (155888)
local d = require "boardscript.describe"
return d.game {
  name = "ataxx", size = 7, score_unit = "pieces",
  description = "A move either adds a piece on an empty cell next to one of yours (written b2) or jumps a piece to an "
    .. "empty cell two steps away (a1-c3); the enemy pieces around the cell it lands on turn to your side. A side with "
    .. "no move passes. When the board is full or a side has no piece left, the side with more pieces wins.",
  setup = { black = "a1 g7", white = "g1 a7" },
  moves = { d.place { at = "adjacent", convert = "all" }, d.leap { offsets = "ring2", to = "empty", convert = "all" } },
  no_move = "pass",
  ends = { d.no_pieces(), d.full() },
}
