--- Edition `blocks`: Reversi with block cells (seed 000; SPEC.md "blocks").
local console = require "boardscript.console"
local game = require "boardscript.game"
local seating = require "boardscript.editions.seats"
local players = require "boardscript.players"
local rules = require "boardscript.rules.blocks"

local edition = { name = "blocks", summary = "Reversi with block cells (seed 000)." }

local SYMBOL = { empty = ".", black = "X", white = "O", block = "#" }
local MARK = { black = "X", white = "O" }

function edition.configure(cmd)
  cmd:option("--size", "Board size: even, 4..26.", "8"):convert(function(s)
    local n = console.integer(s)
    if not n or n < 4 or n > 26 or n % 2 ~= 0 then
      return nil, "size must be an even integer from 4 to 26"
    end
    return n
  end)
  cmd:option("--blocks", "Skip the block questions: a count (placed at random, seeded) or cells such as B2,C5.")
  seating.player_options(cmd)
end

local function print_board(con, board)
  local n = board:size()
  local line = { "  " }
  for c = 1, n do line[#line + 1] = " " .. string.char(64 + c) end
  con:say(table.concat(line))
  for r = 1, n do
    line = { ("%2d"):format(r) }
    for c = 1, n do line[#line + 1] = " " .. SYMBOL[board:get(r, c)] end
    con:say(table.concat(line))
  end
end

--- "D3" -> row 3, column 4: a letter, then 1..26 without a leading zero.
local function parse_address(text)
  local letter, digits = text:match("^(%a)([1-9]%d?)$")
  if not letter then return nil end
  local row = tonumber(digits)
  if row > 26 then return nil end
  return row, letter:upper():byte() - 64
end

local function address(move)
  return string.char(64 + move[2]) .. move[1]
end

local function read_block_count(con, max)
  while true do
    con:prompt("Enter number of blocks: ")
    local n = console.integer(con:token())
    if n == nil then
      con:say("Invalid number!")
      con:skip_line()
    elseif n < 0 then
      con:say("Invalid number!")
    elseif n > max then
      con:say("Too many blocks!")
    else
      return n
    end
  end
end

--- The block questions, answered against a scratch position; returns the
-- blocks as the rule set's `blocks` option ("b2,c5").
local function ask_blocks(con, size)
  local state = rules:setup({ size = size })
  local count = read_block_count(con, rules:max_blocks(state))
  local cells = {}
  for i = 1, count do
    while true do
      con:prompt(("Enter position for block %d: "):format(i))
      local row, col = parse_address(con:token())
      if row and rules:add_block(state, row, col) then
        cells[#cells + 1] = rules:move_text({ row, col }, state)
        break
      end
      con:say("Invalid position!")
    end
  end
  return table.concat(cells, ",")
end

local function take_turn(con, g, player)
  local mark = MARK[g:to_move()]
  while true do
    con:prompt(("Player %s's turn: "):format(mark))
    if not player.human then
      local move = players.choose(player, g)
      con:echo(address(move))
      g:play(move)
      return
    end
    local row, col = parse_address(con:token())
    if row and g:play({ row, col }) then return end
    con:say("Invalid move!")
  end
end

function edition.run(ctx)
  local con, args = ctx.console, ctx.args
  local loaded = seating.load_players(args, "blocks")
  ctx.players = { black = args.black, white = args.white }
  local blocks = args.blocks or ask_blocks(con, args.size)
  local g = game.new("blocks", { size = args.size, blocks = blocks }, ctx.rng)
  ctx.game = g
  local round = 1
  while not g:finished() do
    con:say(("Round %d:"):format(round))
    print_board(con, g:board())
    if g:can_pass() then
      con:say(("Player %s has no valid moves! Pass!"):format(MARK[g:to_move()]))
      g:pass()
    else
      take_turn(con, g, loaded[g:to_move()])
    end
    round = round + 1
  end
  con:say("Game over:")
  print_board(con, g:board())
  local winner = g:winner()
  con:say(winner == "draw" and "Draw game!" or ("Player %s wins!"):format(MARK[winner]))
  return 0
end

return edition
