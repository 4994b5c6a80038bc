-- Tables shared by shape (issue 32, item 3): core.dgame_eval's `share`
-- ("position", "shape", "both"; src/core/dgame_ntuple.c), what `train`
-- chooses for a game, and the file that keeps it (docs/decisions.md,
-- "Described games: tables by shape").
local core = require "boardscript.core"
local compile = require "boardscript.describe.compile"
local described = require "boardscript.train.described"
local support = require "support.host"
local play = require "support.dgame_play"

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local EXAMPLES = SOURCE .. "/lua/examples/"

local function rules_of(name)
  return require("boardscript.rules").load(EXAMPLES .. name .. ".lua")
end

local function position(name, texts, opts) return play.position(EXAMPLES .. name .. ".lua", texts, opts) end

-- E fitted on `games` random games from S0 (labels: the result for the side to move).
local function fit_random(E, S0, games, seed)
  play.random_trainer(E, S0, games, seed):fit { iterations = 30, ridge = 3 }
  return E
end

-- FNV-1a of a string, as dgame_ntuple.c checks a file.
local function fnv1a(bytes)
  local h = 2166136261
  for i = 1, #bytes do h = ((h ~ bytes:byte(i)) * 16777619) & 0xffffffff end
  return h
end

describe("core.dgame_eval's share", function()
  it("makes one table per window shape: the lines along rows and columns, the diagonals, the squares", function()
    local S = position("tictactoe_d")
    local function tables(opts) return core.dgame_eval(S, opts):info().tables end
    -- 3 rows, 3 columns, 2 diagonals: by position 8 tables (3 under the square's maps), by shape 4 (rows,
    -- columns, each diagonal), 2 under the square's maps (a row is a turned column, a diagonal the other turned)
    assert.same({ 8, 4, 2, 12, 5 }, { tables {}, tables { share = "shape" },
      tables { share = "shape", symmetry = "square" }, tables { share = "both" },
      tables { share = "both", symmetry = "square" } })
    local info = core.dgame_eval(S, { share = "shape" }):info()
    assert.same({ 8, "shape" }, { info.instances, info.share })
    assert.equal("position", core.dgame_eval(S):info().share)
    -- Gomoku 15 x 15: 3 tables (lines along rows and columns, diagonals, 2 x 2 squares) for 768 windows
    local G = core.dgame_eval(position("gomoku"), { length = 5, squares = true, symmetry = "square", share = "shape" })
    assert.same({ 572 + 196, 3 }, { G:info().instances, G:info().tables })
    assert.error_matches(function() core.dgame_eval(S, { share = "everywhere" }) end,
      "share': expected \"position\", \"shape\" or \"both\"")
    assert.error_matches(function() core.dgame_eval(S, { share = 2 }) end, "share")
  end)

  it("values a pattern the same wherever it stands, and keeps that through a file", function()
    local S0 = position("gomoku")
    local opts = { length = 5, squares = true, share = "shape" }
    local E = fit_random(core.dgame_eval(S0, opts), S0, 30, 7)
    local P = fit_random(core.dgame_eval(S0, { length = 5, squares = true }), S0, 30, 7)
    assert.is_true(E:info().nonzero > 100)
    -- the same stones one column and one row over, away from the edges, with the same side to move
    local here, there = "g7 h8 h7 j9 g9", "h8 i9 i8 k10 h10"
    local diagonal = "g7 h8 h7 j9 g9 f6"
    assert.equal(E:value(position("gomoku", here)), E:value(position("gomoku", there)))
    assert.are_not.equal(E:value(position("gomoku", here)), E:value(position("gomoku", diagonal)))
    -- by position they differ (the test can tell)
    assert.are_not.equal(P:value(position("gomoku", here)), P:value(position("gomoku", there)))
    -- with "both", the own tables correct the shared ones place by place
    local B = fit_random(core.dgame_eval(S0, { length = 5, squares = true, share = "both" }), S0, 30, 7)
    assert.are_not.equal(B:value(position("gomoku", here)), B:value(position("gomoku", there)))
    local back = assert(core.dgame_eval_load(E:save()))
    assert.same(E:info(), back:info())
    assert.equal(E:value(position("gomoku", diagonal)), back:value(position("gomoku", diagonal)))
  end)

  it("under the square's maps, turns a shared window's pattern: a turned position is worth the same", function()
    local S0 = position("gomoku", nil, { size = 9 })
    local E = fit_random(core.dgame_eval(S0, { length = 5, squares = true, symmetry = "square", share = "shape" }),
      S0, 30, 3)
    local o = { size = 9 }
    -- b2 c3 d3 e5 under the mirror left-right (h2 g3 f3 e5) and the transpose (b2 c3 c4 e5)
    local want = E:value(position("gomoku", "b2 c3 d3 e5", o))
    assert.equal(want, E:value(position("gomoku", "h2 g3 f3 e5", o)))
    assert.equal(want, E:value(position("gomoku", "b2 c3 c4 e5", o)))
    -- a group that turns a row into a column read the other way (the antitranspose alone): the column's
    -- cells are read in the order the map sends the row's (a1 is row 1, column a; its image c3)
    local T0 = position("tictactoe_d")
    local A = fit_random(core.dgame_eval(T0, { share = "shape", symmetry = { "identity", "antitranspose" } }), T0,
      200, 5)
    assert.equal(3, A:info().tables) -- rows with columns, and each diagonal (the map keeps each one)
    assert.equal(A:value(position("tictactoe_d", "a1 b1 a2")), A:value(position("tictactoe_d", "c3 c2 b3")))
    assert.are_not.equal(A:value(position("tictactoe_d", "a1 b1 a2")), A:value(position("tictactoe_d", "a1 a2 b1")))
  end)

  it("reads a file of version 4 (before share) as tables by position", function()
    local S0 = position("tictactoe_d")
    local E = fit_random(core.dgame_eval(S0, { sides = 2 }), S0, 40, 5)
    local bytes = E:save()
    assert.equal(5, string.unpack("<I4", bytes, 5))
    -- version 4: the same header without its share word (the twelfth), its own checksum
    local body = "BSNT" .. string.pack("<I4", 4) .. bytes:sub(9, 4 + 4 * 11) .. bytes:sub(4 + 4 * 12 + 1, -5)
    local old = assert(core.dgame_eval_load(body .. string.pack("<I4", fnv1a(body))))
    assert.same(E:info(), old:info())
    local S = position("tictactoe_d", "b2 a1")
    assert.equal(E:value(S), old:value(S))
    local bad = body:sub(1, 4 + 4 * 11) .. string.pack("<I4", 3) .. bytes:sub(4 + 4 * 12 + 1, -5)
    local refused = "BSNT" .. string.pack("<I4", 5) .. bad:sub(9)
    assert.is_nil((core.dgame_eval_load(refused .. string.pack("<I4", fnv1a(refused)))))
  end)
end)

