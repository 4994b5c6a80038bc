--- Worker processes of `--jobs` (match, solve, soak): started as this host
-- with an argument list, read through a pipe, and told to die with this
-- process (BOARDSCRIPT_PARENT_PID; the host asks the kernel for a signal
-- when its parent dies), so killing a command leaves no worker running.
-- A worker that ends badly is named with how it ended; one that stops on a
-- user error (a rule set at fault, a bad file: status 2) reports it in a
-- file of its own (BOARDSCRIPT_ERROR_FILE, see cli.dispatch) instead of
-- printing it, and its command raises it as its own (workers.rethrow):
-- the same message and status as without --jobs.
-- Workers are started, watched and stopped without a shell, through the
-- host module (host.spawn: fork and execv; host.waitpid, host.kill). Under
-- stock lua5.4 (a spec run by busted), where there is no host module, they
-- fall back to io.popen and `kill` (docs/decisions.md, "No shell where a
-- library does the job").
local lfs = require "lfs"

local workers = {}

local found, host = pcall(require, "boardscript.host")
if not found or type(host) ~= "table" then host = nil end

local cwd_cache
local function cwd()
  if not cwd_cache then cwd_cache = lfs.currentdir() or "." end
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

-- Starts `words` (strings) with io.popen: the stock-Lua fallback.
local function start_popen(words, report)
  local shell_quote = require("boardscript.text").shell_quote
  local quoted = {}
  for k, a in ipairs(words) do quoted[k] = shell_quote(a) end
  -- stock-Lua fallback: a shell starts the worker and says its pid
  local pipe = io.popen("echo $$; BOARDSCRIPT_ERROR_FILE=" .. shell_quote(report) .. " exec "
    .. table.concat(quoted, " "))
  if not pipe then return nil, "cannot start a worker: " .. table.concat(quoted, " ") end
  local pid = pipe:read("l")
  return { pipe = pipe, pid = pid and math.tointeger(tonumber(pid)), popen = true }
end

--- Starts a worker running `argv` (a list of words, the program first);
-- returns { pipe = (its standard output, an io file), pid =, report = (its
-- error report file) }.
-- @tparam {string,...} argv the program and its arguments
-- @treturn table the worker
function workers.start(argv)
  local words = {}
  for k, a in ipairs(argv) do words[k] = tostring(a) end
  local report = os.tmpname()
  local w, why
  if host then
    local pid, pipe = host.spawn(words, { BOARDSCRIPT_PARENT_PID = tostring(host.pid()),
                                          BOARDSCRIPT_ERROR_FILE = report })
    if pid then w = { pipe = pipe, pid = pid } else why = "cannot start a worker: " .. tostring(pipe) end
  else
    w, why = start_popen(words, report)
  end
  if not w then
    os.remove(report)
    error(why, 0)
  end
  w.report = report
  return w
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

-- How a worker ended, by the host (pid) or by its popen pipe: "exited",
-- status or "killed", signal.
local function wait_for(w)
  if w.popen then
    local _, how, code = w.pipe:close()
    return how == "signal" and "killed" or "exited", code
  end
  w.pipe:close()
  local how, code = host.waitpid(w.pid)
  if not how then return "exited", -1 end
  return how, code
end

--- Closes a worker's pipe (waiting for it to end); returns nil when it ended
-- with status 0, else how it ended ("exit status 3", "killed by signal 9").
-- The user error it reported, if any, is kept for workers.rethrow.
-- @tparam table w a worker (workers.start)
-- @treturn ?string how it ended, when badly
function workers.finish(w)
  if w.closed then return w.ended end
  w.closed = true
  local how, code = wait_for(w)
  if how == "killed" then
    w.ended = ("killed by signal %d"):format(code)
  elseif code ~= 0 then
    w.ended = ("exit status %s"):format(tostring(code))
    if w.report then w.error = read_report(w.report) end
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

--- Stops a worker (SIGKILL) and closes its pipe.
-- @tparam table w a worker (workers.start)
function workers.stop(w)
  if not w.closed and w.pid then
    if w.popen then
      os.execute("kill " .. w.pid .. " 2>/dev/null") -- stock-Lua fallback
    else
      host.kill(w.pid)
    end
  end
  workers.finish(w)
end

-- ---- the --jobs fan-out ----

-- The next line of worker w's output; at its end, nil, after finishing
-- it (w.ended: how it ended, when badly) and raising the user error it
-- reported, as the same work without --jobs would.
local function worker_line(w)
  local line = not w.closed and w.pipe:read("l") or nil
  if line == nil then
    workers.finish(w)
    workers.rethrow(w)
  end
  return line
end

local Fan = {}
Fan.__index = Fan

--- The next item of a fan-out, in order: `k, item`; `k, nil, fault` when
-- the worker due to give item k has stopped or sent something else
-- (fault = { worker = i, index = k, ended = how it ended badly or nil,
-- line = the unexpected line or nil, how = a phrase saying it }: later
-- items of that worker give the same fault); nil after the last item.
-- @treturn ?integer k
-- @return the item
-- @treturn ?table the fault
function Fan:next()
  local k = self.index + 1
  if k > self.count then return nil end
  self.index = k
  local i = (k - 1) % #self.workers + 1
  local w = self.workers[i]
  if w.fault then return k, nil, w.fault end
  local item, line = self.item(w, k)
  if item ~= nil then return k, item end
  w.fault = { worker = i, index = k, ended = w.closed and w.ended or nil, line = line,
              how = line and ("sent an unexpected line: " .. line:sub(1, 200))
                or ("stopped (" .. (w.ended or "exit status 0") .. ")") }
  return k, nil, w.fault
end

--- Waits for every worker to end (raising a user error one reported);
-- returns the list of those that ended badly: { worker = i, ended = how }.
-- @treturn table
function Fan:close()
  local bad = {}
  for i, w in ipairs(self.workers) do
    local ended = workers.finish(w)
    workers.rethrow(w)
    if ended then bad[#bad + 1] = { worker = i, ended = ended } end
  end
  return bad
end

--- Runs the --jobs fan-out of a command (match, soak, solve, train):
-- `spec.jobs` workers, worker i running `spec.argv` (a list of words, the
-- program first: how the command starts its workers) followed by the
-- settings of this run (boardscript.settings.argv) and `--shard=i/jobs`.
-- Item k of the `spec.count` items comes from worker (k - 1) % jobs + 1,
-- as `spec.item(w, k)` reads it: w:line() gives the worker's next line
-- (nil at its end), w.state is a table of the caller's; it returns the
-- item, or nil at the worker's end, or nil and an unexpected line.
-- `body(fan)` reads them with fan:next() (and may fan:close()); the
-- workers are stopped when it returns or raises, and a user error a
-- worker reported is raised as this command's own. Returns what body
-- returns.
-- @tparam table spec { argv =, jobs =, count =, item = }
-- @tparam function body called with the fan-out
-- @return what body returns
function workers.run_shards(spec, body)
  local argv = table.move(spec.argv, 1, #spec.argv, 1, {})
  local settings = require("boardscript.settings").argv()
  table.move(settings, 1, #settings, #argv + 1, argv)
  local started = workers.start_shards(argv, spec.jobs)
  for _, w in ipairs(started) do
    w.state, w.line = {}, worker_line
  end
  local fan = setmetatable({ workers = started, count = spec.count, item = spec.item, index = 0 }, Fan)
  local results = table.pack(pcall(body, fan))
  for _, w in ipairs(started) do workers.stop(w) end
  if not results[1] then error(results[2], 0) end
  return table.unpack(results, 2, results.n)
end

return workers
