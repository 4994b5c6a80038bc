-- Answers a move whose every metamethod runs for ever: boardscript must
-- read it with raw operations (or on the policy's budget).
local function forever() while true do end end
local LOOPY = {
  __index = forever, __newindex = forever, __len = forever, __eq = forever, __lt = forever, __le = forever,
  __tostring = forever, __concat = forever, __call = forever, __pairs = forever, __name = "loopy",
  __unm = forever, __add = forever,
}
return function(g)
  local move = g:moves()[1]
  return setmetatable({ move[1], move[2] }, LOOPY)
end
