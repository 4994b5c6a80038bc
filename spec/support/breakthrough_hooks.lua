--- Breakthrough 8 x 8 written as a file of Lua hooks, from the guide's
-- rule-set contract alone (the benchmark of the hook path, issue 29 item
-- 4). Black ("black", the first side) starts on rows 1-2 and moves down,
-- White on rows 7-8 and moves up; a piece steps one row forward, straight
-- onto an empty cell or diagonally onto an empty or enemy cell (capturing).
-- Reaching the far row, or taking every enemy piece, wins. Written as the
-- guide's "Fast hooks" advise: cells read and written as small integers
-- (board:code, board:set_code), a move as one integer (from row, from
-- column, to row, to column, four bits each), written `a2-a3`, and the
-- winner kept in the state by `play` and `undo`.
--
--     boardscript perft spec/support/breakthrough_hooks.lua 3     (11132)
local core = require "boardscript.core"
local rules = require "boardscript.rules"

local bt = { name = "breakthrough-hooks" }

local N = 8
local EMPTY, BLACK, WHITE = 0, 1, 2 -- board:code's cells
local CODE = { black = BLACK, white = WHITE }
local OTHER = { black = "white", white = "black" }
local FORWARD = { black = 1, white = -1 }
local GOAL = { black = N, white = 1 }
local PIECES = { black = "black_pieces", white = "white_pieces" } -- the state's fields

local function encode(r1, c1, r2, c2)
  return ((r1 * 16 + c1) * 16 + r2) * 16 + c2
end

local function decode(move)
  return move >> 12, (move >> 8) & 15, (move >> 4) & 15, move & 15
end

--- Black on rows 1-2, White on rows 7-8, Black to move.
function bt:setup()
  local b = core.board(N)
  for r = 1, N do
    for c = 1, N do
      b:set_code(r, c, (r <= 2 and BLACK) or (r >= N - 1 and WHITE) or EMPTY)
    end
  end
  return { board = b, player = "black", history = {}, black_pieces = 2 * N, white_pieces = 2 * N }
end

--- Over once `play` has named a winner.
function bt:finished(state)
  return state.winner ~= nil
end

--- Every step of the side to move, while the game is on.
function bt:moves(state)
  local list = {}
  if state.winner then return list end
  local b, me = state.board, state.player
  local code, mine, theirs = b.code, CODE[me], CODE[OTHER[me]]
  local dr, n = FORWARD[me], 0
  for r = 1, N do
    local tr = r + dr
    for c = 1, N do
      if code(b, r, c) == mine then
        for tc = c - 1, c + 1 do
          local there = code(b, tr, tc) -- -1 off the board
          if there == EMPTY or (there == theirs and tc ~= c) then
            n = n + 1
            list[n] = encode(r, c, tr, tc)
          end
        end
      end
    end
  end
  return list
end

-- Whether `move` is a step of the side to move (any value may come here).
local function legal(state, move)
  if math.type(move) ~= "integer" or move < 0 or move >= 1 << 16 then return false end
  local r1, c1, r2, c2 = decode(move)
  local b, me = state.board, state.player
  if b:code(r1, c1) ~= CODE[me] or r2 ~= r1 + FORWARD[me] or c2 < c1 - 1 or c2 > c1 + 1 then return false end
  local there = b:code(r2, c2)
  return there == EMPTY or (there == CODE[OTHER[me]] and c2 ~= c1)
end

--- Moves a piece (capturing what stands there): true, or nil and why.
function bt:play(state, move)
  if state.winner or not legal(state, move) then return nil, "not a legal move" end
  local r1, c1, r2, c2 = decode(move)
  local b, me = state.board, state.player
  local other = OTHER[me]
  local taken = b:code(r2, c2)
  b:set_code(r2, c2, CODE[me])
  b:set_code(r1, c1, EMPTY)
  if taken ~= EMPTY then state[PIECES[other]] = state[PIECES[other]] - 1 end
  if r2 == GOAL[me] or state[PIECES[other]] == 0 then state.winner = me end
  state.history[#state.history + 1] = move * 4 + taken
  state.player = other
  return true
end

function bt:pass()
  return nil, "there is no passing in Breakthrough"
end

function bt:can_pass()
  return false
end

function bt:undo(state)
  local history = state.history
  local last = history[#history]
  if not last then return false end
  history[#history] = nil
  local r1, c1, r2, c2 = decode(last >> 2)
  local taken, b = last & 3, state.board
  local other = state.player
  state.player, state.winner = OTHER[other], nil
  b:set_code(r1, c1, CODE[state.player])
  b:set_code(r2, c2, taken)
  if taken ~= EMPTY then state[PIECES[other]] = state[PIECES[other]] + 1 end
  return true
end

--- One point to the winner.
function bt:score(state)
  local w = state.winner
  return w == "black" and 1 or 0, w == "white" and 1 or 0
end

--- `encode(1, 1, 2, 2)` -> "a1-b2"; nil when malformed.
function bt:move_text(move)
  if math.type(move) ~= "integer" or move < 0 or move >= 1 << 16 then return nil end
  local r1, c1, r2, c2 = decode(move)
  if r1 < 1 or r1 > N or c1 < 1 or c1 > N or r2 < 1 or r2 > N or c2 < 1 or c2 > N then return nil end
  return ("%s%d-%s%d"):format(string.char(96 + c1), r1, string.char(96 + c2), r2)
end

function bt:parse_move(text)
  local c1, r1, c2, r2 = tostring(text):match("^%s*(%a)(%d)%s*%-?%s*(%a)(%d)%s*$")
  if not c1 then return nil end
  local move = encode(tonumber(r1), c1:lower():byte() - 96, tonumber(r2), c2:lower():byte() - 96)
  if not self:move_text(move) then return nil end
  return move
end

function bt:move_cells(move)
  if not self:move_text(move) then return nil end
  local r1, c1, r2, c2 = decode(move)
  return { { r1, c1 }, { r2, c2 } }
end

return rules.define(bt)
