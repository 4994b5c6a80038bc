--- Rule sets: tables of hooks over the core, validated once when loaded.
--
-- A rule set is called with method syntax (`rules:moves(state)`). Its
-- family ("board", the default, or "dots") supplies every optional hook it
-- does not define (notation, board text, sides, score, winner, clone,
-- can_pass), and a variant made with `rules.variant(base, {...})`
-- overrides only what differs and inherits the rest. See docs/guide.md
-- ("Writing a variant") for the whole contract.
--
-- This module is the registry: the built-in rule sets and examples, and
-- load, define and variant. What a rule set must be and the checks of its
-- hooks' results are boardscript.rules.check; the C path (vouch,
-- counted_in_core, searched_in_core, core_game) is
-- boardscript.rules.core_path; option parsing is boardscript.declared.
-- Their public names are re-exported here, so `rules.vouch`,
-- `rules.validate` and `rules.parse_option` work as they always did.
local check = require "boardscript.rules.check"
local core_path = require "boardscript.rules.core_path"
local declared = require "boardscript.declared"
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

--- Fields holding a direction set (checked with core.directions).
M.DIRECTION_FIELDS = { "legal_dirs", "flip_dirs" }

--- Built-in rule sets by name; anything else is loaded as a Lua file path.
M.BUILTIN = {
  reversi = "boardscript.rules.reversi",
  blocks = "boardscript.rules.blocks",
  othello = "boardscript.rules.othello",
  ["othello-strict"] = "boardscript.rules.othello_strict",
  flipflop = "boardscript.rules.flipflop",
  dots = "boardscript.rules.dots",
}

--- The example rule sets of lua/examples, by file name (the soak plays
-- them, serve offers them).
M.EXAMPLES = { "anti", "holes", "octagon", "orthogonal", "tictactoe", "misere_dots",
  "connect4", "breakthrough", "gomoku", "hex", "ataxx", "amazons", "draughts", "tictactoe_d" }

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

-- (documented where they are defined)
M.validate = check.validate
M.RESULT_CHECKS = check.RESULT_CHECKS
M.parse_option = declared.parse_option
M.resolve_options = declared.resolve_options
M.vouch = core_path.vouch
M.TREE_HOOKS = core_path.TREE_HOOKS
M.core_game = core_path.core_game
M.counted_in_core = core_path.counted_in_core
M.searched_in_core = core_path.searched_in_core
M.moves_in_core = core_path.moves_in_core

local function fail(where, message)
  errors.fail(("%s: %s"):format(where, message))
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
  local family = M.FAMILIES.board
  local rows, cols = family.shape(board)
  return family.on_board(rows, row, col, cols)
end

--- The rule set tables of boardscript's own (built-in rule sets loaded so
-- far and the families), as a set: their hooks are never put on budget.
-- @treturn table a set: rule set table -> true
function M.own_tables()
  local set = {}
  for _, family in pairs(M.FAMILIES) do set[family] = true end
  -- the hooks every described game inherits (boardscript.describe)
  local described = package.loaded["boardscript.describe.hooks"]
  if type(described) == "table" then set[described] = true end
  for _, module in pairs(M.BUILTIN) do
    local loaded = package.loaded[module]
    if type(loaded) == "table" then set[loaded] = true end
  end
  return set
end


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
      check.wrap_hooks(r, where, ours)
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
