-- Declared symmetries and rectangular shapes of the learned evaluation
-- (core.evaluator { rows =, cols =, symmetry = }, src/core/pattern.c,
-- docs/decisions.md "Declared symmetries of the pattern evaluation"):
-- the options and their errors, tables per group, no pattern on a
-- rectangle's margin, the value invariant under the group's maps (and only
-- those), files of a rectangle, a board of another shape refused, and the
-- searcher's word path on a rectangle held in 8 x 8.
local core = require "boardscript.core"

local function other(player) return player == "black" and "white" or "black" end

local ALL = { "antitranspose", "flip", "identity", "mirror", "rotate180", "rotate270", "rotate90", "transpose" }
local RECT = { "flip", "identity", "mirror", "rotate180" }

-- Where map `name` takes cell (r, c) of a rows x cols board (1-based).
local function map_cell(name, rows, cols, r, c)
  if name == "identity" then return r, c end
  if name == "mirror" then return r, cols + 1 - c end
  if name == "flip" then return rows + 1 - r, c end
  if name == "rotate180" then return rows + 1 - r, cols + 1 - c end
  if name == "transpose" then return c, r end
  if name == "antitranspose" then return cols + 1 - c, rows + 1 - r end
  if name == "rotate90" then return c, rows + 1 - r end
  if name == "rotate270" then return cols + 1 - c, r end
  error("no map " .. name)
end

local function map_board(b, name)
  local rows, cols = b:rows(), b:cols()
  local out = core.board(rows, cols)
  for r = 1, rows do
    for c = 1, cols do
      local cell = b:get(r, c)
      if cell ~= "empty" then
        local rr, cc = map_cell(name, rows, cols, r, c)
        out:set(rr, cc, cell)
      end
    end
  end
  return out
end

-- A board of random cells (a block now and then).
local function random_board(rng, rows, cols)
  local b = core.board(rows, cols)
  local kinds = { "black", "white", "empty", "empty", "black", "white", "empty", "block" }
  for r = 1, rows do
    for c = 1, cols do
      local kind = kinds[rng:random(rng:random(2) == 1 and 7 or 8)]
      if kind ~= "empty" then b:set(r, c, kind) end
    end
  end
  return b
end

-- An evaluator fitted to random boards with a target no map leaves alone
-- (the discs of the first row count three times, of the first column twice).
local function fitted(opts, seed)
  opts.phases = opts.phases or 2
  local ev = core.evaluator(opts)
  local info = ev:info()
  local tr <close> = core.trainer(ev)
  local rng = core.rng(seed or 7)
  for _ = 1, 1500 do
    local b = random_board(rng, info.rows, info.cols)
    local target = b:count("black") - b:count("white")
    for c = 1, info.cols do target = target + (b:get(1, c) == "black" and 3 or 0) end
    for r = 1, info.rows do target = target + (b:get(r, 1) == "white" and 2 or 0) end
    tr:add(b, "black", target)
  end
  tr:fit { iterations = 8 }
  return ev
end

-- How many of `count` random boards change value under map `name`.
local function changed(ev, name, count, seed)
  local info = ev:info()
  local rng = core.rng(seed or 11)
  local differ = 0
  for i = 1, count do
    local b = random_board(rng, info.rows, info.cols)
    local player = i % 2 == 0 and "black" or "white"
    if ev:evaluate(b, player) ~= ev:evaluate(map_board(b, name), player) then differ = differ + 1 end
  end
  return differ
end

