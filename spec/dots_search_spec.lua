-- The dots_search policy (Dots and Boxes beyond the solver's reach): its
-- options, legal play from 2x2 to 8x8, exact endgames of its own, perfect
-- play once the exact solver takes over, and its record against the seed's
-- rule (dots_rules).
local core = require "boardscript.core"
local game = require "boardscript.game"
local players = require "boardscript.players"
local dots_rules = require "boardscript.ai.dots_rules"
local dots_solver = require "boardscript.ai.dots_solver"
local dots_search = require "boardscript.ai.dots_search"

-- A player as players.load makes one: the policy is handed a copy of the
-- game and its answer is checked (players.choose fails on an illegal move).
local function search_player(opts)
  return { name = "dots_search", policy = dots_search.new(opts), options = opts }
end
local RULES = { name = "dots_rules", policy = dots_rules }
local SOLVER = { name = "solver", policy = dots_solver.new { node_limit = 0 } }
local RANDOM = { name = "random", policy = require "boardscript.ai.random" }

-- Plays `g` on: `seats[1]` for player 1, `seats[2]` for player 2, the
-- first `opening` plies random (from `rng`), at most `plies` plies in all.
local function play(g, seats, opening, rng, plies)
  local n = 0
  while not g:finished() and (plies == nil or n < plies) do
    local move
    if n < (opening or 0) then
      local moves = g:moves()
      move = moves[rng:random(#moves)]
    else
      move = players.choose(seats[g:to_move()], g)
    end
    assert(g:play(move))
    n = n + 1
  end
  return g
end

-- The net score of the boxes still open in `d` for the player to move,
-- with perfect play.
local function solved(d)
  return assert(d:solve { tt_mb = 16 })
end

-- The margin of player `side` in a finished game.
local function margin(g, side)
  local one, two = g:score()
  return side == 1 and one - two or two - one
end

describe("dots_search", function()
  it("declares its options as rule sets do, and new(opts) makes a player of its own", function()
    assert.equal("dots_search", dots_search.name)
    assert.same({ "dots" }, dots_search.games)
    for key, decl in pairs(dots_search.options) do
      assert.is_string(decl.help, key)
      assert.truthy(decl.type == "integer" or decl.type == "number", key)
      if decl.default ~= nil then
        assert.truthy(decl.min == nil or decl.default >= decl.min, key)
        assert.truthy(decl.max == nil or decl.default <= decl.max, key)
      end
    end
    assert.same({ type = "integer", min = 1, max = 20 }, {
      type = dots_search.options.depth.type, min = dots_search.options.depth.min,
      max = dots_search.options.depth.max })
    local a, b = dots_search.new { depth = 1 }, dots_search.new()
    assert.are_not.equal(a, b)
    assert.equal(1, a.opts.depth)
    assert.is_function(a.choose)
    assert.is_nil(dots_search.new():choose(play(game.new("dots", { size = 2 }, core.rng(1)),
      { RANDOM, RANDOM }, 0, core.rng(1))))
  end)

  it("refuses any game but Dots and Boxes", function()
    local ok, err = pcall(dots_search.choose, dots_search.new(), game.new("reversi", { size = 6 }))
    assert.is_false(ok)
    assert.matches("plays Dots and Boxes only", err)
  end)

  it("plays only legal moves on grids from 2x2 to 8x8", function()
    local rng = core.rng(8)
    for _, case in ipairs {
      { size = { size = 2 }, games = 6 }, { size = { size = 3 }, games = 4 },
      { size = { size = 4 }, games = 2 }, { size = { size = 5 }, games = 2 },
      { size = { rows = 2, cols = 7 }, games = 2 }, { size = { rows = 6, cols = 3 }, games = 1 },
      { size = { size = 6 }, games = 1, opts = { depth = 1 } },
      { size = { size = 7 }, games = 1, opts = { depth = 1 }, plies = 30 },
      { size = { size = 8 }, games = 2, opts = { depth = 1 }, plies = 30 },
    } do
      for i = 1, case.games do
        local me = search_player(case.opts or {})
        local other = i % 2 == 0 and RULES or RANDOM
        local seats = i % 2 == 0 and { me, other } or { other, me }
        local g = play(game.new("dots", case.size, core.rng(i)), seats, rng:random(0, 3), rng, case.plies)
        if not case.plies then assert.is_true(g:finished()) end
      end
    end
  end)

  it("plays a whole 8x8 game at depth 1, endgame included", function()
    local g = play(game.new("dots", { size = 8 }, core.rng(3)), { search_player { depth = 1 }, RULES })
    assert.is_true(g:finished())
    assert.is_true(margin(g, 1) > 0)
  end)

  it("keeps control with the double-dealing move when that is worth more", function()
    -- Two chains of four (every horizontal edge of a 2x4 grid drawn); the
    -- opponent opened the top one. Taking all four and opening the other
    -- chain ends 4-4; taking two and declining the last two wins 6-2.
    for _, opts in ipairs { {}, { solver_edges = 0 } } do
      local g = game.new("dots", { rows = 2, cols = 4 })
      local moves = {}
      for r = 1, 3 do for c = 1, 4 do moves[#moves + 1] = { r, c, r, c + 1 } end end
      moves[#moves + 1] = { 1, 1, 2, 1 } -- player 1 opens the top chain (13 moves: player 2 is to move)
      for _, m in ipairs(moves) do assert(g:play(m)) end
      assert.equal(2, g:to_move())
      play(g, { RULES, search_player(opts) })
      assert.same({ 2, 6 }, { g:score() })
    end
  end)

  it("plays loony endgames exactly without the solver (chains, loops, junctions)", function()
    local rng = core.rng(21)
    local me = search_player { solver_edges = 0 }
    for t = 1, 36 do
      local rows, cols = ({ 3, 3, 4 })[t % 3 + 1], ({ 3, 4, 4 })[t % 3 + 1]
      local g = game.new("dots", { rows = rows, cols = cols }, core.rng(t))
      -- Safe moves at random until none is left, then a few moves of any kind.
      while true do
        local safe = {}
        for _, e in ipairs(g:moves()) do
          local completes, thirds = g:board():effect(e)
          if completes == 0 and thirds == 0 then safe[#safe + 1] = e end
        end
        if #safe == 0 then break end
        assert(g:play(safe[rng:random(#safe)]))
      end
      for _ = 1, rng:random(0, 2) do
        if not g:finished() then local moves = g:moves(); assert(g:play(moves[rng:random(#moves)])) end
      end
      if not g:finished() then
        local side = g:to_move()
        local value, start = solved(g:board()), margin(g, side)
        local seats = { SOLVER, SOLVER }
        seats[side] = me
        play(g, seats)
        assert.equal(start + value, margin(g, side), ("position %d"):format(t))
      end
    end
  end)

  it("searches to the end of the game when few safe moves are left", function()
    local rng = core.rng(5)
    local me = search_player { solver_edges = 0, endgame_safe = 6, nodes = 200000 }
    for t = 1, 8 do
      local g = game.new("dots", { size = 3 }, core.rng(t))
      while true do
        local safe = {}
        for _, e in ipairs(g:moves()) do
          local completes, thirds = g:board():effect(e)
          if completes == 0 and thirds == 0 then safe[#safe + 1] = e end
        end
        if #safe <= 4 then break end
        assert(g:play(safe[rng:random(#safe)]))
      end
      local side = g:to_move()
      local value, start = solved(g:board()), margin(g, side)
      local seats = { SOLVER, SOLVER }
      seats[side] = me
      play(g, seats)
      assert.equal(start + value, margin(g, side), ("position %d"):format(t))
    end
  end)

  it("hands over to the exact solver: on 3x3 it plays perfectly", function()
    -- From the empty grid the first player's perfect margin is -3.
    for side = 1, 2 do
      local seats = { SOLVER, SOLVER }
      seats[side] = search_player {}
      local g = play(game.new("dots", { size = 3 }, core.rng(side)), seats)
      assert.equal(-3, margin(g, 1))
    end
    -- From seeded positions: exactly the solved value, never less.
    local rng = core.rng(33)
    for t = 1, 12 do
      local plies = rng:random(2, 14)
      local g = play(game.new("dots", { size = 3 }, core.rng(t)), {}, plies, rng, plies)
      if not g:finished() then
        local side = g:to_move()
        local value, start = solved(g:board()), margin(g, side)
        local seats = { SOLVER, SOLVER }
        seats[side] = search_player {}
        play(g, seats)
        assert.equal(start + value, margin(g, side), ("position %d"):format(t))
      end
    end
    -- On 4x4, once few edges are open.
    for t = 1, 4 do
      local g = play(game.new("dots", { size = 4 }, core.rng(t)), { RULES, RULES }, 4, rng, 16)
      if not g:finished() then
        local side = g:to_move()
        local value, start = solved(g:board()), margin(g, side)
        local seats = { SOLVER, SOLVER }
        seats[side] = search_player { solver_edges = 26 }
        play(g, seats)
        assert.equal(start + value, margin(g, side), ("4x4 position %d"):format(t))
      end
    end
  end)

  it("stops deepening when ctx.time is spent", function()
    local g = game.new("dots", { size = 6 }, core.rng(4))
    local policy = dots_search.new()
    local start = os.clock()
    local move = policy:choose(g:clone(), { time = 0.2, options = {} })
    assert.truthy(g:check(move))
    assert.is_true(os.clock() - start < 2)
  end)

  for _, size in ipairs { 4, 5 } do
    it(("beats dots_rules at least 80 of 100 games on %dx%d"):format(size, size), function()
      -- dots_rules is deterministic: the first two to four plies are random,
      -- and dots_search moves first in half of the games.
      local opts = { depth = 1, solver_safe = 10, solver_nodes = 200000 }
      local me = search_player(opts)
      local wins = 0
      for i = 1, 100 do
        local side = i % 2 + 1
        local seats = { RULES, RULES }
        seats[side] = me
        local rng = core.rng(1000 * size + i)
        local g = play(game.new("dots", { size = size }, core.rng(i)), seats, rng:random(2, 4), rng)
        if margin(g, side) > 0 then wins = wins + 1 end
      end
      assert.is_true(wins >= 80, ("won %d of 100"):format(wins))
    end)
  end
end)
