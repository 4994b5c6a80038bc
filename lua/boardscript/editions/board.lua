--- Edition `board`: the generic console. It plays any rule set, built-in or
-- a user's file, through the rule set's own hooks: its board text, score,
-- side names, notation, legal moves and passing rule (docs/decisions.md,
-- "board (the generic console)"). `boardscript play FILE.lua` and
-- `boardscript play NAME` for a rule set that is not an edition come here.
local errors = require "boardscript.errors"
local seating = require "boardscript.editions.seats"
local players = require "boardscript.players"
local rule_options = require "boardscript.rule_options"
local rules_mod = require "boardscript.rules"
local trim = require("boardscript.text").trim

local edition = {
  name = "board",
  summary = "Any rule set at the console: play board --rules NAME|FILE, or play FILE.lua.",
}

function edition.configure(cmd)
  cmd:option("--rules", "The rule set: a built-in name (" .. table.concat(rules_mod.builtin_names(), ", ")
    .. ") or a path to a Lua file returning one.", "reversi")
  rule_options.add(cmd)
  seating.player_options(cmd)
  cmd:epilog("--black plays the rule set's first side and --white its second (in dots, Player 1 and "
    .. "Player 2). At a prompt: a move in the rule set's notation, ? for the legal moves, pass, undo or quit.")
end

--- The score line: "Black: 2  White: 2", sides in the rule set's order.
local function score_line(g)
  local first, second = g:sides()
  local a, b = g:score()
  return ("%s: %s  %s: %s"):format(g:side_name(first), tostring(a), g:side_name(second), tostring(b))
end

local function show(con, g)
  local text = g:text()
  con:write(text)
  if text:sub(-1) ~= "\n" then con:write("\n") end
  con:say(score_line(g))
end

local function move_text(g, move)
  return g:move_text(move) or players.describe(move)
end

