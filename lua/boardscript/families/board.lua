--- Defaults for rule sets of the "board" family: core boards (N x N, or
-- rows x cols: `core.board(rows, cols)`), moves
-- `{row, col}` (1-based), sides "black" and "white". A rule set gets these
-- for every optional hook it does not define itself.
--
-- Standard notation: column letter then row number, `a1` top left, `f5` =
-- `{5, 6}`; up to `z26`. Case is ignored when reading.
local common = require "boardscript.families.common"

local board = setmetatable({ family = "board", sides = { "black", "white" } }, { __index = common })

local NAMES = { black = "Black", white = "White" }
local OPPONENT = { black = "white", white = "black" }

--- The other colour: "black" <-> "white" (nil for anything else). The one
-- table of it: rule sets, policies and tools of two-colour boards use this.
-- @param side a side
-- @treturn ?string the other colour
function board.opponent(side)
  return OPPONENT[side]
end
local MARKS = { empty = ".", black = "X", white = "O", block = "#" }

--- Whether (row, col) are integers naming a cell of an n x n board, or of
-- an n x cols one when `cols` is given.
-- @tparam integer n the board's size (its rows)
-- @param row a row, 1-based
-- @param col a column, 1-based
-- @tparam[opt] integer cols the board's columns (default n)
-- @treturn boolean
function board.on_board(n, row, col, cols)
  return math.type(row) == "integer" and math.type(col) == "integer"
    and row >= 1 and col >= 1 and row <= n and col <= (cols or n)
end

-- The rows and columns of a core board (or of anything with size(), such
-- as a board of a rule set's own: square).
local function shape(b)
  if type(b.rows) == "function" and type(b.cols) == "function" then return b:rows(), b:cols() end
  local n = b:size()
  return n, n
end
board.shape = shape

--- "Black" / "White" (any other side: its text).
-- @param side a side
-- @treturn string
function board:side_name(side)
  return NAMES[side] or tostring(side)
end


--- `{row, col}` -> "f5"; nil when `move` is not a well-formed cell on a
-- board the size of `state`'s (or up to 26 x 26 without a state).
-- @param move a move value
-- @tparam[opt] table state a state
-- @treturn ?string
function board:move_text(move, state)
  if type(move) ~= "table" then return nil end
  local rows, cols = 26, 26
  if state and state.board then rows, cols = shape(state.board) end
  if not board.on_board(rows, move[1], move[2], cols) then return nil end
  return string.char(96 + move[2]) .. move[1]
end

--- The cells a move touches, as a list of `{row, col}`, the cell it lands
-- on last (render rings it when it is the last move and marks it when the
-- move is legal; the others, such as a jump's origin, are marked as where
-- the last move came from). Default: `{ {move[1], move[2]} }`, nil when
-- the move is no cell. A rule set whose moves are other values (a jump
-- `{from_row, from_col, to_row, to_col}`) gives its own.
-- @param move a move value
-- @tparam[opt] table state a state
-- @treturn ?table a new list of cells `{row, col}`
function board:move_cells(move, state)
  if not self:move_text(move, state) or type(move) ~= "table" then return nil end
  return { { move[1], move[2] } }
end

--- "f5" / "F5" -> `{5, 6}`; nil when it is not a cell of `state`'s board.
-- @tparam string text a move as typed
-- @tparam[opt] table state a state (without one: up to 26 x 26)
-- @treturn ?table a move `{row, col}`
function board:parse_move(text, state)
  local letter, digits = tostring(text):match("^%s*(%a)([1-9]%d?)%s*$")
  if not letter then return nil end
  local move = { tonumber(digits), letter:lower():byte() - 96 }
  if not self:move_text(move, state) then return nil end
  return move
end

--- A player may pass only when it has no move.
-- @tparam table state a state
-- @treturn boolean
function board:can_pass(state)
  return next(self:moves(state)) == nil
end

--- The board with coordinates: column letters across, row numbers down;
-- `X` black, `O` white, `.` empty, `#` block.
-- @tparam table state a state
-- @treturn string lines ending in newlines
function board:board_text(state)
  local b = state.board
  local rows, cols = shape(b)
  local lines, line = {}, { "  " }
  for c = 1, cols do line[#line + 1] = " " .. string.char(96 + c) end
  lines[1] = table.concat(line)
  for r = 1, rows do
    line = { ("%2d"):format(r) }
    for c = 1, cols do line[#line + 1] = " " .. (MARKS[b:get(r, c)] or "?") end
    lines[#lines + 1] = table.concat(line)
  end
  return table.concat(lines, "\n") .. "\n"
end

--- The size as commands print it: "8", or "6x7" (rows x columns) for a
-- board that is not square.
-- @tparam table state a state
-- @treturn string
function board:size_text(state)
  local rows, cols = shape(state.board)
  if rows == cols then return tostring(rows) end
  return ("%dx%d"):format(rows, cols)
end

--- Disc counts in side order: black, white.
-- @tparam table state a state
-- @treturn integer black's discs
-- @treturn integer white's discs
function board:score(state)
  return state.board:count("black"), state.board:count("white")
end



return board
