--- Misère Dots and Boxes: the player with the fewest boxes wins. Played on
-- 2 x 3 boxes unless `--size` (RxC) says otherwise.
--
-- A variant of the "dots" family overrides the same way as a board one:
-- here the default grid and the winner. Moves, notation (`a1 a2`) and the
-- rule that completing a box keeps the turn are inherited. Completing a box
-- still scores it, and still obliges the player to move again.
--
--     boardscript play ./lua/examples/misere_dots.lua --black random --white ./lua/examples/minimax2.lua --seed 1
--     boardscript perft ./lua/examples/misere_dots.lua 3 --size 2x2
local rules = require "boardscript.rules"
local dots = require "boardscript.rules.dots"

local misere = rules.variant(dots, {
  name = "misere-dots", rows = 2, cols = 3,
  description = "Misere Dots and Boxes, on 2 x 3 boxes unless --size says otherwise: players 1 and 2 take turns "
    .. "drawing a line between two neighbouring dots, written as its two dots, such as a1 a2 (row letter, column "
    .. "number). Drawing the fourth side of a box takes it, and the same player must move again; there is no passing. "
    .. "When every line is drawn, the player with fewer boxes wins.",
})

--- Fewer boxes wins (side 1 moves first); equal counts are a draw.
function misere:winner(state)
  local first, second = self:score(state)
  if first < second then return 1 elseif second < first then return 2 end
  return "draw"
end

return misere
