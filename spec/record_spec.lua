-- Game records (boardscript.record): every edition writes one with
-- --record, it replays to the board the edition ended on, and
-- `boardscript replay [--check]` replays and checks it through the host.
local core = require "boardscript.core"
local game = require "boardscript.game"
local play = require "boardscript.play"
local record = require "boardscript.record"

local support = require "support.host"
local slurp, spit = support.slurp, support.spit
local scratch_dir = support.scratch_dir

--- Runs the host with arguments (from directory `cwd`, default the current
-- one); returns status, stdout, stderr.
local function host(args, cwd)
  return support.run(args, { cwd = cwd })
end

local function play_recorded(argv, input)
  local path = os.tmpname()
  local full = table.move(argv, 1, #argv, 1, {})
  full[#full + 1] = "--record"
  full[#full + 1] = path
  local new, played = game.new, nil
  game.new = function(...)
    local g = new(...)
    played = played or g
    return g
  end
  local ok, status, out, err = pcall(play.run, full, { input = input or "" })
  game.new = new
  assert(ok, status)
  assert(played, "the edition made no game")
  return status, out, err, played, path, function() os.remove(path) end
end

--- Replays the record at `path` in memory: the game at its end and the
-- parsed record.
local function replay(path)
  local rec = record.load(path)
  local g = record.start(rec, path)
  for k, entry in ipairs(rec.moves) do
    local ok, why = record.apply(g, entry)
    assert(ok, ("move %d (line %d): %s"):format(k, entry.line, tostring(why)))
  end
  return g, rec
end

--- The board as an edition with a letter header and X/O/#/. marks prints it
-- (blocks: columns A.., rows 1..).
local function blocks_board(board)
  local marks = { empty = ".", black = "X", white = "O", block = "#" }
  local n = board:size()
  local lines, line = {}, { "  " }
  for c = 1, n do line[#line + 1] = " " .. string.char(64 + c) end
  lines[1] = table.concat(line)
  for r = 1, n do
    line = { ("%2d"):format(r) }
    for c = 1, n do line[#line + 1] = " " .. marks[board:get(r, c)] end
    lines[#lines + 1] = table.concat(line)
  end
  return table.concat(lines, "\n") .. "\n"
end

--- The board as `reversi --ascii` prints it: rows a.., columns 1...
local function reversi_board(board)
  local marks = { empty = ".", black = "B", white = "W" }
  local lines, line = {}, { " " }
  for c = 1, 8 do line[#line + 1] = " " .. c end
  lines[1] = table.concat(line)
  for r = 1, 8 do
    line = { ("abcdefgh"):sub(r, r) }
    for c = 1, 8 do line[#line + 1] = " " .. marks[board:get(r, c)] end
    lines[#lines + 1] = table.concat(line)
  end
  return table.concat(lines, "\n") .. "\n"
end

-- Every edge of a 2 x 2 dots grid: a human fed these in order plays every
-- edge still free when asked, so the game always ends.
local DOTS_2X2_EDGES = "a1 a2\na2 a3\nb1 b2\nb2 b3\nc1 c2\nc2 c3\na1 b1\na2 b2\na3 b3\nb1 c1\nb2 c2\nb3 c3\n"

local EDITIONS = {
  { name = "reversi", argv = { "reversi", "--ascii", "--black", "random", "--white", "random", "--seed", "11" },
    printed = reversi_board },
  { name = "blocks", argv = { "blocks", "--blocks", "3", "--black", "random", "--white", "random", "--seed", "7" },
    printed = blocks_board },
  { name = "othello", argv = { "othello", "--black", "random", "--white", "random", "--seed", "5" } },
  { name = "othello --strict",
    argv = { "othello", "--strict", "--black", "random", "--white", "random", "--seed", "5" } },
  { name = "flipflop", argv = { "flipflop", "--size", "8", "--black", "random", "--white", "random", "--seed", "3" } },
  { name = "dots (dots_rules)", argv = { "dots", "--size", "2", "--seed", "1" }, input = DOTS_2X2_EDGES },
  { name = "dots (random)", argv = { "dots", "--size", "2", "--computer", "random", "--first", "computer",
    "--seed", "9" }, input = DOTS_2X2_EDGES },
}

describe("records", function()
  for _, case in ipairs(EDITIONS) do
    it(("of %s replay to the board the edition ended on, and check"):format(case.name), function()
      local status, out, _, played, path, remove = play_recorded(case.argv, case.input)
      assert.equal(0, status)
      assert.is_true(played:finished())
      local g, rec = replay(path)
      assert.equal(tostring(played:board()), tostring(g:board()))
      assert.equal(played:text(), g:text())
      assert.equal(record.result(played), record.result(g))
      assert.equal(#played:history(), #rec.moves)
      assert.is_true(#rec.moves > 4)
      assert.equal(record.result(g), rec.result.text)
      if case.printed then -- the final board as the edition printed it, independent of the catch above
        assert.truthy(out:find(case.printed(g:board()), 1, true))
      end
      local code, check_out, check_err = host { "replay", "--check", path }
      assert.equal("", check_err)
      assert.equal(0, code)
      assert.equal(("%s: ok (%d moves, result %s)\n"):format(path, #rec.moves, rec.result.text), check_out)
      remove()
    end)
  end

  it("record the seed an unseeded game drew", function()
    local status, _, _, played, path, remove = play_recorded { "reversi", "--black", "random", "--white", "random" }
    assert.equal(0, status)
    local text = slurp(path)
    assert.matches("\nseed %-?%d+\n", text)
    local g, rec = replay(path)
    assert.is_number(rec.seed)
    assert.equal(tostring(played:board()), tostring(g:board()))
    assert.equal(0, (host { "replay", "--check", path }))
    remove()
  end)

  it("of blocks placed at random replay the same blocks from the seed", function()
    local _, _, _, played, path, remove = play_recorded { "blocks", "--size", "6", "--blocks", "4",
      "--black", "random", "--white", "random", "--seed", "12" }
    local g = replay(path)
    local blocks = select(2, tostring(g:board()):gsub("#", ""))
    assert.equal(4, blocks)
    assert.equal(tostring(played:board()), tostring(g:board()))
    remove()
  end)

  it("of a user's rule-set file replay, the file found next to the record", function()
    -- loaded trusted here: a restricted load would freeze boardscript's
    -- modules for the rest of this process (docs/decisions.md, "A trust
    -- boundary by construction"), and play_recorded stubs game.new
    local sandbox = require "boardscript.sandbox"
    sandbox.trust(true)
    finally(function() sandbox.trust(false) end)
    local dir, remove = scratch_dir()
    spit(dir .. "/small.lua", [[
local rules = require "boardscript.rules"
return rules.variant(require "boardscript.rules.reversi", { name = "small", size = 6 })
]])
    local g = game.new(dir .. "/small.lua", nil, core.rng(5))
    while not g:finished() do
      local moves = g:moves()
      if #moves == 0 then assert(g:pass()) else assert(g:play(moves[g.rng:random(#moves)])) end
    end
    spit(dir .. "/game.rec", record.text(g, { rules = "small.lua", seed = 5 }))
    local code, out, err = host({ "replay", "--check", dir .. "/game.rec" }, "/")
    assert.equal("", err)
    assert.equal(0, code)
    assert.equal(("%s/game.rec: ok (%d moves, result %s)\n"):format(dir, #g:history(), record.result(g)), out)
    local replayed = replay(dir .. "/game.rec")
    assert.equal(tostring(g:board()), tostring(replayed:board()))
    assert.equal(6, replayed:board():size())
    remove()
  end)
end)

describe("boardscript replay", function()
  local path, remove, rec
  setup(function()
    local status, _
    status, _, _, _, path, remove = play_recorded { "reversi", "--black", "random", "--white", "random",
      "--seed", "11" }
    assert.equal(0, status)
    rec = record.load(path)
  end)
  teardown(function() remove() end)

  -- The record's text with line `number` replaced (nil: removed).
  local function tampered(number, line)
    local lines = {}
    for l in slurp(path):gmatch("(.-)\n") do lines[#lines + 1] = l end
    if line then lines[number] = line else table.remove(lines, number) end
    local copy = os.tmpname()
    spit(copy, table.concat(lines, "\n") .. "\n")
    return copy
  end

  it("prints a header, the start position, each move with its side and board, and the result", function()
    local code, out, err = host { "replay", path }
    assert.equal(0, code)
    assert.equal("", err)
    local g = record.start(rec, path)
    local expected = {
      ("%s: rules reversi, edition reversi, options centre=white size=8, seed 11, %d moves\n"):format(
        path, #rec.moves),
      g:text(), "\n" }
    for k, entry in ipairs(rec.moves) do
      local side = g:side_name()
      assert(record.apply(g, entry))
      expected[#expected + 1] = ("%d. %s %s\n"):format(k, side, entry.pass and "pass" or entry.text)
      expected[#expected + 1] = g:text() .. "\n"
    end
    expected[#expected + 1] = "result " .. record.result(g) .. "\n"
    assert.equal(table.concat(expected), out)
    assert.matches("\n1%. Black %a%d\n", out)
    assert.matches("\n2%. White %a%d\n", out)
  end)

  it("--check names the line of a move changed to an illegal one, in both modes", function()
    local first = rec.moves[1]
    local copy = tampered(first.line, "move a1")
    local code, out, err = host { "replay", "--check", copy }
    assert.equal(1, code)
    assert.equal("", out)
    assert.equal(("%s:%d: move 1: a1 is illegal: flips nothing\n"):format(copy, first.line), err)
    code, out, err = host { "replay", copy }
    assert.equal(1, code)
    assert.matches("^" .. copy:gsub("%p", "%%%0") .. ": rules reversi", out)
    assert.equal(("%s:%d: move 1: a1 is illegal: flips nothing\n"):format(copy, first.line), err)
    os.remove(copy)
  end)

  it("--check names a move that is not in the rule set's notation", function()
    local third = rec.moves[3]
    local copy = tampered(third.line, "move z99")
    local code, _, err = host { "replay", "--check", copy }
    assert.equal(1, code)
    assert.equal(("%s:%d: move 3: 'z99' is not a move in this rule set's notation\n"):format(copy, third.line), err)
    os.remove(copy)
  end)

  it("--check fails on a changed result, naming its line; without --check only warns", function()
    local copy = tampered(rec.result.line, "result 1-63 white")
    local code, out, err = host { "replay", "--check", copy }
    assert.equal(1, code)
    assert.equal("", out)
    assert.equal(("%s:%d: result '1-63 white', but the replayed game ends '%s'\n"):format(
      copy, rec.result.line, rec.result.text), err)
    code, out, err = host { "replay", copy }
    assert.equal(0, code)
    assert.matches("\nresult " .. rec.result.text:gsub("%p", "%%%0") .. "\n$", out)
    assert.equal(("%s:%d: the record says 'result 1-63 white'\n"):format(copy, rec.result.line), err)
    os.remove(copy)
  end)

  it("--check fails on a missing result line and on moves after the end", function()
    local copy = tampered(rec.result.line, nil)
    local code, _, err = host { "replay", "--check", copy }
    assert.equal(1, code)
    assert.equal(("%s:%d: no result line (the replayed game ends '%s')\n"):format(
      copy, rec.result.line - 1, rec.result.text), err)
    os.remove(copy)
    copy = tampered(rec.result.line, "pass")
    code, _, err = host { "replay", "--check", copy }
    assert.equal(1, code)
    assert.equal(("%s:%d: move %d: pass after the end of the game (result %s)\n"):format(
      copy, rec.result.line, #rec.moves + 1, rec.result.text), err)
    os.remove(copy)
  end)

  it("refuses a file that is not a record, or is missing, with one line and status 2", function()
    local other = os.tmpname()
    spit(other, "hello\n")
    local code, out, err = host { "replay", other }
    assert.equal(2, code)
    assert.equal("", out)
    assert.equal(("boardscript: %s:1: not a boardscript record (the first line must be 'boardscript record 1')\n")
      :format(other), err)
    os.remove(other)
    code, out, err = host { "replay", "--check", other }
    assert.equal(2, code)
    assert.equal("", out)
    assert.equal(("boardscript: %s: No such file or directory\n"):format(other), err)
    local copy = tampered(2, "frobnicate 3")
    code, out, err = host { "replay", "--check", copy }
    assert.equal(2, code)
    assert.equal("", out)
    assert.equal(("boardscript: %s:2: unknown line 'frobnicate'\n"):format(copy), err)
    os.remove(copy)
    copy = tampered(3, "rules nosuchgame")
    code, out, err = host { "replay", copy }
    assert.equal(2, code)
    assert.equal("", out)
    assert.matches("^boardscript: " .. copy:gsub("%p", "%%%0") .. ": unknown rule set 'nosuchgame'", err)
    os.remove(copy)
  end)
end)
