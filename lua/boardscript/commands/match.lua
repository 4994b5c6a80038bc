--- `boardscript match`: two players play a number of games in pairs (sides
-- swapped, same opening) and the result is summed up as cutechess-cli
-- does: score, per-side lines, Elo difference, LOS, draw ratio, mean
-- margin and, with --sprt, the LLR and decision. --jobs K plays in K
-- worker processes and --shard I/N plays one slice and writes JSON lines
-- (boardscript match-merge sums them up); all give the same games.
local errors = require "boardscript.errors"
local limits = require "boardscript.limits"
local sandbox = require "boardscript.sandbox"
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
  cmd:flag("--verbose", "Print a line per finished game.")
  options.budgets(cmd)
  options.max_plies(cmd)
end

local shell_quote = require("boardscript.text").shell_quote


-- What every JSON line of the match carries besides the game.
local function match_info(m, args)
  return {
    a = args.a, b = args.b, rules = args.rules, size = m.size_text, games = args.games, unit = m.unit,
    sides = { tostring(m.sides[1]), tostring(m.sides[2]) },
    side_names = { m.rules:side_name(m.sides[1]), m.rules:side_name(m.sides[2]) },
    sprt = args.sprt,
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

-- Starts K workers, each `boardscript match ... --shard i/K`; returns a
-- function giving results in game order (nil at the end, or once a worker
-- has stopped: then lost() says which and what is missing) and one
-- stopping the workers.
local function workers(args)
  local json = require "dkjson"
  local pool = require "boardscript.workers"
  local base = { pool.executable(), "match", "--rules", args.rules, "--a", args.a, "--b", args.b, "--games", args.games,
                 "--plies", args.plies, "--seed", args.seed }
  if args.size then base[#base + 1] = "--size=" .. args.size end
  for _, o in ipairs(args.opt or {}) do base[#base + 1] = "--opt=" .. o end
  if args.openings then base[#base + 1] = "--openings=" .. args.openings end
  if args.records then base[#base + 1] = "--records=" .. args.records end
  if args.sprt then base[#base + 1] = "--sprt=" .. args.sprt end
  table.move(limits.argv(), 1, #limits.argv(), #base + 1, base)
  table.move(sandbox.argv(), 1, #sandbox.argv(), #base + 1, base)
  if args.max_plies then base[#base + 1] = "--max-plies=" .. args.max_plies end
  local started = pool.start_shards(base, args.jobs)
  local index, lost = 0, nil
  local function next_result()
    if lost or index >= args.games then return nil end
    local w = index % args.jobs + 1
    local line = started[w].pipe:read("l")
    local r = line and json.decode(line)
    if type(r) ~= "table" or r.game ~= index + 1 then
      local ended = line == nil and pool.finish(started[w])
      if ended then pool.rethrow(started[w]) end -- a user error stops the match, as without --jobs
      local how = line and ("sent an unexpected line: " .. line:sub(1, 200))
        or ("stopped (" .. (ended or "exit status 0") .. ")")
      lost = ("match: worker %d %s before game %d; games %d to %d were not played or not counted"):format(w,
        how, index + 1, index + 1, args.games)
      return nil
    end
    index = index + 1
    return r
  end
  local function stop()
    for _, w in ipairs(started) do pool.stop(w) end
  end
  return next_result, stop, function() return lost end
end

function command.run(args)
  limits.from_args(args)
  require("boardscript.game").from_args(args)
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
  if args.records then
    if not os.execute("mkdir -p " .. shell_quote(args.records)) then
      errors.fail(("--records: cannot create the directory %s"):format(args.records))
    end
  end
  local m = match.new { rules = args.rules, texts = rule_options.texts(args), a = args.a, b = args.b,
                        games = args.games, seed = args.seed, openings = args.openings, plies = args.plies }
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
  local next_result, stop, lost
  if args.jobs > 1 then
    next_result, stop, lost = workers(args)
  else
    local index = 0
    next_result = function()
      if index >= args.games then return nil end
      index = index + 1
      return play(index)
    end
  end
  local ok, err = pcall(report.summarize, next_result, info, args.seed, args.verbose, sprt)
  if stop then stop() end
  if not ok then error(err, 0) end
  if lost and lost() then
    output.flush_stdout()
    io.stderr:write("boardscript: ", lost(), "\n")
    return 1
  end
  return 0
end

return command
