--- Errors meant for the user, as values: the command line prints their
-- message (no traceback, no file:line) and exits with their status.
-- Anything else that escapes a command is an internal error (status 1,
-- with a traceback).
local errors = {}

--- Exit statuses shared by every command (docs/decisions.md).
errors.EXIT_FAILURE = 1 -- a check failed, or an internal error
errors.EXIT_USAGE = 2   -- a usage error, or a user's rule set, policy or script at fault
errors.EXIT_EOF = 3     -- end of input before the game finished

-- The metatable of user errors, hidden from getmetatable (user code must
-- not reach it and give every error a looping __tostring). It has no
-- __index: an error's fields are its own, and restricted code holding one
-- (through pcall) reaches no shared table through it.
local UserError = { __metatable = false }
UserError.__tostring = function(e)
  local message = rawget(e, "message")
  return type(message) == "string" and message or "(error object is a table value)"
end
local raw_getmetatable = debug.getmetatable

-- Blame that boardscript itself recorded (error -> the rule set blamed,
-- "rules FILE" or "rule set 'NAME'"): a field of the error could be forged
-- by the code it blames, this table cannot.
local blamed = setmetatable({}, { __mode = "k" })

-- The chunk-name prefix of boardscript's own Lua files ("@/.../boardscript/").
local OURS = debug.getinfo(1, "S").source:match("^(@.*/)[^/]*$") or "@?"

-- Whether the function that called the caller of this is boardscript's own
-- code (a user's file calling errors.rules_fault blames nobody but itself).
local function called_by_us()
  local info = debug.getinfo(3, "S")
  return info ~= nil and info.source:sub(1, #OURS) == OURS
end

--- Raises a user error: `message` is printed as `boardscript: message` and
-- the process exits with `status` (default errors.EXIT_USAGE).
function errors.fail(message, status)
  error(setmetatable({ message = message, status = status or errors.EXIT_USAGE }, UserError), 0)
end

--- Raises a user error (status 2) that blames a rule set: `where` names it
-- ("rules FILE"), `hook` the hook at fault. A match or a game stops on it;
-- it is never a player's forfeit (errors.culprit(err) == "rules").
function errors.rules_fault(where, hook, message)
  local _, err = pcall(errors.fail, ("%s: hook '%s' %s"):format(where, hook, message))
  if called_by_us() then blamed[err] = tostring(where) end
  error(err, 0)
end

--- Raises a user error (status 2) with `message` as it is, blamed on the
-- rule set `where` names (an error raised inside one of its hooks).
function errors.rules_error(message, where)
  local _, err = pcall(errors.fail, message)
  if called_by_us() then blamed[err] = tostring(where) end
  error(err, 0)
end

--- Whether `value` is an error raised by errors.fail (its metatable is
-- compared raw: no metamethod runs).
function errors.is_user(value)
  return rawequal(raw_getmetatable(value), UserError)
end

--- Who boardscript blamed for user error `err`: "rules" for a fault of a
-- rule set that boardscript's own code found (errors.rules_fault called by
-- boardscript), and which one ("rules FILE" or "rule set 'NAME'"); else
-- nil. Only blame recorded here counts; fields of the error do not.
-- @param err an error value
-- @treturn ?string "rules"
-- @treturn ?string the rule set blamed
function errors.culprit(err)
  local where = blamed[err]
  if where then return "rules", where end
  return nil
end

--- A copy of user error `err` with its message and status checked with raw
-- operations (a message that is not a string, a status that is not an
-- integer become the defaults) and no blame: what a policy raised is the
-- policy's fault, whatever the error says.
function errors.disowned(err)
  local message, status = rawget(err, "message"), rawget(err, "status")
  if type(message) ~= "string" then message = "(error object is a table value)" end
  if math.type(status) ~= "integer" then status = errors.EXIT_USAGE end
  return setmetatable({ message = message, status = status }, UserError)
end

-- Values of boardscript's own that errors.plain passes on as they are
-- (console.EOF): weak keys.
local own = setmetatable({}, { __mode = "k" })

--- Registers `value` as an error value of boardscript's own, which
-- errors.plain passes on as it is. Returns `value`.
function errors.own(value)
  own[value] = true
  return value
end

--- An error value made safe for boardscript to handle outside any budget:
-- a string or a number as it is; a user error as a checked copy keeping
-- boardscript's blame (errors.disowned); a value errors.own registered as
-- it is; anything else as text, by `tostring` when `convert` is true (call
-- it so only inside a budget window: it runs the value's `__tostring`),
-- else as "(error object is a TYPE value)" without touching it.
function errors.plain(err, convert)
  local kind = type(err)
  if kind == "string" or kind == "number" or kind == "nil" or kind == "boolean" then return err end
  if own[err] then return err end
  if errors.is_user(err) then
    local message = rawget(err, "message")
    if type(message) ~= "string" then err = message end -- then made text as any other value
    if type(message) == "string" then
      local copy = errors.disowned(err)
      blamed[copy] = blamed[err]
      return copy
    end
  end
  if type(err) == "string" then return err end
  if convert then
    local ok, text = pcall(tostring, err)
    if ok and type(text) == "string" then return text end
  end
  return ("(error object is a %s value)"):format(kind)
end

--- Calls f(...) and turns any error into a user error with `context: `
-- before its message (a user's file raised it, so no traceback of ours
-- helps); a user error gets the context too, unless it has it already.
-- Returns f's results.
function errors.guard(context, f, ...)
  local results = table.pack(pcall(f, ...))
  if results[1] then return table.unpack(results, 2, results.n) end
  local err = errors.plain(results[2])
  if errors.is_user(err) then
    if err.message:sub(1, #context + 1) == context .. ":" then error(err, 0) end
    errors.fail(("%s: %s"):format(context, err.message), err.status)
  end
  errors.fail(("%s: %s"):format(context, tostring(err)))
end

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
    if rawequal(err, passthrough) or errors.is_user(err) then return err end
    err = errors.plain(err) -- never a metamethod of the user's: this may run outside a budget
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
-- (short: at most 8 items of a list). Raw: no metamethod of the value
-- runs (a table's `__tostring`, `__len` or `__index` is not called).
function errors.describe(value)
  local kind = type(value)
  if kind == "string" then return ("%q"):format(value) end
  if kind == "number" or kind == "boolean" or kind == "nil" then return tostring(value) end
  if kind ~= "table" then return ("(a %s)"):format(kind) end
  local n = rawlen(value)
  if n == 0 and next(value) ~= nil then return "{...}" end
  local parts = {}
  for i = 1, math.min(n, 8) do
    local v = rawget(value, i)
    parts[i] = type(v) == "table" and "{...}" or errors.describe(v)
  end
  if n > 8 then parts[#parts + 1] = "..." end
  return "{" .. table.concat(parts, ", ") .. "}"
end

return errors
