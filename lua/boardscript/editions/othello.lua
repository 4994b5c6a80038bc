--- Edition `othello`: "The Tragedy of Othello" (seed 002; SPEC.md "othello").
local game = require "boardscript.game"
local seating = require "boardscript.editions.seats"
local players = require "boardscript.players"
local trim = require("boardscript.text").trim

local edition = { name = "othello", summary = "The Tragedy of Othello: (r, c) moves, explicit passes (seed 002)." }

local SYMBOL = { empty = ".", black = "B", white = "W" }
local NAME = { black = "Black", white = "White" }
local PASS = "(-1, -1)"

function edition.configure(cmd)
  cmd:flag("--strict", "Standard legality: a move must flip, and a pass only when no move is possible.")
  seating.player_options(cmd)
end

-- The seed numbers rows and columns from 0.
local function print_board(con, board)
  local n = board:size()
  local line = { "-" }
  for c = 0, n - 1 do line[#line + 1] = " " .. c end
  con:say(table.concat(line))
  for r = 1, n do
    line = { tostring(r - 1) }
    for c = 1, n do line[#line + 1] = " " .. SYMBOL[board:get(r, c)] end
    con:say(table.concat(line))
  end
end

--- "(r, c)", "r, c", "r c", "(r c)": two integers separated by a comma
-- and/or blanks, parentheses optional but paired. Returns the 0-based row
-- and column as typed, or nil.
local function parse_move(text)
  local inner = trim(text)
  local unwrapped = inner:match("^%((.*)%)$")
  if unwrapped then inner = trim(unwrapped) end
  local r, c = inner:match("^([+-]?%d+)%s*,%s*([+-]?%d+)$")
  if not r then r, c = inner:match("^([+-]?%d+)%s+([+-]?%d+)$") end
  if not r then return nil end
  return math.tointeger(tonumber(r)), math.tointeger(tonumber(c))
end

--- Applies a typed move (0-based, or the pass); false when the seed's rule
-- (or --strict) refuses it.
local function apply(g, r, c)
  if r == -1 and c == -1 then return g:pass() == true end
  if r == nil or c == nil then return false end
  return g:play({ r + 1, c + 1 }) ~= nil
end

-- A computer's answer (checked by players.choose), written the way a
-- person types it.
local function computer_move(player, g)
  local move = players.choose(player, g)
  if move == "pass" then return PASS, -1, -1 end
  return ("(%d, %d)"):format(move[1] - 1, move[2] - 1), move[1] - 1, move[2] - 1
end

local function take_turn(con, g, player)
  con:say(("%s's turn. Please choose a move:"):format(NAME[g:to_move()]))
  while true do
    local r, c
    if player.human then
      r, c = parse_move(con:line())
    else
      local text
      text, r, c = computer_move(player, g)
      con:echo(text)
    end
    if apply(g, r, c) then return end
    con:say("Invalid move. Please choose a move:")
  end
end

function edition.run(ctx)
  local con, args = ctx.console, ctx.args
  local loaded = seating.load_players(args, "othello")
  local g = game.new(args.strict and "othello-strict" or "othello", {}, ctx.rng)
  ctx.game, ctx.players = g, { black = args.black, white = args.white }
  con:say("Welcome to Othello!")
  print_board(con, g:board())
  while true do
    take_turn(con, g, loaded[g:to_move()])
    if g:finished() then break end
    print_board(con, g:board())
  end
  local winner = g:winner()
  con:say(winner == "draw" and "Game over. We have a tie!" or ("Game over. %s wins!"):format(NAME[winner]))
  return 0
end

return edition
