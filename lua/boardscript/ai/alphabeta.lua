--- alphabeta: the C searcher (core.searcher) as a policy. Negamax with
-- principal-variation search, iterative deepening, a transposition table,
-- killer and history ordering, and an exact endgame solver; the evaluation
-- weighs mobility, potential mobility, unflippable cells ("corners", on any
-- size and with blocks), the cells next to them and stable discs.
--
-- It plays a rule set only when the C core computes it exactly: the rule
-- set describes its game (`core_game`) and still has every hook its
-- `core_count` declaration vouches for (rules.searched_in_core). Reversi,
-- blocks, othello (loose and strict) and FlipFlop do, at any size, with
-- blocks and direction sets; a variant that overrides a hook is played by
-- minimax or mcts instead.
--
-- A described game (boardscript.describe) that the C engine runs exactly
-- (`describe.in_core`) is searched by the described-game searcher
-- (`S:search`, src/core/dgame_search.c): the same options, an evaluation of
-- material (the description's `values`), line potential and the lead
-- towards a reach zone, or with `eval=FILE` a learned one (`boardscript
-- train --rules GAME.lua`, boardscript.described_eval; refused for
-- another game); `endgame`, `weights` and `evaluate` do not apply there.
-- Given neither `depth` nor `time` it searches DESCRIBED_DEPTH plies
-- within DESCRIBED_TIME seconds.
--
-- The evaluation (`eval`): a learned one (boardscript train) from a file,
-- `hand` for the hand-written weighted sum, or by default the one shipped
-- for the rule set and size when there is one (`boardscript ai list`),
-- else the hand-written one.
--
-- Where the evaluation file has Multi-ProbCut parameters (fitted by `boardscript
-- train`, boardscript.mpc), the midgame search cuts by them: `mpc=off` turns
-- it off, `mpc=W` sets the width in sigmas.
--
-- `threads=2` searches the midgame with a helper thread sharing the table
-- (Lazy SMP, src/core/search_threads.c).
--
-- `alphabeta.new{ depth =, time =, endgame =, tt_mb =, weights =, eval =, evaluate =, mpc =, threads = }`
-- makes one; `evaluate(board, player)` (hundredths of a disc for `player`)
-- replaces either evaluation, so a policy file can wrap it with its
-- own (lua/examples/my_alphabeta.lua).
local clock = require "boardscript.clock"
local core = require "boardscript.core"
local describe = require "boardscript.describe"
local evalfile = require "boardscript.evalfile"
local rules_mod = require "boardscript.rules"

--- Whether alphabeta plays `rules`: a capture rule set the C core searches
-- exactly, or a described game the C engine runs exactly.
-- @tparam table rules a rule set
-- @treturn boolean
local function accepts(rules)
  return rules_mod.searched_in_core(rules) or describe.in_core(rules)
end

--- The techniques a search can go without (core.searcher's `without`).
local TECHNIQUES = { etc = true, stability = true, eval_order = true, killers = true, aspiration = true,
                     table = true }

--- The list of technique names in option text "etc+stability" (nil: the
-- text names one that is not a technique).
local function without_list(text)
  if text == nil then return nil end
  local list = {}
  for name in (text .. "+"):gmatch("([^+]*)%+") do
    if not TECHNIQUES[name] then return nil end
    list[#list + 1] = name
  end
  return list
end

local function mpc_value(text)
  if text == nil or text == "on" then return true end
  if text == "off" then return false end
  local width = tonumber(text)
  if width and width >= 0.01 and width <= 100 then return width end
  return nil
end

local alphabeta = {
  name = "alphabeta",
  accepts = accepts,
  options = {
    depth = { type = "integer", min = 1, max = 60, help = "plies to search (default 6 without a time)" },
    time = { type = "number", min = 0, max = 10000000, help = "seconds per move (iterative deepening stops in time)" },
    clock = clock.OPTIONS.clock,
    inc = clock.OPTIONS.inc,
    endgame = { type = "integer", min = 0, max = 40,
                help = "solve exactly at this many empty cells or fewer (0: never; default 14, "
                  .. "or depth + 10 up to 20 for a depth over 4)" },
    wld = { type = "integer", min = 0, max = 60,
            help = "playing by time: prove win, loss or draw from this many empty cells, after a deepening "
              .. "8 plies short of the end (0: never; default by the time, 23 at 2.2 s on 2 threads)" },
    tt_mb = { type = "integer", min = 1, max = 4096, default = 16, help = "transposition table size in MiB" },
    eval = { type = "string",
             help = "evaluation: a file from 'boardscript train', or hand (default: the shipped one, if any)" },
    mpc = { type = "string", check = function(v)
              return mpc_value(v) ~= nil, ("%s is not on, off or a width from 0.01 to 100"):format(v)
            end,
            help = "Multi-ProbCut, where the evaluation file has fitted parameters: on (default), off, or the "
              .. "width in sigmas (on is 1.5)" },
    without = { type = "string", check = function(v)
                  return without_list(v) ~= nil,
                    ("%s is not a list of etc, stability, eval_order, killers, aspiration, table joined by +"):format(v)
                end,
                help = "techniques left out, to measure each one's gain: etc, stability, eval_order, killers, "
                  .. "aspiration, table, joined by + (default: none)" },
    threads = { type = "integer", min = 1, max = 8, default = 1,
                help = "threads searching together (Lazy SMP; not with a Lua evaluate; moves may differ run to run)" },
  },
}

--- The searcher's `mpc` field for option text `text` (nil: the default):
-- true, false or a width in sigmas; nil for text that is none of them.
alphabeta.mpc_value = mpc_value
--- The searcher's `without` list for option text `text` (nil: none, or
-- text that names something else).
alphabeta.without_list = without_list

--- The depth of a search given neither a depth nor a time (the C
-- searcher's default).
alphabeta.DEFAULT_DEPTH = 6
--- A described game's search given neither a depth nor a time: this many
-- plies, stopped after DESCRIBED_TIME seconds if they take longer (a wide
-- game such as Amazons).
alphabeta.DESCRIBED_DEPTH = 8
alphabeta.DESCRIBED_TIME = 1

--- The exact-solve threshold when `endgame` is not given, for a search
-- `depth` plies deep (nil: by time): 14, or depth + 10 up to 20 when that is
-- more. A deeper midgame search goes with a deeper solve, as Ntest and Edax
-- couple them (Ntest at depth 8 solves win/loss/draw from 17 empties);
-- 8 x 8 solves from 18 empties take a few milliseconds.
function alphabeta.default_endgame(depth)
  if depth == nil then return 14 end
  return math.max(14, math.min(20, depth + 10))
end

--- On a clock, the empty cells from which a search proves win, loss or
-- draw when `wld` is not given: the most whose proof takes, on average,
-- about a quarter of `seconds` x `threads` processor seconds (measured on
-- game positions: about 0.15 s from 20 empty cells, 1.75 times as long for
-- each cell more); 0 without a time.
function alphabeta.default_wld(seconds, threads)
  if seconds == nil or seconds <= 0 then return 0 end
  local cells = 20 + math.floor(math.log(seconds * (threads or 1) / 0.6) / math.log(1.75))
  return math.max(0, math.min(30, cells))
end

-- An instance: its own searcher; `new` is not one of its methods, so a
-- policy file may return an instance as it is.
-- Its searcher (`self.searcher`; `self.dgame_searcher` for described
-- games, whose table is kept from move to move) is made at its first use, so an instance
-- that never searches (a seat of `boardscript serve`, whose moves are
-- searched in worker processes) holds no table. (Its metatable is apart:
-- an instance reaches no table of its methods through a field,
-- `inst.__index`.)
local Instance = { name = "alphabeta", accepts = accepts }
local InstanceMeta = {
  __index = function(self, key)
    local searcher
    if key == "searcher" then
      searcher = core.searcher { tt_mb = self.opts.tt_mb or 16, weights = self.opts.weights }
    elseif key == "dgame_searcher" then
      searcher = core.dgame_searcher { tt_mb = self.opts.tt_mb or 16 }
    else
      return Instance[key]
    end
    rawset(self, key, searcher)
    return searcher
  end,
}

--- A new instance (its own table and weights). opts: depth, time, endgame,
-- tt_mb, weights (a table, see core searcher:weights), evaluate (a function).
function alphabeta.new(opts)
  opts = opts or {}
  return setmetatable({ opts = opts }, InstanceMeta)
end

--- Frees the instance's searcher (its table) now; a later search makes a
-- new one.
function Instance:close()
  for _, key in ipairs { "searcher", "dgame_searcher" } do
    local searcher = rawget(self, key)
    if searcher then
      rawset(self, key, nil)
      searcher:close()
    end
  end
end

--- The learned evaluator this instance plays game `g` with, or nil (the
-- hand-written evaluation): opts.eval's file, or the shipped one.
function Instance:evaluator(g)
  local name = tostring(g.rules.name)
  local size, shape = evalfile.shape(g.state.board)
  local key = name .. "/" .. (shape or size)
  if self.evaluator_key ~= key then
    self.evaluator_key = key
    self.learned, self.learned_meta = evalfile.for_game(self.opts.eval, name, size, shape)
  end
  return self.learned
end

-- The search and time of a move (ctx.time, the options, --max-seconds).
-- On a game clock the move's share is stretched (clock.stretch): the
-- search stops itself well before its time, so it spends about the share.
local function budget(opts, ctx, default_depth)
  local time = ctx and ctx.time or opts.time
  if ctx and ctx.clock and ctx.time then
    time = math.min(clock.stretch(ctx.time, ctx.clock.left), opts.time or math.huge)
  end
  local depth = opts.depth
  if ctx and ctx.max_seconds then
    -- under --max-seconds the C search, which no Lua hook can stop, stops
    -- itself within the budget (its clock is wall time; the processor time
    -- the budget counts runs at most `threads` times as fast); the budget
    -- caps the search, never turns the default depth into a search by time
    if time == nil and depth == nil then depth = default_depth end
    time = math.min(time or math.huge, 0.9 * ctx.max_seconds / (opts.threads or 1))
  end
  return depth, time
end

-- The searcher's `wld`: the option, else by the time of a policy that
-- plays by time (its own `time` or a clock's share; not a depth-based one
-- under --max-seconds, whose time is only a cap).
local function wld_of(opts, ctx, time)
  if opts.wld then return opts.wld end
  if opts.depth == nil and (opts.time or (ctx and ctx.time)) then
    return alphabeta.default_wld(time, opts.threads)
  end
  return 0
end

--- The searcher's options for a position of game `g`.
function Instance:search_options(g, ctx)
  local state = g.state
  local opts = self.opts
  local depth, time = budget(opts, ctx, alphabeta.DEFAULT_DEPTH)
  return {
    game = rules_mod.core_game(g.rules, state),
    passes = state.passes, piece = state.piece, turns = state.turns, unable = state.unable,
    depth = depth, time = time, endgame = opts.endgame or alphabeta.default_endgame(opts.depth),
    wld = wld_of(opts, ctx, time),
    evaluate = opts.evaluate,
    evaluator = self:evaluator(g),
    mpc = alphabeta.mpc_value(opts.mpc),
    threads = opts.threads,
    without = without_list(opts.without),
  }
end

-- A described game's move: the described-game searcher on its state.
local function choose_described(self, g, ctx)
  local opts = self.opts
  local depth, time = budget(opts, ctx, alphabeta.DESCRIBED_DEPTH)
  if depth == nil and time == nil then depth, time = alphabeta.DESCRIBED_DEPTH, alphabeta.DESCRIBED_TIME end
  local normalised = describe.normalize(g.rules, g.opts or {})
  local move, value, info = g.state.board:search { depth = depth, time = time, searcher = self.dgame_searcher,
    values = normalised.values,
    eval = require("boardscript.described_eval").for_policy(self, opts.eval, g, "alphabeta") }
  if move == nil then return nil end
  if ctx and ctx.log then
    ctx.log("%s value %d depth %d nodes %d %.3f s%s", move == "pass" and "pass" or g:move_text(move) or "?",
      value, info.depth, info.nodes, info.seconds, info.exact and " exact" or "")
  end
  return move
end

function Instance:choose(g, ctx)
  if describe.in_core(g.rules) then return choose_described(self, g, ctx) end
  if not rules_mod.searched_in_core(g.rules) then
    error(("alphabeta plays only rule sets the C core searches exactly; '%s' overrides a hook "
      .. "(use minimax or mcts)"):format(tostring(g.rules.name)), 0)
  end
  local state = g.state
  local move, value, info = self.searcher:search(state.board, state.player, self:search_options(g, ctx))
  if move == nil then return nil end
  if ctx and ctx.log then
    local how = info.exact and (info.wld and " win/loss/draw, exact" or " exact") or info.wld and " win/loss/draw" or ""
    ctx.log("%s value %d depth %d nodes %d %.3f s%s", g:move_text(move) or "pass", value, info.depth,
      info.nodes, info.seconds, how)
  end
  return move
end

return alphabeta
