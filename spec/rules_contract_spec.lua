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

describe("a rule set's description (how the game is played, for people)", function()
  local files = require "support.files"

  -- Every built-in rule set and every example, loaded as commands load them.
  local function every_rule_set()
    local list = {}
    for _, name in ipairs(bs.rules.builtin_names()) do
      list[#list + 1] = { name = name, rules = bs.rules.load(name) }
    end
    for _, example in ipairs(bs.rules.examples()) do
      list[#list + 1] = { name = example.name, rules = bs.rules.load(example.path) }
    end
    return list
  end

  it("every built-in and example rule set has one of its own: a few sentences, not its base's", function()
    local all = every_rule_set()
    assert.is_true(#all >= #bs.rules.builtin_names() + #bs.rules.EXAMPLES)
    local seen = {}
    for _, entry in ipairs(all) do
      local text = entry.rules.description
      assert.is_string(text, entry.name)
      -- its own: a variant that forgot it would show its base's
      assert.is_nil(seen[text], ("%s has the description of %s"):format(entry.name, tostring(seen[text])))
      seen[text] = entry.name
      assert.is_true(#text >= 100 and #text <= 1000, ("%s: %d characters"):format(entry.name, #text))
      local sentences = select(2, text:gsub("[%.!?]%s", "")) + (text:match("[%.!?]$") and 1 or 0)
      assert.is_true(sentences >= 2 and sentences <= 8, ("%s: %d sentences"):format(entry.name, sentences))
      assert.is_nil(text:find("[^\n\32-\126]"), entry.name .. ": plain ASCII text")
    end
  end)

  it("says how a move is written: the notation of one of its moves at the start", function()
    for _, entry in ipairs(every_rule_set()) do
      local g = bs.game.new(entry.rules, nil, bs.core.rng(1))
      local found = false
      for _, move in ipairs(g:moves()) do
        local text = g:move_text(move)
        -- a column letter alone is a drop move too (connect4: "such as d.")
        found = found or entry.rules.description:find(text, 1, true) ~= nil
          or entry.rules.description:find("such as " .. text:sub(1, 1) .. "[%.,;]") ~= nil
      end
      assert.is_truthy(found, entry.name)
    end
  end)

  it("is optional; when given it must be a string, and the fault names the field", function()
    local function base(fields) return bs.rules.variant(bs.rules.load("reversi"), fields) end
    assert.equal("Flip them all.", base({ name = "mine", description = "Flip them all." }).description)
    assert.is_nil(bs.rules.define({ name = "bare", setup = function() end, moves = function() end,
      play = function() end, undo = function() end, pass = function() end, finished = function() end,
      score = function() end }).description)
    for _, bad in ipairs { 42, true, { "a", "table" }, function() end } do
      local ok, err = pcall(base, { name = "mine", description = bad })
      assert.is_false(ok)
      assert.matches("rule set 'mine': field 'description' must be a string, how the game is played (got "
        .. type(bad) .. ")", tostring(err), 1, true)
    end
  end)

  it("is refused in a rule set file as anything but a string, naming the file and the field", function()
    local path, remove = files.lua([[
local rules = require "boardscript.rules"
return rules.variant(require "boardscript.rules.reversi", { name = "numbered", description = 7 })
]])
    local ok, err = pcall(bs.rules.load, path)
    remove()
    assert.is_false(ok)
    assert.matches("rules " .. path .. ": ", tostring(err), 1, true)
    assert.matches("field 'description' must be a string, how the game is played (got number)", tostring(err), 1, true)
  end)

  it("of a described game: d.game takes the field, the rule set keeps it and a file keeps it loaded", function()
    local d = require "boardscript.describe"
    local text = "Mark a cell; three in a row wins."
    local r = d.game { name = "ttt", size = 3, description = text, moves = { d.place() }, ends = { d.line { k = 3 } } }
    assert.equal(text, r.description)
    assert.equal(text, r.described.description.description)
    local path, remove = files.lua(([[
local d = require "boardscript.describe"
return d.game { name = "ttt", size = 3, description = %q, moves = { d.place() }, ends = { d.line { k = 3 } } }
]]):format(text))
    local loaded = bs.rules.load(path)
    remove()
    assert.equal(text, loaded.description)
    assert.is_true(require("boardscript.describe").in_core(loaded)) -- still the C engine's game
    local ok, err = pcall(d.game, { name = "ttt", size = 3, description = { "no" }, moves = { d.place() } })
    assert.is_false(ok)
    assert.matches("description 'ttt': field 'description': expected a string", tostring(err), 1, true)
  end)
end)

describe("a rule set's score_unit (what its score counts: the match summary's unit)", function()
  local files = require "support.files"
  local unit = require("boardscript.match").unit

  -- "points" (the default) is right where a finished game scores 1-0
  local UNITS = {
    reversi = "discs", othello = "discs", ["othello-strict"] = "discs", blocks = "discs", flipflop = "pieces",
    dots = "boxes", anti = "discs", holes = "discs", octagon = "discs", orthogonal = "discs", misere_dots = "boxes",
    ataxx = "pieces", tictactoe = "points", connect4 = "points", breakthrough = "points", gomoku = "points",
    hex = "points", amazons = "points", draughts = "points", tictactoe_d = "points",
  }

  it("every built-in and example names its own where the neutral 'points' would be wrong", function()
    local seen = 0
    for _, name in ipairs(bs.rules.builtin_names()) do
      assert.equal(UNITS[name], unit(bs.rules.load(name)), name)
      seen = seen + 1
    end
    for _, example in ipairs(bs.rules.examples()) do
      assert.equal(UNITS[example.name], unit(bs.rules.load(example.path)), example.name)
      seen = seen + 1
    end
    assert.equal(#bs.rules.builtin_names() + #bs.rules.EXAMPLES, seen)
  end)

  it("is optional ('points', or 'boxes' in the dots family); when given a string, a fault naming it", function()
    local reversi = bs.rules.load("reversi")
    assert.equal("stones", unit(bs.rules.variant(reversi, { name = "mine", score_unit = "stones" })))
    local bare = bs.rules.define({ name = "bare", setup = function() end, moves = function() end,
      play = function() end, undo = function() end, pass = function() end, finished = function() end,
      score = function() end })
    assert.is_nil(bare.score_unit)
    assert.equal("points", unit(bare))
    for _, bad in ipairs { 42, "", true, { "discs" }, function() end } do
      local ok, err = pcall(bs.rules.variant, reversi, { name = "mine", score_unit = bad })
      assert.is_false(ok)
      assert.matches("rule set 'mine': field 'score_unit' must be a string, what the score counts such as \"discs\" "
        .. "(got " .. require("boardscript.errors").describe(bad) .. ")", tostring(err), 1, true)
    end
  end)

  it("is refused in a rule set file as anything but a string, naming the file and the field", function()
    local path, remove = files.lua([[
local rules = require "boardscript.rules"
return rules.variant(require "boardscript.rules.reversi", { name = "counted", score_unit = 3 })
]])
    local ok, err = pcall(bs.rules.load, path)
    remove()
    assert.is_false(ok)
    assert.matches("rules " .. path .. ": ", tostring(err), 1, true)
    assert.matches("field 'score_unit' must be a string", tostring(err), 1, true)
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
