-- core.cursor: a game walked one move at a time, each move picked by its
-- number among the legal ones.
local core = require "boardscript.core"
local game = require "boardscript.game"
local mcts = require "boardscript.ai.mcts"
local rules_mod = require "boardscript.rules"

-- An N x N board with the four centre discs (and blocks at the given cells).
local function start(n, blocks)
  local b = core.board(n)
  local h = n // 2
  b:set(h, h, "white"); b:set(h + 1, h + 1, "white"); b:set(h, h + 1, "black"); b:set(h + 1, h, "black")
  for _, cell in ipairs(blocks or {}) do b:set(cell[1], cell[2], "block") end
  return b
end

-- The games the cursor is checked on: {name, board, player, opts}.
local CASES = {
  { "8x8 standard (packed words)", function() return start(8) end, "black" },
  { "8x8, white first", function() return start(8) end, "white" },
  { "8x8 with blocks", function() return start(8, { { 1, 1 }, { 3, 6 }, { 8, 2 } }) end, "black" },
  { "6x6", function() return start(6) end, "black" },
  { "10x10 with blocks", function() return start(10, { { 2, 2 }, { 5, 9 }, { 9, 4 } }) end, "black" },
  { "8x8 orthogonal captures", function() return start(8) end, "black",
    { game = { legal = "orthogonal", flip = "orthogonal" } } },
  { "8x8, two passes end it", function() return start(8) end, "black",
    { game = { pass = "anytime", ending = "two-passes" } } },
}

