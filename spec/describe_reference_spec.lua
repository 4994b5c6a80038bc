-- The reference interpreter of described games (boardscript.describe.reference),
-- checked against the contract (/work/notes/vocab29.md, docs/guide.md
-- "Described games") on hand-built normalised tables: known perft tables,
-- and a hand-checked position for every feature. Then the lockstep
-- comparison (boardscript.describe.compare), against itself, against
-- deliberately wrong engines, and against the C engine when it is built.
local reference = require "boardscript.describe.reference"
local compare = require "boardscript.describe.compare"
local T = require "support.ref_tables"

local function start(t) return reference.dgame(t):start() end

local function perfts(S, depth)
  local out = {}
  for d = 1, depth do out[d] = S:perft(d) end
  return out
end

local function texts(S)
  local out = {}
  for j, m in ipairs((S:moves())) do out[j] = S:move_text(m) end
  return out
end

-- A game of `t` with the cells given ({ [code] = "cells" }) and blocks.
local function position(t, pieces, blocked)
  t.cells = T.board(t.rows, t.cols, pieces, blocked)
  return start(t)
end

local function play(S, ...)
  for _, text in ipairs { ... } do
    if text == "pass" then
      assert(S:pass())
    else
      local m = S:parse_move(text)
      assert(m, "no legal move " .. text .. " in\n" .. tostring(S))
      assert(S:play(m))
    end
  end
  return S
end

describe("the reference interpreter: perft of known games", function()
  it("tic-tac-toe to 9", function()
    local S = start(T.tictactoe())
    assert.same({ 9, 72, 504, 3024, 15120 }, perfts(S, 5))
    assert.equal(127872, S:perft(9))
    -- depths 6 to 8 in one walk: the unfinished positions at each depth
    local at = {}
    local function walk(d)
      at[d] = (at[d] or 0) + 1
      if d == 8 or S:finished() then return end
      for _, m in ipairs((S:moves())) do
        S:play(m)
        walk(d + 1)
        S:undo()
      end
    end
    walk(0)
    assert.same({ 54720, 148176, 200448 }, { at[6], at[7], at[8] })
  end)
  it("Connect Four to 5", function()
    assert.same({ 7, 49, 343, 2401, 16807 }, perfts(start(T.connect4()), 5))
  end)
  it("Breakthrough 8 x 8 to 3", function()
    assert.same({ 22, 484, 11132 }, perfts(start(T.breakthrough()), 3))
  end)
  it("English draughts to 5", function()
    assert.same({ 7, 49, 302, 1469, 7361 }, perfts(start(T.draughts()), 5))
  end)
  it("Amazons 10 x 10, depth 1", function()
    assert.equal(2176, start(T.amazons()):perft(1))
  end)
  it("Hex 5 x 5 to 3, and with swap", function()
    assert.same({ 25, 600, 13800 }, perfts(start(T.hex(5)), 3))
    assert.same({ 25, 625, 14400 }, perfts(start(T.hex(5, true)), 3))
  end)
  it("Reversi 8 x 8 to 5 (flips, no_move pass)", function()
    assert.same({ 4, 12, 56, 244, 1396 }, perfts(start(T.reversi()), 5))
  end)
  -- The contract lists moves without deduplication (1.5), so a clone as a
  -- step with `leave` counts a cell reached from two pieces twice: 6652.
  -- Ataxx's own counts (16, 256, 6460, 155888) come from the clone as a
  -- placement next to one's own (lua/examples/ataxx.lua).
  it("Ataxx 7 x 7: 6460 with the clone as a placement, 6652 as a step with leave", function()
    assert.same({ 16, 256, 6460, 155888 }, perfts(start(T.ataxx_place()), 4))
    assert.same({ 16, 256, 6652 }, perfts(start(T.ataxx()), 3))
  end)
end)

