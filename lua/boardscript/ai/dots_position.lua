--- The position the dots_search engine searches (boardscript.ai.dots_engine):
-- arrays of drawn edges and box side counts loaded from a core position,
-- and what the search asks of it, in parts that share it: its edges and
-- counters (dots_position.edges), what a box's edges say (.boxes), the
-- moves to search (.moves), and the chains and loops a position leaves and
-- their values (.chains), with the loony-endgame values of
-- boardscript.ai.dots_chains.
local chains = require "boardscript.ai.dots_chains"
local edge_number, chain_code = chains.edge_number, chains.chain_code
local loony_value, without_junctions = chains.loony_value, chains.without_junctions

local dots_position = {}

--- A new, empty position P (dots_position.edges(...).load fills it):
-- `drawn` (edge -> boolean), `sides` (box -> drawn sides; sides[0], the
-- ground, is never counted), `visit` (box -> walk stamp), and its
-- counters: `hash` (Zobrist, of the drawn edges), `rem` (boxes not yet
-- completed) and `n3` (boxes with three sides).
-- @treturn table the position
function dots_position.new()
  return { drawn = {}, sides = {}, visit = {}, hash = 0, rem = 0, n3 = 0 }
end

--- Loading a core position into P, and drawing and undrawing one edge.
-- @tparam table geo the grid's geometry (dots_chains.geometry)
-- @tparam table P the position (dots_position.new)
-- @treturn table { load =, draw =, undraw = }
function dots_position.edges(geo, P)
  local E, NB = geo.E, geo.NB
  local eb1, eb2, be, zob = geo.eb1, geo.eb2, geo.be, geo.zob
  local drawn, sides, visit = P.drawn, P.sides, P.visit
  local F = {}

  function F.load(d)
    for e = 1, E do drawn[e] = true end
    for _, edge in ipairs(d:open_edges()) do drawn[edge_number(geo, edge)] = false end
    local hash, rem, n3 = 0, 0, 0
    sides[0] = 0 -- the ground: never counted
    for e = 1, E do if drawn[e] then hash = hash ~ zob[e] end end
    for b = 1, NB do
      local s, base = 0, 4 * b - 4
      for k = 1, 4 do if drawn[be[base + k]] then s = s + 1 end end
      sides[b] = s
      if s < 4 then rem = rem + 1 end
      if s == 3 then n3 = n3 + 1 end
      visit[b] = 0
    end
    P.hash, P.rem, P.n3 = hash, rem, n3
  end

  -- Draws open edge e: the boxes it completes.
  function F.draw(e)
    drawn[e] = true
    P.hash = P.hash ~ zob[e]
    local k, n3 = 0, P.n3
    local b = eb1[e]
    if b > 0 then
      local s = sides[b] + 1
      sides[b] = s
      if s == 3 then n3 = n3 + 1 elseif s == 4 then n3 = n3 - 1; k = 1 end
    end
    b = eb2[e]
    if b > 0 then
      local s = sides[b] + 1
      sides[b] = s
      if s == 3 then n3 = n3 + 1 elseif s == 4 then n3 = n3 - 1; k = k + 1 end
    end
    P.n3, P.rem = n3, P.rem - k
    return k
  end

  function F.undraw(e)
    drawn[e] = false
    P.hash = P.hash ~ zob[e]
    local n3, rem = P.n3, P.rem
    local b = eb1[e]
    if b > 0 then
      local s = sides[b]
      sides[b] = s - 1
      if s == 3 then n3 = n3 - 1 elseif s == 4 then n3 = n3 + 1; rem = rem + 1 end
    end
    b = eb2[e]
    if b > 0 then
      local s = sides[b]
      sides[b] = s - 1
      if s == 3 then n3 = n3 - 1 elseif s == 4 then n3 = n3 + 1; rem = rem + 1 end
    end
    P.n3, P.rem = n3, rem
  end

  return F
end

