--- What a rule set must be and what its hooks must return: the check of
-- a rule set when it is made or loaded (check.validate), the checks of the
-- results boardscript reads (check.RESULT_CHECKS) and the wrappers that run
-- them around the hooks of a rule set file (check.wrap_hooks). The registry
-- (boardscript.rules) calls these and re-exports validate and
-- RESULT_CHECKS; the contract's lists (HOOKS, FAMILIES, DIRECTION_FIELDS)
-- are the registry's, read here when a rule set is checked.
local core = require "boardscript.core"
local declarations = require "boardscript.declared"
local errors = require "boardscript.errors"
local limits = require "boardscript.limits"

local check = {}
local running = coroutine.running
local unpack = table.unpack

local function fail(where, message)
  errors.fail(("%s: %s"):format(where, message))
end

--- Checks a rule set once, when it is made or loaded: every hook a
-- function, the family known, `name` and `description` strings when
-- given, direction sets and declared options valid, `check_options` a
-- function that takes the rule set's own options, and whatever its own
-- `check` hook says. Returns it, or raises a user error that names `where`
-- and the field at fault.
-- @tparam table rules the hooks and fields (anything else is a user error)
-- @tparam[opt] string where how errors name it (default "rule set 'NAME'")
-- @treturn table the rule set
function check.validate(rules, where)
  local registry = require "boardscript.rules"
  where = where or ("rule set '%s'"):format(type(rules) == "table" and tostring(rules.name) or "?")
  if type(rules) ~= "table" then
    fail(where, ("expected a table of rule hooks, got %s"):format(type(rules)))
  end
  if rules.name ~= nil and type(rules.name) ~= "string" then
    fail(where, "field 'name' must be a string")
  end
  if rules.description ~= nil and type(rules.description) ~= "string" then
    fail(where, ("field 'description' must be a string, how the game is played (got %s)"):format(
      type(rules.description)))
  end
  if rules.score_unit ~= nil and (type(rules.score_unit) ~= "string" or rules.score_unit == "") then
    fail(where, ("field 'score_unit' must be a string, what the score counts such as \"discs\" (got %s)"):format(
      errors.describe(rules.score_unit)))
  end
  local symmetry_fault = require("boardscript.symmetry").check_field(rules.symmetry)
  if symmetry_fault then fail(where, "field 'symmetry': " .. symmetry_fault) end
  if not registry.FAMILIES[rules.family or "board"] then
    fail(where, ("field 'family': unknown family '%s' (expected board or dots)"):format(tostring(rules.family)))
  end
  for _, hook in ipairs(registry.HOOKS) do
    if type(rules[hook]) ~= "function" then
      fail(where, ("field '%s' must be a function (got %s)"):format(hook, type(rules[hook])))
    end
  end
  if type(rules.sides) ~= "table" or rules.sides[1] == nil or rules.sides[2] == nil then
    fail(where, "field 'sides' must list the two sides")
  end
  for _, field in ipairs(registry.DIRECTION_FIELDS) do
    if rules[field] ~= nil then
      local ok, why = core.directions(rules[field])
      if not ok then fail(where, ("field '%s' is %s: %s"):format(field, errors.describe(rules[field]), why)) end
    end
  end
  local fault = declarations.validate(rules.options, function(key) return rules[key] end, true)
  if fault then fail(where, fault) end
  if rules.check_options ~= nil then
    if type(rules.check_options) ~= "function" then
      fail(where, ("field 'check_options' must be a function (self, opts) saying why options do not go together "
        .. "(got %s)"):format(type(rules.check_options)))
    end
    local own = declarations.resolved(rules, {}) -- (the rule set's own values and defaults)
    local why = declarations.refusal(rules, own, where)
    if why then
      fail(where, ("field 'check_options' refuses the rule set's own options (%s): %s"):format(
        declarations.values_text(own), why))
    end
  end
  if rules.check ~= nil then
    if type(rules.check) ~= "function" then fail(where, "field 'check' must be a function") end
    local problem = rules:check()
    if problem then fail(where, problem) end
  end
  return rules
end

-- ---- what a rule set file's hooks return, checked where it is used ----

local function finite(x)
  return math.type(x) ~= nil and x == x and x ~= math.huge and x ~= -math.huge
end

local function sides_text(rules)
  local a, b = rules.sides[1], rules.sides[2]
  return ("%s, %s or \"draw\""):format(errors.describe(a), errors.describe(b))
end

-- Checks of one hook's results `r` (table.pack) for `rules`, called on
-- `state` (its first argument after self): nil when fine, else what is wrong.
check.RESULT_CHECKS = {
  winner = function(rules, r)
    local w = r[1]
    if w == "draw" or w == rules.sides[1] or w == rules.sides[2] then return nil end
    return ("returned %s (expected %s)"):format(errors.describe(w), sides_text(rules))
  end,
  score = function(_, r)
    if finite(r[1]) and finite(r[2]) then return nil end
    return ("returned %s, %s (expected two finite numbers)"):format(errors.describe(r[1]), errors.describe(r[2]))
  end,
  side_name = function(_, r)
    if type(r[1]) == "string" then return nil end
    return ("returned %s (expected a string)"):format(errors.describe(r[1]))
  end,
  -- (render checks that the cells are on the board)
  move_cells = function(_, r)
    local cells = r[1]
    if cells == nil then return nil end
    if type(cells) ~= "table" or #cells == 0 then
      return ("returned %s (expected nil or a list of cells {row, col})"):format(errors.describe(cells))
    end
    for i = 1, #cells do
      local c = cells[i]
      if type(c) ~= "table" or math.type(c[1]) ~= "integer" or math.type(c[2]) ~= "integer" then
        return ("returned %s as cell %d (expected {row, col}, two integers)"):format(errors.describe(c), i)
      end
    end
    return nil
  end,
  -- (the move_text of every entry on the first FULL_CALLS calls of a
  -- rule set's `moves`; after them, of one entry per call, in turn, except
  -- in a counting loop: see check.FULL_CALLS)
  moves = function(rules, r, state, calls, named)
    local list = r[1]
    if type(list) ~= "table" then return ("returned %s (expected a list of moves)"):format(errors.describe(list)) end
    local n = #list
    local first, last = 1, n
    if calls and calls > check.FULL_CALLS then
      if n == 0 or check.in_counting() then return nil end
      first = calls % n + 1
      last = first
    end
    for i = first, last do
      local move = list[i]
      -- a move that is a plain value (an integer-coded move) is named once
      if not (named and named.set[move]) then
        local ok, text = pcall(rules.move_text, rules, move, state)
        if not ok or type(text) ~= "string" then
          return ("returned a malformed move %s at position %d (its move_text gives no text for it)"):format(
            errors.describe(move), i)
        end
        if named and type(move) ~= "table" and move == move and named.n < check.NAMED_MOVES then
          named.set[move], named.n = true, named.n + 1
        end
      end
    end
    return nil
  end,
}

--- How many distinct moves that are not tables (integer-coded moves,
-- strings) a rule set file's `moves` check remembers as named: each is
-- named by `move_text` once, however often it is listed (past this many,
-- as tables are, on the first FULL_CALLS calls and one a call after).
check.NAMED_MOVES = 1 << 16

--- How many calls of a rule set file's `moves` hook have every listed
-- move checked (named by its `move_text`); after them one move per call is
-- checked, in turn, so that searches over the hooks do not pay a
-- `move_text` call per move on every call, and none in a counting loop
-- (check.counting: perft and random playouts, the hot loops). A move that is not
-- well formed is still refused by `play` (the rule set's fault) and named
-- by `move_text` where a game is played.
check.FULL_CALLS = 64

local checked = setmetatable({}, { __mode = "k" }) -- checking wrappers made here

-- An error raised inside a hook of a rule set file: a user error with its
-- message as it was (it names the file and line), blamed on the rule set,
-- unless it is already a user error (a budget run out, a fault named further
-- in) or not a message (the end of input).
local function hook_error(err, where)
  if errors.is_user(err) or type(err) ~= "string" then error(err, 0) end
  errors.rules_error(err, where)
end

-- The hooks whose results boardscript reads itself (outside any budget):
-- they cross as plain data (limits.plain_value), made inside the window of
-- the hook's call, so no metamethod of the rule set's runs afterwards.
-- "list": a list whose items go back to the rule set's hooks (a new list,
-- the same items).
local PLAIN_RESULTS = {
  moves = "list", winner = true, score = true, side_name = true, move_cells = true, move_text = true,
  parse_move = true, board_text = true, size_text = true, finished = true, can_pass = true, has_moves = true,
  play = true, pass = true, undo = true, to_move = true,
}

local function plain_results(kind, r)
  for i = 1, r.n do
    local v = r[i]
    if kind == "list" and i == 1 and type(v) == "table" then
      local list
      local n = rawlen(v)
      if getmetatable(v) == nil then -- no metatable: read raw in one call, made at its size
        list = n <= 4096 and { unpack(v, 1, n) } or table.move(v, 1, n, 1, {})
      else
        list = {}
        for k = 1, n do list[k] = rawget(v, k) end
      end
      r[i] = list
    else
      r[i] = limits.plain_value(v)
    end
  end
  return table.unpack(r, 1, r.n)
end

local function settle(where, hook, result_check, calls, named, self, state, ok, ...)
  if not ok then hook_error((...), where) end
  local plain = PLAIN_RESULTS[hook]
  if plain and not result_check and select("#", ...) <= 2 then
    -- the hot case (finished, play, undo, can_pass...): plain already
    -- unless a table, so no copy and no table of the results
    local a, b = ...
    if type(a) ~= "table" and type(b) ~= "table" then return ... end
  end
  if result_check or plain then
    local r = table.pack(...)
    local problem = result_check and result_check(self, r, state, calls, named)
    if problem then errors.rules_fault(where, hook, problem) end
    if plain then return plain_results(plain, r) end
  end
  return ...
end

-- While check.counting runs (perft and playouts over the hooks): the
-- answers of a rule set file's `finished`, by state, forgotten whenever its
-- `play`, `pass` or `undo` is entered or returns. Nil otherwise.
local memo
local CHANGES = { play = true, pass = true, undo = true }

-- (a key is read before it is cleared: reading any value as a key is
-- safe, writing nil or NaN is not, and a state that is not a table is
-- never remembered)
local function forget(state, ...)
  if memo and memo[state] ~= nil then memo[state] = nil end
  return ...
end

--- Calls f(...) with the answers of every rule set file's `finished`
-- remembered by state until its `play`, `pass` or `undo` runs on that
-- state: a counting loop (perft, playouts) that asks `finished` of a node
-- and then lists and plays its moves (whose hooks ask it again) runs the
-- hook once a node. Only for loops in which nothing but the rule set's own
-- hooks changes the state. Returns f's results (an error goes on).
-- @tparam function f the loop
-- @param ... its arguments
-- @return f's results
function check.counting(f, ...)
  if memo then return f(...) end
  memo = setmetatable({}, { __mode = "k" })
  local r = table.pack(pcall(f, ...))
  memo = nil
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

--- Whether a check.counting loop is running.
-- @treturn boolean
function check.in_counting()
  return memo ~= nil
end

--- Puts the checks of check.RESULT_CHECKS around the hooks a rule set file
-- defines itself (not those it inherits from boardscript's own tables,
-- `ours`), and makes an error raised in any of its functions the rule set's
-- fault, keeping a `core_count` declaration's hooks in step.
-- @tparam table rules a rule set loaded from a file (changed in place)
-- @tparam string where how errors name it ("rules FILE")
-- @tparam table ours boardscript's own tables (a set), whose hooks stay as they are
function check.wrap_hooks(rules, where, ours)
  if type(where) ~= "string" then error("bad argument #2 to 'wrap_hooks' (string expected)", 2) end
  -- The coroutine running one of the rule set's functions, while it runs:
  -- its calls of its own hooks (self:finished in moves) from that coroutine
  -- go straight through, their results read by its own code, inside the
  -- outer call's window and pcall (a call from elsewhere, while a hook is
  -- suspended in a yield, is checked)
  local inside
  local function leave(...)
    inside = nil
    return ...
  end
  -- settle for a hook with plain results and no check of its own (play,
  -- undo, finished, can_pass...): one or two results that are not tables
  -- go back as they are, with no further call
  local function settle_plain(hook, ok, ...)
    inside = nil
    if ok and select("#", ...) <= 2 then
      local a, b = ...
      -- (true, false and nil, the usual answers, without a call of type)
      if (a == true or a == false or a == nil or type(a) ~= "table")
        and (b == nil or b == true or b == false or type(b) ~= "table") then
        return ...
      end
    end
    return settle(where, hook, nil, nil, nil, nil, nil, ok, ...)
  end
  -- `finished` is remembered (check.counting) only when the rule set's own
  -- play, pass and undo (which forget it) are the ones that run
  local memoizable, changes = false, {}
  require("boardscript.hooks").rewrap(rules, ours, function(value, key)
    if checked[value] or key == "check" then return nil end
    local hook, result_check = tostring(key), check.RESULT_CHECKS[key]
    local calls = 0
    -- the plain moves `moves` listed that move_text has named (check.NAMED_MOVES)
    local named = hook == "moves" and { set = {}, n = 0 } or nil
    local function wrapper(self, ...)
      local co = running()
      if inside == co then return value(self, ...) end
      calls = calls + 1
      inside = co
      return settle(where, hook, result_check, calls, named, self, (...), leave(pcall(value, self, ...)))
    end
    if PLAIN_RESULTS[hook] == true and not result_check then
      wrapper = function(self, ...)
        local co = running()
        if inside == co then return value(self, ...) end
        inside = co
        return settle_plain(hook, pcall(value, self, ...))
      end
    end
    if hook == "finished" then
      local plain = wrapper
      wrapper = function(self, state, ...)
        if not memo or not memoizable or self ~= rules then
          return plain(self, state, ...)
        end
        local known = memo[state]
        if known == nil then
          known = plain(self, state, ...)
          if memo and (known == true or known == false) and type(state) == "table" then memo[state] = known end
        end
        return known
      end
    elseif CHANGES[hook] then
      local plain = wrapper
      wrapper = function(self, state, ...)
        if not memo then return plain(self, state, ...) end
        forget(state)
        return forget(state, plain(self, state, ...))
      end
      changes[wrapper] = true
    end
    checked[wrapper] = true
    return wrapper
  end)
  memoizable = changes[rawget(rules, "play")] and changes[rawget(rules, "pass")] and changes[rawget(rules, "undo")]
    or false
end

return check
