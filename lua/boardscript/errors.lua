--- Errors meant for the user, as values: the command line prints their
-- message (no traceback, no file:line) and exits with their status.
-- Anything else that escapes a command is an internal error (status 1,
-- with a traceback).
local errors = {}

--- Exit statuses shared by every command (docs/decisions.md).
errors.EXIT_FAILURE = 1 -- a check failed, or an internal error
errors.EXIT_USAGE = 2   -- a usage error, or a user's rule set, policy or script at fault
errors.EXIT_EOF = 3     -- end of input before the game finished

local UserError = {}
UserError.__index = UserError
UserError.__tostring = function(e) return e.message end

--- Raises a user error: `message` is printed as `boardscript: message` and
-- the process exits with `status` (default errors.EXIT_USAGE).
function errors.fail(message, status)
  error(setmetatable({ message = message, status = status or errors.EXIT_USAGE }, UserError), 0)
end

--- Raises a user error (status 2) that blames a rule set: `where` names it
-- ("rules FILE"), `hook` the hook at fault. A match or a game stops on it;
-- it is never a player's forfeit (err.culprit == "rules").
function errors.rules_fault(where, hook, message)
  local _, err = pcall(errors.fail, ("%s: hook '%s' %s"):format(where, hook, message))
  err.culprit = "rules"
  error(err, 0)
end

--- Whether `value` is an error raised by errors.fail.
function errors.is_user(value)
  return getmetatable(value) == UserError
end

--- Calls f(...) and turns any error into a user error with `context: `
-- before its message (a user's file raised it, so no traceback of ours
-- helps); a user error gets the context too, unless it has it already.
-- Returns f's results.
function errors.guard(context, f, ...)
  local results = table.pack(pcall(f, ...))
  if results[1] then return table.unpack(results, 2, results.n) end
  local err = results[2]
  if errors.is_user(err) then
    if err.message:sub(1, #context + 1) == context .. ":" then error(err, 0) end
    errors.fail(("%s: %s"):format(context, err.message), err.status)
  end
  errors.fail(("%s: %s"):format(context, tostring(err)))
end

-- The chunk-name prefix of boardscript's own Lua files ("@/.../boardscript/").
local OURS = debug.getinfo(1, "S").source:match("^(@.*/)[^/]*$") or "@?"

-- The innermost frame (from `level` outwards) running a Lua file that is
-- not boardscript's own: a user's rule set, policy or script. nil if none.
local function user_frame(level)
  while true do
    local info = debug.getinfo(level + 1, "Sl")
    if not info then return nil end
    local source = info.source
    if source:sub(1, 1) == "@" and source:sub(1, #OURS) ~= OURS then return info end
    level = level + 1
  end
end

--- A message handler for xpcall around code that may run a user's file:
-- user errors and `passthrough` values come back as they are; an error
-- raised while a user's file is on the stack becomes a user error (status
-- 2) with its message and, if the message does not say it, the place in
-- that file; anything else is ours, and gets a traceback.
function errors.handler(passthrough)
  return function(err)
    if err == passthrough or errors.is_user(err) then return err end
    local frame = user_frame(2)
    if frame then
      local message = tostring(err)
      local where = ("%s:%d"):format(frame.short_src, frame.currentline)
      if not message:find(frame.short_src, 1, true) then message = message .. " (at " .. where .. ")" end
      return setmetatable({ message = message, status = errors.EXIT_USAGE }, UserError)
    end
    return debug.traceback(tostring(err), 2)
  end
end

--- A value as a person would write it in Lua: `"d3"`, `{1.5, 2}`, `nil`
-- (short: at most 8 items of a list).
function errors.describe(value)
  if type(value) == "string" then return ("%q"):format(value) end
  if type(value) ~= "table" then return tostring(value) end
  if #value == 0 and next(value) ~= nil then return "{...}" end
  local parts = {}
  for i = 1, math.min(#value, 8) do
    local v = value[i]
    parts[i] = type(v) == "table" and "{...}" or errors.describe(v)
  end
  if #value > 8 then parts[#parts + 1] = "..." end
  return "{" .. table.concat(parts, ", ") .. "}"
end

return errors
