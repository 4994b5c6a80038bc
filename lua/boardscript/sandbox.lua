--- What user code may do: rule sets, policies and the rule files records
-- name are loaded as text only and, unless the run is trusted (`--trust`),
-- run in an environment of their own that cannot start programs, write or
-- remove files, end the process, stop the garbage collector, reach the
-- debug library (beyond `debug.traceback`), load binary chunks, change
-- boardscript's own tables or write into a protocol stream (docs/guide.md,
-- "What user code may do"; docs/decisions.md, "A trust boundary by
-- construction").
--
-- The environment holds copies of the standard tables (changing
-- `string.format` there changes it for that file alone), `require` of the
-- allowed `boardscript.*` modules (frozen: read-only for everyone once a
-- restricted file is loaded) and of modules next to the file, and
-- `io.open`/`io.lines` for reading files in the file's directory and below,
-- through no symbolic link.
local errors = require "boardscript.errors"
local freeze = require "boardscript.sandbox.freeze"
local paths = require "boardscript.sandbox.paths"
local views = require "boardscript.sandbox.views"
require "boardscript.core" -- the C module, loaded now: a restricted file finds it loaded

local dir_of, readable, unreadable = paths.dir_of, paths.readable, paths.unreadable

local sandbox = {}

local trusted = false

--- Gives user code full rights (true) or the restricted environment
-- (false, the default) from now on.
-- @tparam boolean on whether to trust
function sandbox.trust(on)
  trusted = on and true or false
end

--- Whether user code runs with full rights.
-- @treturn boolean
function sandbox.trusted()
  return trusted
end

--- Adds --trust to an argparse command.
-- @tparam table cmd an argparse command
function sandbox.add_option(cmd)
  cmd:flag("--trust", "Run rule set and policy files with full rights (os.execute, io, writing files...); "
    .. "without it they run restricted (guide: \"What user code may do\").")
end

--- The commands whose standard output is a protocol stream: what a
-- restricted file prints goes to standard error under them.
sandbox.PROTOCOLS = { nboard = true, gtp = true }

--- Applies a parsed --trust (args.trust) when given, and sends what
-- restricted files print to standard error when standard output is a
-- stream another program reads: a protocol (sandbox.PROTOCOLS, by
-- `args.command`) or a worker's lines (`--shard`).
-- @tparam table args the parsed arguments
function sandbox.from_args(args)
  if args.trust then sandbox.trust(true) end
  if args.shard or sandbox.PROTOCOLS[args.command] then sandbox.set_output(io.stderr) end
end

--- The command-line words giving the trust again (for worker processes).
-- @treturn {string,...}
function sandbox.argv()
  return trusted and { "--trust" } or {}
end

--- The modules of boardscript user code may require (each name and the
-- modules below it): the game, rules and AI layers, which neither print,
-- read a file by path, write one nor start a process. Everything else
-- (commands, the console, records and file formats, output, workers, the
-- budgets, the host, this module) is refused, new modules included. Once
-- a restricted file is loaded, every loaded module of this list (and each
-- loaded later) is frozen: read-only all the way down, for everyone.
sandbox.ALLOWED = {
  "boardscript.core", "boardscript.rules", "boardscript.families", "boardscript.ai", "boardscript.game",
  "boardscript.players", "boardscript.perft", "boardscript.errors", "boardscript.text", "boardscript.notation",
  "boardscript.options", "boardscript.rule_options", "boardscript.declared", "boardscript.elo", "boardscript.view",
  "boardscript.describe",
}

--- The fields of `require "boardscript"` user code gets.
sandbox.API = { "core", "errors", "game", "rules", "players", "perft", "version", "new_game" }

--- Functions that load a rule set or policy named by a path: in a
-- restricted file's view of their module, a path argument (a string
-- ending in `.lua` that is not a built-in name) is read relative to the
-- file's directory, as io.open reads (module -> field -> argument
-- positions). A restricted file reaches no other way to these functions.
sandbox.LOADERS = {
  ["boardscript.rules"] = { load = { 1 } },
  ["boardscript.players"] = { load = { 1, 2 }, builtin_for = { 1 }, plays = { 2 } },
  ["boardscript.game"] = { new = { 1 } },
  ["boardscript.rule_options"] = { new_game = { 3 } },
  boardscript = { new_game = { 1 } },
}

