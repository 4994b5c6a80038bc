-- Matches (boardscript.match, boardscript.elo, `boardscript match` and
-- `match-merge`): the statistics against values worked out by hand, the
-- same games and summary with --jobs 1, --jobs 2, shards merged and shards
-- run through GNU parallel, openings, SPRT stops, forfeits and records.
local elo = require "boardscript.elo"
local match = require "boardscript.match"
local support = require "support.host"

local host, spit, slurp, quote = support.run, support.spit, support.slurp, support.shell_quote

local function near(expected, actual, tolerance)
  assert(math.abs(expected - actual) <= (tolerance or 1e-9),
    ("expected %.12g, got %.12g"):format(expected, actual))
end

describe("match statistics", function()
  it("computes erf to many digits (against tabulated values)", function()
    near(0.3286267594591274, elo.erf(0.3), 1e-13)
    near(0.9837904585907745, elo.erf(1.7), 1e-13)
    near(0.9997639655834707, elo.erf(2.6), 1e-13)
    near(0.9999999971445058, elo.erf(4.2), 1e-13)
    near(-0.9837904585907745, elo.erf(-1.7), 1e-13)
    assert.equal(0, elo.erf(0))
  end)

  -- Worked by hand: W=10 L=5 D=5: s = 12.5/20 = 0.625, Elo = -400 log10(0.6)
  -- = 88.739; per-game variance (10 * .375^2 + 5 * .625^2 + 5 * .125^2) / 20
  -- = 0.171875, sigma = sqrt(0.171875 / 20) = 0.0927; s +/- 1.96 sigma =
  -- 0.8067 / 0.4433 -> Elo 248.19 / -39.56, margin 143.87; LOS = (1 +
  -- erf(5 / sqrt(30))) / 2 = 90.16 %.
  it("gives the Elo difference, margin, LOS and draw ratio of small tables", function()
    local cases = {
      { 10, 5, 5, 88.73949984654251, 143.87485226389848, 90.16471987705266, 25 },
      { 40, 45, 15, -17.386277512436106, 63.55095768309078, 29.379692397782886, 15 },
      { 7, 7, 6, 0, 133.6157227088603, 50, 30 },
      { 60, 20, 20, 147.19071411783776, 66.01338122038528, 99.99961278917844, 20 },
    }
    for _, c in ipairs(cases) do
      local s = elo.stats(c[1], c[2], c[3])
      near(c[4], s.elo, 1e-9)
      near(c[5], s.margin, 1e-9)
      near(c[6], s.los, 1e-9)
      near(c[7], s.draw_ratio, 1e-12)
    end
  end)

  it("says inf and nan where the score is 0 or 1", function()
    local s = elo.stats(3, 0, 0)
    assert.equal(math.huge, s.elo)
    assert.equal("inf", elo.number(s.elo))
    assert.equal("nan", elo.number(s.margin))
    assert.equal("-inf", elo.number(elo.stats(0, 4, 0).elo))
    assert.equal(50, elo.stats(0, 0, 4).los)
  end)

  -- Worked by hand: W=35 L=14 D=0, elo0=0 elo1=50: s0 = 0.5, s1 = 1 / (1 +
  -- 10^-0.125) = 0.57146, s = 35/49, var = 10/49, LLR = 49 (s1 - s0) (2 s
  -- - s0 - s1) / (2 var) = 3.0637 >= log(0.95/0.05) = 2.944: H1.
  it("computes the SPRT's LLR and decision", function()
    local llr, decision, lower, upper = elo.sprt(35, 14, 0, { elo0 = 0, elo1 = 50, alpha = 0.05, beta = 0.05 })
    near(3.0636847838, llr, 1e-9)
    assert.equal("H1", decision)
    near(math.log(0.05 / 0.95), lower, 1e-12)
    near(math.log(0.95 / 0.05), upper, 1e-12)
    llr, decision = elo.sprt(20, 30, 50, { elo0 = -5, elo1 = 5, alpha = 0.1, beta = 0.1 })
    near(-0.5873536089021522, llr, 1e-9)
    assert.is_nil(decision)
    assert.equal(0, (elo.sprt(0, 0, 9, { elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05 })))
  end)

  it("parses --sprt and names what is wrong", function()
    local s = assert(elo.parse_sprt("elo0=0,elo1=10"))
    assert.same({ elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05 }, s)
    assert.same({ elo0 = -2, elo1 = 3, alpha = 0.1, beta = 0.2 }, elo.parse_sprt("elo0=-2, elo1=3,alpha=0.1,beta=0.2"))
    for text, message in pairs {
      ["elo0=0"] = "needs elo0 and elo1",
      ["elo0=5,elo1=0"] = "elo1 must be greater",
      ["elo0=0,elo1=5,alpha=0.7"] = "alpha must be between",
      ["elo0=x,elo1=5"] = "elo0 must be a number",
      ["gamma=1"] = "expected elo0=X",
      ["elo0=nan,elo1=5"] = "elo0 must be a number",
    } do
      local ok, why = elo.parse_sprt(text)
      assert.is_nil(ok)
      assert.truthy(why:find(message, 1, true), why)
    end
  end)

  it("tallies results from A's point of view, per side and first side against second", function()
    local t = match.tally({ "black", "white" })
    local function add(game, side, result)
      match.add(t, { game = game, a_side = side, result = result, margin = result == "win" and 2 or -2 })
    end
    add(1, "black", "win"); add(2, "white", "win"); add(3, "black", "loss"); add(4, "white", "draw")
    local function name(side) return side == "black" and "Black" or "White" end
    local lines = match.summary(t, { a = "A", b = "B" }, name, "discs")
    assert.equal("Score of A vs B: 2 - 1 - 1  [0.625] 4", lines[1])
    assert.equal("...      A playing Black: 1 - 1 - 0  [0.500] 2", lines[2])
    assert.equal("...      A playing White: 1 - 0 - 1  [0.750] 2", lines[3])
    -- Black won game 1 (A Black, A won); White won games 2 (A White, A won)
    -- and 3 (A Black, A lost); game 4 was drawn
    assert.equal("...      Black vs White: 1 - 2 - 1  [0.375] 4", lines[4])
    -- s + 1.96 sigma = 1.031 > 1: the upper end is infinite, so is the margin;
    -- LOS = (1 + erf(1 / sqrt(6))) / 2 = 71.8 %
    assert.equal("Elo difference: 88.7, margin not yet measurable (too few games), LOS: 71.8 %, DrawRatio: 25.0 %",
      lines[5])
    assert.equal("Mean margin of A: +0.00 discs a game +/- 2.26", lines[6])
  end)

  it("says in words where the Elo or its margin is not finite, the line still 'Elo difference:'", function()
    local function line(w, l, d) return elo.line(elo.stats(w, l, d), "A", "B") end
    assert.equal("Elo difference: 88.7 +/- 143.9, LOS: 90.2 %, DrawRatio: 25.0 %", line(10, 5, 5))
    -- 19-1: Elo 511.5, but s + 1.96 sigma > 1 (the issue's "511.5 +/- inf")
    assert.equal("Elo difference: 511.5, margin not yet measurable (too few games), LOS: 100.0 %, DrawRatio: 0.0 %",
      line(19, 1, 0))
    assert.equal("Elo difference: not yet measurable (A won every game), LOS: 92.1 %, DrawRatio: 0.0 %", line(2, 0, 0))
    assert.equal("Elo difference: not yet measurable (B won every game), LOS: 4.2 %, DrawRatio: 0.0 %", line(0, 3, 0))
    assert.equal("Elo difference: not yet measurable (no games)", line(0, 0, 0))
    assert.equal("Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %", line(0, 0, 4))
  end)

  it("a summary of one game says it has no margin yet, never nan or inf", function()
    local t = match.tally({ "black", "white" })
    match.add(t, { game = 1, a_side = "black", result = "win", margin = 10 })
    local lines = match.summary(t, { a = "A", b = "B" }, function(side) return side end, "stones")
    assert.equal("Elo difference: not yet measurable (A won every game), LOS: 84.1 %, DrawRatio: 0.0 %", lines[5])
    assert.equal("Mean margin of A: +10.00 stones a game (one game: no margin yet)", lines[6])
    for _, text in ipairs(lines) do assert.is_nil(text:find("inf") or text:find("nan"), text) end
  end)
end)

local function run_ok(args, opts)
  local status, out, err = host(args, opts)
  assert.are.equal(0, status, err)
  return out, err
end

describe("boardscript match", function()
  local base = { "match", "--a", "alphabeta:depth=1", "--b", "greedy", "--games", "20", "--seed", "11" }
  local function with(extra)
    local argv = table.move(base, 1, #base, 1, {})
    for _, a in ipairs(extra or {}) do argv[#argv + 1] = a end
    return argv
  end

  it("prints the cutechess-style summary, the same with --jobs 1, --jobs 2 and merged shards", function()
    local one = run_ok(with())
    assert.truthy(one:find("\nScore of alphabeta:depth=1 vs greedy: %d+ %- %d+ %- %d+  %[%d%.%d%d%d%] 20\n"), one)
    assert.truthy(one:find("\n...      alphabeta:depth=1 playing Black: ", 1, true))
    assert.truthy(one:find("\n...      Black vs White: ", 1, true))
    assert.truthy(one:find("\nElo difference: ", 1, true))
    assert.truthy(one:find("\nMean margin of alphabeta:depth=1: [+-]%d+%.%d%d discs a game"))
    assert.equal(one, (run_ok(with { "--jobs", "2" })))
    assert.equal(one, (run_ok(with { "--jobs", "3" })))
    local dir, cleanup = support.scratch_dir()
    local files = {}
    for i = 1, 3 do
      local out = run_ok(with { "--shard", i .. "/3" })
      files[i] = dir .. "/shard" .. i .. ".jsonl"
      spit(files[i], out)
    end
    -- the slices are disjoint and cover the match
    local seen = 0
    for i = 1, 3 do
      for line in io.lines(files[i]) do
        local game = tonumber(line:match('"game":(%d+)'))
        assert.equal(i, (game - 1) % 3 + 1)
        seen = seen + 1
      end
    end
    assert.equal(20, seen)
    assert.equal(one, (run_ok { "match-merge", files[3], files[1], files[2] }))
    cleanup()
  end)

  it("runs sharded through GNU parallel and merges to the single-process result", function()
    local one = run_ok(with())
    local dir, cleanup = support.scratch_dir()
    local argv = {}
    for i, a in ipairs(with()) do argv[i] = quote(a) end
    local cmd = ("cd %s && parallel --will-cite -j 2 %s %s --shard {}/4 '>' shard{}.jsonl ::: 1 2 3 4"):format(
      quote(dir), quote(support.BIN), table.concat(argv, " "))
    assert.is_true(os.execute(cmd), cmd)
    local merged = run_ok { "match-merge", dir .. "/shard1.jsonl", dir .. "/shard2.jsonl", dir .. "/shard3.jsonl",
                            dir .. "/shard4.jsonl" }
    assert.equal(one, merged)
    -- and from standard input, all shards at once
    local all = slurp(dir .. "/shard1.jsonl") .. slurp(dir .. "/shard2.jsonl") .. slurp(dir .. "/shard3.jsonl")
      .. slurp(dir .. "/shard4.jsonl")
    assert.equal(one, (run_ok({ "match-merge", "-" }, { input = all })))
    cleanup()
  end)

  it("stops at the SPRT's decision at the same game with one job, two jobs and merged shards", function()
    local argv = { "match", "--a", "greedy", "--b", "random", "--games", "400", "--seed", "3",
                   "--sprt", "elo0=0,elo1=60" }
    local one = run_ok(argv)
    local played = tonumber(one:match("Score of greedy vs random: %d+ %- %d+ %- %d+  %[[%d.]+%] (%d+)"))
    assert.truthy(played < 400, one)
    assert.truthy(one:find("\nSPRT: llr [%d.]+ %([%d.]+%%%), lbound %-2%.944, ubound 2%.944 %- H1 was accepted\n"), one)
    local jobs = table.move(argv, 1, #argv, 1, {})
    jobs[#jobs + 1] = "--jobs=2"
    assert.equal(one, (run_ok(jobs)))
    local dir, cleanup = support.scratch_dir()
    local files = {}
    for i = 1, 2 do
      local shard = table.move(argv, 1, #argv, 1, {})
      shard[#shard + 1] = "--shard=" .. i .. "/2"
      files[i] = dir .. "/" .. i
      spit(files[i], (run_ok(shard)))
    end
    assert.equal(one, (run_ok { "match-merge", files[1], files[2] }))
    cleanup()
  end)

  it("plays pairs from the openings of a file, in order, with the sides swapped", function()
    local dir, cleanup = support.scratch_dir()
    spit(dir .. "/openings.txt", "# two openings\nf5d6c3\n\nf5 f6, e6\n")
    local out = run_ok { "match", "--a", "random", "--b", "greedy", "--games", "6", "--seed", "2",
                         "--openings", dir .. "/openings.txt", "--shard", "1/1" }
    local openings, sides = {}, {}
    for line in out:gmatch("[^\n]+") do
      openings[#openings + 1] = line:match('"opening":"([^"]*)"')
      sides[#sides + 1] = line:match('"a_side":"(%a+)"')
    end
    assert.same({ "f5,d6,c3", "f5,d6,c3", "f5,f6,e6", "f5,f6,e6", "f5,d6,c3", "f5,d6,c3" }, openings)
    assert.same({ "black", "white", "black", "white", "black", "white" }, sides)
    spit(dir .. "/bad.txt", "f5d6\nf5f5\n")
    local status, _, err = host { "match", "--a", "random", "--b", "greedy", "--openings", dir .. "/bad.txt" }
    assert.equal(2, status)
    assert.truthy(err:find("bad.txt:2: move 2 'f5' is not a legal move there", 1, true), err)
    cleanup()
  end)

  it("draws random openings of --plies plies, the same for both games of a pair", function()
    local out = run_ok { "match", "--a", "random", "--b", "random", "--games", "8", "--seed", "5", "--plies", "6",
                         "--shard", "1/1" }
    local openings = {}
    for o in out:gmatch('"opening":"([^"]*)"') do openings[#openings + 1] = o end
    assert.equal(8, #openings)
    for pair = 1, 4 do
      assert.equal(openings[2 * pair - 1], openings[2 * pair])
      local plies = select(2, openings[2 * pair]:gsub(",", "")) + 1
      assert.equal(6, plies)
    end
    assert.are_not.equal(openings[1], openings[3])
  end)

  it("scores a policy's illegal answer as a loss and goes on", function()
    local dir, cleanup = support.scratch_dir()
    spit(dir .. "/cheat.lua", "return function(g) return g:moves()[1] and g:parse_move('a1') end\n")
    local status, out, err = host { "match", "--a", dir .. "/cheat.lua", "--b", "greedy", "--games", "4",
                                    "--seed", "1" }
    assert.equal(0, status, err)
    assert.truthy(out:find("Score of " .. dir .. "/cheat.lua vs greedy: 0 - 4 - 0", 1, true), out)
    assert.truthy(out:find("Forfeits: 4 games lost by a player's fault", 1, true), out)
    assert.truthy(err:find("game 1: player '" .. dir .. "/cheat.lua' (Black) chose an illegal move a1", 1, true), err)
    cleanup()
  end)

  it("plays on a clock with --tc: time a move per player, a clock run out loses on time, the same merged", function()
    local dir, cleanup = support.scratch_dir()
    -- 0.3 s of processor time a move: at least as much wall time, over a 0.2 s clock
    spit(dir .. "/slow.lua", "return function(g) local t = os.clock() while os.clock() - t < 0.3 do end "
      .. "return g:moves()[1] end\n")
    -- (the other side is greedy: its move takes microseconds even in a
    -- sanitizer build on a loaded machine, where loading an evaluation for
    -- a first search could pass the 0.2 s)
    local argv = { "match", "--trust", "--a", dir .. "/slow.lua", "--b", "greedy", "--games", "2",
                   "--seed", "1", "--tc", "0.2" }
    local status, out, err = host(argv)
    assert.equal(0, status, err)
    assert.truthy(out:find("Score of " .. dir .. "/slow.lua vs greedy: 0 - 2 - 0", 1, true), out)
    assert.truthy(out:find("\nTime: " .. dir .. "/slow.lua 0%.%d%d%d s a move %(2 moves%), greedy "
      .. "%d%.%d%d%d s a move %(1 moves%); lost on time: 2, 0\n"), out)
    assert.truthy(err:find("game 1: Black lost on time (", 1, true), err)
    assert.truthy(err:find("game 2: White lost on time (", 1, true), err)
    -- a clock with time enough: a timed alphabeta (no depth) plays on it; shards merge to the same lines
    local timed = { "match", "--a", "alphabeta", "--b", "alphabeta:depth=1", "--games", "2", "--seed", "5",
                    "--tc", "2+0.01" }
    out = run_ok(timed)
    assert.truthy(out:find("\nTime: alphabeta %d%.%d%d%d s a move %(%d+ moves%), alphabeta:depth=1 %d%.%d%d%d s a "
      .. "move %(%d+ moves%); lost on time: %d+, %d+\n"), out)
    local files = {}
    for i = 1, 2 do
      local argv_i = table.move(timed, 1, #timed, 1, {})
      argv_i[#argv_i + 1] = "--shard=" .. i .. "/2"
      files[i] = dir .. "/tc" .. i .. ".jsonl"
      spit(files[i], run_ok(argv_i))
    end
    local merged = run_ok { "match-merge", files[1], files[2] }
    assert.truthy(merged:find("\nTime: alphabeta %d%.%d%d%d s a move"), merged)
    local bad = { host { "match", "--a", "random", "--b", "random", "--tc", "x" } }
    assert.equal(2, bad[1])
    assert.truthy(bad[3]:find('--tc: "x" is not BASE[+INC], seconds (e.g. 60+0.5)', 1, true), bad[3])
    cleanup()
  end)

  it("writes every game as a record that replays and checks (and GGF for 8 x 8 reversi)", function()
    local dir, cleanup = support.scratch_dir()
    run_ok { "match", "--a", "greedy", "--b", "random", "--games", "3", "--seed", "4", "--records", dir .. "/games",
             "--jobs", "2" }
    for i = 1, 3 do
      local path = ("%s/games/game-%04d.record"):format(dir, i)
      run_ok { "replay", "--check", path }
      local text = slurp(path)
      assert.truthy(text:find("\nplayer black ", 1, true))
      assert.truthy(text:find("\nresult %d+%-%d+ "))
      -- the GGF copy holds the same game
      local ggf = require "boardscript.formats.ggf"
      local games = ggf.parse(slurp(("%s/games/game-%04d.ggf"):format(dir, i)), "ggf")
      assert.equal(1, #games)
      local record = require "boardscript.record"
      local rec = record.load(path)
      local moves = {}
      for _, entry in ipairs(rec.moves) do moves[#moves + 1] = entry.pass and "pass" or entry.text end
      local from_ggf = {}
      for _, m in ipairs(games[1].moves) do from_ggf[#from_ggf + 1] = m.pass and "pass" or m.text end
      assert.same(moves, from_ggf)
      assert.truthy(games[1].props.PB == (i % 2 == 1 and "greedy" or "random"), games[1].props.PB)
    end
    cleanup()
  end)

  it("plays other rule sets: dots counts boxes, blocks share their set-up within a pair", function()
    local out = run_ok { "match", "--rules", "dots", "--size", "2x2", "--a", "dots_rules", "--b", "random", "--games",
                         "6", "--seed", "1" }
    assert.truthy(out:find("Match of dots (size 2x2): dots_rules vs random, 6 games, seed 1", 1, true), out)
    assert.truthy(out:find("...      Player 1 vs Player 2: ", 1, true), out)
    assert.truthy(out:find(" boxes a game ", 1, true), out)
    local dir, cleanup = support.scratch_dir()
    run_ok { "match", "--rules", "blocks", "--a", "random", "--b", "random", "--games", "2", "--seed", "9",
             "--records", dir }
    local function start_of(path) return (slurp(path):match("\nseed (%-?%d+)\n")) end
    assert.equal(start_of(dir .. "/game-0001.record"), start_of(dir .. "/game-0002.record"))
    run_ok { "replay", "--check", dir .. "/game-0002.record" }
    cleanup()
  end)

  it("names what the rule set's score counts (score_unit): pieces in FlipFlop and Ataxx, else points", function()
    local path = {}
    for _, example in ipairs(require("boardscript.rules").examples()) do path[example.name] = example.path end
    for _, case in ipairs {
      { { "--rules", "flipflop", "--size", "4" }, "pieces" },
      { { "--rules", path.ataxx }, "pieces" },
      { { "--rules", path.connect4 }, "points" }, -- a win scores 1-0
    } do
      local argv = { "match", "--a", "random", "--b", "random", "--games", "2", "--seed", "3" }
      table.move(case[1], 1, #case[1], #argv + 1, argv)
      local out = run_ok(argv)
      assert.truthy(out:find("\nMean margin of random: [+-]%d+%.%d%d " .. case[2] .. " a game "), out)
      assert.falsy(out:find("discs", 1, true), out)
    end
  end)

  it("refuses what cannot be a match with one-line usage errors", function()
    for _, case in ipairs {
      { { "match", "--a", "human", "--b", "greedy" }, "--a: a match is between computer players" },
      { { "match", "--a", "nosuch", "--b", "greedy" }, "unknown player 'nosuch'" },
      { { "match", "--a", "greedy", "--b", "greedy", "--shard", "3/2" }, "--shard must be I/N" },
      { { "match", "--a", "greedy", "--b", "greedy", "--sprt", "elo0=1" }, "--sprt needs elo0 and elo1" },
      { { "match", "--rules", "dots", "--a", "alphabeta", "--b", "greedy" }, "--a: player 'alphabeta' does not play" },
      { { "match", "--a", "greedy" }, "missing option '--b'" },
    } do
      local status, out, err = host(case[1])
      assert.equal(2, status, err)
      assert.equal("", out)
      assert.truthy(err:find(case[2], 1, true), err)
      assert.falsy(err:find("traceback", 1, true), err)
    end
  end)

  it("match-merge refuses lines of different matches, repeated games, and says when games are missing", function()
    local dir, cleanup = support.scratch_dir()
    spit(dir .. "/a", (run_ok(with { "--shard", "1/2" })))
    spit(dir .. "/b", (run_ok { "match", "--a", "alphabeta:depth=1", "--b", "greedy", "--games", "20", "--seed", "12",
                                "--shard", "2/2" }))
    local status, _, err = host { "match-merge", dir .. "/a", dir .. "/b" }
    assert.equal(2, status)
    assert.truthy(err:find("belongs to another match (seed 12, not 11)", 1, true), err)
    status, _, err = host { "match-merge", dir .. "/a", dir .. "/a" }
    assert.equal(2, status)
    assert.truthy(err:find("game 1 appears twice", 1, true), err)
    local out
    status, out, err = host { "match-merge", dir .. "/a" }
    assert.equal(1, status)
    assert.truthy(out:find("Score of alphabeta:depth=1 vs greedy: %d+ %- %d+ %- %d+  %[[%d.]+%] 10\n"), out)
    assert.truthy(err:find("10 of 20 games missing (first: game 2)", 1, true), err)
    spit(dir .. "/junk", "{\"game\": 1}\nnot json\n")
    status, _, err = host { "match-merge", dir .. "/junk" }
    assert.equal(2, status)
    assert.truthy(err:find("junk:1: not a game line", 1, true), err)
    cleanup()
  end)
end)
