-- Dialogues of the othello, reversi and flipflop editions run in memory:
-- end of input and malformed input at every prompt, and computer players.
local othello = require "boardscript.rules.othello"
local play = require "boardscript.play"

local EOF_MESSAGE = "boardscript: input ended before the game finished\n"

local function run(argv, input)
  return play.run(argv, { input = input })
end

local function count(text, pattern)
  local n = 0
  for _ in text:gmatch(pattern) do n = n + 1 end
  return n
end

-- Writes a policy file and returns its path.
local function policy_file(source)
  local path = os.tmpname() .. ".lua"
  local f = assert(io.open(path, "w"))
  f:write(source)
  f:close()
  return path
end

describe("othello rules", function()
  it("accepts any empty cell and a pass at any time by default (the seed's rule)", function()
    local state = othello:setup()
    assert.equal(0, othello:play(state, { 1, 1 }))
    assert.is_true(othello:pass(state))
    assert.is_false(othello:finished(state))
    assert.is_true(othello:pass(state))
    assert.is_true(othello:finished(state))
  end)

  it("with strict rules, refuses a move that flips nothing and a pass while a move exists", function()
    local strict = othello.strict
    local state = strict:setup()
    assert.is_nil(strict:play(state, { 1, 1 }))
    assert.is_nil(strict:pass(state))
    assert.equal(1, strict:play(state, { 3, 4 }))
  end)
end)

describe("othello dialogue", function()
  it("stops with status 3 when input ends at the first prompt", function()
    local status, out, err = run({ "othello" }, "")
    assert.equal(3, status)
    assert.equal(EOF_MESSAGE, err)
    assert.truthy(out:match("Black's turn%. Please choose a move:\n$"))
  end)

  it("stops with status 3 when input ends after an invalid move", function()
    local status, out, err = run({ "othello" }, "nonsense\n")
    assert.equal(3, status)
    assert.equal(EOF_MESSAGE, err)
    assert.truthy(out:match("Invalid move%. Please choose a move:\n$"))
  end)

  it("reads (r, c) with optional paired parentheses, commas and blanks", function()
    for _, text in ipairs({ "(3, 2)", "3, 2", "3 2", "3,2", "( 3 ,2 )", "  (3 2)  ", "+3, +2" }) do
      local _, out = run({ "othello" }, text .. "\n")
      assert.equal(0, count(out, "Invalid move"), text)
      assert.equal(1, count(out, "White's turn"), text)
    end
    for _, text in ipairs({ "(3, 2", "3, 2)", "32", "3;2", "3, 2, 1", "(3)(2)", "3.0, 2", "(8, 0)", "(0, -2)", "" }) do
      local _, out = run({ "othello" }, text .. "\n")
      assert.equal(1, count(out, "Invalid move"), text)
    end
  end)

  it("prints a computer's move after the prompt as if typed, and its passes as (-1, -1)", function()
    local status, out = run({ "othello", "--strict", "--black", "random", "--white", "random", "--seed", "2" }, "")
    assert.equal(0, status)
    assert.truthy(out:match("^Welcome to Othello!\n.-Black's turn%. Please choose a move:\n%(%d, %d%)\n%- 0 1"))
    assert.truthy(out:match("Please choose a move:\n%(%-1, %-1%)\nGame over%."))
  end)
end)