--- Whether restricted code must not change `t`: a frozen library table or
-- a read-only view (boardscript.sandbox.freeze).
-- @param t any value
-- @treturn boolean
function sandbox.protected(t)
  return freeze.protected(t)
end

--- Whether `t` is a frozen library table (a built-in rule set module once
-- a restricted file is loaded): its hooks are boardscript's own.
-- @param t any value
-- @treturn boolean
function sandbox.frozen(t)
  return freeze.frozen(t)
end

local function allowed(name)
  if type(name) ~= "string" then return false end
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

-- The string metatable's __index is what `("").rep` reaches: a copy of
-- the string table without `dump` (boardscript never calls string.dump
-- as a method; `string.dump` itself is left to trusted code).
do
  local meta = getmetatable("")
  local methods = copy(string)
  methods.dump = nil
  meta.__index = methods
end

-- Freezes boardscript's allowed modules, those loaded now and (through
-- package.loaded) every one loaded later: once restricted code runs,
-- nothing it can reach of them can change, whoever holds it.
local active = false
local function activate()
  if active then return end
  active = true
  for name, value in pairs(package.loaded) do
    if allowed(name) then freeze.freeze(value, name) end
  end
  local loaded = package.loaded
  setmetatable(loaded, {
    __newindex = function(t, name, value)
      rawset(t, name, value)
      if allowed(name) then freeze.freeze(value, name) end
    end,
  })
end

-- ---- where a restricted file's output goes ----

local output = nil -- nil: standard output

--- Sends what restricted files print (`print`, `io.write`) to `file` (a
-- file handle; nil: standard output). The protocol commands and workers
-- send it to standard error (sandbox.from_args), so it never reaches their
-- stream.
-- @tparam[opt] file file where restricted output goes
function sandbox.set_output(file)
  output = file
end

local function output_file()
  return output or io.stdout
end

-- ---- who is loading ----

-- The chunk sources of restricted code (its files, its neighbours, what it
-- loads) -> the directory it may read.
local restricted_sources = {}

-- The directory of the innermost restricted function on the stack, or nil:
-- a loader called on a restricted file's behalf (through a function no
-- view wraps) loads only its neighbours. A tail call from restricted code
-- leaves no frame to find; the views (sandbox.LOADERS) are the rule, this
-- is the net.
local function restricted_caller()
  local level = 3
  while true do
    local info = debug.getinfo(level, "S")
    if not info then return nil end
    local dir = restricted_sources[info.source]
    if dir then return dir end
    level = level + 1
  end
end

-- ---- the environment ----

local GLOBALS = { "assert", "error", "ipairs", "next", "pairs", "pcall", "xpcall", "select", "tonumber",
  "tostring", "type", "rawequal", "rawget", "rawlen", "_VERSION" }
local LIBRARIES = { "string", "table", "math", "utf8", "coroutine" }
local OS = { "clock", "time", "date", "difftime", "getenv" }
local GC = { collect = true, count = true, step = true, isrunning = true }

local own_meta = setmetatable({}, { __mode = "k" }) -- metatables restricted code set itself

local function library_table(what, t)
  error(("%s: %s is one of boardscript's tables, read-only to a restricted file")
    :format(what, freeze.name(t) or tostring(t)), 3)
end

-- setmetatable, getmetatable and rawset as a restricted file has them.
local function add_metatables(env, path)
  env.setmetatable = function(t, meta)
    if freeze.protected(t) then library_table("setmetatable", t) end
    if type(meta) == "table" then
      if rawget(meta, "__gc") ~= nil then
        error(("setmetatable: a metatable with __gc is not allowed in %s (finalizers run outside every "
          .. "budget; restricted; --trust gives full rights)"):format(path), 2)
      end
      own_meta[meta] = true
    end
    return setmetatable(t, meta)
  end
  env.getmetatable = function(value)
    -- strings share one metatable and userdata are the core's: their
    -- methods are everyone's
    if type(value) ~= "table" then return nil end
    local meta = getmetatable(value)
    if type(meta) ~= "table" or own_meta[meta] then return meta end
    if freeze.frozen(value) then
      -- a frozen table: the metatable it had (its fields read through it)
      meta = getmetatable(rawget(meta, "__index"))
      if meta == nil then return nil end
    end
    return freeze.view(meta, "a library metatable")
  end
  env.rawset = function(t, key, value)
    if freeze.protected(t) then library_table("rawset", t) end
    return rawset(t, key, value)
  end