describe("core.evaluator's shape and symmetry", function()
  it("takes rows, cols and a group or a list of maps; info tells them", function()
    local sq <close> = core.evaluator {}
    local info = sq:info()
    assert.same({ 8, 8, 8 }, { info.size, info.rows, info.cols })
    assert.same(ALL, info.symmetry)
    assert.equal("09eb30e1", info.layout) -- as before declared symmetries: shipped files still load
    local rect <close> = core.evaluator { rows = 6, cols = 8 }
    info = rect:info()
    assert.same({ 8, 6, 8 }, { info.size, info.rows, info.cols })
    assert.same(RECT, info.symmetry)
    assert.matches("^evaluator 6 x 8 %(", tostring(rect))
    local function shape(opts)
      local i = core.evaluator(opts):info()
      return { i.size, i.rows, i.cols }
    end
    assert.same({ 8, 8, 6 }, shape { size = 8, cols = 6 })
    assert.same({ 5, 5, 5 }, shape { rows = 5 })
    assert.same({ 7, 4, 7 }, shape { rows = 4, cols = 7 })
    for _, case in ipairs {
      { "none", { "identity" } },
      { "mirror", { "identity", "mirror" } },
      { "flip", { "flip", "identity" } },
      { "rotate180", { "identity", "rotate180" } },
      { {}, { "identity" } },
      { { "rotate90" }, { "identity", "rotate180", "rotate270", "rotate90" } },
      { { "mirror", "transpose" }, ALL },
      { { "mirror", "flip" }, RECT },
    } do
      assert.same(case[2], core.evaluator { size = 6, symmetry = case[1] }:info().symmetry)
    end
    assert.same({ "flip", "identity" }, core.evaluator { rows = 4, cols = 6, symmetry = { "flip" } }:info().symmetry)
  end)

  it("raises naming the field for a bad shape or symmetry", function()
    for _, case in ipairs {
      { { size = 6, cols = 8 }, "(field 'size': 6 for 6 x 8 boards" },
      { { size = 8, rows = 5, cols = 6 }, "field 'size'" },
      { { rows = 2, cols = 8 }, "(field 'rows' out of range 3..26)" },
      { { rows = 6, cols = 27 }, "field 'cols' out of range" },
      { { symmetry = "diagonal" }, "(field 'symmetry': unknown group 'diagonal'" },
      { { symmetry = 8 }, "(field 'symmetry': a group name or a list of map names expected)" },
      { { symmetry = true }, "field 'symmetry'" },
      { { symmetry = { "mirror", "sideways" } }, "(field 'symmetry': item 2 is not a map" },
      { { symmetry = { 1 } }, "(field 'symmetry': item 1 is not a map" },
      { { rows = 6, cols = 8, symmetry = { "transpose" } }, "'transpose' maps a square only, not a 6 x 8 board" },
      { { rows = 6, cols = 8, symmetry = { "mirror", "rotate90" } }, "'rotate90' maps a square only" },
    } do
      local ok, err = pcall(function() return core.evaluator(case[1]) end)
      assert.is_false(ok)
      assert.matches("bad argument #1 to 'evaluator' (", err, 1, true)
      assert.matches(case[2], err, 1, true)
    end
  end)

  it("8 x 8: the same cells in every group, more tables the smaller the group", function()
    local counts = {}
    for _, group in ipairs { "none", "mirror", "square" } do
      counts[group] = core.evaluator { size = 8, symmetry = group, phases = 1 }:info()
    end
    assert.equal(counts.square.instances, counts.none.instances)
    assert.equal(counts.square.instances, counts.mirror.instances)
    assert.equal(counts.none.instances, counts.none.shapes) -- no symmetry: a table an instance
    assert.is_true(counts.none.shapes > counts.mirror.shapes and counts.mirror.shapes > counts.square.shapes)
    assert.is_true(counts.none.weights > counts.mirror.weights and counts.mirror.weights > counts.square.weights)
    assert.equal(11, counts.square.shapes)
    assert.are_not.equal(counts.none.layout, counts.mirror.layout)
  end)

  it("a rectangle's patterns lie on it, its last row's corners have theirs, rows and columns apart", function()
    for _, shape in ipairs { { 6, 8 }, { 8, 6 }, { 3, 7 }, { 10, 4 } } do
      local rows, cols = shape[1], shape[2]
      for _, group in ipairs { "none", "mirror", "flip", "rotate180", "square" } do
        local ev <close> = core.evaluator { rows = rows, cols = cols, symmetry = group, phases = 1 }
        local info = ev:info()
        local corner = {}
        for i = 1, info.instances do
          local _, cells = ev:instance(i)
          for _, cell in ipairs(cells) do
            assert.is_true(cell[1] >= 1 and cell[1] <= rows and cell[2] >= 1 and cell[2] <= cols)
            if #cells == 9 then corner[cell[1] * 100 + cell[2]] = true end
          end
        end
        if rows >= 3 and cols >= 3 then
          for _, at in ipairs { { 1, 1 }, { 1, cols }, { rows, 1 }, { rows, cols } } do
            assert.is_true(corner[at[1] * 100 + at[2]], rows .. " x " .. cols .. " " .. group)
          end
        end
      end
    end
    -- 6 x 8 "square": four maps; the rows of the long sides and the columns of the short ones are tables apart
    local sq <close> = core.evaluator { size = 8, phases = 1 }
    local rect <close> = core.evaluator { rows = 6, cols = 8, phases = 1 }
    assert.is_true(rect:info().shapes > sq:info().shapes)
  end)

  it("square: the value is the same on a position and its image by each of the 8 maps", function()
    local ev <close> = fitted { size = 8 }
    assert.is_true(ev:info().nonzero > 1000)
    for _, name in ipairs(ALL) do
      assert.equal(0, changed(ev, name, 60), name)
    end
  end)

  it("mirror: the same under the mirror, not under the transpose or the flip", function()
    local ev <close> = fitted { size = 8, symmetry = "mirror" }
    assert.equal(0, changed(ev, "mirror", 60))
    assert.is_true(changed(ev, "transpose", 60) > 40)
    assert.is_true(changed(ev, "flip", 60) > 40)
    local none <close> = fitted { size = 8, symmetry = "none" }
    assert.is_true(changed(none, "mirror", 60) > 40)
  end)

  it("6 x 8: the same under its four maps when it is square, under the mirror alone when mirror", function()
    local ev <close> = fitted { rows = 6, cols = 8 }
    for _, name in ipairs(RECT) do
      assert.equal(0, changed(ev, name, 60), name)
    end
    local mirror <close> = fitted { rows = 6, cols = 8, symmetry = "mirror" }
    assert.equal(0, changed(mirror, "mirror", 60))
    assert.is_true(changed(mirror, "flip", 60) > 40)
  end)

  it("a 6 x 8 mirror evaluation saved and loaded is the same, shape and group in its file", function()
    local ev <close> = fitted { rows = 6, cols = 8, symmetry = "mirror" }
    local bytes = ev:save("rules=reversi")
    assert.equal("boardscript-eval 3\nsize 8\nshape 6 8\nsymmetry identity,mirror\n", bytes:sub(1, 61))
    local back, meta = core.evaluator_load(bytes)
    assert.equal("rules=reversi", meta)
    local a, b = ev:info(), back:info()
    for _, key in ipairs { "size", "rows", "cols", "layout", "weights", "nonzero", "shapes", "instances" } do
      assert.equal(a[key], b[key], key)
    end
    assert.same(a.symmetry, b.symmetry)
    assert.equal(bytes, back:save("rules=reversi"))
    assert.equal(bytes, ev:copy():save("rules=reversi"))
    local rng = core.rng(5)
    for _ = 1, 50 do
      local board = random_board(rng, 6, 8)
      assert.equal(ev:evaluate(board, "white"), back:evaluate(board, "white"))
    end
    -- a square "square" one is written as before (version 2)
    assert.equal("boardscript-eval 2\nsize 8\nphases", core.evaluator {}:save():sub(1, 32))
    -- the header names another group: its layout is not the file's
    local edited = bytes:gsub("symmetry identity,mirror\n", "symmetry flip,identity\n\n", 1):gsub("\n\n", "\n", 1)
    local none, why = core.evaluator_load(edited)
    assert.is_nil(none)
    assert.is_string(why)
  end)

  it("refuses a board of another shape, naming the argument", function()
    local ev <close> = core.evaluator { rows = 6, cols = 8, phases = 1 }
    for _, board in ipairs { core.board(8), core.board(8, 6), core.board(6, 7) } do
      local ok, err = pcall(function() return ev:evaluate(board, "black") end)
      assert.is_false(ok)
      -- (a method call: the receiver is not counted)
      assert.matches(("bad argument #1 to 'evaluate' (a %d x %d board for an evaluation of 6 x 8 boards)")
        :format(board:rows(), board:cols()), err, 1, true)
    end
    local sq <close> = core.evaluator { size = 8, phases = 1 }
    local ok, err = pcall(function() return sq:evaluate(core.board(6, 8), "black") end)
    assert.is_false(ok)
    assert.matches("(a 6 x 8 board for an evaluation of 8 x 8 boards)", err, 1, true)
    local tr <close> = core.trainer(ev)
    ok, err = pcall(function() return tr:add(core.board(8), "black", 1) end)
    assert.is_false(ok)
    assert.matches("bad argument #1 to 'add' (a 8 x 8 board for an evaluation of 6 x 8 boards)", err, 1, true)
    -- a data file's cells: 8 x 8 with the margin '#'
    local cells = {}
    for r = 1, 8 do cells[r] = r <= 6 and "x.o.x.o." or "########" end
    tr:add(table.concat(cells), "black", 3)
    assert.equal(1, tr:count())
    cells[7] = "x......."
    ok, err = pcall(function() return tr:add(table.concat(cells), "black", 3) end)
    assert.is_false(ok)
    assert.matches("bad argument #1 to 'add' (cells: the cells past 6 x 8 must be '#')", err, 1, true)
    local s <close> = core.searcher {}
    ok, err = pcall(function() return s:search(core.board(8), "black", { depth = 1, evaluator = ev }) end)
    assert.is_false(ok)
    assert.matches("field 'evaluator': an evaluation of 6 x 8 boards for a 8 x 8 board", err, 1, true)
  end)

  it("the searcher on a 6 x 8 board (the 8 x 8 word path) values as ev:evaluate does", function()
    for _, group in ipairs { "none", "square" } do
      local ev <close> = fitted({ rows = 6, cols = 8, symmetry = group, phases = 3 }, 3)
      local s <close> = core.searcher { tt_mb = 4 }
      local rng = core.rng(9)
      local checked = 0
      while checked < 20 do
        local b = core.board(6, 8)
        b:set(3, 4, "white"); b:set(4, 5, "white"); b:set(3, 5, "black"); b:set(4, 4, "black")
        local player = "black"
        for _ = 1, rng:random(2, 30) do
          local moves = b:moves(player)
          if #moves > 0 then
            local m = moves[rng:random(#moves)]
            b:play(player, m[1], m[2])
          end
          player = other(player)
        end
        local moves, best, ended = b:moves(player), nil, false
        for _, m in ipairs(moves) do
          local child = b:clone()
          child:play(player, m[1], m[2])
          ended = ended or not (child:has_moves("black") or child:has_moves("white"))
          local v = -ev:evaluate(child, other(player))
          if best == nil or v > best then best = v end
        end
        if best and not ended then -- no child the searcher would score exactly
          checked = checked + 1
          local _, v = s:search(b, player, { depth = 1, evaluator = ev })
          assert.equal(best, v)
        end
      end
    end
  end)
end)
