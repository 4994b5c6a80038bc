--- Dots and Boxes notation (seed 001): a dot is its row letter and column
-- number, `a1` at the top left; an edge is its two dots, `a1 a2`.
-- Moves are tables {r1, c1, r2, c2} with 1-based rows and columns.
-- The one place this notation is written and read: the dots family's
-- move_text and parse_move, the console edition, the grid view
-- (boardscript.view.dots) and the SVG pictures use it.
local notation = {}

--- "a" for row 1: a row of dots is a letter.
-- @tparam integer row the row, 1-based
-- @treturn string
function notation.row_name(row)
  return string.char(96 + row)
end

--- "a1" for dot (1, 1). Columns past 9 print as more digits.
-- @tparam integer row the dot's row, 1-based
-- @tparam integer col the dot's column, 1-based
-- @treturn string
function notation.dot(row, col)
  return notation.row_name(row) .. col
end

--- The two dot names of an edge, the smaller dot first (the upper one of a
-- vertical edge, the left one of a horizontal edge), whatever order the
-- move gives them in.
function notation.dots(move)
  local r1, c1, r2, c2 = move[1], move[2], move[3], move[4]
  if r2 < r1 or (r2 == r1 and c2 < c1) then r1, c1, r2, c2 = r2, c2, r1, c1 end
  return notation.dot(r1, c1), notation.dot(r2, c2)
end

--- "a1 a2".
function notation.format(move)
  return table.concat({ notation.dots(move) }, " ")
end

--- The answer with every character but ASCII letters and digits dropped.
function notation.clean(text)
  return (text:gsub("[^A-Za-z0-9]", ""))
end

--- True when the answer is `Q` or `q` once cleaned.
function notation.is_quit(text)
  local cleaned = notation.clean(text)
  return cleaned == "Q" or cleaned == "q"
end

-- One dot from two characters: a letter and a digit, in either order.
local function dot(pair)
  local letter, digit = pair:match("^(%a)(%d)$")
  if not letter then digit, letter = pair:match("^(%d)(%a)$") end
  if not letter then return nil end
  return letter:lower():byte() - 96, tonumber(digit)
end

--- Parses an answer such as `a1 a2`, `2a,B2` or `b1b2`: once cleaned it
-- must be exactly four characters, a letter and a digit in either order,
-- twice. Returns the move {r1, c1, r2, c2} as written (not checked against
-- any grid), or nil.
function notation.parse(text)
  local cleaned = notation.clean(text)
  if #cleaned ~= 4 then return nil end
  local r1, c1 = dot(cleaned:sub(1, 2))
  local r2, c2 = dot(cleaned:sub(3, 4))
  if not (r1 and r2) then return nil end
  return { r1, c1, r2, c2 }
end

--- Parses a move as a rule set reads it (the dots family's parse_move):
-- two dots, each a letter and a number (`a1 a2`, `a1-a2`, `b2a2`, `a10
-- a11`), any separator or none between them. Returns the move {r1, c1,
-- r2, c2} as written (not checked against any grid), or nil.
-- @tparam string text a move as typed
-- @treturn ?table the move
function notation.parse_edge(text)
  local l1, d1, l2, d2 = text:match("^%s*(%a)(%d+)[^%w]*(%a)(%d+)%s*$")
  if not l1 then return nil end
  return { l1:lower():byte() - 96, tonumber(d1), l2:lower():byte() - 96, tonumber(d2) }
end

return notation
