--- `boardscript match-merge FILES...`: the summary of a match played in
-- shards (`boardscript match ... --shard I/N`, one JSON line a game), the
-- same as the one-process run's: games are counted in game order and an
-- SPRT stops where it would have stopped.
local errors = require "boardscript.errors"
local options = require "boardscript.options"

local command = { summary = "Sum up the JSON lines of a sharded match (match --shard I/N) into one summary." }

function command.configure(cmd)
  cmd:argument("files", "Files of JSON lines written by 'boardscript match --shard I/N' ('-': standard input).")
    :args("+")
  cmd:flag("--verbose", "Print a line per game.")
end

-- The fields that must agree across every line of one match.
local SAME = { "a", "b", "rules", "size", "games", "seed", "unit", "sprt" }

--- The most bytes one file may hold (docs/decisions.md, "Bounded inputs"):
-- some 120,000 games; a line is at most 64 KiB.
command.MAX_BYTES = 32 << 20
-- The most games a match has (match --games).
local MAX_GAMES = 100000000
-- The largest score a line may give (a board's discs or boxes).
local MAX_SCORE = 1 << 31

local RESULTS = { win = true, loss = true, draw = true }

local function pair_of_strings(value)
  return type(value) == "table" and #value == 2 and type(value[1]) == "string" and type(value[2]) == "string"
    and next(value, 2) == nil
end

-- What is wrong with a decoded line `r` (nil when nothing is): every field
-- a game line of `match --shard` has, with its type and range, so nothing
-- forged reaches the sums (a "games" of 1e15 sizes nothing).
local function check(r)
  local elo = require "boardscript.elo"
  if type(r) ~= "table" or r[1] ~= nil then return "not a JSON object" end
  for _, key in ipairs { "a", "b", "rules", "size", "unit", "opening" } do
    if type(r[key]) ~= "string" then return ("%s must be a string"):format(key) end
  end
  if not options.is_integer_in(r.games, 1, MAX_GAMES) then
    return ("games must be an integer from 1 to %d"):format(MAX_GAMES)
  end
  if not options.is_integer_in(r.game, 1, r.games) then return "game must be an integer from 1 to games" end
  if r.pair ~= (r.game + 1) // 2 then return "pair must be (game + 1) // 2" end
  if not options.is_integer_in(r.seed, math.mininteger, math.maxinteger) then return "seed must be an integer" end
  if not pair_of_strings(r.sides) or r.sides[1] == r.sides[2] then return "sides must be two different strings" end
  if not pair_of_strings(r.side_names) then return "side_names must be two strings" end
  if r.a_side ~= r.sides[1] and r.a_side ~= r.sides[2] then return "a_side must be one of sides" end
  if not RESULTS[r.result] then return "result must be win, loss or draw" end
  local within = options.is_integer_in
  if not within(r.score_a, -MAX_SCORE, MAX_SCORE) or not within(r.score_b, -MAX_SCORE, MAX_SCORE) then
    return ("score_a and score_b must be integers from %d to %d"):format(-MAX_SCORE, MAX_SCORE)
  end
  if r.margin ~= r.score_a - r.score_b then return "margin must be score_a - score_b" end
  if r.forfeit ~= nil and type(r.forfeit) ~= "string" then return "forfeit must be a string" end
  if r.time_a ~= nil or r.time_b ~= nil then -- a game on the clock (--tc)
    for _, key in ipairs { "time_a", "time_b" } do
      if type(r[key]) ~= "number" or not (r[key] >= 0 and r[key] < math.huge) then
        return key .. " must be a number of seconds"
      end
    end
    for _, key in ipairs { "moves_a", "moves_b" } do
      if not options.is_integer_in(r[key], 0, MAX_GAMES * 100000) then return key .. " must be a count of moves" end
    end
    if r.on_time ~= nil and r.on_time ~= "a" and r.on_time ~= "b" then return "on_time must be a or b" end
  end
  if r.sprt ~= nil then
    if type(r.sprt) ~= "string" then return "sprt must be a string" end
    local ok, why = elo.parse_sprt(r.sprt)
    if not ok then return why end
  end
  return nil
end

-- The fields of a game line the summary uses (the rest is dropped).
local KEEP = { "game", "pair", "a", "b", "a_side", "result", "score_a", "score_b", "margin", "unit", "seed",
               "forfeit", "time_a", "time_b", "moves_a", "moves_b", "on_time",
               "rules", "size", "games", "sides", "side_names", "sprt", "tc" }

-- The game lines of `path` ("-": standard input), each checked (a bad
-- line is a user error naming the file and line), read in pieces within
-- command.MAX_BYTES.
local function read_lines(path)
  local json = require "dkjson"
  local bounded = require "boardscript.bounded"
  local results = {}
  for line, number in bounded.lines(path, { limit = command.MAX_BYTES, stdin = true }) do
    if line:find("%S") then
      local ok, r = pcall(json.decode, line)
      local why = "not JSON"
      if ok then why = check(r) end
      if why then
        errors.fail(("%s:%d: not a game line of 'boardscript match --shard': %s"):format(path, number, why))
      end
      local kept = {}
      for _, key in ipairs(KEEP) do kept[key] = r[key] end
      kept.where = ("%s:%d"):format(path, number)
      results[#results + 1] = kept
    end
  end
  return results
end

local function same(x, y)
  if type(x) == "table" and type(y) == "table" then return x[1] == y[1] and x[2] == y[2] end
  return x == y
end

function command.run(args)
  local elo = require "boardscript.elo"
  local report = require "boardscript.match_report"
  local all = {}
  for _, path in ipairs(args.files) do
    for _, r in ipairs(read_lines(path)) do all[#all + 1] = r end
  end
  if #all == 0 then errors.fail("match-merge: no games in the files") end
  local first = all[1]
  local by_game = {}
  for _, r in ipairs(all) do
    for _, key in ipairs(SAME) do
      if r[key] ~= first[key] then
        errors.fail(("match-merge: %s belongs to another match (%s %s, not %s)"):format(r.where, key,
          tostring(r[key]), tostring(first[key])))
      end
    end
    for _, key in ipairs { "sides", "side_names" } do
      if not same(r[key], first[key]) then
        errors.fail(("match-merge: %s belongs to another match (%s differ)"):format(r.where, key))
      end
    end
    if by_game[r.game] then
      errors.fail(("match-merge: game %d appears twice (%s and %s)"):format(r.game, by_game[r.game].where, r.where))
    end
    by_game[r.game] = r
  end
  local sprt
  if first.sprt then sprt = assert(elo.parse_sprt(first.sprt)) end
  -- Games in order; a gap ends the count unless the SPRT had decided
  -- before it. Only the games present are visited: a match of 10^8 games
  -- with three lines costs three steps, not 10^8.
  table.sort(all, function(x, y) return x.game < y.game end)
  local games = first.games
  local missing = games - #all
  local first_missing = nil
  if missing > 0 then
    first_missing = #all + 1
    for k, r in ipairs(all) do
      if r.game ~= k then
        first_missing = k
        break
      end
    end
  end
  local k = 0
  local function next_result()
    k = k + 1
    return all[k]
  end
  local t = report.summarize(next_result, first, first.seed, args.verbose, sprt)
  if missing > 0 and not (t.decision and t.decided_at < first_missing) then
    io.stderr:write(("boardscript: match-merge: %d of %d games missing (first: game %d); the summary counts "
      .. "the others\n"):format(missing, games, first_missing))
    return errors.EXIT_FAILURE
  end
  return 0
end

return command
