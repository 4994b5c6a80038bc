--- English draughts (checkers), described (boardscript.describe): 8 x 8,
-- the dark cells; men step and capture diagonally forward, kings both
-- ways; captures chain and are compulsory; a man reaching the far row is
-- crowned (which ends its move). A side with no move loses; 300 plies are
-- a draw.
--
--     boardscript perft lua/examples/draughts.lua 6      (36768)
local d = require "boardscript.describe"
return d.game {
  name = "draughts", size = 8, pieces = { "man", "king" }, values = { man = 1, king = 3 },
  description = "English checkers on the dark cells, Black first. A man steps diagonally forward (b3-c4), or jumps an "
    .. "enemy piece next to it, capturing it, onto the empty cell beyond and jumps on while it can (c3-e5-c7); "
    .. "capturing is compulsory. A man reaching the far row becomes a king, which moves both ways. A side with no move "
    .. "loses; 300 plies are a draw.",
  setup = { black = "a1:h3/dark", white = "a6:h8/dark" },
  moves = {
    d.hop { piece = "man", dirs = "fe fw", chain = true }, d.hop { piece = "king", dirs = "diagonal", chain = true },
    d.step { piece = "man", dirs = "fe fw", to = "empty" }, d.step { piece = "king", dirs = "diagonal", to = "empty" },
  },
  must = "capture",
  promote = { { piece = "man", to = "king", zone = "far" } },
  ends = { d.plies { n = 300 } },
}
