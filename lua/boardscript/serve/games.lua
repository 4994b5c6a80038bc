--- The games `boardscript serve` keeps: a bounded store of sessions, each a
-- game with its two seats, played by the requests of a page (no HTTP
-- here: boardscript.serve.api turns requests into these calls). A session
-- is made from a rule set the server offers (a built-in, an example, or a
-- file named when the server started: no path from a request is ever
-- opened), its size and options, and a player for each side: human or a
-- built-in policy with options (`alphabeta:depth=6`), whose `eval` may name
-- only `hand`, `shipped` or an evaluation file named at start.
--
-- Every failure of a request (an unknown rule set, a bad option, an
-- illegal move, a policy that fails or runs out of budget) comes back as
-- nil and a message for the page; the session is left as it was.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local game_mod = require "boardscript.game"
local players = require "boardscript.players"
local record = require "boardscript.record"
local rules_mod = require "boardscript.rules"
local game_pictures = require "boardscript.render.game"
local match_mod = require "boardscript.match"
local report = require "boardscript.match_report"
local svg = require "boardscript.render.svg"

local games = {}

--- The most sessions a store keeps by default; the oldest idle one goes
-- to make room for a new one.
games.MAX_GAMES = 200

local Store = {}
Store.__index = Store

local match_summary -- the summary lines of a watched match (below)

-- A file's name without its directory and `.lua`.
local function base_name(path)
  return (path:match("([^/]+)$") or path):gsub("%.lua$", "")
end

--- A new store. opts: `files` (rule set files named at start), `evals`
-- (evaluation files named at start), `max_games` (default games.MAX_GAMES),
-- `seed` (of the first game; each game takes the next).
function games.new_store(opts)
  opts = opts or {}
  local self = setmetatable({ sessions = {}, count = 0, next_id = 1, clock = 0,
                              max_games = opts.max_games or games.MAX_GAMES,
                              seed = opts.seed or 1, offered = {}, order = {}, evals = {} }, Store)
  local function offer(name, source, kind)
    if self.offered[name] then return end
    self.offered[name] = { name = name, source = source, kind = kind }
    self.order[#self.order + 1] = name
  end
  for _, name in ipairs(rules_mod.builtin_names()) do offer(name, name, "built-in") end
  for _, example in ipairs(rules_mod.examples()) do offer(example.name, example.path, "example") end
  for _, path in ipairs(opts.files or {}) do
    rules_mod.load(path) -- a broken file stops the server at start, with its message
    offer(base_name(path), path, "file")
  end
  for _, path in ipairs(opts.evals or {}) do self.evals[path] = true end
  return self
end

--- The rule sets offered: a list of { name =, kind = "built-in" | "example"
-- | "file", family =, options = { key = { type =, default =, min =, max =,
-- choices = } }, players = { built-in policy names that play it } }.
function Store:rule_sets()
  if self.catalogue then return self.catalogue end -- what is offered is fixed at start
  local out = {}
  for _, name in ipairs(self.order) do
    local entry = self.offered[name]
    local ok, rules = pcall(rules_mod.load, entry.source)
    if ok then
      local options = {}
      for key, spec in pairs(rules.options or {}) do
        local default = rules[key]
        if default == nil then default = spec.default end
        options[key] = { type = spec.type or "string", default = default, min = spec.min, max = spec.max,
                         even = spec.even, choices = spec.choices, help = spec.help }
      end
      out[#out + 1] = { name = name, kind = entry.kind, family = rules.family or "board", options = options,
                        players = players.builtin_for(rules) }
    end
  end
  self.catalogue = out
  return out
end

-- Calls f(...) catching user errors (and any other error, as a message):
-- true and f's results, or nil and the message.
local function guarded(f, ...)
  local r = table.pack(pcall(f, ...))
  if r[1] then return true, table.unpack(r, 2, r.n) end
  local err = r[2]
  if errors.is_user(err) then return nil, err.message end
  return nil, tostring(err)
end

-- Checks a player spec from a request: human, or a built-in policy whose
-- `eval` option names no file but one the server was started with.
function Store:check_player(spec)
  if type(spec) ~= "string" or spec == "" or spec == "human" then return "human" end
  if #spec > 200 then return nil, "player: too long" end
  local name, text = players.split_spec(spec)
  if not players.BUILTIN[name] then
    return nil, ("player '%s': a built-in policy is expected (%s); policy files are not taken from the page")
      :format(spec, table.concat(self:policy_names(), ", "))
  end
  for item in ((text or "") .. ","):gmatch("([^,]*),") do
    local key, value = item:match("^%s*([%w_]+)%s*=(.*)$")
    if key == "eval" and value ~= "hand" and value ~= "shipped" and not self.evals[value] then
      return nil, ("player '%s': eval=%s is not an evaluation this server offers (hand, shipped%s)")
        :format(spec, value, next(self.evals) and ", or a file named at start" or "")
    end
  end
  return spec
end

--- The built-in policy names, sorted.
function Store:policy_names()
  local names = {}
  for name in pairs(players.BUILTIN) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- Drops the session used longest ago when the store is full.
function Store:make_room()
  if self.count < self.max_games then return end
  local oldest
  for id, s in pairs(self.sessions) do
    if not oldest or s.used < self.sessions[oldest].used then oldest = id end
  end
  self.sessions[oldest] = nil
  self.count = self.count - 1
end

-- Keeps `session` (room made first): its new id.
function Store:add(session)
  self:make_room()
  local id = tostring(self.next_id)
  self.next_id = self.next_id + 1
  self.clock = self.clock + 1
  session.id, session.used = id, self.clock
  self.sessions[id] = session
  self.count = self.count + 1
  return id
end

-- The entry offered for a request's `rules` (default reversi), or nil and why.
function Store:offer(name)
  local entry = self.offered[name or "reversi"]
  if entry then return entry end
  return nil, ("unknown rule set '%s' (offered: %s)"):format(tostring(name), table.concat(self.order, ", "))
end

-- A request's size and options as option texts ({ key = text }; RxC is
-- rows and cols), or nil and why.
local function option_texts(params)
  local texts = {}
  for key, value in pairs(type(params.options) == "table" and params.options or {}) do
    if type(key) ~= "string" or (type(value) ~= "string" and type(value) ~= "number" and type(value) ~= "boolean") then
      return nil, "options: expected key = value pairs"
    end
    if value ~= "" then texts[key] = tostring(value) end
  end
  if params.size ~= nil and params.size ~= "" then
    local size = tostring(params.size)
    local rows, cols = size:match("^(%d+)[xX](%d+)$")
    if rows then texts.rows, texts.cols = rows, cols else texts.size = size end
  end
  return texts
