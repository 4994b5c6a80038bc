--- Ends, results and scores of the reference interpreter (vocab29 section
-- 1.3). A result is { winner = 0 (draw) | 1 | 2, how = "win" | "draw" |
-- "score" }: how the score hook reports it.
local board = require "boardscript.describe.reference.board"

local offset, side_of, kind_of = board.offset, board.side_of, board.kind_of

local ends = {}

local function count(D, cells, side)
  local n = 0
  for i = 1, D.n do
    if side_of(cells[i]) == side then n = n + 1 end
  end
  return n
end

-- The side owning an empty region (orthogonal flood from i), or 0; marks
-- the region's cells in `seen` and returns its size.
local ORTHOGONAL = { { -1, 0 }, { 0, 1 }, { 1, 0 }, { 0, -1 } }
local function region(D, cells, i, seen)
  local stack, size, borders = { i }, 0, {}
  seen[i] = true
  while #stack > 0 do
    local j = table.remove(stack)
    size = size + 1
    for _, d in ipairs(ORTHOGONAL) do
      local k = offset(D, j, d)
      if k and cells[k] == 0 and not seen[k] then
        seen[k] = true
        stack[#stack + 1] = k
      elseif k and cells[k] > 0 then
        borders[side_of(cells[k])] = true
      end
    end
  end
  if borders[1] and not borders[2] then return 1, size end
  if borders[2] and not borders[1] then return 2, size end
  return 0, size
end

--- The two scores of the `score` field (black, white).
-- @tparam table D the compiled game
-- @tparam table cells the position's cells
-- @treturn integer black's score
-- @treturn integer white's score
function ends.scores(D, cells)
  if D.score == "none" then return 0, 0 end
  local s = { count(D, cells, 1), count(D, cells, 2) }
  if D.score == "territory" then
    local seen = {}
    for i = 1, D.n do
      if cells[i] == 0 and not seen[i] then
        local owner, size = region(D, cells, i, seen)
        if owner > 0 then s[owner] = s[owner] + size end
      end
    end
  end
  return s[1], s[2]
end

--- A result decided by `how` ("draw" or "score").
-- @tparam table D the compiled game
-- @tparam table cells the position's cells
-- @tparam string how "draw" or "score"
-- @treturn table the result
function ends.decided(D, cells, how)
  if how == "draw" then return { winner = 0, how = "draw" } end
  local a, b = ends.scores(D, cells)
  return { winner = a > b and 1 or b > a and 2 or 0, how = "score" }
end

-- The length of the run of side's pieces through cell i along axis.
local function run_through(D, cells, side, i, axis)
  local length = 1
  for _, sign in ipairs { 1, -1 } do
    local j = board.offset_rc(D, i, sign * axis[1], sign * axis[2])
    while j and side_of(cells[j]) == side do
      length, j = length + 1, board.offset_rc(D, j, sign * axis[1], sign * axis[2])
    end
  end
  return length
end

-- At least k: through the cells the ply made the mover's (`changed`; a
-- run cannot appear elsewhere, a setup's own run is not seen). Exactly k:
-- every maximal run of the mover (a move can shorten one to k).
local function line(D, cells, side, e, changed)
  for i = 1, D.n do
    if side_of(cells[i]) == side and (e.exact or changed[i]) then
      for _, axis in ipairs(e.axes) do
        local length = run_through(D, cells, side, i, axis)
        if length == e.k or (length > e.k and not e.exact) then return true end
      end
    end
  end
  return false
end

local function touches(D, i, edge)
  local r, c = board.row_col(D, i)
  return (edge == "n" and r == 1) or (edge == "s" and r == D.rows)
    or (edge == "w" and c == 1) or (edge == "e" and c == D.cols)
end

local function connect(D, cells, side, e)
  local from, to = e.edges[side][1], e.edges[side][2]
  local seen, stack = {}, {}
  for i = 1, D.n do
    if side_of(cells[i]) == side and touches(D, i, from) then
      seen[i] = true
      stack[#stack + 1] = i
    end
  end
  while #stack > 0 do
    local i = table.remove(stack)
    if touches(D, i, to) then return true end
    for _, d in ipairs(e.dirs) do
      local j = offset(D, i, d)
      if j and not seen[j] and side_of(cells[j]) == side then
        seen[j] = true
        stack[#stack + 1] = j
      end
    end
  end
  return false
end

local function reach(cells, side, e)
  for i in pairs(e.zone[side]) do
    local code = cells[i]
    if side_of(code) == side and (not e.kinds or e.kinds[kind_of(code)]) then return true end
  end
  return false
end

local function full(D, cells)
  for i = 1, D.n do
    if cells[i] == 0 then return false end
  end
  return true
end

--- The result of the ends after `mover` played or passed, or nil: the
-- first end that fires decides.
-- @tparam table D the compiled game
-- @tparam table S the state (after the ply)
-- @tparam integer mover 1 or 2
-- @tparam table changes the ply's cell changes (pairs cell, old value)
-- @treturn ?table the result
function ends.check(D, S, mover, changes)
  local cells = S.cells
  local changed = {}
  for j = 1, #changes, 2 do
    local i = changes[j]
    if side_of(cells[i]) == mover and side_of(changes[j + 1]) ~= mover then changed[i] = true end
  end
  local win = { winner = mover, how = "win" }
  for _, e in ipairs(D.ends) do
    if e.op == "line" then
      if line(D, cells, mover, e, changed) then return win end
    elseif e.op == "connect" then
      if connect(D, cells, mover, e) then return win end
    elseif e.op == "reach" then
      if reach(cells, mover, e) then return win end
    elseif e.op == "no_pieces" then
      if count(D, cells, 3 - mover) == 0 then return win end
    elseif e.op == "full" then
      if full(D, cells) then return ends.decided(D, cells, e.result) end
    elseif e.op == "plies" then
      if S.plies >= e.n then return ends.decided(D, cells, e.result) end
    end
  end
  return nil
end

--- The pieces of a side (1, 2) or the empty cells (0).
-- @tparam table D the compiled game
-- @tparam table cells the position's cells
-- @tparam integer side 0, 1 or 2
-- @treturn integer
function ends.count(D, cells, side)
  if side == 0 then
    local n = 0
    for i = 1, D.n do
      if cells[i] == 0 then n = n + 1 end
    end
    return n
  end
  return count(D, cells, side)
end

return ends
