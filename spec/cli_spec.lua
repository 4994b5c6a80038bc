-- The host and its command line, run as a user would run them.
local files = require "support.files"
local support = require "support.host"
local BIN = support.BIN

--- Runs the host with arguments and stdin text; returns status, stdout, stderr.
local function host(args, input)
  return support.run(args, { input = input })
end

describe("boardscript host", function()
  it("prints its version", function()
    local status, out = host { "--version" }
    assert.equal(0, status)
    assert.matches("^boardscript %d+%.%d+%.%d+\n$", out)
  end)

  it("prints help listing commands and editions", function()
    local status, out = host { "--help" }
    assert.equal(0, status)
    for _, word in ipairs { "play", "run", "perft" } do assert.matches(word, out, 1, true) end
    status, out = host { "play", "--help" }
    assert.equal(0, status)
    assert.matches("blocks", out, 1, true)
  end)

  it("rejects unknown commands and editions with status 2", function()
    local status, _, err = host { "frobnicate" }
    assert.equal(2, status)
    assert.matches("unknown command 'frobnicate'", err, 1, true)
    status, _, err = host { "play", "blocks", "--size", "5" }
    assert.equal(2, status)
    assert.matches("^Usage: boardscript play blocks ", err)
    assert.matches("Error: size must be an even integer from 4 to 26\n$", err)
    -- A name that is no edition is a rule set for the generic console.
    status, _, err = host { "play", "chess" }
    assert.equal(2, status)
    assert.matches("^boardscript: unknown rule set 'chess' %(built%-in: ", err)
  end)

  it("exits 3 with the standard message when input ends mid-game", function()
    local status, out, err = host({ "play", "blocks" }, "0\n")
    assert.equal(3, status)
    assert.matches("Player X's turn: $", out)
    assert.equal("boardscript: input ended before the game finished\n", err)
  end)

  it("runs a user script with require 'boardscript' and its arguments", function()
    local path, remove = files.lua([[
local bs = require "boardscript"
local g = bs.new_game("reversi", { size = tonumber(arg[1]) })
print(#g:moves(), g:to_move(), ...)
return 4
]])
    local status, out = host { "run", path, "6", "--flag" }
    remove()
    assert.equal(4, status)
    assert.equal("4\tblack\t6\t--flag\n", out)
  end)

  it("reports an error in a script with a traceback and status 1", function()
    local path, remove = files.lua("local t = nil\nreturn t.x\n")
    local status, _, err = host { "run", path }
    remove()
    assert.equal(1, status)
    assert.matches("attempt to index", err, 1, true)
    assert.matches("stack traceback", err, 1, true)
  end)

  it("counts perft leaves and reports their rate", function()
    local status, out = host { "perft", "reversi", "6" }
    assert.equal(0, status)
    assert.matches("^perft reversi depth 6 size 8: 8200 leaves, [%d.]+ s, %d+ leaves/s %(C core%)\n$", out)
    status, out = host { "perft", "reversi", "5", "--size", "6", "--generic" }
    assert.equal(0, status)
    assert.matches(": 1364 leaves,", out, 1, true)
    local err
    status, out, err = host { "perft", "nosuchrules", "3" }
    assert.equal("", out)
    assert.equal(2, status)
    assert.equal("boardscript: unknown rule set 'nosuchrules' (built-in: blocks, dots, flipflop, othello, "
      .. "othello-strict, reversi, or a path to a .lua file)\n", err)
  end)

  it("describes a rule set's options, sides and AIs", function()
    local status, out = host { "rules", "dots" }
    assert.equal(0, status)
    assert.equal(table.concat({
      "rules dots (family dots)",
      "  Dots and Boxes: the board is a grid of dots, 3 x 3 boxes by default. Players",
      "  1 and 2 take turns drawing a line between two neighbouring dots; a move is",
      "  that edge, written as its two dots, such as a1 a2 (row letter, column",
      "  number). Drawing the fourth side of a box wins it, and the same player must",
      "  move again. There is no passing. The game ends when every line is drawn, and",
      "  the player with more boxes wins.",
      "sides: Player 1, Player 2",
      "score: boxes (score_unit)",
      "options:",
      "  cols: integer 1..16, default 3 - boxes per row",
      "  rows: integer 1..16, default 3 - boxes per column",
      "  size: integer 1..16 - boxes per side of a square grid (instead of rows and cols)",
    }, "\n") .. "\n", out:gsub("built%-in AIs: [^\n]*\n", ""):gsub("perft: [^\n]*\n", ""))
    assert.matches("\nbuilt%-in AIs: dots_rules, [^\n]*solver", out)
    assert.matches("\nperft: counted over the Lua hooks\n$", out)
    status, out = host { "rules" }
    assert.equal(0, status)
    assert.matches("reversi          board family, sides Black and White\n", out, 1, true)
  end)

  it("prints how a rule set is played, its description, after the first line: every built-in and example", function()
    local rules_mod = require "boardscript.rules"
    local targets = rules_mod.builtin_names()
    for _, example in ipairs(rules_mod.examples()) do targets[#targets + 1] = example.path end
    for _, target in ipairs(targets) do
      local status, out = host { "rules", target }
      assert.equal(0, status, target)
      local first, block = out:match("^(rules [^\n]*)\n(.-)\nsides: ")
      assert.is_truthy(first, target)
      -- indented and filled to at most 78 columns, the words as written
      for line in block:gmatch("[^\n]+") do
        assert.is_true(#line <= 78 and line:match("^  %S") ~= nil, ("%s: %q"):format(target, line))
      end
      local words = block:gsub("%s+", " "):gsub("^ ", "")
      assert.equal(rules_mod.load(target).description:gsub("%s+", " "), words, target)
    end
  end)

  it("prints nothing more for a rule set without a description, and refuses one that is not a string", function()
    local path, remove = files.lua([[
return require("boardscript.rules").variant(require "boardscript.rules.reversi", { name = "plain" })
]])
    local status, out = host { "rules", path }
    remove()
    assert.equal(0, status)
    -- a variant inherits its base's; a rule set written without one prints none
    assert.matches("^rules plain %(family board%)\n  Black and White take turns", out)
    path, remove = files.lua([[
local rules = require "boardscript.rules"
local t = { name = "bare", moves = function() return {} end, play = function() end, undo = function() end,
  pass = function() end, finished = function() return true end, score = function() return 0, 0 end,
  setup = function() return { board = require("boardscript.core").board(4), player = "black" } end }
return rules.define(t)
]])
    status, out = host { "rules", path }
    assert.equal(0, status)
    assert.matches("^rules bare %(family board%)\nsides: Black, White\n", out)
    remove()
    path, remove = files.lua([[
return require("boardscript.rules").variant(require "boardscript.rules.reversi", { name = "odd", description = 7 })
]])
    local err
    status, out, err = host { "rules", path }
    remove()
    assert.equal(2, status)
    assert.equal("", out)
    assert.matches("field 'description' must be a string, how the game is played (got number)", err, 1, true)
  end)

  it("solves the positions of an OBF file exactly, alone or in worker processes", function()
    local path = os.tmpname()
    support.spit(path, table.concat({
      "% FFO positions 1 and 5, then 5 with a wrong score",
      "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;",
      "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X; G8:+32; G2:+12;",
      "-OOOOO----OXXO-XXXOXOXX-XXOXOXXOXXOOXOOOXXXXOO-OX-XOOO---XXXXX-- X; G8:+30;",
    }, "\n") .. "\n")
    local status, out = host { "solve", "reversi", "--obf", path }
    assert.equal(1, status)
    assert.matches("^#1 G8 %+18 %(best %+18 ok%) nodes %d+, [%d.]+ s\n#2 G8 %+32 %(best %+32 ok%)", out)
    assert.matches("\n#3 G8 %+32 %(best %+30 WRONG%)", out)
    assert.matches("\ntotal: 3 positions, 2 ok, 1 wrong, 0 stopped, %d+ nodes", out)
    assert.matches(", ordered by the learned evaluation reversi%-8%.bse\n$", out) -- the shipped one, by default
    local status2, out2 = host { "solve", "reversi", "--obf", path, "--jobs", "2" }
    assert.equal(1, status2)
    local function moves(text) return (text:gsub("nodes %d+, [%d.]+ s", ""):gsub("total:.*", "")) end
    assert.equal(moves(out), moves(out2))
    -- the hand ordering on request: the same answers, other trees
    local status_h, out_h = host { "solve", "reversi", "--obf", path, "--eval", "hand" }
    assert.equal(1, status_h)
    assert.equal(moves(out), moves(out_h))
    assert.matches(", ordered by the hand ordering\n$", out_h)
    assert.are_not.equal(out:match("#1 [^\n]*nodes (%d+)"), out_h:match("#1 [^\n]*nodes (%d+)"))
    -- threads solving together: the same margins (a move of equal value may differ);
    -- natively only (a thread never runs under qemu-user: search_spec)
    if not os.getenv("BOARDSCRIPT_EMULATED") then
      local status_t, out_t = host { "solve", "reversi", "--obf", path, "--threads", "2" }
      assert.equal(1, status_t)
      local function margins(text) return (moves(text):gsub("#(%d+) %S+ ", "#%1 ")) end
      assert.equal(margins(out), margins(out_t))
    end
    local status_b, _, err_b = host { "solve", "reversi", "--obf", path, "--threads", "9" }
    assert.equal(2, status_b)
    assert.truthy(err_b:find("threads", 1, true), err_b)
    local status_x, _, err_x = host { "solve", "reversi", "--obf", path, "--eval", path }
    assert.equal(2, status_x)
    assert.falsy(err_x:find("traceback", 1, true), err_x)
    -- shards (on any machines) merge to the same listing and totals
    local shards = {}
    for i = 1, 2 do
      local status_i, out_i = host { "solve", "reversi", "--obf", path, "--shard", i .. "/2" }
      assert.equal(0, status_i)
      assert.is_nil(out_i:find("total:", 1, true))
      shards[i] = os.tmpname()
      support.spit(shards[i], out_i)
    end
    local status4, out4 = host { "solve", "reversi", "--merge", shards[2], shards[1] }
    assert.equal(1, status4)
    assert.equal(moves(out), moves(out4))
    assert.matches("\ntotal: 3 positions, 2 ok, 1 wrong, 0 stopped, %d+ nodes, [%d.]+ s, %d+ nodes/s\n$", out4)
    local status5, _, err5 = host { "solve", "reversi", "--merge", shards[1], shards[1] }
    assert.equal(2, status5)
    assert.matches("position #1 appears twice", err5, 1, true)
    os.remove(shards[1]); os.remove(shards[2])
    support.spit(path, "XO- X\n")
    local status3, _, err = host { "solve", "reversi", "--obf", path }
    os.remove(path)
    assert.equal(2, status3)
    assert.matches(":1: not an OBF position", err, 1, true)
  end)

  it("answers --help on every command with status 0", function()
    for _, command in ipairs { "play", "run", "perft", "solve", "replay", "test", "rules" } do
      local status, out = host { command, "--help" }
      assert.equal(0, status, command)
      assert.matches("^Usage: boardscript " .. command, out)
    end
  end)

  it("takes negative numbers as option values", function()
    local status, out = host({ "play", "blocks", "--seed", "-5", "--size", "4", "--black", "random",
      "--white", "random" }, "0\n")
    assert.equal(0, status)
    assert.matches("Game over:", out, 1, true)
    local status2, out2 = host({ "play", "blocks", "--seed=-5", "--size", "4", "--black", "random",
      "--white", "random" }, "0\n")
    assert.equal(0, status2)
    assert.equal(out, out2)
  end)

  it("gives one-line messages with status 2 for a user's broken files and options", function()
    local path, remove = files.lua("return {")
    for _, args in ipairs {
      { "perft", path, "2" },
      { "play", "reversi", "--white", path },
      { "perft", "reversi", "2", "--opt", "size=x" },
      { "perft", "reversi", "2", "--opt", "nosuch=1" },
      { "perft", "reversi", "2", "--size", "7" },
    } do
      local status, out, err = host(args)
      assert.equal(2, status, table.concat(args, " "))
      assert.equal("", out)
      assert.matches("^boardscript: [^\n]+\n$", err)
      assert.is_nil(err:find("traceback", 1, true))
    end
    remove()
  end)

  it("reports an error in a user's hook as one line naming the file, status 2", function()
    local path, remove = files.lua([[
local rules = require "boardscript.rules"
local v = rules.variant(require "boardscript.rules.reversi", { name = "buggy" })
function v:finished(state) return state.nothing.here end
return v
]])
    local status, out, err = host { "perft", path, "2" }
    remove()
    assert.equal(2, status)
    assert.equal("", out)
    assert.equal(("boardscript: %s:3: attempt to index a nil value (field 'nothing')\n"):format(path), err)
  end)

  it("counts a variant file over its own hooks at its own size", function()
    local path, remove = files.lua([[
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local v = rules.variant(reversi, { name = "banned", size = 6 })
function v:moves(state)
  local kept = {}
  for _, m in ipairs(reversi.moves(self, state)) do
    if not ((m[1] == 2 or m[1] == 5) and (m[2] == 2 or m[2] == 5)) then kept[#kept + 1] = m end
  end
  return kept
end
return v
]])
    -- 24 (and 76 at depth 4) from an independent count; plain 6 x 6 reversi has 56.
    local status, out = host { "perft", path, "3" }
    local status4, out4 = host { "perft", path, "4" }
    remove()
    assert.equal(0, status4)
    assert.matches(": 76 leaves,", out4, 1, true)
    assert.equal(0, status)
    assert.matches("^perft banned depth 3 size 6: 24 leaves, .* %(Lua hooks%)\n$", out)
  end)

  -- Under AddressSanitizer the host cannot start with its address space capped.
  local capped_it = os.getenv("BOARDSCRIPT_SANITIZED") and pending or it
  capped_it("says clearly when the solver's table cannot be allocated", function()
    local ok, _, code = os.execute(("ulimit -v 1000000; %s solve dots --size 4x4 --tt-mb 4096 2>%s"):format(
      BIN, "/dev/null"))
    assert.is_nil(ok)
    assert.equal(1, code)
    local pipe = io.popen(("ulimit -v 1000000; %s solve dots --size 4x4 --tt-mb 4096 2>&1"):format(BIN))
    local err = pipe:read("a")
    pipe:close()
    assert.equal("boardscript: cannot solve with a 4096 MiB table: not enough memory for the solver's table\n", err)
  end)
end)
