--- GTP (the Go Text Protocol, version 2) for Othello, as Edax speaks it,
-- as a session object: feed it the controller's lines, it answers with the
-- response lines. A response is `=[id] text` or `?[id] message` followed
-- by an empty line; text of several lines (list_commands, showboard) goes
-- on the lines after the first. Moves are Othello cells, `a1` top left
-- (`f5`; case is ignored; the letter `i` is not skipped as in Go), or
-- `pass`. Pure: it writes nothing itself; `send` receives each line.
--
-- Colours are `black`/`b` and `white`/`w`. `play` and `genmove` for the
-- colour not to move are taken when the side to move has no move: that
-- side's pass is played first (and `undo` takes both back together).
local core = require "boardscript.core"
local declarations = require "boardscript.declared"
local engine_mod = require "boardscript.protocol.engine"
local errors = require "boardscript.errors"
local game_mod = require "boardscript.game"
local players = require "boardscript.players"
local rules_mod = require "boardscript.rules"

local gtp = {}

local Session = {}
Session.__index = Session

--- The commands known, in the order list_commands gives them.
gtp.COMMANDS = {
  "protocol_version", "name", "version", "known_command", "list_commands", "quit",
  "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard",
  "final_score", "set_game", "list_games", "time_settings", "time_left",
}

--- How many words of a line are read (the rest are ignored, as extra
-- arguments are).
gtp.MAX_WORDS = 8

--- gtp.new{ policy = spec (default "alphabeta"), seed = integer (default 0),
-- size = board size (default 8), name = the `name` answer (default
-- "boardscript"), send = function(line) }. A bad policy is a user error.
function gtp.new(opts)
  opts = opts or {}
  local self = setmetatable({
    engine = engine_mod.new { policy = opts.policy, rules = "reversi" },
    rng = core.rng(opts.seed or 0),
    name = opts.name or "boardscript",
    send_line = opts.send,
    size = opts.size or 8,
    left = {}, -- per colour { time =, stones = } (time_left), with time_settings's tc
    done = false,
  }, Session)
  self:clear()
  return self
end

-- What a move took, off `colour`'s clock as the engine keeps it until the
-- controller's next `time_left` (a byo-yomi period: a stone less, and a
-- new period once its stones are played).
function Session:spend(colour, seconds)
  local tc = self.tc
  if not tc then return end
  local t = self.left[colour] or { time = tc.main, stones = 0 }
  if t.stones == 0 and t.time <= 0 and tc.byo > 0 then t = { time = tc.byo, stones = tc.stones } end
  t.time = t.time - seconds
  if t.stones > 0 then
    t.stones = t.stones - 1
    if t.stones == 0 then t = { time = tc.byo, stones = tc.stones } end
  end
  self.left[colour] = t
end

--- A new game on the current board size.
function Session:clear()
  if self.game then self.engine:forget() end -- a new game: the searcher's table starts empty (kept move to move)
  self.game = game_mod.new("reversi", { size = self.size }, self.rng)
  self.left = {} -- a new game: the time_settings clocks whole again
  self.units = {} -- entries of the game's log each play/genmove added, for undo
end

local COLOURS = { black = "black", b = "black", white = "white", w = "white" }

-- A reply to send: ok (true: `=`, false: `?`) and the text (may hold newlines).
local function reply(ok, text) return { ok = ok, text = text or "" } end

local handlers = {}

handlers.protocol_version = function() return reply(true, "2") end
handlers.name = function(self) return reply(true, self.name) end
handlers.version = function() return reply(true, core.version) end

local KNOWN = {}
for _, name in ipairs(gtp.COMMANDS) do KNOWN[name] = true end

handlers.known_command = function(_, args)
  return reply(true, KNOWN[args[1] or ""] and "true" or "false")
end

handlers.list_commands = function()
  return reply(true, table.concat(gtp.COMMANDS, "\n"))
end

handlers.quit = function(self)
  self.done = true
  return reply(true)
end

handlers.boardsize = function(self, args)
  local text = args[1]
  local n = text and text:match("^%d+$") and (math.tointeger(tonumber(text)) or math.maxinteger)
  if not n then return reply(false, "boardsize not an integer") end
  local spec = rules_mod.load("reversi").options.size
  if not declarations.check(spec, n) then return reply(false, "unacceptable size") end
  self.size = n
  self:clear()
  return reply(true)
end

handlers.clear_board = function(self)
  self:clear()
  return reply(true)
end

