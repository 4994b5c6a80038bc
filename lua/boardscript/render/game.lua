--- A recorded game as pictures: its start and moves from a record or a
-- GGF file, the position after any move with the move numbers, and the
-- charts of the score and an evaluation over the moves. `boardscript
-- render --record` and serve's study page both draw games with it.
local errors = require "boardscript.errors"
local record = require "boardscript.record"
local rules_mod = require "boardscript.rules"
local svg = require "boardscript.render.svg"

local game_pictures = {}

--- A game from a boardscript record: the start, and the entries played on a
-- copy of it ({ text =, move = } or { pass = true }); a move that does not
-- apply is a user error naming the file and line.
function game_pictures.from_record(path, text)
  return game_pictures.from_parsed(record.parse(text, path), path)
end

--- The same from a parsed record (record.parse), for a caller that checks
-- or replaces its rule set first.
function game_pictures.from_parsed(rec, path)
  local g = record.open_game(rec, path)
  local start, played = g:clone(), {}
  local ok, k, entry, why = record.replay(g, rec.moves, path, function(i, e)
    played[i] = e.pass and { pass = true } or { text = e.text, move = g.log[#g.log].move }
  end)
  if not ok then errors.fail(("%s:%d: move %d: %s"):format(path, entry.line or 0, k, why)) end
  return start, played
end

--- A game from a GGF file: the start position of game `index`, the moves
-- played (a pass the file leaves out, which ggf.game inserts, is a move
-- too) and the evaluations the file gives, as the first side's margin by
-- move number (GGF gives each move's value for the side that made it).
function game_pictures.from_ggf(ggf, path, text, index)
  local games = ggf.parse(text, path)
  index = index or 1
  if index > #games then errors.fail(("%s: --game %d: the file has %d game%s"):format(path, index, #games,
    #games == 1 and "" or "s")) end
  local parsed = games[index]
  local function set_up(upto)
    local ok, g = pcall(ggf.game, parsed, upto)
    if ok then return g end
    if errors.is_user(g) then errors.fail(g.message) end -- an illegal move is bad input here: status 2
    error(g, 0)
  end
  local start, g = set_up(0), set_up(nil)
  local entries, evals = {}, {}
  for k, entry in ipairs(g.log) do
    entries[k] = entry.pass and { pass = true } or { text = entry.text, move = entry.move }
  end
  local first = start.rules.sides[1]
  for k, m in ipairs(parsed.moves) do
    local at = g.ggf.log_index[k]
    if type(m.eval) == "number" and at then evals[at] = m.side == first and m.eval or -m.eval end
  end
  return start, entries, evals
end

--- The scores of both sides after each entry (k = 0 is the start): two
-- lists in side order, and the tooltips "12. Black f5".
function game_pictures.timeline(start, entries)
  local g = start:clone()
  local first, second = {}, {}
  local labels = {}
  first[0], second[0] = g:score()
  for k, entry in ipairs(entries) do
    local side = g:side_name()
    if entry.pass then g:pass() else g:play(entry.move) end
    first[k], second[k] = g:score()
    labels[k] = ("%d. %s %s"):format(k, side, entry.pass and "pass" or entry.text)
  end
  return first, second, labels
end

--- The C searcher's value of every position of the game (k = 0..N), in
-- discs for the rule set's first side, `depth` plies deep (exact in the
-- last 10 empty cells). A finished position's value is its final margin.
function game_pictures.evaluations(start, entries, depth)
  local rules = start.rules
  if not rules_mod.searched_in_core(rules) then
    errors.fail(("--eval: the C searcher does not play rule set '%s' exactly (rule sets it does: reversi, "
      .. "blocks, othello, othello-strict, flipflop; a variant overriding a hook is not)"):format(
      tostring(rules.name)))
  end
  local alphabeta = require "boardscript.ai.alphabeta"
  local policy = alphabeta.new { depth = depth, endgame = 10, tt_mb = 1 }
  local first = rules.sides[1]
  local values = {}
  local g = start:clone()
  for k = 0, #entries do
    if k > 0 then
      local entry = entries[k]
      if entry.pass then g:pass() else g:play(entry.move) end
    end
    if g:finished() then
      local a, b = g:score()
      values[k] = a - b
    else
      policy.searcher:clear() -- each value on its own, whatever was searched before
      local _, value = policy.searcher:search(g.state.board, g.state.player, policy:search_options(g))
      value = (value or 0) / 100
      values[k] = g:to_move() == first and value or -value
    end
  end
  policy:close() -- its table now, not when the collector gets to it
  return values
end

local SERIES = {
  black = { class = "black", colour = "#111111", fill = "#111111" },
  white = { class = "white", colour = "#8a8a8a", fill = "#ffffff" },
  [1] = { class = "p1", colour = "#1f5f99", fill = "#1f5f99" },
  [2] = { class = "p2", colour = "#a63a1f", fill = "#a63a1f" },
}

local function series_style(side, i)
  return SERIES[side] or SERIES[i]
end

--- The charts below the board: the score of both sides after each move and,
-- when there are values, the evaluation.
function game_pictures.charts(start, entries, evals, eval_title, cursor)
  local rules = start.rules
  local first, second, labels = game_pictures.timeline(start, entries)
  local sides = rules.sides
  local family = rules.family or "board"
  local what = family == "dots" and "Boxes"
    or (rules.score == rules_mod.FAMILIES.board.score and "Discs" or "Score")
  local list = {}
  for i, values in ipairs { first, second } do
    local style = series_style(sides[i], i)
    list[i] = { name = start:side_name(sides[i]), class = style.class, colour = style.colour, fill = style.fill,
                values = values }
  end
  local result = { { title = what .. " after each move", moves = #entries, series = list, labels = labels,
                     cursor = cursor, integer = true } }
  if evals then
    result[2] = { title = eval_title, moves = #entries, symmetric = true, labels = labels, cursor = cursor,
                  series = { { name = "evaluation", class = "eval", colour = "#c0392b", fill = "#c0392b",
                               values = evals } } }
  end
  return result
end

--- The position after `upto` entries, and the move numbers up to it.
function game_pictures.position(start, entries, upto, numbered)
  local g = start:clone()
  local numbers = {}
  local last
  for k = 1, upto do
    local entry = entries[k]
    local side = g:to_move()
    if entry.pass then
      g:pass()
      last = { pass = true, side = side }
    else
      g:play(entry.move)
      last = { move = entry.move }
      local key = numbered and svg.move_key(g, entry.move)
      if key then numbers[key] = k end
    end
  end
  return g, numbers, last
end

return game_pictures
