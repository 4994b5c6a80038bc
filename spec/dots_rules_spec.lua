-- The dots rule set, its notation, and the computer players: the seed's
-- four-level rule (seed 001, section 2) and the solver.
local core = require "boardscript.core"
local game = require "boardscript.game"
local notation = require "boardscript.notation.dots"
local rules = require "boardscript.rules"
local dots = require "boardscript.rules.dots"
local dots_rules = require "boardscript.ai.dots_rules"
local dots_solver = require "boardscript.ai.dots_solver"
local players = require "boardscript.players"

-- A position with the edges "a1 a2, b1 b2, ..." drawn in order.
local function position(rows, cols, edges)
  local d = core.dots(rows, cols)
  for text in (edges or ""):gmatch("[^,]+") do assert(d:draw(notation.parse(text)), text) end
  return d
end

local function names(edges)
  local out = {}
  for i, e in ipairs(edges) do out[i] = notation.format(e) end
  return out
end

describe("dots notation", function()
  it("names dots by row letter and column number, the smaller dot first", function()
    assert.equal("a1", notation.dot(1, 1))
    assert.equal("c9", notation.dot(3, 9))
    assert.equal("a1 a2", notation.format { 1, 2, 1, 1 })
    assert.same({ "b1", "c1" }, { notation.dots { 3, 1, 2, 1 } })
  end)

  it("reads a letter and a digit in either order, twice, dropping everything else", function()
    assert.same({ 1, 2, 2, 2 }, notation.parse "2a,B2")
    assert.same({ 1, 1, 1, 2 }, notation.parse "a1 a2")
    assert.same({ 1, 1, 1, 2 }, notation.parse "  a1-->a2!\r")
    assert.same({ 2, 1, 2, 2 }, notation.parse "1b2b")
    assert.same({ 1, 1, 1, 2 }, notation.parse "a12a")
    assert.same({ 26, 0, 1, 9 }, notation.parse "z0 a9") -- checked against the grid later
    for _, bad in ipairs { "", "a1", "a1 a2 a3", "aa12", "11 aa", "ab 12", "a1 a", "a1 \195\169" } do
      assert.is_nil(notation.parse(bad), bad)
    end
  end)

  it("takes Q or q, alone once cleaned, as quitting", function()
    for _, quit in ipairs { "Q", "q", " q ", "(Q)", "Q." } do assert.is_true(notation.is_quit(quit), quit) end
    for _, other in ipairs { "quit", "Qq", "", "a1 a2" } do assert.is_false(notation.is_quit(other), other) end
  end)
end)

