--- Lua test scripts for `boardscript test` (NAME_test.lua).
--
-- The runner (the parent) starts the host once per script: `boardscript
-- test --max-memory MIB --script-result FILE -- PATH` under `timeout`. That
-- child runs the script in its own Lua state and writes one result to FILE:
-- `ok` once the script returned with the standard library intact, `fail`
-- and the reason, or `exit` and os.exit's arguments when the script called
-- it. The parent judges from that file and the child's exit status, so a
-- script that stops its process early (os.exit, a signal, the time limit)
-- leaves no `ok` behind, and nothing a script replaces reaches the parent.

local errors = require "boardscript.errors"
local util = require "boardscript.testing.util"
local shell_quote = require("boardscript.text").shell_quote
local read_file, split_path, number_text, timeout_prefix = util.read_file, util.split_path, util.number_text,
  util.timeout_prefix

local script = {}

-- boardscript.testing (its limits and executable), loaded when first used:
-- it loads this module.
local function testing() return require "boardscript.testing" end

--- The first line of a child's result file, before its verdict.
script.RESULT_HEADER = "boardscript test result: "

-- What the child uses once the script has run, taken before it runs: a
-- script may have replaced any global or library function since.
local std = {
  type = type, tostring = tostring, pairs = pairs, ipairs = ipairs, rawget = rawget, select = select,
  getmetatable = getmetatable, setmetatable = setmetatable, xpcall = xpcall, loadfile = loadfile,
  open = io.open, stdout = io.stdout, write = io.stdout.write, flush = io.stdout.flush,
  close = io.stdout.close, stderr = io.stderr, exit = os.exit, os = os, package = package, G = _G,
  format = string.format, match = string.match, sort = table.sort, concat = table.concat,
  getinfo = debug.getinfo, floor = math.floor, tointeger = math.tointeger, tonumber = tonumber, error = error,
}
local is_user_error = errors.is_user -- raw: user errors hide their metatable
local host = require("boardscript.limits").host

-- The libraries whose fields a script must leave as it found them.
local LIBRARIES = { "coroutine", "debug", "io", "math", "os", "package", "string", "table", "utf8" }

-- Writes the child's result (verdict and detail) to `path` (the parent's
-- temporary file, read once: written in place); false if it cannot, the
-- write and the close checked.
local function write_result(path, verdict, detail)
  local f = std.open(path, "wb")
  if not f then return false end
  local written = std.write(f, script.RESULT_HEADER, verdict, "\n", detail or "")
  local closed = std.close(f)
  return written ~= nil and closed == true
end

-- A value as os.exit's argument was written: 0, true, "x".
local function argument_text(value)
  if std.type(value) == "string" then return std.format("%q", value) end
  return std.tostring(value)
end

