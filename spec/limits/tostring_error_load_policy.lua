-- Raises, while it loads, an error object whose __tostring never returns.
local function forever() while true do end end
error(setmetatable({}, { __tostring = forever, __concat = forever, __index = forever }))
