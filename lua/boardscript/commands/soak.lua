--- `boardscript soak [--games N] [--seed S] [--rules NAME|FILE ...] [--sizes
-- LIST] [--only-game G] [--jobs K] [--quiet|--json]`: seeded random games
-- of every rule set and size, checked at every move (boardscript.soak). A
-- failure prints the game, its rule set, options and moves and the command
-- that replays it alone, and exits 1.
local output = require "boardscript.output"
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local options = require "boardscript.options"

local command = {
  summary = "Play seeded random games of every rule set and size, checking the engine at every move.",
}

function command.configure(cmd)
  cmd:epilog("Plays seeded random games cycling through every built-in rule set and its options "
    .. "(sizes, blocks, direction sets, passing rules, misere, Dots and Boxes grids) and the example rule sets. "
    .. "At every move it checks that the core's move generators agree (8 x 8 word path, portable loop, "
    .. "multi-word and reference paths), that the C core's view agrees with the rule set's hooks where the "
    .. "core computes them, that a clone equals the original and is independent of it, and that play then "
    .. "undo restores the position exactly; at the end, that the game's record replays to the same position "
    .. "and result. Options a rule set's check_options refuses together are drawn again, and a size where it "
    .. "refuses every set tried is skipped (the summary says which). "
    .. "Game G is a function of the seed and G alone: a failure prints "
    .. "'reproduce: boardscript soak ... --only-game G' and exits 1.")
  cmd:option("--games", "Games to play.", tostring(require("boardscript.soak").DEFAULT_GAMES))
    :convert(options.integer_in(1, 1000000000, "games"))
  options.seed(cmd, "The run's seed (game G plays from a seed mixed from it and G).", "1")
  options.budgets(cmd, "each call into a rule set file (a hook); --jobs workers get the same budgets")
  cmd:option("--rules", "Only this rule set: a built-in name, 'directions' or 'misere' (the soak's own "
    .. "Reversi variants) or a rule set file (repeatable).")
    :count("*")
  cmd:option("--sizes", "Only these sizes (board sizes; Dots and Boxes rows): 6,8,10 or 4..12.")
  cmd:option("--only-game", "Play only game G of the run (what a failure says to reproduce it).")
    :convert(options.integer_in(1, 1000000000, "only-game"))
  cmd:option("--jobs", "Play in this many worker processes (the same games as one).", "1")
    :convert(options.integer_in(1, 256, "jobs"))
  cmd:option("--shard", "Play only games I, I+N, ... (what --jobs workers run); write a JSON summary.")
  cmd:option("--progress", "Every N games, print 'soak: G games' on stderr (each worker its own).")
    :convert(options.integer_in(1, 1000000000, "progress"))
  cmd:flag("--quiet", "Print nothing but a failure.")
  cmd:flag("--json", "Print the summary as one JSON object.")
end

local shell_quote = require("boardscript.text").shell_quote

