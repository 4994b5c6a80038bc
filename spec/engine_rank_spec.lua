-- boardscript.protocol.engine's Engine:rank (NBoard's hints, serve's
-- analysis): every choice valued for the side to move, the best one the
-- value a search of the position finds; a choice after which the same side
-- moves again (FlipFlop's first piece that earns a second) is not negated,
-- and declining the second piece is a choice.
local core = require "boardscript.core"
local engine = require "boardscript.protocol.engine"
local game = require "boardscript.game"
local players = require "boardscript.players"
local rules_mod = require "boardscript.rules"

-- A searcher of its own: the value of `g` for its side to move, `depth`
-- plies deep, on an empty table.
local function searched(spec, g)
  local player = players.load(spec, g.rules)
  local policy = player.policy
  local _, value = policy.searcher:search(g.state.board, g.state.player, policy:search_options(g))
  policy:close()
  return value
end

-- A FlipFlop game played at random from `seed` until `wanted(g)` holds.
local function flipflop_until(seed, wanted)
  local rng = core.rng(seed)
  local g = game.new(rules_mod.load("flipflop"), {})
  for _ = 1, 40 do
    if wanted(g) then return g end
    local choices = g:choices()
    g:apply(choices[rng:random(#choices)])
  end
  return nil
end

-- Whether some first piece of `g` earns a second one.
local function earns_second(g)
  if g:finished() or g.state.piece ~= 1 then return false end
  for _, move in ipairs(g:moves()) do
    local child = g:clone()
    child:play(move)
    if child:to_move() == g:to_move() then return true end
  end
  return false
end

describe("Engine:rank", function()
  it("keeps the value of a FlipFlop first piece that earns a second (the same side moves again)", function()
    local depth = 4
    local checked, kept = 0, 0
    for seed = 1, 6 do
      local g = flipflop_until(seed, earns_second)
      if g then
        local e = engine.new { policy = ("alphabeta:depth=%d,mpc=off"):format(depth), rules = g.rules }
        e:forget()
        local ranked = e:rank(g, depth)
        e.player.policy:close()
        local before = g:text()
        for _, c in ipairs(ranked) do
          local child = g:clone()
          if c.move == "pass" then child:pass() else child:play(c.move) end
          local v = searched(("alphabeta:depth=%d,mpc=off"):format(depth - 1), child)
          if child:to_move() == g:to_move() then kept = kept + 1 else v = -v end
          assert.equal(v, c.value, g:move_text(c.move) or c.move)
        end
        -- the best choice's value is the position's, as one search finds it
        assert.equal(searched(("alphabeta:depth=%d,mpc=off"):format(depth), g), ranked[1].value)
        assert.equal(before, g:text())
        checked = checked + 1
      end
    end
    assert.is_true(checked >= 3, "positions checked: " .. checked)
    assert.is_true(kept >= 3, "choices after which the same side moved again: " .. kept)
  end)

  it("ranks declining FlipFlop's second piece (pass) among the choices", function()
    local g = flipflop_until(2, function(x) return not x:finished() and x.state.piece == 2 and #x:moves() > 0 end)
    assert.truthy(g, "a position with a second piece to place")
    local e = engine.new { policy = "alphabeta:depth=3,mpc=off", rules = g.rules }
    local ranked = e:rank(g, 3)
    e.player.policy:close()
    local seen = {}
    for _, c in ipairs(ranked) do seen[c.move == "pass" and "pass" or g:move_text(c.move)] = true end
    local expected = { pass = true }
    for _, move in ipairs(g:moves()) do expected[g:move_text(move)] = true end
    assert.same(expected, seen)
    assert.equal(searched("alphabeta:depth=3,mpc=off", g), ranked[1].value)
  end)

  it("ranks Reversi's moves with the best one's value the search's", function()
    local rng = core.rng(5)
    local g = game.new(rules_mod.load("reversi"), {})
    for _ = 1, 20 do
      local choices = g:choices()
      g:apply(choices[rng:random(#choices)])
    end
    local e = engine.new { policy = "alphabeta:depth=5,mpc=off", rules = g.rules }
    local ranked = e:rank(g, 5)
    e.player.policy:close()
    assert.equal(#g:moves(), #ranked)
    for i = 2, #ranked do assert.is_true(ranked[i - 1].value >= ranked[i].value) end
    assert.equal(searched("alphabeta:depth=5,mpc=off", g), ranked[1].value)
  end)
end)
