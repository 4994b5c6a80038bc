--- Replacing the functions of a rule set loaded from a file by wrappers
-- (budgets, result checks), one walk for every kind of wrapper.
local hooks = {}

--- Walks the rule set `rules` and the tables it inherits from (through
-- `__index`) that are not boardscript's own (`ours`: a set of tables), and
-- replaces each function field `fn` (key `key`) for which `make(fn, key)`
-- returns a function by that function. A `core_count` declaration's hooks
-- follow their replacements, so it still vouches for them. Returns `rules`.
function hooks.rewrap(rules, ours, make)
  local t = rules
  while type(t) == "table" and not ours[t] do
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

--- A record of the functions of rule set `rules`, of the tables it
-- inherits from and of their metatables, for hooks.restore: a policy gets
-- the rule set with its copy of the game, and must not change the hooks
-- the game itself runs.
-- @tparam table rules a rule set
-- @treturn table the record
function hooks.snapshot(rules)
  local record = {}
  for i, t in ipairs(chain(rules)) do
    local meta = debug.getmetatable(t)
    record[i] = { t = t, functions = fields(t, true), meta = meta,
                  meta_fields = type(meta) == "table" and fields(meta) }
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

--- Puts back what hooks.snapshot recorded: functions changed, added or
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
    local key = put_back(t, entry.functions, true)
    if key ~= nil then changed = changed or key end
  end
  return changed ~= nil and tostring(changed) or nil
end

return hooks
