--- Defaults for rule sets of the "dots" family: Dots and Boxes positions of
-- the core, moves `{r1, c1, r2, c2}` (two dots one edge apart, 1-based),
-- sides 1 (moves first) and 2.
--
-- Notation (seed 001): a dot is its row letter and column number, `a1` top
-- left; an edge is its two dots, smaller first: `a1 a2`. When reading, any
-- separator (or none) may stand between the dots and either may come first.
local common = require "boardscript.families.common"
local notation = require "boardscript.notation.dots"
local view = require "boardscript.view.dots"

local dots = setmetatable({ family = "dots", sides = { 1, 2 } }, { __index = common })

--- "Player 1" / "Player 2" (any other side: "Player " and its text).
-- @param side a side
-- @treturn string
function dots:side_name(side)
  return "Player " .. tostring(side)
end


-- Dot (row, col) fits a grid of `rows` x `cols` boxes.
local function dot_ok(row, col, rows, cols)
  return math.type(row) == "integer" and math.type(col) == "integer"
    and row >= 1 and col >= 1 and row <= rows + 1 and col <= cols + 1
end

--- `{r1, c1, r2, c2}` -> "a1 a2"; nil unless it is two dots of the grid
-- (up to 16 x 16 boxes without a state) one edge apart.
-- @param move a move value
-- @tparam[opt] table state a state
-- @treturn ?string
function dots:move_text(move, state)
  if type(move) ~= "table" then return nil end
  local rows = state and state.board and state.board:rows() or 16
  local cols = state and state.board and state.board:cols() or 16
  local r1, c1, r2, c2 = move[1], move[2], move[3], move[4]
  if not (dot_ok(r1, c1, rows, cols) and dot_ok(r2, c2, rows, cols)) then return nil end
  if math.abs(r1 - r2) + math.abs(c1 - c2) ~= 1 then return nil end
  return notation.format(move)
end

--- "a1 a2", "a1-a2", "b2a2" -> `{r1, c1, r2, c2}` as written; nil when it
-- is not an edge of `state`'s grid.
-- @tparam string text a move as typed
-- @tparam[opt] table state a state (without one: up to 16 x 16 boxes)
-- @treturn ?table a move `{r1, c1, r2, c2}`
function dots:parse_move(text, state)
  local move = notation.parse_edge(tostring(text))
  if not move or not self:move_text(move, state) then return nil end
  return move
end

--- There is no passing in Dots and Boxes.
-- @tparam table _ a state (not looked at)
-- @treturn boolean false
function dots:can_pass(_)
  return false
end

--- The grid, boxes marked with their owner's number.
-- @tparam table state a state
-- @treturn string lines ending in newlines
function dots:board_text(state)
  return view.grid(state.board, { [1] = "1", [2] = "2" })
end

--- The size as commands print it: "3x3" (rows x columns of boxes).
-- @tparam table state a state
-- @treturn string
function dots:size_text(state)
  return ("%dx%d"):format(state.board:rows(), state.board:cols())
end

--- Boxes owned: player 1's, player 2's.
-- @tparam table state a state
-- @treturn integer player 1's boxes
-- @treturn integer player 2's boxes
function dots:score(state)
  return state.board:score()
end



return dots
