--- The learning curve of `boardscript train --chart FILE.svg`: by round,
-- the fit's root mean square error on the training and the held-out
-- positions (discs), and the score of the evaluation in its duel against
-- the hand-written one, drawn with boardscript.render.chart. The picture
-- depends only on the history (no times), so the same run draws the same
-- bytes.
local chart = require "boardscript.render.chart"
local svg = require "boardscript.render.svg"

local curve = {}

local WIDTH = 560

local function finite(x)
  return x ~= nil and x == x and x ~= math.huge and x ~= -math.huge
end

--- The SVG text of the history (a list of { games, positions, fit, duel }
-- by round) of a run for `game` (train.setup.trained_game) with `args`;
-- `opponent` names the duel's opponent as the table does ("vs greedy (1
-- ply)", train.rounds.opponent).
function curve.svg(history, game, args, opponent)
  local rounds = #history
  local train, holdout, score, labels = {}, {}, {}, {}
  local games = 0
  for r, round in ipairs(history) do
    games = games + round.games
    if finite(round.fit.train_error) and round.fit.train > 0 then train[r] = round.fit.train_error end
    if finite(round.fit.holdout_error) and round.fit.holdout > 0 then holdout[r] = round.fit.holdout_error end
    if round.duel and round.duel.n > 0 then
      score[r] = 100 * (round.duel.w + round.duel.d / 2) / round.duel.n
    end
    labels[r] = ("round %d (%d games)"):format(r, games)
  end
  local title = ("Learning curve: %s %s, %d games, seed %d"):format(game.name,
    game.shape or ("%d x %d"):format(game.n, game.n), games, args.seed)
  local panels = {
    svg.captions({ title }, WIDTH),
    chart.panel({ title = "Root mean square error of the fit (discs)", moves = rounds, x_label = "round",
                  labels = labels, series = {
                    { name = "held-out positions", class = "holdout", colour = "#c0392b", fill = "#c0392b",
                      values = holdout },
                    { name = "training positions", class = "train", colour = "#1f5f99", fill = "#1f5f99",
                      values = train },
                  } }, WIDTH),
    chart.panel({ title = ("Score %s (%%, 50 = even)"):format(opponent or "against the hand-written evaluation"),
                  moves = rounds,
                  x_label = "round", y_max = 100, labels = labels, series = {
                    { name = "score", class = "score", colour = "#27ae60", fill = "#27ae60", values = score },
                  } }, WIDTH),
  }
  return svg.document(panels, title)
end

return curve
