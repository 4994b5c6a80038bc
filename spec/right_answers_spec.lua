-- Right answers or a refusal (issue 18 item 4): solve reversi of finished
-- positions and forced passes, what a rule set file's hooks return checked
-- where it is used (the rule set's fault, never a player's forfeit), and a
-- game that never ends stopped at a ply limit.
local support = require "support.host"
local spit = support.spit

local function full(cells, side) return cells .. " " .. side end

describe("solve reversi", function()
  local dir, done
  before_each(function() dir, done = support.scratch_dir() end)
  after_each(function() done() end)

  -- { OBF line, expected line start }
  local CASES = {
    { full(("X"):rep(64), "O"), "%-%- %-64 nodes 0," },
    { full(("X"):rep(64), "X"), "%-%- %+64 nodes 0," },
    { full(("X"):rep(62) .. "OO", "X"), "%-%- %+60 nodes 0," },
    { full(("X"):rep(62) .. "OO", "O"), "%-%- %-60 nodes 0," },
    { full(("X"):rep(63) .. "-", "O"), "%-%- %-64 nodes 0," },             -- the empty goes to the winner
    { full("XO" .. ("X"):rep(60) .. "--", "O"), "%-%- %-62 nodes 0," },
    { full(("O"):rep(32) .. ("X"):rep(32), "X"), "%-%- %+0 nodes 0," },
    { full("-OX" .. ("X"):rep(61), "O"), "PA %-64 nodes %d+," },            -- O passes, X takes a1
    { full("-OX" .. ("X"):rep(61), "X"), "A1 %+64 nodes %d+," },
  }

  it("gives a finished position its final value and a forced pass the value after it", function()
    local lines = {}
    for i, case in ipairs(CASES) do lines[i] = case[1] end
    local path = dir .. "/end.obf"
    spit(path, table.concat(lines, "\n") .. "\n")
    for _, jobs in ipairs { "1", "2" } do
      local status, out, err = support.run { "solve", "reversi", "--obf", path, "--jobs", jobs }
      assert.equal(0, status, err)
      local got = {}
      for line in out:gmatch("#[^\n]*") do got[#got + 1] = line end
      assert.equal(#CASES, #got)
      for i, case in ipairs(CASES) do
        assert.matches("^#" .. i .. " " .. case[2], got[i])
      end
    end
  end)
end)

describe("a rule set file's hooks", function()
  local dir, done
  before_each(function() dir, done = support.scratch_dir() end)
  after_each(function() done() end)

  local HEAD = [[
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local v = rules.variant(reversi, { name = "v" })
]]

  -- { body, expected message after "rules FILE: " }
  local FAULTS = {
    { [[function v:winner() return "blue" end]],
      [[hook 'winner' returned "blue" (expected "black", "white" or "draw")]] },
    { [[function v:winner() return nil end]], [[hook 'winner' returned nil (expected "black", "white" or "draw")]] },
    { [[function v:score() return 0/0, 1 end]], [[hook 'score' returned ]] .. tostring(0/0)
      .. [[, 1 (expected two finite numbers)]] },
    { [[function v:score() return math.huge, 1 end]], [[hook 'score' returned inf, 1 (expected two finite numbers)]] },
    { [[function v:score() return "ten", 1 end]], [[hook 'score' returned "ten", 1 (expected two finite numbers)]] },
    { [[function v:score(s) local a = reversi.score(self, s) return a end]],
      [[, nil (expected two finite numbers)]] },
    { [[function v:side_name() return 42 end]], [[hook 'side_name' returned 42 (expected a string)]] },
    { [[function v:moves(s) local m = reversi.moves(self, s) m[#m + 1] = { 0, 0 } return m end]],
      [[hook 'moves' returned a malformed move {0, 0} at position 5 (its move_text gives no text for it)]] },
    { [[function v:moves() return "f5" end]], [[hook 'moves' returned "f5" (expected a list of moves)]] },
    { [[function v:play(s, m)
          if m[1] == 5 and m[2] == 6 then return nil, "no f5 today" end
          return reversi.play(self, s, m)
        end]],
      [[hook 'play' refused f5, a move its hook 'moves' lists (no f5 today)]] },
    { [[function v:play(s, m)
          if m[1] == 5 and m[2] == 6 then error("boom") end
          return reversi.play(self, s, m)
        end]],
      [[v.lua:5: boom]] },
  }

  for i, case in ipairs(FAULTS) do
    it(("are the rule set's fault, in a game and in a match: #%d"):format(i), function()
      local path = dir .. "/v.lua"
      spit(path, HEAD .. case[1] .. "\nreturn v\n")
      local prefix = "boardscript: rules " .. path .. ": "
      -- greedy plays f5 first (its first best move): a refused listed move is not its fault
      local status, _, err = support.run { "play", "board", "--rules", path, "--black", "greedy", "--white", "random",
        "--seed", "1" }
      assert.equal(2, status)
      if not case[2]:find("^v%.lua") then assert.equal(prefix, err:sub(1, #prefix)) end
      assert.truthy(err:find(case[2], 1, true), err)
      assert.equal(1, select(2, err:gsub("\n", "")))
      local out
      status, out, err = support.run { "match", "--rules", path, "--a", "greedy", "--b", "random", "--games", "2",
        "--seed", "1" }
      assert.equal(2, status)
      assert.is_nil(out:find("Forfeits", 1, true))
      assert.truthy(err:find(case[2], 1, true), err)
      assert.is_nil(err:find("scored as a loss", 1, true))
    end)
  end

  it("leave the built-in C fast path to a variant that keeps its hooks (core_count still vouched)", function()
    -- anti.lua overrides winner alone: checked, and still counted in C
    local path = assert(os.getenv("BOARDSCRIPT_SOURCE")) .. "/lua/examples/anti.lua"
    local status, out = support.run { "perft", path, "6" }
    assert.equal(0, status)
    assert.matches("8200 leaves", out)
    assert.matches("%(C core%)", out)
  end)

  it("a game that never ends stops at --max-plies, or at 50 plies a cell by default", function()
    local path = dir .. "/never.lua"
    spit(path, HEAD .. [[
function v:finished() return false end
function v:can_pass() return true end
function v:pass(state) state.player = state.player == "black" and "white" or "black" return true end
return v
]])
    local prefix = "boardscript: rules " .. path .. ": hook 'finished' did not end the game after "
    local status, _, err = support.run { "play", "board", "--rules", path, "--black", "random", "--white", "random",
      "--seed", "1", "--max-plies", "100" }
    assert.equal(2, status)
    assert.equal(prefix .. "100 plies (--max-plies 100; a game that never ends is the rule set's fault)\n", err)
    status, _, err = support.run { "play", "board", "--rules", path, "--black", "random", "--white", "random",
      "--seed", "1" }
    assert.equal(2, status)
    assert.equal(prefix .. "3200 plies (--max-plies 3200; a game that never ends is the rule set's fault)\n", err)
    status, _, err = support.run { "match", "--rules", path, "--a", "random", "--b", "random", "--games", "2",
      "--max-plies", "60", "--jobs", "2" }
    assert.is_true(status ~= 0)
    assert.truthy(err:find("did not end the game after 60 plies", 1, true), err)
    status, _, err = support.run { "play", "reversi", "--max-plies", "0" }
    assert.equal(2, status)
    assert.matches("%-%-max%-plies must be a whole number of at least 1", err)
  end)
end)
