--- Prompts and input over any reader and writer.
-- A console reads like C++ `cin`: `read_token` takes the next
-- whitespace-separated word (crossing lines), `read_line` the rest of the
-- current line. End of input is a value (nil), never an error; the `token`
-- and `line` variants raise `console.EOF` instead, which the edition runner
-- turns into the standard end-of-input exit.
local console = {}

local Console = {}
Console.__index = Console

--- The error value raised by `token` and `line` at end of input.
console.EOF = setmetatable({}, {
  __tostring = function() return "input ended before the game finished" end,
})

--- A writer that keeps everything written, for in-memory dialogues.
function console.buffer()
  local parts = {}
  return {
    write = function(self, ...)
      for i = 1, select("#", ...) do parts[#parts + 1] = tostring((select(i, ...))) end
      return self
    end,
    flush = function() end,
    contents = function() return table.concat(parts) end,
  }
end

-- A reader is a function returning the next line with its newline (the last
-- line may lack one), or nil at the end.
local function string_reader(text)
  local position = 1
  return function()
    if position > #text then return nil end
    local stop = text:find("\n", position, true) or #text
    local line = text:sub(position, stop)
    position = stop + 1
    return line
  end
end

local function file_reader(file)
  return function() return file:read("L") end
end

local function as_reader(input)
  if type(input) == "string" then return string_reader(input) end
  if type(input) == "function" then return input end
  if io.type(input) == "file" or (type(input) == "table" and input.read) then
    return file_reader(input)
  end
  error("bad input for console (expected a string, a file or a reader function)", 3)
end

--- Creates a console.
-- opts.input: a string, a file handle or a reader function (default io.stdin);
-- opts.output, opts.errors: objects with :write (default io.stdout, io.stderr).
function console.new(opts)
  opts = opts or {}
  return setmetatable({
    reader = as_reader(opts.input or io.stdin),
    output = opts.output or io.stdout,
    errors = opts.errors or io.stderr,
    pending = nil, -- the current line, newline included, while part of it is unread
    position = 1,  -- where its unread part starts (kept as an index so that
                   -- a long line of tokens is not copied once per token)
  }, Console)
end

function Console:write(...)
  self.output:write(...)
end

--- Writes the text and a newline.
function Console:say(text)
  self.output:write(text, "\n")
end

--- Writes a prompt without a newline and flushes, so a terminal shows it.
function Console:prompt(text)
  self.output:write(text)
  if self.output.flush then self.output:flush() end
end

--- Writes an answer given by a computer player, as if it had been typed.
function Console:echo(text)
  self.output:write(text, "\n")
  if self.output.flush then self.output:flush() end
end

function Console:flush()
  if self.output.flush then self.output:flush() end
end

--- Writes a line to the error stream.
function Console:warn(text)
  self.errors:write(text, "\n")
  if self.errors.flush then self.errors:flush() end
end

--- The next whitespace-separated word, or nil at end of input.
function Console:read_token()
  while true do
    if self.pending == nil then
      self.pending, self.position = self.reader(), 1
      if self.pending == nil then return nil end
    end
    local first, last = self.pending:find("%S+", self.position)
    if first then
      self.position = last + 1
      return self.pending:sub(first, last)
    end
    self.pending = nil
  end
end

--- The rest of the current line (a whole new line if none is started),
-- without its line ending, or nil at end of input.
function Console:read_line()
  local line
  if self.pending ~= nil then
    line = self.pending:sub(self.position)
  else
    line = self.reader()
    if line == nil then return nil end
  end
  self.pending = nil
  return (line:gsub("\r?\n$", ""))
end

--- Drops the rest of the current line (what `cin.ignore(..., '\n')` does
-- after a failed read).
function Console:skip_line()
  self.pending = nil
end

--- Like read_token, but end of input raises console.EOF.
function Console:token()
  local token = self:read_token()
  if token == nil then error(console.EOF, 0) end
  return token
end

--- Like read_line, but end of input raises console.EOF.
function Console:line()
  local line = self:read_line()
  if line == nil then error(console.EOF, 0) end
  return line
end

--- Parses a token as an integer: an optional sign and digits, nothing else.
function console.integer(token)
  if token == nil or not token:match("^[+-]?%d+$") then return nil end
  return math.tointeger(tonumber(token)) or (token:sub(1, 1) == "-" and math.mininteger or math.maxinteger)
end

return console
