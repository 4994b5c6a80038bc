--- Studies, hints and analyses of `boardscript serve`'s store
-- (boardscript.serve.games installs these methods on it): a record or GGF
-- file opened to step through, with an evaluation chart searched in a
-- worker, the AI's suggested move in a game as it stands, and the value of
-- every legal move there (Store:analysis).
local core = require "boardscript.core"
local describe = require "boardscript.describe"
local errors = require "boardscript.errors"
local game_pictures = require "boardscript.render.game"
local json = require "dkjson"
local limits = require "boardscript.limits"
local players = require "boardscript.players"
local record = require "boardscript.record"
local rules_mod = require "boardscript.rules"
local session = require "boardscript.serve.session"
local worker = require "boardscript.serve.worker"

local study = {}

--- The store's methods defined here (Store:study, go_to, hint, analysis, offer_for).
study.methods = {}
local Store = study.methods

--- The depth of the evaluation chart of a study, by board size.
function study.chart_depth(n)
  return n <= 8 and 4 or n <= 12 and 2 or 1
end

-- The rule set a record names, among those offered (by name, or a file
-- offered under that file's name): the offer, or a user error.
function Store:offer_for(name)
  local entry = self.offered[name] or self.offered[session.base_name(tostring(name))]
  if not entry then
    errors.fail(("the record's rule set '%s' is not one this server offers (%s)"):format(session.quoted(name),
      table.concat(self.order, ", ")))
  end
  return entry
end

--- Opens a game to study: params { text = a record or a GGF file's text,
-- game = which game of a GGF file (default 1) }. The game's rule set must
-- be one the server offers (a record naming a path is taken by that
-- file's name, never opened). Returns the id, or nil and why not.
function Store:study(params)
  if type(params) ~= "table" or type(params.text) ~= "string" then return nil, "expected { text = the file's text }" end
  local text = params.text
  if #text > record.MAX_BYTES then return nil, ("the file is larger than %d bytes"):format(record.MAX_BYTES) end
  if params.game ~= nil and (not math.tointeger(params.game) or params.game < 1 or params.game > 100000) then
    return nil, "game: expected the number of a game of the file, from 1"
  end
  local where = "the file"
  local ok, first, entries, evals = self:guarded(function()
    if text:match("^%s*%(;") then
      local ggf = require "boardscript.formats.ggf"
      return game_pictures.from_ggf(ggf, where, text, math.tointeger(params.game) or 1)
    end
    local rec = record.parse(text, where)
    local entry = self:offer_for(rec.rules)
    rec.rules = entry.source
    return game_pictures.from_parsed(rec, where)
  end)
  if not ok then return nil, first end
  local title
  if evals and next(evals) ~= nil then
    title = "Evaluation in the file (" .. first:side_name(first.rules.sides[1]) .. "'s margin, discs)"
  elseif rules_mod.searched_in_core(first.rules) then
    local depth = study.chart_depth(first:board():size())
    local answer = self.pool:run(function()
      local values = game_pictures.evaluations(first, entries, depth)
      local out = {}
      for k = 0, #entries do out[k + 1] = ("%.17g"):format(values[k]) end
      return table.concat(out, " ")
    end)
    if answer then
      evals = {}
      local k = 0
      for value in answer:gmatch("%S+") do
        evals[k] = tonumber(value)
        k = k + 1
      end
      title = ("Evaluation (%s's margin, discs; alphabeta depth %d)"):format(first:side_name(first.rules.sides[1]),
        depth)
    end
  end
  if title == nil then evals = nil end
  local texts = {}
  for k, e in ipairs(entries) do texts[k] = e.pass and "pass" or e.text end
  local name = first.source and self.offered[session.base_name(first.source)] and session.base_name(first.source)
    or tostring(first.rules.name)
  local g = game_pictures.position(first, entries, #entries, false)
  return self:add { entry = self.offered[name] or { name = name, source = name }, seats = {}, g = g,
                    study = { start = first, entries = entries, evals = evals, eval_title = title,
                              ply = #entries, texts = texts } }
end

--- Moves a study to the position after `ply` moves (0..the game's moves).
function Store:go_to(id, ply)
  local s, why, code = self:idle(id)
  if not s then return nil, why, code end
  if not s.study then return nil, "not a study: goto steps through an opened record" end
  ply = math.tointeger(ply)
  if not ply or ply < 0 or ply > #s.study.entries then
    return nil, ("ply must be an integer from 0 to %d"):format(#s.study.entries)
  end
  local ok, g = self:guarded(game_pictures.position, s.study.start, s.study.entries, ply, false)
  if not ok then return nil, g end
  s.g, s.study.ply = g, ply
  self:changed(s)
  return self:view(id)
end

--- The policy that suggests moves in `rules`: alphabeta 6 plies deep where
-- the C core searches the rule set, else the first built-in that plays it.
function study.adviser(rules)
  for _, spec in ipairs { "alphabeta:depth=6", "dots_search", "mcts:playouts=2000" } do
    local player = players.load(spec, rules)
    if players.plays(player, rules) then return player end
  end
  return nil
end

--- The AI's suggested move in session `id` as it stands: { move = text,
-- by = the policy } (move "pass" where passing is its choice), or nil and
-- why. It is searched in a worker, by a policy made there for it (its
-- table goes with the worker); the game does not change.
function Store:hint(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  local g = s.g
  if g:finished() then return nil, "the game is over" end
  local answer, err, busy = self.pool:run(function()
    local player = study.adviser(g.rules)
    if not player then errors.fail("no built-in policy plays this rule set") end
    local copy = g:clone()
    copy.rng = core.rng()
    if g.rng then copy.rng:restore(g.rng:state()) end -- the game's own draws are not the hint's
    local ok, move = pcall(players.choose, player, copy)
    session.close_seats { player }
    if not ok then error(move, 0) end
    return ("%s\n%s"):format(move == "pass" and "pass" or copy:move_text(move), player.name)
  end)
  if not answer then return nil, err, busy and "full" or nil end
  local move, by = answer:match("^([^\n]*)\n(.*)$")
  return { move = move, by = by }
end

------------------------------------------------------------------------
-- Analysis: the value of every legal move, from the strongest built-in
-- that can value them cheaply (see Store:analysis).

--- The processor seconds an analysis that deepens as time allows (the
-- Dots and Boxes search, the described-game search, playouts) aims at; it
-- never takes more than 90 % of --max-seconds.
study.ANALYSIS_SECONDS = 1

--- The depth of an analysis by the C searcher, by board size: each move
-- is searched `depth` plies deep (the move, then depth - 1 of replies).
-- On 8 x 8 a few hundredths of a second, a solve of every move from 16
-- empty cells a few tenths.
function study.analysis_depth(n)
  return n <= 8 and 6 or n <= 12 and 5 or n <= 20 and 4 or 3
end

--- The most rounds of playouts (one from each move a round) of an analysis
-- by playouts.
study.ANALYSIS_PLAYOUTS = 1000

-- The value of a forced win (in the unit of a described game's search:
-- pieces), as the search reports one beyond it.
local DESCRIBED_WIN = 10000

-- The searcher's choices of `g` (its moves, then "pass" where allowed), each
-- as { choice =, move = its text }.
local function choice_list(g)
  local list = {}
  for i, choice in ipairs(g:choices()) do
    list[i] = { choice = choice, move = choice == "pass" and "pass" or g:move_text(choice) }
  end
  return list
end

-- The deadlines (os.clock) of an analysis that aims at `seconds`: that
-- time within 90 % of the budget (--max-seconds), and 90 % of the budget
-- (nil without one), past which it stops with an error rather than be
-- stopped.
local function deadlines(seconds)
  local budget, now = limits.seconds(), os.clock()
  if not budget then return now + seconds, nil end
  return now + math.min(seconds, 0.9 * budget), now + 0.9 * budget
end

-- The error of an analysis that the budget stopped before it had a value
-- for every move.
local function out_of_budget()
  errors.fail(("the analysis did not finish within the server's budget (--max-seconds %g)"):format(limits.seconds()))
end

-- A rule set the C capture core searches: every choice by alphabeta
-- (boardscript.protocol.engine's Engine:rank), Multi-ProbCut off, so the
-- best value is the one a search of the position finds. Deepened a ply at
-- a time up to study.analysis_depth while the next pass is likely to end
-- within study.ANALYSIS_SECONDS (a rule set where every cell is a move,
-- loose Othello, stops sooner), each pass on an empty table.
local function by_alphabeta(g)
  local engine_mod = require "boardscript.protocol.engine"
  local max_depth = study.analysis_depth(g:board():size())
  local e = engine_mod.new { policy = ("alphabeta:depth=%d,mpc=off"):format(max_depth), rules = g.rules }
  local deadline = deadlines(study.ANALYSIS_SECONDS)
  e:begin() -- the budget (--max-seconds): the searches stop within it
  local ranked, reached
  local ok, err = pcall(function()
    for depth = 1, max_depth do
      local started = os.clock()
      e:forget()
      ranked, reached = e:rank(g, depth), depth
      local exact = true
      for _, c in ipairs(ranked) do exact = exact and c.exact end
      -- a ply deeper costs several times this one
      if exact or os.clock() + 4 * (os.clock() - started) > deadline then break end
    end
  end)
  e:finish()
  e.player.policy:close()
  if not ok then error(err, 0) end
  local moves, exact = {}, true
  for i, c in ipairs(ranked) do
    moves[i] = { move = c.move == "pass" and "pass" or g:move_text(c.move), value = c.value / 100 }
    reached = math.min(reached, c.depth)
    exact = exact and c.exact
  end
  if exact then return { by = "alphabeta (solved)", unit = "discs", exact = true, moves = moves } end
  return { by = ("alphabeta:depth=%d,mpc=off"):format(reached), unit = "discs", depth = reached, exact = false,
           moves = moves }
end

-- A described game the C engine runs: every choice searched by the
-- described-game searcher (alphabeta's), deepened a ply at a time from 2
-- while the time allows (a deeper pass cut short is not used). Values in
-- pieces (its hundredths / 100); a forced win is DESCRIBED_WIN and more.
local function by_described(g)
  local alphabeta = require "boardscript.ai.alphabeta"
  local normalised = describe.normalize(g.rules, g.opts or {})
  local side = g:to_move()
  local list = choice_list(g)
  local deadline, hard = deadlines(study.ANALYSIS_SECONDS)
  local values, reached, exact
  for depth = 2, alphabeta.DESCRIBED_DEPTH do
    local started = os.clock()
    local pass, all_exact, stopped = {}, true, false
    for i, c in ipairs(list) do
      local child = g:clone()
      child:apply(c.choice)
      local v
      if child:finished() then
        local winner = child:winner()
        v = winner == side and DESCRIBED_WIN * 100 or winner == "draw" and 0 or -DESCRIBED_WIN * 100
      else
        -- the first pass is whole, however long it takes within the budget
        local until_then = depth > 2 and deadline or hard
        local time = until_then and math.max(until_then - os.clock(), 0.001) or nil
        local _, value, info = child.state.board:search { depth = depth - 1, time = time, tt_mb = 1,
                                                          values = normalised.values }
        if info.stopped then
          if depth == 2 then out_of_budget() end
          stopped = true
          break
        end
        v = child:to_move() == side and value or -value
        all_exact = all_exact and info.exact
      end
      pass[i] = v
    end
    if stopped then break end
    values, reached, exact = pass, depth, all_exact
    local took = os.clock() - started
    if exact or os.clock() + 3 * took > deadline then break end
  end
  local moves = {}
  for i, c in ipairs(list) do moves[i] = { move = c.move, value = values[i] / 100 } end
  return { by = ("alphabeta:depth=%d"):format(reached), unit = "pieces", depth = not exact and reached or nil,
           exact = exact, moves = moves }
end

-- Whether `rules` is Dots and Boxes as the built-in rule set plays it (the
-- same tree, score and winner): what the solver and dots_search value.
local function standard_dots(rules)
  if rules.family ~= "dots" then return false end
  local dots = rules_mod.load("dots")
  for _, hook in ipairs { "moves", "play", "pass", "can_pass", "undo", "finished", "score", "winner" } do
    if rules[hook] ~= dots[hook] then return false end
  end
  return true
end

-- Dots and Boxes: every open edge valued by the exact solver where the
-- grid is small enough and it finishes within half the time, else by
-- dots_search's engine, deepened a ply at a time while the time allows.
-- Values: the final box margin of the side to move (the boxes it owns
-- now counted).
local function by_dots(g)
  local d = g:board()
  local a, b = d:score()
  local margin = d:turn() == 1 and a - b or b - a
  local open = d:open_edges()
  local list = choice_list(g)
  local deadline, hard = deadlines(study.ANALYSIS_SECONDS)
  local function answer(values, by, depth, exact)
    local moves = {}
    for i, c in ipairs(list) do moves[i] = { move = c.move, value = margin + values[i] } end
    return { by = by, unit = "boxes", depth = depth, exact = exact, moves = moves }
  end
  if d:edge_count() <= core.dots_solver_max_edges then
    local solver = core.dots_solver { tt_mb = 16 }
    local solver_until = os.clock() + (deadline - os.clock()) / 2
    local values = {}
    for i, edge in ipairs(open) do
      local child = d:clone()
      local k = child:draw(edge)
      local v = 0
      if not child:finished() then
        v = solver:value(child, { time = math.max(solver_until - os.clock(), 0.001) })
        if not v then break end
        if child:turn() ~= d:turn() then v = -v end
      end
      values[i] = k + v
    end
    solver:close()
    if #values == #open then return answer(values, "solver", nil, true) end
  end
  local chains = require "boardscript.ai.dots_chains"
  local dots_engine = require "boardscript.ai.dots_engine"
  local dots_search = require "boardscript.ai.dots_search"
  local geo = chains.geometry(d:rows(), d:cols())
  local S = dots_engine.new(geo, {}, math.max(2, math.min(8, 400 // geo.E)))
  S.load(d)
  local numbers = {}
  for i, edge in ipairs(open) do numbers[i] = chains.edge_number(geo, edge) end
  local values, reached, exact
  for depth = 1, dots_search.TIMED_DEPTH do
    local started, guesses = os.clock(), S.guesses()
    S.limit(depth > 1 and deadline or hard, nil) -- the first pass is whole, within the budget
    local pass = {}
    for i, e in ipairs(numbers) do
      local _, v = S.root({ e }, depth)
      if S.stopped() then break end
      pass[i] = v
    end
    if #pass < #numbers then
      if depth == 1 then out_of_budget() end
      break
    end
    values, reached, exact = pass, depth, S.guesses() == guesses
    local took = os.clock() - started
    if exact or os.clock() + 3 * took > deadline then break end
  end
  return answer(values, ("dots_search:depth=%d"):format(reached), not exact and reached or nil, exact)
end

-- Any other rule set: random playouts (over its hooks, as mcts's) from
-- each choice, as many from each, a round at a time while the time allows
-- (at most study.ANALYSIS_PLAYOUTS rounds). Values: the share the side to
-- move wins (a draw half), 0..1; a choice that ends the game is valued by
-- its result.
local function by_playouts(g)
  local mcts = require "boardscript.ai.mcts"
  local r = g.rules
  local side = g:to_move()
  local list = choice_list(g)
  local children, wins, decided = {}, {}, {}
  for i, c in ipairs(list) do
    local child = g:clone()
    child:apply(c.choice)
    children[i], wins[i] = child, 0
    if child:finished() then
      local winner = child:winner()
      decided[i] = winner == side and 1 or winner == "draw" and 0.5 or 0
    end
  end
  local rng = core.rng(1) -- the same position, the same playouts
  local deadline = deadlines(study.ANALYSIS_SECONDS)
  local rounds = 0
  repeat
    for i, child in ipairs(children) do
      if not decided[i] then
        local s = r:clone(child.state)
        mcts.playout(r, s, rng, mcts.playout_limit(s))
        local winner = r:winner(s)
        wins[i] = wins[i] + (winner == side and 1 or winner == "draw" and 0.5 or 0)
      end
    end
    rounds = rounds + 1
  until rounds >= study.ANALYSIS_PLAYOUTS or os.clock() >= deadline
  local moves, all_decided = {}, true
  for i, c in ipairs(list) do
    local value = decided[i] or math.floor(1000 * wins[i] / rounds + 0.5) / 1000
    all_decided = all_decided and decided[i] ~= nil
    moves[i] = { move = c.move, value = value }
  end
  return { by = ("random playouts, %d from each move"):format(rounds), unit = "win rate", exact = all_decided,
           moves = moves }
end

--- The value of every choice in game `g` (not finished): { by = the policy
-- or method, unit = what the values count ("discs", "boxes", "pieces",
-- "win rate"), depth = plies searched (nil for playouts and the solver),
-- exact = whether every value is the game's result with best play (then
-- no depth), moves = { { move = its text ("pass" where passing is
-- a choice), value = for the side to move }, best first, ties in the
-- order of the choices }, value = the best one's, side = the side to move
-- }. The C searcher where it searches the rule set (alphabeta, depth by
-- study.analysis_depth); a described game's searcher; in Dots and Boxes
-- the solver or dots_search; else random playouts. `g` is not changed.
function study.analyse(g)
  local rules = g.rules
  g = g:clone()
  local result
  if rules_mod.searched_in_core(rules) then
    result = by_alphabeta(g)
  elseif describe.in_core(rules) then
    result = by_described(g)
  elseif core.type(g:board()) == "dots" and standard_dots(rules) then
    result = by_dots(g)
  elseif players.plays(players.load("mcts", rules), rules) then
    result = by_playouts(g)
  else
    errors.fail("no built-in policy values the moves of this rule set")
  end
  local order = {}
  for i, m in ipairs(result.moves) do order[m] = i end
  table.sort(result.moves, function(x, y)
    if x.value ~= y.value then return x.value > y.value end
    return order[x] < order[y]
  end)
  result.value = result.moves[1] and result.moves[1].value
  result.side = g:to_move()
  return result
end

--- The value of every legal move in session `id` as it stands (see
-- study.analyse for the answer's fields), or nil and why
-- ("the game is over"). It is computed in a worker, within the server's
-- budget, and answered as JSON text; the game does not change. The answer
-- is kept until the game changes: asked again (the page, then the API, or
-- two tabs) it is the same analysis, not another that the clock cut at
-- another depth.
function Store:analysis(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  local g = s.g
  if g:finished() then return nil, "the game is over" end
  local kept, version = s.analysis, s.version
  local answer = kept and kept.g == g and kept.version == version and kept.text
  if not answer then
    local err, busy
    answer, err, busy = self.pool:run(function()
      return json.encode(study.analyse(g))
    end)
    if not answer then return nil, err, busy and "full" or nil end
  end
  local value = json.decode(answer)
  if type(value) ~= "table" or type(value.moves) ~= "table" then
    self.log("analysis: a worker's answer is not an analysis")
    return nil, worker.INTERNAL
  end
  if s.g == g and s.version == version then s.analysis = { g = g, version = version, text = answer } end
  return value
end

return study
