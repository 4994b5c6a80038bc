-- The examples a user copies (lua/examples, docs/guide.md): every one loads,
-- every variant plays seeded games to the end with checked moves and counts
-- the same perft in C as over its hooks, the policies play what they promise,
-- and the regression script passes inside the host.
local bs = require "boardscript"
local perft = require "boardscript.perft"
local players = require "boardscript.players"
local rules = require "boardscript.rules"

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local BIN = os.getenv("BOARDSCRIPT_BIN")
local DIR = SOURCE .. "/lua/examples/"

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

--- Runs the host with arguments in directory `cwd`: status, stdout and stderr.
local function host(args, cwd)
  local base = os.tmpname()
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = shell_quote(a) end
  local ok, _, code = os.execute(("cd %s && %s %s </dev/null >%s.out 2>%s.err"):format(
    shell_quote(cwd or SOURCE), shell_quote(assert(BIN, "BOARDSCRIPT_BIN is set by ctest")),
    table.concat(quoted, " "), base, base))
  local function slurp(path)
    local f = assert(io.open(path))
    local text = f:read("a")
    f:close()
    os.remove(path)
    return text
  end
  local out, err = slurp(base .. ".out"), slurp(base .. ".err")
  os.remove(base)
  return ok and 0 or code, out, err
end

