--- The dots_search policy's search: alpha-beta over a position of its own
-- (arrays of drawn edges and box side counts) loaded from a core position,
-- with the loony-endgame values of boardscript.ai.dots_chains at its
-- leaves.
--
-- engine.new puts it together from the parts of the position
-- (boardscript.ai.dots_position) and the search over it (search_functions).
local dots_position = require "boardscript.ai.dots_position"

local engine = {}

local CHECK_EVERY = 15 -- nodes between looks at the clock and the budget (a mask)
local UNKNOWN = math.mininteger

-- TT entries: one integer, (((move * 32 + depth) * 8 + flags) << 10) |
-- (value + 512); flags: the bound (EXACT, LOWER, UPPER) plus SURE when
-- no evaluation was used below (a value to the end of the game, good at
-- any depth).
local EXACT, LOWER, UPPER, SURE = 0, 1, 2, 4

-- What TT entry `entry` says at `depth` within (alpha, beta): its move
-- (nil: none), its value when that settles the node (else nil), and
-- whether that value is sure.
local function tt_read(entry, depth, alpha, beta)
  local value = (entry & 1023) - 512
  local rest = entry >> 10
  local flags, d = rest & 7, (rest >> 3) & 31
  local tt_move = rest >> 8
  if tt_move == 0 then tt_move = nil end
  local sure = flags >= SURE
  if sure or d >= depth then
    local bound = flags & 3
    if bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha) then
      return tt_move, value, sure
    end
  end
  return tt_move, nil, sure
end

-- The TT entry of a node searched to `depth` within (alpha, beta): value
-- `best`, move `best_move`; `sure` when no evaluation was used below it.
local function tt_entry(best, best_move, depth, alpha, beta, sure)
  local flags = best <= alpha and UPPER or best >= beta and LOWER or EXACT
  if sure then flags = flags + SURE end
  local d = depth < 0 and 0 or depth > 31 and 31 or depth
  return ((((best_move or 0) * 32 + d) * 8 + flags) << 10) | (best + 512)
end

-- The moves searched where captures are to be decided (take, decline
-- pairs, flattened): both of a single one; else decline at most the last
-- of them: take the others first.
local function decision_moves(decisions)
  if #decisions == 2 then return decisions end
  local moves = {}
  for i = 1, #decisions, 2 do moves[#moves + 1] = decisions[i] end
  return moves
end

-- The search over P: fail-soft alpha-beta with a transposition table and
-- killer moves, forced captures played out at each node, the loony value
-- where no safe move is left and the estimate at the horizon.
local function search_functions(P, F, M, C)
  local draw, undraw = F.draw, F.undraw
  local captures, middle_moves = M.captures, M.middle_moves
  local loony, estimate = C.loony, C.estimate
  local stack, sp = {}, 0
  local nodes, deadline, stopped = 0, nil, false
  local max_nodes = math.maxinteger
  local guesses = 0 -- evaluations used (a search without any is exact)
  local ply, killers = 0, {} -- plies from the root; per ply, the last move that cut off
  local tt = {}
  local R = {}

  local function unwind(to)
    while sp > to do
      undraw(stack[sp])
      sp = sp - 1
    end
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

  function search(depth, alpha, beta)
    nodes = nodes + 1
    if nodes & CHECK_EVERY == 0 and (nodes >= max_nodes or deadline and os.clock() >= deadline) then
      stopped = true
    end
    if stopped then return 0 end
    local base, gained = sp, 0
    local decisions
    while P.rem > 0 and P.n3 > 0 do
      local forced
      forced, decisions = captures()
      if not forced then break end
      local k = draw(forced)
      sp = sp + 1
      stack[sp] = forced
      gained = gained + k
    end
    local left = P.rem
    if left == 0 then unwind(base); return gained end
    alpha, beta = alpha - gained, beta - gained
    if alpha >= left then unwind(base); return gained + left end
    if beta <= -left then unwind(base); return gained - left end
    local key = P.hash
    local entry = tt[key]
    local tt_move, value, sure
    if entry then
      tt_move, value, sure = tt_read(entry, depth, alpha, beta)
      if value then
        if not sure then guesses = guesses + 1 end
        unwind(base)
        return gained + value
      end
    end
    local moves
    if decisions then
      moves = decision_moves(decisions)
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
    if not stopped then tt[key] = tt_entry(best, best_move, depth, alpha, beta, guesses == before) end
    unwind(base)
    return gained + best
  end
  R.search = search

  function R.limit(clock, node_count)
    deadline = clock
    max_nodes = node_count or math.maxinteger
    stopped = false
  end
  function R.guesses() return guesses end
  function R.stopped() return stopped end
  function R.nodes() return nodes end
  return R
end

------------------------------------------------------------------------
-- The engine: a position of its own and its search.

--- A search engine over grid geometry `geo` (boardscript.ai.dots_chains
-- geometry), remembering loony values in `memo`, its estimates averaged
-- over `nfills` fill orders (default 8). Load a position with S.load(d).
-- @tparam table geo the grid's geometry
-- @tparam table memo loony values by component codes (shared between engines of a grid)
-- @tparam[opt=8] integer nfills fill orders the estimate averages over
-- @treturn table the engine S
function engine.new(geo, memo, nfills)
  local P = dots_position.new()
  local F = dots_position.edges(geo, P)
  local B = dots_position.boxes(geo, P)
  local M = dots_position.moves(geo, P, B)
  local C = dots_position.chains(geo, P, B, memo, nfills or 8)
  local R = search_functions(P, F, M, C)
  local E, drawn, safe = geo.E, P.drawn, B.safe
  local draw, undraw, search, captures = F.draw, F.undraw, R.search, M.captures
  local S = { load = F.load, captures = captures, components = C.components, loony = C.loony,
              estimate = C.estimate, limit = R.limit, guesses = R.guesses, stopped = R.stopped, nodes = R.nodes }

  --- The root's candidate moves: forced capture (edge), or a list.
  function S.root_moves()
    if P.n3 > 0 then
      local forced, decisions = captures()
      if forced then return forced end
      if decisions then
        local list = {}
        for i = 1, #decisions, (#decisions == 2 and 1 or 2) do list[#list + 1] = decisions[i] end
        return nil, list
      end
    end
    local list = M.middle_moves(nil, nil)
    if list then return nil, list, false end
    list = {}
    for e = 1, E do if not drawn[e] then list[#list + 1] = e end end
    return nil, list, true
  end

  --- Searches each root move to `depth` plies; the best move and value,
  -- or nil when the clock stopped the search before the first move.
  function S.root(list, depth)
    local alpha, beta = -P.rem - 1, P.rem + 1
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
      if R.stopped() then break end
      if v > best_value then best, best_value = e, v end
      if v > alpha then alpha = v end
    end
    return best, best_value
  end

  --- The safe moves of the position.
  function S.safe_count()
    local n = 0
    for e = 1, E do if not drawn[e] and safe(e) then n = n + 1 end end
    return n
  end
  --- Boxes not yet completed.
  function S.remaining() return P.rem end
  return S
end

return engine
