-- A rule set whose `finished` hook runs away once a dozen discs are down
-- (Reversi otherwise).
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

return rules.variant(reversi, {
  name = "loop_rules",
  finished = function(self, state)
    local black, white = self:score(state)
    if black + white >= 12 then
      while true do end
    end
    return reversi.finished(self, state)
  end,
})
