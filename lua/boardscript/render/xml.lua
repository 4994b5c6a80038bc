--- Writing XML by hand, safely: text escaped (and made valid UTF-8 without
-- the control characters XML 1.0 forbids), numbers written the same way on
-- every machine, elements with their attributes in a fixed order.
local xml = {}

local ENTITIES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }
local REPLACEMENT = "\u{FFFD}"

-- Whether one UTF-8 sequence is a character XML 1.0 allows.
local function allowed(ch)
  if utf8.len(ch) ~= 1 then return false end -- malformed, overlong or a surrogate
  local code = utf8.codepoint(ch)
  if code < 32 then return code == 9 or code == 10 or code == 13 end
  return code ~= 0xFFFE and code ~= 0xFFFF
end

--- Text (any value, through tostring) safe inside an element or a quoted
-- attribute: `& < > " '` escaped, a byte that is not UTF-8 and a control
-- character XML cannot hold (NUL, ESC, ...) replaced by U+FFFD.
function xml.escape(text)
  text = tostring(text)
  local out, i = {}, 1
  while i <= #text do
    local lead = text:byte(i)
    local length = lead < 0x80 and 1 or lead >= 0xF0 and 4 or lead >= 0xE0 and 3 or 2
    local ch = text:sub(i, i + length - 1)
    if allowed(ch) then
      out[#out + 1] = ENTITIES[ch] or ch
    else
      out[#out + 1] = REPLACEMENT
      length = 1
    end
    i = i + length
  end
  return table.concat(out)
end

--- A number as an attribute value: integers as digits, anything else
-- rounded to two decimals without trailing zeros (never "-0").
function xml.num(x)
  if math.type(x) == "integer" then return tostring(x) end
  local s = ("%.2f"):format(x):gsub("0+$", ""):gsub("%.$", "")
  if s == "-0" then s = "0" end
  return s
end

--- An element: `attrs` a flat list { name1, value1, name2, value2, ... }
-- (values escaped here), `body` text already escaped (nil: an empty element).
function xml.tag(name, attrs, body)
  local out = { "<", name }
  for i = 1, #attrs, 2 do
    out[#out + 1] = (' %s="%s"'):format(attrs[i], xml.escape(attrs[i + 1]))
  end
  if body == nil then
    out[#out + 1] = "/>"
  else
    out[#out + 1] = ">" .. body .. "</" .. name .. ">"
  end
  return table.concat(out)
end

return xml
