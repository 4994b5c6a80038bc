-- alphabeta with an evaluation of its own: discs on the edge count double.
-- boardscript play reversi --white ./lua/examples/edgy_alphabeta.lua
local alphabeta = require "boardscript.ai.alphabeta"
local function evaluate(board, player)
  local n, score = board:size(), 0
  for r = 1, n do
    for c = 1, n do
      local cell, weight = board:get(r, c), (r == 1 or r == n or c == 1 or c == n) and 2 or 1
      if cell == player then score = score + weight elseif cell ~= "empty" and cell ~= "block" then
        score = score - weight
      end
    end
  end
  return score * 100 -- hundredths of a disc, for `player`
end
return alphabeta.new { depth = 3, evaluate = evaluate }
