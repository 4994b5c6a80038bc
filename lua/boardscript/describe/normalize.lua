--- A game description checked and read into its normalised form (the
-- contract both the C engine and the Lua reference read: docs/guide.md,
-- "Describing a game"). Every fault is a user error naming the
-- description and the field: `description 'x': field 'moves'[2] 'dirs':
-- unknown direction "fx" (...)`. A field that is a function is called with
-- the resolved options and its value read instead.
local errors = require "boardscript.errors"
local words = require "boardscript.describe.words"

local normalize = {}

-- The fields each part may have (anything else is a typo, refused).
local TOP = {}
for f in ("name size rows cols blocked pieces setup first moves must promote ends no_move score swap names "
  .. "values options description check_options"):gmatch("%S+") do TOP[f] = true end
TOP.score_unit = true -- what the score counts, for people: the match summary's unit
TOP.symmetry = true -- the board's maps the rules keep (boardscript.symmetry), not part of the game's form
local RULE_FIELDS = {
  place = "piece at dirs flips convert", step = "piece dirs to leave convert",
  slide = "piece dirs to leave convert arrow", leap = "piece offsets to leave convert", hop = "piece dirs chain",
}
local END_FIELDS = {
  line = "k exact dirs", connect = "dirs black white", reach = "zone piece", no_pieces = "", full = "result",
  plies = "n result",
}
local EDGES = { n = true, s = true, w = true, e = true }

local function one_of(value, choices, default)
  if value == nil then return default end
  for choice in choices:gmatch("%S+") do
    if value == choice then return value end
  end
  return nil, ("%s is not one of %s"):format(errors.describe(value), choices:gsub(" ", ", "))
end

-- A reader of one description with the options `opts`: bad(path, why)
-- raises; get(t, key) reads a field, calling it when it is a function.
local function reader(desc, opts)
  local r = {}
  local name = type(desc.name) == "string" and desc.name or "?"
  function r.bad(path, why)
    errors.fail(("description '%s': field %s: %s"):format(name, path, why))
  end
  function r.get(t, key)
    local v = t[key]
    if type(v) == "function" then
      local copy = {}
      for k, x in pairs(opts) do copy[k] = x end
      v = v(copy)
    end
    return v
  end
  function r.check(path, value, why)
    if value == nil then r.bad(path, why) end
    return value
  end
  return r
end

local function board_of(r, desc, n)
  local size, rows, cols = r.get(desc, "size"), r.get(desc, "rows"), r.get(desc, "cols")
  if size ~= nil then
    if rows ~= nil or cols ~= nil then r.bad("'size'", "give size or rows and cols, not both") end
    rows, cols = size, size
  end
  for _, f in ipairs { { "rows", rows }, { "cols", cols } } do
    if math.type(f[2]) ~= "integer" or f[2] < 1 or f[2] > 26 then
      r.bad(size ~= nil and "'size'" or ("'%s'"):format(f[1]),
        ("expected an integer 1..26 (got %s)"):format(errors.describe(f[2])))
    end
  end
  n.rows, n.cols = rows, cols
end

local function kinds_of(r, desc, n)
  local pieces = r.get(desc, "pieces") or { "stone" }
  if type(pieces) ~= "table" or #pieces == 0 or #pieces > 8 then
    r.bad("'pieces'", "expected a list of 1 to 8 kind names")
  end
  n.kinds, n.kind_of = {}, {}
  for i, kind in ipairs(pieces) do
    if type(kind) ~= "string" or not kind:match("^%a[%w_]*$") or n.kind_of[kind] then
      r.bad(("'pieces'[%d]"):format(i),
        ("%s is not a new kind name (letters, digits, _)"):format(errors.describe(kind)))
    end
    n.kinds[i], n.kind_of[kind] = kind, i
  end
end

