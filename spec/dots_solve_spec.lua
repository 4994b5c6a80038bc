-- The exact Dots and Boxes solver from Lua: what a stopped search has
-- proved (the bounds returned after "stopped"), and values that do not
-- depend on the table size or on the grid's orientation.
local core = require "boardscript.core"

-- A position of `rows` x `cols` boxes with the edges `spec` drawn ("r1 c1
-- r2 c2, ..." with 1-based dots).
local function position(rows, cols, spec)
  local d = core.dots(rows, cols)
  for r1, c1, r2, c2 in spec:gmatch("(%d+) (%d+) (%d+) (%d+)") do
    assert(d:draw({ tonumber(r1), tonumber(c1), tonumber(r2), tonumber(c2) }))
  end
  return d
end

describe("dots solver", function()
  it("returns the bounds a stopped search proved, and they hold the value", function()
    local d = core.dots(3, 3)
    local value = assert(d:solve { tt_mb = 4 })
    assert.equal(-3, value)
    local limit, narrowed, stops = 1000, false, 0
    while true do
      local v, why, nodes, lo, hi = d:solve { tt_mb = 4, nodes = limit }
      if v ~= nil then
        assert.equal(value, v)
        break
      end
      stops = stops + 1
      assert.equal("stopped", why)
      assert.is_true(nodes >= limit)
      assert.is_true(-9 <= lo and lo <= value and value <= hi and hi <= 9,
        ("[%d, %d] at %d nodes"):format(lo, hi, limit))
      -- the values of nine boxes are odd
      assert.equal(1, lo % 2)
      assert.equal(1, hi % 2)
      narrowed = narrowed or lo > -9 or hi < 9
      limit = limit * 2
    end
    assert.is_true(stops > 0)
    assert.is_true(narrowed)
  end)

  it("gives the same values with any table size and in every orientation", function()
    -- a 3x4 middle game and its images: turned over, mirrored, both, and
    -- with the two border edges of a corner box swapped
    local spec = "1 1 1 2, 2 2 2 3, 3 4 3 5, 2 1 3 1, 4 2 4 3, 1 4 2 4, 2 5 3 5, 3 3 4 3"
    local function image(flip_rows, flip_cols)
      local edges = {}
      for r1, c1, r2, c2 in spec:gmatch("(%d+) (%d+) (%d+) (%d+)") do
        r1, c1, r2, c2 = tonumber(r1), tonumber(c1), tonumber(r2), tonumber(c2)
        if flip_rows then r1, r2 = 5 - r1, 5 - r2 end
        if flip_cols then c1, c2 = 6 - c1, 6 - c2 end
        edges[#edges + 1] = ("%d %d %d %d"):format(r1, c1, r2, c2)
      end
      return position(3, 4, table.concat(edges, ", "))
    end
    local want = assert(image(false, false):solve { tt_mb = 64 })
    for _, flips in ipairs { { false, false }, { true, false }, { false, true }, { true, true } } do
      for _, mb in ipairs { 1, 16 } do
        assert.equal(want, (image(flips[1], flips[2]):solve { tt_mb = mb }))
      end
    end
    -- corner box (1,1): its top edge drawn, or its left edge instead
    local top = position(3, 4, "1 1 1 2, 2 2 2 3, 3 3 4 3")
    local left = position(3, 4, "1 1 2 1, 2 2 2 3, 3 3 4 3")
    assert.equal((top:solve { tt_mb = 16 }), (left:solve { tt_mb = 16 }))
  end)

  it("sizes solve dots' default table from the grid, a node limit and the machine's memory", function()
    local table_mb = require("boardscript.ai.dots_solver").table_mb
    local big = 65536 -- MiB of memory
    assert.same({ 4, 4, 64, 1024, 4096 }, { table_mb(12, nil, big), table_mb(24, nil, big), table_mb(31, nil, big),
                                            table_mb(40, nil, big), table_mb(49, nil, big) })
    -- a quarter of the memory at most, 4 at least
    assert.same({ 512, 4, 4 }, { table_mb(40, nil, 2048), table_mb(40, nil, 8), table_mb(24, nil, 8) })
    -- a node limit needs at most 8 bytes a node, in powers of two
    assert.same({ 4, 4, 8, 1024, 64 }, { table_mb(40, 1000, big), table_mb(40, 524288, big),
      table_mb(40, 524289, big), table_mb(40, 1e12, big), table_mb(31, 1e12, big) })
    -- and this machine's memory is read: the 4 x 4 default is a power of two from 4 to 1024
    local here = table_mb(40)
    assert.truthy(here >= 4 and here <= 1024 and here & (here - 1) == 0, tostring(here))
  end)

  it("solve dots --time stops the search after that much CPU time, with status 1", function()
    local bin = assert(os.getenv("BOARDSCRIPT_BIN"), "BOARDSCRIPT_BIN is set by ctest")
    local pipe = assert(io.popen(("'%s' solve dots --size 4x4 --time 0.3 2>&1"):format(bin)))
    local out = pipe:read("a")
    local _, _, status = pipe:close()
    assert.equal(1, status)
    local seconds = tonumber(out:match("^solve dots 4x4: stopped after %d+ nodes, ([%d.]+) s %(no value%)\n"))
    assert.is_truthy(seconds, out)
    -- CPU time, checked loosely: it stopped, and not long after the limit
    assert.is_true(seconds >= 0.3 and seconds < 30, out)
    -- a solve that finishes first is unaffected by the limit
    pipe = assert(io.popen(("'%s' solve dots --size 3x3 --time 60"):format(bin)))
    out = pipe:read("a")
    assert.matches("^solve dots 3x3: first player's margin %-3, %d+ nodes", out)
    assert.is_true(pipe:close())
  end)
end)
