--- The public Lua API: require "boardscript".
local M = {
  core = require "boardscript.core",
  console = require "boardscript.console",
  game = require "boardscript.game",
  rules = require "boardscript.rules",
  players = require "boardscript.players",
  play = require "boardscript.play",
}

M.version = M.core.version

--- A new game of a rule set (a name such as "reversi", a path, or a table).
function M.new_game(rules, opts, seed)
  if type(rules) ~= "table" then rules = M.rules.load(rules) end
  return M.game.new(rules, opts, M.core.rng(seed or 0))
end

return M
