--- The engine side shared by the NBoard and GTP sessions: a policy (a
-- player spec, `alphabeta` by default) with what the protocols ask of it:
-- a move with its evaluation, the evaluations of every move (hints), the
-- value of a position (retrograde analysis) and a search depth the
-- controller may change. Evaluations are in hundredths of a disc, from the
-- side to move's point of view; they come from the C searcher when the
-- policy is `alphabeta` and the rule set is one it searches exactly.
-- Nothing here prints.
local clock_mod = require "boardscript.clock"
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local limits = require "boardscript.limits"
local players = require "boardscript.players"
local rules_mod = require "boardscript.rules"

local engine = {}

local Engine = {}
Engine.__index = Engine

--- The depth a search uses when neither the policy nor the controller gave one.
engine.DEFAULT_DEPTH = 6

-- The option declarations of the built-in policy `name` ({} when it has
-- none; nil for a file, whose declarations are known only by loading it).
local function declared_options(name)
  local entry = players.BUILTIN[name]
  if not entry then return nil end
  local module = require(entry.module)
  return type(module) == "table" and module.options or {}
end

-- `key=value` items of a spec's option text, in order.
local function option_items(text)
  local items = {}
  if text == nil or text == "" then return items end
  for item in (text .. ","):gmatch("([^,]*),") do
    local key, value = item:match("^%s*([%w_]+)%s*=(.*)$")
    items[#items + 1] = { key = key, value = value, text = item }
  end
  return items
end

--- engine.new{ policy = spec (default "alphabeta"), rules = rule set name
-- or table the policy must play (default "reversi") }. A spec that does not
-- load, or a policy that does not play the rule set, is a user error.
function engine.new(opts)
  opts = opts or {}
  local self = setmetatable({ rules = opts.rules or "reversi" }, Engine)
  self:load(opts.policy or "alphabeta")
  if not players.plays(self.player, self.rules) then
    errors.fail(("policy '%s' does not play %s"):format(self.spec,
      type(self.rules) == "string" and self.rules or tostring(self.rules.name)))
  end
  return self
end

--- Loads the player `spec` (replacing the current one).
function Engine:load(spec)
  local player = players.load(spec, self.rules)
  if player.human then errors.fail("the engine needs a computer policy, not 'human'") end
  self.player, self.spec = player, spec
  self.name, self.option_text = players.split_spec(spec)
end

--- The policy's `depth` option (nil when it has none or none was given).
function Engine:depth()
  return self.player.options and self.player.options.depth
end

--- The depth searches for hints and analysis use.
function Engine:search_depth()
  return self:depth() or self.hint_depth or engine.DEFAULT_DEPTH
end

--- Whether the policy plays by time (its `time` or `clock` option given, no `depth`).
function Engine:timed()
  local o = self.player.options
  return o ~= nil and (o.time ~= nil or o.clock ~= nil) and o.depth == nil
end

--- Sets the policy's search depth (the controller's `set depth`): `n` is
-- brought within the depths the policy takes. A policy that plays by time
-- keeps playing by time: the depth is then the hints' and analysis's only
-- (NBoard sends `set depth` whatever the engine's time policy). Returns the
-- depth now used, or nil and why when the policy has no depth option.
function Engine:set_depth(n)
  local declared = declared_options(self.name)
  if declared and not declared.depth and not self:timed() then
    return nil, ("policy '%s' has no depth option"):format(self.name)
  end
  local spec = declared and declared.depth or {}
  local low, high = spec.min or 1, spec.max or 60
  n = math.max(low, math.min(high, n))
  if self:timed() then
    self.hint_depth = n
    return n
  end
  if self:depth() == n then return n end
  local items, found = option_items(self.option_text), false
  for _, item in ipairs(items) do
    if item.key == "depth" then item.text, found = "depth=" .. n, true end
  end
  if not found then items[#items + 1] = { text = "depth=" .. n } end
  local texts = {}
  for i, item in ipairs(items) do texts[i] = item.text end
  local spec_text = self.name .. ":" .. table.concat(texts, ",")
  local ok, err = pcall(self.load, self, spec_text)
  if not ok then
    return nil, errors.is_user(err) and err.message or tostring(err)
  end
  return n
end

--- A one-word name for the controller: `boardscript-alphabeta6`,
-- `boardscript-random`, `boardscript-mine` (a file's base name).
function Engine:label()
  local base = self.name:match("([^/]+)%.lua$") or self.name
  base = base:gsub("[%s]", "_")
  local depth = self:depth()
  return "boardscript-" .. base .. (depth and tostring(depth) or "")
end

--- The alphabeta policy instance when the policy is alphabeta and game
-- `g`'s rule set is searched exactly by the C core; else nil.
function Engine:searching(g)
  local policy = self.player.policy
  if self.player.policy_name ~= "alphabeta" or type(policy) ~= "table" or not policy.searcher then return nil end
  if not rules_mod.searched_in_core(g.rules) then return nil end
  return policy
end

--- Empties the searcher's transposition table, so that what a command
-- answers depends on the position and the command only, not on what was
-- searched before it.
function Engine:forget()
  local policy = self.player.policy
  if self.player.policy_name == "alphabeta" and type(policy) == "table" and policy.searcher then
    policy.searcher:clear()
  end
end

--- Starts the budget of one command that runs several searches (NBoard's
-- `hint` and `analyze`): under --max-seconds, they share that many
-- processor seconds (90 %, as a move's search), and Engine:out_of_time
-- tells when they are spent.
-- With `one_move` true a policy that plays by time gives the command its
-- time for a move (a hint is a move's worth of thought), whatever the depth.
function Engine:begin(one_move)
  local seconds = limits.seconds()
  self.deadline = seconds and os.clock() + 0.9 * seconds or nil
  if one_move and self:timed() then
    local o = self.player.options
    local by_time = os.clock() + (o.time or clock_mod.allot(o.clock, o.inc or 0, clock_mod.DEFAULT_MOVES))
    self.deadline = self.deadline and math.min(self.deadline, by_time) or by_time
  end
end

--- Ends the budget Engine:begin started.
function Engine:finish()
  self.deadline = nil
end

--- Whether the budget Engine:begin started is spent (false without one).
-- @treturn boolean
function Engine:out_of_time()
  return self.deadline ~= nil and os.clock() >= self.deadline
end

-- The searcher's options for `g`, with the depth replaced when given; under
-- --max-seconds the search's time is within the budget: a move's, or what
-- is left of the command's (Engine:begin).
local function search_options(self, policy, g, depth)
  local o = policy:search_options(g, players.context(self.player, g)) -- the move's time, of a clock too
  if depth then
    -- a policy that plays by time spends at most its time on each search
    o.depth, o.time = depth, self:timed() and o.time or nil
    if self.deadline then o.time = math.max(self.deadline - os.clock(), 0.01) end
  end
  return o
end

--- The value of a finished game for the side to move, in hundredths.
local function final_value(g)
  local a, b = g:score()
  local margin = a - b
  if g:to_move() ~= g:sides() then margin = -margin end
  return 100 * margin
end
engine.final_value = final_value

--- The disc (or score) margin of the side to move, in hundredths.
engine.margin = final_value

--- The engine's move in game `g` (not finished): returns the move (a move
-- value or "pass") and a table { value = hundredths or nil, seconds =,
-- nodes =, depth =, exact = } (value, nodes and depth only from the C
-- searcher). The game is left as it is.
function Engine:choose(g)
  local policy = self:searching(g)
  local clock = os.clock()
  if policy then
    local state = g.state
    local started = core.clock()
    local move, value, info = policy.searcher:search(state.board, state.player, search_options(self, policy, g))
    players.spent(self.player, g, core.clock() - started)
    if move == nil then return nil, { seconds = os.clock() - clock } end
    local checked = g:check(move)
    if not checked then
      errors.fail(("the searcher chose an illegal move %s"):format(players.describe(move)), errors.EXIT_FAILURE)
    end
    return checked, { value = value, seconds = info.seconds, nodes = info.nodes, depth = info.depth,
                      exact = info.exact }
  end
  local move = players.choose(self.player, g)
  return move, { seconds = os.clock() - clock }
end

--- The value of the position of `g` for the side to move, in hundredths:
-- exact when the game is over, else a search `depth` plies deep (depth 0:
-- the static evaluation). `solve` true solves the position exactly, false
-- never does; nil: as the policy's `endgame` option says. Needs the
-- searcher (see Engine:searching). Returns value, { depth =, exact =, nodes = }.
function Engine:evaluate(g, depth, solve)
  if g:finished() then return final_value(g), { depth = 0, exact = true, nodes = 0 } end
  local policy = assert(self:searching(g), "evaluate needs the alphabeta searcher")
  local state = g.state
  local o = search_options(self, policy, g, depth)
  if solve == true then
    o.endgame = state.board:size() * state.board:size()
  elseif solve == false then
    o.endgame = 0
    if depth == 0 then
      return policy.searcher:evaluate(state.board, state.player, o), { depth = 0, exact = false, nodes = 0 }
    end
  end
  if depth == 0 then o.depth = 1 end
  local _, value, info = policy.searcher:search(state.board, state.player, o)
  return value, { depth = info.depth, exact = info.exact, nodes = info.nodes }
end

--- Every choice in `g` (not finished) valued by a search `depth` plies
-- deep (the choice, then depth - 1 plies of reply): a list of { move = a
-- move value or "pass", value = hundredths for the side to move, depth =
-- plies searched, exact = }, best first (ties in the order of the legal
-- moves). The choices are the searcher's: the moves, then "pass" where the
-- rules allow one (g:choices: in FlipFlop, declining the second piece).
-- A choice after which the same side moves again (FlipFlop's first piece
-- that earns a second) keeps its child's value; any other is negated.
-- Where the policy's search would solve `g` exactly (no more empty
-- cells than its `endgame` option), every choice is solved; else none is,
-- so the best choice and value are the ones `choose` finds. Needs the searcher.
function Engine:rank(g, depth)
  local policy = assert(self:searching(g), "rank needs the alphabeta searcher")
  local endgame = search_options(self, policy, g).endgame or 0
  local solve = endgame > 0 and g.state.board:count("empty") <= endgame
  local choices = {}
  local side = g:to_move()
  for i, move in ipairs(g:choices()) do
    local child = g:clone()
    if move == "pass" then child:pass() else child:play(move) end
    local value, info = self:evaluate(child, depth - 1, solve)
    if child:to_move() ~= side then value = -value end
    choices[#choices + 1] = { move = move, value = value, depth = info.exact and depth or info.depth + 1,
                              exact = info.exact, nodes = info.nodes, order = i }
  end
  table.sort(choices, function(a, b)
    if a.value ~= b.value then return a.value > b.value end
    return a.order < b.order
  end)
  return choices
end

--- Hundredths of a disc as text with two decimals: 150 -> "1.50", -5 -> "-0.05".
function engine.discs(hundredths)
  local n = math.tointeger(hundredths) or math.floor(hundredths + 0.5)
  local sign = n < 0 and "-" or ""
  n = math.abs(n)
  return ("%s%d.%02d"):format(sign, n // 100, n % 100)
end

return engine
