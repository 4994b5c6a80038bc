-- The blocks edition's dialogue (SPEC.md "blocks"), run in memory.
local files = require "support.files"
local play = require "boardscript.play"

local function run(input, ...)
  return play.run({ "blocks", ... }, { input = input })
end

local BOARD4 = table.concat({
  "   A B C D",
  " 1 . . . .",
  " 2 . X O .",
  " 3 . O X .",
  " 4 . . . .",
}, "\n") .. "\n"

describe("edition blocks", function()
  it("prints the board with letters, right-aligned row numbers and X at the top-left centre", function()
    local status, out = run("0\n", "--size", "4")
    assert.equal(3, status)
    assert.equal("Enter number of blocks: Round 1:\n" .. BOARD4 .. "Player X's turn: ", out)
  end)

  it("pads row numbers to width 2 on a 10 x 10 board", function()
    local _, out = run("0\n", "--size", "10")
    assert.matches("\n 9 %. %. ", out)
    assert.matches("\n10 %. %. ", out)
    assert.matches("^Enter number of blocks: Round 1:\n   A B C D E F G H I J\n", out)
  end)

  it("answers a bad block count and discards the rest of a non-numeric line", function()
    local status, out, err = run("x 5 5\n-1\n9\n0\n", "--size", "4")
    assert.equal(3, status)
    assert.equal("boardscript: input ended before the game finished\n", err)
    assert.equal(
      "Enter number of blocks: Invalid number!\n" ..
      "Enter number of blocks: Invalid number!\n" ..
      "Enter number of blocks: Too many blocks!\n" ..
      "Enter number of blocks: Round 1:\n", out:match("^(.-Round 1:\n)"))
  end)

  it("treats 5x as not a number", function()
    local _, out = run("5x\n0\n", "--size", "4")
    assert.matches("^Enter number of blocks: Invalid number!\nEnter number of blocks: Round 1:", out)
  end)

  it("rejects malformed, off-board, centre and repeated block positions", function()
    local bad = { "A0", "A01", "AA1", "1A", "E1", "A5", "B2", "C3", "A27", "#1", "A1.0" }
    local input = "2\nA1\n" .. table.concat(bad, "\n") .. "\nA1\nd4\n"
    local _, out = run(input, "--size", "4")
    local expected = "Enter number of blocks: Enter position for block 1: Enter position for block 2: "
      .. ("Invalid position!\nEnter position for block 2: "):rep(#bad + 1)
      .. "Round 1:\n"
    assert.equal(expected, out:sub(1, #expected))
    assert.matches(" 4 %. %. %. #\n", out)
  end)

  it("rejects moves that are malformed, off the board, occupied or flip nothing", function()
    local _, out = run("0\nZ9\nB2\nA1\nD3x\nd3\nd2\n", "--size", "4")
    assert.matches("Player X's turn: Invalid move!\nPlayer X's turn: Invalid move!\n" ..
      "Player X's turn: Invalid move!\nPlayer X's turn: Invalid move!\nPlayer X's turn: Invalid move!\n" ..
      "Player X's turn: Round 2:\n", out, 1, true)
  end)

  it("plays a whole game between two seeded random players, reproducibly", function()
    local status, out = run("0\n", "--size", "6", "--black", "random", "--white", "random", "--seed", "5")
    assert.equal(0, status)
    local again = select(2, run("0\n", "--size", "6", "--black", "random", "--white", "random", "--seed", "5"))
    assert.equal(out, again)
    assert.matches("Game over:\n", out, 1, true)
    assert.matches("Player X's turn: %u%d\n", out)
    assert.matches("\nPlayer [XO] wins!\n$", out)
  end)

  it("stops with status 3 at end of input at every prompt", function()
    for _, input in ipairs { "", "1\n", "x\n", "0\n", "0\nA1\n" } do
      local status, _, err = run(input, "--size", "4")
      assert.equal(3, status, input)
      assert.equal("boardscript: input ended before the game finished\n", err)
    end
  end)

  it("reports an unknown player and a bad size as usage errors", function()
    local status, _, err = run("0\n", "--black", "grandmaster")
    assert.equal(2, status)
    assert.matches("unknown player 'grandmaster'", err, 1, true)
    status, _, err = run("0\n", "--white", "solver")
    assert.equal(2, status)
    assert.matches("player 'solver' plays only dots, not blocks", err, 1, true)
    status, _, err = run("0\n", "--size", "7")
    assert.equal(2, status)
    assert.matches("size must be an even integer from 4 to 26", err, 1, true)
  end)

  it("stops with a message when a policy chooses an illegal move", function()
    local path, remove = files.lua("return function() return { 1, 1 } end\n")
    local status, out, err = run("0\n", "--size", "4", "--black", path)
    remove()
    assert.equal(2, status)
    -- The answer is checked before anything is printed for it.
    assert.matches("Player X's turn: $", out)
    assert.matches("player '.-' %(Black%) chose an illegal move a1 %(flips nothing%)", err)
  end)

  it("takes a policy from a Lua file", function()
    local path, remove = files.lua("return function(g) local m = g:moves() return m[#m] end\n")
    local status, out = run("0\n", "--size", "4", "--black", path, "--white", path)
    remove()
    assert.equal(0, status)
    assert.matches("Player X's turn: B4\n", out, 1, true) -- the last of C1 D2 A3 B4
  end)
end)
