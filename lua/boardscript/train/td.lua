--- Labels by TD(lambda) (`boardscript train --data FILES --eval FILE
-- --lambda L`): a game's positions relabelled, from its end back, with
-- lambda-returns that blend each next position's value by an evaluation
-- into the game's result. docs/guide.md, "Training an evaluation";
-- docs/decisions.md, "TD(lambda) labels".
local core = require "boardscript.core"
local data = require "boardscript.train.data"

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
-- @tparam function value_of the value in discs of a next position's cells
--   for its side to move (td.static or td.searched)
-- @tparam number lambda 0 to 1 (1: the labels unchanged)
-- @tparam integer endgame the exact-solve range of the games
function td.relabel(record, value_of, lambda, endgame)
  local ps = record.positions
  if record.holdout or lambda >= 1 or #ps < 2 then return record end
  local later = ps[#ps]
  local later_exact = empties(later.cells) <= endgame
  for t = #ps - 1, 1, -1 do
    local p = ps[t]
    local exact = empties(p.cells) <= endgame
    if not exact then
      local value = later_exact and later.target or value_of(later.cells)
      local blend = (1 - lambda) * value + lambda * later.target
      p.target = same_side(p.cells, later.cells) and blend or -blend
    end
    later, later_exact = p, exact
  end
  return record
end

--- A function(cells) -> the static value in discs, for the side to move
-- (x), by evaluator `ev`, for td.relabel (`train --lambda L`).
function td.static(ev)
  return function(cells) return ev:evaluate(cells, "black") / 100 end
end

--- A function(cells) -> the value in discs, for the side to move (x), of
-- a search `depth` plies deep by evaluator `ev` (no exact solve, no
-- Multi-ProbCut), for td.relabel: `train --lambda-depth D`. The searcher's
-- table is kept from one position to the next (the positions of a game
-- follow each other), so the values depend on the order they are asked
-- in, which is the data files'.
-- @param sp the self-play (train.selfplay) whose game the core searches
-- @param ev the evaluation (a core.evaluator)
-- @tparam integer depth plies, 1 or more
-- @tparam integer n the board's size, as the data files write the cells
-- @treturn function the values
-- @return the searcher (to be closed once the files are read)
function td.searched(sp, ev, depth, n)
  local g0 = sp:start(1)
  local board = g0.state.board:clone()
  local game = require("boardscript.rules").core_game(g0.rules, g0.state)
  local searcher = core.searcher { tt_mb = 4 }
  local opts = { game = game, depth = depth, endgame = 0, evaluator = ev, mpc = false }
  return function(cells)
    data.board(board, cells, n)
    local move, value = searcher:search(board, "black", opts)
    if move == nil then return ev:evaluate(board, "black") / 100 end
    return value / 100
  end, searcher
end

return td
