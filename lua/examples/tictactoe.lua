--- Tic-tac-toe, a rule set written from scratch in plain Lua: it uses no
-- capture rules of the core, only a 3 x 3 core board to hold the marks
-- (so the "board" family's notation `b2`, board text and clone work as
-- they are). X is the first side ("black"), O the second ("white").
--
-- It defines every hook it must (setup, moves, play, undo, pass,
-- finished, score) and two optional ones (can_pass, side_name); the winner
-- comes from the family: the side with the higher score.
--
--     boardscript play ./lua/examples/tictactoe.lua --white ./lua/examples/minimax2.lua
--     boardscript perft ./lua/examples/tictactoe.lua 9     (255168: every possible game)
local core = require "boardscript.core"
local rules = require "boardscript.rules"

local tictactoe = { -- family "board", the default
  name = "tictactoe",
  description = "X and O take turns marking an empty cell of a 3 x 3 grid, X first; a move is a cell such as b2. The "
    .. "first to get three marks in a row, across, down or diagonally, wins; a full grid without one is a draw. There "
    .. "is no passing.",
  symmetry = "square", -- every turn and reflection of the grid: a learned evaluation shares its tables
}

-- The eight lines of three cells, as { {row, col}, ... }.
local LINES = {
  { { 1, 1 }, { 2, 2 }, { 3, 3 } },
  { { 1, 3 }, { 2, 2 }, { 3, 1 } },
}
for i = 1, 3 do
  LINES[#LINES + 1] = { { i, 1 }, { i, 2 }, { i, 3 } }
  LINES[#LINES + 1] = { { 1, i }, { 2, i }, { 3, i } }
end

local OTHER = { black = "white", white = "black" }
local NAMES = { black = "X", white = "O" }

--- An empty 3 x 3 board, X to move. The history lists the cells played, for undo.
function tictactoe:setup()
  return { board = core.board(3), player = "black", history = {} }
end

--- The side with three in a row, or nil.
function tictactoe:line_owner(state)
  local b = state.board
  for _, line in ipairs(LINES) do
    local mark = b:get(line[1][1], line[1][2])
    if mark ~= "empty" and b:get(line[2][1], line[2][2]) == mark and b:get(line[3][1], line[3][2]) == mark then
      return mark
    end
  end
  return nil
end

--- Over on three in a row or a full board.
function tictactoe:finished(state)
  return self:line_owner(state) ~= nil or state.board:count("empty") == 0
end

--- The empty cells, while nobody has three in a row.
function tictactoe:moves(state)
  if self:finished(state) then return {} end
  return state.board:cells("empty") -- a list of { row, col }
end

--- Marks the cell: true, or nil and why not (the state unchanged).
function tictactoe:play(state, move)
  if type(move) ~= "table" or not rules.on_board(state.board, move[1], move[2]) then
    return nil, "off the board"
  end
  if state.board:get(move[1], move[2]) ~= "empty" then return nil, "occupied" end
  if self:finished(state) then return nil, "the game is over" end
  state.board:set(move[1], move[2], state.player)
  state.history[#state.history + 1] = { move[1], move[2] }
  state.player = OTHER[state.player]
  return true
end

--- There is no passing: can_pass says so, and pass refuses.
function tictactoe:can_pass()
  return false
end

function tictactoe:pass()
  return nil, "there is no passing in tic-tac-toe"
end

--- Takes back the last mark; false when there is none.
function tictactoe:undo(state)
  local last = table.remove(state.history)
  if not last then return false end
  state.board:set(last[1], last[2], "empty")
  state.player = OTHER[state.player]
  return true
end

--- One point to the side with three in a row (X's, then O's).
function tictactoe:score(state)
  local owner = self:line_owner(state)
  return owner == "black" and 1 or 0, owner == "white" and 1 or 0
end

--- "X" and "O" rather than "Black" and "White".
function tictactoe:side_name(side)
  return NAMES[side] or tostring(side)
end

return rules.define(tictactoe)
