-- `boardscript bench`: the shape of its figures (names, units, numbers),
-- never the speed.
local json = require "dkjson"
local support = require "support.host"
local bench = require "boardscript.bench"

local UNITS = {
  perft8 = "leaves/s", perft6 = "leaves/s", perft10 = "leaves/s", perft16 = "leaves/s", perft26 = "leaves/s",
  perft16_mid = "leaves/s", perft26_mid = "leaves/s", perft8_orth = "leaves/s", perft16_orth = "leaves/s",
  search = "nodes/s", search_learned = "nodes/s", search_learned_2t = "nodes/s", ffo = "s", playout_c = "games/s",
  playout_lua = "games/s",
  playout_hooks = "games/s",
  playout_lua_math = "games/s", playout_lua_board = "games/s", playout_lua_own = "games/s",
  mcts = "playouts/s", dots = "s", start_version = "ms", start_play = "ms",
}

-- Two FFO positions (1 and 5 of the public set) with their scores.
local OBF = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;\n"
  .. "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X; G8:+32; G2:+12;\n"

describe("boardscript bench", function()
  it("measures every figure with --quick --json, each in a process of its own", function()
    local path = os.tmpname()
    support.spit(path, OBF)
    -- under qemu-user a thread never runs (search_spec): the two-thread figure natively only
    local emulated = os.getenv("BOARDSCRIPT_EMULATED") ~= nil
    local expected = bench.names()
    if emulated then table.remove(expected, 12) end
    local status, out, err = support.run { "bench", "--quick", "--json", "--obf", path,
                                           "--only", table.concat(expected, ",") }
    os.remove(path)
    assert.equal("", err)
    assert.equal(0, status)
    local doc = json.decode(out)
    assert.is_table(doc)
    assert.is_true(doc.quick)
    assert.is_string(doc.boardscript)
    assert.same(require("boardscript.core").build, doc.build)
    local names = {}
    for i, figure in ipairs(doc.figures) do
      names[i] = figure.name
      assert.equal(UNITS[figure.name], figure.unit, figure.name)
      assert.is_string(figure.what)
      assert.is_nil(figure.error, figure.name)
      assert.is_nil(figure.skipped, figure.name)
      for _, key in ipairs { "value", "seconds", "count" } do
        assert.is_true(type(figure[key]) == "number" and figure[key] > 0 and figure[key] < math.huge,
          figure.name .. " " .. key)
      end
      assert.is_string(figure.count_unit)
      assert.is_true(figure.clock == "cpu" or figure.clock == "wall")
      if io.open("/proc/self/status") then assert.is_true(figure.rss_kib > 0, figure.name) end
    end
    assert.same(expected, names)
    assert.same({ "perft8", "perft6", "perft10", "perft16", "perft8_orth", "perft16_orth", "perft26", "perft16_mid",
      "perft26_mid", "search", "search_learned", "search_learned_2t", "ffo",
      "playout_c", "playout_lua", "playout_lua_math", "playout_lua_own", "playout_lua_board", "playout_hooks",
      "mcts", "dots", "start_version", "start_play" }, bench.names())
    local ffo = emulated and 12 or 13
    assert.matches("solve exactly 2 positions of [^ ]+ %(2 with the expected score%)", doc.figures[ffo].what)
    if not emulated then
      assert.matches("^search_learned's positions by 2 threads", doc.figures[12].what)
      assert.equal("wall", doc.figures[12].clock)
    end
    assert.matches("learned evaluation reversi%-8%.bse", doc.figures[11].what)
    -- the direction-set figures count what the reference walk counts
    local b = require("boardscript.rules").load("reversi"):setup().board
    assert.equal(b:perft("black", 6, { flip = "orthogonal", reference = true }), doc.figures[5].count)
    assert.matches("perft reversi 8x8, flips orthogonal only depth 6", doc.figures[5].what, 1, true)
  end)

  it("prints one line per figure and skips the FFO figure without --obf", function()
    local status, out = support.run { "bench", "--quick", "--only", "perft6,ffo,dots" }
    assert.equal(0, status)
    local lines = {}
    for line in out:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.equal(4, #lines)
    local core = require "boardscript.core"
    local build = core.build.flags == "" and "portable %(the compiler's baseline%)"
      or core.build.flags:gsub("%p", "%%%0") .. " %(this CPU's instruction sets"
    assert.matches("^build +" .. build, lines[1])
    assert.matches("; 8 x 8 path: " .. (core.build.vector == "portable" and "portable C$"
      or core.build.chosen == "build" and "AVX2, fixed at build time$" or "AVX2, chosen at run time$"), lines[1])
    assert.matches("^perft6 +[%d,]+ leaves/s +perft reversi 6x6 depth 7, 47,740 leaves in [%d.]+ s %(cpu%); "
      .. "peak RSS [%d.]+ MiB$", lines[2])
    assert.matches("^ffo +skipped: no %-%-obf FILE", lines[3])
    assert.matches("^dots +[%d.]+ s +solve dots 3x3 exactly %(first player's margin %-3%), [%d,]+ nodes", lines[4])
  end)

  -- perft of each shipped described game at its --quick depth (known counts)
  local QUICK_LEAVES = {
    connect4 = 2401, breakthrough = 11132, gomoku = 50400, hex = 14520, ataxx = 6460, amazons = 2176,
    draughts = 7361, tictactoe_d = 15120,
  }

  it("measures every described game with --games: perft leaves/s and playouts/s, a line each", function()
    local status, out, err = support.run { "bench", "--games", "--quick" }
    assert.equal("", err)
    assert.equal(0, status)
    local lines = {}
    for line in out:gmatch("[^\n]+") do lines[#lines + 1] = line end
    local games = require("boardscript.bench.games").GAMES
    assert.equal(1 + 3 * #games, #lines)
    assert.matches("^build ", lines[1])
    for i, game in ipairs(games) do
      local name = game.name:gsub("%p", "%%%0")
      assert.matches(("^%s_perft +[%%d,.]+ leaves/s +perft %s %%d+x%%d+ depth %d %%([%%d]+ leaves a run, 1 run%%), "
        .. "[%%d,]+ leaves in [%%d.]+ s %%(cpu%%); peak RSS"):format(name, name, game.quick_depth), lines[3 * i - 1])
      assert.matches(("^%s_played +[%%d,.]+ leaves/s +perft %s %%d+x%%d+ depth %d, every leaf played %%([%%d]+ leaves "
        .. "a run, 1 run%%)"):format(name, name, game.quick_depth), lines[3 * i])
      assert.matches(("^%s_playouts +[%%d,.]+ playouts/s +random playouts of %s %%d+x%%d+ from the start "
        .. "%%([%%d.]+ plies a game; black %%d+, white %%d+, draws %%d+%%), 5 playouts in [%%d.]+ s %%(cpu%%)")
        :format(name, name), lines[3 * i + 1])
    end
  end)

  it("gives the described games' figures in JSON with --only games, each game's perft its known count", function()
    local status, out, err = support.run { "bench", "--only", "games", "--quick", "--json" }
    assert.equal("", err)
    assert.equal(0, status)
    local doc = json.decode(out)
    local seen = {}
    for _, figure in ipairs(doc.figures) do
      local game, kind = figure.name:match("^(.*)_(%a+)$")
      seen[#seen + 1] = figure.name
      assert.is_nil(figure.error, figure.name)
      assert.is_true(type(figure.value) == "number" and figure.value > 0 and figure.value < math.huge, figure.name)
      assert.equal("cpu", figure.clock)
      if kind == "perft" or kind == "played" then
        assert.equal("leaves/s", figure.unit)
        assert.equal(QUICK_LEAVES[game], figure.leaves, figure.name)
        assert.equal(figure.leaves, figure.count)
      else
        assert.equal("playouts", kind)
        assert.equal("playouts/s", figure.unit)
        assert.equal(5, figure.count)
        assert.is_true(figure.plies >= 5, figure.name)
      end
    end
    assert.same(bench.game_names(), seen)
  end)

  it("rejects an unknown figure with status 2", function()
    local status, out, err = support.run { "bench", "--only", "perft8,warp" }
    assert.equal(2, status)
    assert.equal("", out)
    assert.matches("^boardscript: bench: unknown figure 'warp' %(figures: perft8, perft6,", err)
  end)
end)
