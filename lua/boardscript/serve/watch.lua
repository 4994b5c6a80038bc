--- Matches watched in `boardscript serve` (boardscript.serve.games
-- installs these methods on its store): two policies play one move per
-- request, in a worker, as `boardscript match` plays them.
local errors = require "boardscript.errors"
local match_mod = require "boardscript.match"
local report = require "boardscript.match_report"
local session = require "boardscript.serve.session"

local watch = {}

--- The store's methods defined here (Store:create_match, match_move, match_step).
watch.methods = {}
local Store = watch.methods

--- The most games a watched match plays.
watch.MAX_MATCH_GAMES = 1000

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
    local spec, why = self:check_player(params[which], which)
    if not spec then return nil, why end
    if spec == "human" then return nil, ("%s: a match is between two policies, not a human"):format(which) end
    specs[which] = spec
  end
  local n = math.tointeger(params.games or 2)
  if not n or n < 1 or n > watch.MAX_MATCH_GAMES then
    return nil, ("games must be an integer from 1 to %d"):format(watch.MAX_MATCH_GAMES)
  end
  local texts, bad = session.option_texts(params)
  if not texts then return nil, bad end
  local seed = math.tointeger(params.seed) or self.seed
  self.seed = self.seed + 1
  local ok, m, game = self:guarded(function()
    local made = match_mod.new { rules = entry.source, texts = texts, a = specs.a, b = specs.b, games = n,
                                 seed = seed }
    local first = made:begin(1)
    session.close_opening_searcher(made)
    return made, first
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

--- The summary of watched match `mt` (a session's `match`) as `boardscript match` prints it
-- (an Elo that is not yet finite said in words there, never inf or nan).
-- @tparam table mt the session's match
-- @tparam integer seed the session's seed
-- @treturn {string,...} the lines
function watch.summary(mt, seed)
  local names = {}
  for i, side in ipairs(mt.info.sides) do names[side] = mt.info.side_names[i] end
  local lines = { report.header(mt.info, seed) }
  for _, line in ipairs(match_mod.summary(mt.tally, mt.info, function(side) return names[side] or tostring(side) end,
    mt.info.unit)) do
    lines[#lines + 1] = line
  end
  return lines
end

-- Plays the next move of match `mt`'s game in a worker and applies it;
-- false once that game is over (finished, or forfeited).
function Store:match_move(s, mt)
  local game = mt.game
  local answer, err, busy = self:think(s, function()
    local copy = setmetatable({ g = game.g:clone() }, { __index = game }) -- step changes only the copy
    if mt.m:step(copy) then
      local last = copy.g.log[#copy.g.log]
      return "move\n" .. session.move_answer(copy.g, last.pass and "pass" or last.text)
    end
    if copy.forfeit then return ("forfeit\n%s\n%s"):format(tostring(copy.loser), copy.forfeit) end
    return "over\n"
  end)
  if not answer then return nil, err, busy end
  local kind, rest = answer:match("^(%a+)\n(.*)$")
  if kind == "move" then
    session.play_answer(game.g, rest)
    return true
  end
  if kind == "forfeit" then
    local loser, message = rest:match("^([^\n]*)\n(.*)$")
    for _, side in ipairs { game.g:sides() } do
      if tostring(side) == loser then game.loser = side end
    end
    game.forfeit = message
  end
  return false
end

--- One move of the match being watched in session `id` (or the start of
-- its next game): the view, or nil and why not. The move is chosen in a
-- worker, as Store:ai's are.
function Store:match_step(id)
  local s, why, code = self:idle(id)
  if not s then return nil, why, code end
  local mt = s.match
  if not mt then return nil, "not a match: step plays a watched match" end
  if mt.done then return nil, "the match is over" end
  local busy, busy_why
  local ok, err = self:guarded(function()
    local more, no_move, full = self:match_move(s, mt)
    if more == nil then
      if full then
        busy, busy_why = full, no_move
        return
      end
      errors.fail(no_move)
    end
    if more then return end
    local r = mt.m:result(mt.game)
    match_mod.add(mt.tally, r)
    mt.lines[#mt.lines + 1] = report.game_line(r, mt.info)
    if mt.game.index >= mt.info.games then
      mt.done = true
    else
      session.close_seats(mt.game.seat)
      mt.game = mt.m:begin(mt.game.index + 1)
      session.close_opening_searcher(mt.m)
      s.g, s.seats = mt.game.g, mt.game.seat
    end
  end)
  if busy then return nil, busy_why, busy end
  if not ok then
    mt.done = true
    mt.lines[#mt.lines + 1] = "The match stopped: " .. err
    self:changed(s)
    return nil, err
  end
  self:changed(s)
  return self:view(id)
end

return watch
