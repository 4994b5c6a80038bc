-- Hand-built normalised described games (vocab29 section 2) for the
-- reference interpreter's specs, independent of boardscript.describe.
local T = {}

local OFFSET = { n = { -1, 0 }, ne = { -1, 1 }, e = { 0, 1 }, se = { 1, 1 },
  s = { 1, 0 }, sw = { 1, -1 }, w = { 0, -1 }, nw = { -1, -1 } }
local ORDER = { "n", "ne", "e", "se", "s", "sw", "w", "nw" }
local RELATIVE = { f = { "s", "n" }, b = { "n", "s" }, fe = { "se", "ne" }, fw = { "sw", "nw" },
  be = { "ne", "se" }, bw = { "nw", "sw" } }
local SETS = { all = "n ne e se s sw w nw", orthogonal = "n e s w", diagonal = "ne se sw nw",
  hex = "n ne e s sw w", forward = "f fe fw" }

--- Per side, the directions of a set in compass order: { list1, list2 }.
function T.dirs(text)
  text = SETS[text] or text
  local out = {}
  for side = 1, 2 do
    local on = {}
    for name in text:gmatch("%S+") do
      on[RELATIVE[name] and RELATIVE[name][side] or name] = true
    end
    out[side] = {}
    for _, name in ipairs(ORDER) do
      if on[name] then out[side][#out[side] + 1] = OFFSET[name] end
    end
  end
  return out
end

--- The same offsets for both sides.
function T.offsets(list) return { list, list } end

function T.ring2()
  local list = {}
  for dr = -2, 2 do
    for dc = -2, 2 do
      if math.abs(dr) == 2 or math.abs(dc) == 2 then list[#list + 1] = { dr, dc } end
    end
  end
  return list
end

--- 0-based cell indices of a cell list text ("a1:c3 e5", "/dark" filter).
function T.cells(text, cols)
  local out = {}
  local body, filter = text:match("^(.-)/(%a+)$")
  body = body or text
  for item in body:gmatch("[^%s,]+") do
    local c1, r1, c2, r2 = item:match("^(%a)(%d+):(%a)(%d+)$")
    if not c1 then
      c1, r1 = item:match("^(%a)(%d+)$")
      c2, r2 = c1, r1
    end
    c1, c2 = c1:byte() - 96, c2:byte() - 96
    for r = tonumber(r1), tonumber(r2) do
      for c = c1, c2 do
        local keep = not filter or (filter == "dark") == ((r + c) % 2 == 1)
        if keep then out[#out + 1] = (r - 1) * cols + (c - 1) end
      end
    end
  end
  return out
end

--- A board of rows x cols with pieces { [code] = "cells", ... } and blocks.
function T.board(rows, cols, pieces, blocked)
  local cells = {}
  for i = 1, rows * cols do cells[i] = 0 end
  for code, list in pairs(pieces or {}) do
    for _, i in ipairs(T.cells(list, cols)) do cells[i + 1] = code end
  end
  if blocked then
    for _, i in ipairs(T.cells(blocked, cols)) do cells[i + 1] = -1 end
  end
  return cells
end

--- A zone per side: the far row (black: row `rows`, white: row 1).
function T.far(rows, cols)
  local z = { {}, {} }
  for c = 0, cols - 1 do
    z[1][#z[1] + 1] = (rows - 1) * cols + c
    z[2][#z[2] + 1] = c
  end
  return z
end

T.AXES = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 } }

local function game(t)
  t.kinds = t.kinds or { "stone" }
  t.first = t.first or 1
  t.must_capture = t.must_capture or false
  t.promote = t.promote or {}
  t.no_move = t.no_move or "lose"
  t.score = t.score or "pieces"
  t.swap = t.swap or false
  t.names = { "Black", "White" }
  t.values = t.values or {}
  for _ in ipairs(t.kinds) do t.values[#t.values + 1] = 1 end
  return t
end
T.game = game

function T.tictactoe()
  return game { name = "tictactoe", rows = 3, cols = 3, cells = T.board(3, 3),
    rules = { { op = "place", kind = 1, at = "empty" } },
    ends = { { op = "line", k = 3, exact = false, axes = T.AXES }, { op = "full", result = "draw" } } }
end

function T.connect4(rows, cols, k)
  rows, cols = rows or 6, cols or 7
  return game { name = "connect4", rows = rows, cols = cols, cells = T.board(rows, cols),
    rules = { { op = "place", kind = 1, at = "column" } },
    ends = { { op = "line", k = k or 4, exact = false, axes = T.AXES }, { op = "full", result = "draw" } } }
end

function T.gomoku(size, exact)
  return game { name = "gomoku", rows = size, cols = size, cells = T.board(size, size),
    rules = { { op = "place", kind = 1, at = "empty" } },
    ends = { { op = "line", k = 5, exact = exact or false, axes = T.AXES }, { op = "full", result = "draw" } } }
end

function T.breakthrough(rows, cols)
  rows, cols = rows or 8, cols or 8
  local last = string.char(96 + cols)
  return game { name = "breakthrough", rows = rows, cols = cols,
    cells = T.board(rows, cols, { [1] = "a1:" .. last .. "2", [2] = ("a%d:%s%d"):format(rows - 1, last, rows) }),
    rules = { { op = "step", kinds = { true }, dirs = T.dirs("f"), to = "empty" },
      { op = "step", kinds = { true }, dirs = T.dirs("fe fw"), to = "free" } },
    ends = { { op = "reach", zone = T.far(rows, cols) }, { op = "no_pieces" } } }
end

function T.ataxx()
  return game { name = "ataxx", rows = 7, cols = 7, cells = T.board(7, 7, { [1] = "a1 g7", [2] = "g1 a7" }),
    rules = {
      { op = "step", kinds = { true }, dirs = T.dirs("all"), to = "empty", leave = true, convert = T.dirs("all") },
      { op = "leap", kinds = { true }, dirs = T.offsets(T.ring2()), to = "empty", convert = T.dirs("all") } },
    no_move = "pass",
    ends = { { op = "no_pieces" }, { op = "full", result = "score" } } }
end

--- Ataxx as lua/examples/ataxx.lua says it: the clone as a placement next
-- to one's own (one move per cell, as Ataxx counts).
function T.ataxx_place()
  local t = T.ataxx()
  t.rules[1] = { op = "place", kind = 1, at = "adjacent", dirs = T.dirs("all"), convert = T.dirs("all") }
  return t
end

function T.draughts()
  return game { name = "draughts", rows = 8, cols = 8, kinds = { "man", "king" },
    cells = T.board(8, 8, { [1] = "a1:h3/dark", [2] = "a6:h8/dark" }),
    rules = { { op = "hop", kinds = { true }, dirs = T.dirs("fe fw"), chain = true },
      { op = "hop", kinds = { [2] = true }, dirs = T.dirs("diagonal"), chain = true },
      { op = "step", kinds = { true }, dirs = T.dirs("fe fw"), to = "empty" },
      { op = "step", kinds = { [2] = true }, dirs = T.dirs("diagonal"), to = "empty" } },
    must_capture = true,
    promote = { { from = 1, to = 2, zone = T.far(8, 8) } },
    ends = {} }
end

function T.amazons()
  return game { name = "amazons", rows = 10, cols = 10,
    cells = T.board(10, 10, { [1] = "a4 d1 g1 j4", [2] = "a7 d10 g10 j7" }),
    rules = { { op = "slide", kinds = { true }, dirs = T.dirs("all"), to = "empty", arrow = T.dirs("all") } },
    ends = {} }
end

function T.hex(size, swap)
  return game { name = "hex", rows = size, cols = size, cells = T.board(size, size), swap = swap or false,
    rules = { { op = "place", kind = 1, at = "empty" } },
    ends = { { op = "connect", dirs = T.dirs("hex")[1], edges = { { "n", "s" }, { "w", "e" } } } } }
end

function T.reversi()
  return game { name = "reversi", rows = 8, cols = 8, cells = T.board(8, 8, { [1] = "e4 d5", [2] = "d4 e5" }),
    rules = { { op = "place", kind = 1, at = "empty", flips = T.dirs("all") } },
    no_move = "pass", ends = {} }
end

--- Small games that use the rest of the vocabulary, for the lockstep comparison.
function T.features()
  local knight = { { -2, -1 }, { -2, 1 }, { -1, -2 }, { -1, 2 }, { 1, -2 }, { 1, 2 }, { 2, -1 }, { 2, 1 } }
  local list = {}
  list[#list + 1] = game { name = "skirmish", rows = 6, cols = 5, kinds = { "pawn", "queen", "knight", "rook" },
    first = 2, cells = T.board(6, 5, { [1] = "a2:e2", [3] = "c1", [5] = "b1", [7] = "d1",
      [2] = "a5:e5", [4] = "c6", [6] = "b6", [8] = "d6" }, "c3"),
    rules = { { op = "step", kinds = { true }, dirs = T.dirs("f"), to = "empty" },
      { op = "step", kinds = { true }, dirs = T.dirs("fe fw"), to = "enemy" },
      { op = "slide", kinds = { [2] = true }, dirs = T.dirs("all"), to = "free" },
      { op = "leap", kinds = { [3] = true }, dirs = T.offsets(knight), to = "free" },
      { op = "slide", kinds = { [4] = true }, dirs = T.dirs("orthogonal"), to = "empty" },
      { op = "slide", kinds = { [4] = true }, dirs = T.dirs("orthogonal"), to = "enemy" } },
    promote = { { from = 1, to = 2, zone = T.far(6, 5) } },
    no_move = "draw",
    ends = { { op = "reach", zone = T.far(6, 5), kinds = { [3] = true } }, { op = "no_pieces" },
      { op = "plies", n = 80, result = "score" } } }
  list[#list + 1] = game { name = "territory", rows = 5, cols = 5, cells = T.board(5, 5, nil, "c3"),
    rules = { { op = "place", kind = 1, at = "empty" } }, score = "territory", no_move = "score",
    ends = { { op = "plies", n = 16, result = "score" } } }
  local men = T.draughts()
  men.name, men.rows, men.cols = "men hop back", 6, 6
  men.cells = T.board(6, 6, { [1] = "a1:f2/dark", [2] = "a5:f6/dark" })
  men.rules[1].dirs = T.dirs("diagonal")
  men.rules[2].chain = false
  men.promote = { { from = 1, to = 2, zone = T.far(6, 6) } }
  men.no_move = "score"
  men.ends = { { op = "plies", n = 120, result = "draw" } }
  list[#list + 1] = men
  list[#list + 1] = game { name = "rows only", rows = 6, cols = 6, first = 2,
    cells = T.board(6, 6, { [1] = "a1 f6" }, "c4"),
    rules = { { op = "place", kind = 1, at = "adjacent", dirs = T.dirs("orthogonal"), convert = T.dirs("diagonal") } },
    no_move = "pass", ends = { { op = "line", k = 3, exact = true, axes = { { -1, 0 }, { 0, 1 } } },
      { op = "full", result = "score" } } }
  return list
end

return T
