--- HTTP/1.1 message framing for `boardscript serve` (RFC 9112), strict and
-- bounded, without sockets: where a request's head ends, its request line
-- and header fields, its body's length, whether the connection stays open,
-- and the bytes of an answer. Whatever a client sends either parses or is
-- refused with the status to answer (400, 411, 413, 414, 431, 505) and a
-- reason; nothing here raises on a client's bytes.
local framing = {}

--- The largest request head (request line and header fields), in bytes.
framing.MAX_HEAD = 16 * 1024
--- The longest request line, in bytes.
framing.MAX_REQUEST_LINE = 8 * 1024
--- The most header fields a request may have.
framing.MAX_FIELDS = 64

--- The reason phrase of each status the server answers.
framing.REASONS = {
  [100] = "Continue", [200] = "OK", [201] = "Created", [400] = "Bad Request", [403] = "Forbidden",
  [404] = "Not Found", [405] = "Method Not Allowed", [408] = "Request Timeout", [409] = "Conflict",
  [411] = "Length Required",
  [413] = "Content Too Large", [414] = "URI Too Long", [415] = "Unsupported Media Type",
  [417] = "Expectation Failed", [421] = "Misdirected Request", [431] = "Request Header Fields Too Large",
  [500] = "Internal Server Error", [501] = "Not Implemented", [503] = "Service Unavailable",
  [505] = "HTTP Version Not Supported",
}

-- Fields a request may carry at most once (RFC 9110: Host; the others are
-- what the server decides on, so two differing copies would be ambiguous).
local ONCE = {
  host = true, ["content-type"] = true, origin = true, expect = true,
  ["sec-fetch-site"] = true, ["sec-fetch-mode"] = true, ["transfer-encoding"] = true,
}

-- A token (RFC 9110 5.6.2): a method or a field name.
local TOKEN = "^[%w!#$%%&'*+%-.^_`|~]+$"

