--- Worker processes of `--jobs` (match, solve, soak): started as this host
-- with an argument list, read through a pipe, and told to die with this
-- process (BOARDSCRIPT_PARENT_PID; the host asks the kernel for a signal
-- when its parent dies), so killing a command leaves no worker running.
-- A worker that ends badly is named with how it ended; one that stops on a
-- user error (a rule set at fault, a bad file: status 2) reports it in a
-- file of its own (BOARDSCRIPT_ERROR_FILE, see cli.dispatch) instead of
-- printing it, and its command raises it as its own (workers.rethrow):
-- the same message and status as without --jobs.
local shell_quote = require("boardscript.text").shell_quote

local workers = {}

local found, host = pcall(require, "boardscript.host")
if not found or type(host) ~= "table" then host = nil end

local cwd_cache
local function cwd()
  if not cwd_cache then
    local p = io.popen("pwd")
    cwd_cache = p and p:read("l") or "."
    if p then p:close() end
  end
  return cwd_cache
end

--- The boardscript host to start workers, children and transcripts with,
-- as an absolute path: the running host (boardscript.host's `executable`:
-- its binary, or $BOARDSCRIPT_EXE when a wrapper runs it), else, outside
-- the host (a spec run by busted), arg[-1] or arg[0]; nil when there is
-- none.
function workers.executable()
  local exe = host and host.executable
  if exe == nil and type(_G.arg) == "table" then exe = _G.arg[-1] or _G.arg[0] end
  if type(exe) ~= "string" then return nil end
  if exe:sub(1, 1) ~= "/" and exe:find("/", 1, true) then exe = cwd() .. "/" .. exe end
  return exe
end

--- Parses a `--shard I/N` value: i, n (a user error if malformed).
function workers.shard_of(text)
  local i, n = text:match("^(%d+)/(%d+)$")
  -- digits past the largest integer read as a float: not a shard
  i, n = math.tointeger(tonumber(i or "")), math.tointeger(tonumber(n or ""))
  if not i or not n or n < 1 or i < 1 or i > n then
    require("boardscript.errors").fail("--shard must be I/N with 1 <= I <= N")
  end
  return i, n
end

--- Starts a worker running `argv` (a list of words, the program first);
-- returns { pipe =, pid = (text), report = (its error report file) }.
function workers.start(argv)
  local quoted = {}
  for k, a in ipairs(argv) do quoted[k] = shell_quote(tostring(a)) end
  local parent = host and ("BOARDSCRIPT_PARENT_PID=%d "):format(host.pid()) or ""
  local report = os.tmpname()
  local pipe = io.popen("echo $$; " .. parent .. "BOARDSCRIPT_ERROR_FILE=" .. shell_quote(report) .. " exec "
    .. table.concat(quoted, " "))
  if not pipe then
    os.remove(report)
    error("cannot start a worker: " .. table.concat(quoted, " "), 0)
  end
  local pid = pipe:read("l")
  return { pipe = pipe, pid = pid and pid:match("^%d+$"), report = report }
end

-- The user error a worker reported in its file ("STATUS\nMESSAGE"), or nil.
local function read_report(path)
  local file = io.open(path, "rb")
  if not file then return nil end
  local text = file:read("a") or ""
  file:close()
  local status, message = text:match("^(%d+)\n(.+)$")
  status = math.tointeger(tonumber(status or ""))
  if not status or status < 1 or status > 255 then return nil end
  return { status = status, message = message }
end

--- Closes a worker's pipe (waiting for it to end); returns nil when it ended
-- with status 0, else how it ended ("exit status 3", "killed by signal 9").
-- The user error it reported, if any, is kept for workers.rethrow.
function workers.finish(w)
  if w.closed then return w.ended end
  w.closed = true
  local ok, how, code = w.pipe:close()
  if not ok then
    if how == "signal" then
      w.ended = ("killed by signal %d"):format(code)
    else
      w.ended = ("exit status %s"):format(tostring(code))
      if w.report then w.error = read_report(w.report) end
    end
  end
  if w.report then os.remove(w.report) end
  return w.ended
end

--- Raises, as this command's own, the user error worker `w` stopped on
-- (its message and status, as the same work without --jobs would): after
-- workers.finish, when it reported one; otherwise does nothing.
-- @tparam table w a worker (workers.start)
function workers.rethrow(w)
  if w.error then require("boardscript.errors").fail(w.error.message, w.error.status) end
end

--- Reports user error `err` (errors.fail) to the command that started
-- this process as a worker, in the file it named (the host's
-- `error_file`): true if reported (then it is not printed: that command
-- raises it as its own), false when this is no worker or the file cannot
-- be written.
-- @param err a user error
-- @treturn boolean
function workers.report(err)
  local path = host and host.error_file
  if type(path) ~= "string" then return false end
  local ok = pcall(require("boardscript.output").write_file, path, ("%d\n%s"):format(err.status, err.message))
  return ok
end

--- Starts `jobs` workers, worker i running `argv` (a list of words, the
-- program first) and `--shard=i/jobs`: the shards of a --jobs run (match,
-- soak, solve, train), in a list. A worker that cannot be started stops
-- those started before it.
function workers.start_shards(argv, jobs)
  local started = {}
  local ok, err = pcall(function()
    for i = 1, jobs do
      local words = table.move(argv, 1, #argv, 1, {})
      words[#words + 1] = ("--shard=%d/%d"):format(i, jobs)
      started[i] = workers.start(words)
    end
  end)
  if not ok then
    for _, w in ipairs(started) do workers.stop(w) end
    error(err, 0)
  end
  return started
end

--- Stops a worker (SIGTERM) and closes its pipe.
function workers.stop(w)
  if not w.closed and w.pid then os.execute("kill " .. w.pid .. " 2>/dev/null") end
  workers.finish(w)
end

return workers
