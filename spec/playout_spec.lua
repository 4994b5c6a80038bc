-- The allocation-free per-move API (board:move_list, board:play_index) and
-- core.playout: the same games as the Lua loops they replace, move for move
-- and draw for draw, and every misuse a Lua error naming the argument.
local core = require "boardscript.core"
local game = require "boardscript.game"
local mcts = require "boardscript.ai.mcts"
local rules_mod = require "boardscript.rules"

local OTHER = { black = "white", white = "black" }

-- Reversi's start on an n x n board, with block cells where (r * 7 + c * 3) % 11 == 0
-- off the centre when `blocks` is set.
local function start(n, blocks)
  local b = core.board(n)
  local h = n // 2
  if blocks then
    for r = 1, n do
      for c = 1, n do
        if (r * 7 + c * 3) % 11 == 0 and not ((r == h or r == h + 1) and (c == h or c == h + 1)) then
          b:set(r, c, "block")
        end
      end
    end
  end
  b:set(h, h, "white"); b:set(h + 1, h + 1, "white"); b:set(h, h + 1, "black"); b:set(h + 1, h, "black")
  return b
end

-- A random game over move_list and play_index (pass when stuck, over when
-- neither side can move), taken back with undo: black, white, plies.
local function lua_game(b, rng, buffer)
  local player, plies, played = "black", 0, 0
  while true do
    local n = b:move_list(player, "all", buffer)
    if n == 0 then
      if b:move_list(OTHER[player], "all", buffer) == 0 then break end
    else
      assert(b:play_index(player, buffer[rng:random(n)]) > 0)
      played = played + 1
    end
    player, plies = OTHER[player], plies + 1
  end
  local black, white = b:count("black"), b:count("white")
  for _ = 1, played do assert(b:undo()) end
  return black, white, plies
end

