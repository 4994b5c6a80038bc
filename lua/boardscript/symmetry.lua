--- The symmetries of a game's board: the maps of a rows x cols board onto
-- itself under which its rules do not change, declared by a rule set
-- (`symmetry = "none" | "mirror" | "flip" | "rotate180" | "square"`, or a
-- list of map names) or, undeclared, worked out for the capture rule sets
-- from their direction sets (every other game: none). `train` shares a
-- learned evaluation's tables between the images of a pattern under them,
-- `match` draws no random opening that is the image of an earlier pair's,
-- and `soak` checks them by playing each game's image beside it.
--
-- Maps (a cell r, c of a rows x cols board, 1-based):
--
--     identity        r, c
--     mirror          r, cols + 1 - c          (left and right)
--     flip            rows + 1 - r, c          (top and bottom)
--     rotate180       rows + 1 - r, cols + 1 - c
--     transpose       c, r                     (square boards only)
--     antitranspose   cols + 1 - c, rows + 1 - r
--     rotate90        c, rows + 1 - r          (a quarter turn clockwise)
--     rotate270       cols + 1 - c, r
--
-- Group names: "none" (identity alone), "mirror", "flip", "rotate180" (the
-- identity and that map), "square" (every map of the board's shape: all
-- eight on a square, the first four on a rectangle). A list names maps;
-- the group is what they generate.
local errors = require "boardscript.errors"

local symmetry = {}

-- Each map: the cell it sends (r, c) to, and its action on a direction
-- (dr, dc); square = only where rows == cols.
local MAPS = {
  identity = { cell = function(r, c) return r, c end, dir = function(dr, dc) return dr, dc end },
  mirror = { cell = function(r, c, _, cols) return r, cols + 1 - c end, dir = function(dr, dc) return dr, -dc end },
  flip = { cell = function(r, c, rows) return rows + 1 - r, c end, dir = function(dr, dc) return -dr, dc end },
  rotate180 = { cell = function(r, c, rows, cols) return rows + 1 - r, cols + 1 - c end,
                dir = function(dr, dc) return -dr, -dc end },
  transpose = { square = true, cell = function(r, c) return c, r end, dir = function(dr, dc) return dc, dr end },
  antitranspose = { square = true, cell = function(r, c, rows, cols) return cols + 1 - c, rows + 1 - r end,
                    dir = function(dr, dc) return -dc, -dr end },
  rotate90 = { square = true, cell = function(r, c, rows) return c, rows + 1 - r end,
               dir = function(dr, dc) return dc, -dr end },
  rotate270 = { square = true, cell = function(r, c, _, cols) return cols + 1 - c, r end,
                dir = function(dr, dc) return -dc, dr end },
}

--- Every map's name, the identity first.
symmetry.NAMES = { "identity", "mirror", "flip", "rotate180", "transpose", "antitranspose", "rotate90", "rotate270" }
local ORDER = {}
for i, name in ipairs(symmetry.NAMES) do ORDER[name] = i end

--- The group names and the maps that generate each.
symmetry.GROUPS = {
  none = {}, mirror = { "mirror" }, flip = { "flip" }, rotate180 = { "rotate180" },
  square = { "mirror", "flip", "transpose" },
}

--- Where map `name` sends cell (r, c) of a rows x cols board.
-- @tparam string name a map
-- @treturn integer the row
-- @treturn integer the column
function symmetry.cell(name, r, c, rows, cols)
  return MAPS[name].cell(r, c, rows, cols)
end

-- The map that is `a` after `b`, found by where it sends one cell of a
-- 5 x 5 square (each of the eight sends (1, 2) somewhere else).
local function compose(a, b)
  local r, c = MAPS[b].cell(1, 2, 5, 5)
  r, c = MAPS[a].cell(r, c, 5, 5)
  for _, name in ipairs(symmetry.NAMES) do
    local r2, c2 = MAPS[name].cell(1, 2, 5, 5)
    if r == r2 and c == c2 then return name end
  end
  error("no composite of " .. a .. " and " .. b)
end

