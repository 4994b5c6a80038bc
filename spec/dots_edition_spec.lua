-- The dots edition's dialogue (SPEC.md "dots"), run in memory, and
-- `boardscript solve dots` through the host.
local files = require "support.files"
local play = require "boardscript.play"

local function run(input, ...)
  return play.run({ "dots", ... }, { input = input })
end

local EMPTY2 = table.concat({
  "a + + +",
  "       ",
  "b + + +",
  "       ",
  "c + + +",
  "  1 2 3",
  "You: 0    Me: 0",
  "",
  "",
}, "\n")

local MOVE_PROMPT = "What two dots would you like to connect? (Q to quit) "

describe("edition dots", function()
  it("asks for the size, then prints the grid at full width, the score and an empty line", function()
    local status, out, err = run("2\nq\n")
    assert.equal(0, status)
    assert.equal("", err)
    local expected = "What size grid would you like? (2..8) " .. EMPTY2 .. MOVE_PROMPT
    assert.equal(expected, out:sub(1, #expected))
  end)

  it("accepts sizes 2..8 as digits with blanks around, and nothing else", function()
    for _, good in ipairs { "2", "8", " 5\t", "05" } do
      local _, out = run(good .. "\nq\n")
      assert.is_truthy(out:match("^What size grid would you like%? %(2%.%.8%) a %+"), good)
    end
    for _, bad in ipairs { "1", "9", "0", "-3", "+3", "3x", "x", "", "3 3", "3.0", "99999999999999999999999" } do
      local _, out = run(bad .. "\n2\nq\n")
      assert.is_truthy(out:match("^What size grid would you like%? %(2%.%.8%) Sorry, try again%.\nWhat size"), bad)
    end
  end)

  it("exits 0 with nothing more at end of input during the size question", function()
    assert.same({ 0, "What size grid would you like? (2..8) ", "" }, { run("") })
    local status, out = run("x\n")
    assert.equal(0, status)
    assert.equal("What size grid would you like? (2..8) Sorry, try again.\n"
      .. "What size grid would you like? (2..8) ", out)
  end)

  it("--size skips the question and takes N or RxC up to 8", function()
    local _, out = run("q\n", "--size", "2")
    assert.equal(EMPTY2, out:sub(1, #EMPTY2))
    _, out = run("q\n", "--size", "1x8")
    assert.equal("a + + + + + + + + +\n" .. (" "):rep(19) .. "\nb + ", out:sub(1, 44))
    assert.matches("\n  1 2 3 4 5 6 7 8 9\nYou: 0    Me: 0\n", out)
    for _, bad in ipairs { "0", "9", "2x9", "x", "2x" } do
      local status, _, err = run("", "--size", bad)
      assert.equal(2, status, bad)
      assert.matches("size must be N or RxC with each side from 1 to 8", err, 1, true)
    end
  end)

  it("finishes on the last edge: the grid, an empty line, the final score and a farewell", function()
    local status, out = run("a1 a2\nb1 b2\na1 b1\na2 b2\n", "--size", "1", "--computer", "human")
    assert.equal(0, status)
    local ending = table.concat({
      MOVE_PROMPT,
      "a +-+",
      "  |C|",
      "b +-+",
      "  1 2",
      "",
      "Final Score:",
      "  You:0",
      "  Me :1",
      "Better luck next time.",
      "",
    }, "\n")
    assert.equal(ending, out:sub(-#ending))
  end)

  it("lets the computer open with --first computer, marking its boxes C and the human's H", function()
    local status, out = run("a1 b1\na1 a2\na2 b2\n", "--size", "1", "--first", "computer")
    assert.equal(0, status)
    local expected = table.concat({
      "a + +", "     ", "b + +", "  1 2", "You: 0    Me: 0", "",
      "I choose to connect dots a1 and b1.", "",
      "a + +", "  |  ", "b + +", "  1 2", "You: 0    Me: 0", "",
      MOVE_PROMPT .. "Sorry, try again.", -- a1-b1 is drawn already
      MOVE_PROMPT, -- a1-a2
      "a +-+", "  |  ", "b + +", "  1 2", "You: 0    Me: 0", "",
      "I choose to connect dots b1 and b2.", "",
      "a +-+", "  |  ", "b +-+", "  1 2", "You: 0    Me: 0", "",
      MOVE_PROMPT, -- a2-b2 completes the box
      "a +-+", "  |H|", "b +-+", "  1 2", "",
      "Final Score:", "  You:1", "  Me :0", "Congratulations!", "",
    }, "\n")
    assert.equal(expected, out)
  end)

  it("takes any built-in player or a policy file as the computer", function()
    local status, out = run("q\n", "--size", "3", "--computer", "solver", "--first", "computer")
    assert.equal(0, status)
    assert.matches("I choose to connect dots %a%d and %a%d%.\n", out)
    local path, remove = files.lua("return function(g) return g:moves()[#g:moves()] end\n")
    status, out = run("q\n", "--size", "2", "--computer", path, "--first", "computer")
    remove()
    assert.equal(0, status)
    assert.matches("I choose to connect dots b3 and c3.\n", out, 1, true)
    local a = select(2, run("a1 a2\nb1 b2\nq\n", "--size", "3", "--computer", "random", "--seed", "9"))
    local b = select(2, run("a1 a2\nb1 b2\nq\n", "--size", "3", "--computer", "random", "--seed", "9"))
    assert.equal(a, b)
  end)

  it("stops with status 2 for an unknown player or a computer move that is not legal", function()
    local status, out, err = run("", "--size", "2", "--computer", "nobody")
    assert.equal(2, status)
    assert.equal("", out)
    assert.matches("boardscript: unknown player 'nobody'", err, 1, true)
    local path, remove = files.lua("return function() return { 1, 1, 2, 2 } end\n")
    status, out, err = run("", "--size", "2", "--computer", path, "--first", "computer")
    remove()
    assert.equal(2, status)
    assert.is_nil(out:find("I choose", 1, true))
    assert.matches("(Player 1) chose a malformed move {1, 1, 2, 2}", err, 1, true)
  end)
end)

describe("boardscript solve dots", function()
  local BIN = assert(os.getenv("BOARDSCRIPT_BIN"), "BOARDSCRIPT_BIN is set by ctest")

  local function host(args)
    local pipe = assert(io.popen(BIN .. " " .. args .. " 2>&1"))
    local out = pipe:read("a")
    local _, _, code = pipe:close()
    return code, out
  end

  it("prints the first player's margin with perfect play, the nodes and the seconds", function()
    for size, margin in pairs { ["2x2"] = "+2", ["3"] = "-3", ["2x3"] = "-2", ["1"] = "-1" } do
      local status, out = host("solve dots --size " .. size)
      assert.equal(0, status)
      local shown = size:find("x") and size or size .. "x" .. size
      assert.matches(("^solve dots %s: first player's margin %s, %%d+ nodes, %%d+%%.%%d%%d%%d s\n$"):format(
        shown, (margin:gsub("%p", "%%%0"))), out)
    end
  end)

  it("reports a search stopped by --node-limit with status 1, and sizes beyond 64 edges as usage errors", function()
    local status, out = host("solve dots --size 4x4 --node-limit 1000")
    assert.equal(1, status)
    assert.matches("^solve dots 4x4: stopped after %d+ nodes, [%d.]+ s %(no value%)\n$", out)
    status, out = host("solve dots --size 6")
    assert.equal(2, status)
    assert.matches("at most 64 edges", out, 1, true)
  end)
end)
