--- Defaults every family shares: the winner by score and a state clone. A
-- family's table falls back to these.
local common = {}

--- The side with the higher score (scores come in `sides` order), or "draw".
-- @tparam table state a state
-- @treturn string|integer a side, or "draw"
function common:winner(state)
  local first, second = self:score(state)
  if first > second then return self.sides[1] elseif second > first then return self.sides[2] end
  return "draw"
end

--- A copy of the state: the board cloned, a `history` list copied, other
-- fields as they are.
-- @tparam table state a state
-- @treturn table the copy
function common:clone(state)
  local copy = {}
  for key, value in pairs(state) do copy[key] = value end
  copy.board = state.board:clone()
  if state.history then copy.history = table.move(state.history, 1, #state.history, 1, {}) end
  return copy
end

return common
