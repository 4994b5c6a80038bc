--- `boardscript match`: two players play a number of games in pairs (sides
-- swapped, same opening) and the result is summed up as cutechess-cli
-- does: score, per-side lines, Elo difference, LOS, draw ratio, mean
-- margin and, with --sprt, the LLR and decision. --jobs K plays in K
-- worker processes and --shard I/N plays one slice and writes JSON lines
-- (boardscript match-merge sums them up); all give the same games.
local errors = require "boardscript.errors"
local output = require "boardscript.output"
local options = require "boardscript.options"
local rule_options = require "boardscript.rule_options"
local report = require "boardscript.match_report"

local command = {
  summary = "Play a match between two players: Elo, LOS, SPRT (cutechess-cli style), in parallel or sharded.",
}

function command.configure(cmd)
  cmd:option("--rules", "The rule set: a built-in name or a path to a .lua file.", "reversi")
  rule_options.add(cmd)
  cmd:option("--a", "Player A: a built-in AI (with options, e.g. alphabeta:depth=4) or a policy file.")
    :count(1)
  cmd:option("--b", "Player B, as --a."):count(1)
  cmd:option("--games", "Number of games (pairs of games with the sides swapped).", "100")
    :convert(options.integer_in(1, 100000000, "games"))
  cmd:option("--openings", "A file of openings, one a line in the rule set's notation (f5d6c3); "
    .. "pair p plays line p, cycling.")
  cmd:option("--plies", "Plies of the random openings drawn without --openings.", "4")
    :convert(options.integer_in(0, 60, "plies"))
  options.seed(cmd, "Seed of the match (openings, set-up, players' random choices); default: from the clock.")
  cmd:option("--jobs", "Play in this many worker processes (same games as one).", "1")
    :convert(options.integer_in(1, 256, "jobs"))
  cmd:option("--shard", "Play only slice I of N (games I, I+N, ...) and write them as JSON lines.")
  cmd:option("--sprt", "Sequential probability ratio test: elo0=X,elo1=Y[,alpha=0.05][,beta=0.05]; "
    .. "stops when it decides.")
  cmd:option("--records", "Write every game into this directory (game-0001.record; GGF too for 8 x 8 reversi).")
  cmd:option("--tc", "Time control BASE[+INC] (seconds, cutechess style: 60+0.5): each side's game clock; "
    .. "a clock run out loses the game on time.")
  cmd:flag("--verbose", "Print a line per finished game.")
  options.budgets(cmd)
  options.max_plies(cmd)
end

-- Makes directory `path` and those above it that are missing (mkdir -p,
-- through lua-filesystem): true, or nil and why not.
local function make_dirs(path)
  local lfs = require "lfs"
  local built = path:sub(1, 1) == "/" and "/" or ""
  for part in path:gmatch("[^/]+") do
    built = built .. part
    local mode = lfs.attributes(built, "mode")
    if mode == nil then
      local ok, why = lfs.mkdir(built)
      if not ok and lfs.attributes(built, "mode") ~= "directory" then return nil, why end
    elseif mode ~= "directory" then
      return nil, built .. ": not a directory"
    end
    built = built .. "/"
  end
  return true
end


-- What every JSON line of the match carries besides the game.
local function match_info(m, args)
  return {
    a = args.a, b = args.b, rules = args.rules, size = m.size_text, games = args.games, unit = m.unit,
    sides = { tostring(m.sides[1]), tostring(m.sides[2]) },
    side_names = { m.rules:side_name(m.sides[1]), m.rules:side_name(m.sides[2]) },
    sprt = args.sprt, tc = args.tc,
  }
end

-- Writes game r's record (and GGF where it can hold the game) into dir.
local function write_records(dir, r, g, seat, m)
  local record = require "boardscript.record"
  local base = ("%s/game-%04d"):format(dir, r.game)
  local spec = {}
  for side, player in pairs(seat) do spec[side] = player.name end
  local match = require "boardscript.match"
  output.write_file(base .. ".record",
    record.text(g, { rules = m.cfg.rules, seed = match.seed_of(m.cfg.seed, r.pair, 0), players = spec }))
  local ok, ggf = pcall(require, "boardscript.formats.ggf")
  if ok and g.rules.name == "reversi" and g:size_text() == "8" and ggf.supports(g) then
    local first, second = g:sides()
    output.write_file(base .. ".ggf",
      ggf.text(g, { players = { [tostring(first)] = spec[first], [tostring(second)] = spec[second] } }))
  end
