--- The `dots_search` policy: Dots and Boxes on grids the exact solver cannot
-- finish (up to 8 x 8 boxes and beyond), by alpha-beta search with a
-- chain-aware evaluation, handing over to the exact solver when few edges
-- or safe moves are left.
--
-- The game is about control. While safe moves last (edges that give no box
-- its third side) the players fight over who will have to open the first
-- long chain (the long-chain rule: player 1 wants dots + long chains even);
-- once none is left the position is "loony": every move hands the opponent
-- a chain or a loop, and the player in control keeps control by
-- double-dealing (taking all but the last two boxes of a chain, or the last
-- four of a loop, and declining them with the double-cross move).
--
-- * Captures: a capturable box is taken at once (no search) unless taking
--   it is a real choice: two boxes left at the end of a chain, or four of an
--   opened loop, where declining may be better; then both are searched.
-- * Loony positions are valued exactly by a search over their components
--   (chains end on the ground or at junction boxes, which join their other
--   chains when an opened chain takes a string away; core `chains()` gives
--   the same decomposition): the opener tries each component (a two-chain
--   opened in its middle, the hard-hearted handout), the controller either
--   takes all or declines the last two (four of a loop). Without junctions
--   only the smallest loop, the smallest long chain and the chains of one
--   and two need trying (Buzzard and Ciere). That value is the leaf value of
--   the search, and decides among the moves of a loony position.
-- * The middle game: iterative-deepening alpha-beta (negamax on the net
--   score of the boxes still to be won; a move that completes a box keeps
--   the turn, so its value is not negated) with a transposition table and
--   killer moves, over the safe moves, the sacrifices of one or two boxes
--   (which flip the parity of the safe moves left, and so who must open the
--   first long chain) and the openings of chains at their ends. A position
--   `depth` plies down with safe moves left is valued by drawing the safe
--   moves that remain, in each of `fills` fixed random orders, and valuing
--   the loony position reached (its junctions joined, the evaluation's
--   shortcut) for whoever is then to move: the average is the expected
--   chain outcome, parity included. When at most `endgame_safe` safe moves
--   are left the search deepens until it sees the end of the game (no
--   evaluation used: exact) or spends `nodes` nodes.
-- * On a grid the exact solver takes (core.dots_solver_max_edges, 64 edges:
--   up to 5 x 5, 4 x 6, 3 x 8), once at most `solver_edges` edges are open
--   or at most `solver_safe` safe moves are left, the solver decides within
--   `solver_nodes` nodes: of the moves that keep its value (perfect play),
--   the search's evaluation picks one (an opponent may not play perfectly).
--   When the solver runs out of nodes, the search moves instead.
--
-- Options (`new(opts)`, ctx.options, or `dots_search:depth=3,time=1`):
-- see `options`. Budgets are counted in nodes, so a seeded game replays
-- identically; `time` (processor seconds per move, optional) deepens the
-- search until it is spent. Moves of equal value are chosen between with
-- the game's seeded generator (ctx.rng, else game.rng; without one, the
-- first in edge order).
local core = require "boardscript.core"

local FILLS = 16 -- safe-move orders made per grid size (the `fills` option uses the first ones)

local dots_search = {
  name = "dots_search",
  games = { "dots" }, -- the rule sets it can play (checked when loaded)
  options = {
    depth = { type = "integer", min = 1, max = 20,
              help = "plies of the alpha-beta search (default 2; with time, the deepest allowed, default 20)" },
    time = { type = "number", min = 0, help = "seconds per move (processor time): deepen until it is spent" },
    solver_edges = { type = "integer", min = 0, max = 64, default = 30,
                     help = "hand over to the exact solver when at most this many edges are open (0: never)" },
    solver_safe = { type = "integer", min = 0, max = 64, default = 12,
                    help = "hand over to the exact solver when at most this many safe moves are left" },
    solver_nodes = { type = "integer", min = 0, default = 2000000,
                     help = "nodes the exact solver may search for a move (0: no limit)" },
    endgame_safe = { type = "integer", min = 0, default = 7,
                     help = "search to the end of the game when at most this many safe moves are left" },
    fills = { type = "integer", min = 1, max = FILLS,
              help = "safe-move orders the evaluation averages over (default: 8 on 4x4, fewer on larger grids)" },
    nodes = { type = "integer", min = 1, default = 20000,
              help = "nodes that search to the end may visit beyond its first ply" },
  },
}

