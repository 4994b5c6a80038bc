--- A perfect Dots and Boxes player: the C solver picks an optimal edge.
-- Grids with more than 64 edges (larger than 5x5, 4x6, 3x8, ...) are beyond
-- the solver, and a search may also run out of its node budget (a 4x4 grid
-- early on); then the seed's four-level rule (ai/dots_rules) moves instead.
-- The budget is counted in nodes, not seconds, so a seeded game replays
-- identically. The module is the default player; its `new{node_limit =,
-- tt_mb =}` makes one with other limits.
local core = require "boardscript.core"
local dots_rules = require "boardscript.ai.dots_rules"

local dots_solver = {}

--- A solver player. opts.node_limit: nodes per move (default 2,000,000;
-- 0 = no limit); opts.tt_mb: transposition table MiB (default 16), kept
-- from move to move.
function dots_solver.new(opts)
  opts = opts or {}
  local player = {
    name = "solver",
    games = { "dots" }, -- the rule sets it can play (checked when loaded)
    node_limit = opts.node_limit or 2000000,
    tt_mb = opts.tt_mb or 16,
    solver = nil, -- created at the first move, so loading costs nothing
  }

  --- The move for position `d`: an optimal edge when the solver finishes,
  -- else the four-level rule's; nil when the game is over.
  function player:choose_edge(d)
    if d:finished() then return nil end
    if d:edge_count() <= core.dots_solver_max_edges then
      self.solver = self.solver or core.dots_solver { tt_mb = self.tt_mb }
      local edge = self.solver:best(d, { node_limit = self.node_limit })
      if edge then return edge end
    end
    return dots_rules.choose_edge(d)
  end

  function player:choose(g)
    return self:choose_edge(dots_rules.dots_board(g, "solver"))
  end

  return player
end

local default = dots_solver.new()
default.new = dots_solver.new
return default
