--- The built-in editions: their names, and loading one by name.
local editions = {}

--- The built-in editions, in the order `--help` lists them (`board` is the
-- generic console that plays any rule set).
editions.NAMES = { "blocks", "dots", "othello", "reversi", "flipflop", "board" }
editions.NAMES.board = true

--- Loads an edition module by name.
function editions.load(name)
  return require("boardscript.editions." .. name)
end

return editions
