-- Plays the first legal move until a dozen discs are down, then never
-- answers: a policy that runs away in the middle of a game.
return function(g)
  local black, white = g:score()
  if black + white >= 12 then
    while true do end
  end
  return g:moves()[1]
end
