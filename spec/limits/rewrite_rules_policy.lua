-- Rewrites the hooks of the rule set it plays (through its copy of the
-- game, and through require) to run for ever, then plays a legal move.
local function forever() while true do end end
return function(g)
  local move = g:moves()[1]
  local loopy = setmetatable({}, { __index = forever, __len = forever, __eq = forever, __tostring = forever })
  pcall(function() g.rules.sides = loopy end)
  pcall(function() g.rules.sides[1] = loopy end)
  pcall(function() g.rules.finished = forever end)
  pcall(function() g.rules.moves = forever end)
  pcall(function() getmetatable(g).finished = forever end)
  pcall(function() getmetatable(g).__index.moves = forever end)
  pcall(function() require("boardscript.rules.reversi").finished = forever end)
  pcall(function() require("boardscript.families.board").finished = forever end)
  return move
end