dots_search.DEFAULT_DEPTH, dots_search.TIMED_DEPTH = 2, 20

local DOTS_META = "boardscript.dots"
local CHECK_EVERY = 15 -- nodes between looks at the clock and the budget (a mask)
local UNKNOWN = math.mininteger
local MEMO_LIMIT = 200000 -- loony positions remembered per grid size

------------------------------------------------------------------------
-- Geometry. Edges and boxes are numbered from 1 here: edge e is the core's
-- edge e - 1 (horizontal edges row by row, then vertical ones), box b the
-- core's box b - 1 (row by row). Box 0 stands for the ground.

local geometries = {}

local function geometry(rows, cols)
  local key = rows * 64 + cols
  local geo = geometries[key]
  if geo then return geo end
  local H = (rows + 1) * cols
  local E = H + rows * (cols + 1)
  local eb1, eb2, be, dots, zob = {}, {}, {}, {}, {}
  for r = 0, rows do
    for c = 0, cols - 1 do
      local e = r * cols + c + 1
      eb1[e] = r > 0 and (r - 1) * cols + c + 1 or 0
      eb2[e] = r < rows and r * cols + c + 1 or 0
      dots[e] = { r + 1, c + 1, r + 1, c + 2 }
    end
  end
  for r = 0, rows - 1 do
    for c = 0, cols do
      local e = H + r * (cols + 1) + c + 1
      eb1[e] = c > 0 and r * cols + c or 0
      eb2[e] = c < cols and r * cols + c + 1 or 0
      dots[e] = { r + 1, c + 1, r + 2, c + 1 }
    end
  end
  for r = 0, rows - 1 do
    for c = 0, cols - 1 do
      local base = 4 * (r * cols + c)
      be[base + 1] = r * cols + c + 1
      be[base + 2] = (r + 1) * cols + c + 1
      be[base + 3] = H + r * (cols + 1) + c + 1
      be[base + 4] = H + r * (cols + 1) + c + 2
    end
  end
  -- Hash keys from a fixed generator (xorshift), so searches repeat exactly.
  local x = 0x2545F4914F6CDD1D + key
  for e = 1, E do
    x = x ~ (x << 13); x = x ~ (x >> 7); x = x ~ (x << 17)
    zob[e] = x
  end
  -- The orders the evaluation draws the remaining safe moves in: fixed
  -- shuffles (each a plausible way the safe moves could run out).
  local fills = {}
  for k = 1, FILLS do
    local order = {}
    for e = 1, E do order[e] = e end
    for i = E, 2, -1 do
      x = x ~ (x << 13); x = x ~ (x >> 7); x = x ~ (x << 17)
      local j = (x >> 1) % i + 1
      order[i], order[j] = order[j], order[i]
    end
    fills[k] = order
  end
  geo = { rows = rows, cols = cols, E = E, H = H, NB = rows * cols, eb1 = eb1, eb2 = eb2, be = be,
          dots = dots, zob = zob, fills = fills }
  geometries[key] = geo
  return geo
end

--- The 1-based edge number of an edge {r1, c1, r2, c2} of a rows x cols grid.
local function edge_number(geo, edge)
  local r1, c1, r2, c2 = edge[1], edge[2], edge[3], edge[4]
  if r2 < r1 or c2 < c1 then r1, c1 = r2, c2 end
  if edge[1] == edge[3] then return (r1 - 1) * geo.cols + c1 end
  return geo.H + (r1 - 1) * (geo.cols + 1) + c1
end

-- Edge e as a new table {r1, c1, r2, c2}.
local function edge_of(geo, e)
  local t = geo.dots[e]
  return { t[1], t[2], t[3], t[4] }
end

------------------------------------------------------------------------
-- Loony positions: chains, loops and junctions.
--
-- A component is coded as one integer: a loop of n boxes as -n; a chain of n
-- boxes whose ends are `lo` <= `hi` (junction boxes, 0 for the ground) as
-- n * 2^20 + lo * 2^10 + hi. A position is the sorted list of its codes.

local function chain_code(n, a, b)
  if a > b then a, b = b, a end
  return (n << 20) | (a << 10) | b
end