end

-- load, loadfile, dofile: text only, in this environment unless given
-- one of the file's own tables.
local function add_loaders(env, path, dir)
  -- what it loads is named after it: a chunk name of its choosing could be
  -- the source of one of boardscript's files, which restricted_caller
  -- would then take for restricted code
  local prefix = ("=(load in %s)"):format(path)
  restricted_sources[prefix] = dir
  local function check_env(what, chunk_env)
    if freeze.protected(chunk_env) then library_table(what .. " with an environment", chunk_env) end
    if chunk_env ~= nil and type(chunk_env) ~= "table" then
      error(("%s: the environment must be a table (got %s)"):format(what, type(chunk_env)), 3)
    end
  end
  local function text_load(chunk, name, mode, chunk_env)
    if mode ~= nil and mode ~= "t" then refuse(("load with mode %q (binary chunks)"):format(tostring(mode)), path) end
    check_env("load", chunk_env)
    if name == nil then
      name = prefix
    elseif type(name) == "string" then
      name = prefix .. " " .. name
      restricted_sources[name] = dir
    end
    return load(chunk, name, "t", chunk_env == nil and env or chunk_env)
  end
  env.load = function(chunk, name, mode, ...)
    if select("#", ...) == 0 then return text_load(chunk, name, mode, nil) end
    return text_load(chunk, name, mode, (...))
  end
  env.loadfile = function(name, mode, chunk_env)
    if mode ~= nil and mode ~= "t" then
      refuse(("loadfile with mode %q (binary chunks)"):format(tostring(mode)), path)
    end
    check_env("loadfile", chunk_env)
    local full = readable(dir, name)
    if not full then return nil, unreadable(name, dir) end
    restricted_sources["@" .. full] = dir
    return loadfile(full, "t", chunk_env == nil and env or chunk_env)
  end
  env.dofile = function(name)
    local chunk, err = env.loadfile(name)
    if not chunk then error(err, 2) end
    return chunk()
  end
end

local function add_io(env, path, dir)
  local function open_read(name, mode)
    if mode ~= nil and mode ~= "r" and mode ~= "rb" then
      refuse(("io.open with mode %q (writing files)"):format(tostring(mode)), path)
    end
    local full = readable(dir, name)
    if not full then return nil, unreadable(name, dir) end
    return io.open(full, mode or "r")
  end
  local writer = {}
  local function write(...)
    local file = output_file()
    for i = 1, select("#", ...) do
      local value = select(i, ...)
      if type(value) ~= "string" and type(value) ~= "number" then
        error(("bad argument #%d to 'write' (string expected, got %s)"):format(i, type(value)), 2)
      end
      file:write(value)
    end
    return writer
  end
  function writer.write(_, ...) return write(...) end
  env.print = function(...)
    local parts = table.pack(...)
    for i = 1, parts.n do parts[i] = tostring(parts[i]) end
    local file = output_file()
    file:write(table.concat(parts, "\t", 1, parts.n), "\n")
  end
  env.io = {
    open = open_read,
    lines = function(name, ...)
      if name == nil then refuse("io.lines() (standard input)", path) end
      local full = readable(dir, name)
      if not full then error(unreadable(name, dir), 2) end
      return io.lines(full, ...)
    end,
    write = write,
    type = io.type,
  }
  for _, name in ipairs { "read", "popen", "output", "input", "close", "tmpfile" } do
    env.io[name] = function() refuse("io." .. name, path) end
  end
end

