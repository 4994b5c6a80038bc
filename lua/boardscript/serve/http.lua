--- The HTTP side of `boardscript serve`: a small HTTP/1.1 server of our own
-- over cqueues sockets. It listens, runs each connection in a coroutine of
-- its own (so a handler that waits, with cqueues.poll, holds only its own
-- client), reads each request with boardscript.serve.framing (strict,
-- bounded, with deadlines), refuses what boardscript.serve.guard refuses,
-- lets boardscript.serve.api answer the rest and writes the answer.
-- Nothing a client sends or fails to send stops the server or makes it
-- spin: a malformed request gets its 4xx and the connection is closed; a
-- client that stalls is dropped at its deadline. A handler that fails
-- answers 500 with a fixed text; the details go to the log only.
local api = require "boardscript.serve.api"
local errors = require "boardscript.errors"
local framing = require "boardscript.serve.framing"
local guard = require "boardscript.serve.guard"
local json = require "dkjson"

local serve_http = {}

--- Deadlines, in seconds: `idle`, for the first byte of a request (after
-- the connection opens or the last answer); `head`, from that byte to the
-- end of the head; `body`, for the body; `write`, to send an answer;
-- `linger`, to drain what a refused client still sends before closing.
serve_http.TIMEOUTS = { idle = 30, head = 10, body = 30, write = 30, linger = 2 }

--- Connections served at once; one more is answered 503 and closed.
serve_http.MAX_CONNECTIONS = 256

--- The text of a 500: what failed is in the server's log, never in an answer.
serve_http.FAILED = "the server failed on this request (its log says why)"

local JSON = "application/json; charset=utf-8"

-- Fields on every answer: no caching, no sniffing, no framing by another
-- page (a click on the board is a move).
local COMMON = {
  { "cache-control", "no-store" },
  { "x-content-type-options", "nosniff" },
  { "x-frame-options", "DENY" },
  { "content-security-policy", "frame-ancestors 'none'" },
  { "referrer-policy", "no-referrer" },
}

--- Loads cqueues and its sockets, or raises a user error saying what to install.
-- @treturn table cqueues
-- @treturn table cqueues.socket
function serve_http.library()
  local ok, cqueues = pcall(require, "cqueues")
  local ok2, socket = pcall(require, "cqueues.socket")
  if not (ok and ok2) then
    errors.fail(("serve: cqueues is not installed (Debian: apt-get install lua-cqueues; "
      .. "scripts/bootstrap installs it): %s"):format(tostring(ok and socket or cqueues):match("^[^\n]*")))
  end
  return cqueues, socket
end

-- What a value printed by tostring becomes in an answer: "table: 0x55..." is "a table".
local ADDRESSED = setmetatable({}, { __index = function(_, kind)
  if kind == "table" or kind == "function" or kind == "userdata" or kind == "thread" then return "a " .. kind end
end })

-- A failure as the log shows it, without calling a user value's metamethods.
local function failure_text(err)
  if type(err) == "string" then return err end
  if errors.is_user(err) and type(rawget(err, "message")) == "string" then return rawget(err, "message") end
  return ("an error value (a %s)"):format(type(err))
end

--- The answer to one request that framed well: status, content type,
-- body and extra fields ({ name = value } or nil). The guard's refusals
-- come first; then boardscript.serve.api answers; a handler that raises
-- or answers nonsense gives 500 with serve_http.FAILED (the details go to
-- `log`).
-- @tparam table opts store, page, checker (boardscript.serve.guard.new), log
-- @tparam table request as boardscript.serve.framing.parse_head gives it
-- @tparam string body the request's body
-- @treturn number status
-- @treturn string content type
-- @treturn string body
-- @treturn ?table extra fields
function serve_http.answer(opts, request, body)
  local status, why = guard.check(opts.checker, request)
  if status then return status, JSON, json.encode { error = why } end
  local r = table.pack(xpcall(api.handle, function(err) return debug.traceback(failure_text(err), 2) end,
    opts.store, opts.page, request.method, request.path, api.query(request.query), body))
  local ok, content_type, text, extra = r[1], r[3], r[4], r[5]
  status = r[2]
  local log = opts.log or function() end
  if ok and math.type(status) == "integer" and framing.REASONS[status] and type(content_type) == "string"
    and type(text) == "string" and (extra == nil or type(extra) == "table") then
    if status < 400 then return status, content_type, text, extra end
    -- A refusal's reason is the handler's text: a traceback or a position
    -- in a module of ours is an internal error passed on (500); a heap
    -- address (tostring of a table) is named by its type.
    if not text:find("stack traceback", 1, true) and not text:find("boardscript/[%w_/]+%.lua:%d+") then
      return status, content_type, text:gsub("(%a+): 0x%x+", ADDRESSED), extra
    end
    status = "a refusal that passes on an internal error: " .. text
  elseif ok then
    status = "the handler's answer is not (status, content type, text)"
  end
  log(("%s %s: %s"):format(request.method, request.path, status))
  return 500, JSON, json.encode { error = serve_http.FAILED }
