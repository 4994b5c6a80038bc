-- The described-game searchers (src/core/dgame_search.c, dgame_mcts.c):
-- S:search (alpha-beta) and S:mcts on hand-built normalised tables.
local core = require "boardscript.core"
local T = require "support.ref_tables"

local WIN = 1000000

-- A state of `tbl` after the moves written in `texts` (notation).
local function position(tbl, texts)
  local S = core.dgame(tbl):start()
  for text in (texts or ""):gmatch("%S+") do
    local m = S:parse_move(text)
    assert(m, "no move " .. text)
    assert(S:play(m))
  end
  return S
end

local function is_legal(S, move)
  for _, m in ipairs((S:moves())) do
    if m == move then return true end
  end
  return false
end

describe("S:search (alpha-beta over a described game)", function()
  it("takes an immediate win in tic-tac-toe (a1 b1 held, c1 wins)", function()
    local S = position(T.tictactoe(), "a1 a2 b1 b2")
    local move, value, info = S:search { depth = 3 }
    assert.equal("c1", S:move_text(move))
    assert.is_true(value > WIN)
    assert.is_true(info.exact)
  end)

  it("blocks an immediate loss in tic-tac-toe (O threatens c2)", function()
    local S = position(T.tictactoe(), "a1 a2 c3 b2")
    local move = S:search { depth = 4 }
    assert.equal("c2", S:move_text(move))
  end)

  it("takes an immediate win in Connect Four (three in column a)", function()
    local S = position(T.connect4(), "a b a b a b")
    local move, value = S:search { depth = 4 }
    assert.equal(S:parse_move("a"), move)
    assert.is_true(value > WIN)
  end)

  it("blocks an immediate loss in Connect Four", function()
    local S = position(T.connect4(), "a b a b a")
    local move = S:search { depth = 4 }
    assert.equal(S:parse_move("a"), move)
  end)

  it("sees a double threat at once, as a loss (forced moves in a game decided by lines)", function()
    -- White holds b1 c1 d1: a and e both complete its four, Black can take one
    local S = position(T.connect4(), "g b g c f d")
    local _, value = S:search { depth = 1 }
    assert.equal(-(WIN + 256 - 2), value)
    local _, unforced = S:search { depth = 1, forcing = false }
    assert.is_true(unforced > -WIN, tostring(unforced)) -- one ply sees no line yet
  end)

  it("searches only the block of a single threat, and only the win where there is one", function()
    local S = position(T.connect4(), "a b a b a")
    local move, _, info = S:search { depth = 3 }
    local _, _, wide = S:search { depth = 3, forcing = false }
    assert.equal(S:parse_move("a"), move)
    assert.is_true(info.nodes < wide.nodes, ("%d %d"):format(info.nodes, wide.nodes))
    S = position(T.connect4(), "a b a b a b")
    move, _, info = S:search { depth = 5 }
    assert.equal(S:parse_move("a"), move)
    assert.equal(2, info.nodes) -- the root and its one winning child, at every depth
  end)

  it("refuses a forcing that is not a boolean, naming the field", function()
    local S = position(T.connect4())
    assert.has_error(function() S:search { depth = 1, forcing = "yes" } end,
      "bad argument #1 to 'search' (field 'forcing': a boolean expected)")
  end)

  it("searches tic-tac-toe from the start to the end: a draw, exactly", function()
    local S = position(T.tictactoe())
    local move, value, info = S:search { depth = 9 }
    assert.equal(0, value)
    assert.is_true(info.exact)
    assert.is_true(is_legal(S, move))
  end)

  it("returns a legal move on Breakthrough at depth 3 and leaves the state as it was", function()
    local S = position(T.breakthrough())
    local before = S:clone()
    local move, _, info = S:search { depth = 3 }
    assert.is_true(is_legal(S, move))
    assert.equal(3, info.depth)
    assert.is_true(S == before)
    assert.equal(0, S:ply())
  end)

  it("sees the recapture past the horizon (quiescence): Breakthrough, d4xe5 is met by f6xe5", function()
    local S = position(T.breakthrough(), "d2-d3 f7-f6 d3-d4 e7-e6 a2-a3 e6-e5")
    local quiet, quiet_value = S:search { depth = 1, quiescence = 0 }
    assert.equal("d4-e5", S:move_text(quiet))
    assert.is_true(quiet_value >= 100)
    local move, value = S:search { depth = 1 }
    assert.equal("d4-d5", S:move_text(move)) -- out of e5's reach, no piece lost
    assert.is_true(value < 100)
  end)

  it("respects a node limit and still returns a legal move", function()
    local S = position(T.breakthrough())
    for _, limit in ipairs { 1, 50, 2000 } do
      local move, _, info = S:search { depth = 20, nodes = limit }
      assert.is_true(info.nodes <= limit, ("%d nodes for a limit of %d"):format(info.nodes, limit))
      assert.is_true(info.stopped)
      assert.is_true(is_legal(S, move))
    end
  end)

  it("stops by time with a move", function()
    local S = position(T.gomoku(15))
    local move, _, info = S:search { time = 0.05 }
    assert.is_true(is_legal(S, move))
    assert.is_true(info.depth >= 1)
  end)

  it("passes where the side to move must (and says what it costs)", function()
    -- 1 x 3: black a1, white b1; a stone goes next to one's own: black has no move
    local tbl = T.game { name = "pass", rows = 1, cols = 3, cells = { 1, 2, 0 },
      rules = { { op = "place", kind = 1, at = "adjacent", dirs = T.dirs("orthogonal") } },
      no_move = "pass", ends = { { op = "full", result = "score" } } }
    local S = core.dgame(tbl):start()
    assert.is_true(S:can_pass())
    local move, value, info = S:search { depth = 4 }
    assert.equal("pass", move)
    assert.is_true(value < -1000000) -- white fills c1 and wins 2 to 1
    assert.is_true(info.exact)
    assert.equal("pass", (S:mcts { playouts = 50 }))
  end)

  it("says a finished game is over", function()
    local S = position(T.tictactoe(), "a1 a2 b1 b2 c1")
    assert.same({ nil, "game over" }, { S:search { depth = 2 } })
    assert.same({ nil, "game over" }, { S:mcts { playouts = 10 } })
  end)

  it("names the option at fault", function()
    local S = position(T.tictactoe())
    for _, case in ipairs {
      { { depth = 0 }, "depth" }, { { depth = "x" }, "depth" }, { { time = -1 }, "time" },
      { { nodes = 0 }, "nodes" }, { { tt_mb = 0 }, "tt_mb" }, { { tt_mb = 1e9 }, "tt_mb" },
      { { values = "x" }, "values" }, { { values = { -1 } }, "values" }, { { quiescence = 33 }, "quiescence" },
    } do
      local ok, err = pcall(S.search, S, case[1])
      assert.is_false(ok)
      assert.matches(case[2], err, 1, true)
    end
    assert.has_error(function() S:search(5) end)
  end)
end)