-- Where boardscript's own Lua modules are (the directory this file is in),
-- as a search path: an allowed module not loaded yet must be found there,
-- and be what package.path finds, else `./boardscript/ai/x.lua` in the
-- working directory (where a stranger's files often are) would run with
-- full rights. nil when it cannot be told (then nothing new is loaded).
local OWN_PATH = (function()
  local source = debug.getinfo(1, "S").source
  local root = source:match("^@(.*)/boardscript/sandbox%.lua$") or source:match("^@(.*)/boardscript/sandbox/init%.lua$")
  return root and ("%s/?.lua;%s/?/init.lua"):format(root, root) or nil
end)()

-- require of an allowed boardscript module `name` for a restricted file
-- (loaded already, preloaded by the host, or found where boardscript's
-- own modules are).
local function require_own(name)
  if package.loaded[name] == nil and package.preload[name] == nil then
    local own = OWN_PATH and package.searchpath(name, OWN_PATH)
    if not own or package.searchpath(name, package.path) ~= own then
      error(("module '%s' not found among boardscript's own modules"):format(name), 3)
    end
  end
  return require(name)
end

-- require: boardscript's allowed modules (frozen; views where they load
-- files) and Lua files next to the user's file, loaded into this
-- environment.
local function add_require(env, path, dir)
  local loaded = {}
  local search_path = ("%s/?.lua;%s/?/init.lua"):format(dir, dir)
  env.package = { loaded = loaded, path = search_path }
  env.require = function(name)
    if type(name) ~= "string" then error(("bad argument #1 to 'require' (string expected, got %s)")
      :format(type(name)), 2) end
    if loaded[name] ~= nil then return loaded[name] end
    local value
    if name == "boardscript" then
      local api = require "boardscript"
      local fields = {}
      for _, key in ipairs(sandbox.API) do
        local module = "boardscript." .. key
        fields[key] = allowed(module) and env.require(module) or api[key]
      end
      value = views.module(name, fields, dir, sandbox.LOADERS[name])
    elseif name:sub(1, 12) == "boardscript." then
      if not allowed(name) then refuse(("require %q"):format(name), path) end
      value = views.module(name, require_own(name), dir, sandbox.LOADERS[name])
    else
      -- the search path is fixed: package.path here is for reading only
      local file
      for template in search_path:gmatch("[^;]+") do
        local candidate = template:gsub("%?", (name:gsub("%.", "/")))
        local full = candidate:sub(1, #dir + 1) == dir .. "/" and readable(dir, candidate:sub(#dir + 2))
        local f = full and io.open(full, "r")
        if f then
          f:close()
          file = full
          break
        end
      end
      if not file then
        error(("module '%s' not found next to %s (restricted: boardscript.* and files in %s/, "
          .. "through no symbolic link)"):format(name, path, dir), 2)
      end
      restricted_sources["@" .. file] = dir
      local chunk, err = loadfile(file, "t", env)
      if not chunk then error(err, 2) end
      value = chunk(name, file)
      if value == nil then value = true end
    end
    loaded[name] = value
    return value
  end
end

--- The environment of the user file at `path` (a fresh table). Freezes
-- boardscript's allowed modules first (see sandbox.ALLOWED).
-- @tparam string path the file's path
-- @treturn table the environment
function sandbox.env(path)
  activate()
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
  env.collectgarbage = function(opt, ...)
    if opt == nil then opt = "collect" end
    if not GC[opt] then refuse(("collectgarbage(%q)"):format(tostring(opt)), path) end
    return collectgarbage(opt, ...)
  end
  add_metatables(env, path)
  add_loaders(env, path, dir)
  add_io(env, path, dir)
  add_require(env, path, dir)
  return env
end

--- Whether the file at `path` is a precompiled Lua chunk (it starts with
-- ESC); false when it cannot be read.
-- @tparam string path a file's path
-- @treturn boolean
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
-- @tparam string path the file's path
-- @treturn ?function the chunk
-- @treturn ?string why not
function sandbox.loadfile(path)
  if type(path) ~= "string" then return nil, "a path is a string" end
  if not trusted then
    -- on behalf of a restricted file: its neighbours only
    local dir = restricted_caller()
    if dir then
      local inside = path:sub(1, #dir + 1) == dir .. "/" and path:sub(#dir + 2) or path
      local full = readable(dir, inside)
      if not full then return nil, unreadable(path, dir) end
      path = full
    end
  end
  if sandbox.binary(path) then
    return nil, ("%s: a precompiled (binary) chunk; only Lua source is loaded"):format(path)
  end
  if trusted then return loadfile(path, "t") end
  local env = sandbox.env(path)
  restricted_sources["@" .. path] = dir_of(path)
  return loadfile(path, "t", env)
end

--- Like sandbox.loadfile, but raises a user error naming the file.
-- @tparam string path the file's path
-- @treturn function the chunk
function sandbox.load_or_fail(path)
  local chunk, err = sandbox.loadfile(path)
  if not chunk then errors.fail(err) end
  return chunk
end

return sandbox
