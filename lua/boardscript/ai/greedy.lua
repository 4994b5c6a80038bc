--- The `greedy` policy: the move that gains the mover the most at once,
-- by the rule set's score after the move (its own score minus the
-- opponent's: discs in the board games, boxes in Dots and Boxes). Ties go
-- to a move drawn from the game's seeded generator, so different seeds
-- give different games. It passes only when it must (no move, and a pass
-- allowed). Plays any rule set, through its hooks only.
local greedy = { name = "greedy" }

--- The score margin of `side` in `state` (scores come in side order).
function greedy.margin(r, state, side)
  local first, second = r:score(state)
  if side == r.sides[1] then return first - second end
  return second - first
end

--- The moves of the side to move of `state` after which `value()` (called
-- with the move played) is highest, all of them when they tie, and that
-- value: one ply, over the rule set's hooks (greedy, positional, train).
function greedy.best_after(r, state, value)
  local best, best_value = {}, nil
  for _, move in ipairs(r:moves(state)) do
    if r:play(state, move) then
      local v = value()
      r:undo(state)
      if best_value == nil or v > best_value then
        best, best_value = { move }, v
      elseif v == best_value then
        best[#best + 1] = move
      end
    end
  end
  return best, best_value
end

--- The best move for the side to move of `g`, or nil (a pass) when there
-- is none. `ctx.rng` (default `g.rng`) breaks ties.
function greedy:choose(g, ctx)
  local rng = ctx and ctx.rng or g.rng
  local r, state = g.rules, g.state
  local side = state.player
  local best = greedy.best_after(r, state, function() return greedy.margin(r, state, side) end)
  if #best == 0 then return nil end
  if #best == 1 or not rng then return best[1] end
  return best[rng:random(#best)]
end

return greedy