-- The arguments that choose the games (what a reproducer repeats).
local function game_args(args)
  local out = { "--seed", tostring(args.seed) }
  for _, r in ipairs(args.rules or {}) do
    out[#out + 1] = "--rules"
    out[#out + 1] = r
  end
  if args.sizes then
    out[#out + 1] = "--sizes"
    out[#out + 1] = args.sizes
  end
  return out
end

--- The lines reporting a failed game (what goes to stderr).
function command.failure_text(result, args)
  local f = result.failure
  local argv = game_args(args)
  for i, a in ipairs(argv) do argv[i] = a:match("^[%w%._/,:=-]+$") and a or shell_quote(a) end
  return table.concat({
    ("boardscript: soak: game %d failed: %s: %s"):format(result.number, f.check, f.detail),
    ("  rules: %s (game seed %d)"):format(result.label, result.seed),
    ("  at ply %d%s, after the moves: %s"):format(f.ply, f.playing and (", playing " .. f.playing) or "",
      f.moves ~= "" and f.moves or "(none)"),
    ("  reproduce: boardscript soak %s --only-game %d"):format(table.concat(argv, " "), result.number),
  }, "\n") .. "\n"
end

--- The summary as text lines.
function command.summary_text(s, info)
  local lines = { ("soak: %d games, %d moves, %d checks, seed %d: %s"):format(s.games, s.plies, s.checks,
    info.seed, info.failed and "FAILED" or "ok") }
  local names = {}
  for name in pairs(s.rules) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local per = s.rules[name]
    lines[#lines + 1] = ("  %-16s %9d games %12d moves"):format(name, per.games, per.plies)
  end
  local skipped = info.skipped or {}
  if #skipped > 0 then
    lines[#lines + 1] = ("skipped %d size%s where check_options refuses every option set tried: %s"):format(
      #skipped, #skipped == 1 and "" or "s", require("boardscript.soak").skipped_text(skipped))
  end
  lines[#lines + 1] = ("time: %.1f s wall, %.1f s CPU (%d job%s); peak RSS %s"):format(info.wall, info.cpu,
    info.jobs, info.jobs == 1 and "" or "s",
    info.rss_kib and ("%.1f MiB"):format(info.rss_kib / 1024) or "n/a")
  return table.concat(lines, "\n") .. "\n"
end

--- How this command starts its --jobs workers: the words of `boardscript
-- soak` with these arguments, before the settings and --shard that
-- workers.run_shards adds.
-- @tparam table args the parsed arguments
-- @treturn {string,...}
function command.worker_argv(args)
  local argv = { require("boardscript.workers").executable(), "soak", "--games", tostring(args.games) }
  for _, a in ipairs(game_args(args)) do argv[#argv + 1] = a end
  if args.progress then
    argv[#argv + 1] = "--progress"
    argv[#argv + 1] = tostring(args.progress)
  end
  return argv
end

-- Starts the workers, reads their summaries; returns the merged summary,
-- the first failed game's result (or nil), CPU seconds and peak RSS.
local function run_workers(args, soak)
  local json = require "dkjson"
  -- a worker's one item: its summary, the whole of its output
  local function item(w)
    local lines = {}
    for line in w.line, w do lines[#lines + 1] = line end
    local r = json.decode(table.concat(lines, "\n"))
    return type(r) == "table" and type(r.summary) == "table" and r or nil
  end
  local total, failure, cpu, rss, lost = soak.summary(), nil, 0, nil, {}
  require("boardscript.workers").run_shards({ argv = command.worker_argv(args), jobs = args.jobs, count = args.jobs,
                                               item = item }, function(fan)
    for i, r, fault in fan.next, fan do
      if fault then
        lost[#lost + 1] = ("worker %d (shard %d/%d) stopped without a summary (%s)"):format(i, i, args.jobs,
          fault.ended or "exit status 0")
      else
        soak.add_summary(total, r.summary)
        cpu = cpu + (r.cpu or 0)
        if r.rss_kib and (rss == nil or r.rss_kib > rss) then rss = r.rss_kib end
        if r.failure and (failure == nil or r.failure.number < failure.number) then failure = r.failure end
      end
    end
  end)
  return total, failure, cpu, rss, #lost > 0 and ("soak: " .. table.concat(lost, "; ")) or nil
end

function command.run(args)
  local soak = require "boardscript.soak"
  local sizes
  if args.sizes then
    local why
    sizes, why = soak.parse_sizes(args.sizes)
    if not sizes then errors.fail(why) end
  end
  if args.shard and args.jobs > 1 then errors.fail("--shard and --jobs do not go together") end
  if args.only_game and args.jobs > 1 then errors.fail("--only-game and --jobs do not go together") end
  local plan = soak.plan { rules = args.rules, sizes = sizes }
  local wall0, cpu0 = core.clock(), os.clock()
  local s, failure, cpu, rss, lost
  if args.jobs > 1 then
    s, failure, cpu, rss, lost = run_workers(args, soak)
  else
    local first, last, step = 1, args.games, 1
    if args.only_game then first, last = args.only_game, args.only_game end
    if args.shard then first, step = require("boardscript.workers").shard_of(args.shard) end
    s = soak.summary()
    local where = args.shard and (" (shard " .. args.shard .. ")") or ""
    failure = soak.run(plan, args.seed, first, last, step, function(result)
      soak.add(s, result)
      if args.progress and s.games % args.progress == 0 then
        io.stderr:write(("soak: %d games, %d moves%s\n"):format(s.games, s.plies, where))
      end
    end)
    cpu, rss = os.clock() - cpu0, soak.peak_rss_kib()
  end
  if failure and not args.shard then io.stderr:write(command.failure_text(failure, args)) end
  if args.shard then
    local json = require "dkjson"
    io.stdout:write(json.encode({ summary = s, failure = failure, cpu = cpu, rss_kib = rss }), "\n")
    return failure and errors.EXIT_FAILURE or 0
  end
  local info = { seed = args.seed, failed = failure ~= nil, wall = core.clock() - wall0, cpu = cpu, jobs = args.jobs,
                 rss_kib = rss, skipped = plan.skipped }
  if args.json then
    local json = require "dkjson"
    io.stdout:write(json.encode({ games = s.games, moves = s.plies, checks = s.checks, seed = args.seed,
      ok = failure == nil, rules = s.rules, wall_seconds = info.wall, cpu_seconds = cpu, jobs = args.jobs,
      peak_rss_kib = rss, failed_game = failure and failure.number or nil, skipped_sizes = #plan.skipped }), "\n")
  elseif not args.quiet then
    io.stdout:write(command.summary_text(s, info))
  end
  if lost then
    output.flush_stdout()
    io.stderr:write("boardscript: ", lost, "\n")
    return errors.EXIT_FAILURE
  end
  return failure and errors.EXIT_FAILURE or 0
end

return command