end

--- How this command starts its --jobs workers: the words of `boardscript
-- match` with these arguments, before the settings and --shard that
-- workers.run_shards adds.
-- @tparam table args the parsed arguments
-- @treturn {string,...}
function command.worker_argv(args)
  local argv = { require("boardscript.workers").executable(), "match", "--rules", args.rules, "--a", args.a,
                 "--b", args.b, "--games", args.games, "--plies", args.plies, "--seed", args.seed }
  if args.size then argv[#argv + 1] = "--size=" .. args.size end
  for _, o in ipairs(args.opt or {}) do argv[#argv + 1] = "--opt=" .. o end
  if args.openings then argv[#argv + 1] = "--openings=" .. args.openings end
  if args.records then argv[#argv + 1] = "--records=" .. args.records end
  if args.sprt then argv[#argv + 1] = "--sprt=" .. args.sprt end
  if args.tc then argv[#argv + 1] = "--tc=" .. args.tc end
  return argv
end

-- Plays the match in K workers (--shard i/K each): `summarize(next_result)`
-- gets the results in game order (nil at the end, or once a worker has
-- stopped); returns what it returns and the message saying which worker
-- stopped and what is missing (or nil).
local function in_workers(args, summarize)
  local json = require "dkjson"
  local lost
  local function item(w, k)
    local line = w:line()
    local r = line and json.decode(line)
    if type(r) ~= "table" or r.game ~= k then return nil, line end
    return r
  end
  local results = table.pack(require("boardscript.workers").run_shards(
    { argv = command.worker_argv(args), jobs = args.jobs, count = args.games, item = item }, function(fan)
      return summarize(function()
        if lost then return nil end
        local k, r, fault = fan:next()
        if fault then
          lost = ("match: worker %d %s before game %d; games %d to %d were not played or not counted"):format(
            fault.worker, fault.how, k, k, args.games)
        end
        return r
      end)
    end))
  return lost, table.unpack(results, 1, results.n)
end

function command.run(args)
  local match = require "boardscript.match"
  local elo = require "boardscript.elo"
  if args.seed == nil then args.seed = options.clock_seed() end
  local sprt
  if args.sprt then
    local why
    sprt, why = elo.parse_sprt(args.sprt)
    if not sprt then errors.fail(why) end
  end
  if args.shard and args.jobs > 1 then errors.fail("--shard and --jobs do not go together") end
  local tc
  if args.tc then
    local why
    tc, why = require("boardscript.clock").parse_tc(args.tc)
    if not tc then errors.fail(why) end
  end
  local m = match.new { rules = args.rules, texts = rule_options.texts(args), a = args.a, b = args.b,
                        games = args.games, seed = args.seed, openings = args.openings, plies = args.plies,
                        tc = tc }
  -- made only once the rule set, players and openings are known good: a
  -- usage error leaves no empty directory behind
  if args.records then
    if not make_dirs(args.records) then
      errors.fail(("--records: cannot create the directory %s"):format(args.records))
    end
  end
  local info = match_info(m, args)
  local function play(index)
    local r, g, seat = m:play(index)
    if r.forfeit then
      io.stderr:write(("boardscript: game %d: %s; scored as a loss\n"):format(index, r.forfeit))
    end
    if args.records then write_records(args.records, r, g, seat, m) end
    return r
  end
  if args.shard then
    local first, count = require("boardscript.workers").shard_of(args.shard)
    for index = first, args.games, count do
      io.stdout:write(report.json_line(play(index), info), "\n")
      output.flush_stdout()
    end
    return 0
  end
  local function summarize(next_result) return report.summarize(next_result, info, args.seed, args.verbose, sprt) end
  if args.jobs > 1 then
    local lost = in_workers(args, summarize)
    if lost then
      output.flush_stdout()
      io.stderr:write("boardscript: ", lost, "\n")
      return 1
    end
    return 0
  end
  local index = 0
  summarize(function()
    if index >= args.games then return nil end
    index = index + 1
    return play(index)
  end)
  return 0
end

return command