describe("core.cursor", function()
  it("plays core.playout's games when each move is rng:random(count)", function()
    for _, case in ipairs(CASES) do
      for seed = 1, 6 do
        local b = case[2]()
        local c = core.cursor(b, case[3], case[4])
        local rng = core.rng(seed)
        local n = c:count()
        while n > 0 do n = c:play(rng:random(n)) end
        local black, white, plies, winner = core.playout(b, case[3], core.rng(seed), case[4])
        local cb, cw, cp, cwin = c:result()
        assert.same({ black, white, plies, winner }, { cb, cw, cp, cwin }, case[1] .. ", seed " .. seed)
        assert.equal(plies, c:plies())
      end
    end
  end)

  it("lists the moves board:move_list lists, in order, at every ply", function()
    for _, case in ipairs(CASES) do
      if not case[4] then -- move_list knows the standard directions
        local c = core.cursor(case[2](), case[3])
        local rng = core.rng(11)
        local mine, theirs = {}, {}
        while c:count() > 0 do
          local b, side = c:board(), c:side()
          local n = b:move_list(side, "all", theirs)
          assert.equal(n, c:count())
          assert.equal(n, (c:moves(mine)))
          assert.same(theirs, mine)
          -- the move played is the k-th of the list
          local k = rng:random(n)
          local flipped = b:play_index(side, mine[k])
          assert.is_true(flipped > 0)
          c:play(k)
          local after = c:board()
          assert.equal(tostring(b), tostring(after), case[1])
        end
      end
    end
  end)

  it("passes for a side without a move, and stops when neither has one", function()
    -- black to move with no move at all; white has one: the cursor passes
    local b = core.board(4)
    b:set(1, 1, "white"); b:set(1, 2, "black")
    local c = core.cursor(b, "black")
    assert.equal("white", c:side())
    assert.equal(1, c:plies())
    assert.equal(1, c:count())
    assert.same({ 1, { 3 } }, { c:moves() })
    assert.equal(0, c:play(1)) -- white takes the black disc: nobody can move
    assert.same({ 0, 3, 2, "white" }, { c:result() })
    assert.error_matches(function() c:play(1) end, "the game is over")
    assert.same({ nil, "the game is over" }, { c:pass() })
  end)

  it("passes by choice only where the rules allow it", function()
    local std = core.cursor(start(8), "black")
    assert.same({ nil, "the rules allow no pass here" }, { std:pass() })
    assert.equal(4, std:count())
    local any = core.cursor(start(8), "black", { game = { pass = "anytime", ending = "two-passes" } })
    assert.equal(4, any:pass())
    assert.equal("white", any:side())
    assert.equal(0, any:pass()) -- two passes in a row end this game
    assert.same({ 2, 2, 2, "draw" }, { any:result() })
  end)

  it("goes back to its start with reset, and never touches the board it was made from", function()
    local b = start(8)
    local before = tostring(b)
    local c = core.cursor(b, "black")
    local rng = core.rng(5)
    local n = c:count()
    while n > 0 do n = c:play(rng:random(n)) end
    assert.equal(before, tostring(b))
    assert.equal(4, c:reset())
    assert.equal(0, c:plies())
    assert.equal("black", c:side())
    assert.equal(before, tostring(c:board()))
    -- a board changed after the cursor was made changes nothing
    b:play("black", 3, 4)
    assert.equal(before, tostring(c:board()))
  end)

  it("plays core.playout's game from where it stands, on a copy", function()
    for _, case in ipairs(CASES) do
      local c = core.cursor(case[2](), case[3], case[4])
      local walk = core.rng(3)
      for _ = 1, 12 do
        if c:count() == 0 then break end
        c:play(walk:random(c:count()))
      end
      local opts = { game = (case[4] or {}).game, pass_odds = 7, limit = 40 }
      local before = { c:count(), c:plies(), c:side(), tostring(c:board()) }
      local s = { c:board(), c:side() }
      -- the state fields the cursor keeps are the board's as played so far
      local mine = { c:playout(core.rng(8), { pass_odds = 7, limit = 40 }) }
      assert.same(before, { c:count(), c:plies(), c:side(), tostring(c:board()) })
      if not (case[4] and case[4].game.ending) then -- passes in a row matter to two-passes games only
        assert.same({ core.playout(s[1], s[2], core.rng(8), opts) }, mine, case[1])
      end
      assert.same({ c:playout(core.rng(8), { pass_odds = 7, limit = 40 }) }, mine)
      local full = { c:playout(core.rng(8)) } -- default limit: twice the cells
      assert.equal(4, #full)
    end
  end)

  it("says whether it may pass (with moves on the board) before passing", function()
    local std = core.cursor(start(8), "black")
    assert.is_false(std:can_pass())
    local any = core.cursor(start(8), "black", { game = { pass = "anytime", ending = "two-passes" } })
    assert.is_true(any:can_pass())
    any:pass(); any:pass()
    assert.equal(0, any:count())
    assert.is_false(any:can_pass()) -- over
  end)

  it("walks the mcts tree: the same choices as over the hooks, forced passes and all", function()
    local cases = {
      { "reversi" }, { "reversi", { size = 6 } }, { "blocks", { blocks = "6" } }, { "othello" },
      { "othello-strict" }, { "flipflop", { size = 6 } },
    }
    local with_pass = 0 -- positions whose tree holds a pass a side is forced to make
    for _, case in ipairs(cases) do
      local rules = rules_mod.load(case[1])
      local g = game.new(rules, case[2], core.rng(5))
      local walk = core.rng(13)
      for ply = 1, 200 do
        local s = g.state
        if rules:finished(s) then break end
        local list = game.choices(rules, s)
        if ply % 3 == 0 or #rules:moves(s) <= 3 then
          -- a forced pass within two plies of this position?
          for _, choice in ipairs(list) do
            game.apply(rules, s, choice)
            if not rules:finished(s) and #rules:moves(s) == 0 then with_pass = with_pass + 1 end
            rules:undo(s)
          end
          local moves = {}
          for k, on in ipairs { true, false } do
            mcts.core_playouts = on
            moves[k] = mcts.new { playouts = 60 }:choose(g:clone(), { rng = core.rng(ply) })
          end
          mcts.core_playouts = true
          assert.same(moves[2], moves[1], case[1] .. ", ply " .. ply)
        end
        game.apply(rules, s, list[walk:random(#list)])
      end
    end
    assert.is_true(with_pass >= 3, "positions with a forced pass in the tree: " .. with_pass)
  end)

  it("refuses a move number outside 1..count, leaving the position as it was", function()
    local c = core.cursor(start(8), "black")
    for _, bad in ipairs({ 0, 5, -1, 2.5, "x", math.maxinteger }) do
      local ok, err = pcall(function() return c:play(bad) end)
      assert.is_false(ok)
      assert.matches("bad argument #1 to 'play'", err)
      assert.equal(4, c:count())
      assert.equal(0, c:plies())
    end
    assert.error_matches(function() c:playout({}) end, "bad argument #1 to 'playout' %(boardscript.rng expected")
    assert.error_matches(function() c:playout(core.rng(1), { limit = -1 }) end,
      "bad argument #2 to 'playout' %(field 'limit' out of range 0..1000000%)")
    assert.error_matches(function() c:playout(core.rng(1), { pass_odds = 0.5 }) end,
      "bad argument #2 to 'playout' %(field 'pass_odds'")
    assert.equal(4, c:count())
    assert.error_matches(function() core.cursor(start(8), "purple") end, "bad argument #2")
    assert.error_matches(function() c.count(core.board(4)) end, "boardscript.cursor expected")
  end)
end)
