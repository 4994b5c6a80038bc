--- The NBoard protocol (Chris Welty's, versions 1 and 2) as a session
-- object: feed it the controller's lines one at a time, it answers with
-- the engine's lines. It holds the game (Reversi, or what `set game` sets
-- up) and plays through a policy (boardscript.protocol.engine). Pure: it
-- writes nothing itself; `send` and `warn` callbacks receive each line as
-- it is made, so a caller can flush it at once, and `feed` also returns
-- them.
--
-- Controller -> engine: `nboard N`, `set depth N`, `set game GGF`, `set
-- contempt N`, `move F5[/eval/time]` (or a bare `F5`, NBoard 1.1), `hint
-- N`, `go`, `ping N`, `learn`, `analyze`, `quit`. Engine -> controller:
-- `set myname NAME`, `status TEXT`, `search PV EVAL 0 DEPTH`, `===
-- MOVE/EVAL/TIME`, `nodestats NODES SECONDS`, `pong N`, `learned`,
-- `analysis MOVES EVAL`. An unknown command is ignored; a line that cannot
-- be carried out (a bad move, a bad GGF game, `go` after the end) changes
-- nothing and gets one `warn` line (the command writes it on stderr).
local core = require "boardscript.core"
local engine_mod = require "boardscript.protocol.engine"
local errors = require "boardscript.errors"
local word_and_rest = require("boardscript.text").word_and_rest
local game_mod = require "boardscript.game"
local limits = require "boardscript.limits"
local players = require "boardscript.players"

local nboard = {}

local Session = {}
Session.__index = Session

--- The protocol versions this session speaks.
nboard.VERSIONS = { ["1"] = true, ["2"] = true }

--- nboard.new{ policy = spec (default "alphabeta"), seed = integer (the
-- random generator's; default 0), no_time = true (leave times out of `===`
-- and send no `nodestats`, for reproducible sessions), send = function(line),
-- warn = function(message) }. A bad policy is a user error.
function nboard.new(opts)
  opts = opts or {}
  local self = setmetatable({
    engine = engine_mod.new { policy = opts.policy, rules = "reversi" },
    rng = core.rng(opts.seed or 0),
    no_time = opts.no_time and true or false,
    send_line = opts.send, warn_line = opts.warn,
    contempt = 0, version = nil, done = false,
  }, Session)
  self:new_game()
  return self
end

--- Starts a new game of standard Reversi (8 x 8).
function Session:new_game()
  self.game = game_mod.new("reversi", nil, self.rng)
  self.start = self.game:clone()
end

