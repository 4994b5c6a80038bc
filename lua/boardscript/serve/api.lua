--- The HTTP API of `boardscript serve`, without HTTP: a request (method,
-- path, query table, body text) to a response (status, content type, body,
-- extra headers), over a store of boardscript.serve.games. The server
-- (boardscript.serve.http) does the sockets; the specs call this directly.
--
--     GET  /                          the page
--     GET  /api/rules                 the rule sets offered, their options and players
--     POST /api/games                 a new game: { rules =, size =, options =, players =, seed =,
--                                     moves = { texts played first } }
--     GET  /api/games/ID              the game as the page shows it (?since=V: only { version =,
--                                     unchanged = true, thinking = } while its version is still V)
--     POST /api/games/ID/move         { move = "f5" }: a human move
--     POST /api/games/ID/pass         a human pass
--     POST /api/games/ID/ai           one move of the AI to move
--     POST /api/games/ID/undo         back to the last human turn (or takes back a resignation)
--     POST /api/games/ID/resign       the human player resigns ({ side = } where two are human)
--     POST /api/games/ID/restart      the same settings, a new game
--     GET  /api/games/ID/record       the record (?format=ggf: GGF, 8 x 8 Reversi)
--     GET  /api/games/ID/hint         the AI's suggested move: { move =, by = }
--     GET  /api/games/ID/analysis     every legal move's value: { by =, unit =, depth =, exact =,
--                                     moves = { { move =, value = }, best first }, value =, side = }
--     POST /api/study                 a record or GGF file to step through: { text =, game = }
--     POST /api/games/ID/goto         { ply = K }: a study at the position after K moves
--     POST /api/matches               a match to watch: { rules =, size =, options =, a =, b =, games =, seed = }
--     POST /api/games/ID/step         one move of the match (or the start of its next game)
--
-- Answers are JSON: the game's view (boardscript.serve.games, Store:view),
-- or { error = message } with status 400 (a refused request), 404 (no such
-- game or path), 405 (wrong method), 409 (the game's AI is thinking: a
-- request that would change it waits for its move), 413 (a body over
-- api.MAX_BODY), 503 (every worker busy) or 500 (the server's own failure,
-- whose message goes to its log, never to the page).
--
-- AI moves, hints, match steps and a study's evaluations run in worker
-- processes (boardscript.serve.worker); the request that asked waits for
-- its worker in its own cqueues coroutine, and every other request is
-- answered meanwhile.
local json = require "dkjson"
local worker = require "boardscript.serve.worker"

local api = {}

--- The largest request body taken, in bytes.
api.MAX_BODY = 64 * 1024

local JSON = "application/json; charset=utf-8"

local function encode(value)
  return json.encode(value, { keyorder = { "error" } })
end

local function answer(status, value)
  return status, JSON, encode(value)
end

local function refused(status, message)
  return answer(status, { error = worker.clean(message) })
end

-- The status of a store's refusal by its third value.
local STATUS = { busy = 409, full = 503 }

-- The answer to a store call's results: 200 (or `ok`) and the value, or the refusal.
local function result(ok, value, why, code)
  if value == nil then return refused(STATUS[code] or 400, why) end
  return answer(ok or 200, value)
end

-- The JSON object of a body ("" is {}), or nil and why not.
local function object(body)
  if body == nil or body == "" then return {} end
  local value, _, err = json.decode(body, 1, nil)
  local meta = type(value) == "table" and getmetatable(value)
  if err or type(value) ~= "table" or (meta and meta.__jsontype == "array") then
    return nil, "the body is not a JSON object" .. (err and (": " .. err) or "")
  end
  return value
end

-- Actions on one game, by the last part of the path.
local ACTIONS = {
  move = function(store, id, body) return store:move(id, body.move) end,
  pass = function(store, id) return store:pass(id) end,
  ai = function(store, id) return store:ai(id) end,
  undo = function(store, id) return store:undo(id) end,
  resign = function(store, id, body) return store:resign(id, body.side) end,
  restart = function(store, id) return store:restart(id) end,
  ["goto"] = function(store, id, body) return store:go_to(id, body.ply) end,
  step = function(store, id) return store:match_step(id) end,
}