-- The position left when component `i` of `list` is opened and captured:
-- the sorted codes left, the boxes the capture takes, and whether it was a
-- loop. A junction that loses a string joins its other two (a chain through
-- it, or a loop when both are the same chain); one left with a single string
-- is captured too, with the chain beyond it.
local function open_component(list, i)
  local code = list[i]
  local lens, ea, eb, n = {}, {}, {}, 0
  for j = 1, #list do
    local c = list[j]
    if j ~= i then
      n = n + 1
      if c < 0 then
        lens[n], ea[n], eb[n] = c, -1, -1
      else
        lens[n], ea[n], eb[n] = c >> 20, (c >> 10) & 1023, c & 1023
      end
    end
  end
  if code < 0 then
    local rest = {}
    for j = 1, n do rest[j] = lens[j] < 0 and lens[j] or chain_code(lens[j], ea[j], eb[j]) end
    table.sort(rest)
    return rest, -code, true
  end
  local got = code >> 20
  local lo, hi = (code >> 10) & 1023, code & 1023
  local queue, q, gone = { lo }, 1, {}
  if hi ~= lo then queue[2] = hi end
  while q <= #queue do
    local j = queue[q]
    q = q + 1
    if j > 0 and not gone[j] then
      local deg, x, y = 0, nil, nil
      for k = 1, n do
        if lens[k] then
          if ea[k] == j then deg = deg + 1; if x then y = k else x = k end end
          if eb[k] == j then deg = deg + 1; if x then y = k else x = k end end
        end
      end
      if deg == 2 then
        gone[j] = true
        if x == y then -- a chain from j back to j: a loop through j
          lens[x], ea[x], eb[x] = -(lens[x] + 1), -1, -1
        else
          local px = ea[x] == j and eb[x] or ea[x]
          local py = ea[y] == j and eb[y] or ea[y]
          lens[x], ea[x], eb[x] = lens[x] + lens[y] + 1, px, py
          lens[y] = nil
        end
      elseif deg == 1 then -- three sides: captured, and the chain beyond it
        gone[j] = true
        got = got + 1 + lens[x]
        local p = ea[x] == j and eb[x] or ea[x]
        lens[x] = nil
        queue[#queue + 1] = p
      elseif deg == 0 then
        gone[j] = true
        got = got + 1
      end
    end
  end
  local rest, m = {}, 0
  for k = 1, n do
    local len = lens[k]
    if len then
      m = m + 1
      rest[m] = len < 0 and len or chain_code(len, ea[k], eb[k])
    end
  end
  table.sort(rest)
  return rest, got, false
end

local loony_value

-- The value of a simple loony position (no junctions: chains end on the
-- ground). The opener need only try the smallest loop, the smallest chain
-- of three or more, and chains of one and of two: one of them is always
-- best (Buzzard and Ciere, "Playing simple loony dots and boxes endgames
-- optimally"; checked here against trying every component).
-- What the taker of an opened component worth `got` boxes nets when the
-- rest is worth `rest` to the one who opens next: take all and open next,
-- or decline the last two boxes of a chain (of three or more) or four of a
-- loop and make the opener open again.
local function taker_value(got, rest, loop)
  local taker = got + rest
  if loop then
    if got - 8 - rest > taker then taker = got - 8 - rest end
  elseif got >= 3 and got - 4 - rest > taker then
    taker = got - 4 - rest
  end
  return taker
end

local function simple_value(list, memo, key)
  local n = #list
  local loop, long, one, two
  for i = 1, n do
    local c = list[i]
    if c < 0 then
      loop = i -- the codes are sorted: the last loop is the smallest
    else
      local len = c >> 20
      if len == 1 then one = one or i
      elseif len == 2 then two = two or i
      elseif not long then long = i end
    end
  end
  local best = UNKNOWN
  for k = 1, 4 do
    local i
    if k == 1 then i = loop elseif k == 2 then i = long elseif k == 3 then i = one else i = two end
    if i then
      local code = list[i]
      local rest = table.move(list, 1, i - 1, 1, {})
      table.move(list, i + 1, n, i, rest)
      local got = code < 0 and -code or code >> 20
      local taker = taker_value(got, loony_value(rest, memo), code < 0)
      if -taker > best then best = -taker end
    end
  end
  memo[key] = best
  return best
end

--- The value of a loony position (the sorted component codes `list`) for
-- the player who must open a component: the net score of the boxes left.
-- `memo` maps positions to values.
function loony_value(list, memo)
  local n = #list
  if n == 0 then return 0 end
  local key = table.concat(list, ",")
  local known = memo[key]
  if known then return known end
  memo[1] = (memo[1] or 0) + 1
  local simple = true
  for i = 1, n do
    local c = list[i]
    if c > 0 and c & 0xFFFFF ~= 0 then simple = false; break end
  end
  if simple then return simple_value(list, memo, key) end
  local best, previous = UNKNOWN, nil
  for i = 1, n do
    local code = list[i]
    if code ~= previous then
      previous = code
      local rest, got, loop = open_component(list, i)
      local taker = taker_value(got, loony_value(rest, memo), loop)
      if -taker > best then best = -taker end
    end
  end
  memo[key] = best
  return best
end
dots_search.loony_value = loony_value

--- A loony position without junctions, close to `list` in value, for the
-- evaluation (far fewer positions to value): each junction joins its two
-- longest chains, as opening the short ones first would, and the chains it
-- ends otherwise run to the ground.
local function without_junctions(list)
  local lens, ea, eb, n, any = {}, {}, {}, 0, false
  for j = 1, #list do
    local c = list[j]
    n = n + 1
    if c < 0 then
      lens[n], ea[n], eb[n] = c, 0, 0
    else
      local a, b = (c >> 10) & 1023, c & 1023
      lens[n], ea[n], eb[n] = c >> 20, a, b
      if a > 0 then any = true end
    end
  end
  if not any then return list end
  for k = 1, n do
    local j = ea[k] > 0 and ea[k] or eb[k]
    while j > 0 do
      -- the two longest chains at junction j (k's end or another)
      local x, y
      for m = 1, n do
        local len = lens[m]
        if len and len > 0 and (ea[m] == j or eb[m] == j) then
          if not x or len > lens[x] then x, y = m, x elseif not y or len > lens[y] then y = m end
        end
      end
      for m = 1, n do -- j is gone: every chain ending there now ends on the ground
        if lens[m] and lens[m] > 0 then
          if ea[m] == j then ea[m] = 0 end
          if eb[m] == j then eb[m] = 0 end
        end
      end
      if y then -- one chain through j, between the far ends of the two
        lens[x], ea[x], eb[x] = lens[x] + lens[y] + 1, ea[x] + eb[x], ea[y] + eb[y]
        lens[y] = nil
      elseif x then
        lens[x] = lens[x] + 1
      end
      j = lens[k] and (ea[k] > 0 and ea[k] or eb[k]) or 0
    end
  end
  local rest, m = {}, 0
  for k = 1, n do
    if lens[k] then
      m = m + 1
      rest[m] = lens[k] < 0 and lens[k] or (lens[k] << 20)
    end
  end
  table.sort(rest)
  return rest
end
dots_search.without_junctions = without_junctions

------------------------------------------------------------------------
-- The search, over a position of its own (arrays of drawn edges and box
-- side counts), loaded from a core position.

local function engine(geo, memo, nfills)
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
dots_search.engine = engine
dots_search.geometry = geometry
dots_search.edge_number = edge_number

------------------------------------------------------------------------
-- The policy.

local function check_dots(g)
  local d = g:board()
  if (getmetatable(d) or {}).__name ~= DOTS_META then
    error("the dots_search player plays Dots and Boxes only", 0)
  end
  return d
end

--- A player of its own for one seat, with options `opts` (see the top).
function dots_search.new(opts)
  opts = opts or {}
  return setmetatable({ opts = opts, memos = {} }, { __index = dots_search })
end

-- The option `key`: ctx.options, then the instance's, then the default.
local function option(self, ctx, key)
  local v = ctx and ctx.options and ctx.options[key]
  local own = rawget(self, "opts")
  if v == nil and own then v = own[key] end
  if v == nil then v = dots_search.options[key].default end
  return v
end

--- The move for the side to move in game `g` (a copy), or nil when the
-- game is over. ctx (optional): { options =, time =, rng =, log = }.
-- The edges (1-based numbers) that keep the solver's value `value` of
-- position `d`, the first being the solver's `edge`; nil if the solver
-- stops on one.
local function optimal_edges(solver, geo, d, edge, value, limit)
  local first = edge_number(geo, edge)
  local list = { first }
  for _, open in ipairs(d:open_edges()) do
    local e = edge_number(geo, open)
    if e ~= first then
      local child = d:clone()
      local k = child:draw(open)
      local v = 0
      if not child:finished() then
        v = solver:value(child, limit)
        if not v then return nil end
        if child:turn() ~= d:turn() then v = -v end
      end
      if k + v == value then list[#list + 1] = e end
    end
  end
  return list
end

--- The move for the side to move in game `g` (a copy), or nil when the
-- game is over. ctx (optional): { options =, time =, rng =, log = }.
function dots_search:choose(g, ctx)
  local d = check_dots(g)
  if d:finished() then return nil end
  local start = os.clock()
  local log = ctx and ctx.log
  local time = ctx and ctx.time
  if time == nil then time = option(self, ctx, "time") end
  local geo = geometry(d:rows(), d:cols())
  local memos = rawget(self, "memos") or {}
  local memo = memos[geo]
  if not memo or (memo[1] or 0) > MEMO_LIMIT then memo = {}; memos[geo] = memo end
  local fills = option(self, ctx, "fills") or math.max(2, math.min(8, 400 // geo.E))
  local S = engine(geo, memo, fills)
  S.load(d)
  local forced, list, loony = S.root_moves()
  if forced then return edge_of(geo, forced) end
  local perfect
  local safe_left = S.safe_count()
  local solver_edges = option(self, ctx, "solver_edges")
  if d:edge_count() <= core.dots_solver_max_edges and solver_edges > 0
      and (d:open_count() <= solver_edges or safe_left <= option(self, ctx, "solver_safe")) then
    local solver = rawget(self, "solver")
    if not solver then
      solver = core.dots_solver { tt_mb = 16 }
      rawset(self, "solver", solver)
    end
    local limit = { node_limit = option(self, ctx, "solver_nodes") }
    local edge, value, nodes = solver:best(d, limit)
    if edge then
      -- Perfect play, and among the moves as good as the solver's, the one
      -- the evaluation likes best (an opponent may not play perfectly).
      perfect = optimal_edges(solver, geo, d, edge, value, limit) or { edge_number(geo, edge) }
      if log then
        log("solver: value %d, %d nodes, %d optimal moves, %.3f s", value, nodes, #perfect, os.clock() - start)
      end
      if #perfect == 1 then return edge_of(geo, perfect[1]) end
      list, loony = perfect, true
    end
  end
  local rng = ctx and ctx.rng or g.rng
  if rng and #list > 1 then -- ties go to the first found: shuffle, so a seed decides them
    for i = #list, 2, -1 do
      local j = rng:random(i)
      list[i], list[j] = list[j], list[i]
    end
  end
  -- Few safe moves left: deepen until the search sees the end of the game
  -- (no evaluation used) or the node budget is spent. Else `depth` plies,
  -- or with `time` as deep as the time allows.
  local endgame = not loony and safe_left <= option(self, ctx, "endgame_safe")
  local max_depth = option(self, ctx, "depth")
  if endgame or time then max_depth = math.max(max_depth or 0, dots_search.TIMED_DEPTH) end
  max_depth = max_depth or dots_search.DEFAULT_DEPTH
  if loony or #list == 1 then max_depth = 1 end
  local first = 1 -- iterative deepening: each search orders the next
  local deadline = time and start + time or nil
  local budget = endgame and option(self, ctx, "nodes") or nil
  S.limit(deadline, nil)
  local best, value, reached, exact
  for depth = first, max_depth do
    local guesses = S.guesses()
    local move, v = S.root(list, depth)
    if S.stopped() then
      if move and value and v > value then best, value = move, v end
      break
    end
    best, value, reached = move, v, depth
    if S.guesses() == guesses then exact = true; break end -- no evaluation: to the end of the game
    for i, e in ipairs(list) do -- the best first in the next, deeper search
      if e == move then table.remove(list, i); table.insert(list, 1, move); break end
    end
    if budget and depth == first then S.limit(deadline, S.nodes() + budget) end
  end
  best = best or list[1]
  if log then
    log("depth %s%s, value %s, %d nodes, %.3f s", tostring(reached), exact and " (exact)" or "",
      tostring(value), S.nodes(), os.clock() - start)
  end
  return edge_of(geo, best)
end

dots_search.memos = {} -- the module plays too, with its own memory
return dots_search
