--- Players: "human", a built-in AI name, or a path to a Lua file returning a
-- policy. A policy is a function `(game) -> move` or a table with
-- `choose(self, game)`, and may list the rule sets it can play in `games`
-- (e.g. { "dots" }; absent: any); it is checked once, when loaded.
local players = {}

players.BUILTIN = { random = "boardscript.ai.random" }
players.BUILTIN.dots_rules = "boardscript.ai.dots_rules" -- the seed 001 computer player
players.BUILTIN.solver = "boardscript.ai.dots_solver"     -- perfect Dots and Boxes play

local function as_policy(value, where)
  if type(value) == "function" then
    return { name = where, choose = function(_, g) return value(g) end }
  end
  if type(value) == "table" and type(value.choose) == "function" then
    return value
  end
  error(("%s: a policy must be a function or a table with a 'choose' function (got %s)"):format(
    where, type(value)), 0)
end

--- Returns { human = true } or { policy = <policy>, name = ... }; raises an
-- error (a message for the user) for an unknown name or a broken file.
function players.load(spec)
  if spec == nil or spec == "human" then return { human = true, name = "human" } end
  if players.BUILTIN[spec] then
    return { policy = as_policy(require(players.BUILTIN[spec]), spec), name = spec }
  end
  if spec:match("%.lua$") then
    local chunk, err = loadfile(spec)
    if not chunk then error(err, 0) end
    return { policy = as_policy(chunk(), spec), name = spec }
  end
  local names = { "human" }
  for name in pairs(players.BUILTIN) do names[#names + 1] = name end
  table.sort(names)
  error(("unknown player '%s' (expected %s, or a path to a .lua file)"):format(
    spec, table.concat(names, ", ")), 0)
end

--- Whether a loaded player can play the rule set named `game`.
function players.plays(player, game)
  local games = player.policy and player.policy.games
  if games == nil or game == nil then return true end
  for _, name in ipairs(games) do
    if name == game then return true end
  end
  return false
end

--- Asks a computer player for its move in `g` (a boardscript.game).
function players.choose(player, g)
  return player.policy:choose(g)
end

return players
