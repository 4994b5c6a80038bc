-- Game clocks (issue 30): the allotment, the clock players keep from move
-- to move, and the policies that play on one.
local clock = require "boardscript.clock"
local files = require "support.files"
local game_mod = require "boardscript.game"
local nboard = require "boardscript.protocol.nboard"
local players = require "boardscript.players"

local POLICY = [[
local seen = {}
return { seen = seen, options = { time = { type = "number" }, clock = { type = "number" }, inc = { type = "number" } },
  choose = function(_, g, ctx)
    seen[#seen + 1] = { time = ctx.time, left = ctx.clock and ctx.clock.left }
    return (g:moves())[1]
  end }
]]

describe("game clocks", function()
  it("allot an even share of the time left, most of the increment, never more than the time left", function()
    assert.near(57 / 30, clock.allot(60, 0, 30), 1e-9) -- 5 % kept back
    assert.near(57 / 30 + 0.4, clock.allot(60, 0.5, 30), 1e-9)
    assert.near(9.5, clock.allot(10, 0, 1), 1e-9) -- the last move: all but the reserve
    assert.near(0.18, clock.allot(0.2, 5, 1), 1e-9) -- the increment comes after the move
    assert.equal(clock.MIN_MOVE, clock.allot(1, 0, 200))
    assert.equal(clock.MIN_MOVE / 2, clock.allot(0.02, 0, 10))
    assert.equal(clock.MIN_MOVE / 2, clock.allot(-3, 1, 10))
  end)

  it("stretch a self-stopping search's share: twice it, within a fifth of the usable time", function()
    assert.near(4, clock.stretch(2, 60), 1e-9)
    assert.near(0.2 * 9.5, clock.stretch(1.5, 10), 1e-9) -- a fifth of 10 less the reserve
    assert.near(3, clock.stretch(3, 10), 1e-9)            -- never less than the share
    assert.equal(clock.MIN_MOVE, clock.stretch(clock.MIN_MOVE, 60)) -- a forced move keeps the least
    -- alphabeta on a clock searches for the stretched share (its log's time
    -- never passes it), and a `time` option still caps it
    local alphabeta = require "boardscript.ai.alphabeta"
    local g = game_mod.new("reversi")
    local policy = alphabeta.new {}
    local ctx = { time = 0.05, clock = { left = 60, inc = 0 } }
    assert.near(0.1, policy:search_options(g, ctx).time, 1e-9)
    assert.near(0.07, alphabeta.new({ time = 0.07 }):search_options(g, ctx).time, 1e-9)
    assert.near(0.05, policy:search_options(g, { time = 0.05 }).time, 1e-9) -- no clock: the time as given
  end)

  it("expect half the empty cells as own moves, within 1..40", function()
    assert.equal(30, clock.moves_left(game_mod.new("reversi")))
    assert.equal(16, clock.moves_left(game_mod.new("reversi", { size = 6 })))
    local rules = require("boardscript.rules").load("lua/examples/gomoku.lua")
    assert.equal(clock.MAX_MOVES, clock.moves_left(game_mod.new(rules)))
    assert.equal(clock.DEFAULT_MOVES, clock.moves_left(game_mod.new("dots")))
  end)

  it("give a policy its move's share and keep its clock from move to move, one clock a game", function()
    local path, remove = files.lua(POLICY)
    finally(remove)
    local p = players.load(path .. ":clock=10,inc=1", "reversi")
    local g = game_mod.new("reversi")
    local ctx = players.context(p, g)
    assert.same({ left = 10, inc = 1 }, ctx.clock)
    assert.equal(clock.allot(10, 1, 30), ctx.time)
    players.spent(p, g, 2.5)
    ctx = players.context(p, g)
    assert.equal(8.5, ctx.clock.left)
    assert.equal(clock.allot(8.5, 1, 30), ctx.time)
    g:play(players.choose(p, g)) -- the policy sees the same; its own move comes off the clock
    local seen = (p.value or p.policy).seen
    assert.equal(8.5, seen[1].left)
    assert.equal(clock.allot(8.5, 1, 30), seen[1].time)
    assert.is_true(p.clock_left <= 9.5 and p.clock_left ~= 8.5)
    assert.equal(10, players.context(p, game_mod.new("reversi")).clock.left) -- another game: a whole clock
    -- a forced move (one legal move, no pass) gets the least time: the first such position of seeded random games
    local function only_one(game) return #game:moves() == 1 and not game:can_pass() end
    local forced
    for seed = 1, 400 do
      local r = game_mod.new("reversi", {}, require("boardscript.core").rng(seed))
      while not r:finished() and not only_one(r) do
        local moves = r:moves()
        if #moves == 0 then r:pass() else r:play(moves[r.rng:random(#moves)]) end
      end
      if only_one(r) then
        forced = r
        break
      end
    end
    assert.truthy(forced)
    assert.equal(clock.MIN_MOVE, players.context(p, forced).time)
    assert.is_true(players.context(p, g).time > clock.MIN_MOVE)
    local capped = players.load(path .. ":clock=100,time=0.05", "reversi")
    assert.equal(0.05, players.context(capped, g).time)
    assert.is_nil(players.context(players.load(path .. ":time=0.05", "reversi"), g).clock)
  end)

  it("are options of the built-in policies that play by time", function()
    for _, name in ipairs { "alphabeta", "mcts", "minimax" } do
      local options = players.load(name .. ":clock=60,inc=0.5").options
      assert.same({ 60, 0.5 }, { options.clock, options.inc })
    end
    assert.has_error(function() players.load("alphabeta:clock=-1") end)
  end)

  it("run an NBoard engine: go plays by the clock, set depth leaves it on the clock", function()
    local s = nboard.new { policy = "alphabeta:clock=20", no_time = true }
    local out = s:feed("set depth 12")
    assert.same({ "set myname boardscript-alphabeta" }, out)
    assert.is_true(s.engine:timed())
    out = s:feed("go")
    assert.truthy(out[2]:match("^=== %u%d/"))
    assert.is_true(s.engine.player.clock_left < 20)
  end)
end)