end

-- Makes the game of session settings `p`: the game and its seats.
local function start(entry, p, seed)
  local g = game_mod.new(entry.source, p.options, core.rng(seed))
  local seats = {}
  for _, side in ipairs(g.rules.sides) do
    local spec = p.players[tostring(side)] or "human"
    if spec ~= "human" then
      local player = players.load(spec, g.rules)
      if not players.plays(player, g.rules) then
        errors.fail(("player '%s' does not play %s"):format(spec, entry.name))
      end
      seats[side] = player
    end
  end
  return g, seats
end

--- Makes a session. params: { rules = a name offered, size = text or
-- number, options = { key = text }, players = { [side] = spec } (sides
-- the rule set's: black/white), seed = integer }. Returns the id, or nil and
-- the message.
function Store:create(params)
  if type(params) ~= "table" then return nil, "expected a JSON object" end
  local entry, unknown = self:offer(params.rules)
  if not entry then return nil, unknown end
  local options, bad = option_texts(params)
  if not options then return nil, bad end
  local seats_given = {}
  for side, spec in pairs(type(params.players) == "table" and params.players or {}) do
    local checked, why = self:check_player(spec)
    if not checked then return nil, why end
    seats_given[tostring(side)] = checked
  end
  local seed = math.tointeger(params.seed) or self.seed
  self.seed = self.seed + 1
  local ok, rules = guarded(rules_mod.load, entry.source)
  if not ok then return nil, rules end
  local typed = {}
  for key, text in pairs(options) do
    local parsed_ok, value = guarded(rules_mod.parse_option, rules, key, text)
    if not parsed_ok then return nil, value end
    typed[key] = value
  end
  local p = { options = typed, players = seats_given }
  local made, g, seats = guarded(start, entry, p, seed)
  if not made then return nil, g end
  return self:add { entry = entry, params = p, seed = seed, g = g, seats = seats }
end

--- The session `id`, or nil and "no game ID".
function Store:get(id)
  local s = self.sessions[tostring(id)]
  if not s then return nil, ("no game %s (it ended or the server dropped it)"):format(tostring(id)) end
  self.clock = self.clock + 1
  s.used = self.clock
  return s
end

-- The text of a move or pass of the log.
local function entry_text(e)
  return e.pass and "pass" or e.text or "?"
end

--- What the page shows of session `id`: { id =, rules =, size =, svg =,
-- to_move =, side_name =, finished =, winner =, score = { a, b }, sides =,
-- players = { [side] = spec }, human_to_move =, can_pass =, moves = { texts
-- of the legal moves }, log = { texts }, result = the record's result line }.
function Store:view(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  local ok, view = guarded(self.describe, self, s)
  if not ok then return nil, view end
  return view
end

-- The view of session `s` (a rule set file's hook may fail in it).
function Store:describe(s)
  local g = s.g
  local picture
  if s.study then
    local st = s.study
    local _, numbers, last = game_pictures.position(st.start, st.entries, st.ply, true)
    picture = svg.picture(g, { numbers = numbers, last = last or false, cells = true,
      title = ("%s, move %d of %d"):format(svg.describe(g), st.ply, #st.entries),
      charts = game_pictures.charts(st.start, st.entries, st.evals, st.eval_title, st.ply) })
  else
    picture = svg.picture(g, { cells = true })
  end
  local sides = { g:sides() }
  local a, b = g:score()
  local finished = g:finished()
  local moves = {}
  if not finished then
    for _, m in ipairs(g:moves()) do moves[#moves + 1] = g:move_text(m) end
  end
  local log = {}
  for i, e in ipairs(g.log) do log[i] = entry_text(e) end
  local players_shown = {}
  for _, side in ipairs(sides) do
    players_shown[tostring(side)] = s.seats[side] and s.seats[side].name or "human"
  end
  local to_move = g:to_move()
  return {
    id = s.id, rules = s.entry.name, size = g:size_text(), svg = picture, sides = sides,
    to_move = to_move, side_name = g:side_name(to_move), finished = finished,
    winner = finished and tostring(g:winner()) or nil, score = { a, b }, players = players_shown,
    human_to_move = not finished and s.seats[to_move] == nil, can_pass = not finished and g:can_pass(),
    moves = moves, log = log, result = record.result(g),
    study = s.study and { ply = s.study.ply, plies = #s.study.entries, moves = s.study.texts } or nil,
    match = s.match and { game = s.match.game.index, games = s.match.info.games, done = s.match.done,
                          a = s.match.info.a, b = s.match.info.b, lines = s.match.lines,
                          summary = match_summary(s.match, s.seed) } or nil,
  }
end

-- Runs `action(s)` on session `id` as one step: on failure the game is as
-- it was (a clone is worked on and kept only on success).
function Store:step(id, action)
  local s, why = self:get(id)
  if not s then return nil, why end
  if s.study then return nil, "a study: step through it (goto), or start a game to play" end
  if s.match then return nil, "a match: its players move (step), or start a game to play" end
  local work = s.g:clone()
  local ok, err = guarded(action, work, s)
  if not ok then return nil, err end
  s.g = work
  return self:view(id)
end

--- Plays the human move `text` (the rule set's notation) in session `id`.
-- Returns the view, or nil and why not.
function Store:move(id, text)
  if type(text) ~= "string" or #text > 100 then return nil, "move: expected the move's text" end
  return self:step(id, function(g, s)
    if g:finished() then errors.fail("the game is over") end
    if s.seats[g:to_move()] then errors.fail(("it is %s's turn (an AI)"):format(g:side_name())) end
    local move = g:parse_move(text)
    if move == nil then errors.fail(("'%s' is not a move here"):format(text)) end
    local checked, problem, detail = g:check(move)
    if not checked then
      errors.fail(("%s is %s%s"):format(text, problem == "illegal" and "not a legal move" or "malformed",
        detail and (" (" .. detail .. ")") or ""))
    end
    g:play(checked)
  end)
end

--- Passes for the human to move in session `id`, where the rules allow it.
function Store:pass(id)
  return self:step(id, function(g, s)
    if g:finished() then errors.fail("the game is over") end
    if s.seats[g:to_move()] then errors.fail(("it is %s's turn (an AI)"):format(g:side_name())) end
    if not g:can_pass() then errors.fail(("%s has a move and may not pass"):format(g:side_name())) end
    g:pass()
  end)
end

--- Plays one move of the AI to move in session `id` (the page calls it
-- while an AI is to move, so a game between two policies can be watched).
function Store:ai(id)
  return self:step(id, function(g, s)
    if g:finished() then errors.fail("the game is over") end
    local player = s.seats[g:to_move()]
    if not player then errors.fail(("%s is human"):format(g:side_name())) end
    local move = players.choose(player, g)
    if move == "pass" then g:pass() else g:play(move) end
  end)
end

--- Takes back the last move, and the AI's moves after the last human one,
-- so a human is to move again (or to the start).
function Store:undo(id)
  return self:step(id, function(g, s)
    if #g.log == 0 then errors.fail("nothing to take back") end
    repeat
      g:undo()
    until #g.log == 0 or (s.seats[g:to_move()] == nil)
  end)
end

--- Starts session `id` again, same rules, options and players, the next seed.
function Store:restart(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  if s.study or s.match then return nil, "restart plays a game again; start a new study or match instead" end
  local seed = self.seed
  self.seed = self.seed + 1
  local ok, g, seats = guarded(start, s.entry, s.params, seed)
  if not ok then return nil, g end
  s.g, s.seats, s.seed = g, seats, seed
  return self:view(id)
end

--- The record of session `id` (the project's format): the text and a file
-- name for it; `ggf` true: GGF, for 8 x 8 Reversi only.
function Store:record(id, ggf)
  local s, why = self:get(id)
  if not s then return nil, why end
  local players_spec = {}
  for _, side in ipairs(s.g.rules.sides) do players_spec[side] = s.seats[side] and s.seats[side].name or "human" end
  local text = record.text(s.g, { rules = s.entry.source:match("%.lua$") and s.entry.name .. ".lua"
                                    or s.entry.source, seed = s.seed, players = players_spec })
  if not ggf then return text, ("game-%s.txt"):format(s.id) end
  local ggf_mod = require "boardscript.formats.ggf"
  local supported, why_not = ggf_mod.supports(s.g)
  if not supported then return nil, "GGF: " .. tostring(why_not) end
  local ok, out = guarded(ggf_mod.text, s.g, { players = players_spec })
  if not ok then return nil, out end
  return out, ("game-%s.ggf"):format(s.id)
end

--- The depth of the evaluation chart of a study, by board size.
function games.chart_depth(n)
  return n <= 8 and 4 or n <= 12 and 2 or 1
end

-- The rule set a record names, among those offered (by name, or a file
-- offered under that file's name): the offer, or a user error.
function Store:offer_for(name)
  local entry = self.offered[name] or self.offered[base_name(tostring(name))]
  if not entry then
    errors.fail(("the record's rule set '%s' is not one this server offers (%s)"):format(tostring(name),
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
  local where = "the file"
  local ok, first, entries, evals = guarded(function()
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
    local depth = games.chart_depth(first:board():size())
    local made, values = guarded(game_pictures.evaluations, first, entries, depth)
    if made then
      evals = values
      title = ("Evaluation (%s's margin, discs; alphabeta depth %d)"):format(first:side_name(first.rules.sides[1]),
        depth)
    end
  end
  if title == nil then evals = nil end
  local texts = {}
  for k, e in ipairs(entries) do texts[k] = e.pass and "pass" or e.text end
  local name = first.source and self.offered[base_name(first.source)] and base_name(first.source)
    or tostring(first.rules.name)
  local g = game_pictures.position(first, entries, #entries, false)
  return self:add { entry = self.offered[name] or { name = name, source = name }, seats = {}, g = g,
                    study = { start = first, entries = entries, evals = evals, eval_title = title,
                              ply = #entries, texts = texts } }
end

--- Moves a study to the position after `ply` moves (0..the game's moves).
function Store:go_to(id, ply)
  local s, why = self:get(id)
  if not s then return nil, why end
  if not s.study then return nil, "not a study: goto steps through an opened record" end
  ply = math.tointeger(ply)
  if not ply or ply < 0 or ply > #s.study.entries then
    return nil, ("ply must be an integer from 0 to %d"):format(#s.study.entries)
  end
  local ok, g = guarded(game_pictures.position, s.study.start, s.study.entries, ply, false)
  if not ok then return nil, g end
  s.g, s.study.ply = g, ply
  return self:view(id)
end

--- The policy that suggests moves in `rules`: alphabeta 6 plies deep where
-- the C core searches the rule set, else the first built-in that plays it.
function games.adviser(rules)
  for _, spec in ipairs { "alphabeta:depth=6", "dots_search", "mcts:playouts=2000" } do
    local player = players.load(spec, rules)
    if players.plays(player, rules) then return player end
  end
  return nil
end

--- The AI's suggested move in session `id` as it stands: { move = text,
-- by = the policy } (move "pass" where passing is its choice), or nil and why.
function Store:hint(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  local ok, answer = guarded(function()
    local g = s.g
    if g:finished() then errors.fail("the game is over") end
    local player = games.adviser(g.rules)
    if not player then errors.fail("no built-in policy plays this rule set") end
    local move = players.choose(player, g)
    return { move = move == "pass" and "pass" or g:move_text(move), by = player.name }
  end)
  if not ok then return nil, answer end
  return answer
end

--- The most games a watched match plays.
games.MAX_MATCH_GAMES = 1000

--- Starts a match between two policies to watch: params { rules =, size =,
-- options =, a = spec, b = spec, games = N (default 2), seed = }. The
-- games are played one move per `match_step`, as `boardscript match`
-- plays them (openings, colours swapped, the same seeds). Returns the id,
-- or nil and why not.
function Store:create_match(params)
  if type(params) ~= "table" then return nil, "expected a JSON object" end
  local entry, unknown = self:offer(params.rules)
  if not entry then return nil, unknown end
  local specs = {}
  for _, which in ipairs { "a", "b" } do
    local spec, why = self:check_player(params[which])
    if not spec then return nil, why end
    if spec == "human" then return nil, ("%s: a match is between two policies, not a human"):format(which) end
    specs[which] = spec
  end
  local n = math.tointeger(params.games or 2)
  if not n or n < 1 or n > games.MAX_MATCH_GAMES then
    return nil, ("games must be an integer from 1 to %d"):format(games.MAX_MATCH_GAMES)
  end
  local texts, bad = option_texts(params)
  if not texts then return nil, bad end
  local seed = math.tointeger(params.seed) or self.seed
  self.seed = self.seed + 1
  local ok, m, game = guarded(function()
    local made = match_mod.new { rules = entry.source, texts = texts, a = specs.a, b = specs.b, games = n,
                                 seed = seed }
    return made, made:begin(1)
  end)
  if not ok then return nil, m end
  local info = {
    a = specs.a, b = specs.b, rules = entry.name, size = m.size_text, games = n, unit = m.unit,
    sides = { tostring(m.sides[1]), tostring(m.sides[2]) },
    side_names = { m.rules:side_name(m.sides[1]), m.rules:side_name(m.sides[2]) },
  }
  return self:add { entry = entry, seats = game.seat, g = game.g, seed = seed,
                    match = { m = m, game = game, tally = match_mod.tally(info.sides), info = info,
                              lines = {}, done = false } }
end

-- The match's summary as `boardscript match` prints it.
function match_summary(mt, seed)
  local names = {}
  for i, side in ipairs(mt.info.sides) do names[side] = mt.info.side_names[i] end
  local lines = { report.header(mt.info, seed) }
  for _, line in ipairs(match_mod.summary(mt.tally, mt.info, function(side) return names[side] or tostring(side) end,
    mt.info.unit)) do
    lines[#lines + 1] = line
  end
  return lines
end

--- One move of the match being watched in session `id` (or the start of
-- its next game): the view, or nil and why not.
function Store:match_step(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  local mt = s.match
  if not mt then return nil, "not a match: step plays a watched match" end
  if mt.done then return nil, "the match is over" end
  local ok, err = guarded(function()
    if mt.m:step(mt.game) then return end
    local r = mt.m:result(mt.game)
    match_mod.add(mt.tally, r)
    mt.lines[#mt.lines + 1] = report.game_line(r, mt.info)
    if mt.game.index >= mt.info.games then
      mt.done = true
    else
      mt.game = mt.m:begin(mt.game.index + 1)
      s.g, s.seats = mt.game.g, mt.game.seat
    end
  end)
  if not ok then
    mt.done = true
    mt.lines[#mt.lines + 1] = "The match stopped: " .. tostring(err)
    return nil, err
  end
  return self:view(id)
end

return games
