--- Checked writes: a file boardscript was asked to write is written whole
-- or the command fails (status 1) with one line naming it; never an empty
-- or cut file and exit 0 (a full disk, a closed or broken output). A file
-- is written to a temporary name in its directory and renamed over the
-- old one only when complete, so a failure or an interrupted run leaves
-- the old file as it was (docs/decisions.md, "No lost work").
local errors = require "boardscript.errors"

local output = {}

--- Status of a command that could not write what it was asked to.
output.EXIT_WRITE = errors.EXIT_FAILURE

local found, host = pcall(require, "boardscript.host")
if not found or type(host) ~= "table" then host = nil end

--- Whether standard error is a terminal (for progress lines): asked of
-- the host (isatty); false under stock Lua, where only a shell could say.
-- @treturn boolean
function output.stderr_is_terminal()
  return host ~= nil and host.isatty ~= nil and host.isatty(2) or false
end

local function fail(what, err)
  if what == "standard output" and host then host.discard_stdout() end
  errors.fail(("cannot write %s: %s"):format(what, tostring(err or "write error")), output.EXIT_WRITE)
end

--- Raises the error of a failed write to standard output (err: the message
-- of the failed write or flush); the rest of the output is discarded.
function output.stdout_failed(err)
  fail("standard output", err)
end

--- Opens `path` for writing (mode "w" or "wb"); a path that cannot be
-- opened is the user's mistake (status 2, io.open's message naming it).
function output.open(path, mode)
  local file, err = io.open(path, mode or "w")
  if not file then errors.fail(err) end
  return file
end

--- Writes the strings `...` to the open `file` and flushes it: a failure
-- raises naming `what` (the path, or "standard output").
function output.write(file, what, ...)
  local ok, err = file:write(...)
  if ok then ok, err = file:flush() end
  if not ok then fail(what, err) end
end

--- Closes `file`, raising naming `what` when the last of it could not be
-- written.
function output.close(file, what)
  local ok, err = file:close()
  if not ok then fail(what, err) end
end

-- ---- files written whole ----

local lfs_found, lfs = pcall(require, "lfs")
if not lfs_found or type(lfs) ~= "table" then lfs = nil end

-- What writing `path` replaces: kind ("missing", "file", "directory",
-- "other"), the path a rename must replace (links resolved) and the
-- permission bits to keep. Outside the host (a spec run by busted), lfs
-- tells the kind, and a link is written in place ("other").
local function target_of(path)
  if host and host.file_kind then return host.file_kind(path) end
  if lfs then
    local link = lfs.symlinkattributes(path, "mode")
    if link == nil then return "missing" end
    local mode = link ~= "link" and link or lfs.attributes(path, "mode")
    if mode == nil then return "missing" end
    return mode == "file" and "file" or (mode == "directory" and "directory" or "other"), path
  end
  local file = io.open(path, "r")
  if not file then return "missing" end
  file:close()
  return "file", path
end

-- The directory of `path` (with its slash: "" for a bare name) and its name.
local function split(path)
  local dir, name = path:match("^(.*/)([^/]*)$")
  if not dir then return "", path end
  return dir, name
end

local temp_count = 0

-- A name for the temporary file next to `path` that nobody uses: hidden,
-- so that no glob of the real files (part*.data) matches one left by a
-- killed run.
local function temp_name(path)
  local dir, name = split(path)
  local pid = host and host.pid and host.pid() or math.random(1, 1 << 30)
  while true do
    temp_count = temp_count + 1
    local temp = ("%s.%s.%d-%d.tmp"):format(dir, name, pid, temp_count)
    local taken = io.open(temp, "r")
    if not taken then return temp end
    taken:close()
  end
end

