--- What user code may do: rule sets, policies and the rule files records
-- name are loaded as text only and, unless the run is trusted (`--trust`),
-- run in an environment of their own that cannot start programs, write or
-- remove files, end the process, stop the garbage collector, reach the
-- debug library (beyond `debug.traceback`) or load binary chunks
-- (docs/guide.md, "What user code may do").
--
-- The environment holds copies of the standard tables (changing
-- `string.format` there changes it for that file alone), `require` of
-- `boardscript.*` modules (but not those that reach the terminal, the
-- processes, the budgets or the file system) and of modules next to the
-- file, and `io.open`/`io.lines` for reading files in the file's directory
-- and below.
local errors = require "boardscript.errors"

local sandbox = {}

local trusted = false

--- Gives user code full rights (true) or the restricted environment
-- (false, the default) from now on.
function sandbox.trust(on)
  trusted = on and true or false
end

--- Whether user code runs with full rights.
function sandbox.trusted()
  return trusted
end

--- Adds --trust to an argparse command.
function sandbox.add_option(cmd)
  cmd:flag("--trust", "Run rule set and policy files with full rights (os.execute, io, writing files...); "
    .. "without it they run restricted (guide: \"What user code may do\").")
end

--- Applies a parsed --trust (args.trust) when given.
function sandbox.from_args(args)
  if args.trust then sandbox.trust(true) end
end

--- The command-line words giving the trust again (for worker processes).
function sandbox.argv()
  return trusted and { "--trust" } or {}
end

--- The modules of boardscript user code may require (each name and the
-- modules below it): the game, rules and AI layers, which neither print,
-- read a file by path, write one nor start a process. Everything else
-- (commands, the console, records and file formats, output, workers, the
-- budgets, the host, this module) is refused, new modules included.
sandbox.ALLOWED = {
  "boardscript.core", "boardscript.rules", "boardscript.families", "boardscript.ai", "boardscript.game",
  "boardscript.players", "boardscript.perft", "boardscript.errors", "boardscript.text", "boardscript.notation",
  "boardscript.options", "boardscript.rule_options", "boardscript.declared", "boardscript.elo", "boardscript.view",
}

--- The fields of `require "boardscript"` user code gets (a copy).
sandbox.API = { "core", "errors", "game", "rules", "players", "perft", "version", "new_game" }

--- Library modules handed to user code read-only (a rule set module such
-- as boardscript.rules.reversi is handed as it is: variants inherit from it
-- and boardscript recognises it by identity).
sandbox.READ_ONLY = {
  ["boardscript.core"] = true, ["boardscript.rules"] = true, ["boardscript.game"] = true,
  ["boardscript.players"] = true, ["boardscript.perft"] = true, ["boardscript.errors"] = true,
  ["boardscript.text"] = true, ["boardscript.options"] = true, ["boardscript.rule_options"] = true,
  ["boardscript.declared"] = true, ["boardscript.elo"] = true,
}

-- A read-only view of module `module` named `name`: reading, pairs and #
-- see the module; assigning to a field raises naming it.
local function read_only(name, module)
  return setmetatable({}, {
    __index = module,
    __newindex = function(_, key)
      error(("%s.%s cannot be changed: boardscript's modules are read-only to a restricted file")
        :format(name, tostring(key)), 2)
    end,
    __pairs = function() return next, module, nil end,
    __len = function() return #module end,
    __metatable = false,
  })
end

