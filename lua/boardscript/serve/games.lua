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
-- nil and a message for the page (and "busy" as a third value when the
-- game's AI is thinking, or no worker is free); the session is left as it
-- was. No message of the server's own errors reaches the page: they go to
-- the store's log.
--
-- The thinking (an AI's move, a hint, a match step, a study's
-- evaluations) is done by a pool of boardscript.serve.worker: in worker
-- processes under the server, which hand back the move as text, played
-- here through the rule set's notation as a human's is. A session holds no
-- searcher: the policies of its seats make theirs in the worker, and a
-- session dropped or started again closes whatever its seats hold.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local game_mod = require "boardscript.game"
local players = require "boardscript.players"
local record = require "boardscript.record"
local rules_mod = require "boardscript.rules"
local levels = require "boardscript.serve.levels"
local session = require "boardscript.serve.session"
local study = require "boardscript.serve.study"
local view = require "boardscript.serve.view"
local watch = require "boardscript.serve.watch"
local worker = require "boardscript.serve.worker"

local found_host, host = pcall(require, "boardscript.host")
if not found_host or type(host) ~= "table" or not host.memory then host = nil end

local games = {}

--- The most sessions a store keeps by default; the oldest idle one goes
-- to make room for a new one.
games.MAX_GAMES = 200

local Store = {}
Store.__index = Store

--- The largest transposition table (MiB) a page may ask a policy for
-- (`tt_mb`): more is refused, not cut down.
games.MAX_TT_MB = 64

--- A new store. opts: `files` (rule set files named at start), `evals`
-- (evaluation files named at start), `max_games` (default games.MAX_GAMES),
-- `seed` (of the first game; each game takes the next), `pool` (a
-- boardscript.serve.worker pool; default: one of its defaults), `log`
-- (function(text): the server's own errors; default: none), `max_bytes`
-- (the Lua heap the games may fill: past it, the games used longest ago
-- are dropped to make room; default: no such bound).
function games.new_store(opts)
  opts = opts or {}
  local log = opts.log or function() end
  local self = setmetatable({ sessions = {}, count = 0, next_id = 1, clock = 0,
                              max_games = opts.max_games or games.MAX_GAMES, log = log, max_bytes = opts.max_bytes,
                              pool = opts.pool or worker.new_pool { log = log },
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
    offer(session.base_name(path), path, "file")
  end
  for _, path in ipairs(opts.evals or {}) do self.evals[path] = true end
  return self
end

-- The sides of a loaded rule set as a page names them: { { side =, name = }, ... }.
local function side_texts(rules)
  local out = {}
  for i, side in ipairs(rules.sides or {}) do
    local ok, name = pcall(rules.side_name, rules, side)
    out[i] = { side = tostring(side), name = ok and type(name) == "string" and name or tostring(side) }
  end
  return out
end

--- The rule sets offered: a list of { name =, kind = "built-in" | "example"
-- | "file", family =, options = { key = { type =, default =, min =, max =,
-- choices = } }, players = { built-in policy names that play it }, levels
-- = boardscript.serve.levels.for_policies, sides = { { side =, name = } },
-- description = the rule set's own text or nil }.
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
      local names = players.builtin_for(rules)
      out[#out + 1] = { name = name, kind = entry.kind, family = rules.family or "board", options = options,
                        players = names, levels = levels.for_policies(names),
                        sides = side_texts(rules), description = type(rules.description) == "string"
                          and rules.description or nil }
    end
  end
  self.catalogue = out
  return out
end

-- Calls f(...) catching user errors (and any other error, logged): true
-- and f's results, or nil and the message for the page.
function Store:guarded(f, ...)
  local r = table.pack(pcall(f, ...))
  if r[1] then return true, table.unpack(r, 2, r.n) end
  return nil, session.failure_text(self.log, r[2])
end

-- Checks a player spec from a request: human, or a built-in policy whose
-- `eval` option names no file but one the server was started with and
-- whose `tt_mb` is at most games.MAX_TT_MB. `where` names it in messages.
function Store:check_player(spec, where)
  where = where or "player"
  if spec == "human" or spec == "" then return "human" end
  if type(spec) ~= "string" then
    return nil, ("%s: expected a text, human or a built-in policy (got %s)"):format(where, session.quoted(spec))
  end
  if #spec > 200 then return nil, where .. ": too long" end
  local name, text = players.split_spec(spec)
  if not players.BUILTIN[name] then
    return nil, ("%s '%s': a built-in policy is expected (%s); policy files are not taken from the page")
      :format(where, spec, table.concat(self:policy_names(), ", "))
  end
  for item in ((text or "") .. ","):gmatch("([^,]*),") do
    local key, value = item:match("^%s*([%w_]+)%s*=(.*)$")
    if key == "eval" and value ~= "hand" and value ~= "shipped" and not self.evals[value] then
      return nil, ("%s '%s': eval=%s is not an evaluation this server offers (hand, shipped%s)")
        :format(where, spec, value, next(self.evals) and ", or a file named at start" or "")
    end
    local mb = key == "tt_mb" and tonumber(value)
    if mb and mb > games.MAX_TT_MB then
      return nil, ("%s '%s': tt_mb is at most %d on this server"):format(where, spec, games.MAX_TT_MB)
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

-- Frees what session `s` holds in C (its seats' tables, a match's
-- searcher) now, not at the collector's whim.
local function close_session(s)
  session.close_seats(s.seats)
  local mt = s.match
  if mt then
    session.close_seats(mt.m.seats)
    session.close_seats(mt.game and mt.game.seat)
    session.close_opening_searcher(mt.m)
  end
end

-- The bytes the Lua heap holds: the host's count (boardscript.host), else
-- the collector's.
local function heap_bytes()
  if host then return host.memory() end
  return math.floor(collectgarbage("count") * 1024)
end

-- Whether the Lua heap holds more than the store's `max_bytes` (after a
-- full collection, made only when it seems to).
function Store:over_memory()
  if not self.max_bytes or heap_bytes() <= self.max_bytes then return false end
  collectgarbage()
  return heap_bytes() > self.max_bytes
end

-- Drops the sessions used longest ago, closing them, while the store is
-- full or the heap over its bytes.
function Store:make_room()
  while self.count > 0 and (self.count >= self.max_games or self:over_memory()) do
    local oldest
    for id, s in pairs(self.sessions) do
      if not oldest or s.used < self.sessions[oldest].used then oldest = id end
    end
    local s = self.sessions[oldest]
    self.sessions[oldest] = nil
    self.count = self.count - 1
    close_session(s)
  end
end

-- Keeps session `s` (room made first): its new id.
function Store:add(s)
  self:make_room()
  local id = tostring(self.next_id)
  self.next_id = self.next_id + 1
  self.clock = self.clock + 1
  s.id, s.used = id, self.clock
  self.sessions[id] = s
  self.count = self.count + 1
  return id
end

-- The entry offered for a request's `rules` (default reversi), or nil and why.
function Store:offer(name)
  if name ~= nil and type(name) ~= "string" then
    return nil, ("rules: expected the name of a rule set (got %s)"):format(session.quoted(name))
  end
  local entry = self.offered[name or "reversi"]
  if entry then return entry end
  return nil, ("unknown rule set '%s' (offered: %s)"):format(session.quoted(name), table.concat(self.order, ", "))
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
-- the rule set's: black/white), seed = integer, moves = { texts } (played
-- first: a game from a position, as a study's "play from here" asks) }.
-- Returns the id, or nil and the message.
function Store:create(params)
  if type(params) ~= "table" then return nil, "expected a JSON object" end
  local entry, unknown = self:offer(params.rules)
  if not entry then return nil, unknown end
  local options, bad = session.option_texts(params)
  if not options then return nil, bad end
  if params.players ~= nil and (type(params.players) ~= "table"
      or (getmetatable(params.players) or {}).__jsontype == "array") then
    return nil, "players: expected an object { side = human or a policy }"
  end
  local seed = math.tointeger(params.seed) or self.seed
  self.seed = self.seed + 1
  local ok, rules = self:guarded(rules_mod.load, entry.source)
  if not ok then return nil, rules end
  local sides = {}
  for _, side in ipairs(rules.sides or {}) do sides[#sides + 1] = tostring(side) end
  local seats_given = {}
  for side, spec in pairs(params.players or {}) do
    local known = false
    for _, name in ipairs(sides) do known = known or name == side end
    if not known then
      return nil, ("players: %s has no side %s (its sides: %s)"):format(entry.name,
        type(side) == "string" and "'" .. session.quoted(side) .. "'" or session.quoted(side),
        table.concat(sides, ", "))
    end
    local checked, why = self:check_player(spec, "player for " .. side)
    if not checked then return nil, why end
    seats_given[side] = checked
  end
  local typed = {}
  for key, text in pairs(options) do
    local parsed_ok, value = self:guarded(rules_mod.parse_option, rules, key, text)
    if not parsed_ok then return nil, value end
    typed[key] = value
  end
  local p = { options = typed, players = seats_given, texts = options }
  local made, g, seats = self:guarded(start, entry, p, seed)
  if not made then return nil, g end
  if params.moves ~= nil then
    local replayed, why = self:guarded(session.replay, g, params.moves)
    if not replayed then return nil, why end
  end
  return self:add { entry = entry, params = p, seed = seed, g = g, seats = seats, version = 0 }
end

--- The session `id`, or nil and "no game ID".
function Store:get(id)
  local s = self.sessions[tostring(id)]
  if not s then return nil, ("no game %s (it ended or the server dropped it)"):format(session.quoted(tostring(id))) end
  self.clock = self.clock + 1
  s.used = self.clock
  return s
end


--- The message of a request that would change a game whose AI is thinking.
games.THINKING = "the AI is thinking about this game; wait for its move"

-- The session `id` for a request that changes it: nil, why and "busy"
-- while its AI thinks.
function Store:idle(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  if s.thinking then return nil, games.THINKING, "busy" end
  return s
end

-- Runs `job` (a function returning text) for session `s` in a worker, the
-- session marked as thinking meanwhile: the text, or nil, why and
-- "busy" / "full" (no worker was free).
function Store:think(s, job)
  s.thinking = true
  local text, why, code = self.pool:run(job)
  s.thinking = nil
  if not text then return nil, why, code and "full" or nil end
  if self.sessions[s.id] ~= s then return nil, ("game %s was dropped while the AI thought"):format(s.id) end
  return text
end

--- Marks session `s` changed: its view's `version` goes up, so a page
-- showing it (another tab) knows to fetch it again.
function Store:changed(s)
  s.version = (s.version or 0) + 1
end

-- The message of a game one side resigned, or nil.
local function resigned_text(s)
  if s.resigned == nil then return nil end
  return ("the game is over: %s resigned"):format(s.g:side_name(s.resigned))
end

-- Runs `action(g, s)` on session `id` as one step: on failure the game is
-- as it was (a clone is worked on and kept only on success). `after_resign`
-- true: the step may follow a resignation (and takes it back).
function Store:step(id, action, after_resign)
  local s, why, code = self:idle(id)
  if not s then return nil, why, code end
  if s.study then return nil, "a study: step through it (goto), or start a game to play" end
  if s.match then return nil, "a match: its players move (step), or start a game to play" end
  if not after_resign and s.resigned ~= nil then return nil, resigned_text(s) end
  local work = s.g:clone()
  local ok, err = self:guarded(action, work, s)
  if not ok then return nil, err end
  s.g, s.resigned = work, nil
  self:changed(s)
  return self:view(id)
end

--- Plays the human move `text` (the rule set's notation) in session `id`;
-- "pass" passes (Store:pass). Returns the view, or nil and why not.
function Store:move(id, text)
  if type(text) ~= "string" or #text > 100 then return nil, "move: expected the move's text" end
  if text:match("^%s*[Pp][Aa][Ss][Ss]%s*$") then return self:pass(id) end
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

--- Resigns the game of session `id` for `side` (a side's name as the view's
-- `sides` has it), or when nil for its human player (the one to move, or
-- the only one): the other side wins. Undo or New game take it back.
function Store:resign(id, side)
  local s, why, code = self:idle(id)
  if not s then return nil, why, code end
  if s.study or s.match then return nil, "only a game being played can be resigned" end
  if s.resigned ~= nil then return nil, resigned_text(s) end
  local g = s.g
  if g:finished() then return nil, "the game is over" end
  local humans = {}
  for _, each in ipairs(g.rules.sides) do
    if s.seats[each] == nil then humans[#humans + 1] = each end
  end
  local who
  if side ~= nil then
    for _, each in ipairs(humans) do
      if tostring(each) == tostring(side) then who = each end
    end
    if who == nil then return nil, ("side: %s is not a human player of this game"):format(session.quoted(side)) end
  elseif s.seats[g:to_move()] == nil then
    who = g:to_move()
  elseif #humans == 1 then
    who = humans[1]
  else
    return nil, "no human player to resign for"
  end
  s.resigned = who
  self:changed(s)
  return self:view(id)
end

--- Plays one move of the AI to move in session `id` (the page calls it
-- while an AI is to move, so a game between two policies can be watched).
-- The move is chosen in a worker; meanwhile the game is `thinking` and
-- requests that would change it are refused ("busy").
function Store:ai(id)
  local s, why, code = self:idle(id)
  if not s then return nil, why, code end
  if s.study or s.match then return self:step(id) end -- refused there, with the reason
  local g = s.g
  local player = s.seats[g:to_move()]
  if s.resigned ~= nil then return nil, resigned_text(s) end
  if g:finished() then return nil, "the game is over" end
  if not player then return nil, ("%s is human"):format(g:side_name()) end
  local answer, err, busy = self:think(s, function()
    return session.move_answer(g, players.choose(player, g))
  end)
  if not answer then return nil, err, busy end
  return self:step(id, function(work) session.play_answer(work, answer) end)
end

--- Takes back the last move, and the AI's moves after the last human one,
-- so a human is to move again (or to the start).
function Store:undo(id)
  return self:step(id, function(g, s)
    if s.resigned ~= nil then return end -- takes back the resignation only
    if #g.log == 0 then errors.fail("nothing to take back") end
    repeat
      g:undo()
    until #g.log == 0 or (s.seats[g:to_move()] == nil)
  end, true)
end

--- Starts session `id` again, same rules, options and players, the next seed.
function Store:restart(id)
  local s, why, code = self:idle(id)
  if not s then return nil, why, code end
  if s.study or s.match then return nil, "restart plays a game again; start a new study or match instead" end
  local seed = self.seed
  self.seed = self.seed + 1
  local ok, g, seats = self:guarded(start, s.entry, s.params, seed)
  if not ok then return nil, g end
  session.close_seats(s.seats)
  s.g, s.seats, s.seed, s.resigned = g, seats, seed, nil
  self:changed(s)
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
  if not supported then return nil, "GGF: " .. (type(why_not) == "string" and why_not or "not supported") end
  local ok, out = self:guarded(ggf_mod.text, s.g, { players = players_spec })
  if not ok then return nil, out end
  return out, ("game-%s.ggf"):format(s.id)
end

-- The studies and hints (boardscript.serve.study), the watched matches
-- (boardscript.serve.watch) and the views (boardscript.serve.view) are the
-- store's methods too.
for _, part in ipairs { study, watch, view } do
  for name, method in pairs(part.methods) do Store[name] = method end
end

--- The most games a watched match plays.
games.MAX_MATCH_GAMES = watch.MAX_MATCH_GAMES
games.chart_depth, games.adviser = study.chart_depth, study.adviser

return games
