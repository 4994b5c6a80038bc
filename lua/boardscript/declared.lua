--- Declared options, of rule sets (`options = { size = {...} }`, given as
-- `--opt key=value`) and of policies (`mcts:playouts=500`) alike: what a
-- declaration may say, how a value is checked against it, how text becomes
-- a value, and how one reads in help and messages. A declaration is a table
-- { type = "integer" | "number" | "boolean" | "string" (default), min =,
-- max =, even =, choices = { ... }, check = function(value) -> ok, why,
-- default =, help = }. A rule set's options given by name are parsed and
-- resolved here too (declared.parse_option, declared.resolve_options; the
-- registry, boardscript.rules, re-exports both), and checked together by
-- its `check_options` hook when it has one (declared.refusal).
local errors = require "boardscript.errors"

local declared = {}

--- The integer `text` writes as an optional sign and digits, or nil (a
-- fraction, an exponent, spaces or a value past the integers are not one):
-- how every integer option is read, here and on the command line
-- (boardscript.options).
-- @tparam string text the text
-- @treturn ?integer
function declared.integer(text)
  return text:match("^[+-]?%d+$") and math.tointeger(tonumber(text)) or nil
end

--- The types a declaration may give.
declared.TYPES = { integer = true, number = true, boolean = true, string = true }

--- Checks one value against its declaration `spec`: returns the value, or
-- nil and what is wrong ("x is not an integer", "0 is out of range 1..30").
function declared.check(spec, value)
  local kind = spec.type or "string"
  if kind == "integer" then
    if math.type(value) ~= "integer" then return nil, ("%s is not an integer"):format(tostring(value)) end
  elseif type(value) ~= kind then
    return nil, ("%s is not a %s"):format(tostring(value), kind)
  end
  if spec.min and value < spec.min or spec.max and value > spec.max then
    return nil, ("%s is out of range %s..%s"):format(value, spec.min or "", spec.max or "")
  end
  if spec.even and value % 2 ~= 0 then return nil, ("%d is odd (it must be even)"):format(value) end
  if spec.choices then
    for _, choice in ipairs(spec.choices) do
      if choice == value then return value end
    end
    return nil, ("%s is not one of %s"):format(tostring(value), table.concat(spec.choices, ", "))
  end
  if spec.check then
    local ok, why = spec.check(value)
    if not ok then return nil, why or ("%s is not valid"):format(tostring(value)) end
  end
  return value
end

