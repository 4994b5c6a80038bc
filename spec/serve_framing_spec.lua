-- boardscript serve's HTTP layer without sockets: the framing of a request
-- (boardscript.serve.framing), who may ask what (boardscript.serve.guard)
-- and what an answer may hold (boardscript.serve.http's answer). The same
-- probes go over a real socket to the real binary in spec/serve_socket_test.py.
local framing = require "boardscript.serve.framing"
local guard = require "boardscript.serve.guard"
local api = require "boardscript.serve.api"
local json = require "dkjson"

local function parse(text)
  local head, rest, why = framing.split_head(text)
  if not head then return nil, rest, why end
  return framing.parse_head(head)
end

describe("framing a request (boardscript.serve.framing)", function()
  it("finds the end of a head, skipping empty lines before it, and waits for more", function()
    assert.same({ "GET / HTTP/1.1\r\nHost: a", "rest" },
      { framing.split_head("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\nrest") })
    assert.same({ "GET / HTTP/1.1\nHost: a", "" }, { framing.split_head("GET / HTTP/1.1\nHost: a\n\n") })
    assert.is_nil((framing.split_head("GET / HTTP/1.1\r\nHost: a\r\n")))
    assert.is_nil((framing.split_head("")))
  end)

  it("refuses a head too long, a request line too long and bytes that are no request line at once", function()
    assert.equal(414, select(2, framing.split_head("GET /" .. ("a"):rep(framing.MAX_REQUEST_LINE))))
    assert.equal(431, select(2, framing.split_head("GET / HTTP/1.1\r\nX: " .. ("a"):rep(framing.MAX_HEAD))))
    assert.equal(400, select(2, framing.split_head("\22\3\1\0\165")))
    assert.equal(400, select(2, framing.split_head("GET /\195\169 HTTP/1.1")))
  end)

  it("parses the request line, the target's path and query, and the fields by lower-case name", function()
    local r = assert(parse("POST /api/games/1/record?format=ggf&x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
      .. "Accept: a\r\naccept:  b \r\n\r\n"))
    assert.equal("POST", r.method)
    assert.equal("/api/games/1/record", r.path)
    assert.equal("format=ggf&x=1", r.query)
    assert.equal("1.1", r.version)
    assert.same({ "a", "b" }, r.fields.accept)
    assert.equal("a, b", framing.field(r, "accept"))
    assert.equal("127.0.0.1:8080", framing.field(r, "host"))
    r = assert(parse("GET http://127.0.0.1:8080/api/rules HTTP/1.0\r\n\r\n"))
    assert.equal("127.0.0.1:8080", r.authority)
    assert.equal("/api/rules", r.path)
    assert.equal("1.0", r.version)
  end)

  it("refuses what is not HTTP/1.1 with the status to answer", function()
    local cases = {
      { "NONSENSE", 400 }, { "GET /", 400 }, { "GET / HTTP/2.0", 505 }, { "GET / HTTP/1.1 x", 400 },
      { "GET  / HTTP/1.1", 400 }, { "GET api HTTP/1.1", 400 }, { "G(T / HTTP/1.1", 400 },
      { "GET / HTTP/1.1\r\nX: a\r\n b", 400 }, { "GET / HTTP/1.1\r\nHost : a", 400 },
      { "GET / HTTP/1.1\r\nX: a\0b", 400 }, { "GET / HTTP/1.1\r\nX: a\rb", 400 },
      { "GET / HTTP/1.1\r\nno colon", 400 },
      { "GET / HTTP/1.1\r\nHost: a\r\nHost: a", 400 }, { "GET / HTTP/1.1\r\nOrigin: a\r\nOrigin: b", 400 },
    }
    for _, case in ipairs(cases) do
      local r, status = parse(case[1] .. "\r\n\r\n")
      assert.is_nil(r, case[1])
      assert.equal(case[2], status, case[1])
    end
    local many = { "GET / HTTP/1.1" }
    for i = 1, framing.MAX_FIELDS + 1 do many[#many + 1] = "X-" .. i .. ": 1" end
    assert.equal(431, select(2, parse(table.concat(many, "\r\n") .. "\r\n\r\n")))
  end)

  it("takes a Content-Length of digits only, the same in every copy, up to the largest body", function()
    local function length(...)
      local lines = { "POST / HTTP/1.1" }
      for _, v in ipairs { ... } do lines[#lines + 1] = "Content-Length: " .. v end
      return framing.body_length(assert(parse(table.concat(lines, "\r\n") .. "\r\n\r\n")), 100)
    end
    assert.equal(0, framing.body_length(assert(parse("POST / HTTP/1.1\r\n\r\n")), 100))
    assert.equal(5, length("5"))
    assert.equal(5, length("005"))
    assert.equal(2, length("2", "2"))
    assert.equal(2, length("2, 2"))
    for _, bad in ipairs { "-5", "-1", "1.5", "", "abc", "+5", "0x10", "5 5", "1e3" } do
      assert.equal(400, select(2, length(bad)), bad)
    end
    assert.equal(400, select(2, length("2", "3")))
    assert.equal(400, select(2, length("2, 3")))
    assert.equal(413, select(2, length("101")))
    assert.equal(413, select(2, length("9223372036854775808")))
    assert.equal(413, select(2, length(("9"):rep(400))))
    local chunked = assert(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"))
    assert.equal(411, select(2, framing.body_length(chunked, 100)))
    local both = assert(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n"))
    assert.equal(400, select(2, framing.body_length(both, 100)))
  end)

  it("keeps an HTTP/1.1 connection open unless asked to close; HTTP/1.0 gets one answer", function()
    assert.is_true(framing.keep_alive(assert(parse("GET / HTTP/1.1\r\n\r\n"))))
    assert.is_false(framing.keep_alive(assert(parse("GET / HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n"))))
    assert.is_false(framing.keep_alive(assert(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"))))
  end)

  it("writes an answer with its length, without a body for HEAD, and refuses a field with a line break", function()
    assert.equal("HTTP/1.1 200 OK\r\na: b\r\ncontent-length: 2\r\n\r\n{}",
      framing.response(200, { { "a", "b" } }, "{}", false, false))
    assert.equal("HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\nconnection: close\r\n\r\n",
      framing.response(404, {}, "{}", true, true))
    assert.has_error(function() framing.response(200, { { "a", "b\r\nx: y" } }, "", false, false) end)
  end)
end)

describe("who may ask what (boardscript.serve.guard)", function()
  local function request(text)
    return assert(parse(text .. "\r\n\r\n"))
  end

  local function host_status(checker, host)
    return guard.check(checker, request("GET /api/rules HTTP/1.1\r\nHost: " .. host)) or 200
  end

  it("takes, on loopback, 127.0.0.1, localhost and [::1] with the port, nothing else", function()
    local checker = guard.new("127.0.0.1", 8080, "127.0.0.1")
    for _, ok in ipairs { "127.0.0.1:8080", "localhost:8080", "LocalHost:8080", "[::1]:8080" } do
      assert.equal(200, host_status(checker, ok), ok)
    end
    for _, bad in ipairs { "attacker.example", "attacker.example:8080", "127.0.0.1", "127.0.0.1:8081",
                           "127.0.0.1:", "localhost.:8080", "10.0.0.1:8080", "127.0.0.1:8080:8080", "[::1]",
                           "127.0.0.1:08080x", "" } do
      assert.equal(421, host_status(checker, bad), bad)
    end
    assert.equal(400, guard.check(checker, request("GET / HTTP/1.1")))
    assert.is_nil(guard.check(checker, request("GET / HTTP/1.0")))
  end)

  it("takes, on 0.0.0.0 or ::, any IP address and localhost with the port, never another name", function()
    for _, listen in ipairs { "0.0.0.0", "::" } do
      local checker = guard.new(listen, 8080, listen)
      for _, ok in ipairs { "192.168.1.5:8080", "10.0.0.1:8080", "[fe80::1]:8080", "localhost:8080",
                            "127.0.0.1:8080" } do
        assert.equal(200, host_status(checker, ok), listen .. " " .. ok)
      end
      for _, bad in ipairs { "attacker.example:8080", "192.168.1.5:80", "999.1.1.1:8080", "1.2.3:8080" } do
        assert.equal(421, host_status(checker, bad), listen .. " " .. bad)
      end
    end
  end)

  it("takes, on another address, that address (and the name given to --host)", function()
    local checker = guard.new("192.168.1.5", 80, "192.168.1.5")
    assert.equal(200, host_status(checker, "192.168.1.5"))
    assert.equal(200, host_status(checker, "192.168.1.5:80"))
    assert.equal(421, host_status(checker, "192.168.1.6"))
    assert.equal(421, host_status(checker, "localhost"))
    checker = guard.new("box.lan", 8080, "10.0.0.2")
    assert.equal(200, host_status(checker, "box.lan:8080"))
    assert.equal(200, host_status(checker, "10.0.0.2:8080"))
    assert.equal(421, host_status(checker, "other.lan:8080"))
  end)

  it("refuses another origin or site, and a state change that is not JSON", function()
    local checker = guard.new("127.0.0.1", 8080, "127.0.0.1")
    local function status(method, fields)
      local text = method .. " /api/games HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n" .. fields
      return guard.check(checker, request(text)) or 200
    end
    local json_type = "Content-Type: application/json"
    assert.equal(200, status("POST", json_type))
    assert.equal(200, status("POST", "Content-Type: application/JSON; charset=utf-8\r\nOrigin: http://127.0.0.1:8080"))
    assert.equal(415, status("POST", "Content-Type: text/plain"))
    assert.equal(415, status("POST", "Content-Type: application/x-www-form-urlencoded"))
    assert.equal(415, status("POST", "Content-Type: multipart/form-data; boundary=x"))
    assert.equal(415, status("POST", "X: y"))
    assert.equal(415, status("PUT", "X: y"))
    assert.equal(403, status("POST", json_type .. "\r\nOrigin: http://attacker.example"))
    assert.equal(403, status("POST", json_type .. "\r\nOrigin: null"))
    assert.equal(403, status("POST", json_type .. "\r\nOrigin: http://localhost:8080"))
    assert.equal(403, status("POST", json_type .. "\r\nOrigin: https://127.0.0.1:8080"))
    assert.equal(403, status("POST", json_type .. "\r\nSec-Fetch-Site: cross-site"))
    assert.equal(403, status("POST", json_type .. "\r\nSec-Fetch-Site: same-site"))
    assert.equal(200, status("POST", json_type .. "\r\nSec-Fetch-Site: same-origin"))
    assert.equal(403, status("GET", "Origin: http://attacker.example"))
    assert.equal(403, status("GET", "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors"))
    assert.equal(403, status("GET", "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate")) -- not the page
    local page = request("GET /?rules=anti HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nSec-Fetch-Site: cross-site\r\n"
      .. "Sec-Fetch-Mode: navigate")
    assert.is_nil(guard.check(checker, page)) -- a link from another site opens the page
  end)
end)

describe("what an answer may hold (boardscript.serve.http)", function()
  local serve_http = require "boardscript.serve.http"
  local games = require "boardscript.serve.games"

  local function answer(handle, text)
    local logged = {}
    local saved = api.handle
    api.handle = handle or saved
    local opts = { store = games.new_store { seed = 1 }, page = "PAGE", checker = guard.new("127.0.0.1", 8080),
                   log = function(line) logged[#logged + 1] = line end }
    local ok, status, content_type, body = pcall(serve_http.answer, opts,
      assert(parse((text or "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json")
        .. "\r\n\r\n")), "{}")
    api.handle = saved
    assert(ok, status)
    return status, content_type, body, table.concat(logged, "\n")
  end

  it("answers a handler that raises with 500 and a fixed text; the details go to the log", function()
    for _, err in ipairs { "boom at /secret/path.lua:3", setmetatable({}, { __tostring = function() return "x" end }),
                           { 1 }, 42 } do
      local status, content_type, body, logged = answer(function() error(err) end)
      assert.equal(500, status)
      assert.matches("^application/json", content_type)
      assert.same({ error = serve_http.FAILED }, json.decode(body))
      assert.matches("POST /api/games: ", logged)
    end
    local logged = select(4, answer(function() error("boom at /secret/path.lua:3") end))
    assert.matches("boom at /secret/path.lua:3\nstack traceback", logged, 1, true)
  end)

  it("answers a handler's nonsense, or a refusal holding a traceback or a position of ours, with 500", function()
    for _, handle in ipairs {
      function() return "200", "text/plain", "x" end,
      function() return 200, "text/plain", {} end,
      function() return 299, "text/plain", "x" end,
      function() return 400, "application/json", '{"error":"x\\nstack traceback:\\n..."}' end,
      function() return 400, "application/json", '{"error":"/usr/share/lua/5.4/boardscript/ggf.lua:122: y"}' end,
    } do
      local status, _, body = answer(handle)
      assert.equal(500, status)
      assert.same({ error = serve_http.FAILED }, json.decode(body))
    end
  end)

  it("names a heap address in a refusal by its type, and keeps a user file's position", function()
    local status, _, body = answer(function()
      return 400, "application/json", json.encode { error = "unknown rule set 'table: 0x55b4d9f326f0'; mine.lua:3: no" }
    end)
    assert.equal(400, status)
    assert.equal("unknown rule set 'a table'; mine.lua:3: no", json.decode(body).error)
  end)

  it("serves other clients while a handler waits (cqueues.sleep here, a worker's pipe alike)", function()
    local has_cqueues, cqueues = pcall(require, "cqueues")
    if not has_cqueues then
      pending("cqueues is not installed")
      return
    end
    local socket = require "cqueues.socket"
    local saved = api.handle
    api.handle = function(store, page, method, path, ...)
      if path == "/slow" then
        cqueues.sleep(1)
        return 200, "text/plain", "slow"
      end
      return saved(store, page, method, path, ...)
    end
    local server = assert(serve_http.start { host = "127.0.0.1", port = 0, store = games.new_store { seed = 1 },
                                             page = "PAGE" })
    finally(function()
      api.handle = saved
      server.close()
    end)
    local done, start = {}, cqueues.monotime()
    local function get(path)
      local conn = assert(socket.connect("127.0.0.1", server.port))
      conn:setmode("b", "b")
      conn:write(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"):format(path, server.port))
      conn:flush()
      local text = conn:xread("*a", "b", 5)
      conn:close()
      done[#done + 1] = { path = path, after = cqueues.monotime() - start,
                          status = text and text:match("^HTTP/1.1 (%d+)") }
    end
    server.controller:wrap(get, "/slow")
    server.controller:wrap(function()
      cqueues.sleep(0.1)
      get("/api/rules")
    end)
    while #done < 2 and cqueues.monotime() - start < 5 do assert(server.controller:step(0.1)) end
    assert.equal(2, #done)
    assert.same({ "/api/rules", "200" }, { done[1].path, done[1].status })
    assert.is_true(done[1].after < 0.6, done[1].after)
    assert.same({ "/slow", "200" }, { done[2].path, done[2].status })
    assert.is_true(done[2].after >= 1)
  end)

  it("refuses before the API is asked", function()
    local asked = false
    local status, _, body = answer(function() asked = true end,
      "POST /api/games HTTP/1.1\r\nHost: attacker.example\r\nContent-Type: application/json")
    assert.equal(421, status)
    assert.matches("^this server answers to http://127%.0%.0%.1:8080/", json.decode(body).error)
    assert.is_false(asked)
  end)
end)
