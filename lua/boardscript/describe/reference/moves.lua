--- Move generation of the reference interpreter, written from the contract
-- (vocab29 sections 1.2 and 1.5): rules in order, origins by increasing
-- cell, directions in their normalised order, rays nearest first, hops
-- depth first; then must-capture, then swap. No deduplication.
local board = require "boardscript.describe.reference.board"

local offset, side_of, kind_of, encode = board.offset, board.side_of, board.kind_of, board.encode
local NONE = board.NONE

local moves = {}

local function is_enemy(code, side)
  local s = side_of(code)
  return s ~= 0 and s ~= side
end

-- Whether a step/slide/leap may land on a cell holding `code`.
local function target_ok(code, side, to)
  if code == -1 then return false end
  if code == 0 then return to ~= "enemy" end
  if side_of(code) == side then return false end
  return to ~= "empty"
end

--- The cells flipped by placing on cell i for `side`: in each direction of
-- dirs, the run of enemy pieces ended by one of side's pieces.
-- @tparam table D the compiled game
-- @tparam table cells the position's cells
-- @tparam integer side 1 or 2
-- @tparam integer i the placed cell (1-based)
-- @tparam table dirs list of { dr, dc }
-- @treturn table list of cells
function moves.flips(D, cells, side, i, dirs)
  local out = {}
  for _, d in ipairs(dirs) do
    local run, j = {}, offset(D, i, d)
    while j and is_enemy(cells[j], side) do
      run[#run + 1] = j
      j = offset(D, j, d)
    end
    if j and #run > 0 and side_of(cells[j]) == side then
      for _, x in ipairs(run) do out[#out + 1] = x end
    end
  end
  return out
end

local function has_neighbour(D, cells, side, i, dirs)
  for _, d in ipairs(dirs) do
    local j = offset(D, i, d)
    if j and side_of(cells[j]) == side then return true end
  end
  return false
end

-- The landing cell of a piece dropped in column c, or nil when full.
local function column_landing(D, cells, c)
  if cells[c] ~= 0 then return nil end
  local r = 1
  while r < D.rows and cells[r * D.cols + c] == 0 do r = r + 1 end
  return (r - 1) * D.cols + c
end

local function place_moves(D, cells, side, rule, ri, add)
  local targets = {}
  if rule.at == "column" then
    for c = 1, D.cols do targets[#targets + 1] = column_landing(D, cells, c) end
  else
    for i = 1, D.n do
      if cells[i] == 0 and (rule.at ~= "adjacent" or has_neighbour(D, cells, side, i, rule.dirs[side])) then
        targets[#targets + 1] = i
      end
    end
  end
  for _, t in ipairs(targets) do
    if not rule.flips or #moves.flips(D, cells, side, t, rule.flips[side]) > 0 then
      add(encode(NONE, t - 1, ri, 0, 0), false)
    end
  end
end

local function moving_piece(cells, i, side, rule)
  local code = cells[i]
  return side_of(code) == side and rule.kinds[kind_of(code)]
end

local function step_moves(D, cells, side, rule, ri, add)
  for i = 1, D.n do
    if moving_piece(cells, i, side, rule) then
      for _, d in ipairs(rule.dirs[side]) do
        local t = offset(D, i, d)
        if t and target_ok(cells[t], side, rule.to) then
          add(encode(i - 1, t - 1, ri, 0, 0), cells[t] > 0)
        end
      end
    end
  end
end

-- The arrows from landing cell t after a slide from i (i is empty now
-- unless the rule leaves a piece behind).
local function arrow_moves(D, cells, side, rule, ri, i, t, capture, add)
  for _, d in ipairs(rule.arrow[side]) do
    local a = offset(D, t, d)
    while a and (cells[a] == 0 or (a == i and not rule.leave)) do
      add(encode(i - 1, t - 1, ri, 0, a - 1), capture)
      a = offset(D, a, d)
    end
  end
end

local function slide_moves(D, cells, side, rule, ri, add)
  local function land(i, t, capture)
    if rule.arrow then
      arrow_moves(D, cells, side, rule, ri, i, t, capture, add)
    else
      add(encode(i - 1, t - 1, ri, 0, 0), capture)
    end
  end
  for i = 1, D.n do
    if moving_piece(cells, i, side, rule) then
      for _, d in ipairs(rule.dirs[side]) do
        local t = offset(D, i, d)
        while t and cells[t] == 0 do
          if rule.to ~= "enemy" then land(i, t, false) end
          t = offset(D, t, d)
        end
        if t and rule.to ~= "empty" and is_enemy(cells[t], side) then land(i, t, true) end
      end
    end
  end
end

--- Whether a piece of kind `kind` of `side` landing on cell i is promoted.
-- @tparam table D the compiled game
-- @tparam integer side 1 or 2
-- @tparam integer kind the piece's kind
-- @tparam integer i a cell (1-based)
-- @treturn ?integer the new kind, or nil
function moves.promotion(D, side, kind, i)
  for _, p in ipairs(D.promote) do
    if p.from == kind and p.zone[side][i] then return p.to end
  end
  return nil
end

local MAX_HOPS = 11

-- Every maximal hop path of the piece on cell `origin`, depth first.
local function hop_paths(D, cells, side, rule, ri, origin, add)
  local kind = kind_of(cells[origin])
  local captured, packed = {}, {}
  local function emit(land, h)
    local extra = 0
    for j = 1, h do extra = extra | (packed[j] << (3 * (j - 1))) end
    add(encode(origin - 1, land - 1, ri, h, extra), true)
  end
  local function extend(cur, h)
    for _, d in ipairs(rule.dirs[side]) do
      local over = offset(D, cur, d)
      local land = over and offset(D, over, d)
      if land and is_enemy(cells[over], side) and not captured[over]
        and (cells[land] == 0 or land == origin) then
        captured[over], packed[h + 1] = true, board.compass_index(d)
        if rule.chain and h + 1 < MAX_HOPS and not moves.promotion(D, side, kind, land)
          and moves.can_hop(D, cells, side, rule, origin, land, captured) then
          extend(land, h + 1)
        else
          emit(land, h + 1)
        end
        captured[over] = nil
      end
    end
  end
  extend(origin, 0)
end

--- Whether the piece (from `origin`, now on `cur`) can hop again.
-- @tparam table D the compiled game
-- @tparam table cells the position's cells
-- @tparam integer side 1 or 2
-- @tparam table rule the hop rule
-- @tparam integer origin the chain's origin (empty during the chain)
-- @tparam integer cur where the piece stands
-- @tparam table captured set of cells captured so far
-- @treturn boolean
function moves.can_hop(D, cells, side, rule, origin, cur, captured)
  for _, d in ipairs(rule.dirs[side]) do
    local over = offset(D, cur, d)
    local land = over and offset(D, over, d)
    if land and is_enemy(cells[over], side) and not captured[over]
      and (cells[land] == 0 or land == origin) then
      return true
    end
  end
  return false
end

local function hop_moves(D, cells, side, rule, ri, add)
  for i = 1, D.n do
    if moving_piece(cells, i, side, rule) then hop_paths(D, cells, side, rule, ri, i, add) end
  end
end

--- The pieces of a side.
-- @tparam table D the compiled game
-- @tparam table cells the position's cells
-- @tparam integer side 1 or 2
-- @treturn integer
function moves.count(D, cells, side)
  local n = 0
  for i = 1, D.n do
    if side_of(cells[i]) == side then n = n + 1 end
  end
  return n
end

local GENERATE = { place = place_moves, step = step_moves, leap = step_moves, slide = slide_moves, hop = hop_moves }

--- The legal moves of the side to move, in the contract's order (the
-- caller checks the game is not over).
-- @tparam table D the compiled game
-- @tparam table S the state (cells, player, ply, log)
-- @treturn table list of move integers
function moves.generate(D, S)
  local list, captures, any_capture = {}, {}, false
  local side, cells = S.side, S.cells
  local function add(m, capture)
    local j = #list + 1
    list[j], captures[j] = m, capture
    any_capture = any_capture or capture
  end
  for ri, rule in ipairs(D.rules) do GENERATE[rule.op](D, cells, side, rule, ri - 1, add) end
  if D.must_capture and any_capture then
    local kept = {}
    for j, m in ipairs(list) do
      if captures[j] then kept[#kept + 1] = m end
    end
    list = kept
  end
  if D.swap and S.plies == 1 and #S.log == 1 and not S.log[1].pass and side ~= D.first
    and moves.count(D, cells, D.first) == 1 then
    list[#list + 1] = encode(NONE, NONE, board.SWAP_RULE, 0, 0)
  end
  return list
end

return moves