-- A `piece` field: a set { [k] = true } (default: every kind, or the first with `first_only`).
local function kind_set(r, path, piece, n, first_only)
  if piece == nil then
    if first_only then return { [1] = true }, 1 end
    local all = {}
    for k = 1, #n.kinds do all[k] = true end
    return all
  end
  local list = type(piece) == "table" and piece or { piece }
  local set, last = {}, nil
  for _, kind in ipairs(list) do
    local k = n.kind_of[kind]
    if not k then
      r.bad(path, ("unknown kind %s (expected one of %s)"):format(errors.describe(kind), table.concat(n.kinds, " ")))
    end
    set[k], last = true, k
  end
  if not last then r.bad(path, "expected a kind name or a list of kind names") end
  return set, last
end

local function cells_into(r, path, list, n, code)
  local cells, why = words.indices(list, n.rows, n.cols)
  if not cells then r.bad(path, why) end
  for _, i in ipairs(cells) do
    if n.cells[i + 1] == -1 and code ~= -1 then r.bad(path, ("cell %d is blocked"):format(i)) end
    n.cells[i + 1] = code
  end
end

local function cells_of(r, desc, n)
  n.cells = {}
  for i = 1, n.rows * n.cols do n.cells[i] = 0 end
  local blocked = r.get(desc, "blocked")
  if blocked ~= nil then cells_into(r, "'blocked'", blocked, n, -1) end
  local setup = r.get(desc, "setup") or {}
  if type(setup) ~= "table" then r.bad("'setup'", "expected { black = CELLS, white = CELLS }") end
  for key in pairs(setup) do
    if key ~= "black" and key ~= "white" then r.bad("'setup'", ("unknown side %s"):format(errors.describe(key))) end
  end
  for side, key in ipairs { "black", "white" } do
    local given = r.get(setup, key)
    if type(given) == "table" and next(given) ~= nil and given[1] == nil then
      for kind, list in pairs(given) do
        local k = n.kind_of[kind]
          or r.bad(("'setup' '%s'"):format(key), ("unknown kind %s"):format(errors.describe(kind)))
        cells_into(r, ("'setup' '%s' '%s'"):format(key, kind), list, n, 2 * (k - 1) + side)
      end
    elseif given ~= nil then
      cells_into(r, ("'setup' '%s'"):format(key), given, n, side)
    end
  end
end

local function fields_known(r, path, t, allowed)
  for key in pairs(t) do
    if key ~= "op" and not (" " .. allowed .. " "):find(" " .. tostring(key) .. " ", 1, true) then
      r.bad(path, ("unknown field %s (expected %s)"):format(errors.describe(key), allowed ~= "" and allowed or "none"))
    end
  end
end

local function dirs_field(r, path, value, default)
  local both, why = words.both(value == nil and default or value)
  if not both then r.bad(path, why) end
  return both
end

local function rule_of(r, n, index, rule)
  local path = ("'moves'[%d]"):format(index)
  if type(rule) ~= "table" or not RULE_FIELDS[rule.op] then
    r.bad(path, "expected a move rule (d.place, d.step, d.slide, d.leap or d.hop)")
  end
  fields_known(r, path, rule, RULE_FIELDS[rule.op])
  local function f(key) return r.get(rule, key) end
  local function at(key) return ("%s '%s'"):format(path, key) end
  local op = rule.op
  local out = { op = op }
  out.kinds, out.kind = kind_set(r, at("piece"), f("piece"), n, op == "place")
  if op == "place" then
    local why
    out.at, why = one_of(f("at"), "empty adjacent column", "empty")
    r.check(at("at"), out.at, why)
  else
    out.kind = nil
  end
  if op == "leap" then
    local offsets, why = words.offsets(f("offsets"))
    if not offsets then r.bad(at("offsets"), why) end
    out.dirs = { offsets, offsets }
  else
    out.dirs = dirs_field(r, at("dirs"), f("dirs"), "all")
  end
  for _, key in ipairs { "flips", "convert", "arrow" } do
    if f(key) ~= nil then out[key] = dirs_field(r, at(key), f(key)) end
  end
  local why
  out.to, why = one_of(f("to"), "empty enemy free", op == "hop" and "empty" or "free")
  r.check(at("to"), out.to, why)
  for _, key in ipairs { "leave", "chain" } do
    local v = f(key)
    if v ~= nil and type(v) ~= "boolean" then r.bad(at(key), "expected true or false") end
    out[key] = v == true
  end
  return out
