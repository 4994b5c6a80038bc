--- Reads a normalised described game (vocab29 section 2) into the
-- reference interpreter's game table, checking it lightly: an error names
-- the field ("normalised game 'x': field 'rules'[2].dirs: ...").
local compile = {}

local OPS = { place = true, step = true, slide = true, leap = true, hop = true }
local END_OPS = { line = true, connect = true, reach = true, no_pieces = true, full = true, plies = true }
local ENUMS = {
  no_move = { lose = true, pass = true, draw = true, score = true },
  score = { pieces = true, territory = true, none = true },
  at = { empty = true, adjacent = true, column = true },
  to = { empty = true, enemy = true, free = true },
  result = { score = true, draw = true },
}

local function fail(name, field, fmt, ...)
  error(("normalised game '%s': field %s: " .. fmt):format(name, field, ...), 0)
end

local function integer_in(name, field, v, lo, hi)
  if math.type(v) ~= "integer" or v < lo or v > hi then
    fail(name, field, "expected an integer from %d to %d, got %s", lo, hi, tostring(v))
  end
  return v
end

local function enum(name, field, v, set, default)
  if v == nil then return default end
  if not set[v] then fail(name, field, "unknown value %s", tostring(v)) end
  return v
end

-- A list of { dr, dc } per side: { list1, list2 }.
local function per_side_dirs(name, field, v)
  if type(v) ~= "table" or type(v[1]) ~= "table" or type(v[2]) ~= "table" then
    fail(name, field, "expected a list of directions per side")
  end
  for s = 1, 2 do
    for j, d in ipairs(v[s]) do
      if type(d) ~= "table" or math.type(d[1]) ~= "integer" or math.type(d[2]) ~= "integer" then
        fail(name, ("%s[%d][%d]"):format(field, s, j), "expected { dr, dc }")
      end
    end
  end
  return v
end

-- A zone: per side a list of 0-based cells, turned into sets of 1-based cells.
local function zone_sets(name, field, v, n)
  if type(v) ~= "table" or type(v[1]) ~= "table" or type(v[2]) ~= "table" then
    fail(name, field, "expected a list of cells per side")
  end
  local sets = { {}, {} }
  for s = 1, 2 do
    for j, i in ipairs(v[s]) do
      sets[s][integer_in(name, ("%s[%d][%d]"):format(field, s, j), i, 0, n - 1) + 1] = true
    end
  end
  return sets
end

local function kind_set(name, field, v, k)
  if v == nil then return nil end
  if type(v) ~= "table" then fail(name, field, "expected a set of kinds") end
  local set = {}
  for kind, on in pairs(v) do
    integer_in(name, field, kind, 1, k)
    set[kind] = on and true or nil
  end
  return set
end

local function read_rule(name, r, j, k)
  local field = ("'rules'[%d]"):format(j)
  if type(r) ~= "table" or not OPS[r.op] then
    fail(name, field .. ".op", "unknown operation %s", tostring(type(r) == "table" and r.op or r))
  end
  local rule = { op = r.op, leave = r.leave == true, chain = r.chain == true }
  if r.op == "place" then
    rule.kind = integer_in(name, field .. ".kind", r.kind or 1, 1, k)
    rule.at = enum(name, field .. ".at", r.at, ENUMS.at, "empty")
  else
    rule.kinds = kind_set(name, field .. ".kinds", r.kinds, k)
    if not rule.kinds then
      rule.kinds = {}
      for kind = 1, k do rule.kinds[kind] = true end
    end
    rule.to = enum(name, field .. ".to", r.to, ENUMS.to, "free")
  end
  if r.op ~= "place" or r.at == "adjacent" then rule.dirs = per_side_dirs(name, field .. ".dirs", r.dirs) end
  for _, key in ipairs { "flips", "convert", "arrow" } do
    if r[key] ~= nil then rule[key] = per_side_dirs(name, field .. "." .. key, r[key]) end
  end
  return rule
