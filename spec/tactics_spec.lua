-- The default AIs see the game (issue 32 item 4): in positions where the
-- side to move can win at once, or must stop the opponent's win at once,
-- mcts (the Lua search, and the C search of described games, on a budget
-- far too small to find it by chance), minimax and alphabeta play a move
-- that wins, or one after which the opponent cannot win at once. The
-- positions are found by seeded random play and checked here by brute
-- force over the game's own moves; positional is offered only where its
-- corner weights mean something, and minimax weighs cells only there.
local core = require "boardscript.core"
local game_mod = require "boardscript.game"
local players = require "boardscript.players"
local positional = require "boardscript.ai.positional"
local tactics = require "boardscript.ai.tactics"

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local function example(name) return SOURCE .. "/lua/examples/" .. name .. ".lua" end

-- The choices of g that end the game at once won by the side to move.
local function winning(g)
  local side, out = g:to_move(), {}
  for _, choice in ipairs(g:choices()) do
    local copy = g:clone()
    copy:apply(choice)
    if copy:finished() and copy:winner() == side then out[#out + 1] = choice end
  end
  return out
end

-- The choices of g after which the opponent has no win at once.
local function safe(g)
  local out = {}
  for _, choice in ipairs(g:choices()) do
    local copy = g:clone()
    copy:apply(choice)
    if copy:finished() or #winning(copy) == 0 then out[#out + 1] = choice end
  end
  return out
end

local function text(g, choice) return choice == "pass" and "pass" or g:move_text(choice) end

local function texts(g, list)
  local out = {}
  for _, choice in ipairs(list) do out[text(g, choice)] = true end
  return out
end

-- Positions of `rules` (options `opts`) by random play from seed `seed`:
-- up to `n` where the side to move can win at once, and up to `n` where
-- the opponent threatens a win that some choices stop and others do not.
local function probes(rules, opts, seed, n)
  local wins, blocks = {}, {}
  local rng = core.rng(seed)
  for _ = 1, 400 do
    if #wins >= n and #blocks >= n then break end
    local g = game_mod.new(rules, opts, core.rng(rng:random(1000000)))
    while not g:finished() do
      local list = g:choices()
      if #winning(g) > 0 then
        if #wins < n then wins[#wins + 1] = g:clone() end
        break
      end
      local ok = #safe(g)
      if ok > 0 and ok < #list and #blocks < n then
        blocks[#blocks + 1] = g:clone()
        break
      end
      g:apply(list[rng:random(#list)])
    end
  end
  return wins, blocks
end

local CASES = {
  { name = "connect4", rules = example("connect4"), opts = {} },
  { name = "gomoku 9 x 9", rules = example("gomoku"), opts = { size = 9 } },
  { name = "breakthrough", rules = example("breakthrough"), opts = {} },
  { name = "tic-tac-toe (hooks)", rules = example("tictactoe"), opts = {} },
}

local POLICIES = { "mcts:playouts=8", "mcts", "minimax:depth=2" }

describe("the default AIs see an immediate win and an immediate loss", function()
  for _, case in ipairs(CASES) do
    it("in " .. case.name, function()
      local wins, blocks = probes(case.rules, case.opts, 7, 3)
      assert.is_true(#wins >= 1, "no position with a win at once")
      assert.is_true(#blocks >= 1, "no position with a threat to stop")
      local specs = {}
      for _, spec in ipairs(POLICIES) do specs[#specs + 1] = spec end
      local sample = game_mod.new(case.rules, case.opts, core.rng(1))
      local alphabeta = players.load("alphabeta", sample.rules)
      if players.plays(alphabeta, sample.rules) then specs[#specs + 1] = "alphabeta" end
      for _, spec in ipairs(specs) do
        for i, g in ipairs(wins) do
          local player = players.load(spec, g.rules)
          local copy = g:clone()
          local choice = players.choose(player, copy)
          assert.truthy(texts(g, winning(g))[text(g, choice)],
            ("%s, win %d: %s played %s"):format(case.name, i, spec, text(g, choice)))
        end
        for i, g in ipairs(blocks) do
          local player = players.load(spec, g.rules)
          local copy = g:clone()
          local choice = players.choose(player, copy)
          assert.truthy(texts(g, safe(g))[text(g, choice)],
            ("%s, block %d: %s played %s\n%s"):format(case.name, i, spec, text(g, choice), g:text()))
        end
      end
    end)
  end

  it("tactics.choose takes a win first, then the first choice that loses nothing, else the first", function()
    local wins, blocks = probes(example("connect4"), {}, 11, 1)
    local g = wins[1]
    local list = g:choices()
    local choice, why = tactics.choose(g.rules, g.state, list)
    assert.equal("win", why)
    assert.truthy(texts(g, winning(g))[text(g, choice)])
    g = blocks[1]
    local unsafe = {}
    local ok = texts(g, safe(g))
    for _, c in ipairs(g:choices()) do
      if not ok[text(g, c)] then unsafe[#unsafe + 1] = c end
    end
    for _, c in ipairs(g:choices()) do
      if ok[text(g, c)] then unsafe[#unsafe + 1] = c end
    end
    choice, why = tactics.choose(g.rules, g.state, unsafe)
    assert.equal("block", why)
    assert.truthy(ok[text(g, choice)])
  end)
end)

describe("mcts within a budget", function()
  it("stops itself within --max-seconds (a move, not a budget error), on the hooks and in C", function()
    for _, rules in ipairs { "reversi", example("tictactoe"), example("gomoku") } do
      local g = game_mod.new(rules, {}, core.rng(1))
      local started = os.clock()
      local move = require("boardscript.ai.mcts").new({ playouts = 100000000 }):choose(g:clone(), { max_seconds = 0.2 })
      assert.truthy(g:check(move), rules)
      assert.is_true(os.clock() - started < 5, rules .. ": it did not stop itself")
    end
  end)
end)

describe("positional's corner weights only where they mean something", function()
  it("is offered for the capture rule sets and their variants, not for other board games", function()
    for _, name in ipairs { "reversi", "othello", "flipflop", "blocks", example("anti"), example("octagon") } do
      local r = game_mod.new(name, {}, core.rng(1)).rules
      assert.is_true(positional.fits(r), name)
      assert.truthy(table.concat(players.builtin_for(r), ","):find("positional", 1, true), name)
    end
    for _, name in ipairs { "connect4", "breakthrough", "gomoku", "tictactoe", "hex" } do
      local r = game_mod.new(example(name), {}, core.rng(1)).rules
      assert.is_false(positional.fits(r), name)
      assert.falsy(table.concat(players.builtin_for(r), ","):find("positional", 1, true), name)
    end
  end)

  it("minimax without an evaluate hook values Breakthrough by its score, never by corner weights", function()
    -- at depth 1 its value is the best piece margin after one move (corner
    -- weights would add 100 for a corner, -50 next to one ...)
    local g = game_mod.new(example("breakthrough"), {}, core.rng(3))
    local rng = core.rng(5)
    local checked = 0
    while not g:finished() and checked < 12 do
      if #winning(g) == 0 then
        local side, best = g:to_move(), nil
        for _, choice in ipairs(g:choices()) do
          local copy = g:clone()
          copy:apply(choice)
          local a, b = copy:score()
          local margin = side == g.rules.sides[1] and a - b or b - a
          if best == nil or margin > best then best = margin end
        end
        local logged
        require("boardscript.ai.minimax").new({ depth = 1 }):choose(g:clone(),
          { log = function(fmt, ...) logged = fmt:format(...) end })
        assert.equal(tostring(best), logged:match("value (%S+),"), logged)
        checked = checked + 1
      end
      local list = g:choices()
      g:apply(list[rng:random(#list)])
    end
    assert.is_true(checked >= 12)
  end)
end)