end

-- The bytes of an answer.
local function answer_bytes(status, content_type, text, extra, head_only, close)
  local fields = { { "content-type", content_type } }
  for _, f in ipairs(COMMON) do fields[#fields + 1] = f end
  local names = {}
  for name in pairs(extra or {}) do
    if type(name) == "string" then names[#names + 1] = name end
  end
  table.sort(names)
  for _, name in ipairs(names) do fields[#fields + 1] = { name, extra[name] } end
  return framing.response(status, fields, text, head_only, close)
end

-- A refusal's bytes (the connection closes after it).
local function refusal(status, why)
  return answer_bytes(status, JSON, json.encode { error = why }, nil, false, true)
end

-- Sends `bytes` on `conn` within `seconds`, all of them (the last line of
-- a body too: cqueues buffers by lines); false when the client is gone or
-- does not read.
local function send_all(conn, bytes, seconds)
  conn:settimeout(seconds)
  local ok = conn:write(bytes)
  return ok ~= nil and conn:flush(seconds) ~= false
end

-- One connection: requests read and answered in turn until the client
-- closes, asks to close, stalls past a deadline or sends what cannot be
-- framed. `conn` is a cqueues socket; `now` the clock.
local function serve_connection(conn, opts, now)
  local t = opts.timeouts
  local log = opts.log
  local ETIMEDOUT = require("cqueues.errno").ETIMEDOUT
  conn:setmode("b", "b")
  conn:onerror(function(_, _, why) return why end) -- returned, never raised
  local buffer = ""

  -- Reads more bytes before `deadline`: true; or false, and whether it was
  -- the end of input (or an error) rather than the deadline.
  local function fill(deadline)
    local wait = deadline - now()
    if wait <= 0 then return false end
    local data, err = conn:xread("-16384", "b", wait)
    if not data or data == "" then return false, err ~= ETIMEDOUT end
    buffer = buffer .. data
    return true
  end

  local function send(bytes) return send_all(conn, bytes, t.write) end

  -- Refuses with `status` and closes, letting the client read the answer
  -- (what it still sends is drained for a moment rather than reset).
  local function refuse(status, why)
    if send(refusal(status, why)) then
      conn:shutdown("w")
      local deadline, drained = now() + t.linger, 0
      while drained < 1024 * 1024 and fill(deadline) do
        drained = drained + #buffer
        buffer = ""
      end
    end
  end

  -- The next request's head: the head; or nil and the status and reason
  -- of a refusal; or nil when the client closed or idled away.
  local function read_head()
    local deadline = now() + t.idle
    while true do
      buffer = buffer:gsub("^[\r\n]+", "") -- empty lines before a request: skipped, not kept
      local head, rest, why = framing.split_head(buffer)
      if head then
        buffer = rest
        return head
      end
      if rest then return nil, rest, why end
      if buffer ~= "" and deadline > now() + t.head then deadline = now() + t.head end
      local more, early = fill(deadline)
      if not more then
        -- the end of input, or a deadline: a partial head is answered 408
        if not early and buffer ~= "" then return nil, 408, "the request head did not arrive in time" end
        return nil
      end
    end
  end

  while true do
    local head, status, reason = read_head()
    if not head then return status and refuse(status, reason) end
    local request
    request, status, reason = framing.parse_head(head)
    if not request then return refuse(status, reason) end
    local length
    length, status, reason = framing.body_length(request, api.MAX_BODY)
    if not length then return refuse(status, reason) end
    local expect = framing.field(request, "expect")
    if expect and expect:lower() ~= "100-continue" then
      return refuse(417, "the only expectation met is 100-continue")
    end
    status, reason = guard.check(opts.checker, request)
    if status then return refuse(status, reason) end
    -- the body
    if expect and request.version == "1.1" and #buffer < length and not send("HTTP/1.1 100 Continue\r\n\r\n") then
      return
    end
    local deadline = now() + t.body
    while #buffer < length do
      if not fill(deadline) then return end -- the client gave up, or stalled: dropped
    end
    local body = buffer:sub(1, length)
    buffer = buffer:sub(length + 1)
    -- the answer
    local keep = framing.keep_alive(request)
    local content_type, text, extra
    status, content_type, text, extra = serve_http.answer(opts, request, body)
    local head_only = request.method == "HEAD"
    local ok, bytes = pcall(answer_bytes, status, content_type, text, extra, head_only, not keep)
    if not ok then
      log(("%s %s: %s"):format(request.method, request.path, failure_text(bytes)))
      bytes = answer_bytes(500, JSON, json.encode { error = serve_http.FAILED }, nil, head_only, not keep)
    end
    if not send(bytes) or not keep then return end
  end
end

--- Listens on opts.host:opts.port (0: any free port) and sets up the
-- serving in a cqueues controller, which serves as it is stepped. opts:
-- host, port, store, page, log (function(text)), timeouts (default
-- serve_http.TIMEOUTS). Returns { controller =, host = the address bound,
-- port =, close = function that stops listening }, or nil and why it
-- cannot listen.
-- @tparam table opts as above
-- @treturn ?table the server
-- @treturn ?string why it cannot listen
function serve_http.start(opts)
  local cqueues, socket = serve_http.library()
  local errno = require "cqueues.errno"
  local log = opts.log or function() end
  local ok, listener = pcall(socket.listen, { host = opts.host, port = opts.port, reuseaddr = true })
  if not ok or not listener then return nil, tostring(listener) end
  listener:onerror(function(_, _, why) return why end)
  local listening, why = listener:listen()
  if not listening then return nil, ("%s"):format(why and errno.strerror(why) or "failed") end
  local _, bound, port = listener:localname()
  local state = {
    store = opts.store, page = opts.page, log = log, timeouts = opts.timeouts or serve_http.TIMEOUTS,
    checker = guard.new(opts.host, port, bound),
  }
  local cq = cqueues.new()
  local open = 0

  local function connection(conn)
    local served, err = pcall(serve_connection, conn, state, cqueues.monotime)
    if not served then log("a connection failed: " .. failure_text(err)) end
    conn:close()
    open = open - 1
  end

  -- One connection too many: 503, then a moment to read it (closing at
  -- once, with its request unread, would reset the connection instead).
  local function busy(conn)
    conn:setmode("b", "b")
    conn:onerror(function(_, _, e) return e end)
    if send_all(conn, refusal(503, "the server has too many connections open; try again"), 0.5) then
      conn:shutdown("w")
      conn:xread("-65536", "b", 0.5)
    end
    conn:close()
    open = open - 1
  end

  local function accept()
    local conn, err = listener:accept()
    if not conn then
      log("accept: " .. errno.strerror(err or 0))
      cqueues.sleep(0.1) -- out of descriptors, say: wait rather than spin
    elseif open >= serve_http.MAX_CONNECTIONS + 64 then
      conn:close()
    elseif open >= serve_http.MAX_CONNECTIONS then
      open = open + 1
      cq:wrap(busy, conn)
    else
      open = open + 1
      cq:wrap(connection, conn)
    end
  end

  cq:wrap(function()
    while true do
      local accepted, err = pcall(accept)
      if not accepted then
        log("accept: " .. failure_text(err))
        cqueues.sleep(0.1)
      end
    end
  end)
  return { controller = cq, host = bound, port = port, close = function() listener:close() end }
end

--- Listens and serves until the process ends (serve_http.start's opts,
-- and on_listen(host, port), called once listening). Returns only when
-- it cannot listen: nil, message.
-- @tparam table opts as serve_http.start takes them, and on_listen
-- @treturn nil
-- @treturn string why it cannot listen
function serve_http.run(opts)
  local server, why = serve_http.start(opts)
  if not server then return nil, why end
  if opts.on_listen then opts.on_listen(server.host, server.port) end
  local log = opts.log or function() end
  while true do
    local stepped, err = server.controller:step()
    if not stepped then log("the server loop: " .. failure_text(err)) end
  end
end

return serve_http
