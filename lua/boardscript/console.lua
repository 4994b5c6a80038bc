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
console.EOF = require("boardscript.errors").own(setmetatable({}, {
  __tostring = function() return "input ended before the game finished" end,
  __metatable = false, -- code a user brings must not change how it prints
}))

--- A writer that keeps everything written, for in-memory dialogues.
-- @treturn table a writer: `:write(...)`, `:flush()`, and `:contents()`,
-- everything written as one string
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

--- The longest answer, token or protocol line kept, in bytes: what goes
-- past it is read and dropped, so no input line fills the memory (a longer
-- answer is a wrong one at every prompt anyway).
console.MAX_LINE = 4 << 20

-- Under the boardscript host a file is read in pieces of at most PIECE bytes
-- (boardscript.host.read_line: a piece ends at a newline, or is the first
-- PIECE bytes of a longer line); stock Lua reads whole lines.
local PIECE = 1 << 16
local host_found, host = pcall(require, "boardscript.host")
local read_piece = host_found and type(host) == "table" and host.read_line or nil

local function file_reader(file)
  if read_piece and io.type(file) == "file" then
    return function() return read_piece(file, PIECE) end
  end
  return function() return file:read("L") end
end

-- A piece of a line that goes on in the next piece.
local function partial(piece)
  return piece:byte(-1) ~= 10
end

--- The lines of a file without their newlines, each cut to MAX_LINE bytes
-- (for protocol sessions: a line is read in pieces, so an endless line
-- cannot fill the memory).
-- @tparam file file an open file (or a table with `:read`)
-- @treturn function an iterator over the lines, as strings
function console.lines(file)
  local reader = file_reader(file)
  return function()
    local line = reader()
    if line == nil then return nil end
    if partial(line) then
      local parts, size = { line }, #line
      repeat
        local piece = reader()
        if piece == nil then break end
        if size < console.MAX_LINE then
          parts[#parts + 1] = piece:sub(1, console.MAX_LINE - size)
          size = size + #parts[#parts]
        end
      until not partial(piece)
      line = table.concat(parts)
    end
    return (line:gsub("\n$", ""))
  end
end

--- Feeds the lines of `file` (console.lines) to a line-oriented protocol
-- session (`session:feed(line)`) until the session is `done` or the input
-- ends; `after_line`, when given, is called after each line (a flush).
-- @tparam file file an open file (or a table with `:read`)
-- @tparam table session a session with `feed` and `done`
-- @tparam[opt] function after_line called after each line
function console.feed(file, session, after_line)
  for line in console.lines(file) do
    session:feed(line)
    if after_line then after_line() end
    if session.done then break end
  end
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
-- @tparam[opt] table opts { input =, output =, errors = }
-- @treturn Console the console
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

--- Writes the values to the output, as `file:write` does.
-- @param ... strings or numbers
function Console:write(...)
  self.output:write(...)
end

--- Writes the text and a newline.
-- @tparam string text
function Console:say(text)
  self.output:write(text, "\n")
end

-- Flushes the output; a file that could not take it (standard output
-- closed, full or a broken pipe) stops the dialogue: nobody reads it.
local function flush_checked(out)
  if not out.flush then return end
  local ok, err = out:flush()
  if ok == nil and err ~= nil then require("boardscript.output").stdout_failed(err) end
end

--- Writes a prompt without a newline and flushes, so a terminal shows it.
-- @tparam string text
function Console:prompt(text)
  self.output:write(text)
  flush_checked(self.output)
end

--- Writes an answer given by a computer player, as if it had been typed.
-- @tparam string text
function Console:echo(text)
  self.output:write(text, "\n")
  flush_checked(self.output)
end

--- Flushes the output; an output that cannot take it (standard output
-- closed, full or a broken pipe) stops the dialogue.
function Console:flush()
  flush_checked(self.output)
end

--- Writes a line to the error stream.
-- @tparam string text
function Console:warn(text)
  self.errors:write(text, "\n")
  if self.errors.flush then self.errors:flush() end
end

--- The next whitespace-separated word, or nil at end of input.
-- @treturn ?string
function Console:read_token()
  while true do
    if self.pending == nil then
      self.pending, self.position = self.reader(), 1
      if self.pending == nil then return nil end
    end
    local first, last = self.pending:find("%S+", self.position)
    if first then
      self.position = last + 1
      local token = self.pending:sub(first, last)
      if last == #self.pending then return self:rest_of_token(token) end
      return token
    end
    self.pending = nil
  end
end

--- A token that reached the end of its piece goes on at the start of the
-- next pieces (kept up to MAX_LINE bytes).
-- @local
function Console:rest_of_token(token)
  local parts, size = { token }, #token
  while partial(self.pending) do
    local piece = self.reader()
    if piece == nil then
      self.pending = nil
      break
    end
    local last = select(2, piece:find("^%S*"))
    if size < console.MAX_LINE then
      parts[#parts + 1] = piece:sub(1, math.min(last, console.MAX_LINE - size))
      size = size + #parts[#parts]
    end
    self.pending, self.position = piece, last + 1
    if last < #piece then break end
  end
  return table.concat(parts)
end

--- The pieces after a partial one, up to the end of its line: kept up to
-- `room` bytes (and returned), the rest dropped.
-- @local
function Console:finish_line(room)
  local parts = {}
  while self.pending ~= nil and partial(self.pending) do
    local piece = self.reader()
    self.pending = piece
    if piece == nil then break end
    if room > 0 then
      parts[#parts + 1] = piece:sub(1, room)
      room = room - #parts[#parts]
    end
  end
  return table.concat(parts)
end

--- The rest of the current line (a whole new line if none is started),
-- without its line ending, or nil at end of input.
-- @treturn ?string
function Console:read_line()
  local line
  if self.pending ~= nil then
    line = self.pending:sub(self.position)
  else
    line = self.reader()
    if line == nil then return nil end
    self.pending = line
  end
  if self.pending ~= nil and partial(self.pending) then
    line = line:sub(1, console.MAX_LINE) .. self:finish_line(console.MAX_LINE - math.min(#line, console.MAX_LINE))
  end
  self.pending = nil
  return (line:gsub("\r?\n$", ""))
end

--- Drops the rest of the current line (what `cin.ignore(..., '\n')` does
-- after a failed read).
function Console:skip_line()
  self:finish_line(0)
  self.pending = nil
end

--- Like read_token, but end of input raises console.EOF.
-- @treturn string
function Console:token()
  local token = self:read_token()
  if token == nil then error(console.EOF, 0) end
  return token
end

--- Like read_line, but end of input raises console.EOF.
-- @treturn string
function Console:line()
  local line = self:read_line()
  if line == nil then error(console.EOF, 0) end
  return line
end

--- Parses a token as an integer: an optional sign and digits, nothing else.
-- @tparam ?string token a token (nil: nil)
-- @treturn ?integer the integer (clamped to math.mininteger..math.maxinteger)
function console.integer(token)
  if token == nil or not token:match("^[+-]?%d+$") then return nil end
  return math.tointeger(tonumber(token)) or (token:sub(1, 1) == "-" and math.mininteger or math.maxinteger)
end

return console
