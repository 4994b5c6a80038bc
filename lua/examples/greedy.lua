--- A greedy policy: the move that gains the mover the most at once, i.e.
-- in a capture game the move that flips the most discs (in Dots and Boxes,
-- the edge that completes the most boxes). Ties go to the first such move
-- in the order `moves()` lists them, so the policy is deterministic.
--
-- It tries each move on the game it is handed (always a copy, so playing
-- on it is safe): play, read the score, undo. Works for any rule set whose
-- score is a count per side in side order (every board and dots rule set).
--
--     boardscript play reversi --black ./lua/examples/greedy.lua --white random --seed 1
local greedy = { name = "greedy" }

-- The mover's own score in `g` (scores come in side order).
local function own_score(g, side)
  local first, second = g:score()
  if side == (g:sides()) then return first end
  return second
end

--- Returns the best move, or nil (a pass) when there is no move.
function greedy:choose(g)
  local side = g:to_move()
  local best, best_gain
  for _, move in ipairs(g:moves()) do
    local before = own_score(g, side)
    if g:play(move) then
      local gain = own_score(g, side) - before
      g:undo()
      if best_gain == nil or gain > best_gain then best, best_gain = move, gain end
    end
  end
  return best
end

return greedy
