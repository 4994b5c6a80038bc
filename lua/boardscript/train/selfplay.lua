--- Self-play for `boardscript train`: games of a rule set played by an
-- evaluation against itself, each position labelled by the final margin
-- for its side to move, and short matches of a learned evaluation against
-- the hand-written one.
--
-- Every game is a pure function of (seed, game number, evaluation): its
-- set-up, random opening and exploration draw from generators seeded by
-- those alone, and the searcher is emptied before it, so a game played in
-- one process, in a worker or in a shard on another machine is the same.
--
-- Where the C core searches the rule set exactly (rules.searched_in_core),
-- moves are chosen by core.searcher at `depth` plies with the evaluation
-- (the hand-written one without), exact at `endgame` empty cells or fewer;
-- elsewhere through the rule set's hooks, one ply deep: the move after
-- which the evaluation is best for the mover (random moves without one).
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local game_mod = require "boardscript.game"
local greedy_ai = require "boardscript.ai.greedy"
local match = require "boardscript.match"
local positional = require "boardscript.ai.positional"
local rules_mod = require "boardscript.rules"
local data = require "boardscript.train.data"

local selfplay = {}

--- One game in this many is held out (chosen in each block of that many
-- games by the seeded generator).
selfplay.HOLDOUT_BLOCK = 20

-- Streams of match.seed_of(seed, unit, stream).
local SETUP, MOVES, BLOCK, DUEL_OPENING, DUEL_MOVES, DUEL_SETUP = 0, 1, 2, 3, 4, 5

--- Whether game `n` of a run seeded `seed` is held out: one game of each
-- block of selfplay.HOLDOUT_BLOCK, drawn with the block's seed.
function selfplay.holdout(seed, n)
  local size = selfplay.HOLDOUT_BLOCK
  local block = (n - 1) // size
  return core.rng(match.seed_of(seed, block, BLOCK)):random(size) == (n - 1) % size + 1
end

