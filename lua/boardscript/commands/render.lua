--- `boardscript render`: a picture (SVG) of a position of any rule set, or
-- of a recorded game, with move numbers and a chart of the score (and an
-- evaluation) over the moves. The drawing is boardscript.render.svg's; this
-- module finds the game, replays it and writes the file.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local output = require "boardscript.output"
local options = require "boardscript.options"
local record = require "boardscript.record"
local rule_options = require "boardscript.rule_options"
local rules_mod = require "boardscript.rules"
local svg = require "boardscript.render.svg"

local command = { summary = "Draw a position or a recorded game as SVG (move numbers, score chart)." }

function command.configure(cmd)
  cmd:description("Draws a position of any rule set as SVG: the board with coordinates, the last move "
    .. "ringed and the side to move's legal moves dotted (Dots and Boxes: owned boxes, drawn and open "
    .. "edges). With --record, a game from a record: the board with move numbers and, with --chart, the "
    .. "score (and with --eval an evaluation) after each move.")
  cmd:argument("rules", "A rule set: a built-in name (reversi, blocks, othello, flipflop, dots, ...) "
    .. "or a path to a .lua file. Omit it with --record."):args("?")
  rule_options.add(cmd)
  options.seed(cmd, "Seed for a rule set whose setup draws at random (blocks --opt blocks=N).")
  cmd:option("--moves", "Moves to play from the start, in the rule set's notation: \"f5 d6 c3\"; "
    .. "\"a1 a2 b1 b2\" in dots; 'pass' passes (repeatable).")
    :count("*"):argname("<moves>")
  cmd:option("--record", "A game record ('play ... --record FILE'"
    .. (command.ggf() and ", or a GGF file" or "") .. ") to draw instead of RULES.")
    :argname("<file>")
  if command.ggf() then
    cmd:option("--game", "Which game of a GGF file (default 1)."):argname("<n>")
      :convert(options.integer_in(1, math.maxinteger, "--game"))
  end
  cmd:option("--at", "Draw the position after the first K moves (default: all of them).")
    :argname("<k>")
    :convert(options.integer_in(0, math.maxinteger, "--at"))
  cmd:flag("--numbers", "Number the cells (dots: edges) where moves were played (the default with --record).")
  cmd:flag("--no-numbers", "No move numbers, not even with --record.")
  cmd:flag("--no-legal", "Do not mark the legal moves of the side to move.")
  cmd:flag("--chart", "Add a chart of the score (discs, boxes) after each move below the board.")
  cmd:option("--eval", "Add the C searcher's evaluation of each position, DEPTH plies deep, to the chart "
    .. "(rule sets the core searches: reversi, blocks, othello, flipflop).")
    :argname("<depth>"):convert(options.integer_in(1, 12, "--eval depth"))
  cmd:option("-o --output", "Write the SVG to FILE (default: standard output).")
    :argname("<file>")
  cmd:epilog("Examples:\n"
    .. "  boardscript render reversi --moves \"f5 d6 c3\" -o position.svg\n"
    .. "  boardscript render blocks --size 6 --opt blocks=4 --seed 7\n"
    .. "  boardscript render dots --size 3 --moves \"a1 a2 a1 b1 a2 b2 b1 b2\"\n"
    .. "  boardscript render --record game.rec --chart --eval 4 -o game.svg")
end

--- The GGF reader (boardscript.formats.ggf) if this installation has one.
function command.ggf()
  local ok, ggf = pcall(require, "boardscript.formats.ggf")
  return ok and type(ggf) == "table" and type(ggf.parse) == "function" and ggf or nil
end

