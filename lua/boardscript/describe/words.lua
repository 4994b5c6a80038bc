--- The words of a game description (boardscript.describe): direction
-- names and sets, leap offsets, cell names, cell lists and zones, each
-- read into the normalised form of docs/guide.md ("Describing a game").
-- A reader returns its value, or nil and what is wrong (the caller names
-- the field).
local words = {}

--- The eight absolute directions in compass order, with their offsets.
words.COMPASS = { "n", "ne", "e", "se", "s", "sw", "w", "nw" }
words.OFFSET = {
  n = { -1, 0 }, ne = { -1, 1 }, e = { 0, 1 }, se = { 1, 1 },
  s = { 1, 0 }, sw = { 1, -1 }, w = { 0, -1 }, nw = { -1, -1 },
}
local ORDER = {}
for i, name in ipairs(words.COMPASS) do ORDER[name] = i end

-- The side-relative names, per side (1 black: forward is s; 2 white: n).
local RELATIVE = {
  f = { "s", "n" }, b = { "n", "s" }, fe = { "se", "ne" }, fw = { "sw", "nw" },
  be = { "ne", "se" }, bw = { "nw", "sw" },
}

--- The named direction sets.
words.SETS = {
  all = "n ne e se s sw w nw", orthogonal = "n e s w", diagonal = "ne se sw nw",
  hex = "n ne e s sw w", forward = "f fe fw",
}

local EXPECTED = "expected n ne e se s sw w nw f b fe fw be bw or a named set"

