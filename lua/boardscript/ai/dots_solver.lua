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

-- The memory of this machine in MiB (MemTotal in /proc/meminfo), or nil.
local function machine_mib()
  local f = io.open("/proc/meminfo", "r")
  if not f then return nil end
  local text = f:read("a") or ""
  f:close()
  local kib = tonumber(text:match("MemTotal:%s*(%d+)%s*kB"))
  return kib and kib // 1024 or nil
end

--- The transposition table (MiB) that solving the empty grid of `edges`
-- edges wants by default: 4 up to 24 edges (3 x 3), 64 up to 31 (3 x 4),
-- 1024 up to 40 (4 x 4: 230 s, where 64 MiB had not finished in 900 s),
-- 4096 above; with a limit of `node_limit` nodes (0 or nil: none), no
-- more than that many positions need (8 bytes each, in a power of two of
-- MiB); never more than a quarter of the machine's memory (`memory_mib`,
-- default: read from /proc/meminfo; 1024 where that cannot be read); and
-- at least 4. (solve dots without --tt-mb; a table of 64 MiB or more is
-- zeroed whole, so it is what the process uses.)
function dots_solver.table_mb(edges, node_limit, memory_mib)
  local want = edges <= 24 and 4 or edges <= 31 and 64 or edges <= 40 and 1024 or 4096
  if node_limit and node_limit > 0 then
    local mb = 4
    while mb < want and mb * 131072 < node_limit do mb = mb * 2 end
    want = math.min(want, mb)
  end
  memory_mib = memory_mib or machine_mib()
  local cap = memory_mib and memory_mib // 4 or 1024
  return math.max(4, math.min(want, cap))
end

--- A solver player. opts.node_limit: nodes per move (default 2,000,000;
-- 0 = no limit; the solver's `nodes` budget: this player option kept its
-- name); opts.tt_mb: transposition table MiB (default 16), kept
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
      local edge = self.solver:best(d, { nodes = self.node_limit })
      if edge then return edge end
    end
    return dots_rules.choose_edge(d)
  end

  --- Frees the solver (its table) now; a later move makes a new one.
  function player:close()
    if self.solver then
      self.solver:close()
      self.solver = nil
    end
  end

  function player:choose(g)
    return self:choose_edge(dots_rules.dots_board(g, "solver"))
  end

  return player
end

local default = dots_solver.new()
default.new = dots_solver.new
default.table_mb = dots_solver.table_mb
return default
