--- What the editions share about their players: the --black, --white and
-- --seed options, and loading the players they name.
local errors = require "boardscript.errors"
local players = require "boardscript.players"

local seats = {}

--- Adds --black/--white/--seed, the options of the two-player editions.
function seats.player_options(cmd)
  cmd:option("--black", "Who plays black: human, a built-in AI (random, ...) or a policy file.", "human")
  cmd:option("--white", "Who plays white: human, a built-in AI (random, ...) or a policy file.", "human")
  seats.seed_option(cmd)
end

--- Loads one player by name (see boardscript.players) for rule set `game`
-- (a name, or a rule set table: then its base rule sets count too); a bad
-- name, a broken policy file or a policy for another game is a usage error.
function seats.load_player(spec, game)
  local player = players.load(spec, game)
  if not players.plays(player, game) then
    local name = type(game) == "table" and tostring(game.name) or game
    local games = player.policy.games
    errors.fail(("player '%s' plays only %s, not %s (for %s: human, %s, or a policy file)"):format(
      spec, games and table.concat(games, ", ") or "rule sets the C core searches exactly", name, name,
      table.concat(players.builtin_for(game), ", ")))
  end
  return player
end

--- The players named by --black and --white, for the rule set named `game`.
function seats.load_players(args, game)
  return { black = seats.load_player(args.black, game), white = seats.load_player(args.white, game) }
end

function seats.seed_option(cmd)
  require("boardscript.options").seed(cmd, "Seed for every random choice (default: drawn from the clock, and "
    .. "recorded).")
end

return seats
