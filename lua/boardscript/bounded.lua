--- Bounded reading of outside files (issue 18 item 5): every reader of a
-- file a user names (records, GGF, OBF, openings, shards' outputs) reads
-- it through here, in pieces, with a cap on the whole file and on a line,
-- so `/dev/zero`, a directory or a 50 MB file is refused in a moment with
-- one line naming it instead of filling the memory. See docs/decisions.md,
-- "Bounded inputs".
local errors = require "boardscript.errors"

local bounded = {}

--- A file is read in pieces of this many bytes.
bounded.PIECE = 1 << 16
--- The longest line a line reader takes, in bytes (the lines of OBF,
-- openings and shard files are a few hundred bytes).
bounded.MAX_LINE = 1 << 16
--- The default cap on a whole file, in bytes.
bounded.MAX_FILE = 16 << 20
--- The most lines a line reader takes (blank ones included: 32 MiB of
-- newlines would otherwise cost seconds of empty lines).
bounded.MAX_LINES = 1000000

--- `bytes` as the messages write it: "4 MiB", "64 KiB".
function bounded.size_text(bytes)
  if bytes >= 1 << 20 and bytes % (1 << 20) == 0 then return ("%d MiB"):format(bytes >> 20) end
  if bytes >= 1 << 10 and bytes % (1 << 10) == 0 then return ("%d KiB"):format(bytes >> 10) end
  return ("%d bytes"):format(bytes)
end

local function too_large(path, limit)
  errors.fail(("%s: larger than %s"):format(path, bounded.size_text(limit)))
end

--- Opens `path` for reading (with `stdin`, "-" is standard input): a
-- directory, a file that cannot be opened or read, or a regular file
-- larger than `limit` bytes is a user error naming it (status 2). Returns
-- the file.
function bounded.open(path, limit, stdin)
  if path == "-" and stdin then return io.stdin end
  local file, err = io.open(path, "rb")
  if not file then errors.fail(err) end
  -- read(0) fails on a directory ("Is a directory") without reading anything
  local ok, why = file:read(0)
  if ok == nil and why then
    file:close()
    errors.fail(("%s: %s"):format(path, why))
  end
  -- a regular file's size is known: refuse it before reading it (devices
  -- and pipes seek to 0 or not at all and are counted as they are read)
  local size = file:seek("end")
  if size and limit and size > limit then
    file:close()
    too_large(path, limit)
  end
  if size then file:seek("set", 0) end
  return file
end

local function close(file)
  if file ~= io.stdin then file:close() end
end

--- The whole text of `path` (with `stdin`, "-" is standard input), read
-- in pieces; more than `limit` bytes (default bounded.MAX_FILE) is a user
-- error "PATH: larger than N MiB", raised as soon as the limit is passed.
function bounded.read_all(path, limit, stdin)
  limit = limit or bounded.MAX_FILE
  local file = bounded.open(path, limit, stdin)
  local parts, size = {}, 0
  while true do
    local piece, why = file:read(bounded.PIECE)
    if piece == nil then
      if why then
        close(file)
        errors.fail(("%s: %s"):format(path, why))
      end
      break
    end
    size = size + #piece
    if size > limit then
      close(file)
      too_large(path, limit)
    end
    parts[#parts + 1] = piece
  end
  close(file)
  return table.concat(parts)
end

--- An iterator over the lines of `path` (with opts.stdin, "-" is standard
-- input), without their newlines (a CR before one is kept, as file:lines
-- keeps it), each with its number: `for line, number in
-- bounded.lines(path) do`. opts: { max_line = bytes (default
-- bounded.MAX_LINE), limit = bytes of the whole file (default
-- bounded.MAX_FILE), max_lines = lines (default bounded.MAX_LINES), stdin =
-- boolean }. A longer line is a user error
-- "PATH:N: line longer than M bytes" (raised once M bytes of it are read),
-- a larger file "PATH: larger than N MiB", more than max_lines
-- lines "PATH: more than N lines". Memory: a line and a piece.
function bounded.lines(path, opts)
  opts = opts or {}
  local max_line = opts.max_line or bounded.MAX_LINE
  local limit = opts.limit or bounded.MAX_FILE
  local max_lines = opts.max_lines or bounded.MAX_LINES
  local file = bounded.open(path, limit, opts.stdin)
  local buffer, pos, number, total, ended = "", 1, 0, 0, false
  local function fail(message)
    if file then close(file) end
    file = nil
    errors.fail(message)
  end
  local function long()
    fail(("%s:%d: line longer than %d bytes"):format(path, number + 1, max_line))
  end
  return function()
    while true do
      local newline = buffer:find("\n", pos, true)
      if newline then
        if newline - pos > max_line then long() end
        local line = buffer:sub(pos, newline - 1)
        pos = newline + 1
        number = number + 1
        if number > max_lines then fail(("%s: more than %d lines"):format(path, max_lines)) end
        return line, number
      end
      local rest = #buffer - pos + 1
      if rest > max_line then long() end
      if ended then
        if rest > 0 then
          pos = #buffer + 1
          number = number + 1
          return buffer:sub(-rest), number
        end
        if file then close(file) end
        file = nil
        return nil
      end
      local piece, why = file:read(bounded.PIECE)
      if piece == nil then
        if why then fail(("%s: %s"):format(path, why)) end
        ended = true
      else
        total = total + #piece
        if total > limit then fail(("%s: larger than %s"):format(path, bounded.size_text(limit))) end
        buffer = buffer:sub(pos) .. piece
        pos = 1
      end
    end
  end
end

return bounded
