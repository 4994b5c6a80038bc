--- Who may ask `boardscript serve` what, by a request's header fields (no
-- sockets): the Host it names must be an address the server listens on
-- (a page of another site reached through DNS rebinding names its own),
-- a request from a page of another origin or site may change nothing and
-- read nothing, and a request that changes state must be JSON (a form or
-- a `text/plain` fetch of another site's page is sent without asking).
-- docs/decisions.md ("serve: framing, Host and Origin") says why.
local framing = require "boardscript.serve.framing"

local guard = {}

-- An IPv4 address in dotted decimal, each part at most 255.
local function ipv4(text)
  local parts = { text:match("^(%d+)%.(%d+)%.(%d+)%.(%d+)$") }
  if #parts ~= 4 then return false end
  for _, part in ipairs(parts) do
    if #part > 3 or tonumber(part) > 255 then return false end
  end
  return true
end

-- An IPv6 address as a Host names it: in brackets.
local function ipv6(text)
  return text:match("^%[[%x:.]+%]$") ~= nil and text:find(":", 1, true) ~= nil
end

local function is_loopback(host)
  return host == "localhost" or host == "::1" or host == "[::1]" or host:match("^127%.%d+%.%d+%.%d+$") ~= nil
end

-- The name of an address as a Host field gives it: an IPv6 one in brackets.
local function as_host(address)
  address = address:lower()
  if address:find(":", 1, true) and address:sub(1, 1) ~= "[" then return "[" .. address .. "]" end
  return address
end

--- The checker for a server listening on `listen_host` (as given to
-- --host) at `port`, bound to `bound` (the address it got: the same, or
-- what a name resolved to). The names a Host may give: for a loopback
-- address, 127.0.0.1, localhost and [::1]; for 0.0.0.0 or ::, any IP
-- address and localhost; else the address and the name given. Always
-- with the port (none for port 80).
-- @tparam string listen_host the address or name listened on
-- @tparam number port the port listened on
-- @tparam ?string bound the address bound
-- @treturn table the checker, for guard.check
function guard.new(listen_host, port, bound)
  local names = {}
  local any_ip = false
  for _, address in ipairs { listen_host, bound or listen_host } do
    local host = as_host(address)
    if host == "0.0.0.0" or host == "[::]" then
      any_ip = true
      names.localhost = true
    elseif is_loopback(host) then
      names["127.0.0.1"], names.localhost, names["[::1]"] = true, true, true
    end
    names[host] = true
  end
  return { names = names, any_ip = any_ip, port = port, origin = ("http://%s:%d"):format(as_host(listen_host), port) }
end

-- Whether `host` (a Host field's value) names this server.
local function host_allowed(checker, host)
  local name, port = host:lower():match("^(%[[%x:.]+%]):?(%d*)$")
  if not name then name, port = host:lower():match("^([^:%[%]]+):?(%d*)$") end
  if not name then return false end
  if port == "" then
    if checker.port ~= 80 or host:sub(-1) == ":" then return false end
  elseif tonumber(port) ~= checker.port then
    return false
  end
  return checker.names[name] or (checker.any_ip and (ipv4(name) or ipv6(name))) or false
end

--- Checks one request against `checker` (guard.new). Returns nil when the
-- request may go on; else the status (400 no Host in HTTP/1.1, 421 a Host
-- that is not this server, 403 another origin or site, 415 a state change
-- that is not JSON) and the reason.
-- @tparam table checker as guard.new makes it
-- @tparam table request as boardscript.serve.framing.parse_head gives it
-- @treturn ?number the status of a refusal
-- @treturn ?string its reason
function guard.check(checker, request)
  local host = request.authority or framing.field(request, "host")
  if not host then
    if request.version == "1.1" then return 400, "an HTTP/1.1 request names its Host" end
  elseif not host_allowed(checker, host) then
    return 421, ("this server answers to %s/, not to the host %s"):format(checker.origin, host)
  end
  local origin = framing.field(request, "origin")
  if origin and (not host or origin:lower() ~= "http://" .. host:lower()) then
    return 403, ("a request from the page of another origin (%s) is refused"):format(origin)
  end
  local site = framing.field(request, "sec-fetch-site")
  if site == "cross-site" or site == "same-site" then
    local navigation = framing.field(request, "sec-fetch-mode") == "navigate"
      and (request.method == "GET" or request.method == "HEAD")
      and (request.path == "/" or request.path == "/index.html")
    if not navigation then return 403, "a request from another site's page is refused (open the page itself)" end
  end
  if request.method ~= "GET" and request.method ~= "HEAD" and framing.media_type(request) ~= "application/json" then
    return 415, ("%s takes a body of Content-Type: application/json (even an empty one)"):format(request.method)
  end
  return nil
end

return guard
