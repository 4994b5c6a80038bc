--- The fit of Multi-ProbCut parameters (boardscript.mpc) for `boardscript
-- train`: positions from self-play games of the evaluation, each searched
-- at every depth 1 .. D with the table emptied before each search (so no
-- deeper result leaks into a shallower one) and no cut; for each depth d
-- from 3 and each phase, a least-squares line through the points (value
-- at shallow(d), value at d) of the positions in that phase and the two
-- next to it (every phase's points where those are too few), and the
-- deviation of the points from the line. Positions whose values are a
-- finished game's are left out.
local core = require "boardscript.core"
local data = require "boardscript.train.data"
local params_mod = require "boardscript.mpc"
local rules_mod = require "boardscript.rules"

local fit = {}

--- Positions fitted by default.
fit.POSITIONS = 240
--- Fewest points of a line: with fewer in a phase, every phase's points.
fit.MIN_POINTS = 12
-- Values at or past this (hundredths of a disc) are a finished game's.
local FINISHED = 6400

--- The deepest depth fitted by default for an n x n board: 10 on 8 x 8 and
-- smaller boards (the word-path search), 6 on larger ones (a node there
-- costs several times more).
function fit.default_depth(n)
  return n <= 8 and 10 or 6
end

-- The line through points {x, y}: slope, offset, deviation.
local function line(points)
  local n = #points
  local sx, sy = 0, 0
  for _, p in ipairs(points) do sx, sy = sx + p[1], sy + p[2] end
  local mx, my = sx / n, sy / n
  local sxx, sxy = 0, 0
  for _, p in ipairs(points) do
    sxx = sxx + (p[1] - mx) ^ 2
    sxy = sxy + (p[1] - mx) * (p[2] - my)
  end
  local slope = sxx > 0 and sxy / sxx or 1
  slope = math.max(0.25, math.min(4, slope))
  local offset = my - slope * mx
  local sse = 0
  for _, p in ipairs(points) do sse = sse + (p[2] - slope * p[1] - offset) ^ 2 end
  local sigma = math.sqrt(sse / math.max(1, n - 2))
  return slope, offset, math.max(1, sigma)
end

local function round(x) return math.floor(x + 0.5) end

--- Parameters (as ev:set_mpc takes them) from searched positions: `rows`
-- is a list of { phase =, values = { [d] = value } } for depths 1 .. depth;
-- `phases` the evaluation's phases.
function fit.parameters(rows, phases, depth)
  local params = {}
  for d = params_mod.MIN_DEPTH, depth do
    local s = params_mod.shallow(d)
    local by_phase, all = {}, {}
    for p = 1, phases do by_phase[p] = {} end
    for _, row in ipairs(rows) do
      local x, y = row.values[s], row.values[d]
      if s == 0 then x = row.values[0] end
      if x and y and math.abs(x) < FINISHED and math.abs(y) < FINISHED then
        local point = { x, y }
        all[#all + 1] = point
        for p = math.max(1, row.phase - 1), math.min(phases, row.phase + 1) do
          by_phase[p][#by_phase[p] + 1] = point
        end
      end
    end
    if #all >= fit.MIN_POINTS then
      local entry = { shallow = s, slope = {}, offset = {}, sigma = {} }
      for p = 1, phases do
        local points = #by_phase[p] >= fit.MIN_POINTS and by_phase[p] or all
        local slope, offset, sigma = line(points)
        entry.slope[p] = round(slope * 1000) / 1000
        entry.offset[p] = round(offset)
        entry.sigma[p] = round(sigma)
      end
      params[d] = entry
    end
  end
  return params_mod.extend(params)
end

--- Fits `ev`'s parameters and sets them on it. cfg: { sp = the self-play
-- (train.selfplay; its game searched in the core), ev =, n = board size,
-- positions = how many (default POSITIONS), depth = the deepest fitted
-- (default by the size), on_progress = function(done, total) or nil }.
-- Returns { positions =, depth =, seconds =, params = (nil: too few) }.
function fit.fit(cfg)
  local sp, ev = cfg.sp, cfg.ev
  local want = cfg.positions or fit.POSITIONS
  local depth = cfg.depth or fit.default_depth(cfg.n)
  local phases = ev:info().phases
  local start = core.clock()
  -- the positions: taken evenly from self-play games of the evaluation
  -- (about four times as many as wanted, or one game a position)
  local g0 = sp:start(1)
  local board = g0.state.board:clone()
  local game = rules_mod.core_game(g0.rules, g0.state)
  local pool, games = {}, 0
  while #pool < want * 4 and games < want do
    games = games + 1
    local record = sp:game(games, ev)
    for _, p in ipairs(record.positions) do pool[#pool + 1] = p.cells end
  end
  local count = math.min(want, #pool)
  local step = #pool / math.max(1, count)
  local searcher <close> = core.searcher { tt_mb = 4 }
  local rows = {}
  for k = 1, count do
    data.board(board, pool[math.floor((k - 1) * step) + 1], cfg.n)
    local values = { [0] = ev:evaluate(board, "black") }
    for d = 1, depth do
      searcher:clear()
      local move, value = searcher:search(board, "black", { game = game, depth = d, endgame = 0, evaluator = ev,
                                                             mpc = false })
      if move == nil then break end
      values[d] = value
    end
    local discs = board:count("black") + board:count("white")
    rows[k] = { phase = math.min(phases, discs * phases // (cfg.n * cfg.n + 1) + 1), values = values }
    if cfg.on_progress then cfg.on_progress(k, count) end
  end
  local params = fit.parameters(rows, phases, depth)
  if next(params) == nil then params = nil end
  ev:set_mpc(params)
  return { positions = #rows, depth = depth, seconds = core.clock() - start, params = params }
end

return fit
