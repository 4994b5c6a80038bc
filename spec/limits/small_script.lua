-- A script well within any budget: plays a game of greedy vs random.
local boardscript = require "boardscript"
local g = boardscript.game.new("reversi", nil, boardscript.core.rng(3))
local seats = { black = boardscript.players.load("greedy"), white = boardscript.players.load("random") }
while not g:finished() do
  local move = boardscript.players.choose(seats[g:to_move()], g)
  if move == "pass" then g:pass() else g:play(move) end
end
print(g:score())
