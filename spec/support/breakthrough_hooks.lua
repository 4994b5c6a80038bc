--- Breakthrough 8 x 8 written as a file of Lua hooks, from the guide's
-- rule-set contract alone (the benchmark of the hook path, issue 29 item
-- 4). Black ("black", the first side) starts on rows 1-2 and moves down,
-- White on rows 7-8 and moves up; a piece steps one row forward, straight
-- onto an empty cell or diagonally onto an empty or enemy cell (capturing).
-- Reaching the far row, or taking every enemy piece, wins. A move is
-- `{from_row, from_col, to_row, to_col}`, written `a2-a3`.
--
--     boardscript perft spec/support/breakthrough_hooks.lua 3     (11132)
local core = require "boardscript.core"
local rules = require "boardscript.rules"

local bt = { name = "breakthrough-hooks" }

local N = 8
local OTHER = { black = "white", white = "black" }
local FORWARD = { black = 1, white = -1 }

--- Black on rows 1-2, White on rows 7-8, Black to move.
function bt:setup()
  local b = core.board(N)
  for r = 1, N do
    for c = 1, N do
      b:set(r, c, (r <= 2 and "black") or (r >= N - 1 and "white") or "empty")
    end
  end
  return { board = b, player = "black", history = {} }
end

--- The winner: a side on its goal row, or the only side with pieces.
function bt:champion(state)
  local b = state.board
  for c = 1, N do
    if b:get(N, c) == "black" then return "black" end
    if b:get(1, c) == "white" then return "white" end
  end
  if b:count("white") == 0 then return "black" end
  if b:count("black") == 0 then return "white" end
  return nil
end

function bt:finished(state)
  return self:champion(state) ~= nil
end

--- Every step of the side to move, while the game is on.
function bt:moves(state)
  local list = {}
  if self:finished(state) then return list end
  local b, me = state.board, state.player
  local dr = FORWARD[me]
  for r = 1, N do
    for c = 1, N do
      if b:get(r, c) == me then
        local tr = r + dr
        if tr >= 1 and tr <= N then
          for dc = -1, 1 do
            local tc = c + dc
            if tc >= 1 and tc <= N then
              local there = b:get(tr, tc)
              if there == "empty" or (dc ~= 0 and there == OTHER[me]) then
                list[#list + 1] = { r, c, tr, tc }
              end
            end
          end
        end
      end
    end
  end
  return list
end

local function legal(self, state, move)
  if type(move) ~= "table" then return false end
  for _, m in ipairs(self:moves(state)) do
    if m[1] == move[1] and m[2] == move[2] and m[3] == move[3] and m[4] == move[4] then return true end
  end
  return false
end

--- Moves a piece (capturing what stands there): true, or nil and why.
function bt:play(state, move)
  if not legal(self, state, move) then return nil, "not a legal move" end
  local b = state.board
  local taken = b:get(move[3], move[4])
  b:set(move[3], move[4], state.player)
  b:set(move[1], move[2], "empty")
  state.history[#state.history + 1] = { move[1], move[2], move[3], move[4], taken }
  state.player = OTHER[state.player]
  return true
end

function bt:pass()
  return nil, "there is no passing in Breakthrough"
end

function bt:can_pass()
  return false
end

function bt:undo(state)
  local last = table.remove(state.history)
  if not last then return false end
  local b = state.board
  state.player = OTHER[state.player]
  b:set(last[1], last[2], state.player)
  b:set(last[3], last[4], last[5])
  return true
end

--- One point to the winner.
function bt:score(state)
  local w = self:champion(state)
  return w == "black" and 1 or 0, w == "white" and 1 or 0
end

--- `{1, 1, 2, 2}` -> "a1-b2"; nil when malformed.
function bt:move_text(move)
  if type(move) ~= "table" then return nil end
  for i = 1, 4 do
    if math.type(move[i]) ~= "integer" or move[i] < 1 or move[i] > N then return nil end
  end
  return ("%s%d-%s%d"):format(string.char(96 + move[2]), move[1], string.char(96 + move[4]), move[3])
end

function bt:parse_move(text)
  local c1, r1, c2, r2 = tostring(text):match("^%s*(%a)(%d)%s*%-?%s*(%a)(%d)%s*$")
  if not c1 then return nil end
  local move = { tonumber(r1), c1:lower():byte() - 96, tonumber(r2), c2:lower():byte() - 96 }
  if not self:move_text(move) then return nil end
  return move
end

function bt:move_cells(move)
  if not self:move_text(move) then return nil end
  return { { move[1], move[2] }, { move[3], move[4] } }
end

return rules.define(bt)
