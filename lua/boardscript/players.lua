--- Players: "human", a built-in AI name, or a path to a Lua file returning a
-- policy. A policy is a function `(game) -> move` or a table with
-- `choose(self, game)`, and may list the rule sets it can play in `games`
-- (e.g. { "dots" }; absent: any); it is checked once, when loaded. A policy
-- is always handed a copy of the game, and what it returns is checked
-- before the game goes on.
local errors = require "boardscript.errors"

local players = {}

--- Built-in AIs: module, and the rule sets they play (nil: any).
players.BUILTIN = {
  random = { module = "boardscript.ai.random", summary = "a legal move chosen uniformly at random" },
  dots_rules = { module = "boardscript.ai.dots_rules", games = { "dots" },
                 summary = "the seed 001 computer player (four-level rule)" },
  solver = { module = "boardscript.ai.dots_solver", games = { "dots" },
             summary = "perfect Dots and Boxes play on small grids (exact solver)" },
}

local function as_policy(value, where)
  if type(value) == "function" then
    return { name = where, choose = function(_, g) return value(g) end }
  end
  if type(value) == "table" and type(value.choose) == "function" then
    return value
  end
  errors.fail(("%s: a policy must be a function or a table with a 'choose' function (got %s)"):format(
    where, type(value)))
end

-- The names a rule set answers to: its own and those of the rule sets it
-- is a variant of ("misere-dots", "dots"). A name stands for itself.
local function names_of(game)
  if type(game) ~= "table" then return { game } end
  local names, t = {}, game
  while type(t) == "table" do
    local name = rawget(t, "name")
    if name then names[#names + 1] = name end
    local meta = getmetatable(t)
    t = meta and meta.__index
  end
  return names
end

--- Whether a built-in AI or a policy with `games` plays the rule set
-- `game` (a name or a rule set table, whose base rule sets count too;
-- nil: any).
local function lists(games, game)
  if games == nil or game == nil then return true end
  for _, candidate in ipairs(names_of(game)) do
    for _, name in ipairs(games) do
      if name == candidate then return true end
    end
  end
  return false
end

--- The built-in AI names that play rule set `game` (a name or a table), sorted.
function players.builtin_for(game)
  local names = {}
  for name, entry in pairs(players.BUILTIN) do
    if lists(entry.games, game) then names[#names + 1] = name end
  end
  table.sort(names)
  return names
end

--- Returns { human = true } or { policy = <policy>, name = ... }; raises a
-- user error for an unknown name or a broken file. `game` (a rule set
-- name, optional) narrows the names an error suggests.
function players.load(spec, game)
  if spec == nil or spec == "human" then return { human = true, name = "human" } end
  local entry = players.BUILTIN[spec]
  if entry then
    return { policy = as_policy(require(entry.module), spec), name = spec }
  end
  if spec:match("%.lua$") then
    local chunk, err = loadfile(spec)
    if not chunk then errors.fail(err) end
    local value = errors.guard("player " .. spec, chunk)
    return { policy = as_policy(value, spec), name = spec }
  end
  local names = players.builtin_for(game)
  table.insert(names, 1, "human")
  errors.fail(("unknown player '%s' (expected %s, or a path to a .lua file)"):format(
    spec, table.concat(names, ", ")))
end

--- Whether a loaded player can play rule set `game` (a name or a table).
function players.plays(player, game)
  return lists(player.policy and player.policy.games, game)
end

--- A value as a person would write it (see errors.describe).
players.describe = errors.describe

-- Who a message names: "player 'mine.lua' (Black)".
local function who(player, g)
  return ("player '%s' (%s)"):format(player.name, g:side_name())
end

-- Calls policy method `method` on a copy of `g`; an error in it is a user
-- error naming the player.
local function ask(player, g, method)
  local policy = player.policy
  local ok, result = pcall(policy[method], policy, g:clone())
  if not ok then
    if errors.is_user(result) then error(result, 0) end
    errors.fail(("%s failed: %s"):format(who(player, g), tostring(result)))
  end
  return result
end

--- Asks a computer player for its move in `g` (a boardscript.game). The
-- policy sees a copy; its answer is checked: returns a legal move or
-- "pass", or stops the game with a user error (status 2) naming the player
-- and the move.
function players.choose(player, g)
  local move = ask(player, g, "choose")
  local checked, problem, why = g:check(move)
  if checked then return checked end
  local text = problem == "illegal" and move ~= nil and g:move_text(move)
  errors.fail(("%s chose %s move %s%s"):format(who(player, g),
    problem == "malformed" and "a malformed" or "an illegal",
    move == nil and "(a pass)" or text or players.describe(move), why and (" (" .. why .. ")") or ""))
end

--- Asks a policy's optional yes/no hook (e.g. FlipFlop's `second_piece`)
-- on a copy of the game: true or false.
function players.decide(player, g, method)
  return ask(player, g, method) and true or false
end

return players
