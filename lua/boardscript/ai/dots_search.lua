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

local chains = require "boardscript.ai.dots_chains"
local FILLS = chains.FILLS
local engine = require "boardscript.ai.dots_engine"
local geometry, edge_number, edge_of = chains.geometry, chains.edge_number, chains.edge_of

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

local MEMO_LIMIT = 200000 -- loony positions remembered per grid size

dots_search.engine = engine.new
dots_search.geometry = chains.geometry
dots_search.edge_number = chains.edge_number
dots_search.loony_value = chains.loony_value
dots_search.without_junctions = chains.without_junctions

------------------------------------------------------------------------
-- The policy.

local function check_dots(g)
  local d = g:board()
  if core.type(d) ~= "dots" then
    error("the dots_search player plays Dots and Boxes only", 0)
  end
  return d
end

--- A player of its own for one seat, with options `opts` (see the top).
function dots_search.new(opts)
  opts = opts or {}
  return setmetatable({ opts = opts, memos = {} }, { __index = dots_search })
end

--- Frees the instance's solver (its table) now; a later move makes a new one.
function dots_search:close()
  local solver = rawget(self, "solver")
  if solver then
    rawset(self, "solver", nil)
    solver:close()
  end
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
  local S = engine.new(geo, memo, fills)
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
    local limit = { nodes = option(self, ctx, "solver_nodes") }
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
