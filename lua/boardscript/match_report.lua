--- The reports of a match (`match` and `match-merge` print them): the JSON
-- line of a game, the line --verbose prints for it, the summary's header
-- and the summary itself, with a progress bar on a terminal.
local output = require "boardscript.output"

local report = {}

-- The JSON line of a result: the game and what merging needs to know of the match.
local KEYS = { "game", "pair", "a", "b", "a_side", "result", "score_a", "score_b", "margin", "unit", "seed",
               "opening", "forfeit", "time_a", "time_b", "moves_a", "moves_b", "on_time",
               "rules", "size", "games", "sides", "side_names", "sprt", "tc" }

function report.json_line(result, info)
  local json = require "dkjson"
  local object = {}
  for key, value in pairs(result) do object[key] = value end
  for key, value in pairs(info) do object[key] = value end
  return json.encode(object, { keyorder = KEYS })
end

local function result_text(r, info)
  local first_won = (r.result == "win") == (r.a_side == info.sides[1])
  local score = r.result == "draw" and "1/2-1/2" or (first_won and "1-0" or "0-1")
  local first_score = r.a_side == info.sides[1] and r.score_a or r.score_b
  local second_score = r.a_side == info.sides[1] and r.score_b or r.score_a
  local why
  if r.forfeit then
    why = r.forfeit
  elseif r.result == "draw" then
    why = ("Draw %d-%d"):format(first_score, second_score)
  else
    why = ("%s wins %d-%d"):format(info.side_names[first_won and 1 or 2], first_score, second_score)
  end
  return score, why
end

--- The line --verbose prints for a finished game (cutechess-cli's form).
function report.game_line(r, info)
  local first_is_a = r.a_side == info.sides[1]
  local score, why = result_text(r, info)
  return ("Finished game %d (%s vs %s): %s {%s}"):format(r.game, first_is_a and info.a or info.b,
    first_is_a and info.b or info.a, score, why)
end

--- The header line of a match's summary.
function report.header(info, seed)
  return ("Match of %s (size %s): %s vs %s, %d game%s, seed %d"):format(info.rules, info.size, info.a, info.b,
    info.games, info.games == 1 and "" or "s", seed)
end

-- A progress bar on stderr when stderr is a terminal.
local function progress_bar(total)
  if os.getenv("BOARDSCRIPT_NO_PROGRESS") or not require("boardscript.output").stderr_is_terminal() then
    return { update = function() end, finish = function() end }
  end
  local bar = {}
  function bar.update(done, t)
    local width = 30
    local filled = math.floor(width * done / total)
    io.stderr:write(("\r[%s%s] %d/%d games  +%d -%d =%d "):format(("#"):rep(filled), ("."):rep(width - filled),
      done, total, t.w, t.l, t.d))
    io.stderr:flush()
  end
  function bar.finish()
    io.stderr:write("\r", (" "):rep(72), "\r")
    io.stderr:flush()
  end
  return bar
end

--- Sums up results (a function returning the next result in game order,
-- or nil) and prints the summary. Shared by match and match-merge.
function report.summarize(next_result, info, seed, verbose, sprt)
  local match = require "boardscript.match"
  local names = {}
  for i, side in ipairs(info.sides) do names[side] = info.side_names[i] end
  local t = match.tally(info.sides, sprt)
  local bar = progress_bar(info.games)
  while true do
    local r = next_result()
    if r == nil then break end
    local decided = match.add(t, r)
    if verbose then
      bar.finish()
      io.stdout:write(report.game_line(r, info), "\n")
      output.flush_stdout()
    end
    bar.update(t.n, t)
    if decided then break end
  end
  bar.finish()
  io.stdout:write(report.header(info, seed), "\n")
  for _, line in ipairs(match.summary(t, info, function(side) return names[side] or tostring(side) end,
    info.unit)) do
    io.stdout:write(line, "\n")
  end
  output.flush_stdout()
  return t
end

return report
