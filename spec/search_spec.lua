-- The C searcher (core.searcher) and the alphabeta policy: the core's
-- description of every built-in capture rule set agrees with its Lua hooks
-- position by position, the exact solver matches the FFO scores, alphabeta
-- only plays legal moves and beats the simpler policies.
local bs = require "boardscript"
local core = require "boardscript.core"
local players = require "boardscript.players"
local rules = require "boardscript.rules"

local SOURCE = assert(os.getenv("BOARDSCRIPT_SOURCE"), "BOARDSCRIPT_SOURCE is set by ctest")
-- Under qemu-user (scripts/cross-test sets BOARDSCRIPT_EMULATED) a new
-- thread of the emulated process spins and never runs (as a forked child
-- does: serve_spec), so helper threads are checked natively only.
local THREADS = os.getenv("BOARDSCRIPT_EMULATED") and 1 or 2

local function key_set(list)
  local set = {}
  for _, m in ipairs(list) do set[m[1] .. "," .. m[2]] = true end
  return set
end

-- Plays a seeded random game, checking the core's view at every position.
local function check_game(searcher, g)
  local positions = 0
  while true do
    local st = g.state
    local opts = { game = rules.core_game(g.rules, st), passes = st.passes, piece = st.piece,
                   turns = st.turns, unable = st.unable }
    local view = searcher:position(st.board, st.player, opts)
    positions = positions + 1
    assert.equal(g:finished(), view.finished)
    if view.finished then
      local a, b = g:score()
      local margin = st.player == "black" and a - b or b - a
      if g:winner() == "draw" then assert.equal(0, view.value) end
      assert.equal(margin, view.value)
      return positions
    end
    assert.same(key_set(g:moves()), key_set(view.moves))
    assert.equal(g:can_pass(), view.can_pass)
    local moves = g:moves()
    local choices = #moves + (g:can_pass() and 1 or 0)
    local pick = g.rng:random(choices)
    if pick > #moves then assert.is_true(g:pass()) else assert.truthy(g:play(moves[pick])) end
  end
end

describe("the core's game descriptions", function()
  local searcher = core.searcher { tt_mb = 1 }
  local cases = {
    { "reversi", {} }, { "reversi", { size = 6 } }, { "reversi", { size = 10 } },
    { "blocks", { blocks = "6" } }, { "blocks", { size = 12, blocks = "20" } },
    { "othello", {} }, { "othello-strict", {} },
    { "flipflop", {} }, { "flipflop", { size = 10 } },
    { SOURCE .. "/lua/examples/orthogonal.lua", {} }, { SOURCE .. "/lua/examples/octagon.lua", {} },
  }
  for _, case in ipairs(cases) do
    it(("agree with the hooks of %s %s at every position of seeded random games"):format(
      case[1]:match("[^/]*$"), next(case[2]) and "(options)" or ""), function()
      assert.is_true(rules.searched_in_core(rules.load(case[1])))
      for seed = 1, 6 do
        check_game(searcher, bs.new_game(case[1], case[2], seed))
      end
    end)
  end

  it("are dropped by a variant that overrides a vouched hook (winner too)", function()
    assert.is_false(rules.searched_in_core(rules.load(SOURCE .. "/lua/examples/anti.lua")))
    assert.is_true(rules.counted_in_core(rules.load(SOURCE .. "/lua/examples/anti.lua")))
    local v = rules.variant(require "boardscript.rules.reversi", { name = "v" })
    function v:moves(state) return require("boardscript.rules.reversi").moves(self, state) end
    assert.is_false(rules.searched_in_core(v))
  end)
end)

