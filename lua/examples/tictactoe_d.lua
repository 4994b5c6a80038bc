--- Tic-tac-toe, described (boardscript.describe): the game of
-- tictactoe.lua in five lines; three in a row wins, a full board is a draw.
--
--     boardscript perft lua/examples/tictactoe_d.lua 9      (127872: finished games are no leaves)
local d = require "boardscript.describe"
return d.game {
  name = "tictactoe_d", size = 3, names = { "X", "O" },
  moves = { d.place() },
  ends = { d.line { k = 3 }, d.full { result = "draw" } },
}
