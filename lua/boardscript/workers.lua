--- Worker processes of `--jobs` (match, solve, soak): started as this host
-- with an argument list, read through a pipe, and told to die with this
-- process (BOARDSCRIPT_PARENT_PID; the host asks the kernel for a signal
-- when its parent dies), so killing a command leaves no worker running.
-- A worker that ends badly is named with how it ended.
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
