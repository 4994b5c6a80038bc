--- Orthogonal reversi: discs are trapped and flipped only along rows and
-- columns, never along diagonals.
--
-- The whole variant is two fields (and its description). The C core
-- takes the same direction sets (`legal_dirs`: where a move must trap to
-- be legal; `flip_dirs`: where it flips), so its perft still applies: the
-- `core_count` declaration reads them from the rule set.
--
--     boardscript perft ./lua/examples/orthogonal.lua 6
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

return rules.variant(reversi, {
  name = "orthogonal",
  description = "Reversi in which discs are trapped and flipped only along rows and columns, never diagonally. Black "
    .. "and White take turns, Black first; a move is an empty cell, such as d3, that traps a straight line of the "
    .. "opponent's discs between it and one of yours across or down, and every disc so trapped flips. A player with no "
    .. "such move passes; when neither can move, the one with more discs wins.",
  legal_dirs = "orthogonal", -- or a list: { "n", "e", "s", "w" }
  flip_dirs = "orthogonal",
})
