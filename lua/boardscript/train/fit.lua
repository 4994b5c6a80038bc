--- Fitting an evaluation to data files (`boardscript train --data FILES`,
-- the files `--shard` runs write): every file's positions, checked to be
-- of the game trained, go to a trainer; one fit; then a duel against the
-- hand-written evaluation. The command writes the file and prints.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local data = require "boardscript.train.data"

local fit = {}

--- Reads the positions of data files into trainer `tr`, in file order. A
-- file of another game (rule set, size or options) is a user error naming
-- it, as is a malformed one (train.data).
-- @param tr a core.trainer
-- @tparam table game what the run trains for (train.setup.trained_game: name, n, options)
-- @tparam table paths the data files
-- @tparam[opt] table td TD(lambda) labels: { values = td.relabel's value_of, lambda = } (train.td;
--   the exact-solve range is each file's `endgame`, else self-play's default)
-- @treturn integer the games read
-- @treturn integer the positions read
function fit.read(tr, game, paths, td)
  local add_positions = require("boardscript.train.rounds").add_positions
  local relabel = td and require("boardscript.train.td").relabel
  local default_endgame = require("boardscript.train.selfplay").default_endgame(game.n)
  local games, positions = 0, 0
  for _, path in ipairs(paths) do
    local reader = data.open(path)
    local info = reader.info
    if info.rules ~= game.name or tonumber(info.size) ~= game.n or info.options ~= game.options then
      errors.fail(("%s holds positions of %s %s x %s (%s), not of %s %d x %d (%s)"):format(path, info.rules,
        info.size, info.size, info.options, game.name, game.n, game.n, game.options))
    end
    while true do
      local record = reader:next_game()
      if not record then break end
      if relabel then
        relabel(record, td.values, td.lambda, math.tointeger(tonumber(reader.part.endgame)) or default_endgame)
      end
      add_positions(tr, record)
      games, positions = games + 1, positions + #record.positions
    end
  end
  return games, positions
end

--- Fits evaluation `cfg.ev` (in place) to the positions of data files,
-- then plays its duel. A user error when the files hold no position to fit
-- (none outside the held-out games).
-- @tparam table cfg { game =, ev = the evaluation fitted, paths = the data
--   files, iterations =, shrink = (the fit's options), selfplay = a
--   train.selfplay (the duel's games), score_games = the duel's games,
--   td = TD(lambda) labels { values =, lambda = } or nil }
-- @treturn table { games =, positions =, read_time = seconds reading,
--   fit = the trainer's fit result, duel = train.rounds.duel's table }
function fit.data_files(cfg)
  local tr = core.trainer(cfg.ev)
  local t0 = core.clock()
  local games, positions = fit.read(tr, cfg.game, cfg.paths, cfg.td)
  if tr:count(false) == 0 then
    errors.fail("--data: the files hold no positions to fit (none outside the held-out games)")
  end
  local read_time = core.clock() - t0
  local result = tr:fit { iterations = cfg.iterations, shrink = cfg.shrink }
  local duel = require("boardscript.train.rounds").duel(cfg.selfplay, cfg.ev, cfg.score_games)
  return { games = games, positions = positions, read_time = read_time, fit = result, duel = duel }
end

return fit