--- The random plies at the start of a game on an n x n board: an eighth
-- of the cells (6 x 6: 4, 8 x 8: 8), at least 1.
function selfplay.default_plies(n)
  return math.max(1, n * n // 8)
end

--- The exact-solve depth (empty cells) of self-play: 12 on 8 x 8 (its
-- word-parallel solver), 10 elsewhere (the most the searcher solves there).
function selfplay.default_endgame(n)
  return n == 8 and 12 or 10
end

local Play = {}
Play.__index = Play

--- A self-play configuration. cfg: { rules = rule set table, source = the
-- name or path given, opts = option values (as game.new takes them), seed
-- =, depth = plies (core search), endgame = empty cells, plies = random
-- opening plies, epsilon = share of exploratory random moves }.
function selfplay.new(cfg)
  local self = setmetatable({ cfg = cfg, rules = cfg.rules }, Play)
  self.searched = rules_mod.searched_in_core(cfg.rules)
  if self.searched then
    self.searchers = { core.searcher { tt_mb = 1 }, core.searcher { tt_mb = 1 } }
  end
  return self
end

--- A new game set up with the seed of unit `n` of stream `stream`.
function Play:start(n, stream)
  local g = game_mod.new(self.rules, self.cfg.opts, core.rng(match.seed_of(self.cfg.seed, n, stream or SETUP)))
  g.source = self.cfg.source
  return g
end

--- The final margin of finished game g for `side` (its score minus the
-- other's, turned round where the rule set's winner has the lower score).
function selfplay.margin(g, side)
  local first, second = g:score()
  first, second = tonumber(first) or 0, tonumber(second) or 0
  local own, other = first, second
  if side ~= g.rules.sides[1] then own, other = second, first end
  return (own - other) * positional.direction(g.rules, g.state, side, own, other)
end

-- The value for `side` of the state (after a move), in hundredths of a
-- disc: by the evaluation (`ev`, from the side to move) or, without one,
-- by the score margin; a finished game is worth its margin beyond any
-- evaluation.
local WON = 1e7
local function value_after(g, side, ev)
  local state = g.state
  if g.rules:finished(state) then
    local margin = selfplay.margin(g, side)
    local winner = g.rules:winner(state)
    local bonus = winner == side and WON or (winner == "draw" and 0 or -WON)
    return bonus + 100 * margin
  end
  if not ev then return 100 * selfplay.margin(g, side) end
  local v = ev:evaluate(state.board, state.player)
  return state.player == side and v or -v
end

-- One ply through the hooks: the moves after which value_after is best,
-- one of them drawn with rng.
local function greedy(g, ev, rng)
  local side = g.state.player
  local best = greedy_ai.best_after(g.rules, g.state, function() return value_after(g, side, ev) end)
  if #best <= 1 then return best[1] end
  return best[rng:random(#best)]
end

--- The move of the side to move of g (a move, or "pass"): by the core
-- searcher `which` (1 or 2) with evaluation `ev` (nil: the hand-written
-- one) where the core searches the rule set, else greedy by `ev` (nil:
-- random in self-play, the score margin in a duel's hand side).
-- (With the core searcher, also its value: hundredths of a disc for the
-- side to move.)
function Play:choose(g, ev, rng, which, hand)
  if self.searched then
    local state = g.state
    local move, value = self.searchers[which]:search(state.board, state.player, {
      game = rules_mod.core_game(g.rules, state), passes = state.passes, piece = state.piece,
      turns = state.turns, unable = state.unable, depth = self.cfg.depth, endgame = self.cfg.endgame,
      evaluator = ev })
    if move ~= nil then return move, value end
  elseif ev or hand then
    local move = greedy(g, ev, rng)
    if move ~= nil then return move end
  end
  local moves = g:moves()
  return moves[rng:random(#moves)]
end

-- Plays a move or "pass" that the rule set listed or allowed: its refusal
-- is the rule set's fault.
local function play_choice(g, move)
  local ok
  if move == "pass" then ok = g:pass() else ok = g:play(move) end
  if not ok then
    errors.rules_fault(rules_mod.where(g.rules), move == "pass" and "pass" or "play",
      ("refused %s, a move it allows"):format(move == "pass" and "a pass" or tostring(g:move_text(move))))
  end
end

-- A side with no move passes (an error of the rule set when it may not).
local function pass_when_stuck(g)
  if #g:moves() > 0 then return false end
  if not g:can_pass() or not g:pass() then
    errors.fail(("rules %s: %s has no legal move and may not pass, but the game is not over"):format(
      tostring(g.source or g.rules.name), g:side_name()))
  end
  return true
end

--- Plays self-play game `n` with evaluation `ev` (nil: the hand-written
-- one, or random moves through the hooks): returns { game = n, holdout =,
-- positions = { { cells =, target = } ... }, plies = }. Every position
-- where the side to move has a move is kept, labelled by the game's
-- final margin for that side, or (cfg.label = w > 0, core searcher only)
-- by w x the self-play search's value of the position (searched for the
-- label where a random move was played) + (1 - w) x that margin.
function Play:game(n, ev)
  local g = self:start(n)
  local rng = core.rng(match.seed_of(self.cfg.seed, n, MOVES))
  local plies, endgame, epsilon = self.cfg.plies, self.cfg.endgame, self.cfg.epsilon
  local label = self.searched and self.cfg.label or 0
  if self.searchers then
    self.searchers[1]:clear()
    if label > 0 then self.searchers[2]:clear() end
  end
  local seen = {}
  while not g:finished() do
    if not pass_when_stuck(g) then
      local state = g.state
      seen[#seen + 1] = { cells = data.cells(state.board, state.player), side = state.player }
      local move
      local explore = #g.log < plies
        or (epsilon > 0 and rng:random() < epsilon and state.board:count("empty") > endgame)
      if explore then
        local moves = g:moves()
        move = moves[rng:random(#moves)]
        if label > 0 then
          -- with the other searcher, so that labelling leaves the game as it is
          local _, value = self:choose(g, ev, rng, 2)
          seen[#seen].value = value
        end
      else
        move, seen[#seen].value = self:choose(g, ev, rng, 1)
      end
      play_choice(g, move)
    end
  end
  local margins = {}
  for _, side in ipairs(g.rules.sides) do
    local margin = selfplay.margin(g, side)
    if margin ~= margin or math.abs(margin) > data.MAX_TARGET then
      errors.rules_fault(rules_mod.where(g.rules), "score", ("gave game %d a final margin of %s, outside what "
        .. "train can fit (%d to %d)"):format(n, tostring(margin), -data.MAX_TARGET, data.MAX_TARGET))
    end
    margins[side] = margin
  end
  local positions = {}
  for i, p in ipairs(seen) do
    local target = margins[p.side]
    if label > 0 and p.value then target = label * p.value / 100 + (1 - label) * target end
    positions[i] = { cells = p.cells, target = target }
  end
  return { game = n, holdout = selfplay.holdout(self.cfg.seed, n), positions = positions, plies = #g.log }
end

--- Plays game `k` (1-based) of a duel between evaluation `ev` ("learned")
-- and the hand-written one at the same depth: games in pairs from the same
-- random opening (drawn for pair (k + 1) // 2), the learned side first in
-- odd games. Returns "win", "loss" or "draw" for the learned side and its
-- margin.
function Play:duel(k, ev)
  local pair = (k + 1) // 2
  local learned_first = k % 2 == 1
  local g = self:start(pair, DUEL_SETUP)
  local rng = core.rng(match.seed_of(self.cfg.seed, pair, DUEL_OPENING))
  for _ = 1, self.cfg.plies do
    if g:finished() then break end
    if not pass_when_stuck(g) then
      local moves = g:moves()
      play_choice(g, moves[rng:random(#moves)])
    end
  end
  rng = core.rng(match.seed_of(self.cfg.seed, k, DUEL_MOVES))
  if self.searchers then
    self.searchers[1]:clear()
    self.searchers[2]:clear()
  end
  local first = g.rules.sides[1]
  local learned_side = learned_first and first or g.rules.sides[2]
  while not g:finished() do
    if not pass_when_stuck(g) then
      local learned = g:to_move() == learned_side
      local move = self:choose(g, learned and ev or nil, rng, learned and 1 or 2, true)
      play_choice(g, move)
    end
  end
  local winner = g:winner()
  local result = winner == "draw" and "draw" or (winner == learned_side and "win" or "loss")
  return result, selfplay.margin(g, learned_side)
end

return selfplay