end

local function read_end(name, e, j, D)
  local field = ("'ends'[%d]"):format(j)
  if type(e) ~= "table" or not END_OPS[e.op] then
    fail(name, field .. ".op", "unknown end %s", tostring(type(e) == "table" and e.op or e))
  end
  local out = { op = e.op }
  if e.op == "line" then
    out.k = integer_in(name, field .. ".k", e.k, 1, 26)
    out.exact = e.exact == true
    out.axes = per_side_dirs(name, field .. ".axes", { e.axes, {} })[1]
  elseif e.op == "connect" then
    out.dirs = per_side_dirs(name, field .. ".dirs", { e.dirs, {} })[1]
    if type(e.edges) ~= "table" or type(e.edges[1]) ~= "table" or type(e.edges[2]) ~= "table" then
      fail(name, field .. ".edges", "expected two edge names per side")
    end
    out.edges = e.edges
  elseif e.op == "reach" then
    out.zone = zone_sets(name, field .. ".zone", e.zone, D.n)
    out.kinds = kind_set(name, field .. ".kinds", e.kinds, #D.kinds)
  elseif e.op == "full" or e.op == "plies" then
    out.result = enum(name, field .. ".result", e.result, ENUMS.result, e.op == "full" and "score" or "draw")
    if e.op == "plies" then out.n = integer_in(name, field .. ".n", e.n, 0, math.maxinteger) end
  end
  return out
end

--- The game table of a normalised description (errors name the field).
-- @tparam table t the normalised table
-- @treturn table the compiled game D
function compile.game(t)
  if type(t) ~= "table" then error("normalised game: expected a table, got " .. type(t), 0) end
  local name = type(t.name) == "string" and t.name or "?"
  local D = { name = name, neighbours = {} }
  D.rows = integer_in(name, "'rows'", t.rows, 1, 26)
  D.cols = integer_in(name, "'cols'", t.cols, 1, 26)
  D.n = D.rows * D.cols
  D.kinds = type(t.kinds) == "table" and t.kinds or { "stone" }
  if #D.kinds < 1 or #D.kinds > 8 then fail(name, "'kinds'", "expected 1 to 8 kind names") end
  if type(t.cells) ~= "table" or #t.cells ~= D.n then fail(name, "'cells'", "expected %d cells", D.n) end
  D.cells = {}
  for i = 1, D.n do D.cells[i] = integer_in(name, ("'cells'[%d]"):format(i), t.cells[i], -1, 2 * #D.kinds) end
  D.first = integer_in(name, "'first'", t.first or 1, 1, 2)
  if type(t.rules) ~= "table" or #t.rules > 31 then fail(name, "'rules'", "expected a list of at most 31 rules") end
  D.rules = {}
  for j, r in ipairs(t.rules) do D.rules[j] = read_rule(name, r, j, #D.kinds) end
  D.must_capture = t.must_capture == true
  D.promote = {}
  for j, p in ipairs(t.promote or {}) do
    local field = ("'promote'[%d]"):format(j)
    D.promote[j] = { from = integer_in(name, field .. ".from", p.from, 1, #D.kinds),
      to = integer_in(name, field .. ".to", p.to, 1, #D.kinds), zone = zone_sets(name, field .. ".zone", p.zone, D.n) }
  end
  D.ends = {}
  for j, e in ipairs(t.ends or {}) do D.ends[j] = read_end(name, e, j, D) end
  D.no_move = enum(name, "'no_move'", t.no_move, ENUMS.no_move, "lose")
  D.score = enum(name, "'score'", t.score, ENUMS.score, "pieces")
  D.swap = t.swap == true
  if D.swap and D.rows ~= D.cols then fail(name, "'swap'", "the swap rule needs a square board") end
  D.names = t.names or { "Black", "White" }
  D.values = t.values or {}
  return D
end

return compile
