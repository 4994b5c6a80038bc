-- A rule set whose `sides` table runs code when it is read (Reversi
-- otherwise): refused when it is loaded, as boardscript reads its tables
-- outside any budget.
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local function forever() while true do end end

return rules.variant(reversi, {
  name = "hidden_code_rules",
  sides = setmetatable({}, { __index = function(_, i)
    if i == 1 then return "black" elseif i == 2 then return "white" end
    forever()
  end }),
})
