--- Read-only library tables, for the trust boundary (boardscript.sandbox,
-- docs/decisions.md "A trust boundary by construction").
--
-- `freeze(t)` makes a table read-only for everyone, in place and all the
-- way down: its fields move to a hidden table the original now reads
-- through (`__index`), so it keeps its identity (boardscript recognises
-- built-in rule sets by it) while no assignment, `table.insert` or
-- restricted `rawset` reaches it. `view(t)` is a read-only stand-in for a
-- table that cannot be frozen in place (a metatable: its metamethods must
-- stay raw fields), handed to restricted code instead of it.
local freeze = {}

local contents_of = setmetatable({}, { __mode = "k" }) -- frozen table -> its hidden fields
local frozen_of = setmetatable({}, { __mode = "k" })   -- hidden fields -> the frozen table
local name_of = setmetatable({}, { __mode = "k" })     -- frozen table or view -> name for messages
local target_of = setmetatable({}, { __mode = "k" })   -- view -> the table it shows
local view_of = setmetatable({}, { __mode = "k" })     -- table -> its view

-- Keys that make a table a metatable (Lua 5.4's metamethods and fields).
local METAMETHODS = {}
for name in ("index newindex call gc close mode name tostring len eq lt le concat unm add sub mul div mod pow "
  .. "idiv band bor bxor shl shr bnot pairs metatable"):gmatch("%S+") do
  METAMETHODS["__" .. name] = true
end

-- Metamethods a frozen table keeps from its own metatable (the rest it
-- reads through its hidden fields' metatable).
local KEPT = { "__call", "__tostring", "__eq", "__lt", "__le", "__concat", "__unm", "__add", "__sub", "__mul",
  "__div", "__mod", "__pow", "__idiv", "__band", "__bor", "__bxor", "__shl", "__shr", "__bnot", "__name" }

local function refuse_change(name, key)
  error(("%s.%s cannot be changed: boardscript's library tables are read-only (restricted code is loaded)")
    :format(name or "a library table", tostring(key)), 3)
end

--- Whether `t` is a frozen table.
-- @param t any value
-- @treturn boolean
function freeze.frozen(t)
  return contents_of[t] ~= nil
end

--- Whether restricted code must not change `t` (raw or through its
-- metatable): a frozen table, the hidden fields of one, or a view.
-- @param t any value
-- @treturn boolean
function freeze.protected(t)
  return contents_of[t] ~= nil or frozen_of[t] ~= nil or target_of[t] ~= nil
end

--- How messages name a frozen table or a view ("boardscript.rules"), or nil.
-- @param t any value
-- @treturn ?string
function freeze.name(t)
  return name_of[t] or (frozen_of[t] and name_of[frozen_of[t]])
end

--- The table a view shows, or `t` itself.
-- @param t any value
-- @return the viewed table, or t
function freeze.target(t)
  return target_of[t] or t
end

--- Freezes table `t` named `name` (for messages) and every table reachable
-- from it through keys, values and metatables (functions are left as they
-- are: their upvalues are their module's business). Returns `t`. A table
-- holding metamethods (a class used as a metatable) cannot be frozen in
-- place: that raises, naming it (keep the metatable out of the module's
-- fields).
-- @param t a table (anything else is returned as it is)
-- @tparam[opt] string name how messages name it ("boardscript.rules")
-- @return t
function freeze.freeze(t, name)
  if type(t) ~= "table" or contents_of[t] or frozen_of[t] or target_of[t] then return t end
  name = name or "a library table"
  local contents = {}
  for key, value in next, t do
    if type(key) == "string" and METAMETHODS[key] then
      error(("%s holds the metamethod %s: a metatable cannot be frozen in place"):format(name, key), 2)
    end
    contents[key] = value
  end
  local meta = debug.getmetatable(t)
  if meta and rawget(meta, "__mode") then
    error(("%s is a weak table (a cache?): library data reachable from restricted code must be constant")
      :format(name), 2)
  end
  for key in next, contents do rawset(t, key, nil) end
  if meta then debug.setmetatable(contents, meta) end
  local shell = {
    __index = contents,
    __newindex = function(_, key) refuse_change(name, key) end,
    -- (an iterator of its own: `pairs` returning `next, contents` would
    -- hand the hidden fields out as its state)
    __pairs = function()
      local key
      return function()
        local value
        key, value = next(contents, key)
        return key, value
      end
    end,
    __len = function() return #contents end,
  }
  if meta then
    for _, key in ipairs(KEPT) do shell[key] = rawget(meta, key) end
  end
  -- getmetatable still gives this metatable; setmetatable (boardscript's
  -- own rules.variant handed a frozen table as overrides) raises
  shell.__metatable = shell
  contents_of[t], frozen_of[contents], name_of[t] = contents, t, name
  debug.setmetatable(t, shell)
  for key, value in next, contents do
    freeze.freeze(key, name .. "[key]")
    freeze.freeze(value, type(key) == "string" and (name .. "." .. key) or (name .. "[" .. tostring(key) .. "]"))
  end
  if meta then
    for key, value in next, meta do
      if type(value) == "table" then freeze.freeze(value, ("%s (metatable %s)"):format(name, tostring(key))) end
    end
  end
  return t
end

--- A read-only stand-in for `t` as restricted code sees it: a frozen table
-- as it is; the hidden fields of one as the frozen table; any other table
-- as a view (reading gives views of its values, assigning raises). Not
-- a table: `v` itself.
-- @param v any value
-- @tparam[opt] string name how messages name it
-- @return the stand-in
function freeze.view(v, name)
  if type(v) ~= "table" then return v end
  if contents_of[v] or target_of[v] then return v end
  if frozen_of[v] then return frozen_of[v] end
  local existing = view_of[v]
  if existing then return existing end
  name = name or "a library table"
  local view = setmetatable({}, {
    __index = function(_, key) return freeze.view(v[key], name) end,
    __newindex = function(_, key) refuse_change(name, key) end,
    __pairs = function()
      local key
      return function()
        local value
        key, value = next(v, key)
        if key == nil then return nil end
        return freeze.view(key, name), freeze.view(value, name)
      end
    end,
    __len = function() return #v end,
    __metatable = false,
  })
  view_of[v], target_of[view], name_of[view] = view, v, name
  return view
end

return freeze
