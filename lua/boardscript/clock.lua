--- Game clocks: how much of a player's remaining time a move gets.
-- A policy given `clock=S` (seconds for all its moves of a game) and
-- optionally `inc=S` (added after each of its moves) plays each move in
-- the time `clock.allot` gives it; `players` keeps the clock (what is left
-- after each move, measured in wall seconds) and hands the move's share to
-- the policy as `ctx.time`, so every policy that plays by time plays on a
-- clock. A `time` option beside a clock caps each move.
local clock = {}

--- Own moves expected when the game's size is unknown (or the game is not
-- a filling one): the allotment divides the time left by this many.
clock.DEFAULT_MOVES = 30
--- The most own moves the allotment assumes (a wide board ends long
-- before it is full).
clock.MAX_MOVES = 40
--- The part of the time left kept back at every move (never spent): the
-- work around the search, the process's start, a slow machine.
clock.RESERVE = 0.05
--- The fewest seconds a move is given, while the clock has them.
clock.MIN_MOVE = 0.01

--- The own moves left to expect in game `g`: half its empty cells (each
-- move of a filling game takes one; the opponent takes every other),
-- within 1..clock.MAX_MOVES; clock.DEFAULT_MOVES when the board cannot say.
-- @tparam boardscript.game.Game g the game
-- @treturn integer
function clock.moves_left(g)
  local board = g.state and g.state.board
  local ok, empties = false, nil
  if type(board) == "userdata" then
    ok, empties = pcall(function() return board:count("empty") end)
  end
  if not ok or math.type(empties) ~= "integer" then return clock.DEFAULT_MOVES end
  return math.max(1, math.min(clock.MAX_MOVES, (empties + 1) // 2))
end

--- The seconds a move gets: an even share of the time left (less the
-- reserve) over the moves expected, plus most of the increment; never
-- more than the time left less the reserve, so a search that stops in
-- its time never loses on time.
-- @tparam number left seconds left on the clock (may be negative: then the least)
-- @tparam number inc seconds added after the move
-- @tparam integer moves own moves expected, this one included
-- @treturn number seconds for this move
function clock.allot(left, inc, moves)
  local usable = left - math.max(clock.RESERVE * left, 0.02)
  if usable <= clock.MIN_MOVE then return clock.MIN_MOVE / 2 end
  local share = usable / math.max(moves, 1) + 0.8 * (inc or 0)
  return math.max(clock.MIN_MOVE, math.min(share, usable))
end

--- How many times its share a move of a search that stops itself early
-- may be given (clock.stretch).
clock.STRETCH = 2
--- The most of the usable time one stretched move may be given.
clock.MAX_SHARE = 0.2

--- The time for a move whose search stops itself well before its time
-- (alphabeta's deepening stops at 30 % of it once settled, and starts no
-- iteration past 60 %): `share` (clock.allot's) times clock.STRETCH, so
-- that it spends about its share, within clock.MAX_SHARE of the time left
-- less the reserve; never less than the share (a forced move keeps its
-- least).
-- @tparam number share the move's share (clock.allot)
-- @tparam number left seconds left on the clock
-- @treturn number seconds the search may take
function clock.stretch(share, left)
  if share <= clock.MIN_MOVE then return share end
  local usable = left - math.max(clock.RESERVE * left, 0.02)
  return math.max(share, math.min(share * clock.STRETCH, usable * clock.MAX_SHARE))
end

--- A time control `BASE[+INC]` in seconds (cutechess's `--tc 60+0.5`):
-- { base =, inc = }, or nil and why not.
-- @tparam string text the time control
-- @treturn table|nil
-- @treturn string why not
function clock.parse_tc(text)
  local base, inc = tostring(text):match("^(%d+%.?%d*)%+?(%d*%.?%d*)$")
  base, inc = tonumber(base), inc == "" and 0 or tonumber(inc)
  if not base or base <= 0 or base > 10000000 or not inc or inc > 10000000 then
    return nil, ("--tc: %q is not BASE[+INC], seconds (e.g. 60+0.5)"):format(tostring(text))
  end
  return { base = base, inc = inc }
end

--- The option declarations a policy that plays by time adds for a clock.
clock.OPTIONS = {
  clock = { type = "number", min = 0, max = 10000000,
            help = "seconds for all its moves of a game (a game clock; each move gets a share)" },
  inc = { type = "number", min = 0, max = 10000000, help = "seconds added to the clock after each move" },
}

return clock