--- The group a declaration names on a rows x cols board: the sorted list
-- of its maps (the identity first), or nil and what is wrong.
-- @param spec a group name or a list of map names (nil: "none")
-- @tparam integer rows the board's rows
-- @tparam integer cols the board's columns
-- @treturn ?table the maps
-- @treturn ?string why not
function symmetry.group(spec, rows, cols)
  local gens
  if spec == nil then
    gens = {}
  elseif type(spec) == "string" then
    gens = symmetry.GROUPS[spec]
    if not gens then
      return nil, ("unknown symmetry '%s' (expected none, mirror, flip, rotate180, square or a list of maps)")
        :format(spec)
    end
    if spec == "square" and rows ~= cols then gens = { "mirror", "flip" } end
  elseif type(spec) == "table" then
    gens = {}
    for i, name in ipairs(spec) do
      if type(name) ~= "string" or not MAPS[name] then
        return nil, ("map %d is %s (expected one of %s)"):format(i, errors.describe(name),
          table.concat(symmetry.NAMES, ", "))
      end
      gens[#gens + 1] = name
    end
  else
    return nil, ("expected a group name or a list of maps (got %s)"):format(type(spec))
  end
  for _, name in ipairs(gens) do
    if MAPS[name].square and rows ~= cols then
      return nil, ("%s does not map a %d x %d board onto itself"):format(name, rows, cols)
    end
  end
  local set, list = { identity = true }, { "identity" }
  local changed = true
  while changed do
    changed = false
    for _, a in ipairs(list) do
      for _, b in ipairs(gens) do
        local ab = compose(a, b)
        if not set[ab] then set[ab], changed = true, true; list[#list + 1] = ab end
      end
    end
  end
  table.sort(list, function(x, y) return ORDER[x] < ORDER[y] end)
  return list
end

--- Checks a rule set's `symmetry` field when it loads: nil when fine (or
-- absent), else what is wrong. Whether its maps fit the board is known
-- only with the board (symmetry.of).
function symmetry.check_field(value)
  if value == nil then return nil end
  local _, why = symmetry.group(value, 2, 2)
  return why
end

local DIRS = { n = { -1, 0 }, ne = { -1, 1 }, e = { 0, 1 }, se = { 1, 1 }, s = { 1, 0 }, sw = { 1, -1 },
               w = { 0, -1 }, nw = { -1, -1 } }

-- The direction set `dirs` (a name or a list) as a set of "dr,dc" keys.
local function direction_keys(dirs)
  local list = dirs
  if type(dirs) == "string" then list = require("boardscript.core").directions(dirs) or {} end
  local keys = {}
  for _, name in ipairs(list or {}) do
    local d = DIRS[name]
    if d then keys[d[1] .. "," .. d[2]] = true end
  end
  return keys
end

-- Whether map `name` sends direction set `dirs` onto itself.
local function keeps(name, dirs)
  if dirs == nil then return true end
  local keys = direction_keys(dirs)
  for key in pairs(keys) do
    local dr, dc = key:match("^(-?%d+),(-?%d+)$")
    local mr, mc = MAPS[name].dir(tonumber(dr), tonumber(dc))
    if not keys[mr .. "," .. mc] then return false end
  end
  return true
end

--- The symmetries of the game rule set `rules` plays on board `b` (a core
-- board or a described game's state: anything with rows() and cols(), or
-- size()): the declared `symmetry` on that shape, else for a rule set the
-- C capture core describes (`core_game`, its move hooks vouched for by its
-- `core_count`) the maps that keep each of its direction sets, else the
-- identity alone. Raises a user error naming the
-- rule set when the declared maps do not fit the board.
-- @tparam table rules the rule set
-- @param b the board
-- @tparam[opt] table state the state (for core_game)
-- @treturn table the maps, the identity first
function symmetry.of(rules, b, state)
  local rows, cols
  if type(b.rows) == "function" then rows, cols = b:rows(), b:cols() else rows = b:size(); cols = rows end
  if rules.symmetry ~= nil then
    local group, why = symmetry.group(rules.symmetry, rows, cols)
    if not group then
      errors.fail(("%s: field 'symmetry': %s"):format(require("boardscript.rules").where(rules), why))
    end
    return group
  end
  -- the direction sets say the moves only where the hooks are the core's:
  -- a variant's own `play` or `moves` may treat the board any way
  local rules_mod = require "boardscript.rules"
  local describe = rules_mod.moves_in_core(rules) and rules_mod.core_game(rules, state)
  if type(describe) ~= "table" then return { "identity" } end
  local list = {}
  for _, name in ipairs(symmetry.group("square", rows, cols)) do
    if keeps(name, describe.legal) and keeps(name, describe.flip) and keeps(name, describe.legal2)
      and keeps(name, describe.flip2) then
      list[#list + 1] = name
    end
  end
  return list
end

--- The words for a group: "none", "square (all 8 maps)", or its maps
-- besides the identity ("mirror", "mirror, flip, rotate180").
function symmetry.text(group)
  if #group <= 1 then return "none" end
  if #group == 8 then return "square (all 8 maps)" end
  return table.concat(group, ", ", 2)
end

return symmetry
