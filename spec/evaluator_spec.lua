-- Learned evaluations from Lua (core.evaluator, core.evaluator_load,
-- core.trainer, src/lua/leval.c): what an evaluator tells of itself, its
-- errors, copies, files; the searcher's `evaluator` option against a plain
-- depth-1 and depth-2 search in Lua over ev:evaluate (8 x 8 by the word
-- path, 6 x 6 by the generic one); and core.evaluator(PATH) from a
-- restricted file.
local core = require "boardscript.core"
local sandbox = require "boardscript.sandbox"
local support = require "support.host"
local spit = support.spit

local function other(player) return player == "black" and "white" or "black" end

-- The start position of an n x n board (n even).
local function start(n)
  local b = core.board(n)
  local h = n // 2
  b:set(h, h, "white"); b:set(h + 1, h + 1, "white"); b:set(h, h + 1, "black"); b:set(h + 1, h, "black")
  return b
end

-- A random game of `plies` plies from the start (passes when stuck): the
-- board and the player to move, or nil when the game ended first.
local function random_position(rng, n, plies, blocks)
  local b = start(n)
  for _ = 1, blocks or 0 do
    local r, c = rng:random(n), rng:random(n)
    if b:get(r, c) == "empty" then b:set(r, c, "block") end
  end
  local player = "black"
  for _ = 1, plies do
    local moves = b:moves(player)
    if #moves == 0 then
      if not b:has_moves(other(player)) then return nil end
    else
      local m = moves[rng:random(#moves)]
      assert(b:play(player, m[1], m[2]))
    end
    player = other(player)
  end
  if not b:has_moves(player) and not b:has_moves(other(player)) then return nil end
  return b, player
end

-- An evaluator of n x n boards fitted to the disc margins of random positions.
local function trained(n, opts, seed)
  opts = opts or {}
  opts.size = n
  local ev = core.evaluator(opts)
  local tr <close> = core.trainer(ev)
  local rng = core.rng(seed or 1)
  while tr:count() < 1500 do
    local b, player = random_position(rng, n, rng:random(n * n - 6), n == 8 and rng:random(0, 2) or 0)
    if b then tr:add(b, player, b:count(player) - b:count(other(player))) end
  end
  tr:fit { iterations = 10 }
  return ev
end

-- The best value for `player` searching `depth` plies in Lua, every leaf
-- valued by `value(board, player)`; nil when the tree reaches the end of
-- the game (the searcher scores that exactly).
local function negamax(value, b, player, depth)
  local moves = b:moves(player)
  if #moves == 0 and not b:has_moves(other(player)) then return nil end
  if depth == 0 then return value(b, player) end
  if #moves == 0 then
    local v = negamax(value, b, other(player), depth - 1)
    return v and -v
  end
  local best
  for _, m in ipairs(moves) do
    local child = b:clone()
    child:play(player, m[1], m[2])
    local v = negamax(value, child, other(player), depth - 1)
    if v == nil then return nil end
    if best == nil or -v > best then best = -v end
  end
  return best
end

-- Scratch files: a directory and a function removing it.
local function scratch()
  return support.scratch_dir()
end

describe("core.evaluator", function()
  it("tells what it is", function()
    local ev <close> = core.evaluator { size = 6, phases = 3 }
    local info = ev:info()
    assert.equal(6, info.size)
    assert.equal(3, info.phases)
    assert.same({ "mobility", "potential", "parity", "anchored" }, info.features)
    assert.equal(255, info.mobility)
    assert.is_true(info.shapes > 3 and info.instances > info.shapes)
    assert.is_true(info.weights > 1000)
    assert.equal(0, info.nonzero)
    assert.matches("^%x%x%x%x%x%x%x%x$", info.layout)
    assert.matches("^evaluator 6 x 6 %(", tostring(ev))
    -- the defaults: 8 x 8, phases by the size
    local big <close> = core.evaluator {}
    assert.equal(8, big:info().size)
    assert.equal(10, big:info().phases)
    assert.are_not.equal(info.layout, big:info().layout)
    -- features and mobility directions
    assert.same({}, core.evaluator { size = 4, features = "none" }:info().features)
    local two = core.evaluator { size = 4, features = { "parity", "mobility" } }
    assert.same({ "mobility", "parity" }, two:info().features)
    local ortho = core.evaluator { size = 4, mobility = "orthogonal" }:info().mobility
    assert.is_true(ortho > 0 and ortho < 255)
    -- the instances: cells on the board, no cell twice
    for i = 1, info.instances do
      local shape, cells = ev:instance(i)
      assert.is_true(shape >= 1 and shape <= info.shapes)
      local seen = {}
      for _, cell in ipairs(cells) do
        assert.is_true(cell[1] >= 1 and cell[1] <= 6 and cell[2] >= 1 and cell[2] <= 6)
        local key = cell[1] * 100 + cell[2]
        assert.is_nil(seen[key])
        seen[key] = true
      end
    end
  end)

  it("raises naming the argument for a bad option or a board of another size", function()
    for _, case in ipairs {
      { { size = 2 }, "(field 'size' out of range 3..26)" },
      { { size = 27 }, "field 'size'" },
      { { phases = 65 }, "field 'phases'" },
      { { features = "some" }, "field 'features'" },
      { { features = { "speed" } }, "field 'features': unknown feature" },
      { { mobility = "up" }, "field 'mobility'" },
    } do
      local ok, err = pcall(function() local ev = core.evaluator(case[1]); return ev end)
      assert.is_false(ok)
      assert.matches("bad argument #1 to 'evaluator' (", err, 1, true)
      assert.matches(case[2], err, 1, true)
    end
    local ev <close> = core.evaluator { size = 8, phases = 1 }
    local ok, err = pcall(function() return ev:evaluate(start(6), "black") end)
    assert.is_false(ok)
    -- (a method call: the receiver is not counted)
    assert.matches("bad argument #1 to 'evaluate' (a 6 x 6 board for an evaluation of 8 x 8 boards)", err, 1, true)
    ok, err = pcall(function() return ev:evaluate(start(8), "red") end)
    assert.is_false(ok)
    assert.matches("bad argument #2 to 'evaluate'", err, 1, true)
    local tr <close> = core.trainer(ev)
    ok, err = pcall(function() return tr:add(start(6), "black", 1) end)
    assert.is_false(ok)
    assert.matches("bad argument #1 to 'add' (a 6 x 6 board for an evaluation of 8 x 8 boards)", err, 1, true)
    ok, err = pcall(function() return tr:add(start(8), "black", 20000) end)
    assert.is_false(ok)
    assert.matches("bad argument #3 to 'add' (target: a margin in discs from -10000 to 10000 expected)", err, 1, true)
    assert.equal(0, tr:count())
  end)

  it("copies are independent", function()
    local ev <close> = trained(6, { phases = 2 })
    local before = ev:save()
    local copy <close> = ev:copy()
    assert.equal(before, copy:save())
    local tr <close> = core.trainer(copy)
    local rng = core.rng(5)
    for _ = 1, 200 do
      local b, player = random_position(rng, 6, 10)
      if b then tr:add(b, player, 30) end
    end
    tr:fit()
    assert.are_not.equal(before, copy:save())
    assert.equal(before, ev:save())
    local b = start(6)
    assert.are_not.equal(ev:evaluate(b, "black"), copy:evaluate(b, "black"))
  end)

  it("saved and loaded, evaluates the same, with its meta text", function()
    local ev <close> = trained(8, { phases = 3 })
    local bytes = ev:save("rules=reversi\nsize=8")
    assert.matches("^boardscript%-eval 2\n", bytes)
    local back, meta = core.evaluator_load(bytes)
    assert.equal("rules=reversi\nsize=8", meta)
    assert.equal(bytes, back:save("rules=reversi\nsize=8"))
    local rng = core.rng(9)
    for _ = 1, 50 do
      local b, player = random_position(rng, 8, rng:random(50), rng:random(0, 2))
      if b then
        assert.equal(ev:evaluate(b, player), back:evaluate(b, player))
        assert.equal(ev:evaluate(b, other(player)), back:evaluate(b, other(player)))
      end
    end
    back:close()
    -- damaged bytes: nil and why
    for _, bad in ipairs { bytes:sub(1, -2), bytes .. "x", bytes:sub(1, 40), "", "hello",
      (bytes:gsub("mobility%-dirs 255", "mobility-dirs 254")), (bytes:gsub("size=8", "size=6")) } do
      local none, why = core.evaluator_load(bad)
      assert.is_nil(none)
      assert.is_string(why)
    end
    local none, why = core.evaluator_load((bytes:gsub("^boardscript%-eval 2", "boardscript-eval 9")))
    assert.is_nil(none)
    assert.matches("another version", why)
  end)

  it("core.evaluator(PATH) reads a file; a missing or wrong one raises one line naming it", function()
    local dir, done = scratch()
    local ev <close> = trained(6, { phases = 2 })
    spit(dir .. "/six.bse", ev:save("rules=reversi"))
    local loaded, meta = core.evaluator(dir .. "/six.bse")
    assert.equal("rules=reversi", meta)
    assert.equal(ev:save(), loaded:save())
    spit(dir .. "/notes.txt", "not an evaluation\n")
    spit(dir .. "/cut.bse", ev:save():sub(1, -5))
    for _, case in ipairs {
      { dir .. "/missing.bse", "cannot open " .. dir .. "/missing.bse: No such file or directory" },
      { dir .. "/notes.txt", "cannot load " .. dir .. "/notes.txt: not an evaluation file" },
      { dir .. "/cut.bse", "cannot load " .. dir .. "/cut.bse: a truncated" },
      { dir, "cannot load " .. dir .. ": not a regular file (a directory)" },
      { "/dev/zero", "cannot load /dev/zero: not a regular file (a device)" },
      { dir .. "/six.bse\0.txt", "a path without a zero byte expected" },
    } do
      local ok, err = pcall(function() return core.evaluator(case[1]) end)
      assert.is_false(ok)
      assert.matches("bad argument #1 to 'evaluator' (" .. case[2], err, 1, true)
      assert.is_nil(err:find("\n", 1, true))
    end
    done()
  end)

  it("cannot close under a trainer; a trainer reports and closes", function()
    local ev = core.evaluator { size = 4, phases = 1 }
    local tr = core.trainer(ev)
    assert.matches("^trainer of 0 positions", tostring(tr))
    tr:add(start(4), "black", 0)
    tr:add(start(4), "white", 0, true)
    assert.equal(2, tr:count())
    assert.equal(1, tr:count(true))
    assert.equal(1, tr:count(false))
    local ok, err = pcall(ev.close, ev)
    assert.is_false(ok)
    assert.matches("cannot close an evaluator a trainer is fitting", err)
    local fit = tr:fit { iterations = 5, shrink = 0 }
    for _, key in ipairs { "train_error", "holdout_error", "holdout_abs", "train", "holdout" } do
      assert.is_number(fit[key])
    end
    assert.same(fit, tr:measure())
    tr:close()
    assert.equal("trainer (closed)", tostring(tr))
    ev:close()
    assert.equal("evaluator (closed)", tostring(ev))
  end)

  it("takes a data file's cells as a string (x: black), the same as a board", function()
    local rng = core.rng(7)
    local cells, boards = {}, {}
    for i = 1, 200 do
      local b = random_position(rng, 6, rng:random(4, 30), rng:random(0, 2))
      if b then
        boards[#boards + 1] = b
        cells[#cells + 1] = (tostring(b):gsub("[XO\n]", { X = "x", O = "o", ["\n"] = "" }))
      end
      assert.truthy(i < 200 or #boards > 100)
    end
    local function fitted(items)
      local ev = core.evaluator { size = 6, phases = 2 }
      local tr = core.trainer(ev)
      for i, item in ipairs(items) do tr:add(item, "black", i % 17 - 8, i % 5 == 0) end
      tr:fit { iterations = 8 }
      return ev:save("same")
    end
    assert.equal(fitted(boards), fitted(cells))
    -- and an evaluator values them as it values the board
    local ev <close> = trained(6, { phases = 2 })
    for i = 1, #boards do
      assert.equal(ev:evaluate(boards[i], "black"), ev:evaluate(cells[i], "black"))
      assert.equal(ev:evaluate(boards[i], "white"), ev:evaluate(cells[i], "white"))
    end
    for _, bad in ipairs { ("."):rep(35), ("."):rep(35) .. "X", ("#"):rep(36) .. "." } do
      local ok, err = pcall(function() return ev:evaluate(bad, "black") end)
      assert.is_false(ok)
      -- (a method call: the receiver is not counted)
      assert.matches("bad argument #1 to 'evaluate' (cells: 36 characters of . x o # expected)", err, 1, true)
    end
    local tr = core.trainer(core.evaluator { size = 6 })
    for _, bad in ipairs { ("."):rep(35), ("."):rep(37), ("."):rep(35) .. "X", ("."):rep(35) .. "\0" } do
      local ok, err = pcall(tr.add, tr, bad, "black", 0)
      assert.is_false(ok)
      assert.matches("cells: 36 characters of %. x o # expected", err)
    end
    assert.equal(0, tr:count())
  end)
end)

describe("the searcher's evaluator option", function()
  local function check_against_lua(ev, n, positions, blocks)
    local s <close> = core.searcher { tt_mb = 4 }
    local rng = core.rng(n)
    local value = function(b, player) return ev:evaluate(b, player) end
    local checked = 0
    while checked < positions do
      local b, player = random_position(rng, n, rng:random(2, n * n - 12), blocks and rng:random(0, 3) or 0)
      local want1 = b and negamax(value, b, player, 1)
      local want2 = b and negamax(value, b, player, 2)
      if want1 and want2 then
        checked = checked + 1
        local move, v1 = s:search(b, player, { depth = 1, evaluator = ev })
        assert.equal(want1, v1)
        if move ~= "pass" then
          local child = b:clone()
          child:play(player, move[1], move[2])
          assert.equal(want1, -ev:evaluate(child, other(player)))
        end
        local _, v2 = s:search(b, player, { depth = 2, evaluator = ev })
        assert.equal(want2, v2)
      end
    end
  end

  it("8 x 8 (the word path, blocks too): the value of a depth-1 and depth-2 search over ev:evaluate", function()
    local ev <close> = trained(8, { phases = 4 })
    check_against_lua(ev, 8, 40, true)
  end)

  it("8 x 8 (the word path): depths 3 and 4, where null windows cut at the frontier, value as a full negamax",
    function()
      local ev <close> = trained(8, { phases = 4 })
      local s <close> = core.searcher { tt_mb = 4 }
      local rng = core.rng(38)
      local value = function(b, player) return ev:evaluate(b, player) end
      local checked = 0
      while checked < 12 do
        local b, player = random_position(rng, 8, rng:random(8, 40), rng:random(0, 2))
        local depth = checked < 8 and 3 or 4
        local want = b and negamax(value, b, player, depth)
        if want then
          checked = checked + 1
          s:clear()
          local _, got = s:search(b, player, { depth = depth, evaluator = ev, endgame = 0, mpc = false })
          assert.equal(want, got, ("depth %d, position %d"):format(depth, checked))
        end
      end
    end)

  it("6 x 6 (the generic path): the same", function()
    local ev <close> = trained(6, { phases = 3 })
    check_against_lua(ev, 6, 40, false)
  end)

  it("an evaluate function still comes first", function()
    local ev <close> = trained(8, { phases = 2 })
    local s <close> = core.searcher { tt_mb = 1 }
    local b = start(8)
    b:play("black", 3, 4)
    local calls = 0
    local count = function(board, player)
      calls = calls + 1
      return 100 * (board:count(player) - board:count(other(player)))
    end
    local _, v = s:search(b, "white", { depth = 2, evaluator = ev, evaluate = count })
    assert.is_true(calls > 0)
    assert.equal(negamax(count, b, "white", 2), v)
    -- and without it, the evaluator again (the table emptied)
    local _, again = s:search(b, "white", { depth = 2, evaluator = ev })
    assert.equal(negamax(function(x, p) return ev:evaluate(x, p) end, b, "white", 2), again)
  end)

  it("a fit, or a new evaluator where a closed one was, empties the table", function()
    local s <close> = core.searcher { tt_mb = 1 }
    local b = start(8)
    b:play("black", 3, 4)
    b:play("white", 3, 3)
    local ev <close> = trained(8, { phases = 2 }, 3)
    s:search(b, "black", { depth = 4, evaluator = ev })
    local tr <close> = core.trainer(ev)
    local rng = core.rng(11)
    for _ = 1, 300 do
      local p, player = random_position(rng, 8, rng:random(30))
      if p then tr:add(p, player, 10) end
    end
    tr:fit()
    local fresh <close> = core.searcher { tt_mb = 1 }
    local _, want = fresh:search(b, "black", { depth = 4, evaluator = ev })
    local _, got = s:search(b, "black", { depth = 4, evaluator = ev })
    assert.equal(want, got)
    -- a new evaluator at the address of a closed one (the allocator reuses
    -- it) was taken for the old one: stale values, and the word path's
    -- tables of a model of fewer phases read past their end
    local bytes = trained(8, { phases = 12 }, 4):save()
    for _ = 1, 5 do
      local old = core.evaluator { size = 8, phases = 1 }
      s:search(b, "black", { depth = 3, evaluator = old })
      old:close()
      local new = core.evaluator_load(bytes)
      local _, reused = s:search(b, "black", { depth = 3, evaluator = new })
      local other_searcher <close> = core.searcher { tt_mb = 1 }
      local _, right = other_searcher:search(b, "black", { depth = 3, evaluator = new })
      assert.equal(right, reused)
      new:close()
    end
  end)

  it("refuses another value, a closed evaluator or another size, naming the options", function()
    local s <close> = core.searcher { tt_mb = 1 }
    local calls = {
      search = function(opts) local move = s:search(start(8), "black", opts); return move end,
      solve = function(opts) local move = s:solve(start(8), "black", opts); return move end,
    }
    local closed = core.evaluator { size = 8, phases = 1 }
    closed:close()
    for _, case in ipairs {
      { 5, "evaluator expected" },
      { {}, "evaluator expected" },
      { core.board(8), "evaluator expected" },
      { closed, "attempt to use a closed evaluator)" },
      { core.evaluator { size = 6, phases = 1 }, "an evaluation of 6 x 6 boards for a 8 x 8 board" },
    } do
      for _, method in ipairs { "search", "solve" } do
        local ok, err = pcall(calls[method], { depth = 1, evaluator = case[1] })
        assert.is_false(ok)
        assert.matches("bad argument #3 to '" .. method .. "' (field 'evaluator': " .. case[2], err, 1, true)
      end
    end
  end)
end)

describe("core.evaluator(PATH) from a restricted file", function()
  local dir, done
  before_each(function()
    dir, done = support.scratch_dir("sub")
    spit(dir .. "/four.bse", core.evaluator { size = 4, phases = 1 }:save("next to the policy"))
    spit(dir .. "/sub/deep.bse", core.evaluator { size = 5, phases = 1 }:save())
  end)
  after_each(function()
    sandbox.trust(false)
    done()
  end)

  local function run(code)
    local path = dir .. "/policy.lua"
    spit(path, code .. "\nreturn true\n")
    local chunk = assert(sandbox.loadfile(path))
    return pcall(chunk)
  end

  it("reads files in its directory and below", function()
    assert(run [[
      local core = require "boardscript.core"
      local ev, meta = core.evaluator("four.bse")
      assert(ev:info().size == 4 and meta == "next to the policy")
      assert(core.evaluator("sub/deep.bse"):info().size == 5)
      assert(core.evaluator("./sub/../four.bse"):info().size == 4)
      assert(core.evaluator { size = 3 }:info().size == 3)
      assert(require("boardscript").core.evaluator("four.bse"))
    ]])
  end)

  it("refuses every other path, naming it", function()
    for _, path in ipairs { "/etc/passwd", "../four.bse", "sub/../../x.bse", "/dev/zero" } do
      local ok, err = run(("require('boardscript.core').evaluator(%q)"):format(path))
      assert.is_false(ok)
      assert.matches(path .. ": reading is allowed only for files in " .. dir .. "/ and below", err, 1, true)
    end
    local ok, err = run [[require('boardscript.core').evaluator("missing.bse")]]
    assert.is_false(ok)
    assert.matches("cannot open " .. dir .. "/missing.bse", err, 1, true)
  end)

  it("a policy file loads the evaluation next to it when the host plays it", function()
    spit(dir .. "/learned.lua", [[
      local core = require "boardscript.core"
      local ev = core.evaluator("four.bse")
      return function(g)
        assert(math.type(ev:evaluate(g:board(), g:to_move())) == "integer")
        return g:moves()[1]
      end
    ]])
    spit(dir .. "/snoop.lua", [[
      require("boardscript.core").evaluator("/etc/passwd")
      return function(g) return g:moves()[1] end
    ]])
    local status, _, err = support.run { "play", "board", "--rules", "reversi", "--size", "4",
      "--black", dir .. "/learned.lua", "--white", "random", "--seed", "1" }
    assert.equal(0, status, err)
    status, _, err = support.run { "play", "board", "--rules", "reversi", "--size", "4",
      "--black", dir .. "/snoop.lua", "--white", "random", "--seed", "1" }
    assert.equal(2, status)
    assert.matches("/etc/passwd: reading is allowed only for files in", err, 1, true)
  end)
end)
