-- Described games (boardscript.describe, docs/guide.md "Describing a game"):
-- every shipped description loads as a rule set file and counts its known
-- perft table in C; the Lua reference agrees on the first plies; a
-- description's faults are errors naming the field; options reach the
-- description; an overridden hook is never ignored (perft goes over the
-- hooks); restricted files may require the vocabulary and cannot change it.
local d = require "boardscript.describe"
local game = require "boardscript.game"
local perft = require "boardscript.perft"
local rules = require "boardscript.rules"

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local BIN = os.getenv("BOARDSCRIPT_BIN")
local DIR = SOURCE .. "/lua/examples/"

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- Runs the host: its status and standard output.
local function host(args)
  local out = os.tmpname()
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = shell_quote(a) end
  local ok = os.execute(("cd %s && %s %s </dev/null >%s 2>&1"):format(shell_quote(SOURCE),
    shell_quote(assert(BIN, "BOARDSCRIPT_BIN is set by ctest")), table.concat(quoted, " "), out))
  local f = assert(io.open(out))
  local text = f:read("a")
  f:close()
  os.remove(out)
  return ok, text
end

-- A rule set file in a new directory (loaded restricted, as a user's).
local function file_with(text)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir " .. shell_quote(dir)))
  local path = dir .. "/game.lua"
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path, function() os.remove(path); os.remove(dir) end
end

-- The known tables (docs/guide.md; the contract of issue 29), to a depth
-- each counts in well under a second natively.
local TABLES = {
  tictactoe_d = { 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872 },
  connect4 = { 7, 49, 343, 2401, 16807, 117649, 823536 },
  breakthrough = { 22, 484, 11132, 256036 },
  ataxx = { 16, 256, 6460, 155888 },
  draughts = { 7, 49, 302, 1469, 7361, 36768, 179740 },
  amazons = { 2176 },
  hex = { 121, 14520 },
  gomoku = { 225, 50400 },
}

describe("the shipped descriptions", function()
  for name, counts in pairs(TABLES) do
    it(("%s loads as a rule set file and counts its perft table in C"):format(name), function()
      local r = rules.load(DIR .. name .. ".lua")
      assert.is_true(d.in_core(r))
      local g = game.new(r)
      for depth, expected in ipairs(counts) do
        local leaves, how = perft.count(r, g.state, depth)
        assert.equal("core", how)
        assert.equal(expected, leaves, ("%s perft %d"):format(name, depth))
      end
    end)

    it(("%s: the Lua reference and the hooks agree with C on the first plies"):format(name), function()
      local r = rules.load(DIR .. name .. ".lua")
      local ref = d.reference(r)
      assert.is_false(d.in_core(ref))
      local depth = math.min(#counts, name == "tictactoe_d" and 4 or name == "amazons" and 1 or 2)
      local g, gr = game.new(r), game.new(ref)
      assert.equal(counts[depth], (perft.count(r, g.state, depth, { hooks = true })))
      assert.equal(counts[depth], (perft.count(ref, gr.state, depth)))
    end)
  end

  it("each plays seeded random games to the end and undoes them to the start", function()
    for name in pairs(TABLES) do
      for seed = 1, 2 do
        local g = game.new(DIR .. name .. ".lua", nil, require("boardscript.core").rng(seed))
        local r, state, plies = g.rules, g.state, 0
        local start = state.board:clone()
        while not r:finished(state) do
          local moves = r:moves(state)
          if #moves == 0 then
            assert.is_true(r:pass(state), name)
          else
            assert.is_true(r:play(state, moves[g.rng:random(#moves)]), name)
          end
          plies = plies + 1
          assert.equal(state.board:player(), state.player)
        end
        local a, b = r:score(state)
        assert.is_true(a ~= b or r:winner(state) == "draw", name)
        for _ = 1, plies do assert.is_true(r:undo(state)) end
        assert.is_false(r:undo(state))
        assert.is_true(state.board == start, name)
      end
    end
  end)

  it("each is no longer than RBG's file for the game (code lines: neither blank nor only a comment)", function()
    local rbg = { connect4 = 31, breakthrough = 24, gomoku = 41, hex = 40, amazons = 32, draughts = 89,
                  tictactoe_d = 25, ataxx = 24 } -- (RBG has no Ataxx: held to Breakthrough's)
    for name, bound in pairs(rbg) do
      local lines = 0
      for line in io.lines(DIR .. name .. ".lua") do
        if line:match("%S") and not line:match("^%s*%-%-") then lines = lines + 1 end
      end
      assert.is_true(lines <= bound, ("%s: %d lines, RBG %d"):format(name, lines, bound))
    end
  end)

  it("the guide quotes breakthrough.lua as it is (comments aside)", function()
    local guide = assert(io.open(SOURCE .. "/docs/guide.md")):read("a")
    local body = assert(io.open(DIR .. "breakthrough.lua")):read("a"):match("\n(local d = require.*)$")
    assert.truthy(guide:find("```lua\n" .. body .. "```", 1, true))
  end)

  it("boardscript perft counts Breakthrough from the guide in C", function()
    local ok, out = host { "perft", "lua/examples/breakthrough.lua", "4" }
    assert.is_true(ok, out)
    assert.truthy(out:find("256036 leaves", 1, true), out)
    assert.truthy(out:find("(C core)", 1, true), out)
  end)

  it("a game plays through its hooks: integer moves, notation both ways, the state in step", function()
    local g = game.new(DIR .. "draughts.lua")
    local moves = g:moves()
    assert.equal(7, #moves)
    assert.equal("integer", math.type(moves[1]))
    local text = g:move_text(moves[1])
    assert.equal(moves[1], g:parse_move(text:upper()))
    assert.is_true(g.rules:play(g.state, moves[1]))
    assert.equal("white", g.state.player)
    local copy = g.rules:clone(g.state)
    assert.is_true(g.rules:undo(g.state))
    assert.equal("black", g.state.player)
    assert.equal("white", copy.player)
    assert.is_nil(g.rules:play(g.state, 12.5))
    local c4 = game.new(DIR .. "connect4.lua")
    assert.equal(c4:parse_move("d6"), c4:parse_move("d"))
    assert.equal("6x7", c4.rules:size_text(c4.state))
  end)
end)

describe("options of a description", function()
  it("Connect Four k = 3 ends games sooner", function()
    local g = game.new(DIR .. "connect4.lua", { k = 3 })
    assert.equal(16807, (perft.count(g.rules, g.state, 5)))
    assert.equal(109585, (perft.count(g.rules, g.state, 6)))
    assert.equal(109585, (perft.count(g.rules, g.state, 6, { hooks = true })))
  end)

  it("Gomoku size 9 is a 9 x 9 board", function()
    local g = game.new(DIR .. "gomoku.lua", { size = 9 })
    assert.equal(9, g.state.board:rows())
    assert.equal(81 * 80, (perft.count(g.rules, g.state, 2)))
  end)

  it("Hex swap adds the swap move after the first", function()
    local g = game.new(DIR .. "hex.lua", { swap = true })
    assert.equal(121 * 120 + 121, (perft.count(g.rules, g.state, 2)))
    local first = g:parse_move("b1")
    assert.is_true(g.rules:play(g.state, first))
    local swap = g:parse_move("swap")
    assert.truthy(swap)
    assert.is_true(g.rules:play(g.state, swap))
    -- the black stone at b1 (row 1, column 2) becomes a white one at a2 (row 2, column 1)
    assert.equal("empty", g.state.board:get(1, 2))
    assert.equal("white", g.state.board:get(2, 1))
    assert.equal("black", g.state.player)
  end)

  it("normalize evaluates function fields with the options, once per option set", function()
    local r = rules.load(DIR .. "connect4.lua")
    local four, three = d.normalize(r), d.normalize(r, { k = 3 })
    assert.equal(4, four.ends[1].k)
    assert.equal(3, three.ends[1].k)
    assert.equal(three, d.normalize(r, { k = 3 }))
    assert.equal(four, d.normalize(r, { k = 4 }))
    assert.same({ k = r.options.k }, r.options)
  end)
end)

describe("the normalised form", function()
  it("of Breakthrough: cells, directions per side in compass order, zones", function()
    local n = d.normalize(dofile(DIR .. "breakthrough.lua"))
    assert.equal(8, n.rows)
    assert.equal(8, n.cols)
    assert.same({ "stone" }, n.kinds)
    assert.equal(1, n.cells[1])
    assert.equal(0, n.cells[17])
    assert.equal(2, n.cells[64])
    assert.same({ { { 1, 0 } }, { { -1, 0 } } }, n.rules[1].dirs)
    assert.same({ { { 1, 1 }, { 1, -1 } }, { { -1, 1 }, { -1, -1 } } }, n.rules[2].dirs)
    assert.equal("empty", n.rules[1].to)
    assert.equal("free", n.rules[2].to)
    assert.same({ 56, 57, 58, 59, 60, 61, 62, 63 }, n.ends[1].zone[1])
    assert.same({ 0, 1, 2, 3, 4, 5, 6, 7 }, n.ends[1].zone[2])
    assert.equal("no_pieces", n.ends[2].op)
    assert.equal(1, n.first)
    assert.equal("lose", n.no_move)
  end)

  it("of cells: names, rectangles, /dark and /light", function()
    assert.same({ { 1, 1 }, { 1, 3 } }, d.cells("a1 c1"))
    assert.same({ { 1, 2 }, { 2, 1 } }, d.cells("a1:b2/dark"))
    assert.same({ { 1, 1 }, { 2, 2 } }, d.cells({ "a1:b2/light" }))
    assert.same({ { 3, 4 } }, d.cells({ { 3, 4 } }))
  end)
end)

describe("a description's faults", function()
  local function fault(desc)
    local ok, err = pcall(d.game, desc)
    assert.is_false(ok)
    return tostring(err)
  end

  it("name the field", function()
    assert.equal("description 'x': field 'moves'[2] 'dirs': unknown direction \"fx\" (expected n ne e se s sw w nw "
      .. "f b fe fw be bw or a named set)",
      fault { name = "x", size = 8, moves = { d.place(), d.step { dirs = "fx" } } })
    assert.truthy(fault { name = "x", size = 27, moves = { d.place() } }:find("field 'size'", 1, true))
    assert.truthy(fault { name = "x", size = 8, moves = { d.place { at = "top" } } }
      :find("field 'moves'[1] 'at'", 1, true))
    assert.truthy(fault { name = "x", size = 8, setup = { black = "a1:i1" }, moves = { d.place() } }
      :find("field 'setup' 'black': cell i1 is off the 8 x 8 board", 1, true))
    assert.truthy(fault { name = "x", size = 8, moves = { d.place() }, ends = { d.line {} } }
      :find("field 'ends'[1] 'k'", 1, true))
    assert.truthy(fault { name = "x", size = 8, moves = { d.step { piece = "king" } } }
      :find("field 'moves'[1] 'piece': unknown kind \"king\"", 1, true))
    assert.truthy(fault { name = "x", size = 8, moves = { d.place() }, colour = "red" }
      :find("field 'colour': unknown field", 1, true))
    assert.truthy(fault { name = "x", rows = 6, cols = 7, swap = true, moves = { d.place() } }
      :find("field 'swap'", 1, true))
    assert.truthy(fault { name = "x", size = 8, moves = { d.leap { offsets = "camel" } } }
      :find("field 'moves'[1] 'offsets'", 1, true))
    assert.truthy(fault { size = 8, moves = { d.place() } }:find("field 'name'", 1, true))
    assert.equal("description 'x': field 'description': expected a string, how the game is played (got function)",
      fault { name = "x", size = 8, moves = { d.place() }, description = function() return "later" end })
  end)

  it("except a description, which is for people: kept as the rule set's, the game unchanged", function()
    local plain = { name = "x", size = 3, moves = { d.place() }, ends = { d.line { k = 3 } } }
    local told = { name = "x", size = 3, moves = { d.place() }, ends = { d.line { k = 3 } }, description = "Mark." }
    assert.equal("Mark.", d.game(told).description)
    assert.is_nil(d.game(plain).description)
    assert.same(d.normalize(plain), d.normalize(told))
  end)

  it("and a score_unit, what the score counts for the match summary: a string, kept, the game unchanged", function()
    local plain = { name = "x", size = 3, moves = { d.place() }, ends = { d.line { k = 3 } } }
    local counted = { name = "x", size = 3, moves = { d.place() }, ends = { d.line { k = 3 } }, score_unit = "marks" }
    assert.equal("marks", d.game(counted).score_unit)
    assert.is_nil(d.game(plain).score_unit)
    assert.equal("points", require("boardscript.match").unit(d.game(plain)))
    assert.same(d.normalize(plain), d.normalize(counted))
    for bad, got in pairs { [7] = "7", [""] = '""', [true] = "true" } do
      assert.equal(("description 'x': field 'score_unit': expected a string, what the score counts such as "
        .. '"pieces" (got %s)'):format(got), fault { name = "x", size = 3, moves = { d.place() }, score_unit = bad })
    end
  end)
end)

describe("a hook overridden", function()
  it("is played and counted: perft goes over the hooks (a finished override changes the count)", function()
    local r = d.game(dofile(DIR .. "tictactoe_d.lua").described.description)
    local g = game.new(r)
    assert.equal(15120, (perft.count(r, g.state, 5)))
    -- over after four marks: no game reaches a fifth ply
    function r:finished(state)
      return state.board:count("empty") <= 5 or self.described.hooks.finished(self, state)
    end
    assert.is_false(d.in_core(r))
    assert.equal("hooks", perft.how(r))
    local leaves, how = perft.count(r, g.state, 5)
    assert.equal("hooks", how)
    assert.equal(0, leaves)
    assert.equal(3024, (perft.count(r, g.state, 4)))
  end)

  it("in a rule set file, from the command line", function()
    local path, done = file_with([[
local d = require "boardscript.describe"
local g = d.game { name = "short", size = 3, moves = { d.place() }, ends = { d.line { k = 3 } } }
function g:finished(state) return state.board:count("empty") <= 5 or self.described.hooks.finished(self, state) end
return g
]])
    local ok, out = host { "perft", path, "5" }
    done()
    assert.is_true(ok, out)
    assert.truthy(out:find(": 0 leaves", 1, true), out)
    assert.truthy(out:find("(Lua hooks)", 1, true), out)
  end)
end)

describe("the vocabulary in a restricted file", function()
  it("is required, and neither it nor the hooks it yields can be changed from there", function()
    local path, done = file_with([[
local d = require "boardscript.describe"
local g = d.game { name = "t", size = 3, moves = { d.place() }, ends = { d.line { k = 3 } } }
assert(not pcall(function() d.game = nil end))
assert(not pcall(function() getmetatable(g).__index.moves = nil end))
assert(not pcall(function() rawset(getmetatable(g).__index, "finished", nil) end))
-- the learned evaluations' files (they write) are not the vocabulary's
assert(not pcall(require, "boardscript.described_eval"))
assert(not pcall(require, "boardscript.describe.evalfile"))
return g
]])
    local r = rules.load(path)
    done()
    assert.is_true(d.in_core(r))
    local g = game.new(r)
    assert.equal(504, (perft.count(r, g.state, 3)))
    assert.equal("function", type(d.game))
  end)
end)

describe("a picture of a board that is not square", function()
  it("is titled rows x columns, as size_text says", function()
    local svg = require "boardscript.render.svg"
    local g = game.new(rules.load(DIR .. "connect4.lua"))
    assert.equal("6x7", g:size_text())
    assert.equal("connect4, 6 x 7", svg.describe(g))
    assert.equal("breakthrough, 8 x 8", svg.describe(game.new(rules.load(DIR .. "breakthrough.lua"))))
  end)
end)
