-- Learned evaluations of described games (issue 29): core.dgame_eval (an
-- n-tuple evaluation over the cells, src/core/dgame_ntuple.c) and its
-- trainer, S:search / S:mcts with `eval`, and `boardscript train --rules
-- GAME.lua` writing a file that records its game (docs/guide.md, "Training
-- an evaluation", "Described games").
local core = require "boardscript.core"
local dgfile = require "boardscript.described_eval"
local support = require "support.host"
local play = require "support.dgame_play"

local host, slurp, spit = support.run, support.slurp, support.spit
local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local TICTACTOE = SOURCE .. "/lua/examples/tictactoe_d.lua"
local CONNECT4 = SOURCE .. "/lua/examples/connect4.lua"

local dir, cleanup
setup(function() dir, cleanup = support.scratch_dir() end)
teardown(function() cleanup() end)

local function run_ok(args)
  local status, out, err = host(args)
  assert(status == 0, ("status %s: %s"):format(tostring(status), err))
  return out, err
end

local function rules_of(path)
  return require("boardscript.rules").load(path)
end

local position = play.position

-- A trainer fed with `games` random games of the game of S0 (labels: the result), every tenth held out.
local function random_fit(E, S0, games, seed) return play.random_trainer(E, S0, games, seed, 10) end

describe("core.dgame_eval (n-tuples over a described game's cells)", function()
  it("has one table per window and phase, no symmetry shared, and starts at zero", function()
    local S = position(TICTACTOE)
    local E = core.dgame_eval(S, { phases = 2 })
    local info = E:info()
    -- 3 rows + 3 columns + 2 diagonals of 3 cells, base 4 (empty, block, own, enemy)
    assert.same({ 3, 3, 1, 3, 8, 2, false }, { info.rows, info.cols, info.kinds, info.length, info.instances,
      info.phases, info.squares })
    -- per phase: the tables, a bias, a weight per kind and one for the hand-written evaluation
    assert.equal(2 * (8 * 64 + 1 + 1 + 1), info.weights)
    assert.equal(0, info.nonzero)
    assert.equal(0, E:value(S))
    local C = position(CONNECT4)
    local E4 = core.dgame_eval(C, { squares = true })
    -- Connect Four 6 x 7, windows of 4: 24 + 21 + 12 + 12, and 30 squares
    assert.same({ 6, 7, 4, 99 }, { E4:info().rows, E4:info().cols, E4:info().length, E4:info().instances })
  end)

  it("shares a table between the images of a window under the game's symmetry, and is the same on images", function()
    local S = position(TICTACTOE)
    local none = core.dgame_eval(S, { phases = 1 }):info()
    assert.same({ 8, 8, { "identity" } }, { none.instances, none.tables, none.symmetry })
    -- tic-tac-toe under the square's 8 maps: the 8 lines are 3 classes (edge rows and columns, the middle
    -- row and column, the diagonals)
    local E = core.dgame_eval(S, { phases = 1, symmetry = "square" })
    local info = E:info()
    assert.same({ 8, 3, 8 }, { info.instances, info.tables, #info.symmetry })
    assert.equal(3 * 64 + 3, info.weights)
    -- Connect Four under the mirror: 99 windows and squares, every one paired but those on the middle column
    local C = position(CONNECT4)
    local mirrored = core.dgame_eval(C, { squares = true, symmetry = "mirror" }):info()
    assert.equal(99, mirrored.instances)
    assert.is_true(mirrored.tables < 99 and mirrored.tables > 99 // 2, tostring(mirrored.tables))
    assert.matches("maps a square only", select(2, pcall(core.dgame_eval, C, { symmetry = { "transpose" } })))
    assert.matches("unknown group 'sideways'", select(2, pcall(core.dgame_eval, C, { symmetry = "sideways" })))
    -- fitted, a position and each of its images are worth the same
    random_fit(E, S, 200, 3):fit { iterations = 40 }
    assert.is_true(E:info().nonzero > 0)
    local images = {
      { "a1 b2 c1", "c1 b2 a1", "a3 b2 c3", "c3 b2 a3", "a1 b2 a3", "c1 b2 c3", "a3 b2 a1", "c3 b2 c1" },
      { "b1 a2", "b1 c2", "b3 a2", "b3 c2", "a2 b1", "c2 b1", "a2 b3", "c2 b3" },
    }
    for _, list in ipairs(images) do
      local want = E:value(position(TICTACTOE, list[1]))
      for _, moves in ipairs(list) do assert.equal(want, E:value(position(TICTACTOE, moves)), moves) end
    end
    local plain = core.dgame_eval(S, { phases = 1 })
    random_fit(plain, S, 200, 3):fit { iterations = 40 }
    assert.are_not.equal(plain:value(position(TICTACTOE, "a1 b2 c1")), plain:value(position(TICTACTOE, "c3 b2 a3")))
    -- saved and loaded, it keeps its tables
    local back = core.dgame_eval_load(E:save())
    assert.same(E:info(), back:info())
    assert.equal(E:value(position(TICTACTOE, "a1 b2 c1")), back:value(position(TICTACTOE, "a1 b2 c1")))
  end)

  it("has tables per side to move with sides = 2 (a directional game), saved with the file", function()
    -- Breakthrough: which side is to move cannot be read off the board, so a
    -- label that is the side to move is learned only by weights of its own
    local S0 = position(SOURCE .. "/lua/examples/breakthrough.lua")
    local rms = {}
    for sides = 1, 2 do
      local E = core.dgame_eval(S0, { sides = sides })
      assert.equal(sides, E:info().sides)
      local T = E:trainer()
      local rng = core.rng(5)
      for g = 1, 40 do
        local S = S0:clone()
        while not S:finished() do
          T:add(S, S:player() == "black" and 1 or -1, g % 10 == 0)
          local list, n = S:moves()
          assert(S:play(list[rng:random(n)]))
        end
      end
      rms[sides] = T:fit { iterations = 20, ridge = 1000 }.holdout_rms
      local again = assert(core.dgame_eval_load(E:save()))
      assert.equal(sides, again:info().sides)
      assert.equal(E:value(S0), again:value(S0))
    end
    assert.truthy(rms[2] < 0.05 and rms[1] > 0.3, ("%g %g"):format(rms[1], rms[2]))
    assert.equal(2 * core.dgame_eval(S0):info().weights, core.dgame_eval(S0, { sides = 2 }):info().weights)
    assert.error_matches(function() core.dgame_eval(S0, { sides = 3 }) end, "sides")
  end)

  it("learns: its value changes with the position, and S:search and S:mcts take it", function()
    local S = position(TICTACTOE)
    local E = core.dgame_eval(S, { phases = 1 })
    local T = random_fit(E, S, 300, 1)
    assert.equal(300 // 10, T:count(true) > 0 and 30 or 0)
    local fit = T:fit { iterations = 20, ridge = 5 }
    assert.truthy(fit.train_rms > 0 and fit.train_rms < 1, fit.train_rms)
    assert.truthy(fit.holdout_rms and fit.holdout_rms < 1.2, fit.holdout_rms)
    assert.truthy(E:info().nonzero > 20)
    -- the centre is better for X than a corner: O to move is worse off after b2
    local centre, corner = position(TICTACTOE, "b2"), position(TICTACTOE, "a2")
    assert.are_not.equal(E:value(centre), E:value(corner))
    assert.truthy(E:value(centre) < E:value(corner), ("%g %g"):format(E:value(centre), E:value(corner)))
    local move, value, info = S:search { depth = 2, eval = E }
    assert.truthy(S:move_text(move))
    assert.truthy(math.abs(value) <= 1000 * 10, value)
    assert.equal(2, info.depth)
    local m2, minfo = S:mcts { playouts = 100, eval = E, seed = 1 }
    assert.truthy(S:move_text(m2))
    assert.equal(100, minfo.playouts)
    -- saved and loaded: the same values
    local E2 = assert(core.dgame_eval_load(E:save()))
    assert.equal(E:value(centre), E2:value(centre))
    assert.equal(E:save(), E2:save())
  end)

  it("is refused for a state of another game, and bad bytes are no evaluation", function()
    local E = core.dgame_eval(position(TICTACTOE))
    local C = position(CONNECT4)
    assert.error_matches(function() E:value(C) end, "another game")
    assert.error_matches(function() C:search { depth = 1, eval = E } end, "field 'eval'")
    assert.error_matches(function() C:mcts { playouts = 10, eval = E } end, "field 'eval'")
    assert.error_matches(function() C:search { eval = 3 } end, "field 'eval'")
    assert.error_matches(function() E:trainer():add(C, 1) end, "another game")
    assert.error_matches(function() E:trainer():add(position(TICTACTOE), 0 / 0) end, "number")
    local bytes = E:save()
    assert.same({ nil, "not an n-tuple evaluation" }, { core.dgame_eval_load("junk") })
    local damaged = bytes:sub(1, 40) .. string.char((bytes:byte(41) + 1) % 256) .. bytes:sub(42)
    assert.same({ nil, "checksum mismatch (a damaged file)" }, { core.dgame_eval_load(damaged) })
    assert.is_nil((core.dgame_eval_load(bytes:sub(1, -9))))
    assert.error_matches(function() core.dgame_eval(C, { length = 9 }) end, "length")
  end)
end)

describe("boardscript train --rules GAME.lua (a described game)", function()
  it("writes a file that records its game, loads, plays, and is refused for another game", function()
    local path = dir .. "/ttt.bse"
    local out = run_ok { "train", "--rules", TICTACTOE, "--games", "60", "--rounds", "2", "--seed", "3",
                         "--score-games", "4", "--plies", "1", "--out", path }
    -- tables by shape (tic-tac-toe's): self-play and the duel at depth 2 (described.SHAPE)
    assert.truthy(out:find("self-play at depth 2,", 1, true), out)
    assert.truthy(out:find("vs hand evaluation (depth 2)", 1, true), out)
    -- tables by position (Connect Four's): at depth 3 (described.DEPTH)
    local by_position = run_ok { "train", "--rules", "lua/examples/connect4.lua", "--games", "4", "--rounds", "1",
                                 "--seed", "3", "--score-games", "0", "--out", dir .. "/c4.dgeval" }
    assert.truthy(by_position:find("self-play at depth 3,", 1, true), by_position)
    assert.truthy(out:find("\n    2       60 ", 1, true), out)
    local E, h = dgfile.load(path)
    local id = dgfile.identity(rules_of(TICTACTOE), {})
    assert.same({ "tictactoe_d", "", 3, 3, id.form }, { h.rules, h.options, h.rows, h.cols, h.form })
    assert.equal("3", h.seed)
    assert.truthy(h.command:find("--games 60", 1, true))
    assert.truthy(E:info().nonzero > 0)
    assert.are_not.equal(E:value(position(TICTACTOE, "b2")), E:value(position(TICTACTOE, "a1")))
    -- the same seed, the same file
    local again = dir .. "/again.bse"
    run_ok { "train", "--rules", TICTACTOE, "--games", "60", "--rounds", "2", "--seed", "3", "--score-games", "4",
             "--plies", "1", "--out", again }
    assert.equal(slurp(path):gsub("command=[^\n]*", ""), (slurp(again):gsub("command=[^\n]*", "")))
    -- the policies take it
    out = run_ok { "match", "--rules", TICTACTOE, "--games", "2", "--seed", "1",
                   "--a", "alphabeta:depth=2,eval=" .. path, "--b", "mcts:playouts=50,eval=" .. path }
    assert.truthy(out:find("Score of", 1, true), out)
    -- refused for another game: another rule set, or the same one with other options
    local _, _, err = host { "match", "--rules", CONNECT4, "--games", "1", "--seed", "1",
                             "--a", "alphabeta:depth=1,eval=" .. path, "--b", "random" }
    assert.truthy(err:find("ttt.bse is an evaluation of tictactoe_d (3x3), not of connect4", 1, true), err)
    assert.falsy(err:find("traceback", 1, true), err)
    local c4 = dir .. "/c4.bse"
    run_ok { "train", "--rules", CONNECT4, "--games", "6", "--rounds", "1", "--seed", "1", "--score-games", "0",
             "--out", c4 }
    local E4, h4 = dgfile.load(c4)
    assert.equal("k=4", h4.options)
    assert.error_matches(function() dgfile.check(h4, dgfile.identity(rules_of(CONNECT4), { k = 3 }), c4) end,
      "not of connect4 k=3")
    assert.truthy(E4:fits(position(CONNECT4)))
    -- a damaged file is one line
    spit(dir .. "/bad.bse", slurp(path):sub(1, -10))
    _, _, err = host { "match", "--rules", TICTACTOE, "--games", "1", "--a", "alphabeta:eval=" .. dir .. "/bad.bse",
                       "--b", "random" }
    assert.truthy(err:find("cannot load", 1, true), err)
  end)

  it("ships an evaluation of Connect Four that loads for it (eval=shipped), and none for Breakthrough", function()
    local BREAKTHROUGH = SOURCE .. "/lua/examples/breakthrough.lua"
    local id = dgfile.identity(rules_of(CONNECT4), {})
    local path = dgfile.shipped(id)
    assert.truthy(path, "no lua/boardscript/evals/connect4-6x7.dgeval")
    local E, h = dgfile.load(path)
    dgfile.check(h, id, path) -- its normalised form is the example's: retrain it when that changes
    assert.truthy(E:info().nonzero > 1000)
    assert.equal(1, E:info().sides) -- a file of version 1 (before sides): one set of tables
    local out = run_ok { "match", "--rules", CONNECT4, "--games", "2", "--seed", "1",
                         "--a", "alphabeta:depth=1,eval=shipped", "--b", "random" }
    assert.truthy(out:find("Score of alphabeta:depth=1,eval=shipped vs random: 2 - 0 - 0", 1, true), out)
    assert.is_nil(dgfile.shipped(dgfile.identity(rules_of(BREAKTHROUGH), {})))
    local _, _, err = host { "match", "--rules", BREAKTHROUGH, "--games", "1", "--seed", "1",
                             "--a", "alphabeta:depth=1,eval=shipped", "--b", "random" }
    assert.truthy(err:find("no evaluation is shipped for the described game breakthrough (8x8)", 1, true), err)
  end)

  it("keeps the latest positions, once there are more than it keeps: the oldest go first", function()
    local described = require "boardscript.train.described"
    local slots = {}
    for seen = 1, 8 do slots[seen] = described.slot(seen, 3) or 0 end
    assert.same({ 0, 0, 0, 1, 2, 3, 1, 2 }, slots)
    assert.is_nil(described.slot(described.MAX_POSITIONS, described.MAX_POSITIONS))
    assert.equal(1, described.slot(described.MAX_POSITIONS + 1, described.MAX_POSITIONS))
  end)

  it("refuses what a described game does not take, in one line", function()
    for _, extra in ipairs { { "--jobs", "2" }, { "--shard", "1/2" }, { "--features", "none" } } do
      local args = { "train", "--rules", TICTACTOE, "--games", "4", "--out", dir .. "/x.bse", extra[1], extra[2] }
      local status, out, err = host(args)
      assert.equal(2, status, err)
      assert.equal("", out)
      assert.truthy(err:find(extra[1], 1, true), err)
      assert.falsy(err:find("traceback", 1, true), err)
    end
  end)
end)
