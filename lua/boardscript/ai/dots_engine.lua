--- The dots_search policy's search: alpha-beta over a position of its own
-- (arrays of drawn edges and box side counts) loaded from a core position,
-- with the loony-endgame values of boardscript.ai.dots_chains at its
-- leaves.
local chains = require "boardscript.ai.dots_chains"
local edge_number, chain_code = chains.edge_number, chains.chain_code
local loony_value, without_junctions = chains.loony_value, chains.without_junctions

local engine = {}

local CHECK_EVERY = 15 -- nodes between looks at the clock and the budget (a mask)
local UNKNOWN = math.mininteger

------------------------------------------------------------------------
-- The search, over a position of its own (arrays of drawn edges and box
-- side counts), loaded from a core position.

function engine.new(geo, memo, nfills)
  nfills = nfills or 8
  local E, NB = geo.E, geo.NB
  local eb1, eb2, be, zob, fills = geo.eb1, geo.eb2, geo.be, geo.zob, geo.fills
  local drawn, sides = {}, {}
  local hash, rem, n3 = 0, 0, 0
  local stack, sp = {}, 0
  local nodes, deadline, stopped = 0, nil, false
  local max_nodes = math.maxinteger
  local guesses = 0 -- evaluations used (a search without any is exact)
  local ply, killers = 0, {} -- plies from the root; per ply, the last move that cut off
  local tt = {}
  local visit, stamp = {}, 0
  local S = {}

  function S.load(d)
    for e = 1, E do drawn[e] = true end
    for _, edge in ipairs(d:open_edges()) do drawn[edge_number(geo, edge)] = false end
    hash, rem, n3 = 0, 0, 0
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
  end

  -- Draws open edge e: the boxes it completes.
  local function draw(e)
    drawn[e] = true
    hash = hash ~ zob[e]
    local k = 0
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
    rem = rem - k
    return k
  end

  local function undraw(e)
    drawn[e] = false
    hash = hash ~ zob[e]
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
  end

  local function unwind(to)
    while sp > to do
      undraw(stack[sp])
      sp = sp - 1
    end
  end

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
  S.captures = captures

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
  S.components = components

  local function loony()
    return loony_value(components(), memo)
  end
  S.loony = loony

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
  S.estimate = estimate

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

  local search

  -- Searches `moves` (each an edge) from the position: the fail-soft best
  -- value and its move.
  local function search_moves(moves, depth, alpha, beta)
    local best, best_move = UNKNOWN, nil
    ply = ply + 1
    for i = 1, #moves do
      local e = moves[i]
      local k = draw(e)
      sp = sp + 1
      stack[sp] = e
      local v
      if k > 0 then
        v = k + search(depth, alpha - k, beta - k)
      else
        v = -search(depth - 1, -beta, -alpha)
      end
      undraw(e)
      sp = sp - 1
      if stopped then ply = ply - 1; return 0, nil end
      if v > best then best, best_move = v, e end
      if v > alpha then alpha = v end
      if alpha >= beta then
        if k == 0 then killers[ply] = e end
        break
      end
    end
    ply = ply - 1
    return best, best_move
  end

  -- TT entries: one integer, (((move * 32 + depth) * 8 + flags) << 10) |
  -- (value + 512); flags: the bound (EXACT, LOWER, UPPER) plus SURE when
  -- no evaluation was used below (a value to the end of the game, good at
  -- any depth).
  local EXACT, LOWER, UPPER, SURE = 0, 1, 2, 4

  function search(depth, alpha, beta)
    nodes = nodes + 1
    if nodes & CHECK_EVERY == 0 and (nodes >= max_nodes or deadline and os.clock() >= deadline) then
      stopped = true
    end
    if stopped then return 0 end
    local base, gained = sp, 0
    local decisions
    while rem > 0 and n3 > 0 do
      local forced
      forced, decisions = captures()
      if not forced then break end
      local k = draw(forced)
      sp = sp + 1
      stack[sp] = forced
      gained = gained + k
    end
    if rem == 0 then
      unwind(base)
      return gained
    end
    alpha, beta = alpha - gained, beta - gained
    local left = rem
    if alpha >= left then unwind(base); return gained + left end
    if beta <= -left then unwind(base); return gained - left end
    local key = hash
    local entry = tt[key]
    local tt_move
    if entry then
      local value = (entry & 1023) - 512
      local rest = entry >> 10
      local flags, d = rest & 7, (rest >> 3) & 31
      tt_move = rest >> 8
      if tt_move == 0 then tt_move = nil end
      local sure = flags >= SURE
      if sure or d >= depth then
        local bound = flags & 3
        if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha) then
          if not sure then guesses = guesses + 1 end
          unwind(base)
          return gained + value
        end
      end
    end
    local moves
    if decisions then
      if #decisions == 2 then
        moves = decisions
      else -- decline at most the last of them: take the others first
        moves = {}
        for i = 1, #decisions, 2 do moves[#moves + 1] = decisions[i] end
      end
    else
      moves = middle_moves(tt_move, killers[ply + 1])
      if not moves then
        local v = loony()
        unwind(base)
        return gained + v
      end
      if depth <= 0 then
        guesses = guesses + 1
        local v = estimate()
        unwind(base)
        return gained + v
      end
    end
    local before = guesses
    local best, best_move = search_moves(moves, depth, alpha, beta)
    if not stopped then
      local flags = best <= alpha and UPPER or best >= beta and LOWER or EXACT
      if guesses == before then flags = flags + SURE end
      local d = depth < 0 and 0 or depth > 31 and 31 or depth
      tt[key] = ((((best_move or 0) * 32 + d) * 8 + flags) << 10) | (best + 512)
    end
    unwind(base)
    return gained + best
  end

  --- The root's candidate moves: forced capture (edge), or a list.
  function S.root_moves()
    if n3 > 0 then
      local forced, decisions = captures()
      if forced then return forced end
      if decisions then
        local list = {}
        for i = 1, #decisions, (#decisions == 2 and 1 or 2) do list[#list + 1] = decisions[i] end
        return nil, list
      end
    end
    local list = middle_moves(nil, nil)
    if list then return nil, list, false end
    list = {}
    for e = 1, E do if not drawn[e] then list[#list + 1] = e end end
    return nil, list, true
  end

  --- Searches each root move to `depth` plies; the best move and value,
  -- or nil when the clock stopped the search before the first move.
  function S.root(list, depth)
    local alpha, beta = -rem - 1, rem + 1
    local best, best_value = nil, UNKNOWN
    for _, e in ipairs(list) do
      local k = draw(e)
      local v
      if k > 0 then
        v = k + search(depth - 1, alpha - k, beta - k)
      else
        v = -search(depth - 1, -beta, -alpha)
      end
      undraw(e)
      if stopped then break end
      if v > best_value then best, best_value = e, v end
      if v > alpha then alpha = v end
    end
    return best, best_value
  end

  --- Limits the searches from now on: a deadline (os.clock), a node count
  -- (each nil: no limit).
  function S.limit(clock, node_count)
    deadline = clock
    max_nodes = node_count or math.maxinteger
    stopped = false
  end
  --- The safe moves of the position.
  function S.safe_count()
    local n = 0
    for e = 1, E do if not drawn[e] and safe(e) then n = n + 1 end end
    return n
  end
  --- Evaluations used so far (unchanged by a search: its value is exact).
  function S.guesses() return guesses end
  function S.stopped() return stopped end
  function S.nodes() return nodes end
  function S.remaining() return rem end
  return S
end

return engine
