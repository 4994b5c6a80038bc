--- Connect Four, described (boardscript.describe): 7 columns x 6 rows, a
-- disc dropped in a column falls to the lowest empty cell; k in a row
-- (option k, default 4) wins, a full board is a draw. Moves: `d` or `d6`.
--
--     boardscript perft lua/examples/connect4.lua 7      (823536)
--     boardscript play lua/examples/connect4.lua --opt k=3
local d = require "boardscript.describe"
return d.game {
  name = "connect4", rows = 6, cols = 7,
  symmetry = "mirror", -- left and right; gravity tells top from bottom
  description = "Players take turns dropping a disc into one of 7 columns, where it falls to the lowest empty cell: a "
    .. "move is a column letter such as d. Four in a row (option k) in any direction wins; a full board is a draw.",
  options = { k = { type = "integer", min = 3, max = 6, default = 4, help = "discs in a row to win" } },
  moves = { d.place { at = "column" } },
  ends = { d.line { k = function(o) return o.k end }, d.full { result = "draw" } },
}