--- The example files, by kind: rule sets, policies, regression scripts.
local function examples()
  local found = { rules = {}, policies = {}, tests = {}, described = {} }
  local list = assert(io.popen("ls " .. shell_quote(DIR)))
  for name in list:lines() do
    if name:match("_test%.lua$") then
      found.tests[#found.tests + 1] = name
    elseif name:match("%.lua$") then
      local value = dofile(DIR .. name)
      -- described games (boardscript.describe) have their own spec, describe_spec
      local kind = type(value) == "table" and (value.choose and "policies" or value.described and "described")
        or "rules"
      found[kind][#found[kind] + 1] = name
    end
  end
  list:close()
  return found
end

local FOUND = examples()

local RANDOM = players.load("random")
local POLICIES = {
  random = RANDOM,
  greedy = players.load(DIR .. "greedy.lua"),
  minimax2 = players.load(DIR .. "minimax2.lua"),
}

--- Plays `g` to the end; seats[1] plays the first side, seats[2] the second.
-- Every answer goes through players.choose, which stops on an illegal one.
local function play_out(g, seats)
  local first = g:sides()
  local plies = 0
  while not g:finished() do
    local seat = g:to_move() == first and seats[1] or seats[2]
    local move = players.choose(seat, g)
    if move == "pass" then
      assert.is_true(g:pass())
    else
      assert.is_truthy(g:play(move))
    end
    plies = plies + 1
    assert.is_true(plies <= 2000, "the game ends")
  end
  return plies
end

--- Asserts that f() raises an error whose text contains `text`.
local function raises(text, f)
  local ok, err = pcall(f)
  assert.is_false(ok)
  assert.is_truthy(tostring(err):find(text, 1, true), ("%q in %q"):format(text, tostring(err)))
end

local function new_game(name, opts, seed)
  return bs.game.new(rules.load(DIR .. name), opts, bs.core.rng(seed or 1))
end

describe("examples", function()
  it("are all found: six rule sets, three policies and a regression script", function()
    for _, name in ipairs { "anti.lua", "octagon.lua", "holes.lua", "orthogonal.lua", "misere_dots.lua",
                            "tictactoe.lua" } do
      assert.is_truthy(table.concat(FOUND.rules, " "):find(name, 1, true), name)
    end
    assert.same({ "edgy_alphabeta.lua", "greedy.lua", "minimax2.lua" }, FOUND.policies)
    assert.same({ "regression_test.lua" }, FOUND.tests)
  end)

  it("every rule set file here, written with hooks or described, is one of rules.EXAMPLES (each with a description)",
    function()
      local listed = {}
      for _, name in ipairs(rules.EXAMPLES) do listed[name .. ".lua"] = true end
      for _, kind in ipairs { "rules", "described" } do
        for _, name in ipairs(FOUND[kind]) do
          assert.is_true(listed[name] == true, name)
          assert.is_string(rules.load(DIR .. name).description, name)
        end
      end
    end)

  it("edgy_alphabeta: a file wrapping alphabeta with its own evaluation plays through --white", function()
    local status, out, err = require("boardscript.play").run({ "reversi", "--black", "random", "--white",
      DIR .. "edgy_alphabeta.lua", "--seed", "4" }, { input = "" })
    assert.equal(0, status, err)
    assert.matches("\nWhite wins!\n$", out)
    -- its own evaluation is the one searched: counting edges double changes some choices
    local edgy = players.load(DIR .. "edgy_alphabeta.lua")
    local plain = players.load("alphabeta:depth=3")
    local differs = false
    for seed = 1, 6 do
      local g = bs.game.new("reversi", {}, bs.core.rng(seed))
      for _ = 1, 12 do
        local moves = g:moves()
        if #moves == 0 then break end
        g:play(moves[g.rng:random(#moves)])
      end
      if not g:finished() and g:move_text(players.choose(edgy, g)) ~= g:move_text(players.choose(plain, g)) then
        differs = true
      end
    end
    assert.is_true(differs)
  end)

  for _, name in ipairs(FOUND.rules) do
    describe(name, function()
      it("loads as a valid rule set", function()
        local r = rules.load(DIR .. name)
        assert.equal(r, rules.validate(r))
        for _, hook in ipairs(rules.HOOKS) do assert.is_function(r[hook], hook) end
      end)

      it("plays seeded games to the end with every pair of policies, and undoes them", function()
        for _, a in ipairs { "random", "greedy", "minimax2" } do
          for _, b in ipairs { "random", "greedy", "minimax2" } do
            local g = new_game(name, nil, 7)
            local start = g:board():clone()
            local plies = play_out(g, { POLICIES[a], POLICIES[b] })
            local winner = g:winner()
            local first, second = g:sides()
            assert.is_true(winner == first or winner == second or winner == "draw")
            assert.equal(plies, #g:history())
            for _ = 1, plies do assert.is_true(g:undo()) end
            assert.is_false(g:undo())
            assert.is_true(g:board() == start, ("%s vs %s undone to the start"):format(a, b))
          end
        end
      end)

      it("counts perft alike in the way perft.count chooses and over its hooks (depths 1-4)", function()
        local g = new_game(name)
        for depth = 1, 4 do
          local count = perft.count(g.rules, g.state, depth)
          local hooks, how = perft.count(g.rules, g.state, depth, { hooks = true })
          assert.equal("hooks", how)
          assert.equal(hooks, count, ("depth %d"):format(depth))
        end
      end)
    end)
  end

  it("the board variants are all counted by the C core (their declaration still holds)", function()
    for _, name in ipairs { "anti.lua", "octagon.lua", "holes.lua", "orthogonal.lua" } do
      local g = new_game(name)
      local _, how = perft.count(g.rules, g.state, 3)
      assert.equal("core", how, name)
    end
  end)

  it("anti: the side with fewer discs wins", function()
    for seed = 1, 5 do
      local g = new_game("anti.lua", nil, seed)
      play_out(g, { RANDOM, RANDOM })
      local black, white = g:score()
      local expected = black < white and "black" or white < black and "white" or "draw"
      assert.equal(expected, g:winner())
    end
  end)

  it("anti and reversi have the same perft (only the winner differs)", function()
    local anti, reversi = new_game("anti.lua"), bs.new_game("reversi")
    for depth = 1, 6 do
      assert.equal(perft.count(reversi.rules, reversi.state, depth), perft.count(anti.rules, anti.state, depth))
    end
  end)

  it("octagon: 10 x 10 with six blocks in each corner", function()
    local g = new_game("octagon.lua")
    local b = g:board()
    assert.equal(10, b:size())
    assert.equal(24, b:count("block"))
    for _, cell in ipairs { { 1, 1 }, { 1, 3 }, { 2, 2 }, { 3, 1 }, { 10, 8 }, { 8, 10 }, { 1, 10 }, { 10, 1 } } do
      assert.equal("block", b:get(cell[1], cell[2]))
    end
    for _, cell in ipairs { { 1, 4 }, { 2, 3 }, { 4, 1 }, { 3, 2 }, { 7, 10 } } do
      assert.equal("empty", b:get(cell[1], cell[2]))
    end
    assert.equal(24, new_game("octagon.lua", { size = 12 }):board():count("block"))
    raises("option size: 6 is out of range 8..26", function() new_game("octagon.lua", { size = 6 }) end)
  end)

  it("holes: the option's number of holes, from the seed, never in the centre", function()
    local g = new_game("holes.lua", { size = 6, holes = 5 }, 3)
    local b = g:board()
    assert.equal(5, b:count("block"))
    for r = 3, 4 do
      for c = 3, 4 do assert.is_not.equal("block", b:get(r, c)) end
    end
    assert.is_true(new_game("holes.lua", { size = 6, holes = 5 }, 3):board() == b)
    assert.equal(4, new_game("holes.lua"):board():count("block"))
    assert.equal(32, new_game("holes.lua", { size = 6, holes = 32 }):board():count("block"))
    raises("rules holes: options centre=white, holes=33, size=6: 33 holes do not fit in the 32 cells outside the "
      .. "centre", function() new_game("holes.lua", { size = 6, holes = 33 }) end)
    raises("option holes: -1 is out of range 0..672", function() new_game("holes.lua", { holes = -1 }) end)
  end)

  it("holes: different seeds punch different holes", function()
    local seen = {}
    for seed = 1, 5 do seen[tostring(new_game("holes.lua", nil, seed):board())] = true end
    local distinct = 0
    for _ in pairs(seen) do distinct = distinct + 1 end
    assert.is_true(distinct >= 4)
  end)

  it("orthogonal: captures only along rows and columns", function()
    local g = new_game("orthogonal.lua")
    local counts = {}
    for depth = 1, 6 do counts[depth] = perft.count(g.rules, g.state, depth) end
    assert.same({ 4, 8, 20, 44, 116, 296 }, counts)
    -- d3 (row 3, col 4) traps d4 vertically; then c3 would trap d4 only diagonally.
    assert.equal(1, g:play({ 3, 4 }))
    assert.is_nil(g:play({ 3, 3 }))
  end)

  it("misere_dots: a 2 x 3 grid by default, and the fewest boxes win", function()
    local g = new_game("misere_dots.lua")
    assert.equal("2x3", g:size_text())
    assert.equal(17, #g:moves())
    for seed = 1, 5 do
      g = new_game("misere_dots.lua", nil, seed)
      play_out(g, { RANDOM, POLICIES.greedy })
      local a, b = g:score()
      assert.equal(6, a + b)
      assert.equal(a < b and 1 or b < a and 2 or "draw", g:winner())
    end
  end)

  it("tictactoe: a pure Lua rule set, counted over its hooks", function()
    local g = new_game("tictactoe.lua")
    local counts, how = {}, nil
    for depth = 1, 5 do counts[depth], how = perft.count(g.rules, g.state, depth) end
    assert.equal("hooks", how)
    assert.same({ 9, 72, 504, 3024, 15120 }, counts)
    assert.equal("X", g:side_name())
    assert.is_false(g:can_pass())
    assert.is_nil(g:pass())
    for _, text in ipairs { "a1", "b1", "a2", "b2", "a3" } do assert.is_true(g:play(g:parse_move(text))) end
    assert.is_true(g:finished())
    assert.same({ 1, 0 }, { g:score() })
    assert.equal("black", g:winner())
    assert.same({}, g:moves())
  end)

  it("greedy plays a move that flips the most", function()
    local greedy = dofile(DIR .. "greedy.lua")
    for seed = 1, 5 do
      local g = bs.new_game("reversi", { size = 6 }, seed)
      while not g:finished() do
        local moves = g:moves()
        if #moves == 0 then
          g:pass()
        else
          local most = 0
          for _, m in ipairs(moves) do most = math.max(most, (g:board():flips(g:to_move(), m[1], m[2]))) end
          local choice = greedy:choose(g:clone())
          assert.equal(most, (g:board():flips(g:to_move(), choice[1], choice[2])))
          g:play(moves[g.rng:random(#moves)])
        end
      end
    end
  end)

  it("greedy and minimax2 pass (return nil) when there is no move", function()
    local g = bs.new_game("reversi", { size = 4 })
    local b = g:board()
    for r = 1, 4 do
      for c = 1, 4 do b:set(r, c, "empty") end
    end
    b:set(1, 1, "white")
    b:set(4, 4, "black")
    assert.is_true(g:can_pass())
    assert.is_nil(POLICIES.greedy.policy:choose(g:clone()))
    assert.is_nil(POLICIES.minimax2.policy:choose(g:clone()))
  end)

  it("minimax2 beats random in most of 20 seeded 6 x 6 games", function()
    local wins = 0
    for seed = 1, 20 do
      local g = bs.new_game("reversi", { size = 6 }, seed)
      local me = seed % 2 == 1 and "black" or "white"
      play_out(g, me == "black" and { POLICIES.minimax2, RANDOM } or { RANDOM, POLICIES.minimax2 })
      if g:winner() == me then wins = wins + 1 end
    end
    assert.is_true(wins >= 14, ("minimax2 won %d of 20"):format(wins))
  end)

  it("the regression script passes inside the host", function()
    local status, out, err = host { "run", "lua/examples/regression_test.lua" }
    assert.equal("", err)
    assert.equal("", out)
    assert.equal(0, status)
  end)

  describe("docs/guide.md", function()
    local guide = assert(io.open(SOURCE .. "/docs/guide.md")):read("a")

    --- The guide's ```lua blocks, in order.
    local function lua_blocks()
      local blocks = {}
      for code in guide:gmatch("\n```lua\n(.-\n)```") do blocks[#blocks + 1] = code end
      return blocks
    end

    local function squeeze(text) return (text:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")) end

    it("has Lua examples", function()
      assert.is_true(#lua_blocks() >= 8)
    end)

    for i, code in ipairs(lua_blocks()) do
      it(("runs Lua block %d, printing what its --> comments say"):format(i), function()
        local path = os.tmpname()
        local f = assert(io.open(path, "w"))
        f:write(code)
        f:close()
        local status, out, err = host { "run", path }
        os.remove(path)
        assert.equal("", err)
        assert.equal(0, status)
        local lines = {}
        for line in out:gmatch("[^\n]*") do lines[#lines + 1] = squeeze(line) end
        local at = 1
        for expected in code:gmatch("%-%->%s*([^\n]*)") do
          expected = squeeze(expected)
          while at <= #lines and lines[at] ~= expected do at = at + 1 end
          assert.is_true(at <= #lines, ("block %d prints %q (in order); it printed:\n%s"):format(i, expected, out))
          at = at + 1
        end
      end)
    end

    -- Code without its comment lines.
    local function code_only(text)
      return (text:gsub("[ ]*%-%-[^\n]*\n", ""))
    end

    it("quotes the example files as they are (comments aside)", function()
      for _, name in ipairs { "anti.lua", "orthogonal.lua", "misere_dots.lua" } do
        local body = assert(io.open(DIR .. name)):read("a"):match("\n(local rules = require.*)$")
        local found = false
        for _, code in ipairs(lua_blocks()) do
          found = found or code_only(code) == code_only(body)
        end
        assert.is_true(found, name)
      end
    end)

    it("states the perft counts of the examples that perft gives", function()
      local rows = 0
      for file, _, counted, counts in guide:gmatch("\n| `([%w_]+%.lua)`([^|]*)| (%a+) | ([%d, ]+)") do
        rows = rows + 1
        local opts = file == "holes.lua" and {} or nil
        local g = new_game(file, opts, 1)
        local depth = 0
        for expected in counts:gmatch("%d+") do
          depth = depth + 1
          local leaves, how = perft.count(g.rules, g.state, depth)
          assert.equal(tonumber(expected), leaves, ("%s depth %d"):format(file, depth))
          assert.equal(counted == "C" and "core" or "hooks", how, file)
        end
        assert.is_true(depth >= 5, file)
      end
      assert.equal(6, rows)
    end)
  end)

  it("the perft command counts a variant file in C", function()
    local status, out = host { "perft", "./lua/examples/octagon.lua", "4" }
    assert.equal(0, status)
    assert.matches("^perft octagon depth 4 size 10: 244 leaves, .* %(C core%)\n$", out)
  end)
end)