describe("the reference interpreter: moves, order and notation", function()
  it("lists a slide's arrows landing by landing, nearest first, the origin free", function()
    local t = T.amazons()
    t.rows, t.cols = 3, 3
    local S = position(t, { [1] = "a1" })
    local list = texts(S)
    assert.same({ "a1-b1/c1", "a1-b1/c2", "a1-b1/b2", "a1-b1/b3", "a1-b1/a2", "a1-b1/a1" },
      { table.unpack(list, 1, 6) })
    assert.same({ { 1, 1 }, { 1, 1 }, { 1, 2 } }, S:move_cells(S:parse_move("a1-b1/a1")))
    assert(S:play(S:parse_move("a1-b1/a1")))
    assert.equal("blocked", S:get(1, 1))
    assert.equal("black", S:get(1, 2))
  end)

  it("encodes moves as the contract says", function()
    local S = start(T.tictactoe())
    assert.equal(1023 | (4 << 10), S:parse_move("b2"))
    local B = start(T.breakthrough())
    local m = B:parse_move("a2-a3")
    assert.equal(8 | (16 << 10), m)
    assert.equal("a2-a3", B:move_text(m))
    assert.is_nil(B:move_text(-1))
    assert.is_nil(B:move_text(9 | (1 << 25)))
    assert.is_nil(B:move_text(31 << 20))
    assert.same({ { 2, 1 }, { 3, 1 } }, B:move_cells(m))
  end)

  it("drops in a column, named by its landing or the lone letter", function()
    local S = start(T.connect4())
    assert.same({ "a6", "b6", "c6", "d6", "e6", "f6", "g6" }, texts(S))
    assert.equal(S:parse_move("d6"), S:parse_move("D"))
    play(S, "d", "d")
    assert.equal("black", S:get(6, 4))
    assert.equal("white", S:get(5, 4))
    assert.equal("d4", S:move_text(S:parse_move(" d ")))
  end)

  it("hops depth first, every maximal chain a move, no piece hopped twice", function()
    local t = T.draughts()
    local S = position(t, { [3] = "a3", [2] = "b2 d2 b4 d4" })
    assert.same({ "a3-c1-e3-c5-a3", "a3-c5-e3-c1-a3" }, texts(S))
    local m = S:moves()[1]
    assert.equal(4, (m >> 25) & 15)
    assert.same({ { 3, 1 }, { 1, 3 }, { 3, 5 }, { 5, 3 }, { 3, 1 } }, S:move_cells(m))
    play(S, "a3-c1-e3-c5-a3")
    assert.equal(0, S:count("white"))
    assert.equal("black", S:status())
  end)

  it("branches: a chain that forks gives one move per branch, in direction order", function()
    local S = position(T.draughts(), { [1] = "c1", [2] = "d2 d4 f4 h8" })
    -- c1 over d2 to e3, then over d4 to c5 or over f4 to g5
    assert.same({ "c1-e3-g5", "c1-e3-c5" }, texts(S))
  end)

  it("must capture: only the capturing moves when there is one", function()
    local t = T.draughts()
    local S = position(t, { [1] = "a1 g1", [2] = "b2 h8" })
    assert.same({ "a1-c3" }, texts(S))
    t.must_capture = false
    assert.same({ "a1-c3", "g1-h2", "g1-f2" }, texts(position(t, { [1] = "a1 g1", [2] = "b2 h8" })))
  end)

  it("promotion reached mid-chain ends the chain, and the man becomes a king", function()
    -- men that hop in every diagonal direction: from c8 the man could go on
    -- over d7 to e6, but it was promoted on c8
    local t = T.draughts()
    t.rules[1].dirs = T.dirs("diagonal")
    local S = position(t, { [1] = "a6", [2] = "b7 d7 h1" })
    assert.same({ "a6-c8" }, texts(S))
    t.promote = {}
    assert.same({ "a6-c8-e6" }, texts(position(t, { [1] = "a6", [2] = "b7 d7 h1" })))
    t = T.draughts()
    t.rules[1].dirs = T.dirs("diagonal")
    S = position(t, { [1] = "a6", [2] = "b7 d7 h1" })
    play(S, "a6-c8")
    local side, kind = S:get(8, 3)
    assert.equal("black", side)
    assert.equal("king", kind)
    assert.equal("white", S:get(7, 4))
  end)

  it("swap: listed last after one move, the piece mirrored to the second side", function()
    local S = start(T.hex(3, true))
    assert.is_false(texts(S)[#texts(S)] == "swap")
    play(S, "a2")
    local list = texts(S)
    assert.equal(9, #list)
    assert.equal("swap", list[9])
    assert.equal(31 << 20 | 1023 | 1023 << 10, S:parse_move("swap"))
    play(S, "swap")
    assert.equal("empty", S:get(2, 1))
    assert.equal("white", S:get(1, 2))
    assert.equal("black", S:player())
    assert.equal(2, S:ply())
    assert.is_nil(S:parse_move("swap"))
    assert(S:undo())
    assert.equal("black", S:get(2, 1))
    -- not when the first side has more than its one piece (a setup piece)
    S = position(T.hex(3, true), { [1] = "c3" })
    play(S, "a2")
    assert.is_nil(S:parse_move("swap"))
  end)
end)

describe("the reference interpreter: ends and results", function()
  it("line: exact needs a maximal run of k, at least accepts longer", function()
    local at_least = position(T.gomoku(9), { [1] = "a1 b1 c1 d1 f1", [2] = "a9 b9 c9 d9" })
    play(at_least, "e1")
    assert.equal("black", at_least:status())
    assert.same({ 1, 0 }, { at_least:score() })
    local exact = position(T.gomoku(9, true), { [1] = "a1 b1 c1 d1 f1", [2] = "a9 b9 c9 d9" })
    play(exact, "e1")
    assert.is_nil(exact:status())
    local five = position(T.gomoku(9, true), { [1] = "a1 b1 c1 d1", [2] = "a9 b9 c9 d9" })
    play(five, "e1")
    assert.equal("black", five:status())
  end)

  it("line: a run already in the setup is not the mover's win (as the C engine)", function()
    local S = position(T.gomoku(9), { [1] = "a1 b1 c1 d1 e1", [2] = "a9 b9" })
    play(S, "i5")
    assert.is_nil(S:status())
    play(S, "c9", "h5")
    assert.is_nil(S:status())
  end)

  it("connect: through hex neighbours only", function()
    local S = position(T.hex(3), { [1] = "b1 a2", [2] = "c1 c2" })
    play(S, "a3")
    assert.equal("black", S:status())
    S = position(T.hex(3), { [1] = "a1 b2", [2] = "c1 c2" })
    play(S, "b3")
    assert.is_nil(S:status())
  end)

  it("reach and no_pieces", function()
    local S = position(T.breakthrough(4, 4), { [1] = "a3", [2] = "d1" })
    play(S, "a3-a4")
    assert.equal("black", S:status())
    S = position(T.breakthrough(4, 4), { [1] = "a2", [2] = "b3" })
    play(S, "a2-b3")
    assert.equal("black", S:status())
    assert.same({ 1, 0 }, { S:score() })
    assert.same({}, (S:moves()))
  end)

  it("full: a draw by result, or decided by score", function()
    local S = play(start(T.tictactoe()), "a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3", "c3")
    assert.equal("draw", S:status())
    assert.same({ 0, 0 }, { S:score() })
    local t = T.game { name = "two", rows = 1, cols = 3, cells = T.board(1, 3, nil, "c1"),
      rules = { { op = "place", kind = 1, at = "empty" } }, ends = { { op = "full", result = "score" } } }
    S = play(start(t), "a1", "b1")
    assert.equal("draw", S:status())
    assert.same({ 1, 1 }, { S:score() })
  end)

  it("plies: the game ends after n plies", function()
    local t = T.tictactoe()
    t.ends[#t.ends + 1] = { op = "plies", n = 2, result = "draw" }
    local S = play(start(t), "a1", "b1")
    assert.equal("draw", S:status())
    assert.same({ 0, 0 }, { S:score() })
  end)

  it("no_move: lose, draw, score and pass", function()
    local function stuck(no_move)
      local t = T.game { name = "stuck", rows = 1, cols = 3, cells = T.board(1, 3, { [1] = "a1", [2] = "c1" }, "b1"),
        rules = { { op = "step", kinds = { true }, dirs = T.dirs("orthogonal"), to = "empty" } }, no_move = no_move,
        ends = {} }
      return start(t)
    end
    assert.equal("white", stuck("lose"):status())
    assert.equal("draw", stuck("draw"):status())
    assert.same({ 0, 0 }, { stuck("draw"):score() })
    local S = stuck("score")
    assert.equal("draw", S:status())
    assert.same({ 1, 1 }, { S:score() })
    S = stuck("pass")
    assert.is_nil(S:status())
    assert.is_true(S:can_pass())
    assert.same({}, (S:moves()))
    assert.equal(1, S:perft(2))
    assert(S:pass())
    assert.equal("white", S:player())
    assert.is_nil(S:status())
    assert(S:pass())
    assert.equal("draw", S:status())
    assert.is_nil(S:pass())
  end)

  it("territory: pieces plus the empty regions only one side borders", function()
    local t = T.game { name = "go", rows = 3, cols = 3, cells = T.board(3, 3, { [1] = "b1:b3", [2] = "c2" }),
      rules = { { op = "place", kind = 1, at = "empty" } }, score = "territory", ends = {} }
    assert.same({ 6, 1 }, { start(t):score() })
  end)

  it("convert: Ataxx's clone turns the neighbours", function()
    local S = position(T.ataxx(), { [1] = "a1", [2] = "c3 a3" })
    play(S, "a1-b2")
    assert.equal(4, S:count("black"))
    assert.equal(0, S:count("white"))
    assert.equal("black", S:status())
  end)
end)

describe("the reference interpreter: state", function()
  it("undo restores everything (cells, player, ply, status, moves, hash, text)", function()
    local S = start(T.draughts())
    local start_text, start_hash, start_moves = tostring(S), S:hash(), S:moves()
    local played, n = 0, 0
    while not S:finished() and played < 60 do
      local list, count = S:moves()
      n = n + 1
      assert(S:play(list[(n * 7) % count + 1]))
      played = played + 1
    end
    local T2 = S:clone()
    assert.is_true(T2 == S)
    for _ = 1, played do assert.is_true(S:undo()) end
    assert.is_false(S:undo())
    assert.equal(start_text, tostring(S))
    assert.equal(start_hash, S:hash())
    assert.same(start_moves, (S:moves()))
    assert.equal(0, S:ply())
    assert.is_true(S == start(T.draughts()))
    assert.is_false(T2 == S)
  end)

  it("prints the board text of docs/decisions.md", function()
    local S = position(T.draughts(), { [1] = "a1 b2", [2] = "h8", [4] = "g7" }, "d4")
    assert.equal(table.concat({
      "   a b c d e f g h", " 1 x . . . . . . .", " 2 . x . . . . . .", " 3 . . . . . . . .",
      " 4 . . . # . . . .", " 5 . . . . . . . .", " 6 . . . . . . . .", " 7 . . . . . . k .",
      " 8 . . . . . . . o", "" }, "\n"), tostring(S))
  end)

  it("answers get, code, count, sizes", function()
    local S = position(T.draughts(), { [1] = "a1", [4] = "g7" }, "d4")
    assert.same({ "black", "man" }, { S:get(1, 1) })
    assert.same({ "white", "king" }, { S:get(7, 7) })
    assert.equal("blocked", S:get(4, 4))
    assert.equal(-1, S:code(4, 4))
    assert.equal(4, S:code(7, 7))
    assert.equal(61, S:count("empty"))
    assert.equal(8, S:size())
    assert.has_error(function() S:get(9, 1) end)
  end)

  it("plays random playouts from a seed or an rng", function()
    local S = start(T.tictactoe())
    local r = S:playout(7, 20)
    assert.equal(20, r.black + r.white + r.draw)
    assert.equal(0, S:ply())
    -- always the first move: a1 b1 c1 a2 b2 c2 a3, black's diagonal c1 b2 a3
    local first = { random = function() return 1 end }
    assert.same({ black = 1, white = 0, draw = 0, plies = 7 }, S:playout(first))
  end)

  it("refuses a malformed table, naming the field", function()
    local t = T.tictactoe()
    t.rows = 0
    assert.has_error(function() reference.dgame(t) end,
      "normalised game 'tictactoe': field 'rows': expected an integer from 1 to 26, got 0")
    t = T.tictactoe()
    t.rules[1].op = "fly"
    assert.error_matches(function() reference.dgame(t) end, "'rules'%[1%]%.op: unknown operation fly")
    t = T.tictactoe()
    t.ends[1].k = nil
    assert.error_matches(function() reference.dgame(t) end, "'ends'%[1%]%.k")
  end)
end)

-- Every hand-built table, small enough for random games in Lua.
local function all_tables()
  local small_amazons = T.amazons()
  small_amazons.name, small_amazons.rows, small_amazons.cols = "amazons 6 x 6", 6, 6
  small_amazons.arrow_game = true
  small_amazons.cells = T.board(6, 6, { [1] = "a3 f3", [2] = "c6 d1" })
  local list = {
    T.tictactoe(), T.connect4(), T.gomoku(9), T.gomoku(9, true), T.breakthrough(), T.breakthrough(5, 4),
    T.ataxx(), T.ataxx_place(), T.draughts(), small_amazons, T.hex(5), T.hex(5, true), T.reversi(),
  }
  for _, t in ipairs(T.features()) do list[#list + 1] = t end
  return list
end

-- A game object whose states answer as `G`'s, except what `bend` changes.
local function bent(G, bend)
  return {
    start = function()
      local S = G:start()
      local proxy = setmetatable({}, {
        __index = function(_, key)
          local f = S[key]
          return function(_, ...) return f(S, ...) end
        end,
        __tostring = function() return tostring(S) end,
      })
      bend(proxy, S)
      return proxy
    end,
  }
end

describe("compare: two engines in lockstep", function()
  it("finds the reference agreeing with itself on every table", function()
    for _, t in ipairs(all_tables()) do
      local ok, why = compare.games(reference.dgame(t), reference.dgame(t), { games = 2, seed = 5, max_plies = 120 })
      assert(ok, t.name .. ": " .. tostring(why))
    end
  end)

  it("reports a move list in another order, with the position and the moves played", function()
    local G = reference.dgame(T.breakthrough())
    local wrong = bent(G, function(proxy, S)
      proxy.moves = function()
        local list, count = S:moves()
        if S:ply() >= 3 then
          for j = 1, count // 2 do list[j], list[count + 1 - j] = list[count + 1 - j], list[j] end
        end
        return list, count
      end
    end)
    local ok, why = compare.games(G, wrong, { names = { "reference", "wrong" }, seed = 2 })
    assert.is_nil(ok)
    assert.matches("moves %(move 1: ", why)
    assert.matches("reference: ", why)
    assert.matches("   a b c d e f g h\n 1 ", why, 1, true)
  end)

  it("reports a wrong end, a wrong score and a wrong pass", function()
    local ttt4 = T.tictactoe()
    ttt4.ends[1].k = 4
    local ok, why = compare.games(reference.dgame(T.tictactoe()), reference.dgame(ttt4), { games = 5 })
    assert.is_nil(ok)
    assert.matches("status: A says %a+, B says nil", why)
    local G = reference.dgame(T.reversi())
    local wrong = bent(G, function(proxy, S)
      proxy.score = function() local a, b = S:score() return a, b + (S:ply() > 10 and 1 or 0) end
    end)
    ok, why = compare.games(G, wrong)
    assert.is_nil(ok)
    assert.matches("score: A says %d+, %d+, B says", why)
    local stuck = T.game { name = "stuck", rows = 1, cols = 3, cells = T.board(1, 3, { [1] = "a1", [2] = "c1" }, "b1"),
      rules = { { op = "step", kinds = { true }, dirs = T.dirs("orthogonal"), to = "empty" } }, no_move = "pass",
      ends = {} }
    G = reference.dgame(stuck)
    wrong = bent(G, function(proxy) proxy.can_pass = function() return false end end)
    ok, why = compare.games(G, wrong)
    assert.is_nil(ok)
    assert.matches("can_pass: A says true, B says false", why)
  end)

  it("compares perft", function()
    local ttt4 = T.tictactoe()
    ttt4.ends[1].k = 4
    assert.is_true(compare.perft(reference.dgame(T.hex(4)), reference.dgame(T.hex(4)), 3))
    local ok, why = compare.perft(reference.dgame(T.tictactoe()), reference.dgame(ttt4), 6)
    assert.is_nil(ok)
    assert.matches("perft 6: A counts 54720, B counts 60480; after a1 b1 a2 c1 a3:\n", why, 1, true)
    assert.matches("status: A says black, B says nil", why, 1, true)
  end)
end)

describe("the C engine (core.dgame) against the reference", function()
  local core = require "boardscript.core"
  if type(core.dgame) ~= "function" then
    pending("core.dgame is not built on this branch")
    return
  end

  -- The board text and the cells of a swap have their own cases below.
  it("agrees over random games on every table", function()
    for _, t in ipairs(all_tables()) do
      local ok, why = compare.games(core.dgame(t), reference.dgame(t), { games = 3, seed = 11, max_plies = 200,
        names = { "C", "reference" }, ignore = { ["board text"] = true, move_cells = t.swap } })
      assert(ok, t.name .. ": " .. tostring(why))
    end
  end)

  it("counts the same perft at small depths", function()
    for _, t in ipairs(all_tables()) do
      local depth = (t.rows * t.cols > 40 and t.name ~= "connect4" or t.arrow_game) and 2 or 3
      local ok, why = compare.perft(core.dgame(t), reference.dgame(t), depth, { "C", "reference" })
      assert(ok, t.name .. ": " .. tostring(why))
    end
  end)

  it("prints the board text of docs/decisions.md", function()
    for _, t in ipairs(all_tables()) do
      assert.equal(tostring(reference.dgame(t):start()), tostring(core.dgame(t):start()))
    end
  end)

  it("names the cell of the new piece as a swap's cells", function()
    local C, R = core.dgame(T.hex(5, true)):start(), reference.dgame(T.hex(5, true)):start()
    play(C, "b1")
    play(R, "b1")
    local swap = R:parse_move("swap")
    assert.same(R:move_cells(swap), C:move_cells(swap))
  end)

  it("agrees on 40 random descriptions (every rule, end, no_move and score kind)", function()
    local random_games = require "support.ref_random"
    for seed = 1, 40 do
      local t = random_games.game(seed)
      local ok, why = compare.games(core.dgame(t), reference.dgame(t), { games = 2, seed = seed, max_plies = 100,
        names = { "C", "reference" }, ignore = { ["board text"] = true, move_cells = t.swap } })
      if ok then ok, why = compare.perft(core.dgame(t), reference.dgame(t), 2, { "C", "reference" }) end
      assert(ok, t.name .. ": " .. tostring(why))
    end
  end)

  it("counts the known tables in C", function()
    assert.equal(127872, core.dgame(T.tictactoe()):start():perft(9))
    assert.equal(11132, core.dgame(T.breakthrough()):start():perft(3))
    assert.equal(7361, core.dgame(T.draughts()):start():perft(5))
    assert.equal(2176, core.dgame(T.amazons()):start():perft(1))
    assert.equal(6652, core.dgame(T.ataxx()):start():perft(3))
    assert.equal(155888, core.dgame(T.ataxx_place()):start():perft(4))
  end)
end)
