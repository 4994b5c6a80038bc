-- Gomoku 9 x 9 learned in seconds by tables shared by shape (issue 32,
-- item 3; docs/decisions.md, "Described games: tables by shape"): `train`'s
-- defaults for a game alike at every cell beat the hand evaluation at
-- equal depth, where the same games by position do not (0.41 when this was
-- written). `--games` with a seed writes the same file every time.
local support = require "support.host"

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local GOMOKU = SOURCE .. "/lua/examples/gomoku.lua"

describe("train on Gomoku 9 x 9, tables by shape", function()
  it("beats the hand evaluation at depth 2 after 600 games", function()
    local dir, cleanup = support.scratch_dir()
    local path = dir .. "/g9.dgeval"
    local status, out, err = support.run { "train", "--rules", GOMOKU, "--size", "9", "--games", "600", "--rounds",
      "4", "--score-games", "0", "--seed", "1", "--out", path }
    assert.equal(0, status, err)
    assert.truthy(out:find("in 3 tables (symmetry square (all 8 maps), one per shape)", 1, true), out)
    assert.truthy(out:find("self-play at depth 2,", 1, true), out) -- by shape: depth 2 (described.SHAPE)
    status, out, err = support.run { "match", "--rules", GOMOKU, "--size", "9", "--games", "100", "--seed", "1",
      "--a", "alphabeta:depth=2,eval=" .. path, "--b", "alphabeta:depth=2" }
    assert.equal(0, status, err)
    local score = tonumber(out:match("Score of [^\n]*%[([%d.]+)%]"))
    assert.truthy(score and score >= 0.55, out)
    cleanup()
  end)
end)