describe("rule set dots", function()
  it("loads by name and has every hook", function()
    assert.equal(dots, rules.load("dots"))
  end)

  it("sets up square or rectangular grids, player 1 to move", function()
    local state = dots:setup { size = 4 }
    assert.same({ 4, 4 }, { state.board:rows(), state.board:cols() })
    state = dots:setup { rows = 2, cols = 5 }
    assert.same({ 2, 5 }, { state.board:rows(), state.board:cols() })
    assert.equal(1, state.player)
    assert.equal(3, dots:setup().board:rows())
  end)

  it("keeps the turn after a completed box and hands it over otherwise", function()
    local g = game.new(dots, { size = 1 })
    assert.equal(0, g:play { 1, 1, 1, 2 })
    assert.equal(2, g:to_move())
    g:play { 2, 1, 2, 2 }
    g:play { 1, 1, 2, 1 }
    assert.equal(2, g:to_move())
    assert.equal(1, g:play { 1, 2, 2, 2 })
    assert.equal(2, g:to_move())
    assert.is_true(g:finished())
    assert.same({ 0, 1 }, { g:score() })
    assert.equal(2, dots:winner(g.state))
  end)

  it("refuses moves off the grid, not one edge apart, malformed or already drawn", function()
    local g = game.new(dots, { size = 2 })
    g:play { 1, 1, 1, 2 }
    local cases = {
      { "off the grid", { 4, 1, 4, 2 } }, { "off the grid", { 1, 0, 1, 1 } },
      { "dots not one edge apart", { 1, 1, 2, 2 } }, { "dots not one edge apart", { 1, 1, 1, 1 } },
      { "not an edge", { 1, 1, 1 } }, { "not an edge", "a1 a2" }, { "not an edge", { 1, 1.5, 1, 2 } },
      { "edge already drawn", { 1, 2, 1, 1 } },
    }
    for _, case in ipairs(cases) do
      local ok, why = g:play(case[2])
      assert.is_nil(ok)
      assert.equal(case[1], why)
    end
    assert.equal(2, g:to_move())
    assert.equal(11, #g:moves())
  end)

  it("has no pass: it refuses and changes nothing", function()
    local g = game.new(dots, { size = 2 })
    assert.same({ nil, "there is no passing in Dots and Boxes" }, { g:pass() })
    assert.equal(1, g:to_move())
  end)

  it("undoes back to the start, and clones independently", function()
    local g = game.new(dots, { size = 2 })
    for _, m in ipairs { { 1, 1, 1, 2 }, { 2, 1, 2, 2 }, { 1, 2, 2, 2 }, { 1, 1, 2, 1 } } do g:play(m) end
    local copy = g:clone()
    assert.same({ 0, 1 }, { g:score() })
    assert.equal(2, g:to_move())
    assert.is_true(g:undo())
    assert.same({ 0, 0 }, { g:score() })
    assert.equal(2, g:to_move())
    for _ = 1, 3 do assert.is_true(g:undo()) end
    assert.is_false(g:undo())
    assert.equal(1, g:to_move())
    assert.same({ 0, 1 }, { copy:score() })
  end)
end)

describe("the seed's computer player (dots_rules)", function()
  it("is a built-in player", function()
    assert.equal(dots_rules, players.load("dots_rules").policy)
  end)

  it("completes a box when it can, before anything else (first level)", function()
    local d = position(2, 2, "a1 a2, b1 b2, a1 b1")
    local edges, kind = dots_rules.candidates(d)
    assert.equal("complete", kind)
    assert.same({ "a2 b2" }, names(edges))
    assert.equal("a2 b2", notation.format(dots_rules.choose_edge(d)))
  end)

  it("else gives no box a third side, though a risky edge ranks higher (first level)", function()
    -- box (2,2) of a 3x3 grid has its top and left; its right b3-c3 and
    -- bottom c2-c3 have 7 degrees of freedom, and c2-c3 the smallest column
    -- sum among the edges with 7, but both would give the box a third side
    local d = position(3, 3, "b2 b3, b2 c2")
    local edges, kind = dots_rules.candidates(d)
    assert.equal("safe", kind)
    assert.equal(20, #edges)
    assert.equal(7, dots_rules.freedom(d, { 3, 2, 3, 3 }))
    assert.equal("c3 d3", notation.format(dots_rules.choose_edge(d)))
  end)

  it("else takes any open edge (first level)", function()
    -- the border of a 2x2 grid drawn: every inner edge gives two boxes a third side
    local d = position(2, 2, "a1 a2, a2 a3, a3 b3, b3 c3, c3 c2, c2 c1, c1 b1, b1 a1")
    local edges, kind = dots_rules.candidates(d)
    assert.equal("any", kind)
    assert.equal(4, #edges)
    assert.equal("b1 b2", notation.format(dots_rules.choose_edge(d)))
  end)

  it("prefers the most degrees of freedom (second level)", function()
    -- after b2-b3 on a 3x3 grid only c2-c3 joins two dots with four open edges
    local d = position(3, 3, "b2 b3")
    assert.equal(8, dots_rules.freedom(d, { 3, 2, 3, 3 }))
    assert.equal("c2 c3", notation.format(dots_rules.choose_edge(d)))
  end)

  it("then the smallest sum of column numbers (third level; seed example, first reply)", function()
    -- b1-b2, b2-b3 and b2-c2 all have 7 degrees of freedom; b1-b2's columns sum to 3
    local d = position(2, 2, "a1 a2")
    assert.equal("b1 b2", notation.format(dots_rules.choose_edge(d)))
  end)

  it("then the smallest sum of row numbers (fourth level)", function()
    -- a1-a2 and c1-c2 tie on freedom (5) and columns (3); a1-a2's rows sum to 2
    local d = position(2, 2, "b1 b2, b2 b3")
    assert.equal(5, dots_rules.freedom(d, { 1, 1, 1, 2 }))
    assert.equal(5, dots_rules.freedom(d, { 3, 1, 3, 2 }))
    assert.equal("a1 a2", notation.format(dots_rules.choose_edge(d)))
  end)

  it("plays the seed example's computer moves", function()
    local d = position(2, 2, "a1 a2, b1 b2, a2 b2")
    assert.equal("a1 b1", notation.format(dots_rules.choose_edge(d)))
    d:draw(notation.parse "a1 b1")
    assert.equal("c1 c2", notation.format(dots_rules.choose_edge(d)))
  end)

  it("has no move in a finished game and refuses other games", function()
    assert.is_nil(dots_rules.choose_edge(position(1, 1, "a1 a2, b1 b2, a1 b1, a2 b2")))
    local reversi = game.new(rules.load("reversi"), {})
    assert.has_error(function() dots_rules:choose(reversi) end, "the dots_rules player plays Dots and Boxes only")
  end)
end)

describe("the solver player", function()
  it("is a built-in player that plays perfectly on small grids", function()
    local solver = players.load("solver").policy
    local g = game.new(dots, { size = 2 })
    -- player 1 with perfect play wins 2x2 by 2 against any defence
    while not g:finished() do
      if g:to_move() == 1 then
        g:play(solver:choose(g))
      else
        g:play(dots_rules:choose(g))
      end
    end
    local first, second = g:score()
    assert.is_true(first - second >= 2)
  end)

  it("falls back to the seed's rule beyond its node budget or its 64 edges", function()
    local quick = dots_solver.new { node_limit = 1000, tt_mb = 1 }
    local d = core.dots(4, 4)
    assert.same(dots_rules.choose_edge(d), quick:choose_edge(d))
    local big = core.dots(8, 8)
    assert.same(dots_rules.choose_edge(big), dots_solver:choose_edge(big))
    assert.is_nil(dots_solver:choose_edge(position(1, 1, "a1 a2, b1 b2, a1 b1, a2 b2")))
  end)
end)