describe("board:move_list", function()
  it("lists the moves of board:moves as cell indices in a reused table", function()
    for _, case in ipairs { { 8, false }, { 6, true }, { 10, true }, { 8, true } } do
      local b = start(case[1], case[2])
      local n = b:size()
      local rng = core.rng(3)
      local buffer = { "stale" }
      for _ = 1, 30 do
        for _, dirs in ipairs { "all", "orthogonal", "diagonal", "none" } do
          local count, same = b:move_list(b:count("black") % 2 == 0 and "black" or "white", dirs, buffer)
          local moves = b:moves(b:count("black") % 2 == 0 and "black" or "white", dirs)
          assert.equal(buffer, same)
          assert.equal(#moves, count)
          assert.equal(count, #buffer)
          for i, m in ipairs(moves) do assert.equal((m[1] - 1) * n + m[2], buffer[i]) end
        end
        local count = b:move_list("black", nil, buffer)
        if count == 0 then break end
        b:play_index("black", buffer[rng:random(count)])
      end
    end
  end)

  it("makes a table without a buffer and clears what the buffer held past the moves", function()
    local b = start(8)
    local count, list = b:move_list("black")
    assert.equal(4, count)
    assert.same({ 20, 27, 38, 45 }, list)
    local buffer = { 1, 2, 3, 4, 5, 6, 7 }
    assert.equal(4, b:move_list("white", "all", buffer))
    assert.same({ 21, 30, 35, 44 }, buffer)
  end)
end)

describe("board:play_index", function()
  it("plays like board:play, with undo", function()
    local a, b = start(8), start(8)
    assert.equal(1, a:play_index("black", 20))
    assert.equal(1, b:play("black", 3, 4))
    assert.equal(a, b)
    assert.is_nil((a:play_index("white", 1)))
    assert.equal(a, b)
    assert.is_true(a:undo())
    assert.equal(start(8), a)
    local c = start(6, true)
    assert.equal(1, c:play_index("black", (2 - 1) * 6 + 3, "all", "orthogonal"))
    assert.equal("black", c:get(2, 3))
  end)
end)

describe("core.playout", function()
  it("plays the same random games as a Lua loop over move_list and play_index", function()
    for _, case in ipairs { { 8, false }, { 8, true }, { 6, false }, { 10, true } } do
      local b = start(case[1], case[2])
      local before = tostring(b)
      local r1, r2 = core.rng(11), core.rng(11)
      local buffer = {}
      for _ = 1, 100 do
        local black, white, plies, winner = core.playout(b, "black", r1)
        local black2, white2, plies2 = lua_game(b, r2, buffer)
        assert.same({ black2, white2, plies2 }, { black, white, plies })
        assert.equal(black > white and "black" or white > black and "white" or "draw", winner)
      end
      assert.equal(before, tostring(b)) -- played on a copy
      assert.equal(r1:random(1000000), r2:random(1000000))
    end
  end)

  it("plays mcts's playouts over the hooks, draw for draw, for every rule set the core searches", function()
    local cases = {
      { "reversi" }, { "reversi", { size = 6 } }, { "blocks", { blocks = "6" } }, { "othello" },
      { "othello-strict" }, { "flipflop" }, { "flipflop", { size = 6 } },
    }
    for _, case in ipairs(cases) do
      local rules = rules_mod.load(case[1])
      assert.is_true(rules_mod.searched_in_core(rules), case[1])
      local g = game.new(rules, case[2], core.rng(5))
      local walk = core.rng(9)
      for step = 1, 40 do
        local s = g.state
        local limit = mcts.playout_limit(s)
        local opts = { game = rules_mod.core_game(rules, s), pass_odds = mcts.PASS_ODDS, limit = limit,
                       passes = s.passes, piece = s.piece, turns = s.turns, unable = s.unable }
        local r1, r2 = core.rng(step), core.rng(step)
        local _, _, plies, winner = core.playout(s.board, s.player, r1, opts)
        local plies2 = mcts.playout(rules, s, r2, limit)
        assert.equal(plies2, plies, case[1])
        assert.equal(rules:winner(s), winner, case[1])
        for _ = 1, plies2 do rules:undo(s) end
        assert.equal(r2:random(1000000), r1:random(1000000))
        if rules:finished(s) then break end
        local moves = game.choices(rules, s)
        game.apply(rules, s, moves[walk:random(#moves)])
      end
    end
  end)

  it("leaves mcts's choices as they were over the hooks", function()
    for _, name in ipairs { "reversi", "flipflop", "othello" } do
      local g = game.new(rules_mod.load(name), nil, core.rng(1))
      for _ = 1, 3 do
        local moves = {}
        for k, on in ipairs { true, false } do
          mcts.core_playouts = on
          moves[k] = mcts.new { playouts = 150 }:choose(g:clone(), { rng = core.rng(4) })
        end
        mcts.core_playouts = true
        assert.same(moves[2], moves[1], name)
        if moves[1] == nil then break end
        if moves[1] == "pass" then g:pass() else g:play(moves[1]) end
      end
    end
  end)

  it("raises errors naming the argument on misuse", function()
    local b = start(8)
    local rng = core.rng(1)
    local function raises(pattern, f, ...)
      local ok, err = pcall(f, ...)
      assert.is_false(ok)
      assert.matches(pattern, err)
    end
    raises("bad argument #1 to 'move_list' %(boardscript.board expected, got table%)",
      function() return b.move_list({}, "black") end)
    raises("bad argument #1 to 'move_list' %(string expected, got no value%)", function() return b:move_list() end)
    raises("bad argument #1 to 'move_list' %(invalid option 'red'%)", function() return b:move_list("red") end)
    raises("bad argument #2 to 'move_list' %(unknown direction set", function() return b:move_list("black", "up") end)
    raises("bad argument #3 to 'move_list' %(table expected, got string%)",
      function() return b:move_list("black", "all", "x") end)
    raises("bad argument #2 to 'play_index' %(index out of range 1..64%)",
      function() return b:play_index("black", 65) end)
    raises("bad argument #2 to 'play_index' %(index out of range 1..64%)",
      function() return b:play_index("black", 0) end)
    raises("bad argument #2 to 'play_index' %(number expected, got string%)",
      function() return b:play_index("black", "d3") end)
    raises("bad argument #2 to 'play_index' %(number has no integer representation%)",
      function() return b:play_index("black", 1.5) end)
    raises("bad argument #3 to 'play_index' %(direction set expected",
      function() return b:play_index("black", 20, 7) end)
    raises("bad argument #4 to 'play_index' %(unknown direction %(expected",
      function() return b:play_index("black", 20, "all", { "up" }) end)
    raises("bad argument #1 to 'playout' %(boardscript.board expected, got nil%)",
      function() return core.playout(nil, "black", rng) end)
    raises("bad argument #2 to 'playout' %(invalid option 'x'%)", function() return core.playout(b, "x", rng) end)
    raises("bad argument #3 to 'playout' %(boardscript.rng expected, got no value%)",
      function() return core.playout(b, "black") end)
    raises("bad argument #3 to 'playout' %(boardscript.rng expected, got boardscript.board%)",
      function() return core.playout(b, "black", b) end)
    raises("bad argument #4 to 'playout' %(table expected, got number%)",
      function() return core.playout(b, "black", rng, 3) end)
    raises("bad argument #4 to 'playout' %(field 'limit' out of range 0..1000000%)",
      function() return core.playout(b, "black", rng, { limit = -1 }) end)
    raises("bad argument #4 to 'playout' %(field 'pass_odds': integer expected%)",
      function() return core.playout(b, "black", rng, { pass_odds = "often" }) end)
    raises("bad argument #4 to 'playout' %(field 'game.ending': unknown value 'never'%)",
      function() return core.playout(b, "black", rng, { game = { ending = "never" } }) end)
    raises("bad argument #4 to 'playout' %(field 'piece' out of range 1..1%)",
      function() return core.playout(b, "black", rng, { piece = 2 }) end)
    -- a limit stops the game where it stands
    local black, white, plies = core.playout(b, "black", rng, { limit = 3 })
    assert.equal(3, plies)
    assert.equal(7, black + white)
    assert.same({ 2, 2, 0, "draw" }, { core.playout(b, "black", rng, { limit = 0 }) })
  end)
end)
