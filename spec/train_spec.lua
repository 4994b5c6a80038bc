-- `boardscript train` (docs/guide.md, "Training an evaluation"): tiny
-- evaluations trained in seconds for 6 x 6 Reversi (the C searcher plays
-- the games) and tic-tac-toe (the rule set's hooks do), loaded back and
-- played; the same file from the same seed with any --jobs; shards and
-- --data; the data format; one-line messages for bad options.
local core = require "boardscript.core"
local data = require "boardscript.train.data"
local evalfile = require "boardscript.evalfile"
local selfplay = require "boardscript.train.selfplay"
local support = require "support.host"

local host, slurp, spit = support.run, support.slurp, support.spit
local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local TICTACTOE = SOURCE .. "/lua/examples/tictactoe.lua"
local ORTHOGONAL = SOURCE .. "/lua/examples/orthogonal.lua"

local dir, cleanup
setup(function() dir, cleanup = support.scratch_dir() end)
teardown(function() cleanup() end)

-- Runs the host; asserts status 0 and returns stdout.
local function run_ok(args)
  local status, out, err = host(args)
  assert(status == 0, ("status %s: %s"):format(tostring(status), err))
  return out, err
end

-- Runs the host expecting a usage error: one line on stderr (or, for an
-- option argparse refuses, the command's usage and one `Error:` line, as
-- every command has it), no traceback.
local function refused(args, pattern, status)
  local got, out, err = host(args)
  assert.equal(status or 2, got, err)
  assert.equal("", out)
  assert.truthy(err:match("^boardscript: [^\n]*\n$") or err:match("^Usage: boardscript train .-\n\nError: [^\n]*\n$"),
    "not one line: " .. err)
  assert.falsy(err:find("traceback", 1, true), err)
  assert.truthy(err:find(pattern, 1, true), ("expected %q in %q"):format(pattern, err))
end

-- A match's score line: wins, losses, draws of --a.
local function score(out)
  local w, l, d = out:match("Score of [^\n]-: (%d+) %- (%d+) %- (%d+)")
  return tonumber(w), tonumber(l), tonumber(d)
end

describe("train data files", function()
  it("write a game and read it back, the end line counting it", function()
    local text = data.header { rules = "reversi", size = 4, options = "size=4", seed = 7 }
      .. data.game { game = 3, holdout = true, positions = { { cells = "....xo..ox......", target = -4 },
                                                            { cells = "...#xxx.ox......", target = 2.5 },
                                                            -- a block in the first cell is no comment
                                                            { cells = "#..#xxx.ox......", target = 1 } } }
      .. "# a comment\n#\n"
      .. data.ending(1, 3)
    local lines = {}
    for line in text:gmatch("[^\n]*") do lines[#lines + 1] = line end
    local k = 0
    local reader = data.reader(function()
      k = k + 1
      return lines[k], k
    end, "mem")
    assert.same({ rules = "reversi", size = "4", options = "size=4", seed = "7" }, reader.info)
    local game = reader:next_game()
    assert.same({ game = 3, holdout = true, positions = { { cells = "....xo..ox......", target = -4 },
                                                        { cells = "...#xxx.ox......", target = 2.5 },
                                                        { cells = "#..#xxx.ox......", target = 1 } } }, game)
    assert.is_nil(reader:next_game())
  end)

  it("see a board from the side to move: x its discs, o the other side's", function()
    local b = core.board(4)
    b:set(1, 1, "black")
    b:set(1, 2, "white")
    b:set(4, 4, "block")
    assert.equal("xo.............#", data.cells(b, "black"))
    assert.equal("ox.............#", data.cells(b, "white"))
    local back = data.board(core.board(4), "ox.............#", 4)
    assert.equal("white", back:get(1, 1))
    assert.equal("block", back:get(4, 4))
  end)

  it("refuse a file cut short, a bad position and an end line that miscounts, naming the line", function()
    local header = data.header { rules = "reversi", size = 4, options = "centre=white,size=4" }
    local cases = {
      { header .. "game 1 train\n....xo..ox...... 4\n", "without its end line" },
      { header .. "game 1 train\n....xo..ox.... 4\nend 1 games 1 positions\n", ":6: expected a position" },
      { header .. "game 1 train\n....xo..ox...... x\nend 1 games 1 positions\n", "is not a number" },
      { header .. "game 1 train\n....xo..ox...... 4\nend 1 games 5 positions\n", "the file holds 1 and 1" },
      { "boardscript-eval 1\n", ":1: not a training data file" },
      { data.MAGIC .. "\nrules reversi\nsize 4\ngame 1 train\n", "no 'options' line" },
    }
    for i, case in ipairs(cases) do
      local path = ("%s/bad%d.data"):format(dir, i)
      spit(path, case[1])
      refused({ "train", "--rules", "reversi", "--size", "4", "--data", path, "--out", dir .. "/x.bse" }, case[2])
    end
  end)

  it("hold out one game in each block of 20, chosen by the seed", function()
    for _, seed in ipairs { 1, 2, 99 } do
      for block = 0, 3 do
        local held = 0
        for n = block * 20 + 1, block * 20 + 20 do
          if selfplay.holdout(seed, n) then held = held + 1 end
        end
        assert.equal(1, held)
      end
    end
  end)
end)

describe("boardscript train", function()
  local six

  it("trains a 6 x 6 Reversi evaluation from 40 games that loads and beats random", function()
    six = dir .. "/six.bse"
    local out = run_ok { "train", "--rules", "reversi", "--size", "6", "--games", "40", "--seed", "1",
                         "--score-games", "4", "--out", six, "--chart", dir .. "/six.svg",
                         "--mpc-positions", "30", "--mpc-depth", "5" }
    assert.truthy(out:find("Training reversi 6 x 6 (centre=white,size=6) by self-play: 40 games in 4 rounds", 1, true))
    assert.truthy(out:find("\n    4       10 ", 1, true), out)
    assert.truthy(out:find("\nMulti-ProbCut: depths 3-5 fitted on 30 positions in ", 1, true), out)
    assert.truthy(out:find("Wrote " .. six, 1, true))
    local ev, meta = evalfile.load(six)
    assert.same({ "reversi", 6, "centre=white,size=6", "1" }, { meta.rules, meta.size, meta.options, meta.seed })
    assert.equal("boardscript train --rules reversi --size 6 --games 40 --mpc-positions 30 --mpc-depth 5 --seed 1",
      meta.command)
    -- the Multi-ProbCut parameters: fitted for depths 3 to 5, made for the
    -- deeper ones from those, kept in the meta as the fitted ones
    local params = ev:mpc()
    assert.same({ 1, 2, 3 }, { params[3].shallow, params[4].shallow, params[5].shallow })
    assert.equal(2, params[6].shallow)
    assert.truthy(params[60] and not params[2] and #params[3].sigma == ev:info().phases)
    local depths = {}
    for d in meta.mpc:gmatch("(%d+)/%d+ ") do depths[#depths + 1] = tonumber(d) end
    assert.same({ 3, 4, 5 }, depths)
    assert.truthy(ev:info().nonzero > 100)
    evalfile.check(meta, "reversi", 6)
    -- the learned evaluation one ply deep (no exact endgame) against random
    -- moves, and an untrained one (every weight zero) that does not do so
    local function against_random(path)
      return score(run_ok { "match", "--rules", "reversi", "--size", "6", "--games", "40", "--seed", "1",
                            "--a", "alphabeta:depth=1,endgame=0,eval=" .. path, "--b", "random" })
    end
    local w, l = against_random(six)
    assert.truthy(w >= 26, ("%d - %d"):format(w, l))
    local zero = dir .. "/zero.bse"
    evalfile.save(zero, core.evaluator { size = 6 }, { rules = "reversi", size = 6 })
    w, l = against_random(zero)
    assert.truthy(w <= 24, ("%d - %d"):format(w, l))
    -- the learning curve: held-out error and score by round
    local svg = slurp(dir .. "/six.svg")
    assert.truthy(svg:find("Learning curve: reversi 6 x 6, 40 games, seed 1", 1, true))
    -- the score chart names the duel's opponent as the table does
    assert.truthy(svg:find("Score vs hand evaluation (depth ", 1, true) or svg:find("Score vs greedy (1 ply)", 1, true))
    local _, points = svg:gsub('class="point holdout"', "")
    assert.equal(4, points)
  end)

  it("fits only the Multi-ProbCut parameters of a file with --mpc-only, the weights unchanged", function()
    assert.truthy(six, "needs the file of the test before")
    local plain = dir .. "/plain.bse"
    local ev = evalfile.load(six)
    ev:set_mpc(nil)
    evalfile.save(plain, ev, { rules = "reversi", size = 6, options = "centre=white,size=6", seed = 9 })
    assert.falsy(slurp(plain):find("\nmpc=", 1, true))
    local cut = dir .. "/cut.bse"
    local out = run_ok { "train", "--rules", "reversi", "--size", "6", "--eval", plain, "--mpc-only",
                         "--mpc-positions", "20", "--mpc-depth", "6", "--seed", "4", "--out", cut }
    assert.truthy(out:find("^Multi%-ProbCut: depths 3%-6 fitted on 20 positions in "), out)
    assert.truthy(out:find("\nWrote " .. cut, 1, true), out)
    local fitted, meta = evalfile.load(cut)
    assert.equal(ev:save(""), (function() local c = fitted:copy(); c:set_mpc(nil); return c:save("") end)())
    assert.equal("9", meta.seed)
    local params = fitted:mpc()
    for d = 3, 60 do assert.truthy(params[d], d) end
    -- the search cuts with them unless told not to: other nodes, the same
    -- search without them
    local core_board = core.board(6)
    core_board:set(3, 3, "white"); core_board:set(4, 4, "white"); core_board:set(3, 4, "black")
    core_board:set(4, 3, "black")
    local searcher = core.searcher {}
    local function nodes(e, mpc)
      searcher:clear()
      local _, _, info = searcher:search(core_board, "black", { depth = 7, endgame = 0, evaluator = e, mpc = mpc })
      return info.nodes
    end
    -- (not fewer: whether the cuts pay on one position of a 40-game
    -- evaluation is chance; since fits tie the entries the square's maps
    -- relate, this one searched more nodes with them)
    assert.truthy(nodes(fitted) ~= nodes(fitted, false), "Multi-ProbCut changed nothing")
    assert.equal(nodes(ev), nodes(fitted, false))
    refused({ "train", "--rules", "reversi", "--size", "6", "--mpc-only", "--out", dir .. "/x.bse" },
      "--mpc-only fits the parameters of an evaluation: give it as --eval FILE")
    refused({ "train", "--rules", "reversi", "--size", "6", "--mpc-only", "--eval", plain, "--games", "3",
              "--out", dir .. "/x.bse" }, "--games goes with training, not with --mpc-only")
    refused({ "train", "--rules", "reversi", "--size", "6", "--mpc-only", "--eval", plain, "--out", plain },
      "--eval and --out name the same file")
  end)

  it("trains a variant nobody ships (orthogonal captures, 6 x 6) that loads and beats random", function()
    local path = dir .. "/orth.bse"
    run_ok { "train", "--rules", ORTHOGONAL, "--size", "6", "--games", "40", "--seed", "2", "--score-games", "2",
             "--out", path, "--mpc-positions", "0" }
    local ev, meta = evalfile.load(path)
    assert.same({ "orthogonal", 6 }, { meta.rules, meta.size })
    assert.is_nil(ev:mpc()) -- --mpc-positions 0: no Multi-ProbCut parameters
    assert.is_nil(meta.mpc)
    -- its mobility counts the variant's legal directions (n, e, s, w)
    assert.equal(1 + 4 + 16 + 64, ev:info().mobility)
    local w, l = score(run_ok { "match", "--rules", ORTHOGONAL, "--size", "6", "--games", "40", "--seed", "1",
                                "--a", "alphabeta:depth=1,endgame=0,eval=" .. path, "--b", "random" })
    assert.truthy(w >= 26, ("%d - %d"):format(w, l))
    -- a file of another game is refused with one line naming both (a match
    -- scores the player's games as losses)
    local _, _, err = host { "match", "--rules", "reversi", "--size", "6", "--games", "2", "--seed", "1",
                             "--a", "alphabeta:eval=" .. path, "--b", "random" }
    assert.truthy(err:find("orth.bse was trained for orthogonal 6 x 6, not reversi 6 x 6", 1, true), err)
    assert.falsy(err:find("traceback", 1, true), err)
  end)

  it("writes the same file for the same seed, with one, two or three jobs", function()
    local args = { "train", "--rules", "reversi", "--size", "6", "--games", "24", "--rounds", "2", "--seed", "5",
                   "--score-games", "2", "--mpc-positions", "12", "--mpc-depth", "4" }
    local files, charts = {}, {}
    for _, jobs in ipairs { 1, 2, 1, 3 } do
      local path = ("%s/jobs%d-%d.bse"):format(dir, jobs, #files + 1)
      local argv = table.move(args, 1, #args, 1, {})
      table.move({ "--jobs", tostring(jobs), "--out", path, "--chart", path .. ".svg" }, 1, 6, #argv + 1, argv)
      run_ok(argv)
      files[#files + 1], charts[#files + 1] = slurp(path), slurp(path .. ".svg")
    end
    assert.truthy(files[1]:find("\nmpc=3/1 ", 1, true)) -- the parameters are the same too
    for i = 2, #files do
      assert.equal(files[1], files[i])
      assert.equal(charts[1], charts[i])
    end
    local other = dir .. "/seed6.bse"
    args[11] = "6"
    table.move({ "--out", other }, 1, 2, #args + 1, args)
    run_ok(args)
    assert.are_not.equal(files[1], slurp(other))
  end)

  it("relabels a game by TD(lambda), from its end back, with the next position's value", function()
    local td = require "boardscript.train.td"
    -- a 4 x 4 evaluation fitted to a few positions, so that its values are not 0
    local ev = core.evaluator { size = 4, phases = 1 }
    local tr = core.trainer(ev)
    for i, cells in ipairs { "....ox..xo...o..", "....xo..ox......", ".....xo.ox..xo.." } do
      tr:add(cells, "black", 6 * i - 9)
    end
    tr:fit { iterations = 5 }
    local function game(holdout)
      -- x moves; then the other side (x's discs are o); then it again (x passed)
      return { holdout = holdout, positions = { { cells = "....xo..ox......", target = 4 },
                                                { cells = "....ox..xo......", target = -4 },
                                                { cells = "....ox..xo...o..", target = -4 } } }
    end
    local v3 = ev:evaluate("....ox..xo...o..", "black") / 100
    local v2 = ev:evaluate("....ox..xo......", "black") / 100
    assert.are_not.equal(0, v3)
    local r = td.relabel(game(false), td.static(ev), 0.25, 0).positions
    local g3 = -4
    local g2 = 0.75 * v3 + 0.25 * g3 -- the same side to move
    local g1 = -(0.75 * v2 + 0.25 * g2) -- the other side
    assert.same({ g1, g2, g3 }, { r[1].target, r[2].target, r[3].target })
    -- lambda 1, a held-out game: labels unchanged
    assert.same(game(false), td.relabel(game(false), td.static(ev), 1, 0))
    assert.same(game(true), td.relabel(game(true), td.static(ev), 0.25, 0))
    -- within the exact-solve range (here 11 empty cells or fewer: the last position) a label stays and is
    -- the next one's value
    r = td.relabel(game(false), td.static(ev), 0.25, 11).positions
    assert.same({ -(0.75 * v2 + 0.25 * -4), -4, -4 }, { r[1].target, r[2].target, r[3].target })
  end)

  it("takes the next position's value from a search with --lambda-depth (td.searched)", function()
    local td = require "boardscript.train.td"
    local ev = evalfile.load(six)
    local rules = require "boardscript.rules"
    local sp = selfplay.new { rules = rules.load("reversi"), opts = { size = 6 }, seed = 1, depth = 1, endgame = 0,
                              plies = 0, epsilon = 0 }
    local values, searcher = td.searched(sp, ev, 3, 6)
    -- the value of an independent search, 3 plies deep from the same cells, no Multi-ProbCut
    local cells = "......xo.....xxx....ox..o..........." -- 36 cells, x to move
    local g = sp:start(1)
    local board = data.board(g.state.board:clone(), cells, 6)
    local other <close> = core.searcher { tt_mb = 1 }
    local _, expected = other:search(board, "black", { game = rules.core_game(g.rules, g.state), depth = 3,
                                                      endgame = 0, evaluator = ev, mpc = false })
    assert.equal(expected / 100, values(cells))
    assert.are_not.equal(ev:evaluate(cells, "black") / 100, values(cells))
    -- the relabelling takes it: the position before the last (the same side to move: x passed)
    local r = td.relabel({ positions = { { cells = "......xo.....xxo....ox..o...........", target = 2 },
                                         { cells = cells, target = 6 } } }, values, 0.5, 0).positions
    assert.equal(0.5 * expected / 100 + 0.5 * 6, r[1].target)
    searcher:close()
  end)

  it("plays shards into data files and fits them with --data", function()
    local parts = {}
    for i = 1, 2 do
      parts[i] = ("%s/part%d.data"):format(dir, i)
      run_ok { "train", "--rules", "reversi", "--size", "6", "--games", "20", "--seed", "3",
               "--shard", ("%d/2"):format(i), "--out", parts[i] }
    end
    local text = slurp(parts[2])
    assert.truthy(text:find("^boardscript%-train%-data 1\nrules reversi\nsize 6\noptions centre=white,size=6\n"))
    assert.truthy(text:find("\ngame 2 ", 1, true) and text:find("\ngame 20 ", 1, true))
    assert.falsy(text:find("\ngame 1 ", 1, true))
    assert.truthy(text:find("\nend 10 games %d+ positions\n$"))
    local fitted = dir .. "/fitted.bse"
    local out = run_ok { "train", "--rules", "reversi", "--size", "6", "--data", parts[1], parts[2],
                         "--score-games", "2", "--out", fitted, "--mpc-positions", "0" }
    assert.truthy(out:find("of 20 games from 2 files", 1, true), out)
    local ev, meta = evalfile.load(fitted)
    assert.truthy(ev:info().nonzero > 0)
    assert.truthy(meta.command:find("--data " .. parts[1] .. " " .. parts[2], 1, true))
    -- TD(lambda) labels from the fitted file's values: another fit, its command kept
    local function refit(out_path, ...)
      run_ok { "train", "--rules", "reversi", "--size", "6", "--data", parts[1], parts[2], "--eval", fitted,
               "--score-games", "0", "--mpc-positions", "0", "--seed", "1", "--out", out_path, ... }
      return slurp(out_path)
    end
    local plain, td_text = refit(dir .. "/plain.bse"), refit(dir .. "/td.bse", "--lambda", "0.5")
    assert.are_not.equal(plain, td_text)
    assert.equal(td_text, refit(dir .. "/td2.bse", "--lambda", "0.5"))
    assert.truthy(select(2, evalfile.load(dir .. "/td.bse")).command:find("--lambda 0.5 ", 1, true))
    -- the next positions' values by a search 2 plies deep: other labels, the same again, the command kept
    local searched = refit(dir .. "/tds.bse", "--lambda", "0.5", "--lambda-depth", "2")
    assert.are_not.equal(td_text, searched)
    assert.equal(searched, refit(dir .. "/tds2.bse", "--lambda", "0.5", "--lambda-depth", "2"))
    assert.truthy(select(2, evalfile.load(dir .. "/tds.bse")).command:find("--lambda 0.5 --lambda-depth 2 ", 1, true))
    -- a shard to standard output, and one played with a learned evaluation
    local stdout = run_ok { "train", "--rules", "reversi", "--size", "6", "--games", "4", "--seed", "3",
                            "--shard", "1/1", "--eval", fitted, "--out", "-" }
    assert.truthy(stdout:find("\neval " .. fitted .. "\n", 1, true))
    assert.truthy(stdout:find("\nend 4 games %d+ positions\n$"))
  end)

  it("labels positions by the self-play search's value with --label, exactly where the search solves", function()
    local function shard(label)
      local text = run_ok { "train", "--rules", "reversi", "--size", "6", "--games", "3", "--seed", "5",
                            "--depth", "3", "--endgame", "8", "--label", label, "--shard", "1/1", "--out", "-" }
      local games, game = {}, nil
      for line in text:gmatch("[^\n]+") do
        if line:find("^game ") then
          game = {}
          games[#games + 1] = game
        elseif line:find("^[%.xo#]+ ") and game then
          local cells, target = line:match("^(%S+) (%S+)$")
          game[#game + 1] = { cells = cells, target = tonumber(target), empty = select(2, cells:gsub("%.", "")) }
        end
      end
      return text, games
    end
    local text0, result = shard("0")
    local text1, search = shard("1")
    local _, half = shard("0.5")
    assert.truthy(text1:find("\nlabel 1\n", 1, true) and text0:find("\nlabel 0\n", 1, true))
    assert.equal(#result, #search)
    local differ, exact = 0, 0
    for g = 1, #result do
      assert.equal(#result[g], #search[g])
      for i, p in ipairs(result[g]) do
        local q, h = search[g][i], half[g][i]
        assert.equal(p.cells, q.cells) -- the same games: labelling does not change the moves
        assert.near((p.target + q.target) / 2, h.target, 1e-9)
        if p.empty <= 8 then
          exact = exact + 1
          assert.equal(p.target, q.target) -- both sides play perfectly from there: the margin is the value
        elseif p.target ~= q.target then
          differ = differ + 1
        end
      end
      -- a game's labels by result are its final margin, by search they vary along the game
      local values = {}
      for _, p in ipairs(search[g]) do values[p.target] = true end
      assert.truthy(next(values, next(values)), "one label for every position of a game")
    end
    assert.truthy(exact > 0 and differ > 10, ("exact %d, differ %d"):format(exact, differ))
    refused({ "train", "--rules", TICTACTOE, "--games", "4", "--label", "1", "--out", dir .. "/l.bse" },
      "--label: tictactoe is played through its hooks")
    refused({ "train", "--rules", "reversi", "--games", "4", "--label", "2", "--out", dir .. "/l.bse" },
      "label must be a number from 0 to 1")
  end)

  it("trains tic-tac-toe through its hooks: a 1-ply learned player that beats random", function()
    local path = dir .. "/ttt.bse"
    local out = run_ok { "train", "--rules", TICTACTOE, "--games", "400", "--seed", "1", "--score-games", "4",
                         "--out", path }
    assert.truthy(out:find("1-ply greedy through the rule set's hooks", 1, true))
    local ev, meta = evalfile.load(path)
    assert.equal("tictactoe", meta.rules)
    assert.equal(3, ev:info().size)
    -- the learned player (greedy by the evaluation) against random moves, sides swapped
    local rules = require("boardscript.rules").load(TICTACTOE)
    local sp = selfplay.new { rules = rules, source = TICTACTOE, opts = {}, seed = 11, depth = 1, endgame = 0,
                              plies = 0, epsilon = 0 }
    local won, lost = 0, 0
    for k = 1, 40 do
      local g = sp:start(k)
      local rng = core.rng(k)
      local learned = k % 2 == 1 and "black" or "white"
      while not g:finished() do
        local moves = g:moves()
        local move = g:to_move() == learned and sp:choose(g, ev, rng, 1) or moves[rng:random(#moves)]
        g:play(move)
      end
      local winner = g:winner()
      if winner == learned then won = won + 1 elseif winner ~= "draw" then lost = lost + 1 end
    end
    -- (lost: 7% of 200 games on average over training seeds 1-7, whether the
    -- fit ties the square's images or not, 0.5% to 15% by seed: seed 1 loses
    -- 5 of these 40 with tied tables, at most 4 without)
    assert.truthy(won >= 25 and lost <= 6, ("won %d, lost %d of 40"):format(won, lost))
  end)

  it("refuses bad options with one line and status 2", function()
    local out = dir .. "/bad.bse"
    local base = { "train", "--rules", "reversi", "--size", "6", "--out", out }
    local function with(...)
      local argv = table.move(base, 1, #base, 1, {})
      for _, a in ipairs { ... } do argv[#argv + 1] = a end
      return argv
    end
    refused(with(), "give --games N or --minutes M")
    refused(with("--games", "4", "--minutes", "1"), "give --games or --minutes, not both")
    refused({ "train", "--rules", "nosuch", "--games", "4", "--out", out }, "unknown rule set 'nosuch'")
    refused({ "train", "--rules", "reversi", "--size", "40", "--games", "4", "--out", out }, "size")
    refused({ "train", "--rules", "dots", "--games", "4", "--out", out }, "train learns evaluations of games of discs")
    refused(with("--games", "4", "--jobs", "2", "--shard", "1/2"), "--shard and --jobs do not go together")
    refused(with("--games", "4", "--shard", "3/2"), "--shard must be I/N")
    refused(with("--games", "0"), "games must be an integer from 1")
    refused(with("--games", "2", "--rounds", "3"), "more rounds than --games 2")
    refused({ "train", "--rules", "reversi", "--games", "4", "--out", dir .. "/no/such/dir/x.bse" },
      "--out: cannot write " .. dir .. "/no/such/dir/x.bse")
    refused({ "train", "--rules", "reversi", "--games", "4", "--out", dir }, "Is a directory")
    refused(with("--games", "4", "--features", "speed"), "unknown feature")
    refused(with("--data", dir .. "/missing.data"), "missing.data")
    refused(with("--data", dir .. "/x.data", "--games", "4"), "--games goes with self-play, not with --data")
    refused(with("--data", dir .. "/x.data", "--lambda", "0.5"), "--lambda blends in an evaluation's values: give it "
      .. "as --eval FILE")
    refused(with("--games", "4", "--lambda", "0.5"), "--lambda goes with --data (and --eval), not with self-play")
    refused(with("--data", dir .. "/x.data", "--lambda", "2"), "lambda must be a number from 0 to 1")
    refused(with("--data", dir .. "/x.data", "--eval", six, "--lambda-depth", "2"), "--lambda-depth goes with --lambda")
    refused(with("--games", "4", "--lambda-depth", "2"), "--lambda-depth goes with --data and --lambda")
    refused(with("--data", dir .. "/x.data", "--eval", six, "--lambda", "0.5", "--lambda-depth", "9"),
      "lambda-depth must be an integer from 0 to 8")
    refused(with("--games", "4", "--eval", dir .. "/missing.bse"), "missing.bse")
    assert.is_nil(io.open(out, "rb"))
  end)

  it("refuses an evaluation or data of another game", function()
    refused({ "train", "--rules", "reversi", "--size", "8", "--games", "4", "--eval", six, "--out", dir .. "/e.bse" },
      "was trained for reversi 6 x 6, not reversi 8 x 8")
    -- --eval goes on with its file's tables: other phases or features are refused
    local phases = evalfile.load(six):info().phases
    refused({ "train", "--rules", "reversi", "--size", "6", "--games", "2", "--eval", six, "--phases",
              tostring(phases + 1), "--out", dir .. "/e.bse" },
      ("--eval %s has %d phases, and goes on with them (leave out --phases"):format(six, phases))
    refused({ "train", "--rules", "reversi", "--size", "6", "--games", "2", "--eval", six, "--features", "none",
              "--out", dir .. "/e.bse" }, "--eval " .. six .. " has the features mobility,")
    local part = dir .. "/part1.data"
    refused({ "train", "--rules", "reversi", "--size", "8", "--data", part, "--out", dir .. "/e.bse" },
      "holds positions of reversi 6 x 6 (centre=white,size=6), not of reversi 8 x 8")
  end)
end)
