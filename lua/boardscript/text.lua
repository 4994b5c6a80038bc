--- Text helpers shared by the parsers of typed and read text.
-- @module boardscript.text
local text = {}

--- `s` without the blanks around it, in linear time. (The pattern
-- "^%s*(.-)%s*$" takes time quadratic in a long run of blanks inside the
-- text: a line of a megabyte of spaces between two words took minutes.)
function text.trim(s)
  local first = s:find("%S")
  if not first then return "" end
  local last = #s
  while s:find("^%s", last) do last = last - 1 end
  return s:sub(first, last)
end

--- The first word of `s` and the rest after the blanks that follow it, both
-- without the blanks around them; nil for a blank `s`.
function text.word_and_rest(s)
  return text.trim(s):match("^(%S+)%s*(.*)$")
end

--- `s` quoted for a POSIX shell: one word, whatever it holds.
function text.shell_quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

--- The words of `s` filled into lines of at most `width` characters (a
-- longer word alone on its line, a size such as `8 x 8` kept on one); a
-- blank line in `s` starts a new paragraph, kept as an empty line.
-- Returns a new list of the lines.
-- @tparam string s the text
-- @tparam integer width the longest line
-- @treturn {string,...} the lines
function text.wrap(s, width)
  local lines = {}
  local function paragraph(body)
    local line
    for word in body:gsub("(%d) x (%d)", "%1\1x\1%2"):gmatch("%S+") do
      word = word:gsub("\1", " ")
      if line and #line + 1 + #word <= width then
        line = line .. " " .. word
      else
        if line then lines[#lines + 1] = line end
        line = word
      end
    end
    if line then lines[#lines + 1] = line end
  end
  local start = 1
  while true do
    local from, to = s:find("\n[ \t\r]*\n%s*", start)
    paragraph(s:sub(start, from and from - 1 or #s))
    if not from then break end
    if #lines > 0 and lines[#lines] ~= "" then lines[#lines + 1] = "" end
    start = to + 1
  end
  if lines[#lines] == "" then lines[#lines] = nil end
  return lines
end

return text
