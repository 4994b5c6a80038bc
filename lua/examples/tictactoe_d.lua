--- Tic-tac-toe, described (boardscript.describe): the game of
-- tictactoe.lua in five lines; three in a row wins, a full board is a draw.
--
--     boardscript perft lua/examples/tictactoe_d.lua 9      (127872: finished games are no leaves)
local d = require "boardscript.describe"
return d.game {
  name = "tictactoe_d", size = 3, names = { "X", "O" },
  symmetry = "square",
  description = "X and O take turns marking an empty cell of a 3 x 3 grid, X first; a move is a cell such as b2. Three "
    .. "marks in a row, across, down or diagonally, win; a full grid without one is a draw.",
  moves = { d.place() },
  ends = { d.line { k = 3 }, d.full { result = "draw" } },
}
