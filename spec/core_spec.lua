-- The capture core through the Lua module: boards, captures, play and undo.
local core = require "boardscript.core"
local boards = require "support.boards"
local misuse = require "support.misuse"

local EMPTY8 = {}
for i = 1, 8 do EMPTY8[i] = ". . . . . . . ." end

local function with(rows, edits)
  local copy = {}
  for i, row in ipairs(rows) do copy[i] = row end
  for r, row in pairs(edits) do copy[r] = row end
  return copy
end

describe("boardscript.core", function()
  it("loads as a module table without touching _G", function()
    local before = {}
    for k in pairs(_G) do before[k] = true end
    package.loaded["boardscript.core"] = nil
    local m = require "boardscript.core"
    assert.is_table(m)
    for k in pairs(_G) do assert.is_true(before[k], "new global " .. tostring(k)) end
    assert.is_string(m.version)
  end)

  describe("boards", function()
    it("are N x N for N = 1..26 and start empty", function()
      for n = 1, 26 do
        local b = core.board(n)
        assert.equal(n, b:size())
        assert.equal(n * n, b:count("empty"))
      end
    end)

    it("are rows x cols: a refused shape is an error naming the argument, never another board", function()
      local b = core.board(6, 7)
      assert.equal(6, b:rows())
      assert.equal(7, b:cols())
      assert.equal(7, b:size())
      assert.equal(42, b:count("empty"))
      assert.equal(0, b:count("block"))
      assert.same({}, b:cells("block"))
      assert.equal(("......." .. "\n"):rep(6), tostring(b))
      local wide = core.board(2, 26)
      assert.equal(2, wide:rows()); assert.equal(26, wide:cols()); assert.equal(52, wide:count("empty"))
      assert.equal(7, core.board(7, 7):rows())
      local ok, err = pcall(core.board, 7, 27)
      assert.is_false(ok)
      assert.matches("bad argument #2 to '[%w.]*board' %(cols out of range 1..26%)", err)
      ok, err = pcall(core.board, 0, 7)
      assert.is_false(ok)
      assert.matches("bad argument #1 to '[%w.]*board' %(rows out of range 1..26%)", err)
      assert.is_false((pcall(core.board, 7, "six")))
      assert.is_false((pcall(core.board, 7, 6.5)))
    end)

    it("of rows x cols: their cells are the rows' and columns', none past them", function()
      local b = core.board(3, 5)
      b:set(3, 5, "black"); b:set(1, 5, "block")
      assert.equal("black", b:get(3, 5))
      assert.equal(1, b:count("block"))
      assert.same({ { 1, 5 } }, b:cells("block"))
      assert.matches("bad argument #2 .*%(row out of range 1..3%)", select(2, pcall(b.get, b, 4, 1)))
      assert.matches("bad argument #3 .*%(column out of range 1..5%)", select(2, pcall(b.set, b, 1, 6, "white")))
      assert.equal(-1, b:code(4, 1))
      assert.equal(-1, b:code(1, 6))
      assert.equal(1, b:code(3, 5))
      local c = b:clone()
      assert.equal(3, c:rows()); assert.equal(5, c:cols())
      assert.is_true(c == b)
      -- a 5 x 5 board with the same cells, and those a 3 x 5 one lacks blocked, is another board
      local square = core.board(5)
      for r = 1, 5 do
        for col = 1, 5 do
          if r > 3 then square:set(r, col, "block") else square:set(r, col, b:get(r, col)) end
        end
      end
      assert.is_false(square == b)
      assert.matches("row out of range", select(2, pcall(b.play, b, "white", 5, 1)))
    end)

    it("of rows x cols play Reversi as a reference written here does, and as the transposed board does", function()
      -- a reference: every direction walked cell by cell on a rows x cols grid
      local function ref_moves(cells, rows, cols, me)
        local op = me == "black" and "white" or "black"
        local list = {}
        for r = 1, rows do
          for c = 1, cols do
            if cells[r][c] == "empty" then
              local flips = {}
              for dr = -1, 1 do
                for dc = -1, 1 do
                  if dr ~= 0 or dc ~= 0 then
                    local run, rr, cc = {}, r + dr, c + dc
                    while rr >= 1 and rr <= rows and cc >= 1 and cc <= cols and cells[rr][cc] == op do
                      run[#run + 1] = { rr, cc }; rr, cc = rr + dr, cc + dc
                    end
                    if #run > 0 and rr >= 1 and rr <= rows and cc >= 1 and cc <= cols and cells[rr][cc] == me then
                      for _, x in ipairs(run) do flips[#flips + 1] = x end
                    end
                  end
                end
              end
              if #flips > 0 then list[#list + 1] = { r, c, flips } end
            end
          end
        end
        return list
      end
      local function ref_perft(cells, rows, cols, me, depth, passed)
        if depth == 0 then return 1 end
        local op = me == "black" and "white" or "black"
        local list = ref_moves(cells, rows, cols, me)
        if #list == 0 then
          if passed then return 1 end
          return ref_perft(cells, rows, cols, op, depth - 1, true)
        end
        local total = 0
        for _, m in ipairs(list) do
          cells[m[1]][m[2]] = me
          for _, x in ipairs(m[3]) do cells[x[1]][x[2]] = me end
          total = total + ref_perft(cells, rows, cols, op, depth - 1, false)
          cells[m[1]][m[2]] = "empty"
          for _, x in ipairs(m[3]) do cells[x[1]][x[2]] = op end
        end
        return total
      end
      for _, shape in ipairs { { 4, 6 }, { 6, 4 }, { 6, 8 }, { 8, 6 }, { 5, 9 }, { 10, 4 } } do
        local rows, cols = shape[1], shape[2]
        local b, t = core.board(rows, cols), core.board(cols, rows)
        local cells = {}
        for r = 1, rows do cells[r] = {} for c = 1, cols do cells[r][c] = "empty" end end
        local r0, c0 = rows // 2, cols // 2
        for _, d in ipairs { { 0, 0, "white" }, { 0, 1, "black" }, { 1, 0, "black" }, { 1, 1, "white" } } do
          b:set(r0 + d[1], c0 + d[2], d[3]); t:set(c0 + d[2], r0 + d[1], d[3])
          cells[r0 + d[1]][c0 + d[2]] = d[3]
        end
        local depth = rows * cols <= 24 and 6 or 4
        local want = ref_perft(cells, rows, cols, "black", depth)
        local name = ("%dx%d depth %d"):format(rows, cols, depth)
        assert.equal(want, b:perft("black", depth), name)
        assert.equal(want, b:perft("black", depth, { generic = true }), name .. " generic")
        assert.equal(want, b:perft("black", depth, { reference = true }), name .. " reference")
        assert.equal(want, t:perft("black", depth), name .. " transposed")
        local listed = {}
        for _, m in ipairs(ref_moves(cells, rows, cols, "black")) do listed[#listed + 1] = { m[1], m[2] } end
        assert.same(listed, b:moves("black"), name .. " moves")
      end
    end)

    it("hold empty, black, white and block cells", function()
      local b = core.board(4)
      b:set(1, 1, "black"); b:set(2, 2, "white"); b:set(4, 4, "block")
      assert.equal("black", b:get(1, 1))
      assert.equal("white", b:get(2, 2))
      assert.equal("block", b:get(4, 4))
      assert.equal("empty", b:get(3, 3))
      b:set(1, 1, "white")
      assert.equal(0, b:count("black"))
      assert.equal(2, b:count("white"))
      assert.same({ { 2, 2 }, { 1, 1 } }, (function()
        local cells = b:cells("white"); table.sort(cells, function(a, c) return a[1] > c[1] end); return cells
      end)())
    end)

    it("give and take cells as small integers (code, set_code): 0 empty, 1 black, 2 white, 3 block", function()
      local b = core.board(4)
      b:set(1, 1, "black"); b:set(2, 2, "white"); b:set(4, 4, "block")
      assert.same({ 1, 2, 3, 0 }, { b:code(1, 1), b:code(2, 2), b:code(4, 4), b:code(3, 3) })
      -- any integers off the board: -1 (a move generator needs no bounds check)
      assert.same({ -1, -1, -1, -1 }, { b:code(0, 1), b:code(1, 5), b:code(-7, 2), b:code(math.maxinteger, 1) })
      b:set_code(3, 3, 2); b:set_code(1, 1, 0)
      assert.equal("white", b:get(3, 3))
      assert.equal("empty", b:get(1, 1))
      assert.has_error(function() b:set_code(1, 1, 4) end, "bad argument #3 to 'set_code' (code out of range 0..3)")
      assert.has_error(function() b:set_code(5, 1, 1) end)
      assert.has_error(function() b:code(1.5, 1) end)
      assert.has_error(function() b.code({}, 1, 1) end)
    end)

    it("clone, compare and hash by contents", function()
      local a = boards.from { "X O . .", ". # . .", ". . . .", ". . . O" }
      local b = a:clone()
      assert.is_true(a == b)
      assert.equal(a:hash(), b:hash())
      b:set(3, 3, "black")
      assert.is_false(a == b)
      assert.are_not.equal(a:hash(), b:hash())
      assert.is_false(a == core.board(5))
      assert.equal("XO..\n.#..\n....\n...O\n", tostring(a))
    end)
  end)

  describe("captures", function()
    -- A white piece in the middle of a ring of black lines, one per direction.
    local star = {
      "O . . O . . O",
      ". X . X . X .",
      ". . X X X . .",
      "O X X . X X O",
      ". . X X X . .",
      ". X . X . X .",
      "O . . O . . O",
    }
    it("flip along all 8 directions at once", function()
      local b = boards.from(star)
      local flipped = b:play("white", 4, 4)
      assert.equal(16, flipped)
      assert.equal(0, b:count("black"))
    end)

    it("flip only along the directions asked for", function()
      local counts = { orthogonal = 8, diagonal = 8, all = 16 }
      for dirs, expected in pairs(counts) do
        local b = boards.from(star)
        assert.equal(expected, (b:flips("white", 4, 4, dirs)))
      end
      local b = boards.from(star)
      for _, d in ipairs { "n", "ne", "e", "se", "s", "sw", "w", "nw" } do
        assert.equal(2, (b:flips("white", 4, 4, { d })), d)
      end
    end)

    it("need a closing piece: an open line does not flip", function()
      local b = boards.from { ". X X .", ". . . .", ". . . .", ". . . ." }
      assert.is_false(b:legal("white", 1, 1))
      local flipped, message = b:play("white", 1, 1)
      assert.is_nil(flipped)
      assert.equal("illegal move", message)
    end)

    it("stop at a block cell", function()
      local b = boards.from { "O X # O", "X . . .", "X . . .", "# . . ." }
      assert.equal(0, (b:flips("white", 1, 1)))
      b = boards.from { ". X # O", "X . . .", "O . . .", ". . . ." }
      assert.equal(1, (b:flips("white", 1, 1)))
      assert.is_false(b:legal("white", 1, 3)) -- a block is never playable
    end)

    it("work along edges and into corners", function()
      local b = boards.from { ". X X O", "X . . .", "X . . .", "O . . ." }
      assert.same({ { 1, 1 } }, b:moves("white"))
      assert.equal(4, b:play("white", 1, 1))
      b = boards.from { "O . . .", ". X . .", ". . X .", ". . . ." }
      assert.equal(2, b:play("white", 4, 4))
    end)

    it("flip the seed's figure 2: white D7 flips D3 to D6", function()
      local before = boards.from(with(EMPTY8, {
        [2] = ". . . O . . . .", [3] = ". . . X O . . .", [4] = ". . X X . . . .",
        [5] = ". X O X O . . .", [6] = ". . . X . . . .",
      }))
      local r, c = boards.square("D7")
      assert.equal(4, before:play("white", r, c))
      assert.same(with(EMPTY8, {
        [2] = ". . . O . . . .", [3] = ". . . O O . . .", [4] = ". . X O . . . .",
        [5] = ". X O O O . . .", [6] = ". . . O . . . .", [7] = ". . . O . . . .",
      }), boards.picture(before))
    end)

    it("flip the seed's figure 3: black F5 flips three lines at once", function()
      local b = boards.from(with(EMPTY8, {
        [3] = ". . O X . X . .", [4] = ". . . X O O . .", [5] = ". . X X O . . .",
        [6] = ". . . . O . . .", [7] = ". . . . O X . .",
      }))
      local r, c = boards.square("F5")
      assert.equal(3, b:play("black", r, c))
      assert.same(with(EMPTY8, {
        [3] = ". . O X . X . .", [4] = ". . . X X X . .", [5] = ". . X X X X . .",
        [6] = ". . . . O . . .", [7] = ". . . . O X . .",
      }), boards.picture(b))
    end)

    it("works on the smallest and largest boards", function()
      local b = boards.from { ". . . .", ". X O .", ". O X .", ". . . ." }
      assert.same({ { 1, 2 }, { 2, 1 }, { 3, 4 }, { 4, 3 } }, b:moves("white"))
      local big = core.board(26)
      for c = 2, 25 do big:set(26, c, "black") end
      big:set(26, 26, "white")
      assert.equal(24, big:play("white", 26, 1))
      assert.equal(26, big:count("white"))
      local diagonal = core.board(26)
      for r = 2, 25 do diagonal:set(r, 27 - r, "black") end
      diagonal:set(1, 26, "white")
      assert.equal(24, (diagonal:flips("white", 26, 1, "diagonal")))
      assert.equal(0, (diagonal:flips("white", 26, 1, "orthogonal")))
    end)

    it("'none' as legal directions makes every empty cell playable", function()
      local b = boards.from { "X . . .", ". . . .", ". . . .", ". . . ." }
      assert.equal(15, #b:moves("white", "none"))
      assert.equal(0, b:play("white", 3, 3, "none"))
      assert.equal("white", b:get(3, 3))
    end)
  end)

  it("hands a generator's state over as text: restored, it draws what the original draws", function()
    local rng = core.rng(11)
    rng:random(100)
    local copy = core.rng(99)
    copy:restore(rng:state())
    for _ = 1, 20 do assert.equal(rng:random(1000), copy:random(1000)) end
    assert.equal(rng:state(), copy:state())
    assert.matches("^%x+$", rng:state())
    assert.has_error(function() copy:restore(("0"):rep(64)) end)
  end)

  describe("play and undo", function()
    it("undo restores the board exactly, move by move", function()
      local b = core.board(8)
      b:set(4, 4, "white"); b:set(5, 5, "white"); b:set(4, 5, "black"); b:set(5, 4, "black")
      local start = b:clone()
      local rng = core.rng(42)
      local snapshots, player = {}, "black"
      for _ = 1, 40 do
        local moves = b:moves(player)
        if #moves > 0 then
          snapshots[#snapshots + 1] = b:clone()
          local m = moves[rng:random(#moves)]
          assert.is_true(b:play(player, m[1], m[2]) > 0)
        end
        player = player == "black" and "white" or "black"
      end
      for i = #snapshots, 1, -1 do
        assert.is_true(b:undo())
        assert.is_true(b == snapshots[i])
      end
      assert.is_false(b:undo())
      assert.is_true(b == start)
    end)
  end)

  describe("misuse", function()
    local b = core.board(8)
    local cases = {
      { "size", function() core.board(27) end },
      { "size", function() core.board(0) end },
      { "number expected", function() core.board("x") end },
      { "row out of range 1..8", function() b:get(0, 1) end },
      { "column out of range 1..8", function() b:get(1, 9) end },
      { "invalid option 'red'", function() b:set(1, 1, "red") end },
      { "invalid option 'green'", function() b:moves("green") end },
      { "unknown direction", function() b:moves("black", { "up" }) end },
      { "unknown direction set", function() b:moves("black", "sideways") end },
      { "direction set expected", function() b:moves("black", 12) end },
      { "#3 to 'perft' (field 'flip': unknown direction", function() b:perft("black", 2, { flip = { "x" } }) end },
      { "#3 to 'perft' (unknown option 'legal_dirs' (expected legal, flip,",
        function() b:perft("black", 2, { legal_dirs = "orthogonal" }) end },
      { "#3 to 'perft' (unknown option number", function() b:perft("black", 2, { "orthogonal" }) end },
      { "#2 to 'moves' (unknown direction", function() b:moves("black", { "n", 5 }) end },
      { "boardscript.board expected", function() core.board(4).get(nil, 1, 1) end },
      { "boardscript.board expected", function() b.play({}, "black", 1, 1) end },
      { "depth out of range", function() b:perft("black", 99) end },
      { "number has no integer representation", function() b:get(1.5, 1) end },
    }
    misuse.describe_cases(it, cases)
  end)

  describe("core.type", function()
    -- every userdata type of the module: a fresh object, and a way to close one
    local function evaluator() return core.evaluator { size = 4 } end
    local made = {
      board = { make = function() return core.board(4) end, close = function(b) getmetatable(b).__close(b) end },
      rng = { make = function() return core.rng(1) end },
      dots = { make = function() return core.dots(1, 1) end },
      cursor = { make = function() return core.cursor(core.board(4), "black") end },
      searcher = { make = function() return core.searcher { tt_mb = 1 } end, close = "close" },
      dots_solver = { make = function() return core.dots_solver { tt_mb = 1 } end, close = "close" },
      evaluator = { make = evaluator, close = "close" },
      trainer = { make = function() return core.trainer(evaluator()) end, close = "close" },
      dgame = { make = function() return core.dgame(require("support.dgame_tables").tictactoe()) end },
      dgame_state = { make = function() return core.dgame(require("support.dgame_tables").tictactoe()):start() end },
      dgame_eval = { make = function()
        return core.dgame_eval(core.dgame(require("support.dgame_tables").tictactoe()):start())
      end },
      dgame_trainer = { make = function()
        return core.dgame_eval(core.dgame(require("support.dgame_tables").tictactoe()):start()):trainer()
      end },
      dgame_searcher = { make = function() return core.dgame_searcher { tt_mb = 1 } end, close = "close" },
    }

    it("names every type of the module, as its metatable does", function()
      for name, mt in pairs(debug.getregistry()) do
        if type(name) == "string" and name:match("^boardscript%.") and type(mt) == "table" then
          local short = name:match("^boardscript%.(.+)$")
          assert.is_table(made[short], "core.type does not know " .. name)
          assert.equal(mt, getmetatable(made[short].make()))
        end
      end
      for short, t in pairs(made) do
        assert.equal(short, core.type(t.make()))
      end
    end)

    it("says 'closed TYPE' for a closed object, as io.type says 'closed file'", function()
      for short, t in pairs(made) do
        local object = t.make()
        if t.close == "close" then
          object:close()
        elseif t.close then
          t.close(object)
        end
        assert.equal(t.close and "closed " .. short or short, core.type(object))
      end
      local kept
      do
        local b <close> = core.board(4)
        kept = b
      end
      assert.equal("closed board", core.type(kept))
    end)

    it("answers fail for anything else, a table carrying a core __name included", function()
      local fake = setmetatable({}, { __name = "boardscript.board", __index = core.board(4) })
      for _, value in ipairs { false, true, 0, 2.5, "board", "boardscript.board", {}, fake, print, io.stdout,
        coroutine.create(print), core } do
        assert.is_nil(core.type(value), tostring(value))
      end
      assert.is_nil(core.type(nil))
      assert.equal("file", io.type(io.stdout)) -- (its model)
      assert.has_error(function() core.type() end, "bad argument #1 to 'type' (value expected)")
    end)
  end)
end)

describe("direction sets that are not symmetric (found by fuzzing)", function()
  it("mean the direction from the move: the move list and legal agree", function()
    local b = core.board(3)
    b:set(1, 2, "white"); b:set(1, 3, "black")
    assert.is_true(b:legal("black", 1, 1, { "e" }))
    assert.same({ { 1, 1 } }, b:moves("black", { "e" }))
    assert.same({}, b:moves("black", { "w" }))
    local rng = core.rng(3)
    local names = core.directions("all")
    for _ = 1, 200 do
      local n = rng:random(3, 10)
      local x = core.board(n)
      for r = 1, n do
        for c = 1, n do
          local k = rng:random(4)
          if k == 1 then x:set(r, c, "black") elseif k == 2 then x:set(r, c, "white") end
        end
      end
      local dirs = {}
      for _, name in ipairs(names) do
        if rng:random(2) == 1 then dirs[#dirs + 1] = name end
      end
      if #dirs > 0 then
        local listed = {}
        for _, m in ipairs(x:moves("black", dirs)) do listed[m[1] * 100 + m[2]] = true end
        for r = 1, n do
          for c = 1, n do
            assert.equal(x:legal("black", r, c, dirs), listed[r * 100 + c] == true,
              ("size %d at %d,%d dirs %s"):format(n, r, c, table.concat(dirs, ",")))
          end
        end
      end
    end
  end)

  it("an exact solve of a game that can pass for ever gives up instead of crashing", function()
    local m, v, info = core.searcher { tt_mb = 1 }:solve(core.board(1), "black",
      { game = { legal = "none", flip = "none", pass = "anytime", ending = "no-moves", misere = true } })
    assert.is_not_nil(m)
    assert.is_number(v)
    assert.is_false(info.exact)
  end)
end)
