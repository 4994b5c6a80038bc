--- Gomoku, free style, described (boardscript.describe): 15 x 15 (option
-- size), a stone on any empty cell; five (option k) or more in a row
-- wins, a full board is a draw. The options depend on each other: a line
-- of k must fit on the board, which `check_options` says.
--
--     boardscript perft lua/examples/gomoku.lua 2      (50400)
--     boardscript play lua/examples/gomoku.lua --size 9
--     boardscript play lua/examples/gomoku.lua --size 3 --opt k=3    (tic-tac-toe)
local d = require "boardscript.describe"
return d.game {
  name = "gomoku", size = function(o) return o.size end,
  symmetry = "square", -- all 8 maps of the board: lines in every direction, an empty start
  description = "Black and White take turns, Black first, placing a stone on any empty cell, such as h8, of a 15 x 15 "
    .. "board (option size). Five (option k) or more in a row in any direction wins; a full board is a draw.",
  options = {
    size = { type = "integer", min = 3, max = 26, default = 15, help = "board size" },
    k = { type = "integer", min = 3, max = 10, default = 5, help = "stones in a row to win (at most size)" },
  },
  check_options = function(o)
    if o.k > o.size then
      return ("k must be at most size (a line of %d does not fit on a %d x %d board)"):format(o.k, o.size, o.size)
    end
  end,
  moves = { d.place() },
  ends = { d.line { k = function(o) return o.k end }, d.full { result = "draw" } },
}
