--- Players: "human", a built-in AI, or a path to a Lua file returning a
-- policy, each optionally followed by options: `NAME[:key=value[,key=value]...]`
-- (`mcts:playouts=500,c=1.2`, `./mine.lua:depth=3`; a file path is split at
-- its last `.lua:`).
--
-- A policy is a function `(game, ctx) -> move` or a table with
-- `choose(self, game, ctx)`. It may declare `options` (the declarations rule
-- sets use), list the rule sets it can play in `games` (e.g. { "dots" }; a
-- rule set answers to its own name, its base rule sets' names and its family,
-- "board" or "dots"; absent: any), and have `new(opts)`, which makes each
-- seat its own instance from the resolved options. It is checked once, when
-- loaded. A policy is always handed a copy of the game, and what it returns
-- is checked before the game goes on. `ctx` is { options = the resolved
-- options, time = options.time (seconds for this move, or nil), rng = the
-- game's seeded generator, log = function(fmt, ...) writing `[NAME] message`
-- to stderr when BOARDSCRIPT_LOG is set, max_seconds = the processor
-- seconds the call may take under --max-seconds (or nil), clock = { left =
-- seconds left, inc = } when the options give a game clock (`clock`, `inc`:
-- then `time` is the move's share of it, clock.allot, capped by the
-- `time` option when both are given) }.
local clock = require "boardscript.clock"
local core = require "boardscript.core"
local declarations = require "boardscript.declared"
local errors = require "boardscript.errors"
local hooks = require "boardscript.hooks"
local limits = require "boardscript.limits"
local sandbox = require "boardscript.sandbox"
local rules_mod = require "boardscript.rules"

local players = {}

