--- A two-ply minimax policy written in Lua over the game's hooks: for each
-- of its moves it assumes the opponent's best reply, and plays the move
-- whose worst case leaves it the best disc margin (its score minus the
-- opponent's). A finished game counts as a win or a loss by the rule set's
-- own `winner`, worth more than any margin, so it also plays variants whose
-- winner is not the one with more discs sensibly at the end.
--
-- The search follows whoever is to move, so a rule set in which a player
-- moves twice (FlipFlop's second piece, a completed box in Dots and Boxes)
-- is searched correctly too; a pass is searched where the rules allow one.
--
--     boardscript play reversi --black ./lua/examples/minimax2.lua --white random --seed 1
local minimax2 = { name = "minimax2", depth = 2 }

local WIN = 100000 -- more than any margin on a 26 x 26 board

-- The position's value for `me`: the score margin, or a win/loss.
local function value(g, me)
  local first, second = g:score()
  local margin = first - second
  if me ~= (g:sides()) then margin = -margin end
  if g:finished() then
    local winner = g:winner()
    if winner == me then return WIN + margin end
    if winner ~= "draw" then return -WIN + margin end
  end
  return margin
end

-- The minimax value of `g` for `me`, `depth` plies down: the side to move
-- picks the best for itself (max when it is `me`, min otherwise).
local function search(g, me, depth)
  if depth == 0 or g:finished() then return value(g, me) end
  local maximize = g:to_move() == me
  local best
  for _, choice in ipairs(g:choices()) do
    if g:apply(choice) then
      local v = search(g, me, depth - 1)
      g:undo()
      if best == nil or (maximize and v > best) or (not maximize and v < best) then best = v end
    end
  end
  return best or value(g, me)
end

--- Returns the move with the best value two plies down, or nil (a pass)
-- when passing is best or there is no move.
function minimax2:choose(g)
  local me = g:to_move()
  local best, best_value
  for _, choice in ipairs(g:choices()) do
    if g:apply(choice) then
      local v = search(g, me, self.depth - 1)
      g:undo()
      if best_value == nil or v > best_value then best, best_value = choice, v end
    end
  end
  if best == "pass" then return nil end
  return best
end

return minimax2
