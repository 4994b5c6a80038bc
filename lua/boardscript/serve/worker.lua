--- Work of `boardscript serve` done off the request loop: an AI's move, a
-- hint, a match step or a study's evaluations runs in a worker process, so
-- the server answers every other request while it thinks.
--
-- A worker is a fork of the server (boardscript.host, only in the
-- boardscript binary): it already holds the game (copy-on-write), runs the
-- job, writes the job's text on a pipe and leaves with _exit, so whatever
-- the job allocated (a searcher's table, an evaluation) goes with it. It
-- runs under limits of its own: its processor time (RLIMIT_CPU, a second
-- over --max-seconds; the Lua budget stops it sooner) and its address space
-- (RLIMIT_AS, --max-memory over its size at the fork). The request waits
-- for the pipe with cqueues.poll, so it must run in a cqueues coroutine (the
-- server's handlers do); a worker still running after `seconds` of wall
-- time is killed. At most `max` workers run at once; a job waits for one
-- to end (at most `seconds` too).
--
-- Where a process cannot be forked or the caller is not in a cqueues
-- coroutine (stock lua5.4 running the specs, a script calling the API), the
-- job runs in this process, on the same terms otherwise.
local errors = require "boardscript.errors"

local worker = {}

local found_host, host = pcall(require, "boardscript.host")
if not found_host or type(host) ~= "table" or not host.fork then host = nil end
local found_cqueues, cqueues = pcall(require, "cqueues")
if not found_cqueues then cqueues = nil end

--- Workers at once by default.
worker.MAX = 2

--- The largest answer a job may give, in bytes.
worker.MAX_ANSWER = 8 << 20

--- What a response says when the server itself failed (the message goes to
-- the server's log, never to a page).
worker.INTERNAL = "the server failed on this request (its log says why)"

--- A message made fit for a page: without the places in the program's own
-- files an error names (`.../boardscript/ai/alphabeta.lua:60: `) and without
-- addresses (`table: 0x55d0...`).
-- @tparam string message the message
-- @treturn string the message shown
function worker.clean(message)
  message = message:gsub("[^%s'\"(]*boardscript/[%w_/%.%-]*%.lua:%d+: ", "")
  message = message:gsub("(%a+): 0x%x+", "a %1"):gsub("0x%x+", "an address")
  return message
end

local Pool = {}
Pool.__index = Pool

--- A pool of workers. opts: `max` (workers at once, default worker.MAX),
-- `seconds` (wall-clock seconds a job may take, default 60), `cpu`
-- (processor seconds a worker may use, nil: no limit), `memory` (bytes its
-- address space may grow by, nil: no limit), `log` (function(text), for
-- what a page is not told).
-- @tparam[opt] table opts the pool's settings
-- @treturn table the pool
function worker.new_pool(opts)
  opts = opts or {}
  local self = setmetatable({ max = opts.max or worker.MAX, seconds = opts.seconds or 60, cpu = opts.cpu,
                              memory = opts.memory, log = opts.log or function() end, running = 0,
                              queue = {} }, Pool)
  return self
end

--- Whether jobs run in worker processes now (else in this process).
-- @treturn boolean
function Pool:offloads()
  return host ~= nil and cqueues ~= nil and cqueues.running() ~= nil
end

-- The text of a failed job for a page: a user error's message, or
-- worker.INTERNAL (the message logged).
local function failure(self, err)
  if errors.is_user(err) then return worker.clean(err.message) end
  local text = type(err) == "string" and err or "(an error that is not a message)"
  if text:find("not enough memory", 1, true) then
    return "the AI ran out of memory (--max-memory)"
  end
  self.log("internal error: " .. text)
  return worker.INTERNAL
end

-- Runs job in this process: true and its text, or nil and why.
local function in_process(self, job)
  local ok, result = pcall(job)
  if ok and type(result) == "string" then return result end
  if ok then return nil, failure(self, "a job answered a " .. type(result)) end
  return nil, failure(self, result)
end

-- The job's side of the pipe (in the child): the answer, then _exit.
local function child(self, job)
  if self.cpu or self.memory then
    local limited, why = host.limit_process(self.cpu and math.ceil(self.cpu) + 1 or nil, self.memory)
    if not limited then self.log("worker limits: " .. tostring(why)) end
  end
  local ok, result = pcall(job)
  local text
  if ok and type(result) == "string" and #result <= worker.MAX_ANSWER then
    text = "0" .. result
  else
    text = "1" .. failure(self, ok and ("a job answered a " .. type(result)) or result)
  end
  host.write(3, text)
  host.exit_now(0)
end

-- The pollable cqueues waits on: the pipe's read end.
local function readable(fd)
  return { pollfd = function() return fd end, events = function() return "r" end }
end

-- Waits for a free worker, first come first served: true, or false after
-- `seconds` (then it is not in the queue any more).
function Pool:acquire()
  if self.running < self.max and #self.queue == 0 then
    self.running = self.running + 1
    return true
  end
  local condition = require "cqueues.condition"
  local waiter = { signal = condition.new() }
  self.queue[#self.queue + 1] = waiter
  local deadline = cqueues.monotime() + self.seconds
  while not waiter.granted do
    local left = deadline - cqueues.monotime()
    if left <= 0 then
      for i, w in ipairs(self.queue) do
        if w == waiter then table.remove(self.queue, i) break end
      end
      return false
    end
    waiter.signal:wait(left)
  end
  return true
end

-- Hands the worker that ended to the first in the queue, if any.
function Pool:release()
  local waiter = table.remove(self.queue, 1)
  if waiter then
    waiter.granted = true -- the running count stays: the slot passes on
    waiter.signal:signal()
  else
    self.running = self.running - 1
  end
end

-- Reads the worker's answer until the pipe ends or `deadline` passes:
-- the text, or nil when the time ran out.
local function collect(fd, deadline)
  local parts, size = {}, 0
  local pollable = readable(fd)
  while true do
    local data, err = host.read(fd)
    if data == "" then return table.concat(parts) end
    if data then
      size = size + #data
      if size > worker.MAX_ANSWER + 1 then return nil, "too long" end
      parts[#parts + 1] = data
    elseif err == "again" then
      local left = deadline - cqueues.monotime()
      if left <= 0 then return nil, "time" end
      cqueues.poll(pollable, left)
    else
      return nil, err
    end
  end
end

--- Runs `job` (a function returning a string) off the request loop: in a
-- worker process when Pool:offloads(), else here. Returns the job's text,
-- or nil, the reason for the page and "busy" when no worker was free in
-- time (the job did not run).
-- @tparam function job the work: returns its answer as a string
-- @treturn ?string the answer
-- @treturn ?string why not
-- @treturn ?string "busy" when every worker stayed busy
function Pool:run(job)
  if not self:offloads() then return in_process(self, job) end
  if not self:acquire() then
    return nil, ("the server's %d workers are all busy; try again"):format(self.max), "busy"
  end
  local r, w = host.pipe()
  if not r then
    self:release()
    self.log(w)
    return nil, worker.INTERNAL
  end
  local pid, err = host.fork(w)
  if pid == 0 then
    -- the child: its pipe is descriptor 3 now (host.fork closed the rest);
    -- whatever happens, it never returns into the server's code
    pcall(child, self, job)
    host.exit_now(1)
  end
  host.close(w)
  if not pid then
    host.close(r)
    self:release()
    self.log(err)
    return nil, worker.INTERNAL
  end
  local ok, text, why = pcall(collect, r, cqueues.monotime() + self.seconds)
  if not ok then text, why = nil, text end
  cqueues.cancel(r)
  host.close(r)
  if text == nil then host.kill(pid) end
  local how, code = host.waitpid(pid)
  self:release()
  if text == nil then
    if why == "time" then
      return nil, ("the AI took longer than %g seconds (wall clock) and was stopped"):format(self.seconds)
    end
    self.log("worker: " .. tostring(why))
    return nil, worker.INTERNAL
  end
  if text == "" then
    if how == "killed" and (code == 24 or code == 9) then -- SIGXCPU, or SIGKILL a second after it
      return nil, "the AI ran out of its processor time (--max-seconds) and was stopped"
    end
    if how == "killed" and code == 11 or how == "exited" and code ~= 0 then
      self.log(("worker: %s %s"):format(tostring(how), tostring(code)))
    end
    return nil, "the AI stopped without an answer (out of memory or time: --max-memory, --max-seconds)"
  end
  if text:sub(1, 1) == "0" then return text:sub(2) end
  return nil, text:sub(2)
end

return worker
