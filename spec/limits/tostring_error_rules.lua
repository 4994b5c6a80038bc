-- A rule set whose `finished` hook raises an error object whose
-- __tostring never returns (Reversi otherwise).
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local function forever() while true do end end

return rules.variant(reversi, {
  name = "tostring_error_rules",
  finished = function()
    error(setmetatable({}, { __tostring = forever, __concat = forever, __index = forever }))
  end,
})
