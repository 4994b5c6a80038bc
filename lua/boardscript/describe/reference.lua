--- The reference interpreter of described games: the normalised table of
-- vocab29 section 2 executed in plain Lua, written from the contract alone,
-- with exactly the API of `core.dgame` (section 3). It is the slow, clear
-- second implementation that `boardscript.describe.compare` and `soak`
-- check the C engine against.
local board = require "boardscript.describe.reference.board"
local compile = require "boardscript.describe.reference.compile"
local moves = require "boardscript.describe.reference.moves"
local effects = require "boardscript.describe.reference.effects"
local ends = require "boardscript.describe.reference.ends"
local text = require "boardscript.describe.reference.text"
local playout = require "boardscript.describe.reference.playout"

local reference = {}

local State = {}
State.__index = State

local SIDES = { "black", "white" }
local STATUS = { [0] = "draw", "black", "white" }

-- The move list of the position (cached until the position changes).
local function legal(S)
  if S.result then return {} end
  if not S.list then S.list = moves.generate(S.D, S) end
  return S.list
end

-- After a ply: the ends, two passes, then no_move for the side to move.
local function settle(S, mover)
  local D = S.D
  S.list = nil
  if mover then S.result = ends.check(D, S, mover, S.log[#S.log].changes) end
  if not S.result and S.passes >= 2 then S.result = ends.decided(D, S.cells, "score") end
  if S.result or #legal(S) > 0 then return end
  if D.no_move == "lose" then
    S.result = { winner = 3 - S.side, how = "win" }
  elseif D.no_move == "draw" or D.no_move == "score" then
    S.result = ends.decided(D, S.cells, D.no_move)
  end
end

local function new_state(D)
  local cells = {}
  for i = 1, D.n do cells[i] = D.cells[i] end
  local S = setmetatable({ D = D, cells = cells, side = D.first, plies = 0, passes = 0, log = {} }, State)
  settle(S, nil)
  return S
end

local function check_cell(S, r, c, fname)
  if math.type(r) ~= "integer" or r < 1 or r > S.D.rows then
    error(("bad argument #1 to '%s' (row from 1 to %d expected)"):format(fname, S.D.rows), 3)
  end
  if math.type(c) ~= "integer" or c < 1 or c > S.D.cols then
    error(("bad argument #2 to '%s' (column from 1 to %d expected)"):format(fname, S.D.cols), 3)
  end
  return (r - 1) * S.D.cols + c
end

--- The legal moves: a list of move integers (a new table, or `t` refilled)
-- and their count.
-- @tparam[opt] table t a list to refill
-- @treturn table the moves
-- @treturn integer the count
function State:moves(t)
  local list = legal(self)
  t = t or {}
  local old = #t
  for j, m in ipairs(list) do t[j] = m end
  for j = #list + 1, old do t[j] = nil end
  return t, #list
end

local function push(S, entry)
  entry.result, entry.passes, entry.list = S.result, S.passes, S.list
  S.log[#S.log + 1] = entry
end

--- Plays a legal move.
-- @tparam integer m the move
-- @treturn ?boolean true, or nil and "illegal"
-- @treturn ?string why not
function State:play(m)
  if math.type(m) ~= "integer" then error("bad argument #1 to 'play' (integer expected)", 2) end
  local found = false
  for _, x in ipairs(legal(self)) do
    if x == m then found = true break end
  end
  if not found then return nil, "illegal" end
  local entry = { move = m, changes = {} }
  push(self, entry)
  local mover = self.side
  effects.apply(self.D, self, entry, m)
  self.side, self.plies, self.passes = 3 - mover, self.plies + 1, 0
  settle(self, mover)
  return true
end

--- Whether the side to move must pass (no_move = "pass" and no move).
-- @treturn boolean
function State:can_pass()
  return not self.result and self.D.no_move == "pass" and #legal(self) == 0
end

--- Passes, when the side to move must.
-- @treturn ?boolean true, or nil and why
-- @treturn ?string why not
function State:pass()
  if not self:can_pass() then return nil, "cannot pass: the side to move has a move or the game is over" end
  push(self, { pass = true, changes = {} })
  local mover = self.side
  self.side, self.plies, self.passes = 3 - mover, self.plies + 1, self.passes + 1
  settle(self, mover)
  return true
end

--- Takes back the last move or pass.
-- @treturn boolean whether there was one
function State:undo()
  local entry = table.remove(self.log)
  if not entry then return false end
  effects.revert(self, entry)
  self.side, self.plies = 3 - self.side, self.plies - 1
  self.result, self.passes, self.list = entry.result, entry.passes, entry.list
  return true
end

--- The result: nil while the game is on, "black", "white" or "draw".
-- @treturn ?string
function State:status()
  return self.result and STATUS[self.result.winner] or nil
end

--- Whether the game is over.
-- @treturn boolean
function State:finished()
  return self.result ~= nil
end

--- The score hook's pair (contract section 1.3).
-- @treturn integer black's
-- @treturn integer white's
function State:score()
  local r = self.result
  if r and r.how == "win" then
    if r.winner == 1 then return 1, 0 end
    return 0, 1
  end
  if r and r.how == "draw" then return 0, 0 end
  return ends.scores(self.D, self.cells)
end

--- The side to move, "black" or "white".
-- @treturn string
function State:player() return SIDES[self.side] end

--- The number of plies played (moves and passes).
-- @treturn integer
function State:ply() return self.plies end

--- A hash of the position (cells, side to move, passes).
-- @treturn integer
function State:hash()
  local h = 0xcbf29ce484222325 ~ (self.side * 31 + self.passes)
  for i = 1, self.D.n do h = (h ~ (self.cells[i] + 2)) * 1099511628211 end
  return h
end

--- What stands on a cell: "black", "white", "empty" or "blocked", and the
-- kind name for a piece.
-- @tparam integer r row
-- @tparam integer c column
-- @treturn string
-- @treturn ?string
function State:get(r, c)
  local code = self.cells[check_cell(self, r, c, "get")]
  if code == 0 then return "empty" end
  if code < 0 then return "blocked" end
  return SIDES[board.side_of(code)], self.D.kinds[board.kind_of(code)]
end

--- The piece code of a cell (0 empty, -1 block).
-- @tparam integer r row
-- @tparam integer c column
-- @treturn integer
function State:code(r, c) return self.cells[check_cell(self, r, c, "code")] end

--- The number of rows.
-- @treturn integer
function State:rows() return self.D.rows end
--- The number of columns.
-- @treturn integer
function State:cols() return self.D.cols end
--- The board's size: rows when square, else max(rows, cols).
-- @treturn integer
function State:size() return math.max(self.D.rows, self.D.cols) end

--- The pieces of a side ("black"/"white" or 1/2), or "empty" cells.
-- @param side the side
-- @treturn integer
function State:count(side)
  local s = ({ black = 1, white = 2, empty = 0, [1] = 1, [2] = 2 })[side]
  if not s then error("bad argument #1 to 'count' ('black', 'white' or 'empty' expected)", 2) end
  return ends.count(self.D, self.cells, s)
end

--- An independent copy of the state (with its undo history).
-- @treturn table
function State:clone()
  local S = setmetatable({}, State)
  for k, v in pairs(self) do S[k] = v end
  S.cells, S.log, S.list = table.move(self.cells, 1, self.D.n, 1, {}), {}, nil
  for j, e in ipairs(self.log) do S.log[j] = e end
  return S
end

State.__eq = function(a, b)
  if a.D.n ~= b.D.n or a.D.cols ~= b.D.cols or a.side ~= b.side or a.passes ~= b.passes then return false end
  for i = 1, a.D.n do
    if a.cells[i] ~= b.cells[i] then return false end
  end
  return true
end

State.__tostring = function(S) return text.board_text(S.D, S.cells) end

--- The text of a move, or nil when it is not a well-formed move of the game.
-- @param m the move
-- @treturn ?string
function State:move_text(m) return text.move_text(self.D, m) end

--- The legal move whose text is `s` (lowercased, spaces removed; a lone
-- column letter in a game with a column placement), or nil.
-- @tparam string s the text
-- @treturn ?integer
function State:parse_move(s)
  if type(s) ~= "string" then return nil end
  s = s:lower():gsub("%s", "")
  for _, m in ipairs(legal(self)) do
    local p = text.parts(self.D, m)
    if text.move_text(self.D, m) == s
      or (p.rule and p.rule.at == "column" and #s == 1 and s:byte() - 96 == (p.target - 1) % self.D.cols + 1) then
      return m
    end
  end
  return nil
end

--- The cells of a move as { r, c } pairs, the landing cell last.
-- @param m the move
-- @treturn ?table
function State:move_cells(m) return text.move_cells(self.D, self, m) end

--- Perft: the number of move sequences of length depth (a forced pass is a ply).
-- @tparam integer depth
-- @treturn integer
function State:perft(depth)
  if math.type(depth) ~= "integer" or depth < 0 then error("bad argument #1 to 'perft' (depth >= 0 expected)", 2) end
  return playout.perft(self, depth)
end

--- Random playouts to the end from this state (unchanged).
-- @param rng an object with :random(n), or an integer seed
-- @tparam[opt=1] integer n the number of playouts
-- @treturn table { black =, white =, draw =, plies = }
function State:playout(rng, n)
  return playout.run(self, rng, n or 1)
end

--- A game object for a normalised described game.
-- @tparam table normalised the normalised table (vocab29 section 2)
-- @treturn table G with G:start()
function reference.dgame(normalised)
  local D = compile.game(normalised)
  local G = { D = D, name = D.name }
  --- The setup position.
  function G.start() return new_state(D) end
  return G
end

return reference
