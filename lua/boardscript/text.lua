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

return text
