--- Labels by TD(lambda) (`boardscript train --data FILES --eval FILE
-- --lambda L`): a game's positions relabelled, from its end back, with
-- lambda-returns that blend each next position's value by an evaluation
-- into the game's result. docs/guide.md, "Training an evaluation";
-- docs/decisions.md, "TD(lambda) labels".
local td = {}

-- Whether the side to move in `b` (the position after a move in `a`, both
-- as data files write them: x is the side to move) is a's: a's mover's
-- first discs are still x. A capture move never takes the mover's own
-- discs, so one disc would do; up to four are looked at.
local function same_side(a, b)
  local same, seen, at = 0, 0, 1
  while seen < 4 do
    local i = a:find("x", at, true)
    if not i then break end
    seen = seen + 1
    if b:byte(i) == 120 then same = same + 1 end -- "x"
    at = i + 1
  end
  return same * 2 > seen
end

local function empties(cells)
  local _, n = cells:gsub("%.", "")
  return n
end

--- Relabels game record `record` ({ holdout =, positions = { { cells =,
-- target = } } }, in play order) in place: walking back from the last
-- position (whose label stays), a position's label becomes (1 - lambda) x
-- the next position's value + lambda x the next position's label, both
-- turned to this position's side to move. The next position's value is
-- its label within the exact-solve range (at `endgame` empty cells or
-- fewer: self-play solved it), else `ev`'s value of it (in discs).
-- Positions within that range keep their labels, and a held-out game all
-- of its own: the held-out error stays the error on game results.
-- @param record a game record (train.data's Reader:next_game)
-- @param ev the evaluation of the next positions (a core.evaluator)
-- @tparam number lambda 0 to 1 (1: the labels unchanged)
-- @tparam integer endgame the exact-solve range of the games
function td.relabel(record, ev, lambda, endgame)
  local ps = record.positions
  if record.holdout or lambda >= 1 or #ps < 2 then return record end
  local later = ps[#ps]
  local later_exact = empties(later.cells) <= endgame
  for t = #ps - 1, 1, -1 do
    local p = ps[t]
    local exact = empties(p.cells) <= endgame
    if not exact then
      local value = later_exact and later.target or ev:evaluate(later.cells, "black") / 100
      local blend = (1 - lambda) * value + lambda * later.target
      p.target = same_side(p.cells, later.cells) and blend or -blend
    end
    later, later_exact = p, exact
  end
  return record
end

return td
