-- Normalised described-game tables (contract section 2), built by hand for
-- the C engine's specs, independent of boardscript.describe.
local M = {}

local compass = { n = { -1, 0 }, ne = { -1, 1 }, e = { 0, 1 }, se = { 1, 1 },
  s = { 1, 0 }, sw = { 1, -1 }, w = { 0, -1 }, nw = { -1, -1 } }
local order = { "n", "ne", "e", "se", "s", "sw", "w", "nw" }

--- Offsets of absolute direction names (a space-separated string), in compass order.
-- @tparam string names e.g. "n e s w"
-- @treturn table a list of {dr, dc}
function M.dirs(names)
  local want = {}
  for name in names:gmatch("%S+") do
    want[name] = true
  end
  local out = {}
  for _, name in ipairs(order) do
    if want[name] then
      out[#out + 1] = { compass[name][1], compass[name][2] }
    end
  end
  return out
end

local relative = {
  { f = "s", b = "n", fe = "se", fw = "sw", be = "ne", bw = "nw" },
  { f = "n", b = "s", fe = "ne", fw = "nw", be = "se", bw = "sw" },
}

--- Per side offsets of directions that may be relative (f, fe, ...).
-- @tparam string names e.g. "fe fw"
-- @treturn table { black offsets, white offsets }
function M.side_dirs(names)
  local out = {}
  for side = 1, 2 do
    local abs = {}
    for name in names:gmatch("%S+") do
      abs[#abs + 1] = relative[side][name] or name
    end
    out[side] = M.dirs(table.concat(abs, " "))
  end
  return out
end

--- The same offsets for both sides.
-- @tparam table offsets a list of {dr, dc}
-- @treturn table { offsets, offsets }
function M.both(offsets)
  return { offsets, offsets }
end

M.ALL = "n ne e se s sw w nw"

--- Ring-2 offsets (Chebyshev distance 2), in the contract's order.
-- @treturn table a list of {dr, dc}
function M.ring2()
  local out = {}
  for dr = -2, 2 do
    for dc = -2, 2 do
      if math.abs(dr) == 2 or math.abs(dc) == 2 then
        out[#out + 1] = { dr, dc }
      end
    end
  end
  return out
end

--- A cell index (0-based) of a name such as "c3".
-- @tparam string name the cell name
-- @tparam int cols the columns
-- @treturn int the 0-based index
function M.cell(name, cols)
  local col, row = name:match("^(%a)(%d+)$")
  return (tonumber(row) - 1) * cols + (col:byte() - 97)
end

--- An empty board of rows x cols.
-- @tparam int rows rows
-- @tparam int cols columns
-- @treturn table the cells list
function M.empty(rows, cols)
  local cells = {}
  for i = 1, rows * cols do
    cells[i] = 0
  end
  return cells
end

--- Cells of a row range (1-based rows), optionally filtered: "dark" keeps (row + col) odd.
-- @tparam int cols columns
-- @tparam int r1 first row
-- @tparam int r2 last row
-- @tparam[opt] string filter "dark"
-- @treturn table a list of 0-based cell indices
function M.rows(cols, r1, r2, filter)
  local out = {}
  for r = r1, r2 do
    for c = 1, cols do
      if filter ~= "dark" or (r + c) % 2 == 1 then
        out[#out + 1] = (r - 1) * cols + (c - 1)
      end
    end
  end
  return out
end

local function base(t)
  t.kinds = t.kinds or { "stone" }
  t.first = t.first or 1
  t.must_capture = t.must_capture or false
  t.promote = t.promote or {}
  t.no_move = t.no_move or "lose"
  t.score = t.score or "pieces"
  t.swap = t.swap or false
  t.names = { "Black", "White" }
  local values = {}
  for k = 1, #t.kinds do
    values[k] = 1
  end
  t.values = values
  return t
end

local function line(k, exact)
  return { op = "line", k = k, exact = exact or false, axes = M.dirs("n ne e se") }
end

--- Tic-tac-toe 3 x 3.
-- @treturn table normalised
function M.tictactoe()
  return base { name = "tictactoe", rows = 3, cols = 3, cells = M.empty(3, 3),
    rules = { { op = "place", kind = 1, at = "empty" } },
    ends = { line(3), { op = "full", result = "draw" } } }
end

--- Connect Four: 6 rows x 7 columns, k = 4.
-- @treturn table normalised
function M.connect4()
  return base { name = "connect4", rows = 6, cols = 7, cells = M.empty(6, 7),
    rules = { { op = "place", kind = 1, at = "column" } },
    ends = { line(4), { op = "full", result = "draw" } } }
end

--- Gomoku n x n, at least 5 (exact with exact = true).
-- @tparam[opt] int n the size (15)
-- @tparam[opt] boolean exact exactly five
-- @treturn table normalised
function M.gomoku(n, exact)
  n = n or 15
  return base { name = "gomoku", rows = n, cols = n, cells = M.empty(n, n),
    rules = { { op = "place", kind = 1, at = "empty" } },
    ends = { line(5, exact), { op = "full", result = "draw" } } }
end

--- Breakthrough 8 x 8 (black rows 1-2 moving south).
-- @treturn table normalised
function M.breakthrough()
  local cells = M.empty(8, 8)
  for _, i in ipairs(M.rows(8, 1, 2)) do cells[i + 1] = 1 end
  for _, i in ipairs(M.rows(8, 7, 8)) do cells[i + 1] = 2 end
  return base { name = "breakthrough", rows = 8, cols = 8, cells = cells,
    rules = { { op = "step", kinds = { true }, dirs = M.side_dirs("f"), to = "empty" },
      { op = "step", kinds = { true }, dirs = M.side_dirs("fe fw"), to = "free" } },
    ends = { { op = "reach", zone = { M.rows(8, 8, 8), M.rows(8, 1, 1) }, kinds = { true } },
      { op = "no_pieces" } } }
end

--- Ataxx 7 x 7: black a1 g7, white g1 a7.
-- @treturn table normalised
function M.ataxx()
  local cells = M.empty(7, 7)
  cells[M.cell("a1", 7) + 1] = 1
  cells[M.cell("g7", 7) + 1] = 1
  cells[M.cell("g1", 7) + 1] = 2
  cells[M.cell("a7", 7) + 1] = 2
  local all = M.both(M.dirs(M.ALL))
  return base { name = "ataxx", rows = 7, cols = 7, cells = cells,
    rules = { { op = "step", kinds = { true }, dirs = all, to = "empty", leave = true, convert = all },
      { op = "leap", kinds = { true }, dirs = M.both(M.ring2()), to = "empty", convert = all } },
    ends = { { op = "no_pieces" }, { op = "full", result = "score" } },
    no_move = "pass" }
end

--- English draughts: men and kings, black (first) on rows 1-3 dark squares moving south.
-- @treturn table normalised
function M.draughts()
  local cells = M.empty(8, 8)
  for _, i in ipairs(M.rows(8, 1, 3, "dark")) do cells[i + 1] = 1 end
  for _, i in ipairs(M.rows(8, 6, 8, "dark")) do cells[i + 1] = 2 end
  local diag = M.both(M.dirs("ne se sw nw"))
  return base { name = "draughts", rows = 8, cols = 8, cells = cells, kinds = { "man", "king" },
    rules = { { op = "hop", kinds = { true }, dirs = M.side_dirs("fe fw"), chain = true },
      { op = "hop", kinds = { false, true }, dirs = diag, chain = true },
      { op = "step", kinds = { true }, dirs = M.side_dirs("fe fw"), to = "empty" },
      { op = "step", kinds = { false, true }, dirs = diag, to = "empty" } },
    must_capture = true,
    promote = { { from = 1, to = 2, zone = { M.rows(8, 8, 8), M.rows(8, 1, 1) } } },
    ends = { { op = "no_pieces" } } }
end

--- Amazons 10 x 10: white (first) on a4 d1 g1 j4, black on a7 d10 g10 j7.
-- @treturn table normalised
function M.amazons()
  local cells = M.empty(10, 10)
  -- rows counted from the top: white's row-1 pieces stand at the top here
  for _, name in ipairs { "a4", "d1", "g1", "j4" } do cells[M.cell(name, 10) + 1] = 2 end
  for _, name in ipairs { "a7", "d10", "g10", "j7" } do cells[M.cell(name, 10) + 1] = 1 end
  local all = M.both(M.dirs(M.ALL))
  return base { name = "amazons", rows = 10, cols = 10, cells = cells, first = 2,
    rules = { { op = "slide", kinds = { true }, dirs = all, to = "empty", arrow = all } },
    ends = {} }
end

--- Hex n x n (rhombus, hex neighbours), black joins n-s, white w-e.
-- @tparam[opt] int n the size (11)
-- @tparam[opt] boolean swap the pie rule
-- @treturn table normalised
function M.hex(n, swap)
  n = n or 11
  return base { name = "hex", rows = n, cols = n, cells = M.empty(n, n),
    rules = { { op = "place", kind = 1, at = "empty" } },
    ends = { { op = "connect", dirs = M.dirs("n ne e s sw w"), edges = { { "n", "s" }, { "w", "e" } } } },
    swap = swap or false }
end

return M
