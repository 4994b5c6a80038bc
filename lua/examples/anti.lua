--- Anti-reversi: Reversi where the player with the fewest discs wins.
--
-- A variant overrides only what differs: here the winner. Moves, flips,
-- passes and the end of the game are Reversi's, so the C core still counts
-- its perft (the `core_count` declaration it inherits vouches for exactly
-- those hooks, and none of them changed).
--
--     boardscript play ./lua/examples/anti.lua --black random --white random --seed 1
--     boardscript perft ./lua/examples/anti.lua 6
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

local anti = rules.variant(reversi, {
  name = "anti",
  description = "Reversi played to lose. Black and White take turns, Black first; a move is an empty cell, such as d3, "
    .. "that traps a straight line of the opponent's discs between it and one of yours, and every disc so trapped, in "
    .. "all eight directions, flips. A player with no such move passes; when neither can move, the one with fewer "
    .. "discs wins (equal counts are a draw).",
})

--- The side with fewer discs wins; equal counts are a draw.
function anti:winner(state)
  local black, white = self:score(state)
  if black < white then return "black" elseif white < black then return "white" end
  return "draw"
end

return anti