describe("core.dgame_searcher (a table kept between searches)", function()
  local MIDGAME = "c f e b c c c e e e c f e f"

  it("searches a position seen before in fewer nodes, to the same move and value", function()
    local C = position(T.connect4(), MIDGAME)
    local kept = core.dgame_searcher { tt_mb = 4 }
    local m0, v0, i0 = C:search { depth = 9, tt_mb = 4 }
    local m1, v1, i1 = C:search { depth = 9, searcher = kept }
    local m2, v2, i2 = C:search { depth = 9, searcher = kept }
    assert.same({ m0, v0, i0.nodes }, { m1, v1, i1.nodes })
    assert.same({ m0, v0 }, { m2, v2 })
    assert.is_true(i2.nodes < i1.nodes / 2)
    -- after the move played, its entries still serve: fewer nodes than afresh
    assert(C:play(m0))
    local _, _, fresh = C:search { depth = 8, tt_mb = 4 }
    local _, _, again = C:search { depth = 8, searcher = kept }
    assert.is_true(again.nodes < fresh.nodes)
  end)

  it("empties its table for another game, evaluation values or options", function()
    local C = position(T.connect4(), MIDGAME)
    local X = position(T.tictactoe(), "a1")
    local _, _, fresh = C:search { depth = 9, tt_mb = 4 }
    for _, case in ipairs {
      { X, {}, {} }, { C, { values = { 3 } }, {} }, { C, { forcing = false }, {} },
      { C, { quiescence = 2 }, {} },
    } do
      local kept = core.dgame_searcher { tt_mb = 4 }
      assert(C:search { depth = 9, searcher = kept })
      local opts = { depth = 6, searcher = kept }
      for k, v in pairs(case[2]) do opts[k] = v end
      assert(case[1]:search(opts))
      local _, _, info = C:search { depth = 9, searcher = kept }
      assert.equal(fresh.nodes, info.nodes)
    end
  end)

  it("names a searcher at fault", function()
    local C = position(T.connect4())
    local kept = core.dgame_searcher()
    kept:close()
    for _, case in ipairs { { 5, "searcher" }, { kept, "closed" }, { core.rng(1), "searcher" } } do
      local ok, err = pcall(C.search, C, { depth = 2, searcher = case[1] })
      assert.is_false(ok)
      assert.matches(case[2], err, 1, true)
    end
    assert.has_error(function() core.dgame_searcher { tt_mb = 0 } end)
  end)
end)