-- An io message "PATH: REASON" as "REASON".
local function reason(err, path)
  err = tostring(err or "write error")
  if err:sub(1, #path + 2) == path .. ": " then return err:sub(#path + 3) end
  return err
end

local Replacement = {}
Replacement.__index = Replacement

--- Starts writing `path` (mode "w" or "wb") whole or not at all: returns
-- a writer with `:write(...)`, `:commit()` and `:abandon()`. What is
-- written goes to a temporary file in the same directory, renamed over
-- `path` by `:commit()` once flushed and closed, every step checked; on a
-- failure, or `:abandon()`, the temporary file is removed and `path` is
-- as it was. A path that is not a regular file (a device such as
-- /dev/full, a FIFO) is written in place. A path that cannot be written
-- is the user's mistake (status 2, the message naming it).
-- @tparam string path the file to write
-- @tparam[opt="w"] string mode "w" or "wb"
-- @return the writer
function output.create(path, mode)
  local kind, real, perms = target_of(path)
  if kind == "directory" then errors.fail(("%s: Is a directory"):format(path)) end
  if kind == "other" then
    return setmetatable({ path = path, file = output.open(path, mode) }, Replacement)
  end
  local temp = temp_name(real or path)
  local file, err = io.open(temp, mode or "w")
  if not file then errors.fail(("%s: %s"):format(path, reason(err, temp))) end
  return setmetatable({ path = path, file = file, temp = temp, target = real or path, perms = perms }, Replacement)
end

--- Writes the strings `...` (checked: a failure abandons the file and
-- raises naming it, status 1).
function Replacement:write(...)
  local ok, err = self.file:write(...)
  if not ok then
    self:abandon()
    fail(self.path, reason(err, self.temp or self.path))
  end
end

--- Flushes and closes the file and renames it over the old one, each step
-- checked (a failure removes the temporary file and raises naming the
-- file, status 1; the old file is left as it was).
function Replacement:commit()
  local file = self.file
  self.file = nil
  local ok, err = file:flush()
  if ok then
    ok, err = file:close()
  else
    pcall(io.close, file)
  end
  if ok and self.temp and self.perms and host and host.chmod then ok, err = host.chmod(self.temp, self.perms) end
  if ok and self.temp then ok, err = os.rename(self.temp, self.target) end
  if not ok then
    if self.temp then os.remove(self.temp) end
    fail(self.path, reason(err, self.temp or self.path))
  end
  self.temp = nil
end

--- Gives the file up: closes it and removes the temporary file, leaving
-- the old file as it was (a file written in place keeps what was
-- written). Never raises; a second call does nothing.
function Replacement:abandon()
  if self.file then pcall(io.close, self.file) end
  self.file = nil
  if self.temp then os.remove(self.temp) end
  self.temp = nil
end

--- Writes the file `path` whole or not at all: calls `fill(writer)`, where
-- `writer:write(...)` writes strings, then commits the file (see
-- output.create). An error raised by `fill`, or by a write, leaves the old
-- file as it was, removes the temporary file and is raised again.
-- @tparam string path the file to write
-- @tparam function fill called with the writer
-- @tparam[opt="w"] string mode "w" or "wb"
function output.replace(path, fill, mode)
  local writer = output.create(path, mode)
  local ok, err = pcall(fill, writer)
  if not ok then
    writer:abandon()
    error(err, 0)
  end
  writer:commit()
end

--- Writes `text` to `path` whole or not at all (output.replace), every step
-- checked.
-- @tparam string path the file to write
-- @tparam string text what it holds
-- @tparam[opt="w"] string mode "w" or "wb"
function output.write_file(path, text, mode)
  output.replace(path, function(writer) writer:write(text) end, mode)
end

--- Flushes standard output, checked (a closed, full or broken output
-- raises).
function output.flush_stdout()
  local ok, err = io.stdout:flush()
  if not ok then fail("standard output", err) end
end

--- Writes to standard output, checked (a closed, full or broken output
-- raises).
function output.stdout(...)
  output.write(io.stdout, "standard output", ...)
end

--- Whether two paths name the same existing file (same device and inode, by
-- `stat`-free means: the same text after resolving "." and "..", or the
-- host's check when it has one).
function output.same_file(a, b)
  if host then return host.same_file(a, b) end
  return a == b
end

return output
