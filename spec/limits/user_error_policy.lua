-- Raises a boardscript user error whose message is a table that never
-- turns into text (the error itself made by boardscript.errors).
local errors = require "boardscript.errors"
local function forever() while true do end end
return function()
  local _, e = pcall(errors.fail, "x")
  e.message = setmetatable({}, { __tostring = forever, __concat = forever, __index = forever, __len = forever })
  e.status = setmetatable({}, { __index = forever })
  error(e, 0)
end
