--- The playout figures of `boardscript bench`: random games of 8 x 8
-- Reversi (uniform moves, as rng:random(n) picks them, from the start, a
-- pass only when stuck) driven from C, from Lua a move a call, over a board
-- and over the rule set's hooks; and the mcts policy's first move.
local core = require "boardscript.core"
local workload = require "boardscript.bench.workload"

local playout = {}

local opponent = require("boardscript.families.board").opponent

-- A game over board:move_list and board:play_index, taken back with undo.
local function lua_game(b, rng, buffer)
  local player, played = "black", 0
  while true do
    local n = b:move_list(player, "all", buffer)
    if n == 0 then
      if b:move_list(opponent(player), "all", buffer) == 0 then break end
    else
      b:play_index(player, buffer[rng:random(n)])
      played = played + 1
    end
    player = opponent(player)
  end
  for _ = 1, played do b:undo() end
end

-- A game over the rule set's hooks, taken back with undo.
local function hooks_game(rules, state, rng)
  local plies = 0
  while not rules:finished(state) do
    local moves = rules:moves(state)
    if #moves == 0 then rules:pass(state) else rules:play(state, moves[rng:random(#moves)]) end
    plies = plies + 1
  end
  for _ = 1, plies do rules:undo(state) end
end

-- A figure timing play(n, rng, board): n games from `board`, the 8 x 8
-- start (made before the clock starts).
local function figure(name, games, quick_games, how, play)
  return {
    name = name, unit = "games/s",
    run = function(opts)
      local n = opts.quick and quick_games or games
      local board = workload.start(8)
      local seconds = workload.timed(play, n, core.rng(1), board)
      return {
        what = ("random games of 8x8 reversi %s"):format(how),
        value = n / seconds, seconds = seconds, count = n, count_unit = "games", games = n,
      }
    end,
  }
end

--- Games played by core.playout.
playout.c = figure("playout_c", 200000, 2000, "driven from C (core.playout)", function(n, rng, b)
  local play = core.playout
  for _ = 1, n do play(b, "black", rng) end
end)

--- Games over a cursor: one call a move, the move number drawn in Lua.
playout.lua = figure("playout_lua", 100000, 1000,
  "driven from Lua, a move a call (cursor:play(k), k = rng:random(count))",
  function(n, rng, b)
    local c = core.cursor(b, "black")
    local play, reset, random = c.play, c.reset, rng.random
    for _ = 1, n do
      local count = reset(c)
      while count > 0 do count = play(c, random(rng, count)) end
    end
  end)

--- The same with math.random.
playout.lua_math = figure("playout_lua_math", 100000, 1000,
  "driven from Lua, a move a call (cursor:play(k), k = math.random(count))",
  function(n, _, b)
    local c = core.cursor(b, "black")
    local play, reset, random = c.play, c.reset, math.random
    math.randomseed(1)
    for _ = 1, n do
      local count = reset(c)
      while count > 0 do count = play(c, random(count)) end
    end
  end)

--- The same with the draw made in Lua itself (xorshift64, Marsaglia 2003:
-- shifts 13, 7, 17), so the loop makes no call but the move.
playout.lua_own = figure("playout_lua_own", 100000, 1000,
  "driven from Lua, a move a call (cursor:play(k), k drawn in Lua by xorshift64)",
  function(n, _, b)
    local c = core.cursor(b, "black")
    local play, reset = c.play, c.reset
    local x = 88172645463325252
    for _ = 1, n do
      local count = reset(c)
      while count > 0 do
        x = x ~ (x << 13)
        x = x ~ (x >> 7)
        x = x ~ (x << 17)
        count = play(c, (x >> 1) % count + 1)
      end
    end
  end)

--- Games over a board: move_list, play_index, undo.
playout.lua_board = figure("playout_lua_board", 20000, 200,
  "driven from Lua over a board (move_list, play_index, undo)",
  function(n, rng, b)
    local buffer = {}
    for _ = 1, n do lua_game(b, rng, buffer) end
  end)

--- Games over the reversi rule set's hooks.
playout.hooks = figure("playout_hooks", 4000, 40, "over the reversi rule set's hooks",
  function(n, rng)
    local rules = require("boardscript.rules").load("reversi")
    local state = rules:setup()
    for _ = 1, n do hooks_game(rules, state, rng) end
  end)

--- The mcts policy's first move (its tree walked on a cursor, its random
-- games in C).
playout.mcts = {
  name = "mcts", unit = "playouts/s",
  run = function(opts)
    local game = require "boardscript.game"
    local mcts = require "boardscript.ai.mcts"
    local n = opts.quick and 200 or 20000
    local g = game.new(require("boardscript.rules").load("reversi"), nil, core.rng(1))
    local seconds = workload.timed(mcts.choose, mcts.new { playouts = n }, g, { rng = core.rng(2) })
    return {
      what = "the mcts policy's first move of 8x8 reversi (its tree walked on a cursor, its random games in C)",
      value = n / seconds, seconds = seconds, count = n, count_unit = "playouts", playouts = n,
    }
  end,
}

return playout
