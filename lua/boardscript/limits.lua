--- Budgets for the code users bring: `--max-memory MIB` and
-- `--max-seconds S` (processor seconds) for every call into a user's script,
-- policy or rule set file (docs/guide.md, "Resource limits").
--
-- A call runs in a window: the Lua heap may grow by the memory budget from
-- what it held when the call began, and the call may use the seconds
-- budget of processor time. Inside the boardscript binary the window is the
-- host's (`boardscript.host`, src/host/main.c): a limiting allocator
-- refuses what goes over (Lua then raises "not enough memory" inside the
-- call) and a count hook, which every coroutine inherits, stops a call that
-- ran out of time. Under another Lua (stock lua5.4 running the specs) a Lua
-- count hook checks os.clock and collectgarbage("count") instead, on a
-- coroutine of its own per call, and puts itself on each coroutine resumed
-- inside the call (no library function is replaced). Either way a call over its budget cannot
-- keep itself alive with pcall: once over, every instruction raises again.
--
-- Nothing of the user's runs outside a window: an error leaves a window as
-- plain data (errors.plain, inside the window's message handler), and what
-- boardscript reads of a call's answer it copies inside the window
-- (limits.plain_value); see docs/guide.md, "What boardscript never runs
-- outside a budget".
--
-- Windows do not nest: code a window's call runs (a policy's `choose`
-- calling a rule set's hooks on its copy of the game) is on that window's
-- budget. Outside every window, a hook of a rule set loaded from a file
-- opens a window of its own (limits.wrap_rules).
local errors = require "boardscript.errors"

local limits = {}

--- Instructions between two checks of the count hook.
limits.COUNT = 1000

local found, host = pcall(require, "boardscript.host")
--- The host module, or nil under a Lua that is not the boardscript binary.
limits.host = found and host or nil

local settings -- { memory = MiB or nil, seconds = S or nil } once configured

--- Configures the budgets: opts = { memory = MiB (a number > 0) or nil,
-- seconds = processor seconds (> 0) or nil }; nil or no limit removes them.
-- Call it before any user file is loaded.
function limits.configure(opts)
  opts = opts or {}
  if opts.memory == nil and opts.seconds == nil then
    settings = nil
    return
  end
  if settings == nil and limits.host then limits.host.watch(limits.COUNT) end
  settings = { memory = opts.memory, seconds = opts.seconds }
end

--- The budgets configured ({ memory =, seconds = }), or nil.
function limits.settings()
  return settings
end

--- The processor seconds a call may take (--max-seconds), or nil.
function limits.seconds()
  return settings and settings.seconds
end

-- A number as the user wrote it: 16, 0.5.
local function number_text(n)
  return math.type(n) == "integer" and tostring(n) or ("%.14g"):format(n)
end

--- Configures the budgets from parsed arguments (args.max_memory,
-- args.max_seconds) when either is given, with `default_seconds` (a
-- command's default --max-seconds, or nil) when --max-seconds is not;
-- else leaves them as they are (a script on a budget that plays a game
-- with play.run keeps its budget).
-- @tparam table args the parsed arguments
-- @tparam[opt] number default_seconds the command's default --max-seconds
function limits.from_args(args, default_seconds)
  local seconds = args.max_seconds or default_seconds
  if args.max_memory == nil and seconds == nil then return end
  limits.configure { memory = args.max_memory, seconds = seconds }
end

--- The command-line words giving the configured budgets again (for
-- worker processes): a list, empty without budgets.
function limits.argv()
  local out = {}
  if settings and settings.memory then out[#out + 1] = "--max-memory=" .. number_text(settings.memory) end
  if settings and settings.seconds then out[#out + 1] = "--max-seconds=" .. number_text(settings.seconds) end
  return out
end

--- The message of a call by `who` over budget `reason` ("memory" or
-- "time") of `budgets` (default: the configured ones).
function limits.message(who, reason, budgets)
  budgets = budgets or settings or {}
  if reason == "memory" then
    return ("%s exceeded --max-memory %s MiB"):format(who, number_text(budgets.memory or 0))
  end
  return ("%s exceeded --max-seconds %s (processor time)"):format(who, number_text(budgets.seconds or 0))
end

-- The errors limits raised (error -> { reason, culprit }), kept here and
-- not in the error's fields, which the code it blames could forge.
local raised = setmetatable({}, { __mode = "k" })

-- A user error (status 2) for `who` over budget `reason`; `culprit` is
-- "policy", "rules" or "script".
local function limit_error(who, reason, culprit, budgets)
  local _, err = pcall(errors.fail, limits.message(who, reason, budgets))
  raised[err] = { reason, culprit }
  return err
end

--- When `err` is an error limits raised: the budget ("memory" or "time")
-- and the culprit ("policy", "rules" or "script"); else nil. Only errors
-- limits itself made count: a look-alike a user's code raised does not.
-- @param err an error value
-- @treturn ?string "memory" or "time"
-- @treturn ?string the culprit
function limits.exceeded(err)
  local entry = raised[err]
  if entry then return entry[1], entry[2] end
  return nil
end

--- Who is to blame for error `err`: "rules" for a rule set's fault
-- (errors.rules_fault, or a rule set file over its budget), "policy",
-- "script", or nil when boardscript recorded no blame.
-- @param err an error value
-- @treturn ?string the culprit
function limits.culprit(err)
  local entry = raised[err]
  if entry then return entry[2] end
  return errors.culprit(err)
end

-- ---- the fallback: a Lua count hook (any Lua 5.4) ----

local fallback = {}
limits.fallback = fallback

local window = { active = false } -- the fallback's open window
local MESSAGE = "budget exceeded (--max-memory or --max-seconds)"
local resume = coroutine.resume

-- The hook of a window's coroutine, and of every coroutine that runs inside
-- it: on a count it checks the budgets; on a call of coroutine.resume, or of
-- a function made by coroutine.wrap (a C closure holding its thread), it
-- puts itself on that coroutine first (a new coroutine does not inherit a
-- Lua hook), so no library function is ever replaced.
local hook
local function adopt()
  local f = debug.getinfo(3, "f").func
  local thread
  if f == resume then
    thread = select(2, debug.getlocal(3, 1))
  elseif debug.getinfo(f, "S").what == "C" then
    thread = select(2, debug.getupvalue(f, 1))
  end
  if type(thread) == "thread" and coroutine.status(thread) == "suspended" and debug.gethook(thread) ~= hook then
    debug.sethook(thread, hook, "c", limits.COUNT)
  end
end

hook = function(event)
  if not window.active then
    debug.sethook(hook, "", 0)
    return
  end
  if event ~= "count" then
    adopt()
    return
  end
  if not window.reason then
    if window.deadline and os.clock() >= window.deadline then
      window.reason = "time"
    elseif window.limit_kb and collectgarbage("count") > window.limit_kb then
      collectgarbage()
      if collectgarbage("count") > window.limit_kb then window.reason = "memory" end
    end
  end
  if window.reason then
    debug.sethook(hook, "c", 1)
    error(MESSAGE, 0)
  end
end

--- host.call's contract over the Lua hook: calls f(...) on a coroutine of
-- its own with the hook set.
function fallback.call(bytes, seconds, handler, f, ...)
  assert(not window.active, "a window is already open")
  window.limit_kb = bytes and collectgarbage("count") + bytes / 1024 or nil
  window.deadline = seconds and os.clock() + seconds or nil
  window.reason = nil
  local co = coroutine.create(function(...)
    if handler then return xpcall(f, handler, ...) end
    return pcall(f, ...)
  end)
  debug.sethook(co, hook, "c", limits.COUNT)
  window.active = true
  local r = table.pack(resume(co, ...))
  window.active = false
  local reason = window.reason
  if not r[1] then return false, reason, r[2] end
  if coroutine.status(co) ~= "dead" then return false, reason, "attempt to yield from outside a coroutine" end
  if reason then return false, reason, r[3] end
  if not r[2] then return false, nil, r[3] end
  return true, nil, table.unpack(r, 3, r.n)
end

function fallback.active()
  return window.active, window.active and window.reason or nil
end

local call_window = limits.host and limits.host.call or fallback.call
local window_state = limits.host and limits.host.active or fallback.active

--- Whether a window is open now.
function limits.open()
  return (window_state())
end

-- Turns host.call's answer into pcall's, raising or returning limit errors.
-- An error comes out as errors.plain made it inside the window; checked
-- again here with raw operations only.
local function settle(who, culprit, budgets, ok, reason, ...)
  if ok then return true, ... end
  if reason then return false, limit_error(who, reason, culprit, budgets) end
  return false, errors.plain((...))
end

-- The message handler of a window: the error made plain data inside the
-- window (a user's `__tostring` runs on the budget), then `handler`.
local handlers = setmetatable({}, { __mode = "k" }) -- handler -> its window handler
local function plain_handler(err) return errors.plain(err, true) end
local function window_handler(handler)
  if handler == nil then return plain_handler end
  local h = handlers[handler]
  if not h then
    h = function(err) return handler(errors.plain(err, true)) end
    handlers[handler] = h
  end
  return h
end

--- Like pcall(f, ...), with the call on budget when budgets are configured:
-- returns true and f's results, or false and the error, which is a user
-- error "WHO exceeded --max-..." when the call went over its budget
-- (limits.exceeded tells). Inside an open window the call is on that
-- window's budget, and an error of its running out goes on to it.
-- `culprit`: "policy" (default), "rules" or "script"; `handler`: a
-- message handler for errors (as xpcall's), or nil.
function limits.call(who, f, ...)
  return limits.call_as(who, "policy", nil, f, ...)
end

function limits.call_as(who, culprit, handler, f, ...)
  if settings == nil then
    if handler then return xpcall(f, handler, ...) end
    return pcall(f, ...)
  end
  if window_state() then
    local r
    if handler then r = table.pack(xpcall(f, handler, ...)) else r = table.pack(pcall(f, ...)) end
    if not r[1] and select(2, window_state()) then error(r[2], 0) end
    return table.unpack(r, 1, r.n)
  end
  local bytes = settings.memory and math.floor(settings.memory * 1048576) or nil
  return settle(who, culprit, settings, call_window(bytes, settings.seconds, window_handler(handler), f, ...))
end

--- errors.guard(context, f, ...) on budget: f's results; a call over its
-- budget raises the limit error naming `who` (culprit `culprit`), any other
-- error is a user error `context: message`.
function limits.guard(who, culprit, context, f, ...)
  local r = table.pack(limits.call_as(who, culprit, nil, f, ...))
  if r[1] then return table.unpack(r, 2, r.n) end
  if limits.exceeded(r[2]) then error(r[2], 0) end
  return errors.guard(context, error, r[2], 0)
end

-- The deepest nesting of tables limits.plain_value copies.
local PLAIN_DEPTH = 16

-- The copy of one value for limits.plain_value (`seen`: copies made).
local function plain_copy(value, seen, depth)
  if type(value) ~= "table" then return value end
  if seen[value] then return seen[value] end
  if depth > PLAIN_DEPTH then error("a value nested too deeply to be a move or an answer", 0) end
  local copy = {}
  seen[value] = copy
  for key, v in next, value do
    copy[plain_copy(key, seen, depth + 1)] = plain_copy(v, seen, depth + 1)
  end
  return copy
end

--- A copy of `value` as plain data, made with raw operations only: tables
-- are copied (keys and values, nested tables too) without their
-- metatables, anything else is kept. Call it inside the window of the call
-- that produced `value` (a policy's move), so that no metamethod of the
-- user's can run afterwards outside a budget and the copy's cost is on
-- that call's budget.
-- @param value any value
-- @return the plain copy
function limits.plain_value(value)
  if type(value) ~= "table" then return value end -- (no copy, no `seen` table)
  return plain_copy(value, {}, 1)
end

-- ---- rule sets loaded from files ----

local wrapped = setmetatable({}, { __mode = "k" }) -- wrapper functions made here

local handler = errors.handler()

-- A hook `name` of the rule set `where` ("rules FILE") that runs on a
-- budget of its own when no window is open.
local function wrap_hook(fn, where, name)
  local who = ("%s (hook '%s')"):format(where, name)
  local function hook_call(...)
    if settings == nil or window_state() then return fn(...) end
    local r = table.pack(limits.call_as(who, "rules", handler, fn, ...))
    if r[1] then return table.unpack(r, 2, r.n) end
    error(r[2], 0)
  end
  wrapped[hook_call] = true
  return hook_call
end

--- Puts every function field of a rule set loaded from a file (`where`:
-- "rules FILE") on budget, and of the tables it inherits from that are not
-- boardscript's own (`ours`: a set of tables, the built-in rule sets and
-- families): a call from outside any window gets a window of its own,
-- blamed on the rule set. A `core_count` declaration's hooks follow. Does
-- nothing without budgets. Returns `rules`.
function limits.wrap_rules(rules, where, ours)
  if settings == nil then return rules end
  return require("boardscript.hooks").rewrap(rules, ours, function(fn, key)
    if not wrapped[fn] then return wrap_hook(fn, where, tostring(key)) end
  end)
end

return limits
