-- Raises an error object whose __tostring never returns: turning it into
-- text must not happen outside the policy's budget.
local function forever() while true do end end
return function()
  error(setmetatable({}, { __tostring = forever, __concat = forever, __index = forever }))
end
