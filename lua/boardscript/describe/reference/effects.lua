--- What a move does, in the reference interpreter (vocab29 sections 1.2
-- and 1.4): every cell change goes through `set`, which records the old
-- value in the undo entry.
local board = require "boardscript.describe.reference.board"
local moves = require "boardscript.describe.reference.moves"

local offset, side_of, kind_of = board.offset, board.side_of, board.kind_of

local effects = {}

local function set(S, entry, i, value)
  local changes = entry.changes
  changes[#changes + 1] = i
  changes[#changes + 1] = S.cells[i]
  S.cells[i] = value
end

local function convert(D, S, entry, side, t, dirs)
  if not dirs then return end
  for _, d in ipairs(dirs[side]) do
    local j = offset(D, t, d)
    local code = j and S.cells[j]
    if code and side_of(code) ~= 0 and side_of(code) ~= side then
      set(S, entry, j, board.code(kind_of(code), side))
    end
  end
end

local function land_piece(D, S, entry, side, piece, t)
  local promoted = moves.promotion(D, side, kind_of(piece), t)
  set(S, entry, t, promoted and board.code(promoted, side) or piece)
end

local function place(D, S, entry, side, rule, t)
  set(S, entry, t, board.code(rule.kind, side))
  if rule.flips then
    for _, j in ipairs(moves.flips(D, S.cells, side, t, rule.flips[side])) do
      set(S, entry, j, board.code(kind_of(S.cells[j]), side))
    end
  end
  convert(D, S, entry, side, t, rule.convert)
end

local function hop(D, S, entry, side, rule, o, hops, extra)
  local piece, cur = S.cells[o], o
  set(S, entry, o, 0)
  for j = 0, hops - 1 do
    local d = board.COMPASS[((extra >> (3 * j)) & 7) + 1]
    local over = offset(D, cur, d)
    set(S, entry, over, 0)
    cur = offset(D, over, d)
  end
  land_piece(D, S, entry, side, piece, cur)
  convert(D, S, entry, side, cur, rule.convert)
end

local function swap(D, S, entry)
  local first = D.first
  for i = 1, D.n do
    local code = S.cells[i]
    if side_of(code) == first then
      local r, c = board.row_col(D, i)
      set(S, entry, i, 0)
      set(S, entry, (c - 1) * D.cols + r, board.code(kind_of(code), 3 - first))
      return
    end
  end
end

--- Applies move m (legal) for the side to move, recording the changes in
-- `entry.changes` (pairs cell, old value). Does not change the player.
-- @tparam table D the compiled game
-- @tparam table S the state
-- @tparam table entry the undo entry of this ply
-- @tparam integer m the move
function effects.apply(D, S, entry, m)
  local side = S.side
  local o, t, ri, hops, extra = board.decode(m)
  if ri == board.SWAP_RULE then return swap(D, S, entry) end
  local rule = D.rules[ri + 1]
  o, t = o + 1, t + 1
  if rule.op == "place" then return place(D, S, entry, side, rule, t) end
  if rule.op == "hop" then return hop(D, S, entry, side, rule, o, hops, extra) end
  local piece = S.cells[o]
  if not rule.leave then set(S, entry, o, 0) end
  land_piece(D, S, entry, side, piece, t)
  convert(D, S, entry, side, t, rule.convert)
  if rule.arrow then set(S, entry, extra + 1, -1) end
end

--- Restores the cells an undo entry changed.
-- @tparam table S the state
-- @tparam table entry the undo entry
function effects.revert(S, entry)
  local changes = entry.changes
  for j = #changes - 1, 1, -2 do S.cells[changes[j]] = changes[j + 1] end
end

return effects