--- What the edges of one box say: an open edge, the box across an edge,
-- whether an edge is safe, what to do with a capturable box, how many
-- boxes an unsafe edge hands over.
-- @tparam table geo the grid's geometry
-- @tparam table P the position
-- @treturn table { open_edge =, across =, safe =, classify =, handed = }
function dots_position.boxes(geo, P)
  local eb1, eb2, be = geo.eb1, geo.eb2, geo.be
  local drawn, sides = P.drawn, P.sides
  local F = {}

  -- An open edge of box b other than `except`.
  local function open_edge(b, except)
    local base = 4 * b - 4
    for k = 1, 4 do
      local e = be[base + k]
      if not drawn[e] and e ~= except then return e end
    end
    return 0
  end

  local function across(b, e)
    local x = eb1[e]
    if x == b then return eb2[e] end
    return x
  end

  local function safe(e)
    local b = eb1[e]
    if b > 0 and sides[b] >= 2 then return false end
    b = eb2[e]
    return b == 0 or sides[b] < 2
  end

  -- What to do with capturable box `coin` (three sides): 1, edge: take it
  -- (always right); 2, take, decline: the end of a chain (two boxes left)
  -- or of an opened loop (four left), where declining may be better; 0: the
  -- same loop seen from its other end.
  local function classify(coin)
    local take = open_edge(coin, 0)
    local nxt = across(coin, take)
    if nxt == 0 or sides[nxt] ~= 2 then return 1, take end
    local len, prev, cur, second = 2, take, nxt, 0
    while true do
      local out = open_edge(cur, prev)
      local far = across(cur, out)
      if len == 2 then second = out end
      if far == 0 or sides[far] <= 1 then
        if len ~= 2 then return 1, take end
        return 2, take, out
      end
      if sides[far] == 3 then
        if len ~= 3 then return 1, take end
        if far < coin then return 0 end
        return 2, take, second
      end
      len, prev, cur = len + 1, out, far
    end
  end

  -- How many boxes drawing unsafe edge e hands over in the direction of
  -- its two-sided neighbour b (0 when b is not two-sided), up to 3.
  local function handed(e, b)
    if b == 0 or sides[b] ~= 2 then return 0 end
    local len, prev, cur = 0, e, b
    while len < 3 do
      len = len + 1
      local out = open_edge(cur, prev)
      local far = across(cur, out)
      if far == 0 or sides[far] ~= 2 then return len end
      prev, cur = out, far
    end
    return len
  end

  F.open_edge, F.across, F.safe, F.classify, F.handed = open_edge, across, safe, classify, handed
  return F
end

