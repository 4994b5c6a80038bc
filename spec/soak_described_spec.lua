-- soak on a described game (issue 29): the C engine and the Lua reference
-- of its normalised form run in lockstep with the soak game and are
-- compared at every move (boardscript.soak.described).
local core = require "boardscript.core"
local described = require "boardscript.soak.described"
local soak = require "boardscript.soak"
local T = require "support.ref_tables"

describe("soak of a described game", function()
  if type(core.dgame) ~= "function" then
    pending("core.dgame is not built on this branch")
    return
  end

  it("reads the rule set's described field in its three forms", function()
    local t = T.tictactoe()
    assert.equal(t, described.normalised { described = t })
    assert.equal(t, described.normalised { described = function() return t end })
    local seen
    assert.equal(t, described.normalised({ described = { normalised = function(o) seen = o return t end } }, { k = 1 }))
    assert.same({ k = 1 }, seen)
    assert.is_nil(described.normalised { name = "reversi" })
    assert.is_nil(described.start({ described = t, moves = function() end }))
  end)

  -- pairs of two reference engines: the check itself, apart from the C engine
  local reference = require "boardscript.describe.reference"
  local function pair_of(a, b)
    return { C = reference.dgame(a):start(), reference = reference.dgame(b or a):start(), checks = 0 }
  end

  it("passes engines that agree, and names the first difference of engines that do not", function()
    local pair = pair_of(T.breakthrough())
    for _ = 1, 6 do
      local moves = pair.C:moves()
      assert.is_nil(described.step(pair, moves, moves[#moves]))
    end
    assert.equal(6, pair.C:ply())
    -- a reference of another game (a line of 4 wins) against tic-tac-toe
    local ttt4 = T.tictactoe()
    ttt4.ends[1].k = 4
    local wrong = pair_of(T.tictactoe(), ttt4)
    local why
    for _, text in ipairs { "a1", "b1", "a2", "b2", "a3" } do
      local m = wrong.C:parse_move(text)
      why = described.step(wrong, (wrong.C:moves()), m)
      if why then break end
    end
    assert.matches("after a3, at ply 5:", why, 1, true)
    assert.matches("status: C says black, reference says nil", why, 1, true)
    assert.matches("the game lists 2 moves, the engines 9",
      described.step(pair_of(T.tictactoe()), { 1, 2 }, 1023), 1, true)
    assert.equal("userdata", type(described.pair(T.tictactoe()).C))
  end)

  it("compares the engines at every move of a soak game of a described example", function()
    local step, calls, failed = described.step, 0, nil
    described.step = function(...)
      calls = calls + 1
      local why = step(...)
      failed = failed or why
      return why
    end
    local ok, result = pcall(function()
      local file = (os.getenv("BOARDSCRIPT_SOURCE") or ".") .. "/lua/examples/breakthrough.lua"
      local plan = soak.plan { rules = { file } }
      return soak.play(plan, 1, 1, core.searcher { tt_mb = 1 })
    end)
    described.step = step
    assert(ok, result)
    assert.is_true(calls >= 1)
    if failed then
      -- an open disagreement between the engines: reported as the soak's failure
      assert.equal("described", result.failure.check)
      assert.matches(failed, result.failure.detail, 1, true)
    else
      assert.is_nil(result.failure)
      assert.equal(calls, result.plies)
    end
  end)
end)