local function allowed(name)
  for _, prefix in ipairs(sandbox.ALLOWED) do
    if name == prefix or name:sub(1, #prefix + 1) == prefix .. "." then return true end
  end
  return false
end

local function refuse(what, path)
  error(("%s is not allowed in %s (restricted; --trust gives full rights)"):format(what, path), 3)
end

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- Turns "a/./b/../c" into "a/c"; nil when it climbs above its start.
local function normalize(path)
  local parts = {}
  for part in path:gmatch("[^/]+") do
    if part == ".." then
      if #parts == 0 then return nil end
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return table.concat(parts, "/")
end

-- The directory of `path`, "." for a bare name.
local function dir_of(path)
  return path:match("^(.*)/[^/]*$") or "."
end

-- The path user code at `dir` may read as `name`, or nil: relative names
-- only, in `dir` or below it.
local function readable(dir, name)
  if type(name) ~= "string" or name == "" or name:find("\0", 1, true) or name:sub(1, 1) == "/" then
    return nil
  end
  local inside = normalize(name)
  if not inside or inside == "" then return nil end
  return dir .. "/" .. inside
end

local GLOBALS = { "assert", "error", "ipairs", "next", "pairs", "pcall", "xpcall", "select", "tonumber",
  "tostring", "type", "rawequal", "rawget", "rawset", "rawlen", "setmetatable", "print", "_VERSION" }
local LIBRARIES = { "string", "table", "math", "utf8", "coroutine" }
local OS = { "clock", "time", "date", "difftime", "getenv" }
local GC = { collect = true, count = true, step = true, isrunning = true }

-- boardscript.core as a restricted file at `dir` sees it: core.evaluator(PATH)
-- reads files as io.open does, in `dir` and below only.
local function restricted_core(dir)
  local real = require "boardscript.core"
  local view = copy(real)
  view.evaluator = function(arg, ...)
    if type(arg) == "string" then
      local full = readable(dir, arg)
      if not full then
        error(("%s: reading is allowed only for files in %s/ and below (restricted; --trust gives full rights)")
          :format(arg, dir), 2)
      end
      return real.evaluator(full, ...)
    end
    return real.evaluator(arg, ...)
  end
  return view
end

--- The environment of the user file at `path` (a fresh table).
function sandbox.env(path)
  local dir = dir_of(path)
  local env = {}
  for _, name in ipairs(GLOBALS) do env[name] = _G[name] end
  for _, name in ipairs(LIBRARIES) do env[name] = copy(_G[name]) end
  env.string.dump = nil
  env._G = env
  env.os = {}
  for _, name in ipairs(OS) do env.os[name] = os[name] end
  for _, name in ipairs { "execute", "exit", "remove", "rename", "tmpname", "setlocale" } do
    env.os[name] = function() refuse("os." .. name, path) end
  end
  env.debug = { traceback = debug.traceback }
  env.getmetatable = function(value)
    -- strings share one metatable (the real string table); userdata are the core's
    if type(value) ~= "table" then return nil end
    return getmetatable(value)
  end
  env.collectgarbage = function(opt, ...)
    if opt == nil then opt = "collect" end
    if not GC[opt] then refuse(("collectgarbage(%q)"):format(tostring(opt)), path) end
    return collectgarbage(opt, ...)
  end

  local function text_load(chunk, name, mode, chunk_env)
    if mode ~= nil and mode ~= "t" then refuse(("load with mode %q (binary chunks)"):format(tostring(mode)), path) end
    return load(chunk, name, "t", chunk_env == nil and env or chunk_env)
  end
  env.load = function(chunk, name, mode, ...)
    if select("#", ...) == 0 then return text_load(chunk, name, mode, nil) end
    return text_load(chunk, name, mode, (...))
  end

  local function open_read(name, mode)
    if mode ~= nil and mode ~= "r" and mode ~= "rb" then
      refuse(("io.open with mode %q (writing files)"):format(tostring(mode)), path)
    end
    local full = readable(dir, name)
    if not full then
      return nil, ("%s: reading is allowed only for files in %s/ and below (restricted; --trust gives full rights)")
        :format(tostring(name), dir)
    end
    return io.open(full, mode or "r")
  end
  env.loadfile = function(name, mode, chunk_env)
    local file, err = open_read(name, "rb")
    if not file then return nil, err end
    local text = file:read("a")
    file:close()
    if mode ~= nil and mode ~= "t" then
      refuse(("loadfile with mode %q (binary chunks)"):format(tostring(mode)), path)
    end
    return load(text, "@" .. readable(dir, name), "t", chunk_env == nil and env or chunk_env)
  end
  env.dofile = function(name)
    local chunk, err = env.loadfile(name)
    if not chunk then error(err, 2) end
    return chunk()
  end
  env.io = {
    open = open_read,
    lines = function(name, ...)
      if name == nil then refuse("io.lines() (standard input)", path) end
      local file, err = open_read(name, "r")
      if not file then error(err, 2) end
      file:close()
      return io.lines(readable(dir, name), ...)
    end,
    write = function(...) return io.stdout:write(...) end,
    type = io.type,
  }
  for _, name in ipairs { "read", "popen", "output", "input", "close", "tmpfile" } do
    env.io[name] = function() refuse("io." .. name, path) end
  end

  -- require: boardscript's allowed modules and Lua files next
  -- to the user's file, loaded into this environment.
  local loaded = {}
  env.package = { loaded = loaded, path = ("%s/?.lua;%s/?/init.lua"):format(dir, dir) }
  env.require = function(name)
    if type(name) ~= "string" then error(("bad argument #1 to 'require' (string expected, got %s)")
      :format(type(name)), 2) end
    if loaded[name] ~= nil then return loaded[name] end
    local value
    if name == "boardscript" then
      local api = require "boardscript"
      value = {}
      for _, key in ipairs(sandbox.API) do
        local field = api[key]
        local module = "boardscript." .. key
        if module == "boardscript.core" then field = restricted_core(dir) end
        value[key] = sandbox.READ_ONLY[module] and read_only(module, field) or field
      end
    elseif name:sub(1, 12) == "boardscript." then
      if not allowed(name) then refuse(("require %q"):format(name), path) end
      value = name == "boardscript.core" and restricted_core(dir) or require(name)
      if sandbox.READ_ONLY[name] then value = read_only(name, value) end
    else
      local file = package.searchpath(name, env.package.path)
      if not file then
        error(("module '%s' not found next to %s (restricted: boardscript.* and files in %s/)")
          :format(name, path, dir), 2)
      end
      local chunk, err = loadfile(file, "t", env)
      if not chunk then error(err, 2) end
      value = chunk(name, file)
      if value == nil then value = true end
    end
    loaded[name] = value
    return value
  end
  return env
end

--- Whether the file at `path` is a precompiled Lua chunk (it starts with
-- ESC); false when it cannot be read.
function sandbox.binary(path)
  local f = io.open(path, "rb")
  if not f then return false end
  local head = f:read(1)
  f:close()
  return head == "\27"
end

--- Loads the user file at `path` as text (never a binary chunk): with full
-- rights when trusted, else in sandbox.env(path). Returns the chunk, or
-- nil and the message.
function sandbox.loadfile(path)
  if type(path) ~= "string" then return nil, "a path is a string" end
  if sandbox.binary(path) then
    return nil, ("%s: a precompiled (binary) chunk; only Lua source is loaded"):format(path)
  end
  if trusted then return loadfile(path, "t") end
  return loadfile(path, "t", sandbox.env(path))
end

--- Like sandbox.loadfile, but raises a user error naming the file.
function sandbox.load_or_fail(path)
  local chunk, err = sandbox.loadfile(path)
  if not chunk then errors.fail(err) end
  return chunk
end

return sandbox