end

local function rules_of(r, desc, n)
  local moves = r.get(desc, "moves")
  if type(moves) ~= "table" or #moves == 0 or #moves > 31 then
    r.bad("'moves'", "expected a list of 1 to 31 move rules")
  end
  n.rules = {}
  for i = 1, #moves do n.rules[i] = rule_of(r, n, i, r.get(moves, i)) end
  local must = r.get(desc, "must")
  if must ~= nil and must ~= "capture" then r.bad("'must'", "expected \"capture\"") end
  n.must_capture = must == "capture"
  n.promote = {}
  for i, p in ipairs(r.get(desc, "promote") or {}) do
    local path = ("'promote'[%d]"):format(i)
    if type(p) ~= "table" then r.bad(path, "expected { piece =, to =, zone = }") end
    fields_known(r, path, p, "piece to zone")
    local _, from = kind_set(r, path .. " 'piece'", r.get(p, "piece") or r.bad(path .. " 'piece'", "required"), n)
    local _, to = kind_set(r, path .. " 'to'", r.get(p, "to") or r.bad(path .. " 'to'", "required"), n)
    local zone, why = words.zone(r.get(p, "zone"), n.rows, n.cols)
    n.promote[i] = { from = from, to = to, zone = r.check(path .. " 'zone'", zone, why) }
  end
end

-- One direction per axis, in the order n, ne, e, se.
local AXIS = {
  [-1] = { [-1] = 4, [0] = 1, [1] = 2 }, [0] = { [-1] = 3, [1] = 3 }, [1] = { [-1] = 2, [0] = 1, [1] = 4 },
}
local AXIS_DIR = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 } }

