-- The generic console edition `board` (docs/decisions.md, "board (the
-- generic console)"), run in memory: any rule set, built-in or a file.
local files = require "support.files"
local play = require "boardscript.play"
local record = require "boardscript.record"
local game = require "boardscript.game"

local function run(input, ...)
  return play.run({ "board", ... }, { input = input })
end

local function lines(text)
  local out = {}
  for line in text:gmatch("([^\n]*)\n") do out[#out + 1] = line end
  return out
end

local WELCOME4 = "Playing reversi (size 4). Type a move such as b1, ? for the legal moves, pass, undo or quit.\n"
local START4 = table.concat({
  "   a b c d",
  " 1 . . . .",
  " 2 . O X .",
  " 3 . X O .",
  " 4 . . . .",
  "Black: 2  White: 2",
  "",
}, "\n")
local AFTER_B1 = table.concat({
  "   a b c d",
  " 1 . X . .",
  " 2 . X X .",
  " 3 . X O .",
  " 4 . . . .",
  "Black: 4  White: 1",
  "",
}, "\n")

-- A variant written the way a user writes one, in a scratch file.
local SMALL_VARIANT = [[
local rules = require "boardscript.rules"
return rules.variant(require "boardscript.rules.reversi", { name = "small", size = 4 })
]]

describe("edition board", function()
  it("plays a whole random game of reversi 6x6 and names the winner", function()
    local status, out, err = run("", "--rules", "reversi", "--size", "6", "--black", "random",
      "--white", "random", "--seed", "5")
    assert.equal(0, status)
    assert.equal("", err)
    local all = lines(out)
    assert.equal("Playing reversi (size 6). Type a move such as c2, ? for the legal moves, pass, undo or quit.",
      all[1])
    assert.equal("   a b c d e f", all[2])
    assert.equal("Black to move: ", all[10]:sub(1, 15))
    local black, white = all[#all - 1]:match("^Black: (%d+)  White: (%d+)$")
    assert.is_not_nil(black)
    black, white = tonumber(black), tonumber(white)
    local verdict = black > white and "Black wins." or white > black and "White wins." or "Draw."
    assert.equal(verdict, all[#all])
  end)

  it("is the default edition for a rule set name that is not an edition, and reversi is the default rules", function()
    local _, out = run("quit\n", "--size", "4")
    assert.equal(WELCOME4 .. START4 .. "Black to move: " .. START4 .. "Black quits.\n", out)
    local status, out2 = play.run({ "othello-strict", "--black", "random", "--white", "random", "--seed", "1" })
    assert.equal(0, status)
    assert.matches("^Playing othello%-strict %(size 8%)", out2)
  end)

  it("takes human moves, lists the legal ones and explains what it refuses", function()
    local status, out, err = run(" ?\nf5\nxyz\na1\nB1\n", "--size", "4")
    assert.equal(3, status)
    assert.equal("boardscript: input ended before the game finished\n", err)
    assert.equal(WELCOME4 .. START4
      .. "Black to move: Legal moves: b1, a2, d3, c4\n"
      .. "Black to move: Not a move: f5 (type ? for the legal moves)\n"
      .. "Black to move: Not a move: xyz (type ? for the legal moves)\n"
      .. "Black to move: Illegal move a1: flips nothing\n"
      .. "Black to move: " .. AFTER_B1
      .. "White to move: ", out)
  end)

  it("cuts a long answer it cannot read to 40 bytes", function()
    local _, out = run(("x"):rep(100000) .. "\nquit\n", "--size", "4")
    assert.matches("Black to move: Not a move: " .. ("x"):rep(37) .. "%.%.%. %(type %? for the legal moves%)\n", out)
  end)

  it("refuses a pass with the rules' reason, and undo with nothing to take back", function()
    local _, out = run("pass\nundo\nquit\n", "--size", "4")
    assert.equal(WELCOME4 .. START4
      .. "Black to move: Cannot pass: a move is possible\n"
      .. "Black to move: Nothing to undo.\n"
      .. "Black to move: " .. START4 .. "Black quits.\n", out)
  end)

  it("undo takes back one move between two humans, and a computer's reply with the human's move", function()
    local _, out = run("b1\nundo\nquit\n", "--size", "4")
    assert.equal(WELCOME4 .. START4 .. "Black to move: " .. AFTER_B1
      .. "White to move: Took back b1 (Black).\n" .. START4
      .. "Black to move: " .. START4 .. "Black quits.\n", out)
    _, out = run("b1\nundo\nquit\n", "--size", "4", "--white", "random", "--seed", "3")
    assert.equal(WELCOME4 .. START4 .. "Black to move: " .. AFTER_B1
      .. "White to move: a3\n"
      .. "   a b c d\n 1 . X . .\n 2 . X X .\n 3 O O O .\n 4 . . . .\nBlack: 3  White: 3\n"
      .. "Black to move: Took back a3 (White), b1 (Black).\n" .. START4
      .. "Black to move: " .. START4 .. "Black quits.\n", out)
    -- A computer's first move is not the human's to take back.
    _, out = run("undo\nquit\n", "--size", "4", "--black", "random", "--seed", "3")
    assert.matches("White to move: Nothing to undo%.\n", out)
  end)

  it("accepts commands in any case with blanks around, and ignores empty lines", function()
    local _, out = run("\n  \t\n  B1  \r\nQUIT\n", "--size", "4")
    assert.equal(WELCOME4 .. START4 .. "Black to move: Black to move: Black to move: " .. AFTER_B1
      .. "White to move: " .. AFTER_B1 .. "White quits.\n", out)
  end)

  it("passes automatically for a side with no move", function()
    local status, out = run("", "--size", "4", "--black", "random", "--white", "random", "--seed", "3")
    assert.equal(0, status)
    assert.matches("\nBlack has no legal move and passes%.\n   a b c d\n", out)
    assert.matches("\nWhite wins%.\n$", out)
  end)

  it("plays Dots and Boxes: black is player 1, moves are two dots, no passing", function()
    local status, out = run("?\na2 a1\na1-a2\npass\nb1b2\nquit\n", "--rules", "dots", "--size", "2",
      "--white", "dots_rules")
    assert.equal(0, status)
    local grid = "a + + +\n       \nb + + +\n       \nc + + +\n  1 2 3\n"
    assert.equal("Playing dots (size 2x2). Type a move such as a1 a2, ? for the legal moves, pass, undo or quit.\n"
      .. grid .. "Player 1: 0  Player 2: 0\n"
      .. "Player 1 to move: Legal moves: a1 a2, a2 a3, b1 b2, b2 b3, c1 c2, c2 c3, a1 b1, a2 b2, a3 b3, "
      .. "b1 c1, b2 c2, b3 c3\n"
      .. "Player 1 to move: a +-+ +\n       \nb + + +\n       \nc + + +\n  1 2 3\nPlayer 1: 0  Player 2: 0\n"
      .. "Player 2 to move: b1 b2\n"
      .. "a +-+ +\n       \nb +-+ +\n       \nc + + +\n  1 2 3\nPlayer 1: 0  Player 2: 0\n"
      .. "Player 1 to move: Illegal move a1 a2: edge already drawn\n"
      .. "Player 1 to move: Cannot pass: there is no passing in Dots and Boxes\n"
      .. "Player 1 to move: Illegal move b1 b2: edge already drawn\n"
      .. "Player 1 to move: a +-+ +\n       \nb +-+ +\n       \nc + + +\n  1 2 3\nPlayer 1: 0  Player 2: 0\n"
      .. "Player 1 quits.\n", out)
    status, out = run("", "--rules", "dots", "--size", "2x3", "--black", "random", "--white", "solver",
      "--seed", "2")
    assert.equal(0, status)
    assert.matches("^Playing dots %(size 2x3%)", out)
    assert.matches("\nPlayer %d wins%.\n$", out)
  end)

  it("lets othello's loose rules pass while moves exist", function()
    local status, out = run("?\npass\nquit\n", "--rules", "othello")
    assert.equal(0, status)
    local all = lines(out)
    assert.equal("Black to move (or pass): Legal moves: a1, b1, c1", all[12]:sub(1, 48))
    assert.equal(", h8, pass", all[12]:sub(-10))
    assert.equal("Black to move (or pass):    a b c d e f g h", all[13])
    assert.equal("White to move (or pass):    a b c d e f g h", all[23])
    assert.equal("White quits.", all[#all])
  end)

  it("follows flipflop's turn of one or two pieces: pass declines the second", function()
    local _, out = run("f4\nd3\nc4\nf5\n?\npass\n?\nquit\n", "--rules", "flipflop")
    local all = lines(out)
    assert.equal("Playing flipflop (size 8). Type a move such as e3, ? for the legal moves, pass, undo or quit.",
      all[1])
    assert.equal("White to move:    a b c d e f g h", all[12])
    assert.equal("Black to move (or pass): Legal moves: b3, c3, g3, b5, pass", all[52])
    assert.equal("Black to move (or pass):    a b c d e f g h", all[53])
    assert.equal("White to move: Legal moves: d2, d6, f6", all[63])
    assert.equal("White quits.", all[#all])
  end)

  it("places blocks from --opt blocks", function()
    local _, out = run("quit\n", "--rules", "blocks", "--size", "6", "--opt", "blocks=b2,c5")
    assert.equal(table.concat({
      "   a b c d e f", " 1 . . . . . .", " 2 . # . . . .", " 3 . . X O . .", " 4 . . O X . .",
      " 5 . . # . . .", " 6 . . . . . .", "Black: 2  White: 2", "" }, "\n"), out:match("\n(.-)Black to move: "))
    local status, _, err = run("", "--rules", "blocks", "--opt", "blocks=z9")
    assert.equal(2, status)
    assert.equal("boardscript: rules blocks: option blocks: z9: not a cell\n", err)
    -- a count places that many blocks at random, the same for the same seed
    local _, a = run("quit\n", "--rules", "blocks", "--size", "6", "--opt", "blocks=3", "--seed", "4")
    local _, b = run("quit\n", "--rules", "blocks", "--size", "6", "--opt", "blocks=3", "--seed", "4")
    assert.equal(a, b)
    assert.equal(3, select(2, a:match("\n(.-)Black to move: "):gsub("#", "")))
  end)

  it("plays a user's variant file, by path as the edition or with --rules", function()
    local path, remove = files.lua(SMALL_VARIANT)
    finally(remove)
    local status, out = play.run({ path, "--white", "random", "--seed", "3" }, { input = "b1\nquit\n" })
    assert.equal(0, status)
    assert.matches("^Playing small %(size 4%)", out)
    assert.matches("White to move: a3\n", out, 1, true)
    local status2, out2 = run("b1\nquit\n", "--rules", path, "--white", "random", "--seed", "3")
    assert.equal(status, status2)
    assert.equal(out, out2)
  end)

  it("writes a record with --record whose moves replay to the final board", function()
    local path, remove = files.lua(SMALL_VARIANT)
    finally(remove)
    local file = os.tmpname()
    finally(function() os.remove(file) end)
    local status, out = run("b1\nundo\nd3\n", "--rules", path, "--white", "random", "--seed", "7", "--record", file)
    assert.equal(3, status)
    local rec = record.load(file)
    assert.equal(path, rec.rules)
    assert.same({ black = "human", white = "random" }, rec.players)
    assert.equal(7, rec.seed)
    local g = record.start(rec, file)
    for _, entry in ipairs(rec.moves) do assert.is_true(record.apply(g, entry)) end
    assert.equal("d3", rec.moves[1].text)
    assert.equal(2, #rec.moves)
    -- the board after the computer's reply is the last one printed
    local last = out:match(".*Black: %d+  White: %d+\nWhite to move: %S+\n(.*)Black: %d+  White: %d+\nBlack to move: $")
    assert.equal(g:text(), last)
    local direct = game.new(path, {})
    direct:play(direct:parse_move("d3"))
    direct:play(direct:parse_move(rec.moves[2].text))
    assert.equal(tostring(direct:board()), tostring(g:board()))

    -- a whole random game of the built-in blocks with random blocks
    status, out = run("", "--rules", "blocks", "--size", "6", "--opt", "blocks=3", "--black", "random",
      "--white", "random", "--seed", "9", "--record", file)
    assert.equal(0, status)
    rec = record.load(file)
    g = record.start(rec, file)
    for _, entry in ipairs(rec.moves) do assert.is_true(record.apply(g, entry)) end
    assert.is_true(g:finished())
    assert.equal(record.result(g), rec.result.text)
    local winner = g:winner()
    local ending = g:text() .. ("Black: %d  White: %d\n"):format(g:score())
      .. (winner == "draw" and "Draw." or g:side_name(winner) .. " wins.") .. "\n"
    assert.equal(ending, out:sub(-#ending))
  end)

  it("reports a broken rule file in one line with status 2, never a traceback", function()
    local cases = {
      { "return {", "^boardscript: [^\n]*%.lua:%d+: unexpected symbol near <eof>\n$" },
      { "return { setup = function() end }",
        "^boardscript: rules [^\n]*: field 'moves' must be a function %(got nil%)\n$" },
      { "error('boom')", "^boardscript: rules [^\n]*%.lua:1: boom\n$" },
      { "return 5", "^boardscript: rules [^\n]*: the file must return a rule set table %(got number%)\n$" },
      { (SMALL_VARIANT:gsub("size = 4", "size = 5")),
        "^boardscript: rules [^\n]*%.lua: rule set 'small': field 'size': 5 is odd %(it must be even%)\n$" },
      { [[
local rules = require "boardscript.rules"
local v = rules.variant(require "boardscript.rules.reversi", { name = "buggy" })
function v:score(state) return state.nothing.here end
return v
]], "^boardscript: [^\n]*%.lua:3: attempt to index a nil value %(field 'nothing'%)\n$" },
    }
    for _, case in ipairs(cases) do
      local path, remove = files.lua(case[1])
      local status, out, err = play.run({ path, "--black", "random", "--white", "random" })
      remove()
      assert.equal(2, status, case[1])
      assert.matches(case[2], err, nil, false)
      assert.is_nil(err:find("traceback", 1, true))
      assert.is_true(out == "" or case[1]:match("nothing") ~= nil, case[1])
    end
    local status, out, err = run("", "--rules", "reversi", "--opt", "size=5")
    assert.same({ 2, "", "boardscript: option size: 5 is odd (it must be even)\n" }, { status, out, err })
    status, out, err = run("", "--rules", "reversi", "--black", "dots_rules")
    assert.equal("", out)
    assert.equal(2, status)
    assert.matches("^boardscript: player 'dots_rules' plays only dots, not reversi", err)
  end)
end)