--- The moves of a position: its captures (forced, or decisions) and the
-- moves searched where safe moves are left.
-- @tparam table geo the grid's geometry
-- @tparam table P the position
-- @tparam table B its dots_position.boxes
-- @treturn table { captures =, middle_moves = }
function dots_position.moves(geo, P, B)
  local E, NB = geo.E, geo.NB
  local eb1, eb2 = geo.eb1, geo.eb2
  local drawn, sides = P.drawn, P.sides
  local classify, safe, handed = B.classify, B.safe, B.handed
  local F = {}

  -- The captures of the position: a forced edge, or the decisions (a list
  -- of take, decline pairs, flattened), or nothing.
  local function captures()
    local decisions
    for b = 1, NB do
      if sides[b] == 3 then
        local kind, take, decline = classify(b)
        if kind == 1 then return take end
        if kind == 2 then
          decisions = decisions or {}
          decisions[#decisions + 1] = take
          decisions[#decisions + 1] = decline
        end
      end
    end
    return nil, decisions
  end

  -- The moves searched where safe moves are left: the safe ones, then the
  -- sacrifices of one box or of two (in the middle, the hard-hearted
  -- handout). `first` (a TT move) goes first. nil when no move is safe.
  local function middle_moves(first, killer)
    local list, n, any_safe = {}, 0, false
    if first then
      n = 1
      list[1] = first
      any_safe = safe(first)
    end
    if killer and killer ~= first and not drawn[killer] then
      n = n + 1
      list[n] = killer
      any_safe = any_safe or safe(killer)
    else
      killer = nil
    end
    local sacrifices
    for e = 1, E do
      if not drawn[e] and e ~= first and e ~= killer then
        if safe(e) then
          any_safe = true
          n = n + 1
          list[n] = e
        else
          local a, b = handed(e, eb1[e]), handed(e, eb2[e])
          if a == 0 or b == 0 or (a == 1 and b == 1) then
            sacrifices = sacrifices or {}
            sacrifices[#sacrifices + 1] = e
          end
        end
      end
    end
    if not any_safe then return nil end
    if sacrifices then
      for _, e in ipairs(sacrifices) do n = n + 1; list[n] = e end
    end
    return list
  end

  F.captures, F.middle_moves = captures, middle_moves
  return F
end

--- The chains and loops a position leaves (no safe move, no capture) and
-- their values: exact (loony) or estimated after filling the safe moves.
-- @tparam table geo the grid's geometry
-- @tparam table P the position
-- @tparam table B its dots_position.boxes
-- @tparam table memo loony values by component codes
-- @tparam integer nfills fill orders the estimate averages over
-- @treturn table { components =, loony =, estimate = }
function dots_position.chains(geo, P, B, memo, nfills)
  local E, NB = geo.E, geo.NB
  local eb1, eb2, fills = geo.eb1, geo.eb2, geo.fills
  local drawn, sides, visit = P.drawn, P.sides, P.visit
  local open_edge = B.open_edge
  local stamp = 0
  local F = {}

  -- Walks from two-sided box b out through its open edge e, along the
  -- two-sided boxes beyond (marking them): how many, and the box the walk
  -- ends at (0: the ground; b itself: a loop).
  local function walk(b, e)
    local len, cur, out = 0, b, e
    while true do
      local far = eb1[out]
      if far == cur then far = eb2[out] end
      if far == 0 or far == b or sides[far] ~= 2 then return len, far end
      visit[far] = stamp
      len = len + 1
      cur = far
      out = open_edge(far, out)
    end
  end

  -- The sorted component codes of the position (no safe move, no capture).
  local function components()
    stamp = stamp + 1
    local list, n = {}, 0
    for b = 1, NB do
      if sides[b] == 2 and visit[b] ~= stamp then
        visit[b] = stamp
        local e1 = open_edge(b, 0)
        local len1, end1 = walk(b, e1)
        n = n + 1
        if end1 == b then
          list[n] = -(len1 + 1)
        else
          local len2, end2 = walk(b, open_edge(b, e1))
          list[n] = chain_code(len1 + len2 + 1, end1, end2)
        end
      end
    end
    table.sort(list)
    return list
  end

  local function loony()
    return loony_value(components(), memo)
  end

  -- The safe moves left drawn in the fill order, then the loony value for
  -- whoever is then to move, as a value for the player to move now. (A
  -- safe move completes nothing and makes no box capturable, so the fill
  -- only counts sides.)
  local filled = {}
  local function estimate()
    local total = 0
    for f = 1, nfills do
      local fill, drew = fills[f], 0
      for i = 1, E do
        local e = fill[i]
        if not drawn[e] then
          local a, b = eb1[e], eb2[e]
          if sides[a] < 2 and sides[b] < 2 then
            drawn[e] = true
            if a > 0 then sides[a] = sides[a] + 1 end
            if b > 0 then sides[b] = sides[b] + 1 end
            drew = drew + 1
            filled[drew] = e
          end
        end
      end
      local v = loony_value(without_junctions(components()), memo)
      for i = 1, drew do
        local e = filled[i]
        drawn[e] = false
        local a, b = eb1[e], eb2[e]
        if a > 0 then sides[a] = sides[a] - 1 end
        if b > 0 then sides[b] = sides[b] - 1 end
      end
      if drew % 2 == 1 then v = -v end
      total = total + v
    end
    return total // nfills
  end

  F.components, F.loony, F.estimate = components, loony, estimate
  return F
end

return dots_position
