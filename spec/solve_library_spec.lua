-- boardscript.solve, the library behind `boardscript solve reversi`: a
-- position's margin is the core's (the solver's, and the described game's
-- final value at the end), checked against a plain negamax whose leaves
-- are the core's final value.
local core = require "boardscript.core"
local obf = require "boardscript.formats.obf"
local solve = require "boardscript.solve"
local opponent = require("boardscript.families.board").opponent

local function full(cells, side) return obf.parse(cells .. " " .. side) end

-- The exact margin for `player` by trying every line: moves from
-- move_list, a pass when stuck, the core's final value when neither moves.
local function negamax(searcher, board, player)
  local buffer = {}
  local count = board:move_list(player, "all", buffer)
  if count == 0 then
    if board:move_list(opponent(player)) == 0 then return solve.final_margin(searcher, board, player) end
    return -negamax(searcher, board, opponent(player))
  end
  local best = -math.huge
  for i = 1, count do
    board:play_index(player, buffer[i])
    best = math.max(best, -negamax(searcher, board, opponent(player)))
    board:undo()
  end
  return best
end

-- A position `plies` random plies (seeded) from the reversi rule set's start.
local function random_position(seed, plies)
  local board = require("boardscript.rules").load("reversi"):setup().board
  local rng, player, buffer = core.rng(seed), "black", {}
  for _ = 1, plies do
    local k = board:move_list(player, "all", buffer)
    if k > 0 then board:play_index(player, buffer[rng:random(k)]) end
    player = opponent(player)
  end
  return { board = board, player = player }
end

describe("boardscript.solve", function()
  local searcher
  before_each(function() searcher = core.searcher { tt_mb = 4 } end)

  it("gives a finished position the core's final value, the empties to the winner, with no search", function()
    local CASES = {
      { full(("X"):rep(64), "O"), -64 },
      { full(("X"):rep(62) .. "OO", "X"), 60 },
      { full(("X"):rep(63) .. "-", "O"), -64 },
      { full("XO" .. ("X"):rep(60) .. "--", "O"), -62 },
      { full(("O"):rep(32) .. ("X"):rep(32), "X"), 0 },
    }
    for i, case in ipairs(CASES) do
      local pos, expected = case[1], case[2]
      assert.equal(expected, solve.final_margin(searcher, pos.board, pos.player), i)
      local move, margin, info = solve.position(searcher, pos)
      assert.equal("end", move, i)
      assert.equal(expected, margin, i)
      assert.same({ exact = true, nodes = 0, seconds = 0 }, info)
    end
  end)

  it("has no final margin for a game that goes on", function()
    assert.is_nil(solve.final_margin(searcher, full("-OX" .. ("X"):rep(61), "O").board, "white"))
    assert.is_nil(solve.final_margin(searcher, random_position(1, 10).board, "black"))
  end)

  it("passes for a side with no move, at the value of the opponent's best reply", function()
    local pos = full("-OX" .. ("X"):rep(61), "O")
    local move, margin, info = solve.position(searcher, pos)
    assert.equal("pass", move)
    assert.equal(-64, margin)
    assert.is_true(info.exact)
    local _, reply = solve.position(searcher, { board = pos.board, player = opponent(pos.player) })
    assert.equal(-reply, margin)
  end)

  it("solves endgames to the margin every line's final value gives", function()
    local solved = 0
    for seed = 1, 12 do
      local pos = random_position(seed, 56 + seed % 4)
      if pos.board:move_list(pos.player) + pos.board:move_list(opponent(pos.player)) > 0 then
        searcher:clear()
        local move, margin, info = solve.position(searcher, pos, 10)
        assert.is_true(info.exact)
        assert.is_true(move == "pass" or type(move) == "table", seed)
        assert.equal(negamax(searcher, pos.board, pos.player), margin, "seed " .. seed)
        solved = solved + 1
      end
    end
    assert.is_true(solved >= 8)
  end)
end)
