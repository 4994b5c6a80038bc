--- The hooks a described game yields (boardscript.describe): every rule
-- set `d.game` makes inherits them, and they run the compiled game through
-- an engine object (`core.dgame`, or the Lua reference) over a state
-- `{ board = S, player = S:player() }`. The rest (winner, can_pass when
-- overridden...) comes from the "board" family. A rule set that replaces a
-- tree hook keeps these for the others, and perft then counts over its
-- hooks (boardscript.describe.in_core).
local board = require "boardscript.families.board"
local compile = require "boardscript.describe.compile"

local hooks = setmetatable({}, { __index = board })

local compiled = compile.game


--- The state at the start: the setup position of the game for `opts`.
-- @tparam table opts the resolved options
-- @treturn table the state
function hooks:setup(opts)
  local S = compiled(self, opts or {}):start()
  return { board = S, player = S:player() }
end

--- The legal moves, as integers (a new list).
-- @tparam table state a state
-- @treturn table the moves
function hooks:moves(state)
  return (state.board:moves())
end

--- Plays an integer move of the moves list: true, or nil and why.
-- @tparam table state a state
-- @param move a move
-- @treturn ?boolean
-- @treturn ?string why not
function hooks:play(state, move)
  if math.type(move) ~= "integer" then return nil, "not a move of this game" end
  local ok, why = state.board:play(move)
  if ok then state.player = state.board:player() end
  return ok, why
end

--- Passes when the game allows it (no_move = "pass" and no move): true, or nil and why.
-- @tparam table state a state
-- @treturn ?boolean
-- @treturn ?string why not
function hooks:pass(state)
  local ok, why = state.board:pass()
  if ok then state.player = state.board:player() end
  return ok, why
end

--- Whether the side to move must pass now.
-- @tparam table state a state
-- @treturn boolean
function hooks:can_pass(state)
  return state.board:can_pass() and true or false
end

--- Takes back the last move or pass: false when there is none.
-- @tparam table state a state
-- @treturn boolean
function hooks:undo(state)
  local ok = state.board:undo()
  state.player = state.board:player()
  return ok and true or false
end

--- Whether the game is over.
-- @tparam table state a state
-- @treturn boolean
function hooks:finished(state)
  return state.board:finished() and true or false
end

--- The two scores (black, white): 1, 0 / 0, 1 for a win by an end, 0, 0
-- for a declared draw, else the description's score.
-- @tparam table state a state
-- @treturn integer black's
-- @treturn integer white's
function hooks:score(state)
  return state.board:score()
end

--- A copy of the state.
-- @tparam table state a state
-- @treturn table the copy
function hooks:clone(state)
  local S = state.board:clone()
  return { board = S, player = S:player() }
end

local starts = setmetatable({}, { __mode = "k" }) -- engine game -> its start state (for notation)

-- A state to read notation with when none is given: the start for the default options.
local function any_state(self, state)
  if state ~= nil then return state.board end
  local G = compiled(self, nil)
  local S = starts[G]
  if not S then
    S = G:start()
    starts[G] = S
  end
  return S
end

--- A move's text: `d3`, `a2-a3`, `c3-e5-c7`, `d1-d7/g7`, `swap`; nil when malformed.
-- @param move a move
-- @tparam[opt] table state a state
-- @treturn ?string
function hooks:move_text(move, state)
  if math.type(move) ~= "integer" then return nil end
  return any_state(self, state):move_text(move)
end

--- The legal move whose text is `text` (case and spaces ignored), or nil.
-- @tparam string text a move as typed
-- @tparam[opt] table state a state
-- @treturn ?integer the move
function hooks:parse_move(text, state)
  if type(text) ~= "string" then return nil end
  return any_state(self, state):parse_move(text)
end

--- The cells a move touches, the landing cell last.
-- @param move a move
-- @tparam[opt] table state a state
-- @treturn ?table a list of `{row, col}`
function hooks:move_cells(move, state)
  if math.type(move) ~= "integer" then return nil end
  return any_state(self, state):move_cells(move)
end

local MARKS = { empty = ".", blocked = "#", block = "#" }

-- A cell's mark: X / O for the first kind, the kind's initial (upper case
-- black, lower case white) for the others.
local function mark(S, r, c, first)
  local what, kind = S:get(r, c)
  if MARKS[what] then return MARKS[what] end
  if kind == nil or kind == first then return what == "black" and "X" or "O" end
  local letter = kind:sub(1, 1)
  return what == "black" and letter:upper() or letter:lower()
end

--- The board with coordinates: column letters across, row numbers down;
-- `X` / `O` pieces of the first kind, `K` / `k` a king (a kind's
-- initial), `.` empty, `#` a block.
-- @tparam table state a state
-- @treturn string lines ending in newlines
function hooks:board_text(state)
  local S = state.board
  local rows, cols = S:rows(), S:cols()
  local first = compile.normalised(self.described.description).kinds[1]
  local lines, line = {}, { "  " }
  for c = 1, cols do line[#line + 1] = " " .. string.char(96 + c) end
  lines[1] = table.concat(line)
  for r = 1, rows do
    line = { ("%2d"):format(r) }
    for c = 1, cols do line[#line + 1] = " " .. mark(S, r, c, first) end
    lines[#lines + 1] = table.concat(line)
  end
  return table.concat(lines, "\n") .. "\n"
end

--- "Black" / "White", or the description's `names`.
-- @param side a side
-- @treturn string
function hooks:side_name(side)
  local names = compile.normalised(self.described.description).names
  if side == "black" then return names[1] elseif side == "white" then return names[2] end
  return board.side_name(self, side)
end

--- The size as commands print it: "8", or "6x7" (rows x columns).
-- @tparam table state a state
-- @treturn string
function hooks:size_text(state)
  local S = state.board
  if S:rows() == S:cols() then return tostring(S:rows()) end
  return ("%dx%d"):format(S:rows(), S:cols())
end

return hooks
