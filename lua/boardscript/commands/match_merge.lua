--- `boardscript match-merge FILES...`: the summary of a match played in
-- shards (`boardscript match ... --shard I/N`, one JSON line a game), the
-- same as the one-process run's: games are counted in game order and an
-- SPRT stops where it would have stopped.
local errors = require "boardscript.errors"

local command = { summary = "Sum up the JSON lines of a sharded match (match --shard I/N) into one summary." }

function command.configure(cmd)
  cmd:argument("files", "Files of JSON lines written by 'boardscript match --shard I/N' ('-': standard input).")
    :args("+")
  cmd:flag("--verbose", "Print a line per game.")
end

-- The fields that must agree across every line of one match.
local SAME = { "a", "b", "rules", "size", "games", "seed", "unit", "sprt" }

local function read_lines(path)
  local json = require "dkjson"
  local file, err
  if path == "-" then
    file = io.stdin
  else
    file, err = io.open(path)
    if not file then errors.fail(err) end
  end
  local results, number = {}, 0
  for line in file:lines() do
    number = number + 1
    if line:match("%S") then
      local r = json.decode(line)
      if type(r) ~= "table" or math.type(r.game) ~= "integer" or type(r.result) ~= "string"
          or type(r.sides) ~= "table" or type(r.side_names) ~= "table" then
        errors.fail(("%s:%d: not a game line of 'boardscript match --shard'"):format(path, number))
      end
      r.where = ("%s:%d"):format(path, number)
      results[#results + 1] = r
    end
  end
  if file ~= io.stdin then file:close() end
  return results
end

function command.run(args)
  local elo = require "boardscript.elo"
  local match_cmd = require "boardscript.commands.match"
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
    if by_game[r.game] then
      errors.fail(("match-merge: game %d appears twice (%s and %s)"):format(r.game, by_game[r.game].where, r.where))
    end
    by_game[r.game] = r
  end
  local sprt
  if first.sprt then sprt = assert(elo.parse_sprt(first.sprt)) end
  -- Games in order; a gap ends the count unless the SPRT had decided before it.
  local games, missing = first.games, {}
  for index = 1, games do
    if not by_game[index] then missing[#missing + 1] = index end
  end
  local index = 0
  local function next_result()
    while index < games do
      index = index + 1
      if by_game[index] then return by_game[index] end
    end
    return nil
  end
  local t = match_cmd.summarize(next_result, first, first.seed, args.verbose, sprt)
  if #missing > 0 and not (t.decision and t.decided_at < missing[1]) then
    io.stderr:write(("boardscript: match-merge: %d of %d games missing (first: game %d); the summary counts "
      .. "the others\n"):format(#missing, games, missing[1]))
    return errors.EXIT_FAILURE
  end
  return 0
end

return command
