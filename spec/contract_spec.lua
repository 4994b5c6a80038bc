-- The rule-set contract as a user meets it: validation when a rule set
-- loads (naming the field and value), options, notation defaults, a
-- variant's own parameters, and policies that only ever see a copy.
local bs = require "boardscript"
local errors = require "boardscript.errors"
local files = require "support.files"
local play = require "boardscript.play"
local players = require "boardscript.players"
local reversi = require "boardscript.rules.reversi"
local rules = require "boardscript.rules"

-- The message of the user error f raises (fails the spec if it raises none
-- or raises anything else).
local function user_error(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  assert.is_true(errors.is_user(err), "expected a user error, got: " .. tostring(err))
  return err.message
end

describe("rule-set validation", function()
  it("names a misspelt direction set and its value when the variant is made", function()
    local message = user_error(rules.variant, reversi, { name = "diag", legal_dirs = "diagnoal" })
    assert.equal("rule set 'diag': field 'legal_dirs' is \"diagnoal\": unknown direction set "
      .. "(expected all, orthogonal, diagonal, none or a list)", message)
    message = user_error(rules.variant, reversi, { name = "d2", flip_dirs = { "n", "north" } })
    assert.matches("field 'flip_dirs' is {\"n\", \"north\"}: unknown direction", message, 1, true)
  end)

  it("names a size out of range", function()
    local message = user_error(rules.variant, reversi, { name = "big", size = 30 })
    assert.equal("rule set 'big': field 'size': 30 is out of range 2..26", message)
    message = user_error(rules.variant, reversi, { name = "odd", size = 7 })
    assert.matches("field 'size': 7 is odd", message, 1, true)
  end)

  it("names a missing hook of a rule set written from scratch", function()
    local message = user_error(rules.define, { name = "empty", setup = function() return {} end })
    assert.equal("rule set 'empty': field 'moves' must be a function (got nil)", message)
  end)

  it("names the file of a rule set that does not load", function()
    local path, remove = files.lua("return {")
    local message = user_error(rules.load, path)
    assert.matches(path, message, 1, true)
    assert.is_nil(message:find("traceback", 1, true))
    remove()
    path, remove = files.lua("return 42")
    message = user_error(rules.load, path)
    remove()
    assert.matches("the file must return a rule set table (got number)", message, 1, true)
    path, remove = files.lua("error('no luck')")
    message = user_error(rules.load, path)
    remove()
    assert.matches("^rules " .. path:gsub("%p", "%%%0") .. ": .*no luck$", message)
  end)

  it("checks the options a game is set up with", function()
    assert.matches("option size: 7 is odd", user_error(bs.new_game, "reversi", { size = 7 }), 1, true)
    assert.equal("rule set 'reversi' has no option 'colour' (options: centre, cols, rows, size)",
      user_error(bs.new_game, "reversi", { colour = "red" }))
    assert.equal("option size=x: not an integer", user_error(rules.parse_option, reversi, "size", "x"))
    assert.equal(6, rules.parse_option(reversi, "size", "6"))
  end)

  it("honours a variant's own size everywhere a game is set up", function()
    local ten = rules.variant(reversi, { name = "ten", size = 10 })
    assert.equal(10, bs.new_game(ten):board():size())
    assert.equal(12, bs.new_game(ten, { size = 12 }):board():size())
  end)
end)

describe("the game's choices", function()
  it("lists the moves and, where the rules allow it, the pass; apply plays either", function()
    local g = bs.new_game("reversi")
    local moves, choices = g:moves(), g:choices()
    assert.same(moves, choices)
    table.insert(choices, "x") -- a new list each call
    assert.equal(#moves, #g:choices())
    assert.truthy(g:apply(choices[1]))
    assert.equal(1, #g.log)
    -- random games of 4 x 4 reversi until a side must pass: its only
    -- choice is "pass", and apply plays it
    local rng = require("boardscript.core").rng(3)
    local passed = false
    for _ = 1, 40 do
      g = bs.new_game("reversi", { size = 4 })
      while not g:finished() do
        local list = g:choices()
        if list[#list] == "pass" then
          assert.equal(0, #g:moves())
          assert.truthy(g:apply("pass"))
          assert.truthy(g.log[#g.log].pass)
          passed = true
        else
          assert.truthy(g:apply(list[rng:random(#list)]))
        end
      end
      if passed then break end
    end
    assert.truthy(passed, "no pass in 40 random games of 4 x 4 reversi")
  end)
end)

describe("core.directions", function()
  local core = require "boardscript.core"
  it("lists the directions of a set, or says what is wrong with it", function()
    assert.same({ "n", "e", "s", "w" }, core.directions("orthogonal"))
    assert.same({ "ne", "se", "sw", "nw" }, core.directions("diagonal"))
    assert.same({}, core.directions("none"))
    assert.same({ "n", "sw" }, core.directions({ "sw", "n", "n" }))
    local ok, why = core.directions("up")
    assert.is_nil(ok)
    assert.matches("unknown direction set", why, 1, true)
    assert.is_nil((core.directions(5)))
    assert.is_nil((core.directions({ "n", 3 })))
  end)
end)

describe("notation defaults", function()
  it("writes and reads board moves as column letter and row number", function()
    local g = bs.new_game("reversi")
    assert.equal("f5", g:move_text({ 5, 6 }))
    assert.same({ 5, 6 }, g:parse_move("F5"))
    assert.is_nil(g:parse_move("i1"))
    assert.is_nil(g:parse_move("f05"))
    assert.is_nil(g:move_text({ 1.5, 2 }))
    assert.equal("z26", bs.new_game("reversi", { size = 26 }):move_text({ 26, 26 }))
  end)

  it("writes and reads dots edges as two dots, smaller first", function()
    local g = bs.new_game("dots", { size = 2 })
    assert.equal("a1 a2", g:move_text({ 1, 2, 1, 1 }))
    assert.same({ 2, 2, 1, 2 }, g:parse_move("b2a2"))
    assert.same({ 1, 1, 2, 1 }, g:parse_move("a1-b1"))
    assert.is_nil(g:parse_move("a1 b2"))
    assert.is_nil(g:parse_move("a1 a4"))
  end)

  it("names sides for people", function()
    assert.equal("Black", bs.new_game("reversi"):side_name("black"))
    assert.equal("Player 2", bs.new_game("dots"):side_name(2))
  end)
end)

describe("policies", function()
  local function player(choose)
    return { name = "test.lua", policy = { choose = choose } }
  end

  it("are handed a copy: what they play on it leaves the game as it was", function()
    local g = bs.new_game("reversi")
    local before = tostring(g:board())
    local move = players.choose(player(function(_, copy)
      local first = copy:moves()[1]
      copy:play(first)
      copy:play(copy:moves()[1])
      return first
    end), g)
    assert.equal(before, tostring(g:board()))
    assert.equal("black", g:to_move())
    assert.is_not_nil(g:check(move))
  end)

  it("stop the game naming the player and the move when the move is malformed or illegal", function()
    local g = bs.new_game("reversi")
    assert.equal("player 'test.lua' (Black) chose a malformed move \"d3\"",
      user_error(players.choose, player(function() return "d3" end), g))
    assert.equal("player 'test.lua' (Black) chose a malformed move {1.5, 2}",
      user_error(players.choose, player(function() return { 1.5, 2 } end), g))
    assert.equal("player 'test.lua' (Black) chose an illegal move a1 (flips nothing)",
      user_error(players.choose, player(function() return { 1, 1 } end), g))
    assert.equal("player 'test.lua' (Black) chose an illegal move (a pass) (passing is not allowed now)",
      user_error(players.choose, player(function() return nil end), g))
  end)

  it("report an error in the policy as the player's, without a traceback", function()
    local g = bs.new_game("reversi")
    local message = user_error(players.choose, player(function() error("oops", 0) end), g)
    assert.equal("player 'test.lua' (Black) failed: oops", message)
  end)

  it("stop an edition with status 2 and no stray output", function()
    local path, remove = files.lua("return function() return 'd3' end\n")
    local status, out, err = play.run({ "reversi", "--black", path }, { input = "" })
    remove()
    assert.equal(2, status)
    assert.matches("Player ●'s move %(input format: a1%): $", out)
    assert.equal(("boardscript: player '%s' (Black) chose a malformed move \"d3\"\n"):format(path), err)
  end)

  it("that play a rule set also play its variants", function()
    local misere = rules.load(os.getenv("BOARDSCRIPT_SOURCE") .. "/lua/examples/misere_dots.lua")
    assert.is_true(players.plays(players.load("dots_rules"), misere))
    assert.is_false(players.plays(players.load("dots_rules"), rules.load("reversi")))
    local names = table.concat(players.builtin_for(misere), " ")
    assert.matches("dots_rules", names, 1, true)
    assert.matches("solver", names, 1, true)
    local path = os.getenv("BOARDSCRIPT_SOURCE") .. "/lua/examples/misere_dots.lua"
    local status, out = play.run({ "board", "--rules", path, "--black", "dots_rules", "--white", "solver" },
      { input = "" })
    assert.equal(0, status)
    assert.matches("wins%.\n$", out)
  end)

  it("suggest only the built-in AIs of the game", function()
    local status, _, err = play.run({ "reversi", "--white", "solver" }, { input = "" })
    assert.equal(2, status)
    assert.matches("^boardscript: player 'solver' plays only dots, not reversi "
      .. "%(for reversi: human, [^\n]*random, or a policy file%)\n$", err)
    assert.is_nil(err:find("dots_rules", 1, true))
    status, _, err = play.run({ "reversi", "--white", "nobody" }, { input = "" })
    assert.equal(2, status)
    assert.matches("^boardscript: unknown player 'nobody' %(expected human, [^\n]*random, "
      .. "or a path to a %.lua file%)\n$", err)
  end)
end)
