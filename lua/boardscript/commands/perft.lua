--- `boardscript perft RULES DEPTH`: leaves of the game tree (a benchmark).
local options = require "boardscript.options"
local perft = require "boardscript.perft"
local rule_options = require "boardscript.rule_options"

local command = { summary = "Count the leaves of the game tree from the start position (any rule set)." }

function command.configure(cmd)
  cmd:argument("rules", "A rule set: a built-in name (reversi, blocks, othello, flipflop, dots, ...) "
    .. "or a path to a .lua file.")
  cmd:argument("depth", "Plies to search."):convert(options.integer_in(0, 64, "depth"))
  rule_options.add(cmd)
  options.seed(cmd, "Seed for a rule set whose setup draws at random.", "0")
  options.budgets(cmd, "each call into a rule set file (a hook; perft calls them at every node)")
  cmd:flag("--generic", "Use the core's multi-word path even on 8 x 8 (to check the fast path).")
  cmd:flag("--hooks", "Count over the rule set's Lua hooks even where the C core could count it.")
  cmd:option("--terminal", "Leaves a finished game counts above the last ply: 1 (the default; the Othello "
    .. "tables) or 0 (the Ataxx and chess tables; counted over the hooks; the default of a described game).")
    :convert(options.integer_in(0, 1, "terminal"))
end

function command.run(args)
  local core = require "boardscript.core"
  local g = rule_options.new_game(args, core.rng(args.seed))
  local opts = { generic = args.generic, hooks = args.hooks, terminal = args.terminal }
  if args.generic and perft.how(g.rules, opts) == "hooks" then
    require("boardscript.errors").fail(("--generic: %s is counted over its Lua hooks here (%s), not by the "
      .. "core's multi-word path"):format(tostring(g.rules.name or args.rules),
      args.hooks and "--hooks" or args.terminal == 0 and "--terminal 0" or "its hooks are its own"))
  end
  local clock = os.clock()
  -- A long count reports on stderr after each root move once 10 s have passed.
  local next_report = 10
  local function progress(done, total, leaves)
    local seconds = os.clock() - clock
    if seconds < next_report then return end
    next_report = seconds + 10
    io.stderr:write(("perft: %d of %d root moves, %d leaves, %.0f s so far\n"):format(done, total, leaves, seconds))
  end
  local leaves, how = perft.count_by_root(g.rules, g.state, args.depth, opts, progress)
  local seconds = os.clock() - clock
  local rate = seconds > 0 and leaves / seconds or 0
  io.stdout:write(("perft %s depth %d size %s: %d leaves, %.3f s, %.0f leaves/s (%s)\n"):format(
    g.rules.name or args.rules, args.depth, g:size_text(), leaves, seconds, rate,
    how == "core" and "C core" or "Lua hooks"))
  return 0
end

return command
