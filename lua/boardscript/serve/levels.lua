--- The strength levels `boardscript serve`'s page offers for a rule set:
-- named levels that stand for documented built-in policies, so a person
-- picks "Strong" rather than typing `alphabeta`. The levels of a rule set
-- come from the strongest built-in that plays it:
--
--     level     alphabeta            dots_search                         mcts
--     Easy      greedy               greedy                              greedy
--     Casual    alphabeta:depth=2    dots_search:depth=1,solver_edges=0  mcts:playouts=100
--     Strong    alphabeta            dots_search                         mcts
--     Expert    alphabeta:time=1     dots_search:time=1                  mcts:time=1
--
-- (Easy is the first level's policy where greedy does not play the rule
-- set: alphabeta:depth=1, dots_search:depth=1, random.)
--
-- "Strong" is the policy with no option, as `boardscript play` plays it
-- (the page's default): its strength is the same under serve as at the
-- command line. "Expert" thinks about a second (processor time) a move.
local levels = {}

-- The policy each level stands for, by the strongest built-in.
local BY_POLICY = {
  alphabeta = { easy = "alphabeta:depth=1", casual = "alphabeta:depth=2", strong = "alphabeta",
                expert = "alphabeta:time=1" },
  dots_search = { easy = "dots_search:depth=1", casual = "dots_search:depth=1,solver_edges=0",
                  strong = "dots_search", expert = "dots_search:time=1" },
  mcts = { easy = "random", casual = "mcts:playouts=100", strong = "mcts", expert = "mcts:time=1" },
}

--- The levels in order, weakest first: { key =, name =, help = }.
levels.ORDER = {
  { key = "easy", name = "Easy", help = "takes what it can at once" },
  { key = "casual", name = "Casual", help = "a short search" },
  { key = "strong", name = "Strong", help = "the policy's default, as the command line plays it" },
  { key = "expert", name = "Expert", help = "thinks about a second a move" },
}

--- The level a page starts with.
levels.DEFAULT = "strong"

--- The levels of a rule set that the built-ins `names` (a list) play: a
-- list of { key =, name =, help =, policy = a player spec }, weakest
-- first; empty where no built-in plays it but random.
-- @tparam {string,...} names the built-in policies that play the rule set
-- @treturn table the levels
function levels.for_policies(names)
  local have = {}
  for _, name in ipairs(names) do have[name] = true end
  local strongest
  for _, name in ipairs { "alphabeta", "dots_search", "mcts" } do
    if have[name] and not strongest then strongest = name end
  end
  if not strongest then return {} end
  local out = {}
  for _, level in ipairs(levels.ORDER) do
    local spec = BY_POLICY[strongest][level.key]
    if level.key == "easy" and have.greedy then spec = "greedy" end
    if spec == "random" and not have.random then spec = nil end
    if spec then out[#out + 1] = { key = level.key, name = level.name, help = level.help, policy = spec } end
  end
  return out
end

return levels
