-- core.dgame: the C engine of described games (issue 29, contract section 3),
-- fed normalised tables built by hand (spec/support/dgame_tables.lua).
local core = require "boardscript.core"
local T = require "support.dgame_tables"

local function start(t)
  return core.dgame(t):start()
end

local function perfts(S, depth)
  local out = {}
  for d = 1, depth do
    out[d] = S:perft(d)
  end
  return out
end

-- The move whose text is `text` (must be legal).
local function play(S, text)
  local m = S:parse_move(text)
  assert(m, "not a legal move: " .. text)
  assert.is_true(S:play(m))
end

local function texts(S)
  local out = {}
  local moves = S:moves()
  for i, m in ipairs(moves) do
    out[i] = S:move_text(m)
  end
  return out
end

-- A normalised table of a small board with the given cells ("a1" = code).
local function board(t, rows, cols, pieces)
  t.rows, t.cols = rows, cols
  t.cells = T.empty(rows, cols)
  for name, code in pairs(pieces or {}) do
    t.cells[T.cell(name, cols) + 1] = code
  end
  t.kinds = t.kinds or { "stone" }
  t.ends = t.ends or {}
  return t
end

describe("core.dgame", function()
  describe("perft tables of the contract", function()
    it("tic-tac-toe to 9", function()
      assert.same({ 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872 }, perfts(start(T.tictactoe()), 9))
    end)
    it("Connect Four to 7", function()
      assert.same({ 7, 49, 343, 2401, 16807, 117649, 823536 }, perfts(start(T.connect4()), 7))
    end)
    it("Breakthrough to 4", function()
      assert.same({ 22, 484, 11132, 256036 }, perfts(start(T.breakthrough()), 4))
    end)
    it("English draughts to 8", function()
      assert.same({ 7, 49, 302, 1469, 7361, 36768, 179740, 845931 }, perfts(start(T.draughts()), 8))
    end)
    it("Amazons 10 x 10 to 2", function()
      assert.same({ 2176, 4307152 }, perfts(start(T.amazons()), 2))
    end)
    it("Gomoku 15 x 15 to 2; five in a row wins, six only when at least five", function()
      assert.same({ 225, 50400 }, perfts(start(T.gomoku()), 2))
      for _, exact in ipairs { false, true } do
        local S = start(T.gomoku(15, exact))
        for _, m in ipairs { "a1", "a3", "b1", "b3", "c1", "c3", "e1", "e3", "f1", "f3" } do play(S, m) end
        assert.is_nil(S:status())
        play(S, "d1") -- a1..f1: six
        assert.equal(not exact and "black" or nil, S:status())
      end
      local S = start(T.gomoku(15, true))
      for _, m in ipairs { "a1", "a3", "b1", "b3", "c1", "c3", "d1", "d3" } do play(S, m) end
      play(S, "e1")
      assert.equal("black", S:status())
    end)
    it("Hex 11 x 11 to 2, and 14641 with the swap", function()
      assert.same({ 121, 14520 }, perfts(start(T.hex()), 2))
      assert.same({ 121, 14641 }, perfts(start(T.hex(11, true)), 2))
    end)
    it("Ataxx: clones listed once per origin (no deduplication), the standard table once per target", function()
      local S = start(T.ataxx())
      assert.same({ 16, 256, 6652, 165656 }, perfts(S, 4))
      -- the standard table counts a clone (rule 1) once per target cell
      local function perft(d)
        if S:finished() then return 0 end
        local moves, n = S:moves()
        if n == 0 then
          if d == 1 then return 1 end
          assert(S:pass())
          local r = perft(d - 1)
          S:undo()
          return r
        end
        local seen, total = {}, 0
        for _, m in ipairs(moves) do
          local key = (m >> 20) & 31 == 0 and -((m >> 10) & 1023) - 1 or m
          if not seen[key] then
            seen[key] = true
            if d == 1 then
              total = total + 1
            else
              S:play(m)
              total = total + perft(d - 1)
              S:undo()
            end
          end
        end
        return total
      end
      assert.same({ 16, 256, 6460, 155888 }, { perft(1), perft(2), perft(3), perft(4) })
    end)
  end)

  it("perft 1 (counted by popcounts where it can) equals the number of moves, along random games", function()
    for _, make in ipairs { T.breakthrough, T.ataxx, T.connect4, T.tictactoe, T.draughts } do
      local S, rng = start(make()), core.rng(11)
      for _ = 1, 80 do
        if S:finished() then break end
        local moves, n = S:moves()
        assert.equal(n == 0 and 1 or n, S:perft(1))
        if n == 0 then assert(S:pass()) else S:play(moves[rng:random(n)]) end
      end
    end
  end)

  describe("ends", function()
    local function row_game(k, exact, pieces)
      return board({ rules = { { op = "place", kind = 1, at = "empty" } },
        ends = { { op = "line", k = k, exact = exact, axes = T.dirs("n ne e se") } } }, 1, 9, pieces)
    end
    it("line: at least k through the placed cell, or exactly k", function()
      local S = start(row_game(3, false, { a1 = 1, b1 = 1, d1 = 1, e1 = 1 }))
      play(S, "c1")
      assert.equal("black", S:status())
      S = start(row_game(3, true, { a1 = 1, b1 = 1, d1 = 1, e1 = 1 }))
      play(S, "c1")
      assert.is_nil(S:status())
      S = start(row_game(3, true, { a1 = 1, b1 = 1, e1 = 1 }))
      play(S, "c1")
      assert.equal("black", S:status())
      S = start(row_game(3, false, { a1 = 2, b1 = 2 }))
      play(S, "c1") -- black's stone does not make white's run
      assert.is_nil(S:status())
    end)
    it("connect: hex neighbours join a group, orthogonal ones do not", function()
      local S = start(T.hex(3))
      for _, m in ipairs { "b1", "c3", "a2", "c2" } do play(S, m) end
      assert.is_nil(S:status())
      play(S, "a3") -- b1 (top) - a2 through sw - a3 (bottom)
      assert.equal("black", S:status())
      assert.same({ 1, 0 }, { S:score() })
      local t = T.hex(3)
      t.ends[1].dirs = T.dirs("n e s w")
      S = start(t)
      for _, m in ipairs { "b1", "c3", "a2", "c2", "a3" } do play(S, m) end
      assert.is_nil(S:status())
    end)
    it("reach: a piece in its zone wins; no_pieces: the last enemy piece taken wins", function()
      local t = T.breakthrough()
      t.cells = T.empty(8, 8)
      t.cells[T.cell("a7", 8) + 1] = 1
      t.cells[T.cell("h8", 8) + 1] = 2
      t.cells[T.cell("h1", 8) + 1] = 2
      local S = start(t)
      play(S, "a7-a8")
      assert.equal("black", S:status())
      assert.is_true(S:finished())
      assert.same({}, texts(S))
      t.cells = T.empty(8, 8)
      t.cells[T.cell("c3", 8) + 1] = 1
      t.cells[T.cell("d4", 8) + 1] = 2
      S = start(t)
      play(S, "c3-d4")
      assert.equal("black", S:status())
      assert.equal(0, S:count("white"))
    end)
    it("full: decided by score or a draw; plies: after n plies", function()
      local S = start(T.tictactoe())
      for _, m in ipairs { "a1", "b1", "c1", "b2", "a2", "a3", "b3", "c2", "c3" } do play(S, m) end
      assert.equal("draw", S:status())
      assert.same({ 0, 0 }, { S:score() })
      local t = board({ rules = { { op = "place", kind = 1 } }, ends = { { op = "full", result = "score" } } }, 1, 3)
      S = start(t)
      for _, m in ipairs { "a1", "b1", "c1" } do play(S, m) end
      assert.equal("black", S:status())
      assert.same({ 2, 1 }, { S:score() })
      t = board({ rules = { { op = "place", kind = 1 } }, ends = { { op = "plies", n = 2, result = "draw" } } }, 1, 3)
      S = start(t)
      play(S, "a1")
      assert.is_nil(S:status())
      play(S, "b1")
      assert.equal("draw", S:status())
      t.ends[1].result = "score"
      t.cells[3] = 1
      S = start(t)
      play(S, "a1")
      play(S, "b1")
      assert.equal("black", S:status())
      assert.same({ 2, 1 }, { S:score() })
    end)
  end)

  it("the quick games' bulk perft (lines on one word) counts what every leaf played counts", function()
    local C = start(T.connect4())
    assert.equal(5673234, C:perft(8))
    -- near lines, a ply limit, blocks under which cells stay empty, a setup line, small boards
    local function connect(rows, cols, k)
      local t = T.connect4()
      t.rows, t.cols, t.cells = rows, cols, T.empty(rows, cols)
      t.ends[1].k = k
      return t
    end
    local limited = T.connect4()
    limited.ends[#limited.ends + 1] = { op = "plies", n = 9, result = "draw" }
    local blocked = connect(4, 4, 3)
    blocked.cells[T.cell("b3", 4) + 1] = -1
    local closed = connect(3, 3, 3) -- b3 stays empty under the block: no move once a, b1 and c are filled
    closed.cells[T.cell("b2", 3) + 1] = -1
    closed.no_move = "pass"
    local lined = T.tictactoe()
    for _, name in ipairs { "a1", "b1", "c1" } do lined.cells[T.cell(name, 3) + 1] = 2 end
    for _, case in ipairs { { T.connect4(), 4, 60 }, { limited, 4, 12 }, { blocked, 5, 16 },
                            { connect(5, 5, 3), 4, 25 }, { T.tictactoe(), 5, 9 }, { lined, 3, 1 },
                            { closed, 6, 9 } } do
      local S, rng = start(case[1]), core.rng(7)
      for _ = 1, case[3] do
        for d = 2, case[2] do
          assert.equal(S:perft(d, { bulk = false }), S:perft(d), case[1].name .. " ply " .. S:ply() .. " depth " .. d)
        end
        if S:finished() then break end
        local moves, n = S:moves()
        if n == 0 then assert(S:pass()) else S:play(moves[rng:random(n)]) end
      end
    end
  end)

  it("perft with every leaf played ({ bulk = false }, as RBG's) counts the same as in bulk", function()
    for _, case in ipairs { { T.tictactoe(), 9 }, { T.connect4(), 5 }, { T.breakthrough(), 3 }, { T.draughts(), 6 },
                            { T.ataxx(), 3 }, { T.hex(5, true), 3 } } do
      local S = start(case[1])
      for d = 0, case[2] do
        assert.equal(S:perft(d), S:perft(d, { bulk = false }), case[1].name .. " depth " .. d)
      end
      assert.equal(S:perft(2), S:perft(2, {}))
    end
    -- Connect Four's played leaves (the drop cells of the open columns) with blocks in two columns: the
    -- counts by the list, the position unchanged
    local t = T.connect4()
    t.cells[T.cell("c3", 7) + 1] = -1
    t.cells[T.cell("g6", 7) + 1] = -1
    local C = start(t)
    for _, m in ipairs { "c", "c", "d", "e" } do play(C, m) end
    local chash, ctext, cply = C:hash(), tostring(C), C:ply()
    local by_list = 0
    for _, m in ipairs((C:moves())) do
      C:play(m)
      by_list = by_list + (C:status() and 0 or select(2, C:moves()))
      C:undo()
    end
    assert.equal(6, select(2, C:moves())) -- column c is full above its block
    assert.equal(by_list, C:perft(2, { bulk = false }))
    assert.equal(C:perft(4), C:perft(4, { bulk = false }))
    assert.same({ chash, ctext, cply }, { C:hash(), tostring(C), C:ply() })
    -- a position where moves win (the placement perft's own play and undo): counted by hand, state unchanged
    local G = start(T.gomoku(9))
    for _, m in ipairs { "a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9" } do play(G, m) end
    local by_hand = 0
    for _, m in ipairs((G:moves())) do
      G:play(m)
      if not G:status() then by_hand = by_hand + select(2, G:moves()) end
      G:undo()
    end
    local hash, text, ply = G:hash(), tostring(G), G:ply()
    assert.equal(by_hand, G:perft(2))
    assert.equal(by_hand, G:perft(2, { bulk = false }))
    assert.equal(G:perft(3), G:perft(3, { bulk = false }))
    assert.same({ hash, text, ply }, { G:hash(), tostring(G), G:ply() })
    assert.is_nil(G:status())
    play(G, "e1")
    assert.equal("black", G:status())
    local S = start(T.tictactoe())
    assert.has_error(function() S:perft(2, { bulk = 1 }) end)
    assert.has_error(function() S:perft(2, "bulk") end)
  end)

  describe("ends left in the setup (contract 1.3, the lead's ruling)", function()
    local line3 = { op = "line", k = 3, exact = false, axes = T.dirs("n ne e se") }
    it("a line or connection already there counts at the mover's first move, again after undo", function()
      local t = T.gomoku(9) -- 81 cells: the incremental path after the first move
      t.cells = board({}, 9, 9, { a1 = 1, b1 = 1, c1 = 1, d1 = 1, e1 = 1, a3 = 2 }).cells
      local S = start(t)
      play(S, "i5")
      assert.equal("black", S:status())
      assert.is_true(S:undo())
      assert.is_nil(S:status())
      play(S, "i5")
      assert.equal("black", S:status())
      t = T.hex(3)
      t.cells = board({}, 3, 3, { b1 = 1, a2 = 1, a3 = 1, c1 = 2 }).cells
      S = start(t)
      play(S, "c3")
      assert.equal("black", S:status())
    end)
    it("a side's later moves look through every cell they made its own (converted too)", function()
      local t = board({ rules = { { op = "place", kind = 1, convert = T.both(T.dirs("n ne e se s sw w nw")) } },
        ends = { line3 } }, 9, 9, { a1 = 1, b1 = 2, c1 = 2 })
      local S = start(t)
      play(S, "i9")
      play(S, "a9")
      assert.is_nil(S:status())
      play(S, "b2") -- converts b1 and c1: the run a1 b1 c1 does not pass through b2
      assert.equal("black", S:status())
    end)
  end)

  describe("no_move", function()
    local function stuck(no_move)
      return board({ rules = { { op = "step", kinds = { true }, dirs = { T.dirs("e"), T.dirs("w") }, to = "empty" } },
        no_move = no_move }, 1, 3, { a1 = 1, b1 = 2, c1 = 2 })
    end
    it("lose, draw and score end the game of the side that cannot move", function()
      assert.equal("white", start(stuck("lose")):status())
      assert.equal("draw", start(stuck("draw")):status())
      local S = start(stuck("score"))
      assert.equal("white", S:status())
      assert.same({ 1, 2 }, { S:score() })
      assert.same({ 0, 1 }, { start(stuck("lose")):score() })
    end)
    it("pass: the side must pass; two passes in a row end the game by score", function()
      local S = start(stuck("pass"))
      local moves, n = S:moves()
      assert.same({}, moves)
      assert.equal(0, n)
      assert.is_true(S:can_pass())
      assert.is_nil(S:status())
      assert.is_true(S:pass())
      assert.equal("white", S:player())
      assert.is_true(S:can_pass())
      assert.is_true(S:pass())
      assert.equal("white", S:status())
      assert.equal(2, S:ply())
      local ok, why = S:pass()
      assert.is_nil(ok)
      assert.equal("the game is over", why)
      assert.is_true(S:undo())
      assert.is_nil(S:status())
      local T2 = start(T.tictactoe())
      assert.is_false(T2:can_pass())
      assert.is_nil((T2:pass()))
    end)
  end)

  it("placements: adjacent to one's own (all 8 by default), flips (legal only when flipping), convert", function()
    local t = board({ rules = { { op = "place", kind = 1, at = "adjacent", dirs = T.both(T.dirs("n e s w")) } } }, 3, 3,
      { b2 = 1 })
    assert.same({ "b1", "a2", "c2", "b3" }, texts(start(t)))
    t.rules[1].dirs = nil
    assert.equal(8, #texts(start(t)))
    t = board({ rules = { { op = "place", kind = 1, flips = T.both(T.dirs("e w")) } } }, 1, 5,
      { a1 = 1, b1 = 2, e1 = 2 })
    local S = start(t)
    assert.same({ "c1" }, texts(S))
    play(S, "c1")
    assert.equal(3, S:count("black"))
    assert.same({ "black", "stone" }, { S:get(1, 2) })
    t = board({ rules = { { op = "place", kind = 1, convert = T.both(T.dirs("e")) } } }, 1, 3, { b1 = 2, c1 = 2 })
    S = start(t)
    play(S, "a1")
    assert.same({ "black", "black", "white" }, { S:get(1, 1), (S:get(1, 2)), (S:get(1, 3)) })
  end)

  it("territory: pieces plus the empty regions only one side borders", function()
    local t = board({ rules = { { op = "place", kind = 1 } }, score = "territory" }, 3, 3,
      { b1 = 1, b2 = 1, b3 = 1 })
    assert.same({ 9, 0 }, { start(t):score() })
    t.cells[T.cell("c2", 3) + 1] = 2
    assert.same({ 6, 1 }, { start(t):score() })
    t.score = "none"
    assert.same({ 0, 0 }, { start(t):score() })
    t.score = "pieces"
    assert.same({ 3, 1 }, { start(t):score() })
  end)

  it("swap: listed last after the first move, mirrors the stone and counts as a ply", function()
    local S = start(T.hex(3, true))
    assert.is_nil(S:parse_move("swap"))
    play(S, "a2")
    local list = texts(S)
    assert.equal(9, #list)
    assert.equal("swap", list[9])
    local cells = S:move_cells(S:parse_move("swap"))
    assert.same({ { 1, 2 } }, cells) -- the cell of the new (white) piece
    play(S, "swap")
    assert.same({ "empty" }, { S:get(2, 1) })
    assert.same({ "white", "stone" }, { S:get(1, 2) })
    assert.equal("black", S:player())
    assert.equal(2, S:ply())
    assert.equal(8, #texts(S))
    assert.is_true(S:undo())
    assert.same({ "black", "stone" }, { S:get(2, 1) })
  end)

  describe("draughts", function()
    local function position(pieces, promote_row)
      local t = T.draughts()
      t.cells = T.empty(8, 8)
      for name, code in pairs(pieces) do
        t.cells[T.cell(name, 8) + 1] = code
      end
      if promote_row then
        t.promote[1].zone = { T.rows(8, promote_row, promote_row), T.rows(8, 1, 1) }
      end
      return start(t)
    end
    it("chains: every maximal path is one move, captured pieces removed at the end", function()
      local S = position { c3 = 1, d4 = 2, d6 = 2, f6 = 2, h8 = 2 }
      assert.same({ "c3-e5-g7", "c3-e5-c7" }, texts(S))
      local m = S:parse_move("c3-e5-g7")
      assert.same({ { 3, 3 }, { 5, 5 }, { 7, 7 } }, S:move_cells(m))
      play(S, "C3 - E5 - G7")
      assert.equal("empty", S:get(4, 4))
      assert.equal("empty", S:get(6, 6))
      assert.equal(2, S:count("white"))
    end)
    it("must capture: a capture hides the steps", function()
      local S = position { c3 = 1, d4 = 2, a3 = 1, h8 = 2 }
      assert.same({ "c3-e5" }, texts(S))
    end)
    it("promotion makes a king, and ends the chain where it happens", function()
      local S = position { b7 = 1, h1 = 2 }
      play(S, "b7-a8")
      assert.same({ "black", "king" }, { S:get(8, 1) })
      S = position({ a4 = 1, b5 = 2, d7 = 2, h1 = 2 }, 6)
      assert.same({ "a4-c6" }, texts(S))
      play(S, "a4-c6")
      assert.same({ "black", "king" }, { S:get(6, 3) })
      assert.equal(3, S:code(6, 3))
    end)
  end)

  it("notation: placements, columns, steps, arrows", function()
    local S = start(T.connect4())
    assert.same({ "a6", "b6", "c6", "d6", "e6", "f6", "g6" }, texts(S))
    assert.equal(S:parse_move("d6"), S:parse_move("d"))
    play(S, "D")
    assert.equal("d5", S:move_text(S:parse_move("d")))
    local A = start(T.amazons())
    local m = A:moves()[1]
    local text = A:move_text(m)
    assert.matches("^%l%d+%-%l%d+/%l%d+$", text)
    assert.equal(m, A:parse_move(text))
    local cells = A:move_cells(m)
    assert.equal(3, #cells)
    assert.equal("a2-a3", start(T.breakthrough()):move_text(start(T.breakthrough()):moves()[1]))
  end)

  it("perft's played last ply (the leaf paths) counts as the list and leaves the state as it was", function()
    -- two kinds on one word with promotion: the leaf path that keeps the kinds' sets
    local function promoting()
      local t = T.breakthrough()
      t.kinds = { "man", "king" }
      t.values = { 1, 3 }
      t.rules[1].kinds = { true, true }
      t.rules[2].kinds = { true, true }
      t.promote = { { from = 1, to = 2, zone = { T.rows(8, 8, 8), T.rows(8, 1, 1) } } }
      t.ends = { { op = "no_pieces" } }
      return t
    end
    local function one_kind_promoting()
      local t = promoting()
      t.kinds = { "man" }
      t.values = { 1 }
      t.rules[1].kinds = { true }
      t.rules[2].kinds = { true }
      t.promote = {}
      return t
    end
    local function amazons6()
      local t = T.amazons()
      t.rows, t.cols, t.cells = 6, 6, T.empty(6, 6)
      for _, name in ipairs { "a3", "f4" } do t.cells[T.cell(name, 6) + 1] = 2 end
      for _, name in ipairs { "c1", "d6" } do t.cells[T.cell(name, 6) + 1] = 1 end
      return t
    end
    for _, make in ipairs { T.breakthrough, promoting, one_kind_promoting, amazons6, T.connect4, T.draughts,
                            function() return T.gomoku(9) end, T.ataxx } do
      local S, rng = start(make()), core.rng(5)
      for ply = 1, 70 do
        if S:finished() then break end
        if ply % 3 == 1 then
          local hash, text, count = S:hash(), tostring(S), S:perft(1)
          local moves, n = S:moves()
          local by_list = 0
          for _, m in ipairs(moves) do
            S:play(m)
            by_list = by_list + (S:status() and 0 or S:perft(1))
            S:undo()
          end
          if n == 0 then by_list = S:perft(2) end
          assert.equal(count == 0 and 0 or by_list, S:perft(2, { bulk = false }))
          assert.equal(S:perft(2), S:perft(2, { bulk = false }))
          assert.equal(count, S:perft(1, { bulk = false }))
          assert.same({ hash, text }, { S:hash(), tostring(S) })
        end
        local moves, n = S:moves()
        if n == 0 then assert(S:pass()) else S:play(moves[rng:random(n)]) end
      end
    end
  end)

  it("undo restores everything, the hash included; the hash follows transpositions", function()
    for _, make in ipairs { T.breakthrough, T.draughts, T.ataxx, T.amazons, T.connect4 } do
      local S = start(make())
      local before, hash, text = S:clone(), S:hash(), tostring(S)
      local rng, played = core.rng(7), 0
      while not S:finished() and played < 60 do
        local moves, n = S:moves()
        if n == 0 then
          assert(S:pass())
        else
          assert.is_true(S:play(moves[rng:random(n)]))
        end
        played = played + 1
      end
      for _ = 1, played do
        assert.is_true(S:undo())
      end
      assert.is_false(S:undo())
      assert.equal(hash, S:hash())
      assert.equal(text, tostring(S))
      assert.is_true(S == before)
      assert.equal(0, S:ply())
      assert.is_nil(S:status())
    end
    local a, b = start(T.tictactoe()), start(T.tictactoe())
    for _, m in ipairs { "a1", "b2", "c1" } do play(a, m) end
    for _, m in ipairs { "c1", "b2", "a1" } do play(b, m) end
    assert.equal(a:hash(), b:hash())
    assert.is_true(a == b)
    play(b, "c3")
    assert.are_not.equal(a:hash(), b:hash())
  end)

  it("clones are independent", function()
    local S = start(T.breakthrough())
    local C = S:clone()
    play(C, "a2-a3")
    assert.equal("empty", S:get(3, 1))
    assert.equal("black", C:get(3, 1))
    assert.equal("black", S:player())
    assert.is_false(S == C)
    assert.is_true(S:undo() == false)
    assert.is_true(C:undo())
    assert.is_true(S == C)
  end)

  it("moves refill a given table and clear its old tail", function()
    local S = start(T.tictactoe())
    local t = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }
    local same, n = S:moves(t)
    assert.equal(t, same)
    assert.equal(9, n)
    assert.equal(9, #t)
    assert.is_nil(t[10])
  end)

  it("playouts: counts add up, the state is unchanged, a seed replays", function()
    local S = start(T.connect4())
    local r = S:playout(42, 50)
    assert.equal(50, r.black + r.white + r.draw)
    assert.is_true(r.plies >= 50 * 7)
    assert.same(r, S:playout(42, 50))
    assert.same(r, S:playout(core.rng(42), 50))
    assert.equal(0, S:ply())
    local B = start(T.draughts()):playout(1, 5)
    assert.equal(5, B.black + B.white + B.draw)
  end)

  it("a playout is moves[rng:random(n)] from the whole list, whatever shortcut the engine takes", function()
    for _, make in ipairs { T.breakthrough, T.ataxx, T.connect4, T.tictactoe, function() return T.gomoku(9) end,
      function() return T.hex(5, true) end, T.hex, T.draughts, T.amazons } do
      for seed = 1, make == T.amazons and 1 or 3 do
        local S = start(make())
        local r = S:playout(core.rng(seed), 1)
        local rng, plies = core.rng(seed), 0
        while not S:finished() and plies < 10000 do
          local moves, n = S:moves()
          if n == 0 then assert(S:pass()) else assert(S:play(moves[rng:random(n)])) end
          plies = plies + 1
        end
        assert.equal(r.plies, plies)
        local status = S:status() or "draw"
        assert.equal(1, r[status])
      end
    end
  end)

  it("placement games on one word: the quick playout loop ends every game as the general loop does", function()
    -- an exactly-9 line never fires on these boards but keeps the engine on its general loop
    local function general(t)
      t.ends[#t.ends + 1] = { op = "line", k = 9, exact = true, axes = T.dirs("n ne e se") }
      return t
    end
    local function blocked()
      local t = T.connect4()
      t.cells[T.cell("c3", 7) + 1] = -1 -- column c holds two discs; the cells below the block stay empty
      t.cells[T.cell("g6", 7) + 1] = -1
      t.no_move = "draw"
      return t
    end
    local cases = {
      T.tictactoe, T.connect4, function() return T.gomoku(8) end, blocked,
      function() -- the full board checked before the line: a line made by the last move is a draw
        local t = T.tictactoe()
        t.ends = { t.ends[2], t.ends[1] }
        return t
      end,
      function() -- a ply limit first; no full end, no move loses
        local t = T.connect4()
        t.ends = { { op = "plies", n = 15, result = "draw" }, t.ends[1] }
        return t
      end,
      function() -- a line of white's left in the setup: white wins at its first move
        local t = T.gomoku(8)
        for _, name in ipairs { "a1", "b1", "c1", "d1", "e1" } do t.cells[T.cell(name, 8) + 1] = 2 end
        return t
      end,
      function() -- k = 3 on four axes of a 4 x 4 board, no move passes and the score decides
        local t = board({ rules = { { op = "place", kind = 1, at = "empty" } }, no_move = "pass" }, 4, 4)
        t.ends = { { op = "line", k = 3, exact = false, axes = T.dirs("n ne e se") } }
        return t
      end,
    }
    for i, make in ipairs(cases) do
      local quick, slow = start(make()), start(general(make()))
      for seed = 1, 3 do
        local a, b = quick:playout(core.rng(seed), 300), slow:playout(core.rng(seed), 300)
        assert.same(b, a, "case " .. i .. " seed " .. seed)
      end
    end
  end)

  describe("bad input", function()
    it("names the field", function()
      local t = T.breakthrough()
      t.rules[2].op = "jump"
      assert.has_error(function() core.dgame(t) end,
        "bad argument #1 to 'dgame' (field 'rules'[2] 'op': unknown op \"jump\")")
      t = T.breakthrough()
      t.rows = 27
      assert.has_error(function() core.dgame(t) end,
        "bad argument #1 to 'dgame' (field 'rows': 27 out of range 1..26)")
      t = T.breakthrough()
      t.rules[1].dirs[2][1] = { 0, "x" }
      assert.has_error(function() core.dgame(t) end,
        "bad argument #1 to 'dgame' (field 'rules'[1] 'dirs'[2][1]: integer expected, got string)")
      t = T.draughts()
      t.rules[1].dirs[1][1] = { 2, 2 }
      assert.has_error(function() core.dgame(t) end,
        "bad argument #1 to 'dgame' (field 'rules'[1] 'dirs'[1][1]: {2, 2} is not a direction)")
      t = T.hex(3, true)
      t.cols = 4
      t.cells = T.empty(3, 4)
      assert.has_error(function() core.dgame(t) end,
        "bad argument #1 to 'dgame' (field 'swap': the pie rule needs a square board)")
      t = T.tictactoe()
      t.cells[2] = 5
      assert.has_error(function() core.dgame(t) end,
        "bad argument #1 to 'dgame' (field 'cells'[2]: 5 out of range -1..2)")
      t = T.tictactoe()
      t.ends[1].op = 3
      assert.has_error(function() core.dgame(t) end,
        "bad argument #1 to 'dgame' (field 'ends'[1] 'op': unknown op \"number\")")
      assert.has_error(function() core.dgame() end)
      assert.has_error(function() core.dgame { rows = 3, cols = 3 } end,
        "bad argument #1 to 'dgame' (field 'rules': a list expected, got nil)")
    end)
    it("never crashes on nonsense moves or cells", function()
      local S = start(T.draughts())
      for _, m in ipairs { -1, 0, 1023, 2 ^ 62, math.maxinteger, math.mininteger, 31 << 20, 0.5, 3.0 } do
        local m2 = math.type(m) == "float" and m or m
        local ok, why = S:play(m2)
        assert.is_nil(ok)
        assert.equal("illegal", why)
        if math.type(m2) ~= "integer" or m2 < 0 or m2 == math.maxinteger then
          assert.is_nil(S:move_text(m2))
          assert.is_nil(S:move_cells(m2))
        end
      end
      -- a hop path off the board is not a move
      assert.is_nil(S:move_text(0 | (0 << 10) | (0 << 20) | (1 << 25) | (0 << 29)))
      assert.has_error(function() S:play("x") end)
      assert.has_error(function() S:get(0, 1) end)
      assert.has_error(function() S:get(1, 9) end)
      assert.has_error(function() S:count("red") end)
      assert.has_error(function() S:perft(-1) end)
      assert.is_nil(S:parse_move("z9-z10"))
      assert.is_nil(S:parse_move(string.rep("a", 500)))
      assert.has_error(function() S.moves(nil) end)
      assert.has_error(function() S:playout("seed") end)
      assert.equal(0, S:ply())
    end)
  end)

  it("a game whose __gc was called by hand leaves its states raising, never crashing", function()
    local G = core.dgame(T.tictactoe())
    local S, S2 = G:start(), G:start()
    getmetatable(G).__gc(G)
    getmetatable(G).__gc(G)
    assert.error_matches(function() G:start() end, "'start' on bad self (a released game)", nil, true)
    assert.error_matches(function() S:moves() end, "'moves' on bad self (a state of a released game)", nil, true)
    assert.is_false(S == S2)
    getmetatable(S).__gc(S)
    assert.error_matches(function() S:ply() end, "'ply' on bad self (a released state)", nil, true)
    assert.equal("dgame", core.type(G))
    assert.equal("dgame_state", core.type(S))
  end)

  it("reads the board: get, code, count, sizes, tostring", function()
    local S = start(T.draughts())
    assert.same({ "black", "man" }, { S:get(1, 2) })
    assert.equal("empty", S:get(1, 1))
    assert.equal(1, S:code(1, 2))
    assert.equal(2, S:code(8, 1))
    assert.equal(12, S:count("black"))
    assert.equal(40, S:count("empty"))
    assert.equal(8, S:size())
    local C = start(T.connect4())
    assert.equal(6, C:rows())
    assert.equal(7, C:cols())
    assert.equal(7, C:size())
    assert.equal("   a b c d e f g h\n 1 . x . x . x . x\n", tostring(S):sub(1, 38))
    local t = T.tictactoe()
    t.cells[5] = -1
    local B = start(t)
    assert.equal("blocked", B:get(2, 2))
    assert.equal(-1, B:code(2, 2))
    assert.equal(8, select(2, B:moves()))
  end)
end)
