--- Board arithmetic shared by the reference interpreter of described games:
-- cell indices, piece codes, the move encoding (docs/decisions.md,
-- "Described games"; /work/notes/vocab29.md section 1.5). Cells here are
-- Lua indices 1..rows*cols (the contract's 0-based index plus one).
local board = {}

--- The compass order of the eight directions (contract section 2).
board.COMPASS = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 }, { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 } }

--- The rule index of the swap move.
board.SWAP_RULE = 31
--- The cell field of a placement's origin (no cell).
board.NONE = 1023

--- The compass index 0..7 of a unit direction, or nil.
-- @tparam table d { dr, dc }
-- @treturn ?integer
function board.compass_index(d)
  for i, c in ipairs(board.COMPASS) do
    if c[1] == d[1] and c[2] == d[2] then return i - 1 end
  end
  return nil
end

--- The side (1 black, 2 white) of a piece code; 0 for empty or a block.
-- @tparam integer code
-- @treturn integer
function board.side_of(code)
  if code <= 0 then return 0 end
  return (code - 1) % 2 + 1
end

--- The kind (1-based) of a piece code.
-- @tparam integer code a piece code (> 0)
-- @treturn integer
function board.kind_of(code)
  return (code - 1) // 2 + 1
end

--- The piece code of kind k of side s.
-- @tparam integer kind 1..8
-- @tparam integer side 1 or 2
-- @treturn integer
function board.code(kind, side)
  return 2 * (kind - 1) + side
end

-- The table of cell -> cell one (dr, dc) away (false off the board),
-- built once per offset and game.
local function neighbours(D, dr, dc)
  local key = dr * 64 + dc
  local t = D.neighbours[key]
  if t then return t end
  t = {}
  for i = 1, D.n do
    local r, c = (i - 1) // D.cols + 1 + dr, (i - 1) % D.cols + 1 + dc
    t[i] = r >= 1 and r <= D.rows and c >= 1 and c <= D.cols and (r - 1) * D.cols + c
  end
  D.neighbours[key] = t
  return t
end

--- The cell (dr, dc) away from cell i, or nil off the board.
-- @tparam table D the compiled game
-- @tparam integer i a cell (1-based)
-- @tparam integer dr rows
-- @tparam integer dc columns
-- @treturn ?integer
function board.offset_rc(D, i, dr, dc)
  return neighbours(D, dr, dc)[i] or nil
end

--- The cell one offset away from cell i, or nil off the board.
-- @tparam table D the compiled game
-- @tparam integer i a cell (1-based)
-- @tparam table d { dr, dc }
-- @treturn ?integer
function board.offset(D, i, d)
  return neighbours(D, d[1], d[2])[i] or nil
end

--- The row and column (1-based) of cell i.
-- @tparam table D the compiled game
-- @tparam integer i a cell (1-based)
-- @treturn integer row
-- @treturn integer column
function board.row_col(D, i)
  return (i - 1) // D.cols + 1, (i - 1) % D.cols + 1
end

--- A move integer. Cells are 0-based here (as in the encoding); extra is
-- the arrow cell or the hop directions already packed.
-- @tparam integer origin 0-based cell or NONE
-- @tparam integer target 0-based cell or NONE
-- @tparam integer rule 0-based rule index or SWAP_RULE
-- @tparam integer hops number of hops
-- @tparam integer extra bits 29 and up
-- @treturn integer
function board.encode(origin, target, rule, hops, extra)
  return origin | (target << 10) | (rule << 20) | (hops << 25) | (extra << 29)
end

--- The fields of a move integer: origin, target, rule (0-based cells and
-- index, as encoded), hops and extra.
-- @tparam integer m
-- @treturn integer origin
-- @treturn integer target
-- @treturn integer rule
-- @treturn integer hops
-- @treturn integer extra
function board.decode(m)
  return m & 1023, (m >> 10) & 1023, (m >> 20) & 31, (m >> 25) & 15, m >> 29
end

--- The name of cell i: column letter then row number ("a1").
-- @tparam table D the compiled game
-- @tparam integer i a cell (1-based)
-- @treturn string
function board.cell_name(D, i)
  local r, c = board.row_col(D, i)
  return string.char(96 + c) .. r
end

return board