describe("train's sharing for a described game", function()
  local function normalised(name, opts)
    local rules = rules_of(name)
    local d = rules.described.description
    return compile.normalised(d, compile.resolve(d, opts or {}))
  end

  it("shares by shape where the rules are alike at every cell, else by position", function()
    assert.equal("shape", described.sharing(normalised("gomoku")))
    assert.equal("shape", described.sharing(normalised("tictactoe_d")))
    for _, name in ipairs { "connect4", "breakthrough", "hex", "ataxx", "amazons", "draughts" } do
      assert.equal("position", described.sharing(normalised(name)), name)
    end
  end)

  it("says how it shares, takes --share, and explores less where it shares by shape", function()
    local dir, cleanup = support.scratch_dir()
    local status, out, err = support.run { "train", "--rules", EXAMPLES .. "tictactoe_d.lua", "--games", "4",
      "--rounds", "1", "--score-games", "0", "--seed", "1", "--out", dir .. "/t.dgeval" }
    assert.equal(0, status, err)
    assert.truthy(out:find("12 windows of 3 cells and 2x2 squares in 3 tables (symmetry square (all 8 maps), one per "
      .. "shape)", 1, true), out)
    assert.truthy(out:find("epsilon 0.05,", 1, true), out)
    status, out, err = support.run { "train", "--rules", EXAMPLES .. "tictactoe_d.lua", "--games", "4", "--rounds",
      "1", "--score-games", "0", "--seed", "1", "--share", "both", "--out", dir .. "/b.dgeval" }
    assert.equal(0, status, err)
    assert.truthy(out:find("per window and per shape)", 1, true), out)
    assert.truthy(out:find("epsilon 0.3,", 1, true), out)
    local E = require("boardscript.described_eval").load(dir .. "/b.dgeval")
    assert.equal("both", E:info().share)
    local refused, _, why = support.run { "train", "--rules", "reversi", "--games", "4", "--share", "shape", "--out",
      dir .. "/r.bse" }
    assert.equal(2, refused)
    assert.truthy(why:find("--share is for a described game", 1, true), why)
    -- TD(lambda) of data files is not for a described game (its own labels are --label's): refused, not ignored
    for _, words in ipairs { { "--lambda", "0.5" }, { "--lambda-depth", "2" } } do
      refused, _, why = support.run { "train", "--rules", EXAMPLES .. "tictactoe_d.lua", "--games", "2", words[1],
        words[2], "--out", dir .. "/l.dgeval" }
      assert.equal(2, refused)
      assert.equal(("boardscript: train: %s is not for a described game (tictactoe_d)\n"):format(words[1]), why)
    end
    -- a file trained on keeps its tables: --share or --phases asking for others is refused, the same ones are fine
    local base = { "train", "--rules", EXAMPLES .. "tictactoe_d.lua", "--games", "2", "--rounds", "1",
      "--score-games", "0", "--seed", "1", "--eval", dir .. "/t.dgeval", "--out", dir .. "/t2.dgeval" }
    local function with(...)
      local argv = table.move(base, 1, #base, 1, {})
      for _, a in ipairs { ... } do argv[#argv + 1] = a end
      return support.run(argv)
    end
    refused, _, why = with("--share", "position")
    assert.equal(2, refused)
    assert.equal(("boardscript: train: --share position: --eval %s/t.dgeval has tables shared by shape, and goes on "
      .. "with them (leave out --share, or start a new file without --eval)\n"):format(dir), why)
    refused, _, why = with("--phases", "3")
    assert.equal(2, refused)
    assert.truthy(why:find(": --eval " .. dir .. "/t.dgeval has 1 phase, and goes on with them", 1, true), why)
    status, _, err = with("--share", "shape")
    assert.equal(0, status, err)
    cleanup()
  end)
end)