function Session:send(line)
  self.out[#self.out + 1] = line
  if self.send_line then self.send_line(line) end
end

function Session:warn(message)
  self.err[#self.err + 1] = message
  if self.warn_line then self.warn_line(message) end
end

-- A move as NBoard writes it: "F5", "PA" for a pass.
local function move_word(g, move)
  if move == "pass" then return "PA" end
  return (g:move_text(move) or "??"):upper()
end

-- An integer token: its value (huge ones clamped), or nil.
local function integer(token)
  if token == nil or not token:match("^[+-]?%d+$") then return nil end
  return math.tointeger(tonumber(token)) or (token:sub(1, 1) == "-" and math.mininteger or math.maxinteger)
end

-- The controller's text as a warning quotes it: over 40 bytes, its first
-- 37 and "...", so a line of a megabyte is not written back.
local function shown(text)
  if #text > 40 then return text:sub(1, 37) .. "..." end
  return text
end

local handlers = {}

handlers.nboard = function(self, rest)
  local version = rest:match("^(%S+)")
  if not nboard.VERSIONS[version or ""] then
    self:warn(("nboard: version %s is not spoken here (1 and 2 are); going on as version 2"):format(
      version and shown(version) or "(none)"))
  end
  self.version = version
  self:send("set myname " .. self.engine:label())
end

local settings = {}

settings.depth = function(self, value)
  local n = integer(value:match("^(%S+)"))
  if not n then return self:warn(("set depth: %q is not a depth"):format(shown(value))) end
  local _, why = self.engine:set_depth(n)
  if why then self:warn("set depth: " .. why) end
  self:send("set myname " .. self.engine:label())
end

settings.contempt = function(self, value)
  local n = tonumber(value:match("^(%S+)") or "")
  if not n or n ~= n or n == math.huge or n == -math.huge then
    return self:warn(("set contempt: %q is not a number"):format(shown(value)))
  end
  self.contempt = n
end

-- Seconds of a GGF clock text `[[h:]m:]s` (nil: empty or not one).
local function clock_seconds(text)
  if not text or not text:match("^%d[%d:.]*$") then return nil end
  local total = 0
  for part in (text .. ":"):gmatch("([^:]*):") do
    local n = part:match("^%d+%.?%d*$") and tonumber(part)
    if not n then return nil end
    total = total * 60 + n
  end
  return total
end

-- The game clock of a GGF TI value `MAIN/INC/EXTENSION` ({ main =, inc = };
-- the extension is not counted), or nil when it has no main time.
local function ti_clock(value)
  local main, inc = (value or ""):match("^%s*([^/]*)/?([^/]*)")
  main = clock_seconds(main)
  if not main or main <= 0 then return nil end
  return { main = main, inc = clock_seconds(inc) or 0,
           used = { black = 0, white = 0 }, made = { black = 0, white = 0 } }
end

-- A move's time taken off its side's clock (the GGF move times, the
-- controller's `move F5/EVAL/TIME`).
local function clock_move(self, side, seconds)
  local tc = self.tc
  if not tc or not tc.used[side] then return end
  tc.used[side] = tc.used[side] + (seconds or 0)
  tc.made[side] = tc.made[side] + 1
end

-- The line of game `g` from `start`: the start position (board and side to
-- move), then each ply's text ("pass" for a pass).
local function line_of(start, g)
  local p = start:clone()
  local line = { p:text() .. "\n" .. p:to_move() }
  for _, entry in ipairs(g:history()) do
    if entry.pass then
      line[#line + 1] = "pass"
      p:pass()
    else
      line[#line + 1] = p:move_text(entry.move)
      p:play(entry.move)
    end
  end
  return line
end

-- Whether two lines are one game: the same start, and one's plies begin
-- the other's (moves played on, or taken back).
local function one_game(a, b)
  for i = 1, math.min(#a, #b) do
    if a[i] ~= b[i] then return false end
  end
  return true
end

settings.game = function(self, text)
  local ggf = require "boardscript.formats.ggf"
  local ok, games = pcall(ggf.parse, text, "set game")
  if not ok then return self:warn(errors.is_user(games) and games.message or tostring(games)) end
  if type(games) ~= "table" or not games[1] then return self:warn("set game: no GGF game on the line") end
  local built, g = pcall(ggf.game, games[1])
  local started, start = pcall(ggf.game, games[1], 0)
  if not built or not started then
    local err = not built and g or start
    return self:warn(errors.is_user(err) and err.message or tostring(err))
  end
  g.rng, start.rng = self.rng, self.rng
  -- the searcher's table is kept from move to move of one game; another game starts it empty
  if self.start and not one_game(line_of(self.start, self.game), line_of(start, g)) then self.engine:forget() end
  self.game, self.start = g, start
  self.tc = ti_clock(games[1].props.TI)
  for _, m in ipairs(games[1].moves) do clock_move(self, m.side, m.time) end
end

handlers.set = function(self, rest)
  local name, value = rest:match("^(%S+)%s*(.*)$") -- rest has no blanks around it (feed)
  local setting = settings[name or ""]
  if setting then return setting(self, value) end
  -- other settings (and `set` alone) are ignored, as unknown commands are
end

-- Plays the controller's move text (`F5`, `f5/1.5/0.2`, `PA`) in the game,
-- or warns and leaves the game as it is.
function Session:play_text(text)
  local word = text:match("^([^/%s]*)")
  local g = self.game
  local side, said_time = g:to_move(), tonumber(text:match("^[^/]*/[^/]*/%s*([%d.]+)") or "")
  local before = #g:history()
  self:play_word(word)
  if #g:history() == before then return end
  if #g:history() > before + 1 then -- after a forced pass: the other side's move
    local a, b = g:sides()
    side = side == a and b or a
  end
  local mine = self.last_go
  self.last_go = nil
  local seconds = said_time or (mine and mine.side == side and mine.word == word:upper() and mine.seconds) or 0
  clock_move(self, side, seconds)
end

-- play_text's move, without the clock.
function Session:play_word(word)
  local g = self.game
  if word == "" then return self:warn("move: no move given") end
  local said = shown(word)
  if g:finished() then return self:warn(("move %s: the game is over"):format(said)) end
  local lower = word:lower()
  if lower == "pa" or lower == "pass" then
    if not g:pass() then return self:warn(("move %s: a pass is not allowed now (a move is possible)"):format(said)) end
    return
  end
  local move = g:parse_move(word)
  if not move then return self:warn(("move %s: not a move on this board"):format(said)) end
  if g:play(move) then return end
  -- The controller may leave out a forced pass: the move then is the opponent's.
  if g:can_pass() then
    local probe = g:clone()
    probe:pass()
    if probe:play(move) then
      g:pass()
      g:play(move)
      return
    end
  end
  local _, why = g:clone():play(move)
  self:warn(("move %s: illegal for %s%s"):format(said, g:side_name(), why and (" (" .. why .. ")") or ""))
end

handlers.move = function(self, rest)
  self:play_text(rest)
end

-- Sends `status TEXT`, runs f(self, ...), then sends `status` (an empty
-- status line: done), also when f fails (the error goes on).
local function busy(self, text, f, ...)
  self:send("status " .. text)
  local ok, err = pcall(f, self, ...)
  self.engine:finish()
  self:send("status")
  if not ok then error(err, 0) end
end

local function go(self, g)
  local tc, side, player = self.tc, g:to_move(), self.engine.player
  if tc then -- the controller's clock (GGF TI and the move times)
    players.set_clock(player, g, tc.main + tc.inc * tc.made[side] - tc.used[side], tc.inc)
  elseif player.clock_given then
    players.set_clock(player, g, nil)
  end
  local started = core.clock()
  local move, info = self.engine:choose(g)
  self.last_go = { side = side, word = move_word(g, move), seconds = core.clock() - started }
  if info.nodes and not self.no_time then
    self:send(("nodestats %d %.2f"):format(info.nodes, info.seconds))
  end
  local parts = { move_word(g, move) }
  if info.value then parts[#parts + 1] = engine_mod.discs(info.value) end
  if not self.no_time then
    if not info.value then parts[#parts + 1] = "" end
    parts[#parts + 1] = ("%.2f"):format(info.seconds)
  end
  self:send("=== " .. table.concat(parts, "/"))
end

handlers.go = function(self)
  local g = self.game
  if g:finished() then return self:warn("go: the game is over") end
  busy(self, "thinking", go, g)
end

local function hint(self, g, n)
  if self.engine:searching(g) then
    self.engine:forget()
    self.engine:begin(true)
    for d = 1, self.engine:search_depth() do
      if d > 1 and self.engine:out_of_time() then break end -- --max-seconds: the deepest answers stand
      local ranked = self.engine:rank(g, d)
      local all_exact = true
      for i = 1, math.min(n, #ranked) do
        local c = ranked[i]
        self:send(("search %s %s 0 %d"):format(move_word(g, c.move), engine_mod.discs(c.value), c.depth))
      end
      for _, c in ipairs(ranked) do all_exact = all_exact and c.exact end
      if all_exact then break end
    end
    return
  end
  local move = self.engine:choose(g)
  local child = g:clone()
  if move == "pass" then child:pass() else child:play(move) end
  -- No evaluation from this policy: the margin after its move stands for one.
  self:send(("search %s %s 0 0"):format(move_word(g, move), engine_mod.discs(-engine_mod.margin(child))))
end

handlers.hint = function(self, rest)
  local g = self.game
  if g:finished() then return self:warn("hint: the game is over") end
  local n = integer(rest:match("^(%S+)")) or 1
  busy(self, "thinking", hint, g, math.max(n, 1))
end

local function analyze(self, g)
  local positions = { self.start:clone() }
  for i, entry in ipairs(g:history()) do
    local p = positions[i]:clone()
    if entry.pass then p:pass() else p:play(entry.move) end
    positions[i + 1] = p
  end
  local depth = self.engine:search_depth()
  self.engine:begin()
  for k = #positions, 1, -1 do
    if self.engine:out_of_time() then
      return self:warn(("analyze: --max-seconds %s spent; %d positions not analysed"):format(
        limits.seconds(), k))
    end
    self.engine:forget() -- each position valued on its own
    local value = self.engine:evaluate(positions[k], depth)
    self:send(("analysis %d %s"):format(k - 1, engine_mod.discs(value)))
  end
end

handlers.analyze = function(self)
  local g = self.game
  if not self.engine:searching(g) then
    return self:send("status analyze needs the alphabeta policy")
  end
  busy(self, "analyzing", analyze, g)
end

handlers.ping = function(self, rest)
  local token = rest:match("^(%S+)")
  if not integer(token) then
    self:warn(("ping: %q is not an integer; answering pong 0"):format(shown(rest)))
    token = "0"
  end
  self:send("pong " .. token)
end

handlers.learn = function(self)
  -- There is no opening book to add the game to; the answer says it was taken.
  self:send("learned")
end

handlers.quit = function(self)
  self.done = true
end

--- Feeds one line from the controller (its line ending, `\n` or `\r\n`, may
-- be there or not). Returns the lines sent and the warnings made for it (two
-- lists). After `quit`, `session.done` is true and further lines are ignored.
function Session:feed(line)
  self.out, self.err = {}, {}
  if self.done then return self.out, self.err end
  local command, rest = word_and_rest(tostring(line))
  if not command then return self.out, self.err end
  local key = command:lower()
  local handler = handlers[key]
  if not handler and (key:match("^%a%d+$") or key == "pa") then
    handler, rest = handlers.move, command -- NBoard 1.1 sent a move alone
  end
  if handler then
    local ok, err = pcall(handler, self, rest)
    if not ok then
      self:warn(("%s: %s"):format(key, errors.is_user(err) and err.message or tostring(err)))
    end
  else
    self:warn(("unknown command %q ignored"):format(shown(command)))
  end
  return self.out, self.err
end

return nboard
