-- The FlipFlop rule set (seed 004; SPEC.md "flipflop"), checked through its hooks.
local rules = require "boardscript.rules"
local flipflop = require "boardscript.rules.flipflop"

-- A board of size n with only the listed pieces: { {row, col, colour}, ... }.
local function position(n, pieces, player)
  local state = flipflop:setup({ size = n })
  for r = 1, n do
    for c = 1, n do state.board:set(r, c, "empty") end
  end
  for _, p in ipairs(pieces) do state.board:set(p[1], p[2], p[3]) end
  state.player = player or "white"
  return state
end

local function has(moves, row, col)
  for _, m in ipairs(moves) do
    if m[1] == row and m[2] == col then return true end
  end
  return false
end

describe("flipflop rules", function()
  it("is a valid rule set with every hook", function()
    assert.equal(flipflop, rules.load("flipflop"))
  end)

  it("starts with W on 27 and 36, B on 28 and 35 for N = 8, and White to move", function()
    local state = flipflop:setup({ size = 8 })
    assert.equal("white", state.board:get(4, 4)) -- square 27
    assert.equal("black", state.board:get(4, 5)) -- square 28
    assert.equal("black", state.board:get(5, 4)) -- square 35
    assert.equal("white", state.board:get(5, 5)) -- square 36
    assert.equal("white", state.player)
    assert.equal(4, state.board:count("black") + state.board:count("white"))
  end)

  it("puts the start position in the centre of an N = 24 board", function()
    local state = flipflop:setup({ size = 24 })
    assert.equal(24, state.board:size())
    assert.equal("white", state.board:get(12, 12)) -- square 275
    assert.equal("black", state.board:get(12, 13))
    assert.equal("black", state.board:get(13, 12))
    assert.equal("white", state.board:get(13, 13)) -- square 300
    assert.equal(4, #flipflop:moves(state)) -- one row/column trap per centre line
    assert.equal(1, flipflop:play(state, { 12, 14 })) -- square 277
    assert.equal("white", state.board:get(12, 13))
    assert.equal("black", state.player)
  end)

  it("lets a first piece trap only along a row or column", function()
    -- W at (3,3), B at (4,4): (5,5) traps diagonally only.
    local state = position(8, { { 3, 3, "white" }, { 4, 4, "black" }, { 4, 5, "black" }, { 4, 6, "white" } })
    assert.equal("illegal", flipflop:why_not(state, { 5, 5 }))
    assert.is_nil(flipflop:play(state, { 5, 5 }))
    assert.is_true(has(flipflop:moves(state), 4, 3)) -- traps (4,4),(4,5) along row 4
    assert.is_false(has(flipflop:moves(state), 5, 5))
  end)

  it("lets a second piece trap only along a diagonal", function()
    -- The first piece at (4,3) captures two, which opens the second piece.
    local state = position(8, {
      { 4, 4, "black" }, { 4, 5, "black" }, { 4, 6, "white" }, -- row trap for the first piece
      { 3, 3, "white" }, { 6, 1, "black" }, { 7, 1, "white" },  -- diagonal and column traps
    })
    assert.equal(2, flipflop:play(state, { 4, 3 }))
    assert.is_true(flipflop:second_piece_allowed(state))
    assert.equal("white", state.player)
    -- (5,1) traps (6,1) along column 1: fine for a first piece, not for a second.
    assert.equal("illegal", flipflop:why_not(state, { 5, 1 }))
    -- With B on (2,2), (1,1) traps it against W (3,3) along the diagonal.
    state.board:set(2, 2, "black")
    assert.is_nil(flipflop:why_not(state, { 1, 1 }))
    assert.equal(1, flipflop:play(state, { 1, 1 }))
    assert.equal("black", state.player)
    assert.equal(1, state.turns)
  end)

  it("captures along all 8 directions, whichever line made the piece legal", function()
    -- White plays (5,5): a row trap east, plus a column, a diagonal and an
    -- anti-diagonal trap; every line flips.
    local state = position(8, {
      { 5, 6, "black" }, { 5, 7, "black" }, { 5, 8, "white" }, -- east: 2
      { 4, 5, "black" }, { 3, 5, "white" },                    -- north: 1
      { 6, 6, "black" }, { 7, 7, "black" }, { 8, 8, "white" }, -- south-east: 2
      { 6, 4, "black" }, { 7, 3, "white" },                    -- south-west: 1
      { 4, 4, "black" },                                       -- north-west: open, no capture
    })
    assert.equal(6, flipflop:play(state, { 5, 5 }))
    assert.equal("white", state.board:get(6, 6))
    assert.equal("white", state.board:get(6, 4))
    assert.equal("black", state.board:get(4, 4))
    assert.is_true(flipflop:second_piece_allowed(state)) -- six captured: a second piece may follow
  end)

  it("ends the turn after a first piece that captures only one", function()
    local state = flipflop:setup({ size = 8 })
    assert.equal(1, flipflop:play(state, { 3, 5 })) -- square 20
    assert.is_false(flipflop:second_piece_allowed(state))
    assert.equal("black", state.player)
    assert.equal(1, state.turns)
  end)

  it("reports off-board and occupied squares before legality", function()
    local state = flipflop:setup({ size = 8 })
    assert.equal("off the board", flipflop:why_not(state, { 0, 1 }))
    assert.equal("off the board", flipflop:why_not(state, { 9, 1 }))
    assert.equal("occupied", flipflop:why_not(state, { 4, 4 }))
    assert.equal("illegal", flipflop:why_not(state, { 1, 1 }))
  end)

  it("ends the game after N*N turns on an 8 x 8 board (black has had 32)", function()
    local state = flipflop:setup({ size = 8 })
    for _ = 1, 63 do flipflop:pass(state) end -- forfeits: moves exist, so not unable turns
    assert.is_false(flipflop:finished(state))
    flipflop:pass(state)
    assert.equal(64, state.turns)
    assert.is_true(flipflop:finished(state))
  end)

  it("ends the game after N*N = 576 turns on a 24 x 24 board", function()
    local state = flipflop:setup({ size = 24 })
    assert.equal(576, flipflop:turn_limit(state))
    for _ = 1, 575 do flipflop:pass(state) end
    assert.is_false(flipflop:finished(state))
    flipflop:pass(state)
    assert.is_true(flipflop:finished(state))
  end)

  it("ends the game after two unable-to-move turns in a row, not after a forfeit between", function()
    -- No white piece: neither side can trap anything.
    local state = position(8, { { 1, 1, "black" } })
    flipflop:pass(state)
    assert.equal(1, state.unable)
    assert.is_false(flipflop:finished(state))
    flipflop:pass(state)
    assert.is_true(flipflop:finished(state))
    -- A turn in which a move was possible resets the count.
    state = flipflop:setup({ size = 8 })
    state.unable = 1
    flipflop:pass(state)
    assert.equal(0, state.unable)
  end)

  it("does not count a declined or impossible second piece as an unable turn", function()
    local state = position(8, { { 4, 4, "black" }, { 4, 5, "black" }, { 4, 6, "white" } })
    assert.equal(2, flipflop:play(state, { 4, 3 }))
    assert.equal(0, #flipflop:moves(state)) -- no diagonal trap for the second piece
    flipflop:pass(state)
    assert.equal(0, state.unable)
    assert.equal("black", state.player)
  end)

  it("undoes pieces and passes back to the same position", function()
    local state = flipflop:setup({ size = 8 })
    local start = state.board:clone()
    flipflop:play(state, { 3, 5 })
    flipflop:pass(state)
    assert.is_true(flipflop:undo(state))
    assert.is_true(flipflop:undo(state))
    assert.is_false(flipflop:undo(state))
    assert.equal(start, state.board)
    assert.equal("white", state.player)
    assert.equal(0, state.turns)
  end)

  it("scores black, white and names the winner by piece count", function()
    local state = position(8, { { 1, 1, "black" }, { 1, 2, "white" }, { 1, 3, "white" } })
    assert.same({ 1, 2 }, { flipflop:score(state) })
    assert.equal("white", flipflop:winner(state))
  end)
end)