-- What the script may not leave changed: a list of { label, table, key,
-- value } (value: rawget(table, key) before the script ran).
local function snapshot()
  local G, entries = std.G, {}
  local function add(label, t, key)
    local value = std.rawget(t, key)
    local kind = std.type(value)
    if kind == "function" or kind == "table" or kind == "userdata" then
      entries[#entries + 1] = { label, t, key, value }
    end
  end
  for key in std.pairs(G) do
    if key ~= "arg" and std.type(key) == "string" then add(key, G, key) end
  end
  for _, name in ipairs(LIBRARIES) do
    local lib = std.rawget(G, name)
    if std.type(lib) == "table" then
      for key in std.pairs(lib) do
        if std.type(key) == "string" then add(name .. "." .. key, lib, key) end
      end
    end
  end
  local loaded = std.package.loaded
  for key in std.pairs(loaded) do
    if std.type(key) == "string" then add(std.format("package.loaded[%q]", key), loaded, key) end
  end
  local string_meta = std.getmetatable("")
  if string_meta then add("the string metatable's __index", string_meta, "__index") end
  local file_meta = std.getmetatable(std.stdout)
  local methods = file_meta and std.rawget(file_meta, "__index")
  if std.type(methods) == "table" then
    for key in std.pairs(methods) do
      if std.type(key) == "string" then add("file:" .. key, methods, key) end
    end
  end
  entries.string_meta, entries.G_meta = string_meta, std.getmetatable(G)
  return entries
end

-- The labels of what changed since `entries` were taken, sorted.
local function changed_since(entries)
  local changed = {}
  for _, e in std.ipairs(entries) do
    if std.rawget(e[2], e[3]) ~= e[4] then changed[#changed + 1] = e[1] end
  end
  if std.getmetatable("") ~= entries.string_meta then changed[#changed + 1] = "the string metatable" end
  if std.getmetatable(std.G) ~= entries.G_meta then changed[#changed + 1] = "the metatable of _G" end
  std.sort(changed)
  return changed
end

-- The script's innermost frame in the stack (from the level the error was
-- raised at): "path:line".
local function script_position(path)
  for level = 3, 50 do
    local info = std.getinfo(level, "Sl")
    if not info then break end
    if info.source == "@" .. path and info.currentline and info.currentline > 0 then
      return std.format("%s:%d", info.short_src, info.currentline)
    end
  end
  return nil
end

-- The message handler of a script's errors: the message, with the
-- script's `file:line` in front when it names no position.
local function script_handler(path)
  return function(e)
    local user = is_user_error(e)
    local message = user and std.rawget(e, "message") or e
    if std.type(message) ~= "string" then return std.tostring(message) end
    if not std.match(message, "^[^\n]-:%d+:") then
      local where = script_position(path)
      if where then message = where .. ": " .. message end
    end
    return message
  end
end

--- The child's side of script.run (`boardscript test --script-result
-- FILE -- PATH`): runs the Lua test script at `path` in this process, in a
-- fresh environment whose __index is _G, with the script's directory first
-- on package.path, its Lua heap allowed to grow by opts.max_memory MiB
-- (default testing().MAX_MEMORY; a limit the host's allocator enforces, see
-- boardscript.limits), writes the result to `result_path` and exits.
-- os.exit, while the script runs, writes `exit` and its arguments first.
function script.child(path, result_path, opts)
  opts = opts or {}
  local mib = opts.max_memory or testing().MAX_MEMORY
  local out_of_memory = ("out of memory (the Lua heap grew by more than --max-memory %s MiB)")
    :format(number_text(mib))
  local exit = std.exit
  std.os.exit = function(...)
    local code = (...)
    local kind = std.type(code)
    if kind ~= "nil" and kind ~= "boolean" and not std.tointeger(std.tonumber(code)) then
      std.error(std.format("bad argument #1 to 'exit' (number expected, got %s)", kind), 2)
    end
    local words = {}
    for i = 1, std.select("#", ...) do words[i] = argument_text((std.select(i, ...))) end
    write_result(result_path, "exit", std.concat(words, ", "))
    return exit(...)
  end
  local entries = snapshot()
  local env = std.setmetatable({}, { __index = std.G })
  local verdict, detail = "ok", nil
  local chunk, load_err = std.loadfile(path, "t", env)
  if not chunk then
    verdict, detail = "fail", load_err
  else
    local dir = split_path(path)
    local package, saved_path = std.package, std.package.path
    package.path = std.format("%s/?.lua;%s/?/init.lua;%s", dir, dir, saved_path)
    local handler = script_handler(path)
    local ok, reason, err
    if host then
      ok, reason, err = host.call(std.floor(mib * 1048576), nil, handler, chunk)
    else -- not the boardscript binary: no budget
      ok, err = std.xpcall(chunk, handler)
    end
    package.path = saved_path
    std.flush(std.stdout)
    if reason == "memory" then
      verdict, detail = "fail", out_of_memory
    elseif not ok then
      verdict = "fail"
      detail = std.type(err) == "string" and err or std.format("an error that is not a string (%s)", std.type(err))
    else
      local changed = changed_since(entries)
      if #changed > 0 then
        verdict, detail = "fail", "replaced standard globals and did not restore them: " .. std.concat(changed, ", ")
      end
    end
  end
  std.flush(std.stdout)
  if not write_result(result_path, verdict, detail) then
    std.write(std.stderr, "boardscript: cannot write ", result_path, "\n")
    exit(1)
  end
  exit(0)
end

--- Runs the Lua test script at `path` in a process of its own (see
-- script.child), stopped after opts.timeout seconds of wall-clock
-- time (default testing().TIMEOUT) when coreutils' timeout exists. opts: {
-- exe =, timeout =, max_memory = }. It passes when it returns without
-- error, without calling os.exit and with the standard library as it found
-- it. Returns { ok =, detail = message }.
function script.run(path, opts)
  opts = opts or {}
  local result_path = os.tmpname()
  local seconds = opts.timeout or testing().TIMEOUT
  local trust = require("boardscript.sandbox").trusted() and "--trust " or ""
  local command = ("exec %s%s test %s--max-memory=%s --script-result %s -- %s"):format(timeout_prefix(seconds, 5),
    shell_quote(testing().executable(opts)), trust, number_text(opts.max_memory or testing().MAX_MEMORY),
    shell_quote(result_path), shell_quote(path))
  io.stdout:flush()
  -- a shell runs the test script's command line (the user's script, under
  -- timeout and a memory budget), as `boardscript test` documents
  local _, how, code = os.execute(command)
  local text = read_file(result_path) or ""
  os.remove(result_path)
  if how == "signal" and (code == 2 or code == 3) then -- ^C
    errors.fail("interrupted", 128 + code)
  end
  local verdict, detail
  if text:sub(1, #script.RESULT_HEADER) == script.RESULT_HEADER then
    verdict, detail = text:match("^(%a+)\n(.*)$", #script.RESULT_HEADER + 1)
  end
  if verdict == "fail" then return { ok = false, detail = detail } end
  if verdict == "exit" then
    return { ok = false, detail = ("exited with os.exit(%s) before the script finished"):format(detail) }
  end
  if verdict == "ok" and how == "exit" and code == 0 then return { ok = true } end
  local when = verdict == "ok" and "after" or "before"
  if how ~= "exit" then
    return { ok = false, detail = ("killed by signal %d"):format(code) }
  elseif util.has_timeout() and code == 124 then
    return { ok = false, detail = ("timed out after %s s"):format(number_text(seconds)) }
  end
  return { ok = false, detail = ("exited with status %d %s the script finished"):format(code, when) }
end

return script
