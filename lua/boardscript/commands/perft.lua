--- `boardscript perft RULES DEPTH`: leaves of the game tree (a benchmark).
local options = require "boardscript.options"

local command = { summary = "Count the leaves of the game tree from the start position." }

function command.configure(cmd)
  cmd:argument("rules", "A rule set: reversi, blocks, or a path to a .lua file.")
  cmd:argument("depth", "Plies to search."):convert(options.integer_in(0, 64, "depth"))
  cmd:option("--size", "Board size.", "8"):convert(options.integer_in(4, 26, "size"))
  cmd:flag("--generic", "Use the multi-word path even on 8 x 8 (to check the fast path).")
end

function command.run(args)
  local rules = require("boardscript.rules").load(args.rules)
  if not rules.perft then
    io.stderr:write("boardscript: rule set '", args.rules, "' has no perft hook\n")
    return 1
  end
  local state = rules:setup({ size = args.size })
  local clock = os.clock()
  local leaves = rules:perft(state, args.depth, { generic = args.generic })
  local seconds = os.clock() - clock
  local rate = seconds > 0 and leaves / seconds or 0
  io.stdout:write(("perft %s depth %d size %d: %d leaves, %.3f s, %.0f leaves/s\n"):format(
    rules.name or args.rules, args.depth, args.size, leaves, seconds, rate))
  return 0
end

return command
