--- The `mcts` policy: Monte Carlo tree search (UCT) with random playouts,
-- over the rule set's hooks only (moves, play, undo, can_pass, pass,
-- finished, winner), so it plays any rule set.
--
-- Each playout walks down the tree, choosing at each node the child with
-- the best `wins/visits + c * sqrt(ln(parent visits) / visits)`, adds one
-- new node, then plays random moves (from the game's seeded generator) to
-- the end of the game, and counts the result for every node it passed: 1
-- for the side that moved into the node if that side won, 0.5 for a draw,
-- 0 for a loss (so it does not matter who moves next: FlipFlop's second
-- piece and Dots and Boxes' extra turns are searched as they are). It then
-- plays the root's most visited move.
--
-- A pass is a child wherever `can_pass` allows one. In a playout a player
-- passes when it has no move, and where passing is allowed anyway (loose
-- othello, FlipFlop's second piece) it passes one time in PASS_ODDS. A
-- playout that runs longer than twice the cells of the board (or edges of
-- the grid) without finishing is scored by the rule set's `winner` as it
-- stands. Everything is played and undone on the copy of the game it is
-- handed; nothing is cloned.
--
-- Where the C core computes the rule set exactly (rules.searched_in_core:
-- Reversi, blocks, othello and FlipFlop), the tree is walked on a
-- core.cursor (a move is its number among the legal ones, one C call; back
-- to the root with reset) and the random game is played in C from the
-- cursor, with the same draws from the same generator in the same order,
-- so the tree, the search and its move are the same, only faster. The
-- cursor passes at once for a side left without a move; the hooks make that
-- pass a choice of its own (a node with one child, drawn for like any
-- other), so such a node is kept, played on the cursor as nothing.
--
-- With `eval=FILE` (an evaluation from `boardscript train` for the rule
-- set and size; `eval=shipped` for the one boardscript ships) a new node
-- is valued by that evaluation instead of a random playout: its estimate
-- of the margin, turned into the odds of winning (a logistic curve,
-- mcts.EVAL_SCALE discs to e-fold odds). A finished game counts as it ends.
--
-- A described game the C engine runs exactly (boardscript.describe's
-- `in_core`) is searched wholly in C (`S:mcts`, src/core/dgame_mcts.c):
-- the same UCT with random playouts, its tree in a bounded pool, proven
-- wins and losses carried up the tree, the generator seeded from the
-- game's (so a fixed seed gives the same moves). There `playouts`
-- defaults to DESCRIBED_PLAYOUTS, or DESCRIBED_TIME seconds if sooner
-- (the moves then depend on the machine's speed), and `eval=FILE` takes a learned
-- evaluation of the described game (`boardscript train --rules GAME.lua`):
-- a new leaf's odds are (value + 1) / 2 instead of a random playout.
--
-- Whatever the search found, a choice that wins at once is played and one
-- that lets the opponent win at once is avoided while another exists
-- (boardscript.ai.tactics), so a small budget still wins and blocks. Under
-- --max-seconds the search stops itself at 90 % of the budget.
--
-- Options: `playouts` per move (default 1000), `time` (seconds per move,
-- processor time: playouts run until it is spent, or until `playouts` if
-- that is given too) and `c`, the exploration constant (default 1.4;
-- DESCRIBED_C for a described game searched in C).
local clock = require "boardscript.clock"
local core = require "boardscript.core"
local check = require "boardscript.rules.check"
local describe = require "boardscript.describe"
local evalfile = require "boardscript.evalfile"
local rules_mod = require "boardscript.rules"

local mcts = {
  name = "mcts",
  options = {
    playouts = { type = "integer", min = 1, max = 100000000,
                 help = "playouts per move (default 1000; with time, no limit unless given)" },
    time = { type = "number", min = 0, help = "seconds per move (processor time): play out until it is spent" },
    clock = clock.OPTIONS.clock,
    inc = clock.OPTIONS.inc,
    c = { type = "number", min = 0, max = 100,
          help = "exploration constant of UCT (default 1.4; 0.4 for a described game searched in C)" },
    eval = { type = "string", help = "value new nodes by a learned evaluation (a file, or shipped), not playouts" },
  },
}

mcts.DEFAULT_PLAYOUTS = 1000
--- The exploration constant when `c` is not given.
mcts.DEFAULT_C = 1.4
--- The same for a described game searched in C (its playouts are many
-- more: it explores less; in self-play at equal playouts on Connect Four
-- and Breakthrough 0.4 beat 0.7 and 1.0, docs/decisions.md).
mcts.DESCRIBED_C = 0.4
--- The playouts of a described game searched in C when neither `playouts`
-- nor `time` is given (C playouts cost a small fraction of the hooks').
mcts.DESCRIBED_PLAYOUTS = 20000
--- ... and the processor seconds it stops at first, if sooner (Amazons,
-- Ataxx: long playouts), so the default answers within about a second.
mcts.DESCRIBED_TIME = 1
--- The tree's bound in the C search of a described game (nodes of 32 bytes).
mcts.DESCRIBED_MAX_NODES = 1 << 21
--- Discs of estimated margin that multiply the odds of winning by e (eval=).
mcts.EVAL_SCALE = 4
mcts.PASS_ODDS = 50
--- Whether the tree and the playouts of rule sets searched in C are played
-- on a core.cursor (false: always over the hooks, as for any other rule set).
mcts.core_playouts = true

local PASS = "pass"
local opponent = require("boardscript.families.board").opponent

--- A player of its own for one seat, with options `opts`.
function mcts.new(opts)
  return setmetatable({ opts = opts or {} }, { __index = mcts })
end

local game_mod = require "boardscript.game"
local tactics = require "boardscript.ai.tactics"

-- The choices of a node: the moves, then a pass when allowed; none when
-- the game is over.
local function choices(r, s)
  if r:finished(s) then return {} end
  return game_mod.choices(r, s)
end

local apply = game_mod.apply

--- The longest playout: twice the cells of a core board (or the edges of
-- a dots grid), else 1000 plies.
function mcts.playout_limit(s)
  local b, kind = s.board, core.type(s.board)
  if kind == "board" then return 2 * b:size() * b:size() end
  if kind == "dots" then return 2 * b:edge_count() end
  return 1000
end

--- Plays random moves to the end of the game (or `limit` plies) over the
-- hooks, as core.playout does in C: returns
-- the plies played. (A rule set file's `finished` runs once a ply:
-- check.counting.)
local function playout(r, s, rng, limit)
  local plies = 0
  while plies < limit and not r:finished(s) do
    local moves = r:moves(s)
    local n = #moves
    local ok
    if n == 0 or (rng:random(mcts.PASS_ODDS) == 1 and r:can_pass(s)) then
      ok = r:pass(s)
    else
      ok = r:play(s, moves[rng:random(n)])
    end
    if not ok then break end -- no move and no pass: nothing more can happen
    plies = plies + 1
  end
  return plies
end

function mcts.playout(r, s, rng, limit)
  return check.counting(playout, r, s, rng, limit)
end

-- The reward of a finished (or cut short) playout for `side`.
local function reward(winner, side)
  if winner == side then return 1 end
  if winner == "draw" then return 0.5 end
  return 0
end

-- The child of `node` with the best upper confidence bound.
local function best_child(node, c)
  local log_n = math.log(node.visits)
  local best, best_ucb
  for _, child in ipairs(node.children) do
    local ucb = child.wins / child.visits + c * math.sqrt(log_n / child.visits)
    if best_ucb == nil or ucb > best_ucb then best, best_ucb = child, ucb end
  end
  return best
end

-- One of `untried` taken at random (the last one moves into its place).
local function take_untried(untried, rng)
  local i = rng:random(#untried)
  local choice = untried[i]
  untried[i] = untried[#untried]
  untried[#untried] = nil
  return choice
end

-- A new child of `node`: `choice` played by `mover`.
local function add_child(node, choice, mover)
  local child = { move = choice, parent = node, mover = mover, visits = 0, wins = 0, children = {} }
  node.children[#node.children + 1] = child
  return child
end

-- A playout's winner counted into `node` and every node above it.
local function backup(node, winner)
  while node do
    node.visits = node.visits + 1
    if node.mover ~= nil then node.wins = node.wins + reward(winner, node.mover) end
    node = node.parent
  end
end

-- A new node's value counted into it and every node above it: `p` the odds
-- that `side` (to move there) wins.
local function backup_odds(node, side, p)
  while node do
    node.visits = node.visits + 1
    if node.mover ~= nil then node.wins = node.wins + (node.mover == side and p or 1 - p) end
    node = node.parent
  end
end

-- One playout from the root: down the tree, one new node, a random game,
-- the result counted back up; the state is restored.
-- `fast`: the options of core.playout when the core plays the random game
-- (the state's fields are filled in here), else nil.
local function iterate(r, s, root, rng, c, limit, fast, learned)
  local node, played = root, 0
  while node.untried and #node.untried == 0 and #node.children > 0 do
    node = best_child(node, c)
    apply(r, s, node.move)
    played = played + 1
  end
  node.untried = node.untried or choices(r, s)
  local untried = node.untried
  if #untried > 0 then
    local choice, mover = take_untried(untried, rng), s.player
    if apply(r, s, choice) then
      played = played + 1
      node = add_child(node, choice, mover)
    end
  end
  local winner
  if learned and not r:finished(s) then
    local v = learned:evaluate(s.board, s.player) / 100
    local side = s.player
    for _ = 1, played do r:undo(s) end
    backup_odds(node, side, 1 / (1 + math.exp(-v / mcts.EVAL_SCALE)))
    return
  elseif fast then
    fast.limit, fast.passes, fast.piece, fast.turns, fast.unable = limit, s.passes, s.piece, s.turns, s.unable
    winner = select(4, core.playout(s.board, s.player, rng, fast))
  else
    local plies = mcts.playout(r, s, rng, limit)
    winner = r:winner(s)
    for _ = 1, plies do r:undo(s) end
  end
  for _ = 1, played do r:undo(s) end
  backup(node, winner)
end

-- The tree over a cursor `cur` standing at a node: `pending` is the number
-- of passes the cursor has made past the node's position (passes for a side
-- without a move, which the hooks make as choices of their own). A node's
-- choices are move numbers 1..count, then PASS where a pass is allowed; a
-- node with pending passes has PASS alone.
local function cursor_choices(cur, pending)
  if pending > 0 then return { PASS } end
  local n = cur:count()
  local list = {}
  for k = 1, n do list[k] = k end
  if cur:can_pass() then list[n + 1] = PASS end
  return list
end

-- Plays `choice` of a node with `pending` passes: the child's pending.
local function cursor_apply(cur, choice, pending)
  if pending > 0 then return pending - 1 end -- the cursor has made this pass
  local before = cur:plies()
  if choice == PASS then cur:pass() else cur:play(choice) end
  return cur:plies() - before - 1
end

-- The side to move at a node with `pending` passes (a pass changes sides).
local function cursor_side(cur, pending)
  local side = cur:side()
  if pending % 2 == 1 then return opponent(side) end
  return side
end

-- iterate over a cursor standing at the root (left there again): the same
-- tree, draws and counts as over the hooks. `popts`: the playout options.
local function iterate_cursor(cur, root, rng, c, limit, popts)
  local node, pending = root, 0
  while node.untried and #node.untried == 0 and #node.children > 0 do
    node = best_child(node, c)
    pending = cursor_apply(cur, node.move, pending)
  end
  node.untried = node.untried or cursor_choices(cur, pending)
  local untried = node.untried
  if #untried > 0 then
    local choice, mover = take_untried(untried, rng), cursor_side(cur, pending)
    pending = cursor_apply(cur, choice, pending)
    node = add_child(node, choice, mover)
  end
  popts.limit = limit - pending -- the hooks' playout would make the pending passes first
  local winner = select(4, cur:playout(rng, popts))
  cur:reset()
  backup(node, winner)
end

-- A cursor on the root `s` whose choices are `list` in the same order
-- (moves then a pass), or nil.
local function root_cursor(r, s, list)
  local ok, cur = pcall(core.cursor, s.board, s.player, { game = rules_mod.core_game(r, s),
    passes = s.passes, piece = s.piece, turns = s.turns, unable = s.unable })
  if not ok or cur:plies() ~= 0 then return nil end
  local n = cur:count() + (cur:can_pass() and 1 or 0)
  if n ~= #list or (cur:can_pass() and list[n] ~= PASS) then return nil end
  return cur
end

-- A described game's move, searched in C.
local function choose_described(self, g, ctx, opts, time)
  local rng = ctx.rng or g.rng or core.rng(1)
  local playouts = opts.playouts
  if playouts == nil and time == nil then playouts, time = mcts.DESCRIBED_PLAYOUTS, mcts.DESCRIBED_TIME end
  -- under --max-seconds the C search, which no Lua hook can stop, stops
  -- itself within the budget (both count processor time)
  if ctx.max_seconds then time = math.min(time or math.huge, 0.9 * ctx.max_seconds) end
  local move, info = g.state.board:mcts { playouts = playouts, time = time, c = opts.c or mcts.DESCRIBED_C,
    seed = rng:random(0x7fffffff), max_nodes = mcts.DESCRIBED_MAX_NODES,
    eval = require("boardscript.described_eval").for_policy(self, opts.eval, g, "mcts"),
    values = g.rules.described.normalised(g.opts or {}).values }
  if move == nil then return nil end
  -- its choice first, then the others by visits: a win at once is taken, a loss at once avoided
  local ranked = { move }
  local others = {}
  for i, choice in ipairs(g:choices()) do
    if choice ~= move then others[#others + 1] = { choice = choice, visits = info.visits[choice] or 0, i = i } end
  end
  table.sort(others, function(a, b)
    if a.visits ~= b.visits then return a.visits > b.visits end
    return a.i < b.i
  end)
  for _, o in ipairs(others) do ranked[#ranked + 1] = o.choice end
  local why
  move, why = tactics.choose(g.rules, g.state, ranked)
  if ctx.log then
    ctx.log("%d playouts, %.3f s: %s, %d visits, %.2f won%s", info.playouts, info.seconds,
      move == PASS and "pass" or tostring(g:move_text(move)), info.visits[move] or 0, info.value,
      why and (" (" .. why .. ")") or "")
  end
  return move
end

--- The move for the side to move of `g` (a copy: the search plays and
-- undoes on it), "pass", or nil when there is nothing to play.
function mcts:choose(g, ctx)
  ctx = ctx or {}
  local opts = ctx.options or self.opts or {}
  local time = ctx.time or opts.time
  if describe.in_core(g.rules) then return choose_described(self, g, ctx, opts, time) end
  local start = os.clock()
  local playouts = opts.playouts or (time and math.huge or mcts.DEFAULT_PLAYOUTS)
  -- under --max-seconds the search stops itself within the budget (it
  -- would be stopped, and the move lost, past it)
  if ctx.max_seconds then time = math.min(time or math.huge, 0.9 * ctx.max_seconds) end
  local deadline = time and start + time or nil
  local c = opts.c or mcts.DEFAULT_C
  local rng = ctx.rng or g.rng or core.rng(1)
  local r, s = g.rules, g.state
  local list = choices(r, s)
  if #list <= 1 then return list[1] end
  local root = { visits = 0, wins = 0, children = {}, untried = list }
  local limit = mcts.playout_limit(s)
  local learned
  if opts.eval and opts.eval ~= "hand" then
    local key = ("%s/%s"):format(opts.eval, tostring(r.name))
    if rawget(self, "learned_key") ~= key then
      self.learned, self.learned_key = evalfile.learned(opts.eval, r, s, "mcts"), key
    end
    learned = self.learned
  end
  local cur = not learned and mcts.core_playouts and rules_mod.searched_in_core(r) and root_cursor(r, s, list) or nil
  local count = 0
  if cur then
    -- the root's children are move numbers: its list in the cursor's order
    root.untried = cursor_choices(cur, 0)
    local popts = { pass_odds = mcts.PASS_ODDS }
    while count < playouts and not (deadline and os.clock() >= deadline) do
      iterate_cursor(cur, root, rng, c, limit, popts)
      count = count + 1
    end
  else
    local fast = mcts.core_playouts and rules_mod.searched_in_core(r)
      and { game = rules_mod.core_game(r, s), pass_odds = mcts.PASS_ODDS } or nil
    while count < playouts and not (deadline and os.clock() >= deadline) do
      iterate(r, s, root, rng, c, limit, fast, learned)
      count = count + 1
    end
  end
  if #root.children == 0 then return list[rng:random(#list)] end -- no time for a single playout
  -- the children by visits (then wins, then the order they were made), then
  -- the choices never tried: a win at once is taken, a loss at once avoided
  local kids = {}
  for i, child in ipairs(root.children) do kids[i] = { child = child, i = i } end
  table.sort(kids, function(a, b)
    local x, y = a.child, b.child
    if x.visits ~= y.visits then return x.visits > y.visits end
    if x.wins ~= y.wins then return x.wins > y.wins end
    return a.i < b.i
  end)
  local ranked, node_of = {}, {}
  local function add(choice, node)
    if cur and choice ~= PASS then choice = list[choice] end
    ranked[#ranked + 1] = choice
    node_of[choice] = node
  end
  for _, k in ipairs(kids) do add(k.child.move, k.child) end
  for _, choice in ipairs(root.untried) do add(choice, nil) end
  local move, why = tactics.choose(r, s, ranked)
  if ctx.log then
    local best = node_of[move] or { visits = 0, wins = 0 }
    ctx.log("%d playouts, %.3f s: %s, %d visits, %.2f won%s", count, os.clock() - start,
      move == PASS and "pass" or tostring(g:move_text(move)), best.visits, best.wins / math.max(best.visits, 1),
      why and (" (" .. why .. ")") or "")
  end
  return move
end

return mcts
