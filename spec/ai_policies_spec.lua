-- The built-in Lua policies (greedy, positional, minimax, mcts) and the
-- policy interface: player specs with options (`mcts:playouts=500`), the
-- ctx a policy's choose gets, legal answers in seeded games of every rule
-- set each claims, time budgets, strength against random, `ai list`.
local bs = require "boardscript"
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local files = require "support.files"
local play = require "boardscript.play"
local players = require "boardscript.players"
local positional = require "boardscript.ai.positional"
local support = require "support.host"

local EXAMPLES = assert(os.getenv("BOARDSCRIPT_SOURCE"), "BOARDSCRIPT_SOURCE is set by ctest") .. "/lua/examples/"

-- The message of the user error f raises.
local function user_error(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  assert.is_true(errors.is_user(err), "expected a user error, got: " .. tostring(err))
  return err.message
end

-- Plays `g` on, every answer through players.choose (which raises on an
-- illegal one): seats[side] is a loaded player. Stops when the game is over
-- or after `limit` plies. Returns the plies played.
local function play_on(g, seats, limit, each)
  local plies = 0
  while not g:finished() and plies < (limit or math.huge) do
    if each then each(g) end
    local move = players.choose(seats[g:to_move()], g)
    if move == "pass" then assert(g:pass()) else assert(g:play(move)) end
    plies = plies + 1
  end
  return plies
end

-- A game of `rules` (options `opts`, seed `seed`) of player `spec` against
-- random, `spec` moving first when `first` is true.
local function against_random(spec, rules, opts, seed, first, limit, each)
  local g = bs.new_game(rules, opts, seed)
  local a, b = g:sides()
  local mine, theirs = a, b
  if not first then mine, theirs = b, a end
  local seats = { [mine] = players.load(spec, g.rules), [theirs] = players.load("random", g.rules) }
  play_on(g, seats, limit, each)
  return g, mine
end

describe("player specs", function()
  it("split at the first ':' of a name and the last '.lua:' of a path", function()
    assert.same({ "mcts", "playouts=500,c=1.2" }, { players.split_spec("mcts:playouts=500,c=1.2") })
    assert.same({ "./mine.lua", "depth=3" }, { players.split_spec("./mine.lua:depth=3") })
    assert.same({ "a.lua:b/mine.lua", "depth=3" }, { players.split_spec("a.lua:b/mine.lua:depth=3") })
    assert.same({ "./mine.lua" }, { players.split_spec("./mine.lua") })
    assert.same({ "random" }, { players.split_spec("random") })
  end)

  it("give the options, converted and checked, with the defaults filled in", function()
    local p = players.load("mcts:playouts=500,c=1.2")
    assert.same({ playouts = 500, c = 1.2 }, p.options)
    assert.equal("mcts:playouts=500,c=1.2", p.name)
    assert.equal("mcts", p.policy_name)
    assert.same({}, players.load("mcts").options) -- c's default depends on the game (mcts.DEFAULT_C, DESCRIBED_C)
    assert.same({ depth = 5, time = 0.5 }, players.load("minimax:time=0.5,depth=5").options)
    assert.same({}, players.load("random").options)
  end)

  it("make each seat its own instance of a policy with new(opts)", function()
    local a, b = players.load("minimax:depth=2"), players.load("minimax:depth=4")
    assert.are_not.equal(a.policy, b.policy)
    assert.equal(2, a.policy.opts.depth)
    assert.equal(4, b.policy.opts.depth)
  end)

  it("name the player and the option at fault", function()
    assert.equal("player 'mcts:playouts=x': option playouts=x: not an integer",
      user_error(players.load, "mcts:playouts=x"))
    assert.equal("player 'mcts:foo=1': policy 'mcts' has no option 'foo' "
      .. "(options: c, clock, eval, inc, playouts, time)",
      user_error(players.load, "mcts:foo=1"))
    assert.equal("player 'minimax:depth=0': option depth: 0 is out of range 1..30",
      user_error(players.load, "minimax:depth=0"))
    assert.equal("player 'minimax:time=soon': option time=soon: not a number",
      user_error(players.load, "minimax:time=soon"))
    assert.equal("player 'random:depth=2': policy 'random' has no option 'depth' (options: none)",
      user_error(players.load, "random:depth=2"))
    assert.equal("player 'mcts:playouts': options are written key=value, separated by commas (got 'playouts')",
      user_error(players.load, "mcts:playouts"))
    assert.equal("player 'mcts:c=1,c=2': option c is given twice", user_error(players.load, "mcts:c=1,c=2"))
    assert.equal("player 'human:x=1': human takes no options", user_error(players.load, "human:x=1"))
    assert.matches("^unknown player 'nobody' %(expected human, dots_rules, [%w_, ]*minimax, random, solver, "
      .. "or a path to a %.lua file%)$", user_error(players.load, "nobody:depth=1", "dots"))
  end)

  it("are usage errors at the command line", function()
    local status, _, err = play.run({ "reversi", "--black", "mcts:playouts=x" }, { input = "" })
    assert.equal(2, status)
    assert.equal("boardscript: player 'mcts:playouts=x': option playouts=x: not an integer\n", err)
    status, _, err = play.run({ "dots", "--computer", "positional" }, { input = "" })
    assert.equal(2, status)
    assert.matches("^boardscript: player 'positional' plays only board, not dots", err)
  end)

  it("of a file: options it declares, new(opts) per seat, and choose(self, game, ctx)", function()
    local path, remove = files.lua([[
      local mine = { name = "mine", options = {
        depth = { type = "integer", min = 1, max = 9, default = 3, help = "plies" },
        fast = { type = "boolean", default = false },
      } }
      mine.made = 0
      function mine.new(opts)
        mine.made = mine.made + 1
        return setmetatable({ opts = opts, seat = mine.made }, { __index = mine })
      end
      function mine:choose(game, ctx)
        assert(ctx.options == self.opts and ctx.options.depth == self.opts.depth)
        assert(ctx.rng == game.rng and type(ctx.log) == "function" and ctx.time == nil)
        ctx.log("seat %d", self.seat)
        return game:moves()[1]
      end
      return mine
    ]])
    local p = players.load(path .. ":depth=5,fast=yes")
    assert.same({ depth = 5, fast = true }, p.options)
    assert.same({ depth = 3, fast = false }, players.load(path).options)
    local g = bs.new_game("reversi", nil, 1)
    assert.same(g:moves()[1], players.choose(p, g))
    assert.equal("player '" .. path .. ":deep=1': policy '" .. path .. "' has no option 'deep' (options: depth, fast)",
      user_error(players.load, path .. ":deep=1"))
    remove()
  end)

  it("still take a function (game, ctx) and a choose(self, game) without ctx", function()
    local path, remove = files.lua([[
      return function(game, ctx)
        assert(ctx and ctx.rng == game.rng)
        return game:moves()[#game:moves()]
      end
    ]])
    local g = bs.new_game("reversi", nil, 1)
    assert.same(g:moves()[4], players.choose(players.load(path), g))
    assert.is_table(players.choose(players.load(EXAMPLES .. "greedy.lua"), g))
    remove()
  end)

  it("log to stderr only when BOARDSCRIPT_LOG is set", function()
    local function run(env)
      local err = os.tmpname()
      local ok = os.execute(("%s%s play board --rules reversi --size 4 --black minimax --white mcts:playouts=20 "
        .. "--seed 3 </dev/null >/dev/null 2>%s"):format(env, support.shell_quote(support.BIN), err))
      local text = support.slurp(err)
      os.remove(err)
      assert.is_true(ok)
      return text
    end
    assert.equal("", run(""))
    local text = run("BOARDSCRIPT_LOG=1 ")
    assert.matches("^%[minimax%] depth 3, value ", text)
    assert.matches("\n%[mcts%] 20 playouts, ", text)
  end)
end)

-- Every rule set a policy may claim, as { rules, options, ply limit }.
local CASES = {
  { "reversi", { size = 8 } },
  { "reversi", { size = 6 } },
  { "blocks", { size = 4, blocks = "6" } },
  { "blocks", { size = 10, blocks = "6" } },
  { "blocks", { size = 26, blocks = "6" }, 4 },
  { "othello", { size = 6 } },
  { "othello-strict", { size = 8 } },
  { "flipflop", { size = 8 } },
  { "flipflop", { size = 6 } },
  { "dots", { rows = 2, cols = 2 } },
  { "dots", { rows = 3, cols = 3 } },
  { EXAMPLES .. "anti.lua" },
  { EXAMPLES .. "octagon.lua" },
  { EXAMPLES .. "holes.lua", { size = 6, holes = 6 } },
  { EXAMPLES .. "orthogonal.lua" },
  { EXAMPLES .. "misere_dots.lua" },
  { EXAMPLES .. "tictactoe.lua" },
}

-- The policies, with options that keep a game short.
local POLICIES = { "greedy", "positional", "minimax", "mcts:playouts=40" }

describe("every built-in Lua policy", function()
  for _, spec in ipairs(POLICIES) do
    it(spec .. " only returns legal moves in seeded games of every rule set it claims", function()
      local played, second_pieces, passes = 0, 0, 0
      for i, case in ipairs(CASES) do
        local rules, opts, limit = case[1], case[2], case[3]
        local claims = players.plays(players.load(spec), bs.new_game(rules, opts, 1).rules)
        -- positional claims the capture rule sets only (its corner weights mean nothing elsewhere)
        local fits = require("boardscript.ai.positional").fits(bs.new_game(rules, opts, 1).rules)
        assert.equal(spec ~= "positional" or fits, claims, rules)
        if claims then
          for seed = 1, 2 do
            local g = against_random(spec, rules, opts, 10 * i + seed, seed == 1, limit, function(g)
              if g.state.piece == 2 then second_pieces = second_pieces + 1 end
              if g:can_pass() then passes = passes + 1 end
            end)
            assert.is_true(g:finished() or limit ~= nil, rules)
            played = played + 1
          end
        end
      end
      assert.is_true(played >= 2 * (#CASES - 4)) -- positional: not dots, misere dots, tic-tac-toe
      assert.is_true(second_pieces > 0, "no FlipFlop second piece came up")
      assert.is_true(passes > 0, "no pass came up")
    end)
  end

  it("minimax and mcts play each other on every rule set", function()
    for i, case in ipairs(CASES) do
      local g = bs.new_game(case[1], case[2], i)
      local a, b = g:sides()
      play_on(g, { [a] = players.load("minimax:depth=2", g.rules), [b] = players.load("mcts:playouts=20", g.rules) },
        case[3] or 12)
    end
  end)
end)

describe("greedy", function()
  it("takes the move that gains the most, ties drawn from the seed", function()
    local firsts = {}
    for seed = 1, 20 do
      local g = bs.new_game("reversi", nil, seed)
      firsts[g:move_text(players.choose(players.load("greedy"), g))] = true
    end
    local distinct = 0
    for _ in pairs(firsts) do distinct = distinct + 1 end
    assert.is_true(distinct >= 2)
    -- Dots: the edge that completes a box.
    local g = bs.new_game("dots", { rows = 1, cols = 2 }, 1)
    for _, text in ipairs { "a1 a2", "b1 b2", "a1 b1" } do assert(g:play(g:parse_move(text))) end
    assert.equal("a2 b2", g:move_text(players.choose(players.load("greedy"), g)))
  end)

  it("passes when only a pass is allowed", function()
    local seen = 0
    for seed = 1, 10 do
      local g = bs.new_game("blocks", { size = 4, blocks = "6" }, seed)
      play_on(g, { black = players.load("greedy"), white = players.load("greedy") }, nil, function(game)
        if #game:moves() == 0 then
          seen = seen + 1
          assert.equal("pass", players.choose(players.load("greedy"), game))
        end
      end)
    end
    assert.is_true(seen > 0)
  end)
end)

describe("positional", function()
  it("weighs corners high, the cells next to an empty corner low, edges above the centre", function()
    local t = positional.table(core.board(8))
    assert.same({ 100, -20, 10, 10, 10, 10, -20, 100 }, t[1])
    assert.same({ -20, -50, 0, 0, 0, 0, -50, -20 }, t[2])
    assert.same({ 10, 0, 0, 0, 0, 0, 0, 10 }, t[4])
    local b = core.board(8)
    b:set(1, 1, "black")
    t = positional.table(b)
    assert.same({ 100, 10, 10, 10, 10, 10, -20, 100 }, t[1]) -- the corner is taken
    assert.equal(0, t[2][2])
  end)

  it("counts a cell whose lines all end at blocks or edges as a corner", function()
    local b = core.board(6)
    b:set(1, 3, "block")
    local t = positional.table(b)
    assert.same({ 100, 100, 0, 100, -20, 100 }, t[1])
    assert.same({ -20, -50, -50, -50, -50, -20 }, t[2])
    assert.same({ 10, 0, 0, 0, 0, 10 }, t[3])
  end)

  it("takes a corner when it can, where greedy flips more", function()
    local g = bs.new_game("reversi", nil, 1)
    local b = g:board()
    b:set(2, 2, "white")
    b:set(3, 3, "black")
    b:set(4, 6, "white")
    b:set(4, 7, "white")
    b:set(4, 8, "black")
    assert.equal("a1", g:move_text(players.choose(players.load("positional"), g)))
    assert.are_not.equal("a1", g:move_text(players.choose(players.load("greedy"), g)))
  end)
end)

describe("minimax", function()
  it("uses the rule set's evaluate hook, asked for the side to move", function()
    local path, remove = files.lua([[
      local rules = require "boardscript.rules"
      local reversi = require "boardscript.rules.reversi"
      local v = rules.variant(reversi, { name = "likes-e6" })
      v.asked = {}
      function v:evaluate(state, side)
        v.asked[side] = true
        local cell = state.board:get(6, 5)
        if cell == "empty" then return 0 end
        return cell == side and 1000 or -1000 -- the other side's value is the negative
      end
      return v
    ]])
    local g = bs.new_game(path, nil, 1)
    assert.equal("e6", g:move_text(players.choose(players.load("minimax:depth=1"), g)))
    assert.is_true(g.rules.asked.white) -- to move after black's move, one ply down
    assert.equal("e6", g:move_text(players.choose(players.load("minimax:depth=3"), g)))
    remove()
  end)

  it("keeps the sign when the same side moves again (a completed box)", function()
    for depth = 1, 4 do
      local g = bs.new_game("dots", { rows = 2, cols = 2 }, depth)
      for _, text in ipairs { "a1 a2", "b1 b2", "a1 b1" } do assert(g:play(g:parse_move(text))) end
      assert.equal("a2 b2", g:move_text(players.choose(players.load("minimax:depth=" .. depth), g)))
    end
  end)

  it("wins a won tic-tac-toe and blocks a loss", function()
    local g = bs.new_game(EXAMPLES .. "tictactoe.lua", nil, 1)
    for _, text in ipairs { "a1", "b1", "a2" } do assert(g:play(g:parse_move(text))) end
    assert.equal("a3", g:move_text(players.choose(players.load("minimax"), g))) -- O blocks
    assert(g:play(g:parse_move("c3")))
    assert.equal("a3", g:move_text(players.choose(players.load("minimax:depth=1"), g))) -- X wins
  end)
end)

describe("a time budget", function()
  for _, spec in ipairs { "minimax:time=0.2", "mcts:time=0.2" } do
    it(spec .. " answers within it", function()
      for _, case in ipairs { { "reversi", { size = 8 }, 10 }, { "blocks", { size = 26, blocks = "6" }, 2 },
                              { "othello", { size = 8 }, 6 }, { "dots", { rows = 3, cols = 3 }, 3 } } do
        local g = bs.new_game(case[1], case[2], 5)
        local a, b = g:sides()
        play_on(g, { [a] = players.load("random"), [b] = players.load("random") }, case[3])
        local p = players.load(spec, g.rules)
        local start = os.clock()
        local move = players.choose(p, g)
        local spent = os.clock() - start
        assert.is_truthy(move)
        assert.is_true(spent < 0.2 * 1.5 + 0.1, ("%s on %s: %.3f s"):format(spec, case[1], spent))
      end
    end)
  end
end)

describe("strength against random over 100 seeded 6 x 6 reversi games", function()
  local function wins(spec, games)
    local won = 0
    for seed = 1, games do
      local g, mine = against_random(spec, "reversi", { size = 6 }, seed, seed % 2 == 1)
      if g:winner() == mine then won = won + 1 end
    end
    return won
  end

  it("mcts (100 playouts) wins at least 90", function()
    assert.is_true(wins("mcts:playouts=100", 100) >= 90)
  end)

  it("minimax (depth 2) wins at least 80", function()
    assert.is_true(wins("minimax:depth=2", 100) >= 80)
  end)
end)

describe("boardscript ai list", function()
  it("prints every built-in policy with its games and options", function()
    local status, out, err = support.run { "ai", "list" }
    assert.equal(0, status, err)
    local names = {}
    for line in out:gmatch("[^\n]+") do names[#names + 1] = line:match("^([%w_]+): ") end
    local expected = {}
    for name in pairs(players.BUILTIN) do expected[#expected + 1] = name end
    table.sort(expected)
    assert.same(expected, names)
    assert.matches(table.concat({
      "mcts: Monte Carlo tree search (UCT) with random playouts",
      "  games: any",
      "  option c: number 0..100 - exploration constant of UCT (default 1.4; 0.4 for a described game "
        .. "searched in C)",
      "  option clock: number 0..10000000 - seconds for all its moves of a game (a game clock; each move gets a share)",
      "  option eval: string - value new nodes by a learned evaluation (a file, or shipped), not playouts",
      "  option inc: number 0..10000000 - seconds added to the clock after each move",
      "  option playouts: integer 1..100000000 - playouts per move (default 1000; with time, no limit unless given)",
      "  option time: number 0.. - seconds per move (processor time): play out until it is spent",
    }, "\n") .. "\n", out, 1, true)
    assert.matches("\npositional: [^\n]*capture rule sets\n  games: blocks, flipflop, othello, othello%-strict, "
      .. "reversi %(built%-in%), and the variants it accepts\n  options: none\n", out)
    assert.matches("\ngreedy: [^\n]*\n  games: any\n  options: none\n", out)
    assert.matches("\n  option depth: integer 1..30 - plies searched", out, 1, true)
  end)

  it("with --game lists only the policies that play that rule set", function()
    local status, out = support.run { "ai", "list", "--game", "dots" }
    assert.equal(0, status)
    assert.matches("\nmcts: ", out)
    assert.matches("\nsolver: ", out)
    assert.is_nil(out:find("positional", 1, true))
    status, out = support.run { "ai", "list", "--game", EXAMPLES .. "anti.lua" }
    assert.equal(0, status)
    assert.matches("\npositional: ", out)
    assert.is_nil(out:find("solver", 1, true))
    local _, err
    status, _, err = support.run { "ai", "list", "--game", "chess" }
    assert.equal(2, status)
    assert.matches("^boardscript: unknown rule set 'chess'", err)
  end)
end)
