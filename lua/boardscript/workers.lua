--- Worker processes of `--jobs` (match, solve, soak): started as this host
-- with an argument list, read through a pipe, and told to die with this
-- process (BOARDSCRIPT_PARENT_PID; the host asks the kernel for a signal
-- when its parent dies), so killing a command leaves no worker running.
-- A worker that ends badly is named with how it ended.
local shell_quote = require("boardscript.text").shell_quote

local workers = {}

local found, host = pcall(require, "boardscript.host")
if not found or type(host) ~= "table" then host = nil end

--- The host binary to start workers with.
function workers.exe()
  return rawget(package, "boardscript_exe") or arg[0]
end

--- Starts a worker running `argv` (a list of words, the program first);
-- returns { pipe =, pid = (text) }.
function workers.start(argv)
  local quoted = {}
  for k, a in ipairs(argv) do quoted[k] = shell_quote(tostring(a)) end
  local parent = host and ("BOARDSCRIPT_PARENT_PID=%d "):format(host.pid()) or ""
  local pipe = assert(io.popen("echo $$; " .. parent .. "exec " .. table.concat(quoted, " ")))
  local pid = pipe:read("l")
  return { pipe = pipe, pid = pid and pid:match("^%d+$") }
end

--- Closes a worker's pipe (waiting for it to end); returns nil when it ended
-- with status 0, else how it ended ("exit status 3", "killed by signal 9").
function workers.finish(w)
  if w.closed then return w.ended end
  w.closed = true
  local ok, how, code = w.pipe:close()
  if ok then return nil end
  if how == "signal" then
    w.ended = ("killed by signal %d"):format(code)
  else
    w.ended = ("exit status %s"):format(tostring(code))
  end
  return w.ended
end

--- Stops a worker (SIGTERM) and closes its pipe.
function workers.stop(w)
  if not w.closed and w.pid then os.execute("kill " .. w.pid .. " 2>/dev/null") end
  workers.finish(w)
end

return workers
