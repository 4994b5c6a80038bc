--- Gomoku, free style, described (boardscript.describe): 15 x 15 (option
-- size), a stone on any empty cell; five or more in a row wins, a full
-- board is a draw.
--
--     boardscript perft lua/examples/gomoku.lua 2      (50400)
--     boardscript play lua/examples/gomoku.lua --size 9
local d = require "boardscript.describe"
return d.game {
  name = "gomoku", size = function(o) return o.size end,
  description = "Black and White take turns, Black first, placing a stone on any empty cell, such as h8, of a 15 x 15 "
    .. "board (option size). Five or more in a row in any direction wins; a full board is a draw.",
  options = { size = { type = "integer", min = 5, max = 26, default = 15, help = "board size" } },
  moves = { d.place() },
  ends = { d.line { k = 5 }, d.full { result = "draw" } },
}