--- Checks a table of declarations once, when its owner is made or loaded:
-- each a table of a known type, each default (or `value_of(key)`, the
-- owner's own value of the option, when it gives one) valid. Returns nil,
-- or the message of the first fault: "field 'options.size' must be a
-- table ...", "field 'size': 3 is odd (it must be even)". `value_field`
-- names the field of a value in a message (default: "options.KEY: default").
function declared.validate(options, value_of, value_field)
  if options == nil then return nil end
  if type(options) ~= "table" then return "field 'options' must be a table of option declarations" end
  for key, spec in pairs(options) do
    if type(spec) ~= "table" or not declared.TYPES[spec.type or "string"] then
      return ("field 'options.%s' must be a table with type integer, number, boolean or string"):format(key)
    end
    local value = value_of and value_of(key)
    if value == nil then value = spec.default end
    if value ~= nil then
      local ok, why = declared.check(spec, value)
      if ok == nil then
        return value_field and ("field '%s': %s"):format(key, why)
          or ("field 'options.%s': default %s"):format(key, why)
      end
    end
  end
  return nil
end

--- The sorted names of the options declared in `options` (a table of
-- declarations, or nil), joined for a message: "c, playouts, time" or "none".
function declared.names(options)
  local known = {}
  for name in pairs(options or {}) do known[#known + 1] = name end
  table.sort(known)
  return #known > 0 and table.concat(known, ", ") or "none"
end

--- Converts the text `text` of option `key=text` by its declaration `spec`
-- (by type: a boolean is true, yes, 1, false, no or 0) and checks it:
-- returns the value, or raises a user error naming the option
-- (`option depth=x: not an integer`, `option depth: 0 is out of range 1..30`).
function declared.convert(spec, key, text)
  local kind, value = spec.type or "string", text
  if kind == "integer" then
    value = declared.integer(text)
  elseif kind == "number" then
    value = tonumber(text)
  elseif kind == "boolean" then
    value = ({ ["true"] = true, yes = true, ["1"] = true, ["false"] = false, no = false, ["0"] = false })[text]
  end
  if value == nil then
    errors.fail(("option %s=%s: not %s %s"):format(key, text, kind == "integer" and "an" or "a", kind))
  end
  local ok, why = declared.check(spec, value)
  if ok == nil then errors.fail(("option %s: %s"):format(key, why)) end
  return value
end

--- A declaration's kind as help text: "integer 4..26 even",
-- "string one of white, black".
function declared.kind(spec)
  local parts = { spec.type or "string" }
  if spec.min or spec.max then parts[#parts + 1] = ("%s..%s"):format(spec.min or "", spec.max or "") end
  if spec.even then parts[#parts + 1] = "even" end
  if spec.choices then parts[#parts + 1] = "one of " .. table.concat(spec.choices, ", ") end
  return table.concat(parts, " ")
end

-- ---- the options of a rule set: its `options` declarations, its own fields ----

--- Converts the text of
-- `--opt key=value` for option `key` of `rules`:
-- returns the value, or raises a user error naming the option.
-- @tparam table rules a rule set
-- @tparam string key the option's name
-- @tparam string text the value as typed
-- @treturn integer|number|boolean|string the value, of the declared type
function declared.parse_option(rules, key, text)
  local spec = (rules.options or {})[key]
  if not spec then
    errors.fail(("rule set '%s' has no option '%s' (options: %s)"):format(
      rules.name or "?", key, declared.names(rules.options)))
  end
  return declared.convert(spec, key, text)
end

--- The option values `opts` as text for a message, sorted by name:
-- "k=5, size=3".
-- @tparam table opts option values, by name
-- @treturn string
function declared.values_text(opts)
  local keys = {}
  for key in pairs(opts) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  for i, key in ipairs(keys) do keys[i] = ("%s=%s"):format(key, tostring(opts[key])) end
  return table.concat(keys, ", ")
end

-- What a `check_options` hook answers when the options go together.
local HOOK_ANSWER = "nil or true when the options go together, else a string (or false and a string) saying why not"

--- Why the options `opts` of `rules` (resolved: every option's value) do
-- not go together, by the rule set's `check_options(self, opts)` hook
-- (which gets a copy of them); nil when they do or it has no such hook.
-- The hook answers nil or true when they go together, else a string, or
-- false and a string, saying why not. Any other answer is the rule set's
-- fault (`where` names it, default "rule set 'NAME'").
-- @tparam table rules a rule set
-- @tparam table opts the option values, by name
-- @tparam[opt] string where how a fault names the rule set ("rules FILE")
-- @treturn ?string why not
function declared.refusal(rules, opts, where)
  local hook = rules.check_options
  if hook == nil then return nil end
  where = where or ("rule set '%s'"):format(tostring(rules.name))
  if type(hook) ~= "function" then
    errors.rules_fault(where, "check_options", ("is %s, not a function"):format(type(hook)))
  end
  local copy = {}
  for key, value in pairs(opts) do copy[key] = value end
  local ok, why = hook(rules, copy)
  if ok == nil or ok == true then return nil end
  if type(ok) == "string" then return ok end
  if ok == false and type(why) == "string" then return why end
  errors.rules_fault(where, "check_options", ("returned %s%s (expected %s)"):format(errors.describe(ok),
    ok == false and (", " .. errors.describe(why)) or "", HOOK_ANSWER))
end

--- The options a game of `rules` is set up with: each declared option is
-- `given[key]` if present, else the rule set's own field of that name (a
-- variant's `size = 10`), else the declaration's default. Every value is
-- checked, then all of them together by the rule set's `check_options`
-- hook (declared.refusal); an undeclared key, a bad value or a combination
-- the hook refuses raises a user error naming it ("rules gomoku.lua:
-- options k=5, size=3: ...", `where` naming the rule set, default "rule
-- set 'NAME'").
-- @tparam table rules a rule set
-- @tparam[opt] table given option values, by name
-- @tparam[opt] string where how a message names the rule set ("rules FILE")
-- @treturn table the options, by name
function declared.resolve_options(rules, given, where)
  local opts = declared.resolved(rules, given)
  local why = declared.refusal(rules, opts, where)
  if why then
    errors.fail(("%s: options %s: %s"):format(where or ("rule set '%s'"):format(tostring(rules.name)),
      declared.values_text(opts), why))
  end
  return opts
end

--- declared.resolve_options without the check of the options together
-- (each value is checked): the values a rule set's `check_options` is
-- asked about.
-- @tparam table rules a rule set
-- @tparam[opt] table given option values, by name
-- @treturn table the options, by name
function declared.resolved(rules, given)
  local specs = rules.options or {}
  local opts = {}
  for key, value in pairs(given or {}) do
    if not specs[key] then declared.parse_option(rules, key, "") end -- raises: unknown option
    opts[key] = value
  end
  for key, spec in pairs(specs) do
    if opts[key] == nil then
      local value = rules[key]
      if value == nil then value = spec.default end
      opts[key] = value
    end
    if opts[key] ~= nil then
      local ok, why = declared.check(spec, opts[key])
      if ok == nil then errors.fail(("option %s: %s"):format(key, why)) end
    end
  end
  return opts
end

return declared