-- A whole number of seconds (GTP's times and stone counts), or nil.
local function count_arg(text)
  local n = text and text:match("^%d+$") and math.tointeger(tonumber(text))
  if n and n <= 1000000000 then return n end
  return nil
end

handlers.time_settings = function(self, args)
  local main, byo, stones = count_arg(args[1]), count_arg(args[2]), count_arg(args[3])
  if not (main and byo and stones) then return reply(false, "syntax error") end
  -- byo-yomi time with no stones: no time limit (the GTP specification)
  self.tc = not (byo > 0 and stones == 0) and { main = main, byo = byo, stones = stones } or nil
  self.left = {}
  return reply(true)
end

handlers.time_left = function(self, args)
  local colour = COLOURS[(args[1] or ""):lower()]
  local time, stones = count_arg(args[2]), count_arg(args[3])
  if not (colour and time and stones) then return reply(false, "syntax error") end
  self.left[colour] = { time = time, stones = stones }
  return reply(true)
end

-- The clock of `colour`'s next move, when the controller gave one: the
-- seconds left and the moves they are for (nil: as the board says).
function Session:clock_of(colour)
  local tc = self.tc
  if not tc then return nil end
  local t = self.left[colour] or { time = tc.main, stones = 0 }
  if t.stones > 0 then return t.time, t.stones end -- in a byo-yomi period
  if t.time > 0 or tc.byo == 0 then return t.time, nil end
  return tc.byo, tc.stones -- main time spent: the first period
end

handlers.komi = function(_, args)
  local n = tonumber(args[1] or "")
  if not n then return reply(false, "syntax error") end
  return reply(true) -- Othello has no komi: taken and ignored
end

handlers.set_game = function(_, args)
  if (args[1] or ""):lower() == "othello" then return reply(true) end
  return reply(false, "unsupported game")
end

handlers.list_games = function() return reply(true, "Othello") end

-- Makes `colour` the side to move: when the other side must pass, its pass
-- is played. Returns the number of log entries added (0 or 1), or nil.
function Session:turn_to(colour)
  local g = self.game
  if g:to_move() == colour then return 0 end
  if g:can_pass() then
    g:pass()
    return 1
  end
  return nil
end

handlers.play = function(self, args)
  local colour = COLOURS[(args[1] or ""):lower()]
  if not colour or not args[2] then return reply(false, "syntax error (wrong or missing color)") end
  local g = self.game
  local word = args[2]:lower()
  local move
  if word ~= "pass" then
    move = g:parse_move(word)
    if not move then return reply(false, "illegal move") end
  end
  local added = self:turn_to(colour)
  if not added then return reply(false, "wrong color") end
  local ok
  if move then ok = g:play(move) else ok = g:pass() end
  if not ok then
    if added > 0 then g:undo() end
    return reply(false, "illegal move")
  end
  self.units[#self.units + 1] = added + 1
  return reply(true)
end

handlers.genmove = function(self, args)
  local colour = COLOURS[(args[1] or ""):lower()]
  if not colour then return reply(false, "syntax error (wrong or missing color)") end
  local added = self:turn_to(colour)
  if not added then return reply(false, "wrong color") end
  local g = self.game
  local move
  if g:can_pass() then
    move = "pass" -- no move (the game may be over): the only answer
  else
    local left, moves = self:clock_of(colour)
    if left or self.engine.player.clock_given then players.set_clock(self.engine.player, g, left, 0, moves) end
    local started = core.clock()
    move = self.engine:choose(g)
    self:spend(colour, core.clock() - started)
  end
  if move == "pass" then g:pass() else g:play(move) end
  self.units[#self.units + 1] = added + 1
  return reply(true, move == "pass" and "pass" or g.log[#g.log].text)
end

handlers.undo = function(self)
  local n = table.remove(self.units)
  if not n then return reply(false, "cannot undo") end
  for _ = 1, n do self.game:undo() end
  return reply(true)
end

handlers.showboard = function(self)
  local g = self.game
  local black, white = g:score()
  local lines = {}
  for line in g:text():gmatch("[^\n]+") do lines[#lines + 1] = line end
  local status = g:finished() and "game over" or (g:side_name() .. " to move")
  lines[#lines + 1] = ("Black %d, White %d; %s"):format(black, white, status)
  return reply(true, "\n" .. table.concat(lines, "\n"))
end

handlers.final_score = function(self)
  local black, white = self.game:score()
  if black == white then return reply(true, "0") end
  return reply(true, ("%s+%d"):format(black > white and "B" or "W", math.abs(black - white)))
end

-- GTP's preprocessing: control characters other than tab and newline go,
-- tabs become spaces, and a `#` starts a comment.
local function preprocess(line)
  line = line:gsub("#.*$", ""):gsub("\t", " "):gsub("[%z\1-\31\127]", "")
  return line
end

function Session:send(line)
  self.out[#self.out + 1] = line
  if self.send_line then self.send_line(line) end
end

--- Feeds one line from the controller. Returns the lines sent for it (a
-- response and its empty line; none for an empty or comment line). After
-- `quit`, `session.done` is true and further lines are ignored.
function Session:feed(line)
  self.out = {}
  if self.done then return self.out end
  -- Only the first words are kept (an id, the command and its arguments):
  -- no command takes more, and a line of millions of words stays small.
  local words = {}
  for word in preprocess(tostring(line)):gmatch("%S+") do
    words[#words + 1] = word
    if #words == gtp.MAX_WORDS then break end
  end
  if #words == 0 then return self.out end
  local id = ""
  if words[1]:match("^%d+$") then id = table.remove(words, 1) end
  local command = words[1]
  local result
  if command == nil then
    result = reply(false, "syntax error (no command)")
  else
    table.remove(words, 1)
    local handler = handlers[command:lower()]
    if handler then
      local ok, r = pcall(handler, self, words)
      if ok then result = r
      else result = reply(false, errors.is_user(r) and r.message or tostring(r):gsub("\n.*", "")) end
    else
      result = reply(false, "unknown command")
    end
  end
  local first, others = result.text:match("^([^\n]*)\n?(.*)$")
  self:send(("%s%s %s"):format(result.ok and "=" or "?", id, first))
  for text in others:gmatch("[^\n]+") do self:send(text) end
  self:send("")
  return self.out
end

return gtp
