--- Edition `dots`: Dots and Boxes against the computer (seed 001; SPEC.md
-- "dots"). The human ("You", boxes marked H) moves first unless
-- `--first computer`; the computer ("Me", C) is the seed's four-level rule
-- unless `--computer` names another player.
local game = require "boardscript.game"
local notation = require "boardscript.notation.dots"
local seating = require "boardscript.editions.seats"
local players = require "boardscript.players"
local view = require "boardscript.view.dots"

local edition = { name = "dots", summary = "Dots and Boxes against the computer (seed 001)." }

local MAX_SIDE = 8 -- column numbers stay single digits

--- "N" for N x N boxes or "RxC", each side 1..8.
local function parse_size(s)
  local rows, cols = s:match("^(%d+)[xX](%d+)$")
  if not rows then rows = s:match("^%d+$"); cols = rows end
  rows, cols = tonumber(rows or ""), tonumber(cols or "")
  if not rows or rows < 1 or cols < 1 or rows > MAX_SIDE or cols > MAX_SIDE then
    return nil, "size must be N or RxC with each side from 1 to 8"
  end
  return { rows = math.tointeger(rows), cols = math.tointeger(cols) }
end

function edition.configure(cmd)
  cmd:option("--size", "Boxes per side, 1..8 (or RxC); skips the size question."):convert(parse_size)
  cmd:option("--computer", "The computer: dots_rules (the seed's rule), solver, another built-in AI, "
    .. "human, or a policy file.", "dots_rules")
  cmd:option("--first", "Who moves first: human or computer.", "human"):choices { "human", "computer" }
  seating.seed_option(cmd)
end

--- The pre-game question; nil at end of input.
local function ask_size(con)
  while true do
    con:prompt("What size grid would you like? (2..8) ")
    local line = con:read_line()
    if line == nil then return nil end
    local n = tonumber(line:match("^%s*(%d+)%s*$") or "")
    if n and n >= 2 and n <= MAX_SIDE then
      n = math.tointeger(n)
      return { rows = n, cols = n }
    end
    con:say("Sorry, try again.")
  end
end

--- A human's move: true once an edge is drawn, false to quit (Q, or end of
-- input).
local function human_move(con, g)
  while true do
    con:prompt("What two dots would you like to connect? (Q to quit) ")
    local line = con:read_line()
    if line == nil or notation.is_quit(line) then return false end
    local move = notation.parse(line)
    if move and g:play(move) then return true end
    con:say("Sorry, try again.")
  end
end

local function computer_move(con, g, player)
  local move = players.choose(player, g)
  con:say(("I choose to connect dots %s and %s."):format(notation.dots(move)))
  g:play(move)
end

local function farewell(you, me)
  if you > me then return "Congratulations!" end
  if me > you then return "Better luck next time." end
  return "I think we need a rematch."
end

function edition.run(ctx)
  local con, args = ctx.console, ctx.args
  local computer = seating.load_player(args.computer, "dots")
  local size = args.size or ask_size(con)
  if not size then return 0 end

  -- seats[p] is who plays as rules player p; `you` and `me` are the seat
  -- numbers of the human and the computer.
  local you, me = 1, 2
  if args.first == "computer" then you, me = 2, 1 end
  local seats = { [you] = { human = true, name = "human" }, [me] = computer }
  local marks = { [you] = "H", [me] = "C" }

  local g = game.new("dots", size, ctx.rng)
  ctx.game = g
  ctx.players = { [you] = "human", [me] = args.computer }
  local d = g:board()
  while not g:finished() do
    con:write(view.grid(d, marks))
    local scores = { g:score() }
    con:say(("You: %d    Me: %d"):format(scores[you], scores[me]))
    con:say("")
    local player = seats[g:to_move()]
    if player.human then
      if not human_move(con, g) then break end
    else
      computer_move(con, g, player)
    end
    con:say("")
  end

  con:write(view.grid(d, marks))
  con:say("")
  local scores = { g:score() }
  con:say("Final Score:")
  con:say(("  You:%d"):format(scores[you]))
  con:say(("  Me :%d"):format(scores[me]))
  con:say(farewell(scores[you], scores[me]))
  return 0
end

return edition