--- The entries of `--moves` texts for game `g`: splits on whitespace and
-- commas and joins two tokens where one alone is no move ("a1 a2" in dots).
-- Returns a list of { text = } / { pass = true } in play order; parsing
-- needs the position, so it is done as the moves are played (see replay).
function command.move_tokens(texts)
  local tokens = {}
  for _, text in ipairs(texts or {}) do
    for token in text:gmatch("[^%s,;]+") do tokens[#tokens + 1] = token end
  end
  return tokens
end

-- Plays the `--moves` tokens on `g`: returns the record-like entries
-- played ({ text =, move = } or { pass = true }). A token that is no move
-- or an illegal one is a user error naming it.
local function play_tokens(g, tokens)
  local entries, i = {}, 1
  while i <= #tokens do
    local token, k = tokens[i], #entries + 1
    if g:finished() then
      errors.fail(("--moves: move %d '%s': the game is over (%s)"):format(k, token, record.result(g)))
    end
    if token:lower() == "pass" then
      local ok, why = g:pass()
      if not ok then errors.fail(("--moves: move %d: pass is illegal%s"):format(k, why and (": " .. why) or "")) end
      entries[k] = { pass = true }
      i = i + 1
    else
      local text, move = token, g:parse_move(token)
      if move == nil and tokens[i + 1] then
        text = token .. " " .. tokens[i + 1]
        move = g:parse_move(text)
        if move == nil then text = token end
      end
      if move == nil then
        errors.fail(("--moves: move %d '%s' is not a move in %s's notation"):format(k, text,
          tostring(g.rules.name or "the rule set")))
      end
      local ok, why = g:play(move)
      if not ok then
        errors.fail(("--moves: move %d '%s' is illegal%s"):format(k, text, why and (": " .. tostring(why)) or ""))
      end
      entries[k] = { text = g.log[#g.log].text or text, move = move }
      i = i + select(2, text:gsub("%S+", "")) -- one or two tokens
    end
  end
  return entries
end

-- The text of a record or GGF file, within the caps of its format
-- (docs/decisions.md, "Bounded inputs"); unreadable is a user error.
local function read(path)
  local bounded = require "boardscript.bounded"
  local text = bounded.read_all(path, require("boardscript.formats.ggf_syntax").MAX_BYTES)
  if #text > record.MAX_BYTES and not text:match("^%s*%(;") then
    errors.fail(("%s: larger than %s"):format(path, bounded.size_text(record.MAX_BYTES)))
  end
  return text
end

-- A game from a boardscript record: the start, and the entries played on a
-- copy of it ({ text =, move = } or { pass = true }); a move that does not
-- apply is a user error naming the file and line.
local function from_record(path, text)
  local rec = record.parse(text, path)
  local g = record.open_game(rec, path)
  local start, played = g:clone(), {}
  local ok, k, entry, why = record.replay(g, rec.moves, path, function(i, e)
    played[i] = e.pass and { pass = true } or { text = e.text, move = g.log[#g.log].move }
  end)
  if not ok then errors.fail(("%s:%d: move %d: %s"):format(path, entry.line or 0, k, why)) end
  return start, played
end

-- A game from a GGF file: the start position of game `index`, the moves
-- played (a pass the file leaves out, which ggf.game inserts, is a move
-- too) and the evaluations the file gives, as the first side's margin by
-- move number (GGF gives each move's value for the side that made it).
local function from_ggf(ggf, path, text, index)
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
function command.timeline(start, entries)
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
function command.evaluations(start, entries, depth)
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

-- The charts below the board: the score of both sides after each move and,
-- when there are values, the evaluation.
local function charts(start, entries, evals, eval_title, cursor)
  local rules = start.rules
  local first, second, labels = command.timeline(start, entries)
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

-- The position after `upto` entries, and the move numbers up to it.
local function position(start, entries, upto, numbered)
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

--- Makes the picture the arguments ask for: returns the SVG text. Every
-- problem is a user error.
function command.picture(args)
  if (args.rules == nil) == (args.record == nil) then
    errors.fail(args.rules and "give a rule set or --record FILE, not both"
      or "nothing to draw: give a rule set (e.g. reversi) or --record FILE")
  end
  if args.numbers and args.no_numbers then errors.fail("--numbers and --no-numbers contradict each other") end
  local start, entries, evals, eval_title
  if args.record then
    for _, name in ipairs { "size", "seed", "moves" } do
      local given = args[name]
      if given ~= nil and not (type(given) == "table" and #given == 0) then
        errors.fail(("--%s goes with a rule set; a record has its own"):format(name))
      end
    end
    if #(args.opt or {}) > 0 then errors.fail("--opt goes with a rule set; a record has its own") end
    local text = read(args.record)
    local ggf = command.ggf()
    if ggf and text:match("^%s*%(;") then
      start, entries, evals = from_ggf(ggf, args.record, text, args.game)
      eval_title = "Evaluation in the file (" .. start:side_name(start.rules.sides[1]) .. "'s margin, discs)"
      if next(evals) == nil then evals = nil end
    else
      if args.game then errors.fail("--game goes with a GGF file") end
      start, entries = from_record(args.record, text)
    end
  else
    if args.game then errors.fail("--game goes with a GGF file") end
    local g = rule_options.new_game(args, core.rng(args.seed or 0))
    start = g:clone()
    entries = play_tokens(g, command.move_tokens(args.moves))
  end
  local upto = args.at or #entries
  if upto > #entries then
    errors.fail(("--at %d: the game has %d move%s"):format(upto, #entries, #entries == 1 and "" or "s"))
  end
  if args.eval then
    evals = command.evaluations(start, entries, args.eval)
    eval_title = ("Evaluation (%s's margin, discs; alphabeta depth %d)"):format(
      start:side_name(start.rules.sides[1]), args.eval)
  end
  local numbered = not args.no_numbers and (args.numbers or args.record ~= nil)
  local g, numbers, last = position(start, entries, upto, numbered)
  local title = svg.describe(g) .. (#entries == 0 and ", start position"
    or upto == #entries and (", after %d move%s"):format(upto, upto == 1 and "" or "s")
    or (", after %d of %d moves"):format(upto, #entries))
  return svg.picture(g, {
    title = title, numbers = numbers, last = last or false, legal = not args.no_legal,
    charts = (args.chart or args.eval) and charts(start, entries, evals, eval_title, upto) or nil,
  })
end

function command.run(args)
  local picture = command.picture(args)
  if args.output then
    output.write_file(args.output, picture, "wb")
  else
    output.stdout(picture)
  end
  return 0
end

return command
