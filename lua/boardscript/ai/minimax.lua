--- The `minimax` policy: a depth-limited negamax search with alpha-beta
-- pruning over the rule set's hooks only (moves, play, undo, can_pass,
-- pass, finished, score, winner), so it plays any rule set.
--
-- A position `depth` plies down is valued by the rule set's optional
-- `evaluate(state, side)` hook (a number, higher is better for `side`)
-- when it has one, else by the score margin of `side` (its score minus the
-- other's). A finished game is a win or a loss by the rule set's `winner`,
-- worth more than any evaluation (a quicker win more than a slower one), or
-- 0 for a draw. A pass is searched like a move wherever `can_pass` allows
-- one. When the same side moves again (FlipFlop's second piece, a
-- completed box in Dots and Boxes) the value is not negated.
--
-- With `eval=FILE` (an evaluation from `boardscript train` for the rule set
-- and size) that learned evaluation values the positions instead, and
-- `eval=shipped` the one boardscript ships for them (`boardscript ai list`).
--
-- Options: `depth` (plies, default 3) and `time` (seconds for a move). With
-- `time` the search deepens one ply at a time (iterative deepening) until
-- the time is spent or `depth` is reached (default then 30), and plays the
-- best move of the deepest search it finished. Time is processor time
-- (os.clock). Moves of equal value are chosen between with the game's
-- seeded generator.
local evalfile = require "boardscript.evalfile"
local clock = require "boardscript.clock"
local game_mod = require "boardscript.game"
local positional = require "boardscript.ai.positional"

local minimax = {
  name = "minimax",
  options = {
    depth = { type = "integer", min = 1, max = 30,
              help = "plies searched (default 3; with time, the deepest search allowed, default 30)" },
    time = { type = "number", min = 0, help = "seconds per move (processor time): deepen until it is spent" },
    clock = clock.OPTIONS.clock,
    inc = clock.OPTIONS.inc,
    eval = { type = "string", help = "a learned evaluation: a file from 'boardscript train', or shipped" },
  },
}

--- A finished game won is worth WIN minus the plies to it.
minimax.WIN = 2 ^ 40
minimax.DEFAULT_DEPTH, minimax.TIMED_DEPTH = 3, 30

local PASS = "pass"
local TIMEOUT = setmetatable({}, { __tostring = function() return "minimax: time is up" end })
local CHECK_EVERY = 32 -- nodes between looks at the clock

--- A player of its own for one seat, with options `opts`.
function minimax.new(opts)
  return setmetatable({ opts = opts or {} }, { __index = minimax })
end

-- The moves to search in the state: its moves, then a pass when allowed.
local choices, apply = game_mod.choices, game_mod.apply

-- Plays `choice` in the search (counted, so a search cut short can undo).
local function enter(S, choice)
  local ok = apply(S.r, S.s, choice)
  if ok then S.played = S.played + 1 end
  return ok
end

local function leave(S)
  S.r:undo(S.s)
  S.played = S.played - 1
end

-- The static value of the state for `side`.
local function evaluate(S, side)
  local r, s = S.r, S.s
  if S.learned then
    local v = S.learned:evaluate(s.board, s.player)
    return s.player == side and v or -v
  end
  if S.evaluate then return S.evaluate(r, s, side) end
  if S.weights then return positional.evaluate(r, s, side, S.weights, S.corners) end
  local first, second = r:score(s)
  local own, other = first, second
  if side ~= S.first then own, other = second, first end
  return (own - other) * positional.direction(r, s, side, own, other)
end

-- A finished game's value for `side`, `ply` plies from the root.
local function terminal(S, side, ply)
  local winner = S.r:winner(S.s)
  if winner == side then return minimax.WIN - ply end
  if winner == "draw" then return 0 end
  return ply - minimax.WIN
end

-- The negamax value of the state for the side to move, searched `depth`
-- plies down within the window (alpha, beta).
local function negamax(S, depth, alpha, beta, ply)
  S.nodes = S.nodes + 1
  if S.deadline and S.nodes % CHECK_EVERY == 0 and os.clock() >= S.deadline then error(TIMEOUT, 0) end
  local r, s = S.r, S.s
  local side = s.player
  if r:finished(s) then return terminal(S, side, ply) end
  if depth <= 0 then return evaluate(S, side) end
  local best
  for _, choice in ipairs(choices(r, s)) do
    if enter(S, choice) then
      local v
      if s.player == side then
        v = negamax(S, depth - 1, alpha, beta, ply + 1)
      else
        v = -negamax(S, depth - 1, -beta, -alpha, ply + 1)
      end
      leave(S)
      if best == nil or v > best then best = v end
      if v > alpha then alpha = v end
      if alpha >= beta then break end
    end
  end
  return best or evaluate(S, side)
end

-- Whether the state is a capture game (positional.fits) whose score is
-- its disc count: then the positional weight table refines it. Any other
-- game (Breakthrough counts pieces too) is valued by its score and its
-- winner alone.
local function counts_discs(r, s)
  if not positional.fits(r) then return false end
  local b = s.board
  local black, white = b:count("black"), b:count("white")
  local first, second = r:score(s)
  return black + white > 0 and first == black and second == white
end

-- One search of the root's `list` of choices to `depth`: the best choice
-- and its value. S.partial is the best of the choices searched so far (for
-- a search the clock cuts short).
local function search_root(S, list, depth)
  local s = S.s
  local side = s.player
  local alpha, beta = -math.huge, math.huge
  local best, best_value
  S.partial = nil
  for _, choice in ipairs(list) do
    if enter(S, choice) then
      local v
      if s.player == side then
        v = negamax(S, depth - 1, alpha, beta, 1)
      else
        v = -negamax(S, depth - 1, -beta, -alpha, 1)
      end
      leave(S)
      if best_value == nil or v > best_value then best, best_value = choice, v end
      if v > alpha then alpha = v end
      S.partial = best
    end
  end
  return best, best_value
end

--- The move for the side to move of `g` (a copy: the search plays and
-- undoes on it), "pass", or nil when there is nothing to play.
function minimax:choose(g, ctx)
  ctx = ctx or {}
  local opts = ctx.options or self.opts or {}
  local time = ctx.time or opts.time
  local start = os.clock()
  local max_depth = opts.depth or (time and minimax.TIMED_DEPTH or minimax.DEFAULT_DEPTH)
  local r, s = g.rules, g.state
  local list = choices(r, s)
  if #list <= 1 then return list[1] end
  local rng = ctx.rng or g.rng
  if rng then -- ties go to the first found: shuffle, so a seed decides them
    for i = #list, 2, -1 do
      local j = rng:random(i)
      list[i], list[j] = list[j], list[i]
    end
  end
  local S = { r = r, s = s, first = r.sides[1], nodes = 0, played = 0,
              evaluate = type(r.evaluate) == "function" and r.evaluate or nil,
              deadline = time and start + time or nil }
  if opts.eval and opts.eval ~= "hand" then
    local key = ("%s/%s/%s"):format(opts.eval, tostring(r.name), tostring(s.board and s.board.size and s.board:size()))
    if rawget(self, "learned_key") ~= key then
      self.learned, self.learned_key = evalfile.learned(opts.eval, r, s, "minimax"), key
    end
    S.learned = self.learned
  end
  if not S.evaluate and counts_discs(r, s) then
    S.weights, S.corners = positional.weights(s.board)
  end
  local best, value, reached
  for depth = time and 1 or max_depth, max_depth do
    local ok, move, v = pcall(search_root, S, list, depth)
    if not ok then
      if move ~= TIMEOUT then error(move, 0) end
      for _ = 1, S.played do r:undo(s) end
      best = best or S.partial
      break
    end
    best, value, reached = move, v, depth
    for i, choice in ipairs(list) do -- the best first in the next, deeper search
      if choice == move then table.remove(list, i); table.insert(list, 1, move); break end
    end
    if math.abs(v) > minimax.WIN / 2 then break end -- a forced result: no need to look deeper
  end
  best = best or list[1]
  if ctx.log then
    ctx.log("depth %s, value %s, %d nodes, %.3f s: %s", tostring(reached), tostring(value), S.nodes,
      os.clock() - start, best == PASS and "pass" or tostring(g:move_text(best)))
  end
  return best
end

return minimax
