--- Replacing the functions of a rule set loaded from a file by wrappers
-- (budgets, result checks), one walk for every kind of wrapper.
local hooks = {}

--- Walks the rule set `rules` and the tables it inherits from (through
-- `__index`) that are not boardscript's own (`ours`: a set of tables; a
-- frozen library table is boardscript's own too), and
-- replaces each function field `fn` (key `key`) for which `make(fn, key)`
-- returns a function by that function. A `core_count` declaration's hooks
-- follow their replacements, so it still vouches for them. Returns `rules`.
function hooks.rewrap(rules, ours, make)
  local sandbox = require "boardscript.sandbox"
  local t = rules
  while type(t) == "table" and not ours[t] and not sandbox.frozen(t) do
    local replaced = {}
    for key, value in pairs(t) do
      local w = type(value) == "function" and make(value, key) or nil
      if w then
        replaced[value] = w
        t[key] = w
      end
    end
    local declared = rawget(t, "core_count")
    if type(declared) == "table" and type(declared.hooks) == "table" then
      for name, fn in pairs(declared.hooks) do
        if replaced[fn] then declared.hooks[name] = replaced[fn] end
      end
    end
    local meta = getmetatable(t)
    t = type(meta) == "table" and rawget(meta, "__index") or nil
  end
  return rules
end

-- The tables a rule set is made of: itself and those it inherits from
-- through `__index` (raw reads; at most 32).
local function chain(rules)
  local list, t = {}, rules
  while type(t) == "table" and #list < 32 do
    list[#list + 1] = t
    local meta = debug.getmetatable(t)
    t = type(meta) == "table" and rawget(meta, "__index") or nil
  end
  return list
end

-- The raw fields of `t` (a copy), the functions only when `functions`.
local function fields(t, functions)
  local copy = {}
  for key, value in next, t do
    if not functions or type(value) == "function" then copy[key] = value end
  end
  return copy
end

-- One table's record: its raw fields (all, or the functions only), its
-- metatable and that metatable's fields.
local function record_of(t, functions)
  local meta = debug.getmetatable(t)
  return { t = t, functions = functions, fields = fields(t, functions), meta = meta,
           meta_fields = type(meta) == "table" and fields(meta) or nil }
end

--- A record of rule set `rules` for hooks.restore: the functions of the
-- tables it is made of (itself and what it inherits through `__index`) and
-- their metatables; of boardscript's own tables among them (`ours`: a set,
-- the built-in rule sets and families) every field, and those of every
-- table in them, all the way down. A policy gets the rule set with its copy of the
-- game, and must not change what the game itself runs or reads outside
-- any budget.
-- @tparam table rules a rule set
-- @tparam[opt] table ours boardscript's own tables (a set)
-- @treturn table the record
function hooks.snapshot(rules, ours)
  local record, seen = {}, {}
  -- a table of boardscript's own and every table in it (at most 1,000)
  local function all_of(t)
    if seen[t] or #record >= 1000 then return end
    seen[t] = true
    record[#record + 1] = record_of(t, false)
    for _, value in next, t do
      if type(value) == "table" then all_of(value) end
    end
  end
  for _, t in ipairs(chain(rules)) do
    if ours and ours[t] then
      all_of(t)
    elseif not seen[t] then
      seen[t] = true
      record[#record + 1] = record_of(t, true)
    end
  end
  return record
end

-- Puts the raw fields of `t` back as `saved` holds them (`functions`: only
-- the function fields count); the first key that differed, or nil.
local function put_back(t, saved, functions)
  local changed
  for key, value in next, t do
    if (not functions or type(value) == "function") and saved[key] ~= value then
      changed = changed or key
      rawset(t, key, saved[key])
    end
  end
  for key, value in next, saved do
    if rawget(t, key) ~= value then
      changed = changed or key
      rawset(t, key, value)
    end
  end
  return changed
end

--- Puts back what hooks.snapshot recorded: fields changed, added or
-- removed, and metatables replaced or changed. Returns the name of the
-- first field that had changed (as text), or nil when nothing had.
-- @tparam table record what hooks.snapshot returned
-- @treturn ?string the field that had changed
function hooks.restore(record)
  local changed
  for _, entry in ipairs(record) do
    local t = entry.t
    if debug.getmetatable(t) ~= entry.meta then
      changed = changed or "(its metatable)"
      debug.setmetatable(t, entry.meta)
    end
    if entry.meta_fields and put_back(entry.meta, entry.meta_fields, false) then
      changed = changed or "(its metatable)"
    end
    local key = put_back(t, entry.fields, entry.functions)
    if key ~= nil then changed = changed or key end
  end
  return changed ~= nil and tostring(changed) or nil
end

-- The metamethods boardscript could set off by reading, iterating,
-- comparing, calling or printing a rule set's tables.
local WATCHED = { "__index", "__newindex", "__len", "__pairs", "__eq", "__lt", "__le", "__concat", "__call",
                  "__tostring", "__close" }

-- The chunk-name prefix of boardscript's own Lua files ("@/.../boardscript/").
local OURS = debug.getinfo(1, "S").source:match("^(@.*/)[^/]*$") or "@?"

-- Whether metamethod `m` is code of boardscript's own (the read-only views
-- the sandbox hands out).
local function our_code(m)
  return type(m) == "function" and debug.getinfo(m, "S").source:sub(1, #OURS) == OURS
end

--- The first place in rule set `rules` (its fields, the tables in them and
-- what it inherits, but not boardscript's own tables `ours` nor the
-- modules it loaded) whose metatable has code of the rule set's own that
-- boardscript could set off outside any budget (an `__index` that is a
-- function, an `__eq`, `__len`, `__tostring`, ...): a description, or nil
-- when there is none. An `__index` that is a table is what a variant is.
-- @tparam table rules a rule set
-- @tparam table ours boardscript's own tables (a set)
-- @treturn ?string where and what
function hooks.hidden_code(rules, ours)
  local loaded = {}
  for name, module in pairs(package.loaded) do
    if type(name) == "string" and name:match("^boardscript") then loaded[module] = true end
  end
  local sandbox = require "boardscript.sandbox"
  local seen = {}
  local function visit(t, path)
    -- a frozen table is a library table of boardscript's own (sandbox.freeze)
    if seen[t] or ours[t] or loaded[t] or sandbox.frozen(t) then return nil end
    seen[t] = true
    local meta = debug.getmetatable(t)
    if type(meta) == "table" then
      for _, name in ipairs(WATCHED) do
        local m = rawget(meta, name)
        if m ~= nil and not (name == "__index" and type(m) == "table") and not our_code(m) then
          return ("%s has a metatable with %s (a %s)"):format(path, name, type(m))
        end
      end
      -- what getmetatable answers instead: a table there is read as one
      local shown = rawget(meta, "__metatable")
      if type(shown) == "table" or type(shown) == "function" or type(shown) == "userdata" then
        return ("%s has a metatable with __metatable (a %s)"):format(path, type(shown))
      end
      local index = rawget(meta, "__index")
      if type(index) == "table" then
        local why = visit(index, path)
        if why then return why end
      end
    end
    for key, value in next, t do
      if type(value) == "table" then
        local name = (type(key) == "string" or math.type(key) == "integer") and tostring(key) or "?"
        local why = visit(value, path == "the rule set" and ("field '%s'"):format(name)
          or ("%s.%s"):format(path:sub(1, -2), name) .. "'")
        if why then return why end
      end
    end
    return nil
  end
  return visit(rules, "the rule set")
end

return hooks
