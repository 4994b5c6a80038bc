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
local svg = require "boardscript.render.svg"
local game_pictures = require "boardscript.render.game"

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
  options.budgets(cmd, "each call into a rule set file (a hook)")
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
      start, entries, evals = game_pictures.from_ggf(ggf, args.record, text, args.game)
      eval_title = "Evaluation in the file (" .. start:side_name(start.rules.sides[1]) .. "'s margin, discs)"
      if next(evals) == nil then evals = nil end
    else
      if args.game then errors.fail("--game goes with a GGF file") end
      start, entries = game_pictures.from_record(args.record, text)
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
    evals = game_pictures.evaluations(start, entries, args.eval)
    eval_title = ("Evaluation (%s's margin, discs; alphabeta depth %d)"):format(
      start:side_name(start.rules.sides[1]), args.eval)
  end
  local numbered = not args.no_numbers and (args.numbers or args.record ~= nil)
  local g, numbers, last = game_pictures.position(start, entries, upto, numbered)
  local title = svg.describe(g) .. (#entries == 0 and ", start position"
    or upto == #entries and (", after %d move%s"):format(upto, upto == 1 and "" or "s")
    or (", after %d of %d moves"):format(upto, #entries))
  return svg.picture(g, {
    title = title, numbers = numbers, last = last or false, legal = not args.no_legal,
    charts = (args.chart or args.eval) and game_pictures.charts(start, entries, evals, eval_title, upto) or nil,
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
