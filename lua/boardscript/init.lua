--- The public Lua API: require "boardscript".
-- @module boardscript
local M = {
  core = require "boardscript.core",
  errors = require "boardscript.errors",
  console = require "boardscript.console",
  game = require "boardscript.game",
  rules = require "boardscript.rules",
  players = require "boardscript.players",
  perft = require "boardscript.perft",
  record = require "boardscript.record",
  play = require "boardscript.play",
}

M.version = M.core.version

--- A new game of a rule set: a built-in name such as "reversi", a path to
-- a rule set file, or a rule set table; `opts` its options (checked
-- against its declarations); `seed` seeds the game's generator (default 0).
-- @tparam table|string rules a rule set table, a built-in name or a path
-- @tparam[opt] table opts option values, by name
-- @tparam[opt=0] integer seed
-- @treturn boardscript.game.Game
function M.new_game(rules, opts, seed)
  return M.game.new(rules, opts, M.core.rng(seed or 0))
end

return M
