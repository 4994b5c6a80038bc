--- What a policy that samples or weighs moves checks at its root before it
-- trusts its own ranking: a choice that wins the game at once is played,
-- and a choice after which the opponent can win at once is avoided while
-- another exists (a block, where the opponent threatens one win). `mcts`
-- (the Lua search and the C search of described games) and `greedy` ask;
-- the full-width searches (`minimax`, `alphabeta`) see both by searching.
-- Over the rule set's hooks only, so it holds for any rule set.
local game_mod = require "boardscript.game"

local tactics = {}

-- Whether `choice` ends the game at once with `side` the winner.
local function wins(r, s, choice, side)
  if not game_mod.apply(r, s, choice) then return false end
  local won = r:finished(s) and r:winner(s) == side
  r:undo(s)
  return won
end

--- The first of `list` (choices of the side to move of state `s` of rule
-- set `r`: moves or "pass") that wins the game at once, or nil.
-- @tparam table r the rule set
-- @tparam table s the state (played on and taken back)
-- @tparam table list the choices
-- @return a choice of `list`, or nil
function tactics.winning(r, s, list)
  local side = s.player
  for _, choice in ipairs(list) do
    if wins(r, s, choice, side) then return choice end
  end
  return nil
end

--- Whether after `choice` the opponent, to move, has a choice that wins at
-- once. A choice after which the same side moves again (FlipFlop's second
-- piece, a box completed) is not looked past.
-- @tparam table r the rule set
-- @tparam table s the state (played on and taken back)
-- @param choice a move or "pass"
-- @treturn boolean
function tactics.loses(r, s, choice)
  local side = s.player
  if not game_mod.apply(r, s, choice) then return false end
  local lost = false
  if not r:finished(s) and s.player ~= side then
    local opponent = s.player
    for _, reply in ipairs(game_mod.choices(r, s)) do
      if wins(r, s, reply, opponent) then
        lost = true
        break
      end
    end
  end
  r:undo(s)
  return lost
end

--- The choice to play among `ranked` (every choice, best first by the
-- policy's own measure): one that wins at once if any; else the first that
-- does not let the opponent win at once; else (every choice loses at once)
-- the first. Returns the choice and why ("win", "block" when the policy's
-- first choice lost at once and another was taken, or nil).
-- @tparam table r the rule set
-- @tparam table s the state
-- @tparam table ranked the choices, best first
-- @return the choice
-- @treturn ?string "win" or "block"
function tactics.choose(r, s, ranked)
  local win = tactics.winning(r, s, ranked)
  if win ~= nil then return win, "win" end
  for i, choice in ipairs(ranked) do
    if not tactics.loses(r, s, choice) then return choice, i > 1 and "block" or nil end
  end
  return ranked[1], nil
end

return tactics