describe("the exact solver", function()
  -- FFO positions 1, 2, 3, 5 and 7 (public test set): board, side to move, best score.
  local FFO = {
    { "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--", "black", 18 },
    { "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX-", "black", 10 },
    { "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX", "black", 2 },
    { "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX--", "black", 32 },
  }
  local function board_of(text)
    local b = core.board(8)
    for i = 1, 64 do
      local ch = text:sub(i, i)
      if ch == "X" then b:set((i - 1) // 8 + 1, (i - 1) % 8 + 1, "black")
      elseif ch == "O" then b:set((i - 1) // 8 + 1, (i - 1) % 8 + 1, "white") end
    end
    return b
  end
  it("finds the FFO scores (empties to the winner)", function()
    local s = core.searcher { tt_mb = 16 }
    for i, case in ipairs(FFO) do
      for threads = 1, THREADS do
        s:clear()
        local move, margin, info = s:solve(board_of(case[1]), case[2], { game = { empties_to_winner = true },
                                                                          threads = threads })
        assert.equal(case[3], margin, "position " .. i)
        assert.is_true(info.exact)
        assert.equal(threads, info.threads)
        assert.equal("table", type(move))
      end
    end
  end)

  it("on a clock, where a solve cannot finish, plays a searched move, not a one-ply one", function()
    -- FFO #50 (26 empty cells): no solve ends in 0.3 s; the search before it does
    local b = board_of("----X-----XXX----OOOXOOO-OOOXOOO-OXOXOXO-OOXXOOO--OOXO----O--O--")
    local s = core.searcher { tt_mb = 16 }
    local move, _, info = s:search(b, "black", { time = 0.3, endgame = 30 })
    assert.equal("table", type(move))
    assert.is_false(info.exact)
    assert.is_true(info.stopped)
    assert.is_true(info.depth >= 2, "depth " .. info.depth)
  end)

  it("on a clock proves win, loss or draw from `wld` empty cells, then with time left solves exactly",
    function()
    local ev = require("boardscript.evalfile").for_game(nil, "reversi", 8)
    local s = core.searcher { tt_mb = 16 }
    local seen = {}
    for seed = 1, 8 do
      local g = bs.game.new("reversi", {}, core.rng(seed))
      while g.state.board:count("empty") > 17 or (#g:moves() == 0 and not g:finished()) do
        local moves = g:moves()
        if #moves == 0 then g:pass() else g:play(moves[g.rng:random(#moves)]) end
      end
      if not g:finished() then
        local b, player = g.state.board, g.state.player
        s:clear()
        local _, margin = s:solve(b, player, { evaluator = ev })
        local outcome = margin > 0 and 1 or margin < 0 and -1 or 0
        seen[outcome] = true
        for threads = 1, THREADS do
          s:clear()
          local move, value, info = s:search(b, player, { time = 30, wld = 18, evaluator = ev, threads = threads })
          assert.is_true(info.wld, "seed " .. seed)
          -- proven within 30 % of the time, the exact solve follows: the
          -- margin, and a move that keeps it (a win by the most, a loss by
          -- the least)
          assert.is_true(info.exact, "seed " .. seed)
          assert.is_false(info.stopped)
          assert.equal(17, info.depth)
          assert.equal(margin * 100, value, "seed " .. seed)
          local child = b:clone()
          assert.truthy(child:play(player, move[1], move[2]))
          local other = player == "black" and "white" or "black"
          s:clear()
          local _, after = s:solve(child, other, { evaluator = ev })
          assert.equal(margin, -after, "seed " .. seed)
        end
        -- off without a clock, with wld=0, or from more empty cells than wld
        for _, opts in ipairs { { depth = 6, wld = 18 }, { time = 30, depth = 8, wld = 0 },
                                { time = 30, depth = 8, wld = 16 } } do
          opts.evaluator = ev
          s:clear()
          local _, _, info = s:search(b, player, opts)
          assert.is_false(info.wld)
        end
      end
    end
    assert.is_true(seen[1] and seen[-1], "the positions hold wins and losses")
  end)

  it("agrees with a plain minimax over the hooks on small endgames", function()
    local s = core.searcher { tt_mb = 1 }
    local function minimax(g)
      if g:finished() then
        local a, b = g:score()
        return g:to_move() == "black" and a - b or b - a
      end
      local best = -math.huge
      local moves = g:moves()
      if #moves == 0 then
        g:pass()
        local v = -minimax(g)
        g:undo()
        return v
      end
      for _, m in ipairs(moves) do
        g:play(m)
        local v = -minimax(g)
        g:undo()
        if v > best then best = v end
      end
      return best
    end
    for seed = 1, 12 do
      local g = bs.new_game(seed % 2 == 0 and "reversi" or "blocks", { size = 6 }, seed)
      while g.state.board:count("empty") > 7 and not g:finished() do
        local moves = g:moves()
        if #moves == 0 then g:pass() else g:play(moves[g.rng:random(#moves)]) end
      end
      if not g:finished() then
        local _, margin = s:solve(g.state.board, g.state.player,
          { game = rules.core_game(g.rules, g.state), passes = g.state.passes })
        assert.equal(minimax(g), margin, "seed " .. seed)
      end
    end
  end)
end)

describe("core.searcher", function()
  it("stops within its time budget", function()
    local s = core.searcher { tt_mb = 4 }
    local g = bs.new_game("reversi")
    local _, _, info = s:search(g.state.board, "black", { time = 0.2 })
    -- stopped by the clock, or earlier: settled, or the next iteration would not finish
    assert.is_true(info.stopped or info.depth >= 4, "depth " .. info.depth)
    assert.is_true(info.seconds < 0.2 * 1.5 + 0.1, "took " .. info.seconds)
  end)

  it("takes an evaluation from Lua, and raises its error", function()
    local s = core.searcher { tt_mb = 1 }
    local g = bs.new_game("reversi")
    local calls = 0
    local move = s:search(g.state.board, "black", { depth = 2, evaluate = function(board, player)
      calls = calls + 1
      return board:count(player) * 100
    end })
    assert.is_true(calls > 0)
    assert.truthy(g:check(move))
    assert.has_error(function()
      s:search(g.state.board, "black", { depth = 2, evaluate = function() error("no eval", 0) end })
    end, "no eval")
  end)

  it("names the field of a bad option or weight", function()
    local s = core.searcher()
    local b = bs.new_game("reversi").state.board
    assert.has_error(function() s:search(b, "black", { game = { ending = "never" } }) end,
      "bad argument #3 to 'search' (field 'game.ending': unknown value 'never')")
    assert.has_error(function() s:set_weights { mobilty = 3 } end)
    assert.has_error(function() core.searcher { tt_mb = 0 } end)
    s:set_weights { mobility = 99 }
    assert.equal(99, s:weights().mobility)
  end)
end)

describe("the alphabeta policy", function()
  local function match(black, white, games, rules_name, opts)
    local wins = 0
    for seed = 1, games do
      local g = bs.game.new(rules_name, opts, core.rng(seed))
      local seats = { black = players.load(black), white = players.load(white) }
      if seed % 2 == 0 then seats = { black = players.load(white), white = players.load(black) } end
      -- two random opening plies so the games differ
      for _ = 1, 2 do
        local moves = g:moves()
        g:play(moves[g.rng:random(#moves)])
      end
      while not g:finished() do
        local m = players.choose(seats[g:to_move()], g)
        if m == "pass" then g:pass() else g:play(m) end
      end
      local winner = g:winner()
      local ours = seed % 2 == 0 and "white" or "black"
      if winner == ours then wins = wins + 1 end
    end
    return wins
  end

  it("plays only legal moves in every capture rule set", function()
    for _, case in ipairs {
      { "blocks", { size = 8, blocks = "6" } }, { "othello", {} }, { "othello-strict", {} },
      { "flipflop", {} }, { "reversi", { size = 4 } }, { "blocks", { size = 16, blocks = "30" } },
    } do
      match("alphabeta:depth=2", "random", 2, case[1], case[2])
    end
  end)

  it("at depth 4 beats random in at least 95 of 100 games and greedy in at least 80", function()
    local vs_random = match("alphabeta:depth=4,endgame=10", "random", 100, "reversi", {})
    local vs_greedy = match("alphabeta:depth=4,endgame=10", "greedy", 100, "reversi", {})
    assert.is_true(vs_random >= 95, "beat random " .. vs_random .. " times")
    assert.is_true(vs_greedy >= 80, "beat greedy " .. vs_greedy .. " times")
  end)

  it("solves exactly from depth + 10 empty cells (14 to 20) unless endgame is given", function()
    -- a seeded random game of 8 x 8 Reversi up to 17 empty cells
    local g = bs.game.new("reversi", {}, core.rng(5))
    while g.state.board:count("empty") > 17 do
      local moves = g:moves()
      if #moves == 0 then g:pass() else g:play(moves[g.rng:random(#moves)]) end
    end
    assert.is_false(g:finished())
    local function exact(spec)
      local logged
      players.load(spec).policy:choose(g, { log = function(fmt, ...) logged = fmt:format(...) end })
      return logged:match(" exact$") ~= nil
    end
    assert.is_false(exact("alphabeta:depth=6"))          -- 14
    assert.is_true(exact("alphabeta:depth=8"))           -- 18
    assert.is_false(exact("alphabeta:depth=8,endgame=16"))
    assert.is_true(exact("alphabeta:depth=2,endgame=17"))
    assert.is_false(exact("alphabeta:time=0.05"))        -- 14
    -- on a clock, from `wld` empty cells, win/loss/draw is proven
    local function proven(spec)
      local logged
      players.load(spec).policy:choose(g, { log = function(fmt, ...) logged = fmt:format(...) end })
      return logged:match(" win/loss/draw") ~= nil
    end
    assert.is_true(proven("alphabeta:time=5,wld=17"))
    assert.is_false(proven("alphabeta:time=5,wld=16"))
    assert.is_false(proven("alphabeta:time=5,wld=0"))
    assert.is_false(proven("alphabeta:depth=4,wld=17"))
    assert.is_true(proven("alphabeta:time=5"))          -- 23 by default at 5 s
    local alphabeta = require "boardscript.ai.alphabeta"
    assert.same({ 14, 14, 15, 18, 20, 20 }, { alphabeta.default_endgame(nil), alphabeta.default_endgame(4),
      alphabeta.default_endgame(5), alphabeta.default_endgame(8), alphabeta.default_endgame(10),
      alphabeta.default_endgame(60) })
    assert.same({ 0, 16, 20, 23, 25, 30 }, { alphabeta.default_wld(nil), alphabeta.default_wld(0.1),
      alphabeta.default_wld(1), alphabeta.default_wld(2.2, 2), alphabeta.default_wld(10), alphabeta.default_wld(1e6) })
  end)

  it("cuts by the shipped file's Multi-ProbCut parameters unless mpc=off; mpc=W sets the width", function()
    local g = bs.game.new("reversi", {}, core.rng(3))
    for _ = 1, 16 do
      local moves = g:moves()
      g:play(moves[g.rng:random(#moves)])
    end
    local function nodes(spec)
      local logged
      players.load(spec).policy:choose(g, { log = function(fmt, ...) logged = fmt:format(...) end })
      return tonumber(logged:match(" nodes (%d+) "))
    end
    local on, off = nodes("alphabeta:depth=9"), nodes("alphabeta:depth=9,mpc=off")
    assert.truthy(on < off / 2, ("%d nodes with the cuts, %d without"):format(on, off))
    assert.equal(on, nodes("alphabeta:depth=9,mpc=on"))
    assert.equal(on, nodes("alphabeta:depth=9,mpc=1.5"))
    assert.truthy(nodes("alphabeta:depth=9,mpc=1") < on)
    -- the hand-written evaluation has no parameters: the option changes nothing
    assert.equal(nodes("alphabeta:depth=7,eval=hand"), nodes("alphabeta:depth=7,eval=hand,mpc=off"))
    for _, bad in ipairs { "maybe", "0", "200" } do
      local ok, err = pcall(players.load, "alphabeta:mpc=" .. bad)
      assert.falsy(ok)
      assert.truthy(tostring(err):find("is not on, off or a width from 0.01 to 100", 1, true), err)
    end
  end)

  local it_threads = THREADS > 1 and it or pending
  it_threads("searches with helper threads (threads=2): one thread's exact values, legal moves, one beside evaluate",
    function()
    local ev = require("boardscript.evalfile").for_game(nil, "reversi", 8)
    local s = core.searcher { tt_mb = 8 }
    for seed = 1, 6 do
      local g = bs.game.new("reversi", {}, core.rng(seed))
      while g.state.board:count("empty") > 13 and not g:finished() do
        local moves = g:moves()
        if #moves == 0 then g:pass() else g:play(moves[g.rng:random(#moves)]) end
      end
      if not g:finished() then
        local b, player = g.state.board, g.state.player
        -- searched to the end (every leaf a finished game): the exact value, whatever the threads did
        local move, value, info = s:search(b, player, { depth = 60, endgame = 0, evaluator = ev, mpc = false,
                                                        threads = 2 })
        assert.equal(2, info.threads)
        s:clear()
        local _, margin = s:solve(b, player, { evaluator = ev })
        assert.equal(margin * 100, value, "seed " .. seed)
        if move ~= "pass" then assert.is_true(key_set(g:moves())[move[1] .. "," .. move[2]]) end
      end
    end
    local g = bs.game.new("reversi", {}, core.rng(9))
    for _ = 1, 20 do
      local moves = g:moves()
      g:play(moves[g.rng:random(#moves)])
    end
    local legal = key_set(g:moves())
    for _, opts in ipairs { { depth = 8, threads = 2, evaluator = ev }, { time = 0.05, threads = 2, evaluator = ev },
                            { depth = 6, threads = 8 }, { depth = 4, threads = 1, evaluator = ev } } do
      local move, _, info = s:search(g.state.board, g.state.player, opts)
      assert.is_true(legal[move[1] .. "," .. move[2]])
      assert.equal(opts.threads, info.threads)
    end
    local _, _, info = s:search(g.state.board, g.state.player,
      { depth = 3, threads = 2, evaluate = function() return 0 end })
    assert.equal(1, info.threads)
    local ok, err = pcall(s.search, s, g.state.board, g.state.player, { threads = 9 })
    assert.falsy(ok)
    assert.truthy(tostring(err):find("threads", 1, true), err)
    -- the policy's option
    local logged
    players.load("alphabeta:depth=5,threads=2").policy:choose(g, { log = function(fmt, ...)
      logged = fmt:format(...)
    end })
    assert.truthy(logged:find(" depth 5 ", 1, true), logged) -- no deeper than asked, whatever the helper did
    end)

  it("goes without a technique on request (without = {...}): the same exact values, other trees", function()
    local ev = require("boardscript.evalfile").for_game(nil, "reversi", 8)
    local s = core.searcher { tt_mb = 8 }
    -- an exact solve (16 empty cells) with each of the solver's techniques left out
    local e = bs.game.new("reversi", {}, core.rng(3))
    while e.state.board:count("empty") > 16 do
      local moves = e:moves()
      if #moves == 0 then e:pass() else e:play(moves[e.rng:random(#moves)]) end
    end
    local function solved(without)
      s:clear()
      local _, margin, info = s:solve(e.state.board, e.state.player, { evaluator = ev, without = without })
      return margin, info.nodes
    end
    local margin, nodes = solved(nil)
    for _, name in ipairs { "etc", "stability", "eval_order", "table" } do
      local m, n = solved { name }
      assert.equal(margin, m, name)
      assert.are_not.equal(nodes, n, name)
    end
    -- the midgame: the learned path (ordering, aspiration, table) and the generic one (killers)
    local g = bs.game.new("reversi", {}, core.rng(4))
    for _ = 1, 18 do
      local moves = g:moves()
      g:play(moves[g.rng:random(#moves)])
    end
    local function searched(opts)
      s:clear()
      local _, _, info = s:search(g.state.board, g.state.player, opts)
      return info.nodes
    end
    local learned = searched { depth = 8, evaluator = ev, mpc = false }
    for _, name in ipairs { "eval_order", "aspiration", "table" } do
      assert.are_not.equal(learned, searched { depth = 8, evaluator = ev, mpc = false, without = { name } }, name)
    end
    assert.are_not.equal(searched { depth = 6 }, searched { depth = 6, without = { "killers" } })
    local ok, err = pcall(s.search, s, g.state.board, g.state.player, { without = { "etc", "speed" } })
    assert.falsy(ok)
    assert.truthy(tostring(err):find("field 'without': item 2 is not", 1, true), err)
    ok, err = pcall(players.load, "alphabeta:without=etc+speed")
    assert.falsy(ok)
    assert.truthy(tostring(err):find("is not a list of etc", 1, true), err)
    assert.truthy(players.load("alphabeta:depth=3,without=etc+stability").policy:choose(g, {}))
  end)
end)
