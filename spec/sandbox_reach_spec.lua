-- Everything a restricted file can reach (issue 27, item 1): a walk from
-- its environment through every table's fields (keys and values), the
-- metatables its getmetatable gives and their __index chains, every
-- allowed boardscript module (each file under an allowed name, so a new
-- module is walked as soon as it exists) and what a few of their
-- constructors return. It fails on a path to a library table that can be
-- changed (assignment or rawset of a fresh key) or to a function of the
-- deny list, compared by identity with the real ones. Functions' upvalues
-- are not walked: what a function does with them is the module's
-- business, and a restricted file cannot reach them.
local sandbox = require "boardscript.sandbox"
local support = require "support.host"

-- ---- the deny list: the real functions that load or run code, reach the
-- ---- system, the debug library, the budgets, the host or the sandbox ----

local SAFE_GLOBALS = { assert = true, error = true, ipairs = true, next = true, pairs = true, pcall = true,
  xpcall = true, select = true, tonumber = true, tostring = true, type = true, rawequal = true, rawget = true,
  rawlen = true }
local SAFE_OS = { clock = true, time = true, date = true, difftime = true, getenv = true }

local deny = {}
local function deny_fields(t, label, keep)
  for key, value in pairs(t) do
    if type(value) == "function" and not (keep and keep[key]) then deny[value] = label .. "." .. tostring(key) end
  end
end

for key, value in pairs(_G) do
  if type(value) == "function" and not SAFE_GLOBALS[key] then deny[value] = key end
end
deny_fields(os, "os", SAFE_OS)
deny_fields(io, "io", { type = true })
deny_fields(debug, "debug", { traceback = true })
deny_fields(package, "package")
for i, searcher in ipairs(package.searchers) do deny[searcher] = "package.searchers[" .. i .. "]" end
deny[string.dump] = "string.dump"
deny_fields(debug.getmetatable(io.stdout).__index, "file") -- the standard files' methods
deny[io.stdout.write] = "file:write"

-- boardscript's functions that load a rule set or policy by path (the
-- restricted views wrap them) and every function of a module a
-- restricted file may not require
local rules_mod = require "boardscript.rules"
local players = require "boardscript.players"
local game_mod = require "boardscript.game"
local api = require "boardscript"
local core = require "boardscript.core"
deny[rules_mod.load] = "rules.load (unwrapped)"
deny[players.load] = "players.load (unwrapped)"
deny[players.builtin_for] = "players.builtin_for (unwrapped)"
deny[players.plays] = "players.plays (unwrapped)"
deny[game_mod.new] = "game.new (unwrapped)"
deny[api.new_game] = "boardscript.new_game (unwrapped)"
deny[require("boardscript.rule_options").new_game] = "rule_options.new_game (unwrapped)"
deny[core.evaluator] = "core.evaluator (unwrapped: reads any path)"
-- ---- the allowed modules: every file under an allowed name ----

local lfs = require "lfs"
local root = assert(package.searchpath("boardscript.rules", package.path)):match("^(.*)/boardscript/rules/init%.lua$")

