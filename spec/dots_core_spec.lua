-- The Dots and Boxes core through the Lua module: positions, edges, owners,
-- undo, chains, misuse, and the exact solver.
local core = require "boardscript.core"
local misuse = require "support.misuse"

-- A position with the edges "r1 c1 r2 c2, ..." drawn in order.
local function position(rows, cols, edges)
  local d = core.dots(rows, cols)
  for r1, c1, r2, c2 in (edges or ""):gmatch("(%d+) (%d+) (%d+) (%d+)") do
    assert(d:draw(tonumber(r1), tonumber(c1), tonumber(r2), tonumber(c2)))
  end
  return d
end

describe("boardscript.dots", function()
  describe("positions", function()
    it("have rows x cols boxes and 2rc + r + c edges, all open, player 1 to move", function()
      for rows = 1, 16 do
        for _, cols in ipairs { 1, 5, 16 } do
          local d = core.dots(rows, cols)
          assert.equal(rows, d:rows())
          assert.equal(cols, d:cols())
          assert.equal(2 * rows * cols + rows + cols, d:edge_count())
          assert.equal(d:edge_count(), #d:open_edges())
          assert.equal(1, d:turn())
          assert.is_false(d:finished())
        end
      end
    end)

    it("list open edges with the smaller dot first, horizontals row by row, then verticals", function()
      assert.same({
        { 1, 1, 1, 2 }, { 2, 1, 2, 2 }, { 1, 1, 2, 1 }, { 1, 2, 2, 2 },
      }, core.dots(1, 1):open_edges())
    end)

    it("take an edge's dots in either order, as four integers or one table", function()
      local d = core.dots(2, 2)
      assert.equal(0, d:draw(1, 2, 1, 1))
      assert.is_true(d:is_drawn(1, 1, 1, 2))
      assert.is_true(d:is_drawn { 1, 2, 1, 1 })
      assert.equal(0, d:draw { 3, 1, 2, 1 })
      assert.same({ { 1, 1, 1, 2 }, { 2, 1, 3, 1 } }, d:history())
    end)

    it("count sides, open edges at each dot and boxes completed", function()
      local d = position(2, 2, "1 1 1 2, 2 1 2 2, 1 2 2 2")
      assert.equal(3, d:box_sides(1, 1))
      assert.equal(1, d:box_sides(1, 2))
      assert.equal(1, d:box_sides(2, 1))
      assert.equal(0, d:box_sides(2, 2))
      assert.equal(1, d:degree(1, 1))
      assert.equal(1, d:degree(1, 2))
      assert.equal(2, d:degree(2, 2))
      assert.equal(3, d:degree(2, 3))
      assert.equal(2, d:degree(3, 3))
      local completes, thirds = d:effect(1, 1, 2, 1)
      assert.equal(1, completes)
      assert.equal(0, thirds)
      assert.same({ 0, 0 }, { d:effect(2, 2, 3, 2) })
      -- the middle of a 1x2 grid with both boxes' tops and bottoms drawn
      assert.same({ 0, 2 }, { position(1, 2, "1 1 1 2, 1 2 1 3, 2 1 2 2, 2 2 2 3"):effect(1, 2, 2, 2) })
      assert.same({ nil, "edge already drawn" }, { d:effect(1, 1, 1, 2) })
    end)

    it("give a completed box to the mover, who moves again (seed 001, section 1)", function()
      local d = position(2, 2, "1 1 1 2, 2 1 2 2, 1 2 2 2")
      assert.equal(2, d:turn())
      assert.is_nil(d:box_owner(1, 1))
      assert.equal(1, d:draw(1, 1, 2, 1))
      assert.equal(2, d:box_owner(1, 1))
      assert.equal(2, d:turn())
      assert.same({ 0, 1 }, { d:score() })
      assert.equal("+-+ +\n|2|  \n+-+ +\n     \n+ + +\n", tostring(d))
    end)

    it("complete two boxes with one edge", function()
      local d = position(1, 2, "1 1 1 2, 2 1 2 2, 1 1 2 1, 1 2 1 3, 2 2 2 3, 1 3 2 3")
      assert.equal(2, d:draw(1, 2, 2, 2))
      assert.same({ 2, 0 }, { d:score() })
      assert.is_true(d:finished())
      assert.equal(1, d:turn())
    end)

    it("refuse an edge already drawn, leaving the position unchanged", function()
      local d = position(2, 2, "1 1 1 2")
      local before = d:clone()
      assert.same({ nil, "edge already drawn" }, { d:draw(1, 2, 1, 1) })
      assert.is_true(d == before)
      assert.equal(1, #d:history())
    end)

    it("undo edge by edge back to the empty grid, restoring owners, scores and turns", function()
      local d = core.dots(3, 4)
      local rng = core.rng(7)
      local snapshots = {}
      while not d:finished() do
        snapshots[#snapshots + 1] = d:clone()
        local open = d:open_edges()
        d:draw(open[rng:random(#open)])
      end
      local a, b = d:score()
      assert.equal(12, a + b)
      for i = #snapshots, 1, -1 do
        local edge = d:undo()
        assert.equal(4, #edge)
        assert.is_true(d == snapshots[i])
        assert.equal(snapshots[i]:turn(), d:turn())
        assert.same({ snapshots[i]:score() }, { d:score() })
        assert.equal(snapshots[i]:hash(), d:hash())
      end
      assert.is_false(d:undo())
      assert.is_true(d == core.dots(3, 4))
    end)

    it("clone, compare and hash by edges, owners and turn", function()
      local a = position(2, 3, "1 1 1 2, 2 2 3 2")
      local b = a:clone()
      assert.is_true(a == b)
      assert.equal(a:hash(), b:hash())
      b:draw(1, 1, 2, 1)
      assert.is_false(a == b)
      assert.are_not.equal(a:hash(), b:hash())
      assert.is_false(a == core.dots(3, 2))
      assert.is_false(core.dots(2, 2) == core.board(4))
      -- the same edges drawn in another order are the same position
      assert.is_true(position(2, 2, "1 1 1 2, 3 1 3 2") == position(2, 2, "3 1 3 2, 1 1 1 2"))
    end)
  end)

  describe("chains", function()
    it("find a chain of two-sided boxes running to the ground", function()
      -- the top row of a 2x3 grid with its top and bottom sides drawn
      local d = position(2, 3, "1 1 1 2, 1 2 1 3, 1 3 1 4, 2 1 2 2, 2 2 2 3, 2 3 2 4")
      local chains = d:chains()
      assert.equal(1, #chains)
      local chain = chains[1]
      assert.equal("chain", chain.kind)
      assert.equal(3, chain.length)
      assert.same({ { 1, 1 }, { 1, 2 }, { 1, 3 } }, chain.boxes)
      assert.is_true(chain.ends[1].ground)
      assert.is_true(chain.ends[2].ground)
      local ends = { chain.ends[1].edge, chain.ends[2].edge }
      table.sort(ends, function(x, y) return x[2] < y[2] end)
      assert.same({ { 1, 1, 2, 1 }, { 1, 4, 2, 4 } }, ends)
    end)

    it("find a loop: the four boxes of a 2x2 grid inside a drawn border", function()
      local d = position(2, 2, "1 1 1 2, 1 2 1 3, 3 1 3 2, 3 2 3 3, 1 1 2 1, 2 1 3 1, 1 3 2 3, 2 3 3 3")
      local chains = d:chains()
      assert.equal(1, #chains)
      assert.equal("loop", chains[1].kind)
      assert.equal(4, chains[1].length)
      assert.same({}, chains[1].ends)
    end)

    it("end a chain at a box with another number of sides", function()
      -- box (1,1) has two sides, box (1,2) none
      local d = position(1, 2, "1 1 1 2, 2 1 2 2")
      local chain = d:chains()[1]
      assert.equal(1, chain.length)
      local boxes = {}
      for _, e in ipairs(chain.ends) do
        if e.box then boxes[#boxes + 1] = e.box end
      end
      assert.same({ { 1, 2 } }, boxes)
    end)
  end)

  describe("misuse", function()
    local d = core.dots(2, 3)
    local cases = {
      { "#1 to 'dots' (rows out of range 1..16)", function() core.dots(0, 3) end },
      { "#2 to 'dots' (columns out of range 1..16)", function() core.dots(3, 17) end },
      { "#1 to 'draw' (row out of range 1..3)", function() d:draw(0, 1, 1, 1) end },
      { "#2 to 'draw' (column out of range 1..4)", function() d:draw(1, 5, 1, 4) end },
      { "#3 to 'draw' (row out of range 1..3)", function() d:draw(3, 1, 4, 1) end },
      { "#3 to 'draw' (dots are not one edge apart)", function() d:draw(1, 1, 2, 2) end },
      { "#3 to 'draw' (dots are not one edge apart)", function() d:draw(1, 1, 1, 1) end },
      { "#3 to 'is_drawn' (dots are not one edge apart)", function() d:is_drawn(1, 1, 1, 3) end },
      { "#1 to 'draw' (field 3: row out of range 1..3)", function() d:draw { 1, 1, 4, 1 } end },
      { "#1 to 'effect' (edge {r1, c1, r2, c2} expected, field 4 is not an integer",
        function() d:effect { 1, 1, 1 } end },
      { "#4 to 'draw' (number expected, got no value)", function() d:draw(1, 1, 1) end },
      { "#1 to 'box_owner' (row out of range 1..2)", function() d:box_owner(3, 1) end },
      { "#2 to 'box_sides' (column out of range 1..3)", function() d:box_sides(1, 4) end },
      { "#2 to 'degree' (column out of range 1..4)", function() d:degree(1, 5) end },
      { "number has no integer representation", function() d:degree(1.5, 1) end },
      { "boardscript.dots expected", function() d.turn(core.board(4)) end },
      { "#1 to 'solve' (field 'tt_mb' out of range 1..65536)", function() d:solve { tt_mb = 0 } end },
      { "#1 to 'solve' (field 'nodes': integer expected)", function() d:solve { nodes = "x" } end },
      { "#1 to 'best_move' (field 'time' out of range 0..inf)", function() d:best_move { time = -1 } end },
      -- the names before issue 20: an error naming the new one, never a limit silently dropped
      { "#1 to 'solve' (field 'node_limit' is now 'nodes')", function() d:solve { node_limit = 10 } end },
      { "#1 to 'best_move' (field 'seconds' is now 'time')", function() d:best_move { seconds = 1 } end },
      { "#1 to 'dots_solver' (field 'node_limit' is now 'nodes')", function() core.dots_solver { node_limit = 1 } end },
      { "#2 to 'value' (field 'seconds' is now 'time')", function() core.dots_solver():value(d, { seconds = 1 }) end },
      { "#2 to 'best' (field 'node_limit' is now 'nodes')",
        function() core.dots_solver():best(d, { node_limit = 0 }) end },
      { "#1 to 'dots_solver' (table expected", function() core.dots_solver(5) end },
      { "#1 to 'value' (boardscript.dots expected", function() core.dots_solver():value(core.board(4)) end },
    }
    misuse.describe_cases(it, cases)

    it("refuses a closed solver", function()
      local s = core.dots_solver { tt_mb = 1 }
      s:close()
      assert.has_error(function() s:value(core.dots(1, 1)) end,
        "calling 'value' on bad self (attempt to use a closed dots_solver)")
      assert.equal("dots_solver (closed)", tostring(s))
    end)
  end)

  describe("solver", function()
    -- First player's margin with perfect play from the empty grid.
    local known = { ["1x1"] = -1, ["1x2"] = 0, ["2x2"] = 2, ["2x3"] = -2, ["3x2"] = -2, ["3x3"] = -3 }
    for size, margin in pairs(known) do
      it(("gives the known value of the empty %s grid: %+d"):format(size, margin), function()
        local rows, cols = size:match("(%d)x(%d)")
        local value, nodes = core.dots(tonumber(rows), tonumber(cols)):solve { tt_mb = 16 }
        assert.equal(margin, value)
        assert.is_true(nodes > 0)
      end)
    end

    it("values the boxes still to win for the player to move", function()
      -- player 2 has taken box (1,1) of a 1x2 grid and must move on
      local d = position(1, 2, "1 1 1 2, 2 1 2 2, 1 2 2 2, 1 1 2 1")
      assert.same({ 0, 1 }, { d:score() })
      assert.equal(2, d:turn())
      -- three edges of box (1,2) are open: whoever draws the second loses it
      assert.equal(1, (d:solve()))
      assert.equal(0, (position(1, 1, "1 1 1 2, 2 1 2 2, 1 1 2 1, 1 2 2 2"):solve()))
    end)

    it("gives an optimal move that keeps the value", function()
      local d = core.dots(2, 2)
      local edge, value = d:best_move()
      assert.equal(2, value)
      local completed = d:draw(edge)
      local after = d:solve()
      assert.equal(value, completed > 0 and after or -after)
      assert.same({ nil, "game over" }, { position(1, 1, "1 1 1 2, 2 1 2 2, 1 1 2 1, 1 2 2 2"):best_move() })
    end)

    it("keeps its table between calls and stops at a node limit", function()
      local s = core.dots_solver { tt_mb = 8 }
      local v1, n1 = s:value(core.dots(3, 3))
      local v2, n2 = s:value(core.dots(3, 3))
      assert.equal(-3, v1)
      assert.equal(v1, v2)
      assert.is_true(n2 < n1)
      assert.equal(n1 + n2, s:nodes())
      local value, why, nodes = s:value(core.dots(4, 4), { nodes = 5000 })
      assert.is_nil(value)
      assert.equal("stopped", why)
      assert.is_true(nodes >= 5000 and nodes < 5000 + 8192)
      assert.equal("stopped", select(2, s:value(core.dots(4, 4), { time = 0.05 })))
      assert.equal(-3, (s:value(core.dots(3, 3), { time = math.huge })))
      local edge, best = s:best(core.dots(2, 2))
      assert.equal(4, #edge)
      assert.equal(2, best)
    end)

    it("declines grids with more than 64 edges", function()
      assert.equal(64, core.dots_solver_max_edges)
      local value, why = core.dots(6, 6):solve()
      assert.is_nil(value)
      assert.equal("grid too large for the solver (84 edges, at most 64)", why)
    end)
  end)
end)
