--- Picks a legal move uniformly with the game's seeded generator.
local random = { name = "random" }

function random:choose(g)
  local moves = g:moves()
  if #moves == 0 then return nil end
  return moves[g.rng:random(#moves)]
end

return random
