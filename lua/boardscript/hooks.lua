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

return hooks
