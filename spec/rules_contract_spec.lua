-- Every built-in rule set keeps the state contract (OpenSpiel's basic tests):
-- random play with undo back to the start, clones independent of the original.
local bs = require "boardscript"

local function snapshot(g)
  return { board = g:board():clone(), player = g:to_move(), score = { g:score() } }
end

local function same(g, snap)
  local score = { g:score() }
  return g:board() == snap.board and g:to_move() == snap.player
    and score[1] == snap.score[1] and score[2] == snap.score[2]
end

local SETUPS = {
  reversi = { size = 8 }, blocks = { size = 6 }, othello = {}, flipflop = { size = 8 }, dots = { rows = 3, cols = 4 },
}

describe("rule sets", function()
  for name, opts in pairs(SETUPS) do
    it(name .. " plays random games and undoes them back to the start", function()
      local rules = bs.rules.load(name)
      for seed = 1, 5 do
        local g = bs.game.new(rules, opts, bs.core.rng(seed))
        local start, trail = snapshot(g), {}
        for _ = 1, 200 do
          if g:finished() then break end
          trail[#trail + 1] = snapshot(g)
          local moves = g:moves()
          if #moves == 0 or (name == "flipflop" and g.rng:random(4) == 1) then
            g:pass()
          else
            assert.is_not_nil(g:play(moves[g.rng:random(#moves)]))
          end
        end
        for i = #trail, 1, -1 do
          assert.is_true(g:undo())
          assert.is_true(same(g, trail[i]), ("%s seed %d: undo %d"):format(name, seed, i))
        end
        assert.is_false(g:undo())
        assert.is_true(same(g, start))
      end
    end)

    it(name .. " clones are independent of the original", function()
      local g = bs.game.new(bs.rules.load(name), opts, bs.core.rng(1))
      g:play(g:moves()[1])
      local before = snapshot(g)
      local c = g:clone()
      c:play(c:moves()[1])
      assert.is_true(same(g, before))
      assert.is_false(c:board() == g:board())
      c:undo()
      assert.is_true(c:board() == g:board())
    end)
  end

  it("a variant overrides one hook and inherits the rest", function()
    local reversi = bs.rules.load("reversi")
    local misere = bs.rules.variant(reversi, { name = "misere" })
    function misere:score(state)
      local black, white = reversi.score(self, state)
      return white, black
    end
    local g = bs.game.new(misere, {})
    g:play({ 3, 4 })
    assert.same({ 1, 4 }, { g:score() })
    assert.equal("white", misere:winner(g.state))
  end)

  it("rejects a rule table with a missing hook, naming the field", function()
    local ok, err = pcall(bs.rules.validate, { setup = function() end }, "mine")
    assert.is_false(ok)
    assert.matches("mine: field 'moves' must be a function", err, 1, true)
  end)
end)

describe("boardscript.declared (the options rule sets and policies declare)", function()
  local declared = require "boardscript.declared"
  local errors_mod = require "boardscript.errors"

  it("checks, converts and describes a value the same way for both", function()
    local size = { type = "integer", min = 4, max = 26, even = true }
    assert.equal(8, declared.check(size, 8))
    assert.same({ nil, "7 is odd (it must be even)" }, { declared.check(size, 7) })
    assert.same({ nil, "30 is out of range 4..26" }, { declared.check(size, 30) })
    assert.same({ nil, "8.5 is not an integer" }, { declared.check(size, 8.5) })
    assert.same({ nil, "x is not one of a, b" }, { declared.check({ choices = { "a", "b" } }, "x") })
    assert.equal("integer 4..26 even", declared.kind(size))
    assert.equal("c, playouts", declared.names { playouts = {}, c = {} })
    assert.equal("none", declared.names(nil))
    assert.is_true(declared.convert({ type = "boolean" }, "fast", "yes"))
    local ok, err = pcall(declared.convert, size, "size", "x")
    assert.is_false(ok)
    assert.is_true(errors_mod.is_user(err))
    assert.equal("option size=x: not an integer", err.message)
  end)

  it("validates declarations, defaults and an owner's own values", function()
    assert.is_nil(declared.validate(nil))
    assert.equal("field 'options' must be a table of option declarations", declared.validate(5))
    assert.equal("field 'options.n' must be a table with type integer, number, boolean or string",
      declared.validate { n = { type = "float" } })
    assert.equal("field 'options.n': default 3 is odd (it must be even)",
      declared.validate { n = { type = "integer", even = true, default = 3 } })
    assert.equal("field 'n': 5 is odd (it must be even)",
      declared.validate({ n = { type = "integer", even = true, default = 4 } }, function() return 5 end, true))
  end)
end)

describe("a rule set file's hooks calling each other", function()
  it("go straight through only on the coroutine of the running hook: a hook suspended in a yield leaves the next "
    .. "call checked", function()
    local path = os.tmpname() .. ".lua"
    local f = assert(io.open(path, "w"))
    f:write([[
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
return rules.variant(reversi, {
  name = "yielding",
  moves = function(self, state)
    if state.yield then coroutine.yield() end
    return setmetatable(reversi.moves(self, state), { __index = function() return "sticky" end })
  end,
})
]])
    f:close()
    local g = bs.new_game(path)
    os.remove(path)
    g.state.yield = true
    local co = coroutine.create(function() return g.rules:moves(g.state) end)
    assert.is_true(coroutine.resume(co)) -- suspended inside the hook
    g.state.yield = nil
    local list = g.rules:moves(g.state)
    assert.is_nil(getmetatable(list)) -- a plain copy: checked
    assert.equal(4, #list)
  end)
end)
