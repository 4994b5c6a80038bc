--- The seed's computer player for Dots and Boxes (seed 001, section 2), as
-- a deterministic policy.
-- First level: the edges that complete a box; else the edges that give no
-- box its third side; else every open edge. Then, among those: the most
-- degrees of freedom (open edges at either end dot), then the smallest sum
-- of the two dots' column numbers, then the smallest sum of their row
-- numbers. The last two levels leave no tie: a horizontal edge has an odd
-- column sum and a vertical one an even sum, and either sum then fixes it.
local rule = { name = "dots_rules", games = { "dots" } } -- games: checked when loaded

local core = require "boardscript.core"

--- The first level: the candidate edges of position `d`, and which list
-- they are ("complete", "safe" or "any"). Empty only when the game is over.
function rule.candidates(d)
  local open = d:open_edges()
  local complete, safe = {}, {}
  for _, edge in ipairs(open) do
    local completes, thirds = d:effect(edge)
    if completes > 0 then
      complete[#complete + 1] = edge
    elseif thirds == 0 then
      safe[#safe + 1] = edge
    end
  end
  if #complete > 0 then return complete, "complete" end
  if #safe > 0 then return safe, "safe" end
  return open, "any"
end

--- Degrees of freedom of an edge: the open edges at its two end dots (an
-- open edge itself counts at both ends, the same for every candidate).
function rule.freedom(d, edge)
  return d:degree(edge[1], edge[2]) + d:degree(edge[3], edge[4])
end

-- Whether edge a ranks before edge b by the second to fourth levels.
local function before(d, a, b)
  local fa, fb = rule.freedom(d, a), rule.freedom(d, b)
  if fa ~= fb then return fa > fb end
  local ca, cb = a[2] + a[4], b[2] + b[4]
  if ca ~= cb then return ca < cb end
  return a[1] + a[3] < b[1] + b[3]
end

--- The second to fourth levels: the preferred edge of a candidate list.
function rule.prefer(d, edges)
  local best = edges[1]
  for i = 2, #edges do
    if before(d, edges[i], best) then best = edges[i] end
  end
  return best
end

--- The move for position `d`, or nil when the game is over.
function rule.choose_edge(d)
  local edges = rule.candidates(d)
  if #edges == 0 then return nil end
  return rule.prefer(d, edges)
end

--- The Dots and Boxes position of game `g`; raises, naming the player
-- `who`, for any other game (a script may call a policy directly).
function rule.dots_board(g, who)
  local d = g:board()
  if core.type(d) ~= "dots" then
    error(("the %s player plays Dots and Boxes only"):format(who), 0)
  end
  return d
end

function rule:choose(g)
  return rule.choose_edge(rule.dots_board(g, "dots_rules"))
end

return rule