local function names_of(set)
  if type(set) == "string" then
    local list = {}
    for name in set:gmatch("[^%s,]+") do list[#list + 1] = name end
    return list
  end
  if type(set) == "table" then
    local list = {}
    for i = 1, #set do list[i] = set[i] end
    return list
  end
  return nil
end

--- A direction set resolved for `side` (1 or 2): a list of `{dr, dc}` in
-- compass order, duplicates removed; or nil and what is wrong.
-- @param set a string of names, a list of names or a named set
-- @tparam integer side 1 (black) or 2 (white)
-- @treturn ?table the offsets
-- @treturn ?string what is wrong
function words.dirs(set, side)
  local list = names_of(set)
  if not list then return nil, ("expected a direction set (a string or a list of names), got %s"):format(type(set)) end
  local seen, depth = {}, 0
  local function add(name)
    if type(name) ~= "string" then return ("unknown direction %s (%s)"):format(tostring(name), EXPECTED) end
    if words.SETS[name] then
      depth = depth + 1
      for sub in words.SETS[name]:gmatch("%S+") do
        local why = depth < 3 and add(sub)
        if why then return why end
      end
      depth = depth - 1
      return nil
    end
    local absolute = RELATIVE[name] and RELATIVE[name][side] or name
    if not ORDER[absolute] then return ("unknown direction %q (%s)"):format(name, EXPECTED) end
    seen[absolute] = true
    return nil
  end
  for _, name in ipairs(list) do
    local why = add(name)
    if why then return nil, why end
  end
  local out = {}
  for _, name in ipairs(words.COMPASS) do
    if seen[name] then out[#out + 1] = { words.OFFSET[name][1], words.OFFSET[name][2] } end
  end
  if #out == 0 then return nil, "empty direction set" end
  return out
end

--- A direction set resolved for both sides: `{ side1, side2 }`, or nil, why.
-- @param set a direction set
-- @treturn ?table
-- @treturn ?string
function words.both(set)
  local one, why = words.dirs(set, 1)
  if not one then return nil, why end
  return { one, (words.dirs(set, 2)) }
end

local KNIGHT = { { -2, -1 }, { -2, 1 }, { -1, -2 }, { -1, 2 }, { 1, -2 }, { 1, 2 }, { 2, -1 }, { 2, 1 } }

--- Leap offsets: a list of `{dr, dc}`, "ring2" or "knight"; a new list,
-- or nil and what is wrong.
-- @param offsets the offsets as written
-- @treturn ?table
-- @treturn ?string
function words.offsets(offsets)
  local out = {}
  if offsets == "ring2" then
    for dr = -2, 2 do
      for dc = -2, 2 do
        if math.abs(dr) == 2 or math.abs(dc) == 2 then out[#out + 1] = { dr, dc } end
      end
    end
    return out
  elseif offsets == "knight" then
    for i, o in ipairs(KNIGHT) do out[i] = { o[1], o[2] } end
    return out
  elseif type(offsets) ~= "table" or #offsets == 0 then
    return nil, "expected a list of {dr, dc}, \"ring2\" or \"knight\""
  end
  for i, o in ipairs(offsets) do
    if type(o) ~= "table" or math.type(o[1]) ~= "integer" or math.type(o[2]) ~= "integer"
      or math.abs(o[1]) > 25 or math.abs(o[2]) > 25 or (o[1] == 0 and o[2] == 0) then
      return nil, ("offset %d: expected {dr, dc}, two integers -25..25, not both 0"):format(i)
    end
    out[i] = { o[1], o[2] }
  end
  return out
end

-- ---- cells ----

local function cell_name(text)
  local letter, digits = text:match("^(%a)(%d%d?)$")
  if not letter then return nil end
  local row = tonumber(digits)
  if row < 1 or row > 26 then return nil end
  return row, letter:lower():byte() - 96
end

local function add_token(out, token)
  local body, filter = token:match("^([^/]*)/(%a+)$")
  body = body or token
  if filter and filter ~= "dark" and filter ~= "light" then
    return ("unknown filter /%s in %q (expected /dark or /light)"):format(filter, token)
  end
  local from, to = body:match("^([^:]+):([^:]+)$")
  local r1, c1 = cell_name(from or body)
  local r2, c2 = cell_name(to or body)
  if not r1 or not r2 then return ("%q is no cell (expected a cell name like a1, or a1:h2)"):format(token) end
  for r = math.min(r1, r2), math.max(r1, r2) do
    for c = math.min(c1, c2), math.max(c1, c2) do
      local odd = (r + c) % 2 == 1
      if not filter or (filter == "dark") == odd then out[#out + 1] = { r, c } end
    end
  end
  return nil
end

--- A cell list as `{ {row, col}, ... }` (in the order written; rectangles
-- row by row), or nil and what is wrong. The board's bounds are not
-- checked here.
-- @param list a string of cell names and rectangles, or a list of strings and {row, col} pairs
-- @treturn ?table
-- @treturn ?string
function words.cells(list)
  local out = {}
  local items = type(list) == "string" and { list } or list
  if type(items) ~= "table" then return nil, ("expected a cell list, got %s"):format(type(list)) end
  for _, item in ipairs(items) do
    if type(item) == "string" then
      for token in item:gmatch("[^%s,]+") do
        local why = add_token(out, token)
        if why then return nil, why end
      end
    elseif type(item) == "table" and math.type(item[1]) == "integer" and math.type(item[2]) == "integer" then
      out[#out + 1] = { item[1], item[2] }
    else
      return nil, ("expected cell names or {row, col} pairs, got %s"):format(type(item))
    end
  end
  return out
end

--- A cell list as sorted 0-based cell indices of a rows x cols board
-- (duplicates removed), or nil and what is wrong.
-- @param list a cell list
-- @tparam integer rows the rows
-- @tparam integer cols the columns
-- @treturn ?table
-- @treturn ?string
function words.indices(list, rows, cols)
  local cells, why = words.cells(list)
  if not cells then return nil, why end
  local seen, out = {}, {}
  for _, cell in ipairs(cells) do
    local r, c = cell[1], cell[2]
    if r < 1 or c < 1 or r > rows or c > cols then
      return nil, ("cell %s is off the %d x %d board"):format(
        (c >= 1 and c <= 26) and (string.char(96 + c) .. r) or ("{" .. r .. ", " .. c .. "}"), rows, cols)
    end
    local i = (r - 1) * cols + (c - 1)
    if not seen[i] then
      seen[i] = true
      out[#out + 1] = i
    end
  end
  table.sort(out)
  return out
end

local function row_cells(row, cols)
  local out = {}
  for c = 1, cols do out[c] = (row - 1) * cols + (c - 1) end
  return out
end

--- A zone for both sides: `{ {indices}, {indices} }`, or nil and what is
-- wrong. "far" is the last row in a side's forward direction, "near" its
-- first; `{ black = CELLS, white = CELLS }` per side; any other cell list
-- is both sides'.
-- @param zone the zone as written
-- @tparam integer rows the rows
-- @tparam integer cols the columns
-- @treturn ?table
-- @treturn ?string
function words.zone(zone, rows, cols)
  if zone == "far" then return { row_cells(rows, cols), row_cells(1, cols) } end
  if zone == "near" then return { row_cells(1, cols), row_cells(rows, cols) } end
  if type(zone) == "table" and (zone.black ~= nil or zone.white ~= nil) then
    local out = {}
    for side, key in ipairs { "black", "white" } do
      local why
      out[side], why = words.indices(zone[key] or {}, rows, cols)
      if not out[side] then return nil, ("%s: %s"):format(key, why) end
    end
    return out
  end
  if zone == nil then return nil, "a zone is required (\"far\", \"near\", a cell list or {black =, white =})" end
  local both, why = words.indices(zone, rows, cols)
  if not both then return nil, why end
  return { both, table.move(both, 1, #both, 1, {}) }
end

return words
