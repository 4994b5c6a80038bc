--- Orthogonal reversi: discs are trapped and flipped only along rows and
-- columns, never along diagonals.
--
-- The whole variant is two fields. The C core takes the same direction
-- sets (`legal_dirs`: where a move must trap to be legal; `flip_dirs`:
-- where it flips), so its perft still applies: the `core_count`
-- declaration reads them from the rule set.
--
--     boardscript perft ./lua/examples/orthogonal.lua 6
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

return rules.variant(reversi, {
  name = "orthogonal",
  legal_dirs = "orthogonal", -- or a list: { "n", "e", "s", "w" }
  flip_dirs = "orthogonal",
})
