--- Edition `flipflop`: FlipFlop (seed 004, part A; SPEC.md "flipflop").
--
-- Computer players: at a square prompt the policy's `choose(game)` names the
-- square for the piece about to be placed. At "Would you like to place a
-- second piece?" a policy with a `second_piece(self, game)` function answers
-- with it (true = y); any other policy is asked `choose` for its second
-- piece there and answers y when it returns a move (which it then plays) and
-- n when it returns nil.
local console = require "boardscript.console"
local game = require "boardscript.game"
local seating = require "boardscript.editions.seats"
local players = require "boardscript.players"
local rules = require "boardscript.rules.flipflop"

local edition = { name = "flipflop", summary = "FlipFlop: square numbers, one or two pieces a turn (seed 004)." }

local MIN_SIZE, MAX_SIZE = 8, 24
local SYMBOL = { black = "B", white = "W" }
local NAME = { black = "Black", white = "White" }
local PIECE = { "first", "second" }
local ERRORS = {
  ["off the board"] = { "ERROR: that square is not on the board." },
  ["occupied"] = { "ERROR: that square is already occupied" },
  -- The seed's PlacePiece prints "Illegal move" before main's error line.
  ["illegal"] = { "Illegal move", "ERROR: illegal move" },
}

function edition.configure(cmd)
  cmd:option("--size", "Skip the size question: an even board size, 8..24."):convert(function(text)
    local n = console.integer(text)
    if not n or n < MIN_SIZE or n > MAX_SIZE or n % 2 ~= 0 then
      return nil, ("size must be an even integer from %d to %d"):format(MIN_SIZE, MAX_SIZE)
    end
    return n
  end)
  seating.player_options(cmd)
end

--- Every cell in a right-aligned field of width 4: its square number when
-- empty, else W or B.
local function print_board(con, board)
  local n = board:size()
  for r = 1, n do
    local line = {}
    for c = 1, n do
      local cell = board:get(r, c)
      line[c] = ("%4s"):format(SYMBOL[cell] or (r - 1) * n + (c - 1))
    end
    con:say(table.concat(line))
  end
end

--- The size dialogue: three tries, then nil (the caller exits with 1).
-- After a bad answer the range and the question are printed again.
local function read_size(con)
  local question = "Enter the number of squares along each edge of the board"
  con:say(question)
  for try = 1, 3 do
    local n = console.integer(con:token())
    local problem = (n == nil and "is not an integer") or (n > MAX_SIZE and "too large")
      or (n < MIN_SIZE and "too small") or (n % 2 == 1 and "odd")
    if not problem then return n end
    con:say("ERROR: Board size " .. problem)
    if try < 3 then
      con:say(("%d <= number of squares <= %d"):format(MIN_SIZE, MAX_SIZE))
      con:say(question)
    end
  end
  con:say("ERROR: Too many errors entering the size of the board")
  return nil
end

--- A square number typed by a person -> { row, col }, or nil when it is not
-- an integer on the board.
local function parse_square(token, n)
  local s = console.integer(token)
  if s == nil or s < 0 or s >= n * n then return nil end
  return { s // n + 1, s % n + 1 }
end

local function square_number(move, n)
  return (move[1] - 1) * n + (move[2] - 1)
end

-- One answer at a square prompt: typed, or the computer's (checked by
-- players.choose, or planned when it answered the second-piece question).
local function answer_square(con, g, player, planned)
  local n = g:board():size()
  if player.human then return parse_square(con:token(), n) end
  local move = planned or players.choose(player, g)
  if move == "pass" then
    require("boardscript.errors").fail(("player '%s' (%s) chose no square"):format(player.name, g:side_name()))
  end
  con:echo(tostring(square_number(move, n)))
  return move
end

--- Up to rules.attempts tries at placing the current piece; returns the
-- number captured, or nil when every try failed.
local function place_piece(con, g, player, planned)
  local which = PIECE[g.state.piece]
  local name = NAME[g:to_move()]
  for _ = 1, rules.attempts do
    con:say(("Enter the square number of the square you want to put your %s piece on"):format(which))
    local move = answer_square(con, g, player, planned)
    planned = nil
    local why = move == nil and "off the board" or rules:why_not(g.state, move)
    if why == nil then
      local captured = g:play(move)
      con:say(("%s has placed the %s piece"):format(name, which))
      print_board(con, g:board())
      con:say(("Your %s piece captured %d opponent's pieces"):format(which, captured))
      return captured
    end
    for _, line in ipairs(ERRORS[why]) do con:say(line) end
    con:say("Try again")
  end
  return nil
end

--- "Would you like to place a second piece?": true or false, and the move a
-- computer already chose for it.
local function wants_second(con, g, player)
  con:say("Would you like to place a second piece? (y/n)")
  if player.human then
    local answer = con:token()
    return answer == "y" or answer == "Y"
  end
  local yes, planned
  if player.policy.second_piece then
    yes = players.decide(player, g, "second_piece")
  else
    planned = players.choose(player, g)
    yes = planned ~= "pass"
    if not yes then planned = nil end
  end
  con:echo(yes and "y" or "n")
  return yes, planned
end

local function take_turn(con, g, player)
  local name = NAME[g:to_move()]
  if not rules:has_moves(g.state) then
    con:say(name .. " is unable to move")
    return g:pass()
  end
  con:say(name .. " takes a turn")
  if not place_piece(con, g, player) then
    con:say(name .. " has forfeited a turn")
    return g:pass()
  end
  if not rules:second_piece_allowed(g.state) then return end
  local yes, planned = wants_second(con, g, player)
  if not yes then return g:pass() end
  if not rules:has_moves(g.state) then
    con:say(name .. " is unable to move")
    return g:pass()
  end
  if not place_piece(con, g, player, planned) then
    con:say(name .. " has forfeited a turn")
    return g:pass()
  end
end

function edition.run(ctx)
  local con, args = ctx.console, ctx.args
  local loaded = seating.load_players(args, "flipflop")
  ctx.players = { black = args.black, white = args.white }
  local n = args.size or read_size(con)
  if not n then return 1 end
  local g = game.new("flipflop", { size = n }, ctx.rng)
  ctx.game = g
  print_board(con, g:board())
  while not g:finished() do
    take_turn(con, g, loaded[g:to_move()])
  end
  con:say("GAME OVER")
  local black, white = g:score()
  con:say(("White: %d  Black: %d"):format(white, black))
  local winner = g:winner()
  con:say(winner == "draw" and "It's a tie!" or ("%s wins!"):format(NAME[winner]))
  con:say("Please enter any character to close the game window")
  -- Any token closes the window, and so does the end of input.
  con:read_token()
  return 0
end

return edition
