--- Rule sets: tables of hooks over the core, validated once when loaded.
--
-- A rule set is called with method syntax (`rules:moves(state)`). Its
-- family ("board", the default, or "dots") supplies every optional hook it
-- does not define (notation, board text, sides, score, winner, clone,
-- can_pass), and a variant made with `rules.variant(base, {...})`
-- overrides only what differs and inherits the rest. See docs/guide.md
-- ("Writing a variant") for the whole contract.
local core = require "boardscript.core"
local declarations = require "boardscript.declared"
local errors = require "boardscript.errors"
local limits = require "boardscript.limits"
local sandbox = require "boardscript.sandbox"

local M = {}

--- The hooks every rule set must end up with (own, inherited or family).
M.HOOKS = { "setup", "moves", "play", "undo", "pass", "finished", "score" }

--- The families and their default hooks.
M.FAMILIES = {
  board = require "boardscript.families.board",
  dots = require "boardscript.families.dots",
}

--- Built-in rule sets by name; anything else is loaded as a Lua file path.
M.BUILTIN = {
  reversi = "boardscript.rules.reversi",
  blocks = "boardscript.rules.blocks",
  othello = "boardscript.rules.othello",
  ["othello-strict"] = "boardscript.rules.othello_strict",
  flipflop = "boardscript.rules.flipflop",
  dots = "boardscript.rules.dots",
}

--- Fields holding a direction set (checked with core.directions).
M.DIRECTION_FIELDS = { "legal_dirs", "flip_dirs" }

--- The example rule sets of lua/examples, by file name (the soak plays
-- them, serve offers them).
M.EXAMPLES = { "anti", "holes", "octagon", "orthogonal", "tictactoe", "misere_dots" }

