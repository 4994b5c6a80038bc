-- `boardscript test`: transcripts, playthroughs and *_test.lua scripts, run
-- through the real host in scratch directories.
local core = require "boardscript.core"
local game = require "boardscript.game"
local testing = require "boardscript.testing"

local support = require "support.host"
local shell_quote, slurp, spit = support.shell_quote, support.slurp, support.spit

--- Runs the host from directory `cwd`; returns status, stdout, stderr.
local function host(cwd, args)
  return support.run(args, { cwd = cwd })
end

local function scratch_dir()
  return support.scratch_dir("t")
end

local function last_line(text)
  return text:match("([^\n]*)\n$")
end

describe("boardscript test", function()
  local dir, remove
  before_each(function() dir, remove = scratch_dir() end)
  after_each(function() remove() end)

  describe("transcripts", function()
    it("pass when stdout, stderr and the status match; the args are split with quotes, run in their directory",
      function()
        spit(dir .. "/t/version.in", "")
        spit(dir .. "/t/version.args", "--version\n")
        spit(dir .. "/t/version.out", "boardscript " .. core.version .. "\n")
        spit(dir .. "/t/my script.lua", "print(select('#', ...), ...)\nreturn 5\n")
        spit(dir .. "/t/quoted.in", "")
        spit(dir .. "/t/quoted.args", [[run 'my script.lua' "two words" 'it''s' "a \"q\"" plain]] .. "\n")
        spit(dir .. "/t/quoted.out", "4\ttwo words\tits\ta \"q\"\tplain\n")
        spit(dir .. "/t/quoted.status", "5\n")
        spit(dir .. "/t/eof.in", "0\n")
        spit(dir .. "/t/eof.args", "play blocks --size 4")
        spit(dir .. "/t/eof.out", "Enter number of blocks: Round 1:\n   A B C D\n 1 . . . .\n 2 . X O .\n"
          .. " 3 . O X .\n 4 . . . .\nPlayer X's turn: ")
        spit(dir .. "/t/eof.err", "boardscript: input ended before the game finished\n")
        spit(dir .. "/t/eof.status", "3\n")
        local status, out, err = host(dir, { "test", "t" })
        assert.equal("", err)
        assert.equal("ok   t/eof.in\nok   t/quoted.in\nok   t/version.in\n3 passed, 0 failed\n", out)
        assert.equal(0, status)
      end)

    it("run through BOARDSCRIPT_EXE when it is set (a wrapper: scripts/cross-test runs the host under qemu)",
      function()
        spit(dir .. "/t/version.in", "")
        spit(dir .. "/t/version.args", "--version\n")
        spit(dir .. "/t/version.out", "boardscript " .. core.version .. "\n")
        local wrapper, marker = dir .. "/wrapper", dir .. "/ran"
        spit(wrapper, ("#!/bin/sh\necho \"$*\" >>%s\nexec %s \"$@\"\n"):format(shell_quote(marker),
          shell_quote(support.BIN)))
        assert(os.execute("chmod +x " .. shell_quote(wrapper)))
        local pipe = assert(io.popen(("cd %s && BOARDSCRIPT_EXE=%s %s test t 2>&1"):format(shell_quote(dir),
          shell_quote(wrapper), shell_quote(support.BIN))))
        local out = pipe:read("a")
        pipe:close()
        assert.equal("ok   t/version.in\n1 passed, 0 failed\n", out)
        assert.equal("--version\n", slurp(marker))
      end)

    it("fail with a unified diff of stdout, stderr, and the status they exited with", function()
      spit(dir .. "/t/out.in", "")
      spit(dir .. "/t/out.args", "--version")
      spit(dir .. "/t/out.out", "boardscript 0.0.0-wrong\n")
      spit(dir .. "/t/eof.in", "0\n")
      spit(dir .. "/t/eof.args", "play blocks --size 4")
      spit(dir .. "/t/eof.out", "Enter number of blocks: Round 1:\n   A B C D\n 1 . . . .\n 2 . X O .\n"
        .. " 3 . O X .\n 4 . . . .\nPlayer X's turn: ")
      spit(dir .. "/t/eof.err", "something else\n")
      local status, out = host(dir, { "test", "t" })
      assert.equal(1, status)
      assert.equal("0 passed, 2 failed", last_line(out))
      local expected_diff = table.concat({
        "FAIL t/out.in",
        "    stdout differs from out.out:",
        "    --- t/out.out",
        "    +++ actual stdout",
        "    @@ -1 +1 @@",
        "    -boardscript 0.0.0-wrong",
        "    +boardscript " .. core.version,
      }, "\n")
      assert.truthy(out:find(expected_diff, 1, true), out)
      assert.truthy(out:find(
        "FAIL t/eof.in\n    stderr differs from eof.err:\n    --- t/eof.err\n    +++ actual stderr\n", 1, true), out)
      assert.truthy(out:find("    -something else\n    +boardscript: input ended before the game finished\n",
        1, true), out)
      assert.truthy(out:find("    exit status 3, expected 0\n", 1, true), out)
      assert.falsy(out:find("stdout differs from eof.out", 1, true))
    end)

    it("fail when NAME.out is missing; --update writes .out, .err and .status from the run", function()
      spit(dir .. "/t/new.in", "0\n")
      spit(dir .. "/t/new.args", "play blocks --size 4")
      local status, out = host(dir, { "test", "t/new.in" })
      assert.equal(1, status)
      assert.equal("FAIL t/new.in\n    new.out is missing (--update writes it from this run)\n"
        .. "    exit status 3, expected 0; stderr:\n"
        .. "        boardscript: input ended before the game finished\n0 passed, 1 failed\n", out)
      status, out = host(dir, { "test", "--update", "t/new.args" })
      assert.equal(0, status)
      assert.equal("updated t/new.in\n1 passed, 0 failed\n", out)
      assert.matches("^Enter number of blocks: Round 1:\n", slurp(dir .. "/t/new.out"))
      assert.equal("boardscript: input ended before the game finished\n", slurp(dir .. "/t/new.err"))
      assert.equal("3\n", slurp(dir .. "/t/new.status"))
      status, out = host(dir, { "test", "t/new.out" })
      assert.equal(0, status)
      assert.equal("ok   t/new.in\n1 passed, 0 failed\n", out)
      status, out = host(dir, { "test", "--update", "t" })
      assert.equal(0, status)
      assert.equal("ok   t/new.in\n1 passed, 0 failed\n", out)
    end)

    it("fail as timed out after --timeout S seconds of wall-clock time; S must be a number above 0", function()
      spit(dir .. "/t/sleep.lua", "os.execute('sleep 5')\n")
      spit(dir .. "/t/sleep.in", "")
      spit(dir .. "/t/sleep.args", "run sleep.lua")
      spit(dir .. "/t/sleep.out", "")
      local status, out = host(dir, { "test", "--timeout", "0.5", "t" })
      assert.equal(1, status)
      assert.equal("FAIL t/sleep.in\n    timed out after 0.5 s\n    exit status 124, expected 0\n0 passed, 1 failed\n",
        out)
      for _, bad in ipairs { "0", "-1", "x", "inf", "nan" } do
        local err
        status, out, err = host(dir, { "test", "--timeout", bad, "t" })
        assert.equal(2, status)
        assert.equal("", out)
        assert.matches("Error: --timeout must be a number greater than 0", err, 1, true)
        status, out, err = host(dir, { "test", "--max-memory", bad, "t" })
        assert.equal(2, status)
        assert.equal("", out)
        assert.matches("Error: --max-memory must be a number greater than 0", err, 1, true)
      end
    end)

    it("report a bad .args or .status as a failure of that transcript", function()
      spit(dir .. "/t/quote.in", "")
      spit(dir .. "/t/quote.args", "play 'blocks")
      spit(dir .. "/t/quote.out", "")
      spit(dir .. "/t/status.in", "")
      spit(dir .. "/t/status.args", "--version")
      spit(dir .. "/t/status.out", "boardscript " .. core.version .. "\n")
      spit(dir .. "/t/status.status", "zero\n")
      local status, out = host(dir, { "test", "t" })
      assert.equal(1, status)
      assert.equal("FAIL t/quote.in\n    quote.args: unterminated single quote\n"
        .. "FAIL t/status.in\n    status.status: not an exit status: 'zero'\n0 passed, 2 failed\n", out)
    end)
  end)

  describe("playthroughs", function()
    local HEADER = "boardscript playthrough 1\n# six by six\nrules reversi\noption size=6\nseed 42\n"

    it("are written by --update, then pass; a tampered one fails with a diff naming it", function()
      local path = dir .. "/t/six.playthrough"
      spit(path, HEADER)
      local status, out = host(dir, { "test", "t/six.playthrough" })
      assert.equal(1, status)
      assert.equal("FAIL t/six.playthrough\n    no body after the header (--update writes it)\n0 passed, 1 failed\n",
        out)
      status, out = host(dir, { "test", "--update", "t" })
      assert.equal(0, status)
      assert.equal("updated t/six.playthrough\n1 passed, 0 failed\n", out)
      local text = slurp(path)
      local start = HEADER .. "\nstate 0 Black to move\n     a b c d e f\n   1 . . . . . .\n"
      assert.equal(start, text:sub(1, #start))
      assert.matches("\nscore %d+ %d+\nwinner %a+\n$", text)
      status, out = host(dir, { "test", "t" })
      assert.equal(0, status)
      assert.equal("ok   t/six.playthrough\n1 passed, 0 failed\n", out)

      -- Another move taken at the second position.
      local first_play = text:find("\nplay ", text:find("\nstate 1 "), true)
      local line_end = text:find("\n", first_play + 1, true)
      local taken = text:sub(first_play + 6, line_end - 1)
      local other = text:match("\nstate 1 [^\n]*\n.-\nmoves %d+: ([^\n]*)"):match("(%w+)")
      if other == taken then other = "a1" end
      local tampered = text:sub(1, first_play) .. "play " .. other .. text:sub(line_end)
      spit(path, tampered)
      status, out = host(dir, { "test", "t" })
      assert.equal(1, status)
      assert.equal("0 passed, 1 failed", last_line(out))
      assert.truthy(out:find("FAIL t/six.playthrough\n    --- t/six.playthrough\n"
        .. "    +++ t/six.playthrough (regenerated)\n", 1, true), out)
      assert.truthy(out:find("\n    -play " .. other .. "\n    +play " .. taken .. "\n", 1, true), out)

      status, out = host(dir, { "test", "--update", "t/six.playthrough" })
      assert.equal(0, status)
      assert.equal("updated t/six.playthrough\n1 passed, 0 failed\n", out)
      assert.equal(text, slurp(path))
    end)

    it("take the moves the documented rule draws: choices[rng:random(#choices)], pass last", function()
      local header = assert(testing.parse_playthrough(HEADER))
      local body = testing.playthrough_body(header, dir)
      local g = game.new("reversi", { size = 6 }, core.rng(42))
      local plays = {}
      for taken in body:gmatch("\nplay ([^\n]+)") do plays[#plays + 1] = taken end
      for i = 1, #plays do
        local moves, texts = g:moves(), {}
        for k, move in ipairs(moves) do texts[k] = g:move_text(move) end
        if g:can_pass() then moves[#moves + 1], texts[#texts + 1] = "pass", "pass" end
        local k = g.rng:random(#moves)
        assert.equal(texts[k], plays[i])
        if moves[k] == "pass" then assert(g:pass()) else assert(g:play(moves[k])) end
      end
      assert.is_true(g:finished())
      assert.equal(("score %d %d\n"):format(g:score()), body:match("\n(score [^\n]*\n)"))
    end)

    it("of a user's rule-set file, relative to the playthrough, with a move cap", function()
      spit(dir .. "/t/tiny.lua", [[
local rules = require "boardscript.rules"
return rules.variant(require "boardscript.rules.reversi", { name = "tiny", size = 4 })
]])
      spit(dir .. "/t/tiny.playthrough", "boardscript playthrough 1\nrules tiny.lua\nseed 3\nmoves 2\n")
      local status, out = host("/", { "test", "--update", dir .. "/t/tiny.playthrough" })
      assert.equal(0, status, out)
      local text = slurp(dir .. "/t/tiny.playthrough")
      assert.matches("\nstate 0 Black to move\n     a b c d\n   1 %. %. %. %.\n", text)
      assert.matches("\nstate 2 Black to move\n.-\nmoves %d+: [^\n]+\nstopped after 2 moves\nscore %d+ %d+\n"
        .. "winner none %(unfinished%)\n$", text)
      assert.falsy(text:find("state 3", 1, true))
      status, out = host("/", { "test", dir .. "/t" })
      assert.equal(0, status)
      assert.equal(("ok   %s/t/tiny.playthrough\n1 passed, 0 failed\n"):format(dir), out)
    end)

    it("fail on a bad header or a rule set that cannot be set up, naming what is wrong", function()
      spit(dir .. "/t/a.playthrough", "boardscript playthrough 1\nrules reversi\nseed x\n\nstate 0\n")
      spit(dir .. "/t/b.playthrough", "boardscript playthrough 1\nrules reversi\noption size=5\nseed 1\n")
      spit(dir .. "/t/c.playthrough", "a playthrough\n")
      local status, out = host(dir, { "test", "t" })
      assert.equal(1, status)
      assert.equal(table.concat({
        "FAIL t/a.playthrough",
        "    t/a.playthrough:3: seed must be an integer",
        "FAIL t/b.playthrough",
        "    option size: 5 is odd (it must be even)",
        "FAIL t/c.playthrough",
        "    t/c.playthrough:1: not a playthrough (the first line must be 'boardscript playthrough 1')",
        "0 passed, 3 failed",
      }, "\n") .. "\n", out)
    end)
  end)

  describe("Lua test scripts", function()
    it("pass when they return, fail with the message of a failed assert or error or on os.exit, no traceback",
      function()
        spit(dir .. "/t/helper.lua", "return { answer = 42 }\n")
        spit(dir .. "/t/good_test.lua", [[
local helper = require "helper"
local bs = require "boardscript"
assert(helper.answer == 42)
assert(#bs.new_game("reversi"):moves() == 4)
leaked = true
]])
        spit(dir .. "/t/isolated_test.lua", "assert(leaked == nil, 'a global leaked from another script')\n")
        spit(dir .. "/t/assert_test.lua", "local x = 1\nassert(x == 2)\n")
        spit(dir .. "/t/message_test.lua", "\n\nassert(false, 'the board is wrong')\n")
        spit(dir .. "/t/error_test.lua", "local function f() error('boom') end\nf()\n")
        spit(dir .. "/t/exit_test.lua", "os.exit(0)\nerror('not reached')\n")
        spit(dir .. "/t/exit1_test.lua", "os.exit(false)\n")
        spit(dir .. "/t/syntax_test.lua", "local = 1\n")
        spit(dir .. "/t/notes.txt", "not a test\n")
        local status, out, err = host(dir, { "test", "t" })
        assert.equal("", err)
        assert.equal(1, status)
        assert.equal(table.concat({
          "FAIL t/assert_test.lua",
          "    t/assert_test.lua:2: assertion failed!",
          "FAIL t/error_test.lua",
          "    t/error_test.lua:1: boom",
          "FAIL t/exit1_test.lua",
          "    exited with os.exit(false) before the script finished",
          "FAIL t/exit_test.lua",
          "    exited with os.exit(0) before the script finished",
          "ok   t/good_test.lua",
          "ok   t/isolated_test.lua",
          "FAIL t/message_test.lua",
          "    t/message_test.lua:3: the board is wrong",
          "FAIL t/syntax_test.lua",
          "    t/syntax_test.lua:1: <name> expected near '='",
          "2 passed, 6 failed",
        }, "\n") .. "\n", out)
        assert.falsy(out:find("traceback", 1, true))
        assert.falsy(out:find("testing.lua", 1, true))
      end)
  end)

  describe("paths and statuses", function()
    it("walks directories recursively in sorted order, skipping hidden ones, each test once", function()
      assert(os.execute("mkdir -p " .. shell_quote(dir .. "/t/b/c") .. " " .. shell_quote(dir .. "/t/.hidden")))
      for _, name in ipairs { "t/z_test.lua", "t/b/c/a_test.lua", "t/b/y_test.lua", "t/.hidden/x_test.lua" } do
        spit(dir .. "/" .. name, "return true\n")
      end
      local status, out = host(dir, { "test", "t/", "t/b/y_test.lua" })
      assert.equal(0, status)
      assert.equal("ok   t/b/c/a_test.lua\nok   t/b/y_test.lua\nok   t/z_test.lua\n3 passed, 0 failed\n", out)
    end)

    it("exit 2 with one line for a missing path, a directory without tests or a file that is not a test",
      function()
        local status, out, err = host(dir, { "test", "nowhere" })
        assert.equal(2, status)
        assert.equal("", out)
        assert.equal("boardscript: nowhere: no such file or directory\n", err)
        spit(dir .. "/t/readme.txt", "hello\n")
        status, out, err = host(dir, { "test", "t" })
        assert.equal(2, status)
        assert.equal("", out)
        assert.equal("boardscript: t: no tests found (NAME.in transcripts, NAME.playthrough, NAME_test.lua)\n", err)
        status, out, err = host(dir, { "test", "t/readme.txt" })
        assert.equal("", out)
        assert.equal(2, status)
        assert.matches("^boardscript: t/readme.txt: not a test", err)
        status, out, err = host(dir, { "test" })
        assert.equal("", out)
        assert.equal(2, status)
        assert.matches("Usage: boardscript test", err, 1, true)
      end)
  end)
end)

describe("testing.split_args", function()
  it("splits on blanks with single and double quotes", function()
    assert.same({ "play", "blocks", "--size", "6" }, testing.split_args("play  blocks\t--size 6\n"))
    assert.same({ "a b", "c'd", 'e"f', "g\\h", "" }, testing.split_args([['a b' "c'd" "e\"f" "g\\h" '']]))
    assert.same({ "ab" }, testing.split_args([[a'b']]))
    assert.same({}, testing.split_args(" \n"))
    local ok, why = testing.split_args('play "blocks')
    assert.is_nil(ok)
    assert.equal("unterminated double quote", why)
  end)
end)