--- Built-in AIs, one entry each (a line or two): the module, the rule sets it plays
-- (`games`, as a policy's; nil: any) and a one-line summary. Their options
-- are the modules' own `options` declarations.
players.BUILTIN = {
  random = { module = "boardscript.ai.random", summary = "a legal move chosen uniformly at random" },
  greedy = { module = "boardscript.ai.greedy", summary = "the move that gains the most score at once; ties at random" },
  positional = { module = "boardscript.ai.positional", games = { "board" },
                 accepts = function(r) return require("boardscript.ai.positional").fits(r) end,
                 summary = "the best weighted disc margin after its move (corners high, cells next to them low); "
                   .. "capture rule sets" },
  minimax = { module = "boardscript.ai.minimax",
              summary = "alpha-beta search to a depth or for a time (evaluate hook, else the score: weighted discs in "
                .. "capture rule sets)" },
  mcts = { module = "boardscript.ai.mcts", summary = "Monte Carlo tree search (UCT) with random playouts" },
  dots_rules = { module = "boardscript.ai.dots_rules", games = { "dots" },
                 summary = "the seed 001 computer player (four-level rule)" },
  alphabeta = { module = "boardscript.ai.alphabeta",
                accepts = function(r)
                  return rules_mod.searched_in_core(r) or require("boardscript.describe").in_core(r)
                end,
                summary = "alpha-beta search in C (capture rule sets the core describes, described games)" },
  dots_search = { module = "boardscript.ai.dots_search", games = { "dots" }, summary = "chain-aware search up to 8x8" },
  solver = { module = "boardscript.ai.dots_solver", games = { "dots" },
             summary = "perfect Dots and Boxes play on small grids (exact solver)" },
}


-- The methods boardscript may call on a policy: `choose`, and the yes/no
-- hooks rule sets ask (FlipFlop's `second_piece`).
local METHODS = { "choose", "second_piece" }

-- shell -> the policy table of a user's file it stands for (weak keys)
local shells = setmetatable({}, { __mode = "k" })

-- What boardscript holds of a policy table from a user's file: a table of
-- its own with what it reads of the policy (`games` as plain data, which
-- methods it has, `accepts` called on the policy's budget), made inside
-- the policy's window: no metamethod of the policy's runs outside one.
local function shell(value, where)
  local s = { name = where }
  if value.games ~= nil then s.games = limits.plain_value(value.games) end
  local accepts = value.accepts
  if accepts ~= nil then
    s.accepts = function(rules)
      return limits.guard("player " .. where, "policy", "player " .. where, accepts, rules) and true or false
    end
  end
  for _, method in ipairs(METHODS) do
    -- a call through the shell (a script's) calls the policy's method as
    -- it is then; players.choose calls it on budget without the shell
    if value[method] ~= nil then s[method] = function(_, ...) return value[method](value, ...) end end
  end
  shells[s] = value
  return s
end

local function as_policy(value, where, user)
  if type(value) == "function" then
    return { name = where, choose = function(_, g, ctx) return value(g, ctx) end }
  end
  if type(value) == "table" and type(value.choose) == "function" then
    return user and shell(value, where) or value
  end
  errors.fail(("%s: a policy must be a function or a table with a 'choose' function (got %s)"):format(
    where, type(value)))
end

-- The names a rule set answers to: its own, those of the rule sets it is a
-- variant of ("misere-dots", "dots") and its family's ("dots"). A built-in
-- rule set's name stands for that rule set; any other name for itself.
local function names_of(game)
  if type(game) == "string" and rules_mod.BUILTIN[game] then game = rules_mod.load(game) end
  if type(game) ~= "table" then return { game } end
  local names, t = {}, game
  while type(t) == "table" do
    local name = rawget(t, "name")
    if name then names[#names + 1] = name end
    local meta = getmetatable(t)
    t = meta and meta.__index
  end
  names[#names + 1] = game.family or "board"
  return names
end

--- Whether a built-in AI or a policy with `games` (and `accepts`, a
-- predicate over a rule set table) plays the rule set `game` (a name or a
-- rule set table, whose base rule sets and family count too; nil: any).
local function lists(games, game, accepts)
  if accepts ~= nil and game ~= nil then
    local rules = game
    if type(rules) == "string" then
      local ok, loaded = pcall(rules_mod.load, rules)
      if not ok then return false end
      rules = loaded
    end
    if not accepts(rules) then return false end
  end
  if games == nil or game == nil then return true end
  for _, candidate in ipairs(names_of(game)) do
    for _, name in ipairs(games) do
      if name == candidate then return true end
    end
  end
  return false
end

--- The built-in AI names that play rule set `game` (a name or a table), sorted.
-- @tparam[opt] string|table game a rule set name or table (nil: every AI)
-- @treturn {string,...} a new list of names
function players.builtin_for(game)
  local names = {}
  for name, entry in pairs(players.BUILTIN) do
    if lists(entry.games, game, entry.accepts) then names[#names + 1] = name end
  end
  table.sort(names)
  return names
end

--- Splits a player spec `NAME[:key=value,...]`: the name and the option
-- text (nil when there is no `:`). A path is split at its last `.lua:`.
-- @tparam string spec a player spec
-- @treturn string the name (or path)
-- @treturn ?string the option text
function players.split_spec(spec)
  local name, text = spec:match("^(.*%.lua):(.*)$")
  if name then return name, text end
  if spec:match("%.lua$") then return spec, nil end
  name, text = spec:match("^([^:]*):(.*)$")
  if name then return name, text end
  return spec, nil
end

-- Checks a policy's `options` declarations once, when it is loaded.
local function check_declarations(policy, where)
  local declared = type(policy) == "table" and policy.options or nil
  local problem = declarations.validate(declared)
  if problem then errors.fail(("%s: %s"):format(where, problem)) end
  return declared or {}
end

--- The options of player `spec` for a policy named `name` declaring
-- `declared`: the option text converted and checked, the defaults filled
-- in. A key the policy does not declare, a bad value or text that is not
-- `key=value` is a usage error naming the player and the option.
-- @tparam string spec the player spec, for messages
-- @tparam string name the policy's name
-- @tparam table declared the policy's option declarations, by name
-- @tparam[opt] string text the option text (`key=value,...`)
-- @treturn table the options, by name
function players.resolve_options(spec, name, declared, text)
  local where = ("player '%s'"):format(spec)
  local opts = {}
  if text ~= nil then
    for item in (text .. ","):gmatch("([^,]*),") do
      local key, value = item:match("^%s*([%w_]+)%s*=(.*)$")
      if not key then
        errors.fail(("%s: options are written key=value, separated by commas (got '%s')"):format(where, item))
      end
      if not declared[key] then
        errors.fail(("%s: policy '%s' has no option '%s' (options: %s)"):format(
          where, name, key, declarations.names(declared)))
      end
      if opts[key] ~= nil then errors.fail(("%s: option %s is given twice"):format(where, key)) end
      opts[key] = errors.guard(where, declarations.convert, declared[key], key, value)
    end
  end
  for key, decl in pairs(declared) do
    if opts[key] == nil then opts[key] = decl.default end
  end
  return opts
end

-- Makes the policy of one seat: `value.new(opts)` when the policy table has
-- `new`, else the policy as it is. A policy from a user's file is read
-- inside a window of its budget, and boardscript keeps a shell of it.
local function instance(value, where, opts)
  if not where:match("%.lua$") then
    if type(value) == "table" and type(value.new) == "function" then
      return as_policy(limits.guard("policy " .. where, "policy", where, value.new, opts), where)
    end
    return as_policy(value, where)
  end
  return limits.guard("policy " .. where, "policy", where, function()
    if type(value) == "table" and type(value.new) == "function" then return as_policy(value.new(opts), where, true) end
    return as_policy(value, where, true)
  end)
end

--- Returns { human = true } or { policy = <policy>, name = spec, policy_name
-- = NAME, options = resolved options }; raises a user error for an unknown
-- name, a broken file or a bad option. `game` (a rule set name or table,
-- optional) narrows the names an error suggests.
-- @tparam[opt="human"] string spec a player spec
-- @tparam[opt] string|table game a rule set name or table
-- @treturn table the loaded player
function players.load(spec, game)
  if spec == nil or spec == "human" then return { human = true, name = "human" } end
  local name, text = players.split_spec(spec)
  if name == "human" then errors.fail(("player '%s': human takes no options"):format(spec)) end
  local value
  local entry = players.BUILTIN[name]
  if entry then
    value = require(entry.module)
  elseif name:match("%.lua$") then
    local chunk, err = sandbox.loadfile(name)
    if not chunk then errors.fail(err) end
    value = limits.guard("player " .. name, "policy", "player " .. name, chunk)
  else
    local names = players.builtin_for(game)
    table.insert(names, 1, "human")
    errors.fail(("unknown player '%s' (expected %s, or a path to a .lua file)"):format(
      name, table.concat(names, ", ")))
  end
  local where = "player " .. name
  -- a file's declarations are read on its budget
  local read, declared, opts = limits.call_as(where, "policy", nil, function()
    local d = check_declarations(value, where)
    return d, players.resolve_options(spec, name, d, text)
  end)
  if not read then error(declared, 0) end
  return { policy = instance(value, name, opts), name = spec, policy_name = name, options = opts,
           value = value }
end

--- A copy of a loaded player with a new instance of its policy (a new
-- `new(opts)` when the policy has one): a seat that keeps nothing from
-- earlier games, as each game of a match needs.
-- @tparam table player a loaded player (players.load)
-- @treturn table the copy (a human player: the player itself)
function players.fresh(player)
  if player.human then return player end
  local copy = {}
  for key, v in pairs(player) do copy[key] = v end
  copy.policy = instance(player.value, player.policy_name, player.options)
  return copy
end

--- Whether a loaded player can play rule set `game` (a name or a table).
-- @tparam table player a loaded player (players.load)
-- @tparam[opt] string|table game a rule set name or table (nil: any)
-- @treturn boolean
function players.plays(player, game)
  local policy = player.policy
  return lists(policy and policy.games, game, policy and policy.accepts)
end

--- A value as a person would write it (see errors.describe).
-- @function describe
-- @param value any value
-- @treturn string
players.describe = errors.describe

-- Who a message names: "player 'mine.lua' (Black)".
local function who(player, g)
  return ("player '%s' (%s)"):format(player.name, g:side_name())
end

--- The logger of `ctx` for the policy named `name`: writes `[name] message`
-- lines (message = fmt:format(...)) to stderr when the environment variable
-- BOARDSCRIPT_LOG is set and not empty; else does nothing.
-- @tparam string name the policy's name
-- @treturn function the logger: (fmt, ...)
function players.logger(name)
  local setting = os.getenv("BOARDSCRIPT_LOG")
  if setting == nil or setting == "" then return function() end end
  return function(fmt, ...)
    io.stderr:write(("[%s] %s\n"):format(name, tostring(fmt):format(...)))
  end
end

--- The `ctx` a policy's `choose` gets for a move of game `g`.
-- @tparam table player a loaded player (players.load)
-- @tparam boardscript.game.Game g the game
-- @treturn table { options =, time =, rng =, log =, max_seconds = }
function players.context(player, g)
  local options = player.options or {}
  local time, on_clock = options.time, nil
  local here = player.clock_game == g
  if options.clock or (here and player.clock_given) then -- a game it has not moved in yet: the whole clock
    on_clock = { left = here and player.clock_left or options.clock,
                 inc = here and player.clock_inc or options.inc or 0 }
    local share = clock.allot(on_clock.left, on_clock.inc, here and player.clock_moves or clock.moves_left(g))
    if #g:moves() == 1 and not g:can_pass() then share = math.min(share, clock.MIN_MOVE) end -- forced: no time spent
    time = time and math.min(time, share) or share
  end
  return {
    options = options,
    time = time,
    clock = on_clock,
    rng = g.rng,
    log = players.logger(player.policy_name or player.name),
    max_seconds = limits.seconds(),
  }
end

-- A copy of `g` for a policy that shares nothing it could change with
-- the game: its options and the entries of its log are copies too.
local function detached(g)
  local copy = g:clone()
  local opts = {}
  for key, value in pairs(g.opts or {}) do opts[key] = value end
  copy.opts = opts
  for i, entry in ipairs(copy.log) do
    local e = {}
    for key, value in pairs(entry) do
      e[key] = type(value) == "table" and table.move(value, 1, #value, 1, {}) or value
    end
    copy.log[i] = e
  end
  return copy
end

-- Calls policy method `method` on a copy of `g` (and a ctx), on budget
-- (boardscript.limits); an error in it is a user error naming the player.
-- The answer crosses as plain data made inside the window (no metamethod
-- of the policy's runs outside its budget), and whatever the call raises
-- is the policy's fault: blame an error claims (a rule set's fault, a
-- budget of someone else's) is dropped.
local function ask(player, g, method)
  local policy = player.policy
  local record = hooks.snapshot(g.rules, rules_mod.own_tables())
  local target = shells[policy] or policy
  local ok, result = limits.call(who(player, g), function(...)
    return limits.plain_value((target[method](...)))
  end, target, detached(g), players.context(player, g))
  -- the rule set is shared with the policy's copy: its hooks run outside
  -- any budget (the built-in ones) or wrapped in one, and must stay so
  local changed = hooks.restore(record)
  if changed then
    errors.fail(("%s changed the rule set it plays (field '%s'); rule sets are read-only to a policy"):format(
      who(player, g), changed))
  end
  if not ok then
    if select(2, limits.exceeded(result)) == "policy" then error(result, 0) end
    -- a rule set file's fault found while the policy explored its copy
    -- stays the rule set's; a built-in rule set is not at fault there
    local culprit, where = errors.culprit(result)
    if culprit == "rules" and where == rules_mod.where(g.rules) and rules_mod.from_file(g.rules) then
      error(result, 0)
    end
    if errors.is_user(result) then error(errors.disowned(result), 0) end
    -- without budgets nothing is on one: the policy's __tostring may run
    errors.fail(("%s failed: %s"):format(who(player, g), tostring(errors.plain(result, not limits.settings()))))
  end
  return result
end

--- Takes a move's time off the player's game clock (when its options give
-- one) and adds the increment. The clock is the game `g`'s: the first move
-- in another game object starts a whole clock (a new game of a match, a
-- game a controller sent).
-- @tparam table player a loaded computer player
-- @tparam boardscript.game.Game g the game
-- @tparam number seconds the wall seconds the move took
function players.spent(player, g, seconds)
  local options = player.options or {}
  if player.clock_game == g and player.clock_given then
    player.clock_left = player.clock_left - seconds + (player.clock_inc or 0)
    return
  end
  if not options.clock then return end
  if player.clock_game ~= g then player.clock_game, player.clock_left = g, options.clock end
  player.clock_left = player.clock_left - seconds + (options.inc or 0)
end

--- Sets the player's clock in game `g` from a controller (GTP's
-- `time_left`): `left` seconds for its next `moves` moves (nil: as many as
-- the board says are left), `inc` added after each; it replaces the
-- options' clock, and gives a policy without one a clock too.
-- @tparam table player a loaded computer player
-- @tparam boardscript.game.Game g the game
-- @tparam number|nil left seconds left (nil: the controller's clock is gone;
-- the options' own, if any, starts whole)
-- @tparam number inc seconds added after each move
-- @tparam[opt] integer moves the moves `left` is for
function players.set_clock(player, g, left, inc, moves)
  player.clock_game, player.clock_left, player.clock_inc, player.clock_moves = g, left, inc, moves
  player.clock_given = left ~= nil or nil
  if not left then player.clock_game = nil end
end

--- Asks a computer player for its move in `g` (a boardscript.game). The
-- policy sees a copy; its answer is checked: returns a legal move or
-- "pass", or stops the game with a user error (status 2) naming the player
-- and the move.
-- @tparam table player a loaded computer player (players.load)
-- @tparam boardscript.game.Game g the game
-- @return a legal move (a copy), or "pass"
function players.choose(player, g)
  local started = core.clock()
  local move = ask(player, g, "choose")
  players.spent(player, g, core.clock() - started)
  local checked, problem, why = g:check(move)
  if checked then return checked end
  local text = problem == "illegal" and move ~= nil and g:move_text(move)
  errors.fail(("%s chose %s move %s%s"):format(who(player, g),
    problem == "malformed" and "a malformed" or "an illegal",
    move == nil and "(a pass)" or text or players.describe(move), why and (" (" .. why .. ")") or ""))
end

--- Asks a policy's optional yes/no hook (e.g. FlipFlop's `second_piece`)
-- on a copy of the game: true or false.
-- @tparam table player a loaded computer player (players.load)
-- @tparam boardscript.game.Game g the game
-- @tparam string method the hook's name
-- @treturn boolean
function players.decide(player, g, method)
  return ask(player, g, method) and true or false
end

return players