--- Where the head at the start of `buffer` ends. Empty lines before a
-- request line are skipped (RFC 9112 2.2). Returns the head (without its
-- final empty line) and the rest of the buffer; or nil when more bytes are
-- needed; or nil, status, reason when the head is too long.
-- @tparam string buffer the bytes read so far
-- @treturn ?string the head
-- @treturn string|number|nil the rest of the buffer, or the status of a refusal
-- @treturn ?string the reason of a refusal
function framing.split_head(buffer)
  buffer = buffer:gsub("^[\r\n]+", "")
  local first_line_end = buffer:find("\n", 1, true)
  -- a request line is printable ASCII: anything else (TLS, binary) is refused at once
  if buffer:sub(1, (first_line_end or #buffer + 1) - 1):find("[^\32-\126\r]") then
    return nil, 400, "this is not an HTTP/1.1 request"
  end
  if (first_line_end or #buffer + 1) > framing.MAX_REQUEST_LINE + 2 then
    return nil, 414, ("a request line is at most %d bytes"):format(framing.MAX_REQUEST_LINE)
  end
  local s, e = buffer:find("\r?\n\r?\n")
  if (s or #buffer + 1) > framing.MAX_HEAD + 1 then
    return nil, 431, ("a request head is at most %d bytes"):format(framing.MAX_HEAD)
  end
  if not s then return nil end
  return buffer:sub(1, s - 1), buffer:sub(e + 1)
end

-- The request line: method, target, version; or nil, status, reason.
local function request_line(line)
  local method, target, version = line:match("^(%S+) (%S+) HTTP/(%d%.%d)$")
  if not method then
    if line:match("^%S+ %S+ HTTP/%d+%.%d+$") then return nil, 505, "only HTTP/1.1 and HTTP/1.0 are spoken here" end
    return nil, 400, "the request line is not METHOD TARGET HTTP/1.1"
  end
  if version ~= "1.1" and version ~= "1.0" then return nil, 505, "only HTTP/1.1 and HTTP/1.0 are spoken here" end
  if not method:match(TOKEN) then return nil, 400, "the method is not a token" end
  if target:find("[^\33-\126]") then return nil, 400, "the request target has a byte that is not printable ASCII" end
  return method, target, version
end

-- The path and query of a target, and the authority of an absolute-form
-- one (RFC 9112 3.2.2: a server accepts it, and its authority is the host).
local function split_target(target)
  local authority, rest
  if target:sub(1, 1) ~= "/" then
    authority, rest = target:match("^[hH][tT][tT][pP]://([^/?#]+)(.*)$")
    if not authority then return nil end
    if rest == "" then rest = "/" end
    if rest:sub(1, 1) ~= "/" then rest = "/" .. rest end
    target = rest
  end
  local path, query = target:match("^([^?#]*)%??([^#]*)")
  return path, query, authority
end

--- Parses a request head (as framing.split_head gives it). Returns the
-- request: { method =, target =, path =, query =, version = "1.1" or
-- "1.0", authority = (absolute-form only), fields = { [lower-case name] =
-- { values... } } }; or nil, status, reason.
-- @tparam string head the request line and header fields
-- @treturn ?table the request
-- @treturn ?number the status of a refusal
-- @treturn ?string its reason
function framing.parse_head(head)
  local lines = {}
  for line in (head .. "\n"):gmatch("(.-)\r?\n") do
    if line:find("\r", 1, true) then return nil, 400, "a line holds a carriage return of its own" end
    lines[#lines + 1] = line
  end
  local method, target, version = request_line(lines[1] or "")
  if not method then return nil, target, version end
  local path, query, authority = split_target(target)
  if not path then return nil, 400, "the request target is neither /PATH nor http://HOST/PATH" end
  if #lines - 1 > framing.MAX_FIELDS then
    return nil, 431, ("a request has at most %d header fields"):format(framing.MAX_FIELDS)
  end
  local fields = {}
  for i = 2, #lines do
    local line = lines[i]
    if line:find("^[ \t]") then return nil, 400, "a header field is folded over lines" end
    local name, value = line:match("^([^:]*):[ \t]*(.-)[ \t]*$")
    if not name or not name:match(TOKEN) then return nil, 400, "a header field is not NAME: VALUE" end
    if value:find("[%z\1-\8\10-\31\127]") then return nil, 400, "a header field's value holds a control character" end
    name = name:lower()
    local values = fields[name]
    if not values then
      values = {}
      fields[name] = values
    elseif ONCE[name] then
      return nil, 400, ("the %s field is given twice"):format(name)
    end
    values[#values + 1] = value
  end
  return { method = method, target = target, path = path, query = query, version = version,
           authority = authority, fields = fields }
end

--- The one value of field `name` in `request`, or nil when absent (a
-- list field given several times: its values joined with ", ").
-- @tparam table request as framing.parse_head gives it
-- @tparam string name the field's name, in lower case
-- @treturn ?string its value
function framing.field(request, name)
  local values = request.fields[name]
  return values and table.concat(values, ", ")
end

--- The length of `request`'s body: a Content-Length of digits only, the
-- same in every copy; a body up to `max` bytes. Transfer-Encoding is not
-- taken (411: send a Content-Length), nor with a Content-Length (400).
-- Returns the length, or nil, status, reason.
-- @tparam table request as framing.parse_head gives it
-- @tparam number max the largest body taken
-- @treturn ?number the length
-- @treturn ?number the status of a refusal
-- @treturn ?string its reason
function framing.body_length(request, max)
  local lengths = request.fields["content-length"]
  if request.fields["transfer-encoding"] then
    if lengths then return nil, 400, "a request has both Transfer-Encoding and Content-Length" end
    return nil, 411, "send the body with a Content-Length (Transfer-Encoding is not taken)"
  end
  if not lengths then return 0 end
  local length
  for item in (table.concat(lengths, ",") .. ","):gmatch("[ \t]*([^,]-)[ \t]*,") do
    if not item:match("^%d+$") then return nil, 400, "Content-Length is not a number of bytes" end
    if length and item ~= length then return nil, 400, "Content-Length is given twice with different values" end
    length = item
  end
  local digits = length:gsub("^0+(%d)", "%1")
  if #digits > 15 or tonumber(digits) > max then
    return nil, 413, ("a request body is at most %d bytes"):format(max)
  end
  return tonumber(digits)
end

--- Whether the connection may carry another request after this one's
-- answer: HTTP/1.1 without `Connection: close` (HTTP/1.0 gets one answer).
-- @tparam table request as framing.parse_head gives it
-- @treturn boolean
function framing.keep_alive(request)
  if request.version ~= "1.1" then return false end
  for token in (framing.field(request, "connection") or ""):lower():gmatch("[^,%s]+") do
    if token == "close" then return false end
  end
  return true
end

--- The media type of `request`'s Content-Type in lower case, without its
-- parameters ("application/json"), or nil.
-- @tparam table request as framing.parse_head gives it
-- @treturn ?string
function framing.media_type(request)
  local value = framing.field(request, "content-type")
  return value and value:match("^[ \t]*([^;%s]*)"):lower()
end

--- The bytes of an answer: status line, fields, body (none for HEAD).
-- `fields` is a list of { name, value }; Content-Length is added, and
-- `Connection: close` when `close`. Raises on a field with a line break
-- (an answer of ours, never a client's bytes).
-- @tparam number status the status
-- @tparam table fields a list of { name, value }
-- @tparam string body the body
-- @tparam boolean head_only the answer to HEAD: the fields without the body
-- @tparam boolean close whether the connection closes after it
-- @treturn string the answer's bytes
function framing.response(status, fields, body, head_only, close)
  local out = { ("HTTP/1.1 %d %s\r\n"):format(status, framing.REASONS[status] or "Unknown") }
  for _, field in ipairs(fields) do
    local name, value = field[1], tostring(field[2])
    assert(name:match(TOKEN) and not value:find("[\r\n%z]"), "an answer's header field is not NAME: VALUE")
    out[#out + 1] = ("%s: %s\r\n"):format(name, value)
  end
  out[#out + 1] = ("content-length: %d\r\n"):format(#body)
  if close then out[#out + 1] = "connection: close\r\n" end
  out[#out + 1] = "\r\n"
  if not head_only then out[#out + 1] = body end
  return table.concat(out)
end

return framing
