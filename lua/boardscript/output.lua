--- Checked writes: a file boardscript was asked to write is written whole
-- or the command fails (status 1) with one line naming it; never an empty
-- or cut file and exit 0 (a full disk, a closed or broken output).
local errors = require "boardscript.errors"

local output = {}

--- Status of a command that could not write what it was asked to.
output.EXIT_WRITE = errors.EXIT_FAILURE

local found, host = pcall(require, "boardscript.host")
if not found or type(host) ~= "table" then host = nil end

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

--- Writes `text` to `path` (created or emptied) and closes it, every step
-- checked.
function output.write_file(path, text, mode)
  local file = output.open(path, mode)
  local ok, err = pcall(output.write, file, path, text)
  if not ok then
    file:close()
    error(err, 0)
  end
  output.close(file, path)
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
