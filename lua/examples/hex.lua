--- Hex, described (boardscript.describe): 11 x 11 rhombus, a stone on any
-- empty cell; Black joins the top and bottom edges, White the left and
-- right, through the six neighbours of a hex cell. Option swap: the pie
-- rule (the second side may take over the first stone, mirrored).
--
--     boardscript perft lua/examples/hex.lua 2      (14520; 14641 with --opt swap=true)
local d = require "boardscript.describe"
return d.game {
  name = "hex", size = 11, swap = function(o) return o.swap end,
  description = "Players take turns placing a stone on any empty cell, such as f6, of an 11 x 11 board of hexagons, "
    .. "Black first. Black wins by joining the top and bottom edges with a chain of touching stones, White the left "
    .. "and right; there is no draw. With option swap, White may answer the first stone with swap (the pie rule).",
  options = { swap = { type = "boolean", default = false, help = "the pie rule" } },
  moves = { d.place() },
  ends = { d.connect { dirs = "hex", black = "n s", white = "w e" } },
}
