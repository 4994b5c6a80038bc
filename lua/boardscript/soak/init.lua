--- The soak: seeded random games of every rule set and size, checked at
-- every move (boardscript.soak.checked_game) — the engine's long-running
-- self-consistency test. Pure: it returns figures and failures, and the
-- command (boardscript.commands.soak) prints them.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local schedule = require "boardscript.soak.schedule"
local checked_game = require "boardscript.soak.checked_game"

local soak = {}

--- The default number of games of a run.
soak.DEFAULT_GAMES = 100000

--- Parses a --sizes text ("6,8,10", "4..12", "4..8,12") into a set of
-- sizes, or nil and what is wrong.
function soak.parse_sizes(text)
  local set, any = {}, false
  for item in tostring(text):gmatch("[^,%s]+") do
    local lo, hi = item:match("^(%d+)%.%.(%d+)$")
    if not lo then lo = item:match("^(%d+)$"); hi = lo end
    lo, hi = tonumber(lo), tonumber(hi)
    if not lo or lo < 1 or hi > 26 or lo > hi then
      return nil, ("--sizes: '%s' is not a size or a range lo..hi of sizes from 1 to 26"):format(item)
    end
    for n = lo, hi do set[n] = true end
    any = true
  end
  if not any then return nil, "--sizes: no size given" end
  return set
end

--- A plan: the configurations a run cycles through, and the sizes it
-- skips because a rule set's `check_options` refuses every option set the
-- soak tried there ({ name =, size =, why = }). opts: { rules = { names or
-- paths } or nil, sizes = a set or nil }. A rule set that cannot be loaded
-- is a user error; a plan with nothing to play too.
function soak.plan(opts)
  local entries = schedule.entries(opts.rules)
  local configs, skipped = schedule.configurations(entries, opts.sizes)
  if #configs == 0 then
    errors.fail("soak: no rule set allows the sizes given" .. (#skipped > 0
      and ("; check_options refuses %s"):format(soak.skipped_text(skipped)) or ""))
  end
  return { configs = configs, entries = entries, skipped = skipped }
end

--- The sizes a plan skips, as text: "gomoku at size 3 (k must be at most
-- size ...); holes at sizes 2, 4 (...)": one item per rule set, with the
-- reason given for its first size.
-- @tparam table skipped a plan's `skipped`
-- @treturn string
function soak.skipped_text(skipped)
  local items, by_name, order = {}, {}, {}
  for _, s in ipairs(skipped) do
    if not by_name[s.name] then
      by_name[s.name] = { sizes = {}, why = s.why }
      order[#order + 1] = s.name
    end
    local sizes = by_name[s.name].sizes
    sizes[#sizes + 1] = tostring(s.size or "-")
  end
  for _, name in ipairs(order) do
    local e = by_name[name]
    items[#items + 1] = ("%s at size%s %s (%s)"):format(name, #e.sizes > 1 and "s" or "", table.concat(e.sizes, ", "),
      e.why)
  end
  return table.concat(items, "; ")
end

--- Plays game `number` of a run (seed `seed`) of `plan`. Returns a result
-- { number =, name =, label =, seed =, plies =, checks = }, and for a
-- failed game also failure = { check =, detail =, ply =, moves = "f5 d6 ..." }.
function soak.play(plan, seed, number, searcher)
  local info = schedule.game(plan.configs, seed, number)
  local run = {}
  local ok, result = pcall(checked_game.play, info, searcher, run)
  local out = { number = number, name = info.name, label = info.label, seed = info.seed }
  if ok then
    out.plies, out.checks = result.plies, result.checks
    return out
  end
  local failure = result
  if type(failure) ~= "table" or not failure.soak_failure then
    local message = errors.is_user(failure) and failure.message or tostring(failure)
    failure = { check = "error", detail = message, ply = run.ply or 0 }
  end
  local moves = {}
  for _, entry in ipairs(run.g and run.g.log or {}) do moves[#moves + 1] = entry.pass and "pass" or entry.text end
  failure.moves, failure.playing = table.concat(moves, " "), run.playing
  out.failure, out.plies, out.checks = failure, run.ply or 0, run.checks or 0
  return out
end

--- Plays games first, first + step, ... up to last of the run, calling
-- each(result) after each; stops at the first failure and returns it (nil
-- when every game passed).
function soak.run(plan, seed, first, last, step, each)
  local searcher = core.searcher { tt_mb = 1 }
  for number = first, last, step do
    local result = soak.play(plan, seed, number, searcher)
    each(result)
    if result.failure then return result end
  end
  return nil
end

--- A new summary to add results to.
function soak.summary()
  return { games = 0, plies = 0, checks = 0, rules = {} }
end

--- Adds a game's result (or a worker's summary, with add_summary) to `s`.
function soak.add(s, result)
  s.games, s.plies, s.checks = s.games + 1, s.plies + result.plies, s.checks + result.checks
  local per = s.rules[result.name] or { games = 0, plies = 0 }
  per.games, per.plies = per.games + 1, per.plies + result.plies
  s.rules[result.name] = per
end

function soak.add_summary(s, other)
  s.games, s.plies, s.checks = s.games + other.games, s.plies + other.plies, s.checks + other.checks
  for name, o in pairs(other.rules) do
    local per = s.rules[name] or { games = 0, plies = 0 }
    per.games, per.plies = per.games + o.games, per.plies + o.plies
    s.rules[name] = per
  end
end

--- This process's peak resident set in KiB (/proc/self/status VmHWM), or nil.
function soak.peak_rss_kib()
  local f = io.open("/proc/self/status")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return tonumber(text:match("VmHWM:%s*(%d+)%s*kB"))
end

return soak