--- The example rule sets found next to these modules (lua/examples):
-- a list of { name =, path = } in M.EXAMPLES order.
-- @treturn {table,...} the examples found
function M.examples()
  local found = package.searchpath("boardscript.rules", package.path)
  local root = found and found:match("^(.*)/boardscript/rules/init%.lua$")
  local dir = root and (root .. "/examples") or "lua/examples"
  local list = {}
  for _, name in ipairs(M.EXAMPLES) do
    local path = ("%s/%s.lua"):format(dir, name)
    local f = io.open(path)
    if f then
      f:close()
      list[#list + 1] = { name = name, path = path }
    end
  end
  return list
end

--- The names of the built-in rule sets, sorted.
-- @treturn {string,...} a new list of the names
function M.builtin_names()
  local names = {}
  for name in pairs(M.BUILTIN) do names[#names + 1] = name end
  table.sort(names)
  return names
end

local function fail(where, message)
  errors.fail(("%s: %s"):format(where, message))
end

--- Converts the text of
-- `--opt key=value` for option `key` of `rules`:
-- returns the value, or raises a user error naming the option.
-- @tparam table rules a rule set
-- @tparam string key the option's name
-- @tparam string text the value as typed
-- @treturn integer|number|boolean|string the value, of the declared type
function M.parse_option(rules, key, text)
  local spec = (rules.options or {})[key]
  if not spec then
    errors.fail(("rule set '%s' has no option '%s' (options: %s)"):format(
      rules.name or "?", key, declarations.names(rules.options)))
  end
  return declarations.convert(spec, key, text)
end

--- The options a game of `rules` is set up with: each declared option is
-- `given[key]` if present, else the rule set's own field of that name (a
-- variant's `size = 10`), else the declaration's default. Every value is
-- checked; an undeclared key or a bad value raises a user error naming it.
-- @tparam table rules a rule set
-- @tparam[opt] table given option values, by name
-- @treturn table the options, by name
function M.resolve_options(rules, given)
  local declared = rules.options or {}
  local opts = {}
  for key, value in pairs(given or {}) do
    if not declared[key] then M.parse_option(rules, key, "") end -- raises: unknown option
    opts[key] = value
  end
  for key, spec in pairs(declared) do
    if opts[key] == nil then
      local value = rules[key]
      if value == nil then value = spec.default end
      opts[key] = value
    end
    if opts[key] ~= nil then
      local ok, why = declarations.check(spec, opts[key])
      if ok == nil then errors.fail(("option %s: %s"):format(key, why)) end
    end
  end
  return opts
end

--- Checks a rule set once, when it is made or loaded: every hook a
-- function, the family known, direction sets and declared options valid,
-- and whatever its own `check` hook says. Returns it, or raises a user
-- error that names `where` and the field at fault.
-- @tparam table rules the hooks and fields (anything else is a user error)
-- @tparam[opt] string where how errors name it (default "rule set 'NAME'")
-- @treturn table the rule set
function M.validate(rules, where)
  where = where or ("rule set '%s'"):format(type(rules) == "table" and tostring(rules.name) or "?")
  if type(rules) ~= "table" then
    fail(where, ("expected a table of rule hooks, got %s"):format(type(rules)))
  end
  if rules.name ~= nil and type(rules.name) ~= "string" then
    fail(where, "field 'name' must be a string")
  end
  if not M.FAMILIES[rules.family or "board"] then
    fail(where, ("field 'family': unknown family '%s' (expected board or dots)"):format(tostring(rules.family)))
  end
  for _, hook in ipairs(M.HOOKS) do
    if type(rules[hook]) ~= "function" then
      fail(where, ("field '%s' must be a function (got %s)"):format(hook, type(rules[hook])))
    end
  end
  if type(rules.sides) ~= "table" or rules.sides[1] == nil or rules.sides[2] == nil then
    fail(where, "field 'sides' must list the two sides")
  end
  for _, field in ipairs(M.DIRECTION_FIELDS) do
    if rules[field] ~= nil then
      local ok, why = core.directions(rules[field])
      if not ok then fail(where, ("field '%s' is %s: %s"):format(field, errors.describe(rules[field]), why)) end
    end
  end
  local fault = declarations.validate(rules.options, function(key) return rules[key] end, true)
  if fault then fail(where, fault) end
  if rules.check ~= nil then
    if type(rules.check) ~= "function" then fail(where, "field 'check' must be a function") end
    local problem = rules:check()
    if problem then fail(where, problem) end
  end
  return rules
end

--- Makes `rules` a rule set of its family (`rules.family`, default
-- "board"): the family supplies every optional hook it lacks. Validates and
-- returns it. For a rule set written from scratch; a variant uses
-- rules.variant.
-- @tparam table rules the hooks and fields
-- @tparam[opt] string where how errors name it ("rules FILE")
-- @treturn table the rule set
function M.define(rules, where)
  if type(rules) == "table" and getmetatable(rules) == nil then
    local family = M.FAMILIES[rules.family or "board"]
    if family then setmetatable(rules, { __index = family }) end
  end
  return M.validate(rules, where)
end

--- A variant of `base`: the fields of `overrides` win, the rest is
-- inherited. Validated before it is returned.
-- @tparam table base a rule set (`require "boardscript.rules.reversi"`)
-- @tparam[opt] table overrides the fields and hooks that differ
-- @treturn table the variant
function M.variant(base, overrides)
  return M.validate(setmetatable(overrides or {}, { __index = base }))
end

--- Whether (row, col) are integers naming a cell of core board `board`.
-- @tparam userdata board a core board
-- @param row a row, 1-based
-- @param col a column, 1-based
-- @treturn boolean
function M.on_board(board, row, col)
  return M.FAMILIES.board.on_board(board:size(), row, col)
end

--- The choices of the side to move in `state`, as a search sees them: a new
-- list of its moves, then "pass" when `can_pass` allows one (searchers,
-- playouts and perft share this view of the game tree).
-- @tparam table rules a rule set
-- @tparam table state a state of it
-- @treturn table a new list of moves, then "pass" where allowed
function M.children(rules, state)
  local moves = rules:moves(state)
  local list = table.move(moves, 1, #moves, 1, {})
  if rules:can_pass(state) then list[#list + 1] = "pass" end
  return list
end

--- Plays a choice of M.children: a move, or "pass". Returns what the hook
-- returns (nil and why when refused).
-- @tparam table rules a rule set
-- @tparam table state a state of it (changed in place)
-- @param choice a move value or "pass"
-- @return what the `play` or `pass` hook returns
function M.apply(rules, state, choice)
  if choice == "pass" then return rules:pass(state) end
  return rules:play(state, choice)
end

--- A declaration that `rules` is exactly what the C capture core computes
-- for the game its `core_game` method describes (with its own `legal_dirs`
-- and `flip_dirs`): it vouches for the hooks named, as they are now. A
-- variant that replaces any of them loses the C path (see `counted_in_core`
-- and `searched_in_core`), so a user's override is never ignored.
-- @tparam table rules the rule set declaring it
-- @tparam {string,...} hooks the names of the hooks vouched for
-- @treturn table the declaration, for `rules.core_count`
function M.vouch(rules, hooks)
  local vouched = {}
  for _, name in ipairs(hooks) do vouched[name] = rules[name] end
  return { hooks = vouched }
end

--- The hooks that shape the game tree (what perft counts).
M.TREE_HOOKS = { moves = true, has_moves = true, play = true, pass = true, can_pass = true, undo = true,
                 finished = true }

-- Whether every hook `core_count` vouches for (those of `only`, if given)
-- is still the rule set's.
local function vouched(rules, only)
  local declared = rules.core_count
  if type(declared) ~= "table" or type(declared.hooks) ~= "table" then return false end
  for name, hook in pairs(declared.hooks) do
    if (only == nil or only[name]) and rules[name] ~= hook then return false end
  end
  return true
end

--- The C description of the game (legal, flip, legal2, flip2,
-- second_after, pass, ending, turn_limit, misere: see core.searcher), or
-- nil when the rule set has no core declaration.
-- @tparam table rules a rule set
-- @tparam[opt] table state a state of it, passed to its `core_game`
-- @treturn ?table the description
function M.core_game(rules, state)
  if type(rules.core_count) ~= "table" or type(rules.core_game) ~= "function" then return nil end
  return rules:core_game(state)
end

--- Whether the C core's perft counts `rules`: its tree hooks are still the
-- ones its `core_count` declaration vouches for, and its game is standard
-- Reversi's shape (a pass only when stuck, over when neither side can move).
-- @tparam table rules a rule set
-- @treturn boolean
function M.counted_in_core(rules)
  if not vouched(rules, M.TREE_HOOKS) then return false end
  local game = M.core_game(rules)
  if game == nil then return true end
  return (game.pass or "stuck") == "stuck" and (game.ending or "no-moves") == "no-moves"
    and (game.second_after or 0) == 0
end

--- Whether the C searcher plays `rules` exactly: every hook vouched for
-- (the score and winner too) is still the rule set's, and it describes its
-- game (`core_game`).
-- @tparam table rules a rule set
-- @treturn boolean
function M.searched_in_core(rules)
  return vouched(rules) and type(rules.core_game) == "function"
end

--- The rule set tables of boardscript's own (built-in rule sets loaded so
-- far and the families), as a set: their hooks are never put on budget.
-- @treturn table a set: rule set table -> true
function M.own_tables()
  local set = {}
  for _, family in pairs(M.FAMILIES) do set[family] = true end
  for _, module in pairs(M.BUILTIN) do
    local loaded = package.loaded[module]
    if type(loaded) == "table" then set[loaded] = true end
  end
  return set
end

-- ---- what a rule set file's hooks return, checked where it is used ----

local where_of = setmetatable({}, { __mode = "k" }) -- rule set table -> "rules FILE"

--- Whether `rules` was loaded from a file (M.load of a path).
-- @tparam table rules a rule set
-- @treturn boolean
function M.from_file(rules)
  return where_of[rules] ~= nil
end

--- "rules FILE" for a rule set loaded from a file, else "rule set 'NAME'".
-- @tparam table rules a rule set
-- @treturn string
function M.where(rules)
  return where_of[rules] or ("rule set '%s'"):format(type(rules) == "table" and tostring(rules.name) or "?")
end

local function finite(x)
  return math.type(x) ~= nil and x == x and x ~= math.huge and x ~= -math.huge
end

local function sides_text(rules)
  local a, b = rules.sides[1], rules.sides[2]
  return ("%s, %s or \"draw\""):format(errors.describe(a), errors.describe(b))
end

-- Checks of one hook's results `r` (table.pack) for `rules`, called on
-- `state` (its first argument after self): nil when fine, else what is wrong.
M.RESULT_CHECKS = {
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
  moves = function(rules, r, state)
    local list = r[1]
    if type(list) ~= "table" then return ("returned %s (expected a list of moves)"):format(errors.describe(list)) end
    for i = 1, #list do
      local ok, text = pcall(rules.move_text, rules, list[i], state)
      if not ok or type(text) ~= "string" then
        return ("returned a malformed move %s at position %d (its move_text gives no text for it)"):format(
          errors.describe(list[i]), i)
      end
    end
    return nil
  end,
}

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
      local list = {}
      for k = 1, rawlen(v) do list[k] = rawget(v, k) end
      r[i] = list
    else
      r[i] = limits.plain_value(v)
    end
  end
  return table.unpack(r, 1, r.n)
end

local function settle(where, hook, check, self, state, ok, ...)
  if not ok then hook_error((...), where) end
  local plain = PLAIN_RESULTS[hook]
  if check or plain then
    local r = table.pack(...)
    local problem = check and check(self, r, state)
    if problem then errors.rules_fault(where, hook, problem) end
    if plain then return plain_results(plain, r) end
  end
  return ...
end

-- Puts the checks of M.RESULT_CHECKS around the hooks a rule set file
-- defines itself (not those it inherits from boardscript's own tables,
-- `ours`), and makes an error raised in any of its functions the rule set's
-- fault, keeping a `core_count` declaration's hooks in step.
local function check_hooks(rules, where, ours)
  require("boardscript.hooks").rewrap(rules, ours, function(value, key)
    if checked[value] or key == "check" then return nil end
    local hook, check = tostring(key), M.RESULT_CHECKS[key]
    local function wrapper(self, ...)
      return settle(where, hook, check, self, (...), pcall(value, self, ...))
    end
    checked[wrapper] = true
    return wrapper
  end)
end

-- A path's directory, for `require` of modules next to a trusted user's
-- file (a restricted file's own `require` finds them; the real one must
-- never look in a restricted file's directory).
local function with_dir_on_path(path, f, ...)
  local dir = path:match("^(.*)/[^/]*$") or "."
  local saved = package.path
  package.path = ("%s/?.lua;%s"):format(dir, saved)
  local results = table.pack(pcall(f, ...))
  package.path = saved
  if not results[1] then error(results[2], 0) end
  return table.unpack(results, 2, results.n)
end

local function run_chunk(_, f, ...)
  return f(...)
end

--- Loads a rule set by built-in name or by path to a Lua file returning
-- one (a table of hooks, or a variant). Anything wrong is a user error
-- naming the file.
-- @tparam string|table name a built-in name, a path to a .lua file, or a rule set table
-- @treturn table the rule set
function M.load(name)
  if type(name) == "table" then return M.define(name) end
  if type(name) ~= "string" then
    errors.fail(("a rule set is a name or a path, not %s"):format(type(name)))
  end
  if M.BUILTIN[name] then
    return require(M.BUILTIN[name])
  end
  if name:match("%.lua$") then
    local where = "rules " .. name
    local chunk, err = sandbox.loadfile(name)
    if not chunk then errors.fail(err) end
    -- loaded, checked and wrapped on the file's budget: reading it runs its code
    local rules = limits.guard(where, "rules", where, function()
      local r = (sandbox.trusted() and with_dir_on_path or run_chunk)(name, chunk)
      if type(r) ~= "table" then
        fail(where, ("the file must return a rule set table (got %s)"):format(type(r)))
      end
      if sandbox.frozen(r) then return r end -- a built-in rule set, as it is
      local ours = M.own_tables()
      local hidden = require("boardscript.hooks").hidden_code(r, ours)
      if hidden then
        fail(where, ("%s: boardscript reads a rule set's tables outside any budget, so they may hold no code "
          .. "but their functions (an __index that is a table is fine)"):format(hidden))
      end
      if rawget(r, "name") == nil then r.name = name:match("([^/]*)%.lua$") end
      limits.wrap_rules(r, where, ours)
      r = M.define(r, where)
      check_hooks(r, where, ours)
      -- again: the checks (and the plain copies of results) run on the hook's budget
      limits.wrap_rules(r, where, ours)
      return r
    end)
    if sandbox.frozen(rules) then return rules end
    where_of[rules] = where
    return rules
  end
  errors.fail(("unknown rule set '%s' (built-in: %s, or a path to a .lua file)"):format(
    name, table.concat(M.builtin_names(), ", ")))
end

return M
