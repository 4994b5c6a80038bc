-- A to-be-closed variable whose __close runs for ever, closed as the
-- move returns and as an error unwinds.
local function forever() while true do end end
local calls = 0
return function(g)
  calls = calls + 1
  local guard <close> = -- luacheck: ignore guard
    setmetatable({}, { __close = forever })
  if calls % 2 == 0 then error("unwinding") end
  return g:moves()[1]
end