describe("S:mcts (UCT over a described game)", function()
  it("finds the immediate win in tic-tac-toe and Connect Four", function()
    local S = position(T.tictactoe(), "a1 a2 b1 b2")
    local move, info = S:mcts { playouts = 2000, seed = 3 }
    assert.equal("c1", S:move_text(move))
    assert.is_true(info.value > 0.5)
    local C = position(T.connect4(), "a b a b a b")
    assert.equal(C:parse_move("a"), (C:mcts { playouts = 2000, seed = 3 }))
  end)

  it("proves a win in one at the expansion: found with a single playout, whatever the seed", function()
    local C = position(T.connect4(), "a b a b a b")
    local G = position(T.gomoku(9), "a1 a9 b1 b9 c1 c9 d1 d9")
    for seed = 1, 8 do
      local move, info = C:mcts { playouts = 1, seed = seed }
      assert.equal(C:parse_move("a"), move)
      assert.equal(1, info.value)
      assert.equal("e1", G:move_text((G:mcts { playouts = 1, seed = seed })))
    end
  end)

  it("blocks the immediate loss in Connect Four", function()
    local C = position(T.connect4(), "a b a b a")
    assert.equal(C:parse_move("a"), (C:mcts { playouts = 3000, seed = 5 }))
  end)

  it("gives the same move and visits for the same seed", function()
    local S = position(T.breakthrough())
    local m1, i1 = S:mcts { playouts = 500, seed = 7 }
    local m2, i2 = S:mcts { playouts = 500, seed = 7 }
    assert.equal(m1, m2)
    assert.same(i1.visits, i2.visits)
    assert.equal(500, i1.playouts)
    assert.is_true(is_legal(S, m1))
    local total = 0
    for move, n in pairs(i1.visits) do
      assert.is_true(is_legal(S, move))
      total = total + n
    end
    assert.equal(500, total)
  end)

  it("stops by time (processor seconds) with a move", function()
    local S = position(T.breakthrough())
    local move, info = S:mcts { time = 0.02 }
    assert.is_true(is_legal(S, move))
    assert.is_true(info.playouts >= 1)
  end)

  it("plays a lone move at once", function()
    local S = position(T.tictactoe(), "a1 b1 c1 b2 a2 c2 b3 a3")
    local move, info = S:mcts { playouts = 100 }
    assert.equal("c3", S:move_text(move))
    assert.equal(0, info.playouts)
  end)

  it("keeps its tree within max_nodes and the state as it was", function()
    local S = position(T.breakthrough())
    local before = S:clone()
    local move, info = S:mcts { playouts = 3000, max_nodes = 100 }
    assert.is_true(info.nodes <= 100 or info.nodes <= 1 + #(S:moves()))
    assert.is_true(is_legal(S, move))
    assert.is_true(S == before)
  end)

  it("names the option at fault", function()
    local S = position(T.tictactoe())
    for _, case in ipairs {
      { { playouts = 0 }, "playouts" }, { { time = -1 }, "time" }, { { seed = 1.5 }, "seed" },
      { { c = -1 }, "'c'" }, { { max_nodes = 1 }, "max_nodes" }, { { playouts = "x" }, "playouts" },
    } do
      local ok, err = pcall(S.mcts, S, case[1])
      assert.is_false(ok)
      assert.matches(case[2], err, 1, true)
    end
  end)
end)

describe("the alphabeta and mcts policies on a described game", function()
  local game = require "boardscript.game"
  local players = require "boardscript.players"

  local function connect4_game(texts, seed)
    local g = game.new(dofile("lua/examples/connect4.lua"), nil, core.rng(seed or 1))
    for text in (texts or ""):gmatch("%S+") do assert(g:play(g.rules:parse_move(text, g.state))) end
    return g
  end

  it("play a described Connect Four in C: the winning drop", function()
    for _, spec in ipairs { "alphabeta:depth=4", "mcts:playouts=2000" } do
      local g = connect4_game("a b a b a b")
      local p = players.load(spec, g.rules)
      assert.equal(g.rules:parse_move("a", g.state), players.choose(p, g))
    end
  end)

  it("alphabeta keeps its described searcher's table from move to move, and frees it on close", function()
    local inst = players.load("alphabeta:depth=7")
    local g = connect4_game("c f e b c c c e e e c f e f")
    local counts = {}
    local ctx = { log = function(fmt, ...)
      local line = fmt:format(...)
      counts[#counts + 1] = tonumber(line:match("nodes (%d+)"))
    end }
    for _ = 1, 2 do assert(inst.policy:choose(g, ctx)) end
    assert.equal(2, #counts)
    assert.is_true(counts[2] < counts[1])
    assert.is_not_nil(rawget(inst.policy, "dgame_searcher"))
    inst.policy:close()
    assert.is_nil(rawget(inst.policy, "dgame_searcher"))
  end)

  it("give the same moves for the same seed (mcts)", function()
    local a = players.choose(players.load("mcts:playouts=300"), connect4_game(nil, 9))
    local b = players.choose(players.load("mcts:playouts=300"), connect4_game(nil, 9))
    assert.equal(a, b)
  end)
end)
