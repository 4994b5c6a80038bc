-- What user code may do (boardscript.sandbox, guide "What user code may
-- do"): rule set and policy files, and the rule files records name, run
-- restricted unless --trust; binary chunks are never loaded.
local sandbox = require "boardscript.sandbox"
local support = require "support.host"
local spit, slurp = support.spit, support.slurp

-- Each hostile line, run at the top of a file loaded through the sandbox,
-- must raise an error whose message contains `refused`; with full rights
-- it must not raise (`trusted_ok`), unless it cannot run here at all.
local HOSTILE = {
  { code = [[os.execute("touch " .. DIR .. "/pwned")]], refused = "os.execute is not allowed", pwn = true },
  { code = [[io.popen("touch " .. DIR .. "/pwned"):close()]], refused = "io.popen is not allowed", pwn = true },
  { code = [[io.open(DIR .. "/pwned", "w"):close()]], refused = 'io.open with mode "w"', pwn = true },
  { code = [[io.open("pwned", "w"):close()]], refused = 'io.open with mode "w" (writing files) is not allowed',
    no_trusted = true },
  { code = [[io.open("pwned", "a+"):close()]], refused = 'io.open with mode "a+"', no_trusted = true },
  { code = [[os.remove(DIR .. "/victim")]], refused = "os.remove is not allowed" },
  { code = [[os.rename(DIR .. "/victim", DIR .. "/moved")]], refused = "os.rename is not allowed" },
  { code = [[os.exit(0)]], refused = "os.exit is not allowed", no_trusted = true },
  { code = [[os.tmpname()]], refused = "os.tmpname is not allowed" },
  { code = [[os.setlocale("C")]], refused = "os.setlocale is not allowed" },
  { code = [[io.read("l")]], refused = "io.read is not allowed", no_trusted = true },
  { code = [[io.lines()]], refused = "io.lines() (standard input) is not allowed", no_trusted = true },
  { code = [[io.output(DIR .. "/pwned")]], refused = "io.output is not allowed", no_trusted = true },
  { code = [[collectgarbage("stop")]], refused = 'collectgarbage("stop") is not allowed', no_trusted = true },
  { code = [[collectgarbage("incremental", 1000)]], refused = 'collectgarbage("incremental") is not allowed',
    no_trusted = true },
  { code = [[assert(load(string.dump(function() end)))]], refused = "attempt to call a nil value (field 'dump')" },
  { code = [[assert(load("\27Lua", "x", "b"))]], refused = 'load with mode "b" (binary chunks) is not allowed' },
  { code = [[assert(load("\27Lua", "x", "bt"))]], refused = 'load with mode "bt"' },
  { code = [[assert(load("\27Lua"))]], refused = "attempt to load a binary chunk" },
  { code = [[debug.getinfo(1)]], refused = "attempt to call a nil value (field 'getinfo')" },
  { code = [[debug.sethook(print, "l")]], refused = "attempt to call a nil value (field 'sethook')",
    no_trusted = true },
  { code = [[debug.getregistry()]], refused = "attempt to call a nil value (field 'getregistry')" },
  { code = [[getmetatable("").__index.rep = nil]], refused = "attempt to index a nil value", no_trusted = true },
  { code = [[getmetatable(require("boardscript.core").board(8)).__index = nil]],
    refused = "attempt to index a nil value", no_trusted = true },
  { code = [[require("boardscript.host")]], refused = 'require "boardscript.host" is not allowed' },
  { code = [[require("boardscript.limits").configure()]], refused = 'require "boardscript.limits" is not allowed' },
  { code = [[require("boardscript.play")]], refused = 'require "boardscript.play" is not allowed' },
  { code = [[require("boardscript.testing")]], refused = 'require "boardscript.testing" is not allowed' },
  { code = [[require("boardscript.commands.run")]], refused = 'require "boardscript.commands.run" is not allowed' },
  { code = [[require("boardscript.sandbox").trust(true)]], refused = 'require "boardscript.sandbox" is not allowed' },
  { code = [[require("boardscript.output").write_file(DIR .. "/pwned", "x")]],
    refused = 'require "boardscript.output" is not allowed', pwn = true },
  { code = [[require("boardscript.workers").start({ "touch", DIR .. "/pwned" })]],
    refused = 'require "boardscript.workers" is not allowed' },
  { code = [[require("boardscript.record").load("/etc/passwd")]],
    refused = 'require "boardscript.record" is not allowed' },
  { code = [[require("boardscript.formats.ggf")]], refused = 'require "boardscript.formats.ggf" is not allowed' },
  { code = [[require("boardscript.bounded")]], refused = 'require "boardscript.bounded" is not allowed' },
  { code = [[require("boardscript.hooks")]], refused = 'require "boardscript.hooks" is not allowed' },
  { code = [[require("boardscript.game").max_plies = 1e9]],
    refused = "boardscript.game.max_plies cannot be changed", no_trusted = true },
  { code = [[require("boardscript").game.max_plies = 1e9]],
    refused = "boardscript.game.max_plies cannot be changed", no_trusted = true },
  { code = [[require("boardscript.rules").load = print]],
    refused = "boardscript.rules.load cannot be changed", no_trusted = true },
  { code = [[require("boardscript.core").board = nil]],
    refused = "boardscript.core.board cannot be changed", no_trusted = true },
  { code = [[setmetatable(require("boardscript.rules"), {})]],
    refused = "setmetatable: boardscript.rules is one of boardscript's tables, read-only", no_trusted = true },
  { code = [[require("io")]], refused = "module 'io' not found next to" },
  { code = [[require("os")]], refused = "module 'os' not found next to" },
  { code = [[require("debug")]], refused = "module 'debug' not found next to" },
  { code = [[assert(io.open("/etc/passwd"))]], refused = "reading is allowed only for files in" },
  { code = [[assert(io.open("../outside.txt"))]], refused = "reading is allowed only for files in" },
  { code = [[assert(io.open("sub/../../outside.txt"))]], refused = "reading is allowed only for files in" },
  { code = [[dofile("/etc/hostname")]], refused = "reading is allowed only for files in" },
  { code = [[assert(_G.os.execute)("true")]], refused = "os.execute is not allowed" },
  { code = [[package.loaded.os.execute("true")]], refused = "attempt to index a nil value (field 'os')" },
  -- issue 27: the registry's tables are read-only all the way down, so it
  -- never calls the real require on a name a restricted file chose
  { code = [[require("boardscript.rules").BUILTIN.zz = "payload"]],
    refused = "boardscript.rules.BUILTIN.zz cannot be changed", no_trusted = true },
  { code = [[local r = require("boardscript.rules"); pcall(rawset, r.BUILTIN, "zz", "payload"); r.load("zz")]],
    refused = "unknown rule set 'zz'", no_trusted = true },
  { code = [[rawset(require("boardscript.rules").BUILTIN, "zz", "payload")]],
    refused = "rawset: boardscript.rules.BUILTIN is one of boardscript's tables, read-only", no_trusted = true },
  { code = [[require("boardscript").rules.BUILTIN.zz = "payload"]],
    refused = "boardscript.rules.BUILTIN.zz cannot be changed", no_trusted = true },
  { code = [[require("boardscript.players").BUILTIN.zz = { module = "payload" }]],
    refused = "boardscript.players.BUILTIN.zz cannot be changed", no_trusted = true },
  { code = [[local p = require("boardscript.players"); pcall(rawset, p.BUILTIN, "zz", { module = "payload" })
    p.load("zz")]], refused = "unknown player 'zz'", no_trusted = true },
  { code = [[table.insert(require("boardscript.rules").HOOKS, "x")]],
    refused = "boardscript.rules.HOOKS.8 cannot be changed", no_trusted = true },
  -- built-in rule set modules are frozen for everyone (a policy rewrote reversi's hooks)
  { code = [[require("boardscript.rules.reversi").moves = function() return {} end]],
    refused = "boardscript.rules.reversi.moves cannot be changed", no_trusted = true },
  { code = [[rawset(require("boardscript.rules.reversi"), "moves", print)]],
    refused = "rawset: boardscript.rules.reversi is one of boardscript's tables", no_trusted = true },
  { code = [[require("boardscript.rules.reversi").sides[1] = "red"]],
    refused = "boardscript.families.board.sides.1 cannot be changed", no_trusted = true },
  { code = [[require("boardscript.rules.othello_strict").core_count.hooks.moves = print]],
    refused = "cannot be changed", no_trusted = true },
  { code = [[local _, hidden = pairs(require("boardscript.rules.reversi")); hidden.moves = print]],
    refused = "attempt to index a nil value (local 'hidden')", no_trusted = true },
  { code = [[require("boardscript.rules").variant(require("boardscript.rules.reversi"),
    require("boardscript.rules.othello"))]], refused = "cannot change a protected metatable", no_trusted = true },
  { code = [[require("boardscript.families.board").moves = print]],
    refused = "boardscript.families.board.moves cannot be changed", no_trusted = true },
  { code = [[local v = require("boardscript.rules").variant(require("boardscript.rules.reversi"), { name = "v" })
    getmetatable(v).__index.moves = print]], refused = "boardscript.rules.reversi.moves cannot be changed",
    no_trusted = true },
  { code = [[local v = require("boardscript.rules").variant(require("boardscript.rules.reversi"), { name = "v" })
    v.sides[2] = "red"]], refused = "boardscript.families.board.sides.2 cannot be changed", no_trusted = true },
  { code = [[setmetatable(require("boardscript.rules.reversi"), nil)]],
    refused = "setmetatable: boardscript.rules.reversi is one of boardscript's tables", no_trusted = true },
  { code = [[require("boardscript").new_game("reversi").rules.play = print]],
    refused = "boardscript.rules.reversi.play cannot be changed", no_trusted = true },
  { code = [[require("boardscript").new_game("reversi").__index.play = print]],
    refused = "attempt to index a nil value (field '__index')", no_trusted = true },
  -- a game's metatable is hidden (getmetatable gives false)
  { code = [[getmetatable(require("boardscript").new_game("reversi")).__index.play = print]],
    refused = "attempt to index a boolean value", no_trusted = true },
  { code = [[require("boardscript.ai.alphabeta").new({ depth = 1 }).__index.choose = print]],
    refused = "attempt to index a nil value (field '__index')", no_trusted = true },
  { code = [[require("boardscript.ai.mcts").new().choose = nil; require("boardscript.ai.mcts").choose = nil]],
    refused = "boardscript.ai.mcts.choose cannot be changed", no_trusted = true },
  -- the string metatable offers no dump
  { code = [[local dump = ("").dump; dump(print)]], refused = "attempt to call a nil value (local 'dump')",
    no_trusted = true },
  -- no loader but the sandbox's own: paths are the file's neighbours, read as io.open reads
  { code = [[require("boardscript.rules").load("/etc/x.lua")]], refused = "/etc/x.lua: reading is allowed only" },
  { code = [[require("boardscript.rules").load("../x.lua")]], refused = "../x.lua: reading is allowed only" },
  { code = [[require("boardscript.rules").load("linked.lua")]], refused = "linked.lua: reading is allowed only" },
  { code = [[require("boardscript.players").load("/tmp/p.lua:depth=1")]], refused = "reading is allowed only" },
  { code = [[require("boardscript.game").new("../x.lua")]], refused = "../x.lua: reading is allowed only" },
  { code = [[require("boardscript").new_game("/etc/x.lua")]], refused = "/etc/x.lua: reading is allowed only" },
  { code = [[require("boardscript.players").builtin_for("/etc/x.lua")]], refused = "reading is allowed only" },
  { code = [[require("boardscript.players").load("alphabeta:depth=1,eval=/etc/passwd")]],
    refused = "/etc/passwd: reading is allowed only" },
  { code = [[require("boardscript.ai.minimax").new({ eval = "passwd" })]],
    refused = "passwd: reading is allowed only" },
  { code = [[load("x = 1", "x", "t", require("boardscript.rules"))()]],
    refused = "load with an environment: boardscript.rules is one of boardscript's tables", no_trusted = true },
  { code = [[loadfile("helper.lua", "t", require("boardscript.game"))]],
    refused = "loadfile with an environment: boardscript.game is one of boardscript's tables", no_trusted = true },
  { code = [[package.path = "/etc/?.lua;/etc/?"; require("passwd")]], refused = "module 'passwd' not found next to" },
  -- reads follow no symbolic link out of the file's directory
  { code = [[assert(io.open("passwd"))]], refused = "passwd: reading is allowed only for files in" },
  { code = [[assert(io.open("root/etc/passwd"))]], refused = "reading is allowed only for files in" },
  { code = [[for l in io.lines("passwd") do end]], refused = "reading is allowed only for files in" },
  { code = [[dofile("linked.lua")]], refused = "reading is allowed only for files in" },
  { code = [[assert(loadfile("linked.lua"))]], refused = "reading is allowed only for files in" },
  { code = [[require("linked")]], refused = "module 'linked' not found next to" },
  { code = [[require("boardscript.core").evaluator("passwd")]], refused = "reading is allowed only for files in" },
  -- no finalizer: Lua runs them with hooks off, outside every budget
  { code = [[setmetatable({}, { __gc = function() while true do end end })]],
    refused = "setmetatable: a metatable with __gc is not allowed", no_trusted = true },
  { code = [[setmetatable({}, { __gc = false })]], refused = "a metatable with __gc is not allowed",
    no_trusted = true },
}

-- What a restricted file may still do: each line must run without error.
local ALLOWED = {
  [[assert(require("boardscript.rules").variant)]],
  [[assert(require("boardscript.core").board(8))]],
  [[assert(require("boardscript").new_game("reversi"))]],
  [[assert(require("boardscript").play == nil and require("boardscript").record == nil)]],
  [[local n = 0; for _ in pairs(require("boardscript.rules")) do n = n + 1 end; assert(n > 5)]],
  [[assert(require("boardscript.rules").variant(require("boardscript.rules.reversi"), { name = "x" }))]],
  [[assert(require("helper").answer == 42)]],
  [[assert(require("helper") == require("helper"))]],
  [[assert(io.open("book.txt")):close()]],
  [[assert(io.open("sub/deep.txt", "rb")):close()]],
  [[for line in io.lines("book.txt") do assert(line == "f5 d6") end]],
  [[assert(load("return 1 + 1")() == 2)]],
  [[assert(loadfile("helper.lua")().answer == 42)]],
  [[assert(type(debug.traceback()) == "string")]],
  [[assert(collectgarbage("count") > 0); collectgarbage(); collectgarbage("step")]],
  [[string.format = nil; assert(string.format == nil)]],
  [[assert(os.clock() >= 0 and os.time() > 0 and os.date("%Y"))]],
  [[local t = setmetatable({}, { __index = function() return 1 end }); assert(getmetatable(t) and t.x == 1)]],
  [[local m = {}; local t = setmetatable({}, m); getmetatable(t).__index = { x = 1 }; assert(t.x == 1)]],
  [[local m = setmetatable({}, {}); m.__gc = function() end]], -- set after: no finalizer in 5.4
  [[assert(("x"):rep(3) == "xxx" and ("%d"):format(1) == "1")]],
  [[local rules, reversi = require("boardscript.rules"), require("boardscript.rules.reversi")
    local v = rules.variant(reversi, { name = "v" })
    assert(getmetatable(v).__index == reversi and rules.load("reversi") == reversi)
    assert(rules.counted_in_core(v) and v.sides[1] == "black")
    function v:winner() return "draw" end]],
  [[assert(require("boardscript.rules").load("neighbour_rules.lua").name == "neighbour")]],
  [[assert(require("boardscript").new_game("sub/../neighbour_rules.lua"):moves()[1])]],
  [[assert(require("boardscript.players").load("neighbour_policy.lua").policy)]],
  [[local g = require("boardscript").new_game("reversi"); g.mine = 1; assert(g:play(g:moves()[1]))]],
  [[local x = {}; assert(load("y = 2", "y", "t", x)) (); assert(x.y == 2)]],
}

local function write_case(dir, code)
  local path = dir .. "/case.lua"
  spit(path, ("local DIR = %q\n%s\nreturn true\n"):format(dir, code))
  return path
end

describe("sandbox.loadfile", function()
  local dir, done
  before_each(function()
    dir, done = support.scratch_dir("sub")
    spit(dir .. "/helper.lua", "return { answer = 42 }\n")
    spit(dir .. "/book.txt", "f5 d6\n")
    spit(dir .. "/sub/deep.txt", "x\n")
    spit(dir .. "/victim", "keep me\n")
    spit(dir .. "/payload.lua", ("io.open(%q, 'w'):close()\nreturn {}\n"):format(dir .. "/pwned"))
    spit(dir .. "/neighbour_rules.lua", "return require('boardscript.rules').variant("
      .. "require('boardscript.rules.reversi'), { name = 'neighbour' })\n")
    spit(dir .. "/neighbour_policy.lua", "return function(g) return g:moves()[1] end\n")
    spit(dir .. "/outside.lua", "return {}\n")
    assert(os.execute(("ln -s /etc/passwd %q && ln -s / %q && ln -s %q %q"):format(dir .. "/passwd",
      dir .. "/root", dir .. "/payload.lua", dir .. "/linked.lua")))
  end)
  after_each(function()
    sandbox.trust(false)
    done()
  end)

  for i, case in ipairs(HOSTILE) do
    it(("refuses #%d: %s"):format(i, case.code), function()
      local path = write_case(dir, case.code)
      local chunk = assert(sandbox.loadfile(path))
      local ok, err = pcall(chunk)
      assert.is_false(ok)
      assert.truthy(tostring(err):find(case.refused, 1, true), tostring(err))
      assert.is_nil(io.open(dir .. "/pwned"))
      assert.equal("keep me\n", slurp(dir .. "/victim"))
      assert.equal("string", type(string.format("%d", 1)))
      assert.is_true(collectgarbage("isrunning"))
    end)
    if not case.no_trusted then
      it(("runs with full rights when trusted #%d"):format(i), function()
        sandbox.trust(true)
        local path = write_case(dir, case.code)
        local chunk = assert(sandbox.loadfile(path))
        local ok, err = pcall(chunk)
        if case.pwn then
          assert.is_true(ok, err)
          assert.truthy(io.open(dir .. "/pwned"))
        else
          -- trusted code may still fail (no such module), but never because of the sandbox
          assert.falsy(tostring(err):find("is not allowed", 1, true))
        end
      end)
    end
  end

  for i, code in ipairs(ALLOWED) do
    it(("allows #%d: %s"):format(i, code), function()
      local chunk = assert(sandbox.loadfile(write_case(dir, code)))
      local ok, err = pcall(chunk)
      assert.is_true(ok, err)
      assert.equal("function", type(string.format))
    end)
  end

  it("refuses a precompiled chunk, trusted or not, naming the file", function()
    local src = dir .. "/src.lua"
    spit(src, "return 1\n")
    local bin = dir .. "/bin.lua"
    spit(bin, string.dump(assert(loadfile(src))))
    for _, trust in ipairs { false, true } do
      sandbox.trust(trust)
      local chunk, err = sandbox.loadfile(bin)
      assert.is_nil(chunk)
      assert.equal(bin .. ": a precompiled (binary) chunk; only Lua source is loaded", err)
    end
  end)

  it("loads only a restricted file's neighbours on its behalf, even through a loader no view wraps", function()
    -- as if a module added later leaked the registry's own load
    local rules_mod = require "boardscript.rules"
    local path = write_case(dir, [[
local raw_load = ...
assert(raw_load("neighbour_rules.lua").name == "neighbour")
local ok, err = pcall(raw_load, "../outside.lua")
assert(not ok and tostring(err):find("reading is allowed only for files in", 1, true), tostring(err))
ok, err = pcall(raw_load, "linked.lua")
assert(not ok and tostring(err):find("reading is allowed only for files in", 1, true), tostring(err))
]])
    local chunk = assert(sandbox.loadfile(path))
    assert(chunk(rules_mod.load))
    -- boardscript's own loads (no restricted code on the stack) are as before
    assert.equal("neighbour", rules_mod.load(dir .. "/neighbour_rules.lua").name)
  end)

  it("cannot pass its own chunks off as boardscript's (chunk names are its own)", function()
    -- a chunk named after players.lua would make every later players.load
    -- look like a load on its behalf, relative to its directory
    local source = debug.getinfo(require("boardscript.players").load, "S").source
    local chunk = assert(sandbox.loadfile(write_case(dir, ("assert(load('return 1', %q))()"):format(source))))
    chunk()
    sandbox.trust(false)
    local players = require "boardscript.players"
    assert.truthy(players.load(dir .. "/neighbour_policy.lua").policy)
    local ok, err = pcall(players.load, "neighbour_policy.lua") -- relative to here, not to DIR
    assert.is_false(ok)
    assert.matches("cannot open neighbour_policy.lua", tostring(err.message or err))
  end)

  it("gives each file its own copies of the standard tables", function()
    local a = assert(sandbox.loadfile(write_case(dir, "string.rep = nil; table.insert = nil")))
    a()
    local b = assert(sandbox.loadfile(write_case(dir, "assert(string.rep and table.insert)")))
    b()
    assert.is_function(string.rep)
    assert.is_function(table.insert)
  end)
end)

-- Through the host: a policy file, a rule set file and the rule file a record
-- names, restricted by default and with full rights under --trust.
describe("user code through the host", function()
  local dir, done
  before_each(function() dir, done = support.scratch_dir() end)
  after_each(function() done() end)

  local function pwned() return io.open(dir .. "/pwned") ~= nil end

  it("a policy file cannot run a shell command; --trust lets it", function()
    spit(dir .. "/evil.lua", ("os.execute('touch %s/pwned')\nreturn function(g) return g:moves()[1] end\n")
      :format(dir))
    local status, _, err = support.run { "play", "reversi", "--black", dir .. "/evil.lua", "--white", "random",
      "--seed", "1" }
    assert.equal(2, status)
    assert.matches("evil%.lua:1: os%.execute is not allowed in .*evil%.lua %(restricted; %-%-trust gives full rights%)",
      err)
    assert.is_false(pwned())
    status = support.run { "play", "reversi", "--black", dir .. "/evil.lua", "--white", "random", "--seed", "1",
      "--trust" }
    assert.equal(0, status)
    assert.is_true(pwned())
  end)

  it("replay --check of a record never runs the shell command of the rule file it names", function()
    local variant = "return require('boardscript.rules').variant(require('boardscript.rules.reversi'), "
      .. "{ name = 'v' })\n"
    spit(dir .. "/variant.lua", variant)
    local status, _, err = support.run({ "play", "board", "--rules", "variant.lua", "--black", "random",
      "--white", "random", "--seed", "3", "--record", "game.txt" }, { cwd = dir })
    assert.equal(0, status, err)
    -- someone swaps the rule file for a hostile one
    spit(dir .. "/variant.lua", ("os.execute('touch %s/pwned')\n"):format(dir)
      .. variant)
    status, _, err = support.run({ "replay", "--check", "game.txt" }, { cwd = dir })
    assert.equal(2, status)
    assert.matches("os%.execute is not allowed", err)
    assert.is_false(pwned())
    status = support.run({ "replay", "--check", "game.txt", "--trust" }, { cwd = dir })
    assert.equal(0, status)
    assert.is_true(pwned())
  end)

  it("a forged precompiled rule set is refused, not run (it crashed the host with status 139)", function()
    -- a binary chunk whose constant index points far outside its table
    spit(dir .. "/forged.lua", "\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40\119\64"
      .. "\1\255\255\255\255\255\255\255\255\127\0\0\0\0\0\0\0\0")
    for _, argv in ipairs {
      { "perft", "forged.lua", "2" },
      { "play", "board", "--rules", "forged.lua", "--black", "random", "--white", "random" },
      { "play", "reversi", "--black", "forged.lua", "--white", "random" },
      { "play", "reversi", "--black", "forged.lua", "--white", "random", "--trust" },
    } do
      local status, out, err = support.run(argv, { cwd = dir })
      assert.equal(2, status, table.concat(argv, " ") .. ": " .. err)
      assert.matches("forged%.lua: a precompiled %(binary%) chunk; only Lua source is loaded\n$", err)
      assert.is_nil(out:find("traceback", 1, true))
    end
  end)

  it("run refuses a precompiled script (a forged one could crash Lua); source runs", function()
    spit(dir .. "/s.lua", "print('hello')\n")
    spit(dir .. "/s.luac", string.dump(assert(loadfile(dir .. "/s.lua"))))
    local status, out, err = support.run { "run", dir .. "/s.luac" }
    assert.equal(2, status)
    assert.equal("", out)
    assert.equal(("boardscript: %s/s.luac: a precompiled (binary) chunk; boardscript runs Lua source only\n")
      :format(dir), err)
    status, out = support.run { "run", dir .. "/s.lua" }
    assert.equal(0, status)
    assert.equal("hello\n", out)
  end)

  it("--trust is passed on to match workers", function()
    spit(dir .. "/p.lua", ("local f = io.open('%s/pwned', 'a'); f:close()\n"):format(dir)
      .. "return function(g) return g:moves()[1] end\n")
    local status, _, err = support.run { "match", "--a", dir .. "/p.lua", "--b", "random", "--games", "2",
      "--jobs", "2", "--trust" }
    assert.equal(0, status, err)
    assert.is_true(pwned())
  end)
end)
