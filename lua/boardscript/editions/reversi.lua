--- Edition `reversi`: Reversi with piece counts (seed 003, steps 1-7 and
-- extra credit; SPEC.md "reversi").
local game = require "boardscript.game"
local seating = require "boardscript.editions.seats"
local players = require "boardscript.players"

local edition = { name = "reversi", summary = "Reversi with piece counts, a1..h8 moves (seed 003)." }

local ROWS = "abcdefgh"
local SYMBOLS = {
  unicode = { empty = ".", black = "●", white = "○" },
  ascii = { empty = ".", black = "B", white = "W" },
}

function edition.configure(cmd)
  cmd:flag("--ascii", "Print B and W instead of ● and ○.")
  seating.player_options(cmd)
end

local function print_board(con, board, symbol)
  local n = board:size()
  local line = { " " }
  for c = 1, n do line[#line + 1] = " " .. c end
  con:say(table.concat(line))
  for r = 1, n do
    line = { ROWS:sub(r, r) }
    for c = 1, n do line[#line + 1] = " " .. symbol[board:get(r, c)] end
    con:say(table.concat(line))
  end
end

local function move_text(move)
  return ROWS:sub(move[1], move[1]) .. move[2]
end

-- The legal moves of the side to move by their text ("f5"), listed once a
-- turn: a typed token ("f5" or "F5") is looked up here, and only a legal
-- one is played. A line of two million bad tokens costs a lookup and a
-- prompt each, not a refused play each (about five times the instructions:
-- 9 s of CPU natively, past the bad-input matrix's guard under qemu).
local function legal_by_text(g)
  local by_text = {}
  for _, move in ipairs(g:moves()) do by_text[move_text(move)] = move end
  return by_text
end

local function take_turn(con, g, player, symbol)
  local prompt = ("Player %s's move (input format: a1): "):format(symbol[g:to_move()])
  local legal = player.human and legal_by_text(g)
  while true do
    con:prompt(prompt)
    if not player.human then
      local move = players.choose(player, g)
      con:echo(move_text(move))
      g:play(move)
      return
    end
    local token = con:token()
    local move = #token == 2 and legal[token:lower()]
    if move and g:play(move) then return end
  end
end

function edition.run(ctx)
  local con, args = ctx.console, ctx.args
  local loaded = seating.load_players(args, "reversi")
  local symbol = args.ascii and SYMBOLS.ascii or SYMBOLS.unicode
  local g = game.new("reversi", {}, ctx.rng)
  ctx.game, ctx.players = g, { black = args.black, white = args.white }
  con:say("Welcome to Reversi")
  con:say("")
  while not g:finished() do
    print_board(con, g:board(), symbol)
    local black, white = g:score()
    con:say(("BLACK: %d  WHITE: %d"):format(black, white))
    if g:can_pass() then
      con:say(("Player %s has no legal moves and passes."):format(symbol[g:to_move()]))
      g:pass()
    else
      take_turn(con, g, loaded[g:to_move()], symbol)
    end
  end
  print_board(con, g:board(), symbol)
  local black, white = g:score()
  con:say(("The final score is WHITE: %d BLACK: %d"):format(white, black))
  local winner = g:winner()
  con:say(winner == "draw" and "It's a tie!" or winner == "black" and "Black wins!" or "White wins!")
  return 0
end

return edition
