--- What the store of `boardscript serve` and its studies and watched
-- matches (boardscript.serve.games, .study, .watch) share about a session:
-- how a request's values are quoted and its options read, how a failure
-- reaches the page, how a worker's move comes back, and how what a
-- session's seats hold in C is freed.
local errors = require "boardscript.errors"
local worker = require "boardscript.serve.worker"

local session = {}

--- A file's name without its directory and `.lua`.
-- @tparam string path a path
-- @treturn string the name
function session.base_name(path)
  return (path:match("([^/]+)$") or path):gsub("%.lua$", "")
end

--- The message of a failed call for the page: a user error's message; any
-- other error is the server's own, logged and never shown.
-- @tparam function log the store's log
-- @param err the error
-- @treturn string the message
function session.failure_text(log, err)
  if errors.is_user(err) then return worker.clean(err.message) end
  log("internal error: " .. (type(err) == "string" and err or "(an error that is not a message)"))
  return worker.INTERNAL
end

--- A value from a request, as a message may quote it: text as it is (cut
-- short), anything else by its JSON type (never a table's address).
-- @param value a value from a request
-- @treturn string
function session.quoted(value)
  if type(value) == "string" then return #value > 60 and value:sub(1, 60) .. "..." or value end
  if type(value) == "table" then return "an object" end
  return ("a %s"):format(type(value) == "nil" and "null" or type(value))
end

--- Frees what the seats `seats` hold (their policies' tables) now.
-- @tparam ?table seats the seats, by side
function session.close_seats(seats)
  for _, player in pairs(seats or {}) do
    local policy = type(player) == "table" and player.policy
    if type(policy) == "table" and type(policy.close) == "function" then pcall(policy.close, policy) end
  end
end

--- Frees the searcher a match chose its openings with (boardscript.match
-- makes it again when a next game needs it).
-- @tparam table m a boardscript.match match
function session.close_opening_searcher(m)
  local searcher = rawget(m, "searcher")
  if searcher then
    m.searcher = nil
    searcher:close()
  end
end

--- A request's size and options as option texts ({ key = text }; RxC is
-- rows and cols), or nil and why.
-- @tparam table params the request
-- @treturn ?table the texts, by key
-- @treturn ?string why not
function session.option_texts(params)
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

--- The text a worker hands back for `move` ("pass" or a move of g, or its
-- text when `move` is a string) made in game `g`: the move's text and
-- where g's generator is then.
-- @tparam Game g the game
-- @param move the move chosen, "pass", or its text
-- @treturn string the answer
function session.move_answer(g, move)
  local text = type(move) == "string" and move or g:move_text(move)
  if type(text) ~= "string" or text:find("\n", 1, true) then
    errors.fail(("the move chosen has no text in %s's notation"):format(tostring(g.rules.name)))
  end
  return text .. "\n" .. (g.rng and g.rng:state() or "")
end

--- Plays in `g` the move of a worker's answer (move_answer), read as a
-- human's move is, and sets g's generator where the worker's was.
-- @tparam Game g the game (changed)
-- @tparam string answer a worker's answer
function session.play_answer(g, answer)
  local text, state = answer:match("^([^\n]*)\n(%x*)$")
  if not text then errors.fail("the AI's answer could not be read") end
  if text == "pass" then
    if not g:can_pass() then errors.fail("the AI passed where passing is not allowed") end
    g:pass()
  else
    local move = g:parse_move(text)
    local checked = move ~= nil and g:check(move)
    if not checked then errors.fail(("the AI's move %s is not a legal move here"):format(text)) end
    g:play(checked)
  end
  if state ~= "" and g.rng then g.rng:restore(state) end
end

--- The most moves a request may ask to be replayed at the start of a game.
session.MAX_MOVES = 2000

--- Plays `moves` (a list of move texts in the rule set's notation, "pass"
-- for a pass) in game `g`, as a human's are read: a user error naming the
-- first that is not legal, with its number.
function session.replay(g, moves)
  local meta = getmetatable(moves)
  if type(moves) ~= "table" or (meta and meta.__jsontype == "object") or #moves > session.MAX_MOVES then
    errors.fail(("moves: expected a list of at most %d move texts"):format(session.MAX_MOVES))
  end
  for i, text in ipairs(moves) do
    if type(text) ~= "string" or #text > 100 then errors.fail(("moves[%d]: expected a move's text"):format(i)) end
    if g:finished() then errors.fail(("moves[%d] %s: the game is over"):format(i, text)) end
    if text:lower() == "pass" then
      if not g:can_pass() then errors.fail(("moves[%d]: %s may not pass here"):format(i, g:side_name())) end
      g:pass()
    else
      local move = g:parse_move(text)
      local checked = move ~= nil and g:check(move)
      if not checked then errors.fail(("moves[%d] %s is not a legal move here"):format(i, text)) end
      g:play(checked)
    end
  end
end

return session
