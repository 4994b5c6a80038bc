-- boardscript.train.fit, what `boardscript train --data FILES` does before
-- it writes and prints: data files read into a trainer (each checked to be
-- of the game trained), one fit and its duel. train_spec runs the command.
local data = require "boardscript.train.data"
local fit = require "boardscript.train.fit"
local selfplay = require "boardscript.train.selfplay"
local setup = require "boardscript.train.setup"
local support = require "support.host"

describe("boardscript.train.fit", function()
  local dir, done, game
  before_each(function()
    dir, done = support.scratch_dir()
    game = setup.trained_game { rules = "reversi", size = "4" }
  end)
  after_each(function() done() end)

  -- A data file of `game` (or of the header's fields in `info`) holding
  -- `games`, each { holdout =, positions = { {cells =, target =}, ... } }.
  local function data_file(name, games, info)
    local header = info or { rules = game.name, size = game.n, options = game.options, seed = 1 }
    local parts, positions = { data.header(header) }, 0
    for i, g in ipairs(games) do
      parts[#parts + 1] = data.game { game = i, holdout = g.holdout, positions = g.positions }
      positions = positions + #g.positions
    end
    parts[#parts + 1] = data.ending(#games, positions)
    local path = dir .. "/" .. name
    support.spit(path, table.concat(parts))
    return path
  end

  local GAMES = {
    { positions = { { cells = ".....xo..ox.....", target = 4 }, { cells = "....xxx..ox.....", target = -2 } } },
    { positions = { { cells = "....ooo..xx.....", target = 6 } } },
    { holdout = true, positions = { { cells = ".....xo..ox.....", target = 0 } } },
  }

  it("reads every file's positions into the trainer, counting games and positions", function()
    local a = data_file("a.data", { GAMES[1], GAMES[3] })
    local b = data_file("b.data", { GAMES[2] })
    local tr = require("boardscript.core").trainer(setup.new_evaluator({}, game))
    local games, positions = fit.read(tr, game, { a, b })
    assert.equal(3, games)
    assert.equal(4, positions)
    assert.equal(3, tr:count(false))
  end)

  it("refuses a file of another game, naming it", function()
    local other = data_file("six.data", { GAMES[2] }, { rules = "reversi", size = 6, options = "centre=white,size=6" })
    local tr = require("boardscript.core").trainer(setup.new_evaluator({}, game))
    local ok, err = pcall(fit.read, tr, game, { other })
    assert.is_false(ok)
    assert.equal(other .. " holds positions of reversi 6 x 6 (centre=white,size=6), not of reversi 4 x 4 "
      .. "(centre=white,size=4)", err.message)
  end)

  it("fits the evaluation in place and plays its duel", function()
    local ev = setup.new_evaluator({}, game)
    local sp = selfplay.new { rules = game.rules, source = "reversi", opts = game.opts, seed = 1, depth = 1,
      endgame = 0, plies = 0, epsilon = 0, label = 0 }
    local stats = fit.data_files { game = game, ev = ev, paths = { data_file("a.data", GAMES) }, iterations = 5,
      shrink = 0, selfplay = sp, score_games = 2 }
    assert.equal(3, stats.games)
    assert.equal(4, stats.positions)
    assert.is_true(stats.read_time >= 0)
    assert.is_true(stats.fit.train_error >= 0 and stats.fit.train_error < math.huge)
    assert.equal(2, stats.duel.n)
    assert.is_true(ev:info().nonzero > 0)
  end)

  it("refuses files with nothing to fit outside the held-out games", function()
    local ok, err = pcall(fit.data_files, { game = game, ev = setup.new_evaluator({}, game),
      paths = { data_file("held.data", { GAMES[3] }) }, shrink = 0, score_games = 0 })
    assert.is_false(ok)
    assert.equal("--data: the files hold no positions to fit (none outside the held-out games)", err.message)
  end)
end)