describe("reversi dialogue", function()
  it("stops with status 3 when input ends at a prompt", function()
    local status, out, err = run({ "reversi" }, "f5 d6\n")
    assert.equal(3, status)
    assert.equal(EOF_MESSAGE, err)
    assert.truthy(out:match("BLACK: 3  WHITE: 3\nPlayer ●'s move %(input format: a1%): $"))
  end)

  it("ignores malformed and illegal moves, printing only the prompt again", function()
    local _, out = run({ "reversi", "--ascii" }, "f 5 f5x ff 55 i1 a9 a0 d4 a1 F5")
    -- ten refused answers, then F5
    assert.equal(11, count(out, "Player B's move %(input format: a1%): "))
    assert.equal(1, count(out, "Player W's move"))
  end)

  it("looks a typed move up in the turn's legal moves: a bad token is no play of the rules", function()
    -- Two thousand refused tokens ask the rules for the moves once and
    -- play nothing (a refused play per token made two million of them
    -- cost 9 s natively, past the bad-input matrix's guard under qemu).
    local reversi = require "boardscript.rules.reversi"
    local play_hook, moves_hook = reversi.play, reversi.moves
    local plays, lists = 0, 0
    reversi.play = function(...) plays = plays + 1; return play_hook(...) end
    reversi.moves = function(...) lists = lists + 1; return moves_hook(...) end
    local ok, status = pcall(run, { "reversi" }, ("a1 d4 F5x "):rep(700) .. "F5")
    reversi.play, reversi.moves = play_hook, moves_hook
    assert.is_true(ok, status)
    assert.equal(3, status)
    assert.equal(1, plays)
    assert.equal(2, lists)
  end)

  it("echoes a computer's move after a human's", function()
    local status, out = run({ "reversi", "--white", "random", "--seed", "4" }, "f5\n")
    assert.equal(3, status)
    assert.truthy(out:match("Player ○'s move %(input format: a1%): [a-h][1-8]\n  1 2"))
  end)

  it("stops with status 2 when a computer player chooses an illegal move", function()
    local path = policy_file("return function() return { 1, 1 } end\n")
    local status, _, err = run({ "reversi", "--black", path }, "")
    os.remove(path)
    assert.equal(2, status)
    assert.truthy(err:match("chose an illegal move"))
  end)

  it("rejects an unknown player name with status 2", function()
    local status, _, err = run({ "reversi", "--black", "nobody" }, "")
    assert.equal(2, status)
    assert.truthy(err:match("unknown player 'nobody'"))
  end)
end)

describe("flipflop dialogue", function()
  local function expect_eof(input, tail)
    local status, out, err = run({ "flipflop" }, input)
    assert.equal(3, status, input)
    assert.equal(EOF_MESSAGE, err)
    assert.equal(tail, out:sub(-#tail), input)
  end

  it("stops with status 3 when input ends at the size question", function()
    expect_eof("", "Enter the number of squares along each edge of the board\n")
    expect_eof("7", "8 <= number of squares <= 24\nEnter the number of squares along each edge of the board\n")
  end)

  it("exits with status 1 after three bad sizes, checking integer, large, small, odd in order", function()
    local status, out, err = run({ "flipflop" }, "5x 26 9")
    assert.equal(1, status)
    assert.equal("", err)
    assert.equal(table.concat({
      "Enter the number of squares along each edge of the board",
      "ERROR: Board size is not an integer",
      "8 <= number of squares <= 24",
      "Enter the number of squares along each edge of the board",
      "ERROR: Board size too large",
      "8 <= number of squares <= 24",
      "Enter the number of squares along each edge of the board",
      "ERROR: Board size odd",
      "ERROR: Too many errors entering the size of the board",
      "",
    }, "\n"), out)
    -- 25 is both too large and odd: too large is checked first.
    local _, out2 = run({ "flipflop" }, "25 6 8")
    assert.truthy(out2:match("too large\n.-too small\n"))
  end)

  local FIRST = "Enter the square number of the square you want to put your first piece on\n"
  local SECOND = "Enter the square number of the square you want to put your second piece on\n"

  it("stops with status 3 when input ends at the first-piece prompt", function()
    expect_eof("8", FIRST)
    expect_eof("8 -5", "Try again\n" .. FIRST)
  end)

  it("stops with status 3 when input ends at the second-piece question and prompt", function()
    -- 20, 19, then 18 captures two for White.
    expect_eof("8 20 19 18", "Would you like to place a second piece? (y/n)\n")
    expect_eof("8 20 19 18 y", SECOND)
    expect_eof("8 20 19 18 y 1.5", "Try again\n" .. SECOND)
  end)

  it("takes anything but y or Y as no to the second piece", function()
    for _, answer in ipairs({ "n", "yes", "N", "1" }) do
      local _, out = run({ "flipflop" }, "8 20 19 18 " .. answer)
      assert.equal(0, count(out, "second piece on"), answer)
      assert.truthy(out:match("Black is unable to move\n$") or out:match("Black takes a turn\n"), answer)
    end
  end)

  it("exits 0 at the close prompt on a token or on end of input", function()
    local finished = "8 20 19 18 y 42 "
    for _, rest in ipairs({ "", "q", "q more" }) do
      local status, out, err = run({ "flipflop" }, finished .. rest)
      assert.equal(0, status)
      assert.equal("", err)
      assert.truthy(out:match("White wins!\nPlease enter any character to close the game window\n$"))
    end
  end)

  it("lets a computer answer the second-piece question with its second_piece hook", function()
    local path = policy_file([[
      local policy = {}
      function policy:choose(g) return g:moves()[1] end
      function policy:second_piece() return false end
      return policy
    ]])
    local status, out = run({ "flipflop", "--white", path, "--black", path }, "8")
    os.remove(path)
    assert.equal(0, status)
    assert.truthy(out:match("%(y/n%)\nn\n"))
    assert.equal(0, count(out, "second piece on"))
  end)

  it("lets a computer without the hook answer y by choosing a second square, n by choosing none", function()
    local status, out = run({ "flipflop", "--white", "random", "--black", "random", "--seed", "3" }, "8")
    assert.equal(0, status)
    assert.truthy(out:match("%(y/n%)\ny\nEnter the square number of the square you want to put your second piece on\n"
      .. "%d+\n"))
    local path = policy_file([[
      return function(g)
        if g.state.piece == 2 then return nil end
        return g:moves()[1]
      end
    ]])
    local _, out2 = run({ "flipflop", "--white", path, "--black", path }, "8")
    os.remove(path)
    assert.truthy(out2:match("%(y/n%)\nn\n"))
  end)
end)