local function allowed_modules()
  local names = {}
  local function add(name)
    for _, prefix in ipairs(sandbox.ALLOWED) do
      if name == prefix or name:sub(1, #prefix + 1) == prefix .. "." then
        names[#names + 1] = name
        return
      end
    end
  end
  local function scan(dir, prefix)
    for entry in lfs.dir(dir) do
      local path = dir .. "/" .. entry
      if entry:sub(1, 1) ~= "." then
        if lfs.attributes(path, "mode") == "directory" then
          scan(path, prefix .. entry .. ".")
        elseif entry == "init.lua" then
          add(prefix:sub(1, -2))
        elseif entry:match("%.lua$") then
          add(prefix .. entry:sub(1, -5))
        end
      end
    end
  end
  scan(root .. "/boardscript", "boardscript.")
  add("boardscript.core")
  table.sort(names)
  return names
end

-- (a function an allowed module holds too, such as errors.fail, which
-- boardscript.play passes on, is not denied for being in both)
local in_allowed = {}
for _, name in ipairs(allowed_modules()) do
  local module = require(name)
  if type(module) == "table" then
    for _, value in pairs(module) do in_allowed[value] = true end
  end
end
for _, name in ipairs { "boardscript.sandbox", "boardscript.sandbox.freeze", "boardscript.sandbox.paths",
  "boardscript.sandbox.views", "boardscript.limits",
  "boardscript.output", "boardscript.workers", "boardscript.record", "boardscript.console", "boardscript.play",
  "boardscript.hooks", "boardscript.evalfile", "boardscript.described_eval", "boardscript.testing",
  "boardscript.bounded" } do
  for key, value in pairs(require(name)) do
    if type(value) == "function" and not in_allowed[value] then deny[value] = name .. "." .. tostring(key) end
  end
end

-- ---- the walk ----

-- Every table and function a restricted file at `path` reaches, by a
-- path written as Lua would reach it: { [value] = path }, plus the
-- environment.
local function reach(path)

  local env = sandbox.env(path)
  local found, order = {}, {}
  local function walk(value, where)
    local kind = type(value)
    if (kind ~= "table" and kind ~= "function") or found[value] then return end
    found[value] = where
    order[#order + 1] = value
    if kind == "function" then return end
    for key, field in pairs(value) do
      walk(key, where .. "[key " .. tostring(key) .. "]")
      walk(field, type(key) == "string" and (where .. "." .. key) or (where .. "[" .. tostring(key) .. "]"))
    end
    walk(env.getmetatable(value), "getmetatable(" .. where .. ")")
    -- what pairs and ipairs hand out besides the fields (their iterator and state)
    for _, iterate in ipairs { "pairs", "ipairs" } do
      local f, state, control = env[iterate](value)
      walk(f, iterate .. "(" .. where .. ")")
      walk(state, "the state of " .. iterate .. "(" .. where .. ")")
      walk(control, "the control of " .. iterate .. "(" .. where .. ")")
    end
    -- fields a table inherits under a metamethod's name (`g.__index` once
    -- reached the methods of every game)
    for _, key in ipairs { "__index", "__newindex", "__call", "__tostring", "__name", "__metatable", "__gc" } do
      local ok, inherited = pcall(function() return value[key] end)
      if ok then walk(inherited, where .. "." .. key) end
    end
  end
  walk(env, "_ENV")
  -- a string's methods (its metatable is out of reach: getmetatable gives nil)
  local methods = {}
  for key in pairs(string) do methods[key] = ("")[key] end
  walk(methods, "a string's methods")
  for _, name in ipairs(allowed_modules()) do
    walk(env.require(name), ("require %q"):format(name))
  end
  walk(env.require("boardscript"), 'require "boardscript"')
  -- what a few constructors give
  local bs = env.require("boardscript")
  walk(bs.new_game("reversi"), 'new_game("reversi")')
  walk(bs.new_game("dots"), 'new_game("dots")')
  for _, ai in ipairs { "alphabeta", "mcts", "minimax", "dots_search" } do
    walk(env.require("boardscript.ai." .. ai).new({}), ("boardscript.ai.%s.new{}"):format(ai))
  end
  walk(env.require("boardscript.players").load("greedy"), 'players.load("greedy")')
  walk(select(2, pcall(env.require("boardscript.rules").load, "no such rule set")), "an error object")
  return found, order, env
end

describe("what a restricted file reaches", function()
  local dir, done
  setup(function() dir, done = support.scratch_dir() end)
  teardown(function() done() end)

  it("holds no function of the deny list (compared by identity)", function()
    local found, order = reach(dir .. "/a.lua")
    assert.is_true(#order > 300, "the walk reached " .. #order .. " values")
    local bad = {}
    for _, value in ipairs(order) do
      if deny[value] then bad[#bad + 1] = ("%s is %s"):format(found[value], deny[value]) end
    end
    assert.same({}, bad)
  end)

  it("can change no library table: what two files both reach is read-only", function()
    local found_a, order_a, env = reach(dir .. "/a.lua")
    local found_b = reach(dir .. "/sub/b.lua")
    local shared, bad = 0, {}
    for _, t in ipairs(order_a) do
      if type(t) == "table" and found_b[t] then
        shared = shared + 1
        local key = {}
        local assigned = pcall(function() t[key] = true end)
        local raw = pcall(env.rawset, t, key, true)
        local meta = pcall(env.setmetatable, t, nil)
        if assigned or raw or meta or rawget(t, key) ~= nil then
          bad[#bad + 1] = ("%s (%s)"):format(found_a[t], assigned and "assignment" or raw and "rawset"
            or meta and "setmetatable" or "changed")
          if assigned or raw then rawset(t, key, nil) end
        end
      end
    end
    assert.same({}, bad)
    assert.is_true(shared > 100, "the walk reached " .. shared .. " shared tables")
  end)

  it("finds a module added later frozen as soon as it is loaded (an allow-list, safe by default)", function()
    local env = sandbox.env(dir .. "/a.lua")
    package.preload["boardscript.view.zz_probe"] = function() return { data = { 1 }, f = function() end } end
    local probe = env.require("boardscript.view.zz_probe")
    assert.is_false(pcall(function() probe.data[2] = 2 end))
    assert.is_false(pcall(function() probe.f = print end))
    assert.is_false(pcall(env.rawset, probe.data, 2, 2))
    assert.equal(1, #probe.data)
    assert.equal(probe, require("boardscript.view.zz_probe"))
    package.loaded["boardscript.view.zz_probe"], package.preload["boardscript.view.zz_probe"] = nil, nil
  end)

  it("reaches no dump through a string", function()
    local chunk = assert(sandbox.loadfile(dir .. "/a.lua") or load("return ('').dump"))
    assert.is_nil(getmetatable("").__index.dump)
    local env = sandbox.env(dir .. "/a.lua")
    assert.is_nil(assert(load("return ('').dump", "x", "t", env))())
    assert.is_nil(env.string.dump)
    assert.is_function(chunk)
  end)
end)
