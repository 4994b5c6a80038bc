-- A rule set whose `moves` list and `winner` carry metamethods that run
-- for ever (Reversi otherwise): what a hook returns is read raw.
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local function forever() while true do end end
local LOOPY = { __index = forever, __len = forever, __eq = forever, __tostring = forever, __concat = forever,
                __pairs = forever, __lt = forever, __le = forever }

return rules.variant(reversi, {
  name = "loopy_moves_rules",
  moves = function(self, state)
    local list = reversi.moves(self, state)
    local copy = {}
    for i = 1, #list do copy[i] = list[i] end
    return setmetatable(copy, LOOPY)
  end,
  winner = function() return setmetatable({}, LOOPY) end,
})
