--- Connect Four 6 x 7 as a file of Lua hooks, written from the guide's
-- rule-set contract as a user wrote one when issue 29 was filed: cells as
-- strings (`board:get`/`set`), moves as tables `{row, col}`, the column
-- heights and the winner kept in the state. The opponent of issue 29's
-- strength goal is boardscript's Lua `mcts` over this file
-- (lua_mcts_today.lua). Not part of boardscript: a measuring tool.
--
--     boardscript perft bench/issue29/connect4_hooks.lua 7     (823536)
local core = require "boardscript.core"
local rules = require "boardscript.rules"

local c4 = { name = "connect4-hooks" }
local ROWS, COLS = 6, 7
local OTHER = { black = "white", white = "black" }
local DIRS = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 1, -1 } }

function c4:setup()
  local height = {}
  for c = 1, COLS do height[c] = 0 end
  return { board = core.board(ROWS, COLS), player = "black", history = {}, winner = nil, height = height }
end

function c4:finished(state)
  return state.winner ~= nil or #state.history == ROWS * COLS
end

-- the row a disc dropped in column c lands on (row 1 is the bottom), or nil
local function landing(state, c)
  local h = state.height[c]
  return h < ROWS and h + 1 or nil
end

function c4:moves(state)
  local list = {}
  if self:finished(state) then return list end
  for c = 1, COLS do
    local r = landing(state, c)
    if r then list[#list + 1] = { r, c } end
  end
  return list
end

local function run(b, r, c, dr, dc, me)
  local n = 0
  r, c = r + dr, c + dc
  while r >= 1 and r <= ROWS and c >= 1 and c <= COLS and b:get(r, c) == me do
    n = n + 1
    r, c = r + dr, c + dc
  end
  return n
end

function c4:play(state, move)
  if type(move) ~= "table" or self:finished(state) then return nil, "not a legal move" end
  local b, me = state.board, state.player
  local c = move[2]
  if math.type(c) ~= "integer" or c < 1 or c > COLS then return nil, "not a legal move" end
  local r = landing(state, c)
  if r ~= move[1] then return nil, "not a legal move" end
  b:set(r, c, me)
  state.height[c] = r
  state.history[#state.history + 1] = { r, c }
  for _, d in ipairs(DIRS) do
    if 1 + run(b, r, c, d[1], d[2], me) + run(b, r, c, -d[1], -d[2], me) >= 4 then state.winner = me end
  end
  state.player = OTHER[me]
  return true
end

function c4:pass() return nil, "there is no passing in Connect Four" end
function c4:can_pass() return false end

function c4:undo(state)
  local last = table.remove(state.history)
  if not last then return false end
  state.board:set(last[1], last[2], "empty")
  state.height[last[2]] = last[1] - 1
  state.player = OTHER[state.player]
  state.winner = nil
  return true
end

function c4:score(state)
  return state.winner == "black" and 1 or 0, state.winner == "white" and 1 or 0
end

function c4:move_text(move)
  if type(move) ~= "table" or math.type(move[2]) ~= "integer" or move[2] < 1 or move[2] > COLS then return nil end
  return string.char(96 + move[2])
end

function c4:parse_move(text)
  local col = tostring(text):match("^%s*(%a)")
  if not col then return nil end
  local c = col:lower():byte() - 96
  if c < 1 or c > COLS then return nil end
  return { 0, c } -- (the row is filled in by the caller from the position)
end

return rules.define(c4)