--- "Legal moves: b1, a2, d3, c4" (and "pass" when the rules allow it now).
local function legal_moves(g)
  local parts = {}
  for _, move in ipairs(g:moves()) do parts[#parts + 1] = move_text(g, move) end
  if g:can_pass() then parts[#parts + 1] = "pass" end
  if #parts == 0 then parts[1] = "(none)" end
  return "Legal moves: " .. table.concat(parts, ", ")
end

--- Whether the side to move is a human who has a choice to make (the game
-- goes on and it is not an automatic pass).
local function human_choice(g, seats)
  if g:finished() or not seats[g:to_move()].human then return false end
  return #g:moves() > 0 or not g:can_pass()
end

local function replay(g, entry)
  if entry.pass then return g:pass() end
  return g:play(entry.move)
end

--- Takes back the last move or pass, then more until a human has a choice
-- again (back over a computer's moves and automatic passes). Returns the
-- entries taken back, newest first, each with the side that had played
-- it; nil, with the game unchanged, when no earlier human choice exists.
local function take_back(g, seats)
  local taken = {}
  repeat
    local history = g:history()
    if not g:undo() then
      for i = #taken, 1, -1 do replay(g, taken[i].entry) end
      return nil
    end
    taken[#taken + 1] = { entry = history[#history], side = g:to_move() }
  until human_choice(g, seats)
  return taken
end

local function took_back(g, taken)
  local parts = {}
  for i, item in ipairs(taken) do
    parts[i] = ("%s (%s)"):format(item.entry.pass and "pass" or item.entry.text or "?", g:side_name(item.side))
  end
  return "Took back " .. table.concat(parts, ", ") .. "."
end

--- Why the side to move may not pass: the pass hook's reason, asked on a
-- copy of the game.
local function pass_refusal(g)
  local ok, why = g:clone():pass()
  return not ok and why or "passing is not allowed now"
end

--- One command of a human: "quit", "done" (the game changed: a move, a
-- pass or an undo), or nil (ask again).
local function command(con, g, seats, text)
  local word = text:lower()
  if word == "?" then
    con:say(legal_moves(g))
  elseif word == "quit" then
    return "quit"
  elseif word == "undo" then
    local taken = take_back(g, seats)
    if not taken then
      con:say("Nothing to undo.")
      return nil
    end
    con:say(took_back(g, taken))
    return "done"
  elseif word == "pass" then
    if not g:can_pass() then
      con:say("Cannot pass: " .. pass_refusal(g))
      return nil
    end
    local ok, why = g:pass()
    if ok then return "done" end
    con:say("Cannot pass: " .. (why or "passing is not allowed now"))
  elseif text ~= "" then
    local move = g:parse_move(text)
    if move == nil then
      -- A long answer is cut, so a pasted megabyte is not written back.
      local shown = #text > 40 and text:sub(1, 37) .. "..." or text
      con:say(("Not a move: %s (type ? for the legal moves)"):format(shown))
      return nil
    end
    local name = g:move_text(move) or text
    local ok, why = g:play(move)
    if ok ~= nil and ok ~= false then return "done" end
    con:say(("Illegal move %s%s"):format(name, why and (": " .. tostring(why)) or ""))
  end
  return nil
end

local function human_turn(con, g, seats, prompt)
  while true do
    con:prompt(prompt)
    local result = command(con, g, seats, trim(con:line()))
    if result then return result end
  end
end

local function computer_turn(con, g, player, prompt)
  con:prompt(prompt)
  local move = players.choose(player, g)
  local ok, why
  if move == "pass" then
    con:echo("pass")
    ok, why = g:pass()
  else
    con:echo(move_text(g, move))
    ok, why = g:play(move)
  end
  if ok == nil or ok == false then
    errors.fail(("player '%s' (%s): the rules refused its %s%s"):format(player.name, g:side_name(),
      move == "pass" and "pass" or "move " .. move_text(g, move), why and (" (" .. tostring(why) .. ")") or ""))
  end
end

--- The opening line: what is played and what may be typed.
local function welcome(g)
  local first = g:moves()[1]
  local example = first ~= nil and g:move_text(first)
  return ("Playing %s (size %s). Type a move%s, ? for the legal moves, pass, undo or quit."):format(
    tostring(g.rules.name or g.source), g:size_text(), example and (" such as " .. example) or "")
end

--- Plays until the game is over or a human quits; returns true on a quit.
local function game_loop(con, g, seats)
  while not g:finished() do
    show(con, g)
    local side = g:to_move()
    local name = g:side_name(side)
    local has_moves, can_pass = #g:moves() > 0, g:can_pass()
    if not has_moves then
      if not can_pass then
        errors.fail(("rules %s: %s has no legal move and may not pass, but the game is not over"):format(
          tostring(g.source or g.rules.name), name))
      end
      con:say(("%s has no legal move and passes."):format(name))
      local ok, why = g:pass()
      if not ok then
        errors.fail(("rules %s: the pass of %s was refused%s"):format(tostring(g.source or g.rules.name), name,
          why and (": " .. tostring(why)) or ""))
      end
    else
      local prompt = ("%s to move%s: "):format(name, can_pass and " (or pass)" or "")
      local player = seats[side]
      if player.human then
        if human_turn(con, g, seats, prompt) == "quit" then return true end
      else
        computer_turn(con, g, player, prompt)
      end
    end
  end
  return false
end

--- The whole game: the opening line, the turns, then the final board, the
-- score line and the result (or who quit).
local function session(con, g, seats)
  con:say(welcome(g))
  local quit = game_loop(con, g, seats)
  show(con, g)
  if quit then
    con:say(("%s quits."):format(g:side_name()))
  else
    local winner = g:winner()
    con:say(winner == "draw" and "Draw." or ("%s wins."):format(g:side_name(winner)))
  end
end

function edition.run(ctx)
  local con, args = ctx.console, ctx.args
  local g = rule_options.new_game(args, ctx.rng)
  local first, second = g:sides()
  local seats = {
    [first] = seating.load_player(args.black, g.rules),
    [second] = seating.load_player(args.white, g.rules),
  }
  ctx.game, ctx.rules = g, args.rules
  ctx.players = { [first] = args.black, [second] = args.white }
  session(con, g, seats)
  return 0
end

return edition
