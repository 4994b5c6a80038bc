--- The normalised forms and engine games of descriptions, made once per
-- distinct option set and kept while the description lives (weak keys).
-- The caches are upvalues here, never fields a library table reaches, so
-- freezing boardscript's modules for restricted code leaves them working
-- and restricted code cannot reach them.
local core = require "boardscript.core"
local normalize = require "boardscript.describe.normalize"

local compile = {}

local normalised_of = setmetatable({}, { __mode = "k" }) -- desc -> { [key] = normalised }
local games_of = setmetatable({}, { __mode = "k" })      -- desc -> { [engine .. key] = G }
-- engine .. the normalised form as text -> G: a description loaded twice
-- (a record replayed, a worker) gets the same engine game, so its states compare
local shared = setmetatable({}, { __mode = "v" })

-- A canonical text of a normalised table (keys sorted).
local function canonical(v, out)
  if type(v) ~= "table" then
    out[#out + 1] = (math.type(v) or type(v)) .. ":" .. tostring(v)
    return out
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) < type(b) end
    return a < b
  end)
  out[#out + 1] = "{"
  for _, k in ipairs(keys) do
    out[#out + 1] = tostring(k) .. "="
    canonical(v[k], out)
  end
  out[#out + 1] = "}"
  return out
end

--- A canonical text of a normalised form (its keys sorted): equal forms
-- give equal texts (a learned evaluation records its checksum).
-- @tparam table n a normalised form
-- @treturn string the text
function compile.canonical_text(n)
  return table.concat(canonical(n, {}))
end

--- The options of `desc` resolved: the values given, then the defaults
-- of its `options` declarations (a new table).
-- @tparam table desc a description
-- @tparam[opt] table opts the values given
-- @treturn table the resolved options
function compile.resolve(desc, opts)
  local out = {}
  if type(desc.options) == "table" then
    for key, spec in pairs(desc.options) do
      if type(spec) == "table" and spec.default ~= nil then out[key] = spec.default end
    end
  end
  for key, value in pairs(opts or {}) do out[key] = value end
  return out
end

-- A text naming an option set: its keys sorted, each value with its type.
local function key_of(opts)
  local keys = {}
  for key in pairs(opts) do
    if type(key) == "string" then keys[#keys + 1] = key end
  end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = opts[key]
    parts[i] = ("%s=%s:%s"):format(key, math.type(v) or type(v), tostring(v))
  end
  return table.concat(parts, ";")
end

--- The normalised form of `desc` for options `opts` (defaults filled),
-- computed once per distinct option set. The same table each time: do not
-- change it.
-- @tparam table desc a description
-- @tparam[opt] table opts option values
-- @treturn table the normalised form
function compile.normalised(desc, opts)
  local resolved = compile.resolve(desc, opts)
  local key = key_of(resolved)
  local cache = normalised_of[desc]
  if not cache then
    cache = {}
    normalised_of[desc] = cache
  end
  local n = cache[key]
  if not n then
    n = normalize.read(desc, resolved)
    cache[key] = n
  end
  return n, key
end

--- The engine factories: "core" is the C engine, "reference" the Lua one.
-- @tparam string engine "core" or "reference"
-- @treturn function normalised -> an engine game
function compile.factory(engine)
  if engine == "reference" then
    local ref = require "boardscript.describe.reference"
    if type(ref) == "function" then return ref end
    return ref.dgame or ref.new or ref.compile
  end
  -- (the Lua reference stands in while the binding is not built in)
  return core.dgame or require("boardscript.describe.reference").dgame
end

--- The engine game of rule set `rules` (made by boardscript.describe) for
-- options `opts`, compiled once per distinct option set.
-- @tparam table rules a described rule set
-- @tparam[opt] table opts option values
-- @treturn userdata|table the engine game (G:start() makes a state)
function compile.game(rules, opts)
  local described = rules.described
  local desc = described.description
  local n, key = compile.normalised(desc, opts)
  local engine = described.engine == "reference" and "reference" or "core"
  local cache = games_of[desc]
  if not cache then
    cache = {}
    games_of[desc] = cache
  end
  local G = cache[engine .. "|" .. key]
  if not G then
    local text = engine .. "|" .. table.concat(canonical(n, {}))
    G = shared[text]
    if not G then
      local make = compile.factory(engine)
      if not make then error(("the %s engine of described games is not available"):format(engine), 2) end
      G = make(n)
      shared[text] = G
    end
    cache[engine .. "|" .. key] = G
  end
  return G
end

return compile