-- The requests that make a session, by path: the store's method and what
-- the body gives.
local MAKERS = {
  ["/api/games"] = { method = "create", takes = "the game's settings" },
  ["/api/matches"] = { method = "create_match", takes = "the match's settings" },
  ["/api/study"] = { method = "study", takes = "{ text = a record or GGF file }" },
}

-- api.handle without its guard.
local function handle(store, page, method, path, query, body)
  query = query or {}
  if body and #body > api.MAX_BODY then
    return refused(413, ("a request body is at most %d bytes"):format(api.MAX_BODY))
  end
  if path == "/" or path == "/index.html" then
    if method ~= "GET" and method ~= "HEAD" then return refused(405, "GET the page") end
    return 200, "text/html; charset=utf-8", page
  end
  if path == "/api/rules" then
    if method ~= "GET" then return refused(405, "GET /api/rules") end
    return answer(200, { rules = store:rule_sets(), policies = store:policy_names() })
  end
  local maker = MAKERS[path]
  if maker then
    if method ~= "POST" then return refused(405, ("POST %s with %s"):format(path, maker.takes)) end
    local params, why = object(body)
    if not params then return refused(400, why) end
    local id, err, code = store[maker.method](store, params)
    if not id then return refused(STATUS[code] or 400, err) end
    return result(201, store:view(id))
  end
  local id, action = path:match("^/api/games/(%d+)/?([%w]*)$")
  if not id then return refused(404, ("no such path: %s"):format(path)) end
  if not store.sessions[id] then return refused(404, select(2, store:get(id))) end
  if action == "" then
    if method ~= "GET" then return refused(405, "GET /api/games/ID") end
    local s = store.sessions[id]
    if query.since ~= nil and tostring(s.version or 0) == query.since then
      -- a page asking whether the game changed (another tab, the AI): not since its version
      return answer(200, { id = id, version = s.version or 0, unchanged = true, thinking = s.thinking or false })
    end
    local view, err = store:view(id)
    if not view then return refused(400, err) end
    return answer(200, view)
  end
  if action == "record" then
    if method ~= "GET" then return refused(405, "GET /api/games/ID/record") end
    local text, name = store:record(id, query.format == "ggf")
    if not text then return refused(400, name) end
    return 200, "text/plain; charset=utf-8", text,
      { ["content-disposition"] = ('attachment; filename="%s"'):format(name) }
  end
  if action == "hint" then
    if method ~= "GET" then return refused(405, "GET /api/games/ID/hint") end
    return result(200, store:hint(id))
  end
  if action == "analysis" then
    if method ~= "GET" then return refused(405, "GET /api/games/ID/analysis") end
    return result(200, store:analysis(id))
  end
  local act = ACTIONS[action]
  if not act then return refused(404, ("no such action: %s"):format(action)) end
  if method ~= "POST" then return refused(405, ("POST /api/games/ID/%s"):format(action)) end
  local params, why = object(body)
  if not params then return refused(400, why) end
  return result(200, act(store, id, params))
end

--- Answers one request: status, content type, body, headers (a table or
-- nil). `page` is the text of the page served at `/`. An error of the
-- server's own is answered 500 with a message that says no more; the
-- error goes to the store's log.
-- @tparam table store a boardscript.serve.games store
-- @tparam string page the page's text
-- @tparam string method the request's method
-- @tparam string path the request's path
-- @tparam[opt] table query the query's fields
-- @tparam[opt] string body the request's body
-- @treturn integer status
-- @treturn string content type
-- @treturn string body
-- @treturn ?table extra headers
function api.handle(store, page, method, path, query, body)
  local r = table.pack(pcall(handle, store, page, method, path, query, body))
  if r[1] then return table.unpack(r, 2, r.n) end
  local err = r[2]
  if store.log then store.log(("%s %s: %s"):format(tostring(method), tostring(path),
    type(err) == "string" and err or type(err) == "table" and type(err.message) == "string" and err.message
      or "(an error that is not a message)")) end
  return refused(500, "the server failed on this request (its log says why)")
end

--- A query string's fields: "a=1&b=x%20y" -> { a = "1", b = "x y" }.
-- "x%20y+z" -> "x y z".
local function unescape(s)
  return (s:gsub("+", " "):gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end

function api.query(text)
  local out = {}
  for pair in (text or ""):gmatch("[^&]+") do
    local key, value = pair:match("^([^=]*)=?(.*)$")
    out[unescape(key)] = unescape(value)
  end
  return out
end

return api