local function end_of(r, n, index, e)
  local path = ("'ends'[%d]"):format(index)
  if type(e) ~= "table" or not END_FIELDS[e.op] then
    r.bad(path, "expected an end (d.line, d.connect, d.reach, d.no_pieces, d.full or d.plies)")
  end
  fields_known(r, path, e, END_FIELDS[e.op])
  local function f(key) return r.get(e, key) end
  local function at(key) return ("%s '%s'"):format(path, key) end
  local out, why = { op = e.op }
  if e.op == "line" then
    out.k = f("k")
    if math.type(out.k) ~= "integer" or out.k < 2 or out.k > 26 then r.bad(at("k"), "expected an integer 2..26") end
    out.exact = f("exact") == true
    local seen = {}
    for _, d in ipairs(dirs_field(r, at("dirs"), f("dirs"), "all")[1]) do seen[AXIS[d[1]][d[2]]] = true end
    out.axes = {}
    for a = 1, 4 do
      if seen[a] then out.axes[#out.axes + 1] = { AXIS_DIR[a][1], AXIS_DIR[a][2] } end
    end
  elseif e.op == "connect" then
    out.dirs = dirs_field(r, at("dirs"), f("dirs"), "hex")[1]
    out.edges = {}
    for side, key in ipairs { "black", "white" } do
      local a, b = tostring(f(key) or (side == 1 and "n s" or "w e")):match("^%s*(%a)[%s,]+(%a)%s*$")
      if not (EDGES[a] and EDGES[b]) then r.bad(at(key), "expected two edge names of n s w e, as \"n s\"") end
      out.edges[side] = { a, b }
    end
  elseif e.op == "reach" then
    local zone
    zone, why = words.zone(f("zone"), n.rows, n.cols)
    out.zone = r.check(at("zone"), zone, why)
    out.kinds = kind_set(r, at("piece"), f("piece"), n)
  elseif e.op == "full" or e.op == "plies" then
    out.result, why = one_of(f("result"), "score draw", e.op == "full" and "score" or "draw")
    r.check(at("result"), out.result, why)
    if e.op == "plies" then
      out.n = f("n")
      if math.type(out.n) ~= "integer" or out.n < 1 then r.bad(at("n"), "expected a positive integer") end
    end
  end
  return out
end

local function ends_of(r, desc, n)
  local ends = r.get(desc, "ends") or {}
  if type(ends) ~= "table" then r.bad("'ends'", "expected a list of ends") end
  n.ends = {}
  for i = 1, #ends do n.ends[i] = end_of(r, n, i, r.get(ends, i)) end
end

local function rest_of(r, desc, n)
  local why
  local first = r.get(desc, "first")
  n.first = first == "white" and 2 or first == nil and 1 or first == "black" and 1
    or r.bad("'first'", "expected \"black\" or \"white\"")
  n.no_move, why = one_of(r.get(desc, "no_move"), "lose pass draw score", "lose")
  r.check("'no_move'", n.no_move, why)
  n.score, why = one_of(r.get(desc, "score"), "pieces territory none", "pieces")
  r.check("'score'", n.score, why)
  local swap = r.get(desc, "swap")
  if swap ~= nil and type(swap) ~= "boolean" then r.bad("'swap'", "expected true or false") end
  if swap and n.rows ~= n.cols then r.bad("'swap'", "the swap rule needs a square board") end
  n.swap = swap == true
  local names = r.get(desc, "names") or { "Black", "White" }
  if type(names) ~= "table" or type(names[1]) ~= "string" or type(names[2]) ~= "string" then
    r.bad("'names'", "expected two names, as { \"Black\", \"White\" }")
  end
  n.names = { names[1], names[2] }
  local values = r.get(desc, "values") or {}
  if type(values) ~= "table" then r.bad("'values'", "expected { kind = integer, ... }") end
  n.values = {}
  for k = 1, #n.kinds do n.values[k] = 1 end
  for kind, v in pairs(values) do
    local k = n.kind_of[kind] or r.bad("'values'", ("unknown kind %s"):format(errors.describe(kind)))
    if math.type(v) ~= "integer" or v < 0 or v > 1000 then
      r.bad(("'values' '%s'"):format(kind), "expected an integer 0..1000")
    end
    n.values[k] = v
  end
end

--- The normalised form of `desc` for the resolved options `opts` (a new
-- table), or a user error naming the field at fault.
-- @tparam table desc a description
-- @tparam table opts the option values, defaults filled
-- @treturn table the normalised form
function normalize.read(desc, opts)
  if type(desc) ~= "table" then errors.fail(("a description is a table, not %s"):format(type(desc))) end
  local r = reader(desc, opts)
  if type(desc.name) ~= "string" or desc.name == "" then
    errors.fail("description: field 'name': a name (a string) is required")
  end
  for key in pairs(desc) do
    if not TOP[key] then r.bad(("'%s'"):format(tostring(key)), "unknown field") end
  end
  -- for people (the rule set's `description`), not the engine: a string as it is, never a function
  if desc.description ~= nil and type(desc.description) ~= "string" then
    r.bad("'description'", ("expected a string, how the game is played (got %s)"):format(type(desc.description)))
  end
  if desc.score_unit ~= nil and (type(desc.score_unit) ~= "string" or desc.score_unit == "") then
    r.bad("'score_unit'", ("expected a string, what the score counts such as \"pieces\" (got %s)"):format(
      errors.describe(desc.score_unit)))
  end
  -- for boardscript's option checks (the rule set's `check_options`), not the engine: a function, never called here
  if desc.check_options ~= nil and type(desc.check_options) ~= "function" then
    r.bad("'check_options'", ("expected a function of the options returning nil or why they do not go together "
      .. "(got %s)"):format(type(desc.check_options)))
  end
  local n = { name = desc.name }
  board_of(r, desc, n)
  kinds_of(r, desc, n)
  cells_of(r, desc, n)
  rules_of(r, desc, n)
  ends_of(r, desc, n)
  rest_of(r, desc, n)
  n.kind_of = nil
  return n
end

return normalize
