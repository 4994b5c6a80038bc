-- boardscript.bench, the library behind `boardscript bench`: the positions
-- its workloads start from (the rule sets', never a copy), the figures'
-- names and selection, and a failing figure measured as a result. Never
-- the speed.
local core = require "boardscript.core"
local rules_mod = require "boardscript.rules"
local bench = require "boardscript.bench"
local workload = require "boardscript.bench.workload"

local function cells(board)
  local n, out = board:size(), {}
  for r = 1, n do
    for c = 1, n do out[#out + 1] = board:get(r, c) end
  end
  return table.concat(out, " ")
end

describe("boardscript.bench.workload", function()
  it("starts from the reversi rule set's start on every even size", function()
    for _, n in ipairs { 4, 6, 8, 10, 16, 26 } do
      local board, count = workload.start(n)
      assert.equal(0, count)
      assert.equal(cells(rules_mod.load("reversi"):setup({ size = n }).board), cells(board))
    end
  end)

  it("puts the fixed block pattern where the blocks rule set lets a block go (61 on 26 x 26)", function()
    local board, count = workload.start(26, true)
    assert.equal(61, count)
    assert.equal(61, board:count("block"))
    assert.equal(2, board:count("black"))
    assert.equal(2, board:count("white"))
    for r = 1, 26 do
      for c = 1, 26 do
        local centre = (r == 13 or r == 14) and (c == 13 or c == 14)
        local expected = not centre and (r * 7 + c * 3) % 11 == 0
        assert.equal(expected, board:get(r, c) == "block", ("%d,%d"):format(r, c))
      end
    end
    -- on 8 x 8, the centre keeps its discs where the pattern meets it
    local small, small_count = workload.start(8, true)
    assert.equal(small_count, small:count("block"))
    assert.equal("white", small:get(4, 4))
  end)

  it("plays seeded random plies, passing when stuck, and says who is to move", function()
    local a, b = workload.start(8), workload.start(8)
    local pa = workload.random_plies(a, "black", 20, core.rng(7))
    local pb = workload.random_plies(b, "black", 20, core.rng(7))
    assert.equal(pa, pb)
    assert.equal(cells(a), cells(b))
    assert.equal(24, a:count("black") + a:count("white"))
  end)

  it("gives midgame positions with a move for the side to move, the same each time", function()
    local first, again = workload.midgame_positions(3), workload.midgame_positions(3)
    assert.equal(3, #first)
    for i, pos in ipairs(first) do
      assert.is_true(pos.board:move_list(pos.player) > 0)
      assert.equal(cells(again[i].board), cells(pos.board))
      assert.equal(again[i].player, pos.player)
    end
  end)

  it("times a function in processor seconds, at least a microsecond", function()
    local seconds, a, b = workload.timed(function(x) return x, x + 1 end, 1)
    assert.is_true(seconds >= 1e-6)
    assert.equal(1, a)
    assert.equal(2, b)
  end)
end)

describe("boardscript.bench", function()
  it("selects figures by name, in the order asked, and refuses an unknown one", function()
    local chosen = bench.select("dots,perft6")
    assert.equal("dots", chosen[1].name)
    assert.equal("perft6", chosen[2].name)
    assert.equal(bench.FIGURES, bench.select(nil))
    assert.equal(#bench.FIGURES, #bench.names())
    local ok, err = pcall(bench.select, "perft6,warp")
    assert.is_false(ok)
    assert.matches("^bench: unknown figure 'warp' %(figures: perft8, ", err.message)
    ok, err = pcall(bench.select, ",")
    assert.is_false(ok)
    assert.equal("bench: --only needs a figure name", err.message)
  end)

  it("selects the described games' figures with 'games' or --games, never in a plain bench", function()
    local games = require("boardscript.bench.games").GAMES
    local names = {}
    for _, game in ipairs(games) do
      names[#names + 1] = game.name .. "_perft"
      names[#names + 1] = game.name .. "_played"
      names[#names + 1] = game.name .. "_playouts"
    end
    assert.same(names, bench.game_names())
    assert.same({ "connect4", "breakthrough", "gomoku", "hex", "ataxx", "amazons", "draughts", "tictactoe_d" },
      (function()
        local list = {}
        for i, game in ipairs(games) do list[i] = game.name end
        return list
      end)())
    assert.same(bench.GAME_FIGURES, bench.select("games"))
    assert.same(bench.GAME_FIGURES, bench.select(nil, true))
    local chosen = bench.select("perft6,hex_perft", true)
    assert.equal(1 + #bench.GAME_FIGURES, #chosen)
    assert.equal("perft6", chosen[1].name)
    assert.equal("hex_perft", chosen[2].name)
    for _, name in ipairs(bench.names()) do assert.is_nil(name:match("_perft$"), name) end
  end)

  it("measures a figure that fails as a result with its error", function()
    local result = bench.measure({ name = "broken", unit = "s", run = function() error("no luck", 0) end }, {})
    assert.equal("broken", result.name)
    assert.equal("s", result.unit)
    assert.equal("cpu", result.clock)
    assert.equal("no luck", result.error)
  end)

  it("measures a quick perft figure from the rule set's start", function()
    local result = bench.measure(bench.select("perft6")[1], { quick = true })
    assert.is_nil(result.error)
    assert.equal(47740, result.count)
    assert.equal("perft reversi 6x6 depth 7", result.what)
  end)
end)
