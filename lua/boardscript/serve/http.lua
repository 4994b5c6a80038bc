--- The HTTP side of `boardscript serve`: Debian's lua-http (over cqueues)
-- listens, reads each request (its body bounded by api.MAX_BODY), lets
-- boardscript.serve.api answer it and writes the answer. A request that
-- fails in any way gets an answer (500 with the message for an error of
-- ours) and never stops the server; a connection that closes early is
-- dropped and logged.
local errors = require "boardscript.errors"
local api = require "boardscript.serve.api"

local serve_http = {}

--- Where Debian puts lua-http's pure-Lua files besides 5.4's own: its
-- package (0.4) installs them for Lua 5.1 to 5.3 only, and they run on
-- 5.4 unchanged; cqueues and luaossl are built for 5.4.
serve_http.EXTRA_DIRS = { "/usr/share/lua/5.3", "/usr/share/lua/5.2", "/usr/share/lua/5.1" }

--- Loads lua-http: its server and headers modules, or raises a user error
-- saying what to install.
function serve_http.library()
  local ok, server = pcall(require, "http.server")
  if not ok then
    for _, dir in ipairs(serve_http.EXTRA_DIRS) do
      package.path = ("%s;%s/?.lua;%s/?/init.lua"):format(package.path, dir, dir)
    end
    ok, server = pcall(require, "http.server")
  end
  if not ok then
    errors.fail(("serve: lua-http is not installed (Debian: apt-get install lua-http lua-cqueues; "
      .. "scripts/bootstrap installs it): %s"):format(tostring(server):match("^[^\n]*")))
  end
  return server, require "http.headers"
end

-- Writes one answer on `stream`.
local function respond(headers_mod, stream, method, status, content_type, body, extra)
  local h = headers_mod.new()
  h:append(":status", tostring(status))
  h:append("content-type", content_type)
  h:append("cache-control", "no-store")
  h:append("x-content-type-options", "nosniff")
  for key, value in pairs(extra or {}) do h:append(key, value) end
  h:append("content-length", tostring(#body))
  if method == "HEAD" then return stream:write_headers(h, true) end
  local ok, err = stream:write_headers(h, false)
  if not ok then return nil, err end
  return stream:write_chunk(body, true)
end

--- The request handler for a store: function(server, stream).
-- opts: store, page (the page's text), log (function(text) or nil).
function serve_http.handler(headers_mod, opts)
  local log = opts.log or function() end
  return function(_, stream)
    local req = stream:get_headers(10)
    if not req then return end -- closed before its headers
    local method = req:get(":method") or "GET"
    local target = req:get(":path") or "/"
    local path, query = target:match("^([^?]*)%??(.*)$")
    local body = ""
    if method == "POST" then
      local chunk, err = stream:get_body_chars(api.MAX_BODY + 1, 10)
      if chunk == nil and err ~= nil then
        log(("%s %s: %s"):format(method, path, tostring(err)))
        return
      end
      body = chunk or ""
    end
    local r = table.pack(pcall(api.handle, opts.store, opts.page, method, path, api.query(query), body))
    local status, content_type, text, extra
    if r[1] then
      status, content_type, text, extra = r[2], r[3], r[4], r[5]
    else
      local err = r[2]
      local message = errors.is_user(err) and err.message or tostring(err)
      log(("%s %s: %s"):format(method, path, message))
      status, content_type = 500, "application/json; charset=utf-8"
      text = require("dkjson").encode { error = "the server failed: " .. message }
    end
    local ok, err = respond(headers_mod, stream, method, status, content_type, text, extra)
    if not ok then log(("%s %s: the answer was not sent: %s"):format(method, path, tostring(err))) end
  end
end

--- Listens on opts.host:opts.port (0: any free port) and serves until
-- the process ends. opts: host, port, store, page, log, on_listen(host,
-- port) called once listening. Returns only on an error (nil, message).
function serve_http.run(opts)
  local server_mod, headers_mod = serve_http.library()
  local log = opts.log or function() end
  local server, err = server_mod.listen {
    host = opts.host, port = opts.port, reuseaddr = true,
    onstream = serve_http.handler(headers_mod, opts),
    onerror = function(_, context, op, e)
      log(("%s: %s %s"):format(tostring(context), tostring(op), tostring(e)))
    end,
  }
  if not server then return nil, err end
  local ok, why = server:listen()
  if not ok then return nil, why end
  local _, host, port = server:localname()
  if opts.on_listen then opts.on_listen(host, port) end
  return server:loop()
end

return serve_http
