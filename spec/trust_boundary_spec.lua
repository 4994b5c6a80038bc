-- A trust boundary by construction (issue 27, item 1), through the real
-- binary: each reproducer of the issue, as a hostile user ran it. A
-- restricted file cannot make boardscript load a file of its choosing with
-- full rights, change boardscript's own tables for the other player, nor
-- write into a protocol stream.
local support = require "support.host"
local spit = support.spit

describe("a restricted file through the host", function()
  local dir, done
  before_each(function()
    dir, done = support.scratch_dir()
    -- what a hostile file wants run with full rights, next to it
    spit(dir .. "/payload.lua", ("io.open(%q, 'w'):close()\nreturn {}\n"):format(dir .. "/pwned"))
  end)
  after_each(function() done() end)

  local function pwned() return io.open(dir .. "/pwned") ~= nil end

  it("cannot have the registry require a name it put in rules.BUILTIN (rules, perft, play, replay --check)", function()
    spit(dir .. "/zz.lua", [[
local rules = require "boardscript.rules"
pcall(function() rules.BUILTIN.zz = "payload" end)
pcall(rawset, rules.BUILTIN, "zz", "payload")
pcall(function() require("boardscript").rules.BUILTIN.zz = "payload" end)
pcall(rules.load, "zz")
return rules.variant(require "boardscript.rules.reversi", { name = "zz" })
]])
    local runs = {
      { "rules", "zz.lua" },
      { "perft", "zz.lua", "1" },
      { "play", "zz.lua", "--black", "random", "--white", "random", "--seed", "1", "--record", "game.txt" },
      { "replay", "--check", "game.txt" },
    }
    for _, argv in ipairs(runs) do
      local status, _, err = support.run(argv, { cwd = dir })
      assert.equal(0, status, table.concat(argv, " ") .. ": " .. err)
      assert.is_false(pwned(), table.concat(argv, " ") .. " ran payload.lua with full rights")
    end
  end)

  it("cannot require a boardscript module from the working directory (found beyond the issue)", function()
    -- an archive unpacked where the user runs boardscript: ./boardscript/ai/zzz.lua
    -- came after boardscript's own directory on package.path, and ran with full rights
    assert(os.execute(("mkdir -p %q"):format(dir .. "/boardscript/ai")))
    spit(dir .. "/boardscript/ai/zzz.lua", ("io.open(%q, 'w'):close()\nreturn {}\n"):format(dir .. "/pwned"))
    spit(dir .. "/evil.lua", [[
local ok, err = pcall(require, "boardscript.ai.zzz")
assert(not ok and err:find("module 'boardscript.ai.zzz' not found among boardscript's own modules", 1, true), err)
return function(g) return g:moves()[1] end
]])
    local status, _, err = support.run({ "play", "reversi", "--black", "evil.lua", "--white", "random", "--seed", "1" },
      { cwd = dir })
    assert.equal(0, status, err)
    assert.is_false(pwned())
  end)

  it("cannot have players.load require a module it put in players.BUILTIN", function()
    spit(dir .. "/p.lua", [[
local players = require "boardscript.players"
pcall(function() players.BUILTIN.zz = { module = "payload" } end)
pcall(rawset, players.BUILTIN, "zz", { module = "payload" })
pcall(players.load, "zz")
return function(g) return g:moves()[1] end
]])
    local status, _, err = support.run({ "play", "reversi", "--black", "p.lua", "--white", "random", "--seed", "1" },
      { cwd = dir })
    assert.equal(0, status, err)
    assert.is_false(pwned())
  end)

  it("cannot rewrite the built-in rule set its opponent plays (alphabeta forfeited every game)", function()
    local plain = "return function(g) return g:moves()[1] end\n"
    spit(dir .. "/plain.lua", plain)
    spit(dir .. "/forge.lua", [[
local function forge(t)
  pcall(function() t.moves = function() return {} end end)
  pcall(function() t.finished = function() return true end end)
  pcall(function() t.core_count = nil end)
  pcall(rawset, t, "moves", function() return {} end)
  local meta = getmetatable(t)
  if meta then pcall(function() meta.__index.moves = function() return {} end end) end
end
return function(g)
  forge(g.rules)
  forge(require "boardscript.rules.reversi")
  forge(require "boardscript.families.board")
  pcall(function() getmetatable(g).__index.play = function() return nil end end)
  pcall(function() g.opts.size = 4 end)
  return g:moves()[1]
end
]])
    local argv = { "match", "--a", "X", "--b", "alphabeta:depth=1,eval=hand", "--games", "2", "--seed", "1" }
    argv[3] = "plain.lua"
    local status, expected, err = support.run(argv, { cwd = dir })
    assert.equal(0, status, err)
    argv[3] = "forge.lua"
    local forged_status, out, forged_err = support.run(argv, { cwd = dir })
    assert.equal(0, forged_status, forged_err)
    assert.equal(expected:gsub("plain%.lua", "forge.lua"), out)
  end)

  it("prints to stderr under nboard and gtp, never into the protocol stream", function()
    spit(dir .. "/noisy.lua", [[
print("noise at load")
io.write("more noise\n")
return function(g)
  print("chatter")
  io.write("=== F5\n"):write("status hijacked\n")
  return g:moves()[1]
end
]])
    local status, out, err = support.run({ "nboard", "--policy", "noisy.lua", "--no-time" },
      { cwd = dir, input = "nboard 2\ngo\nping 1\n" })
    assert.equal(0, status, err)
    assert.is_nil(out:find("noise", 1, true), out)
    assert.is_nil(out:find("chatter", 1, true), out)
    assert.is_nil(out:find("hijacked", 1, true), out)
    assert.matches("\n=== %u%d\n", out)
    assert.matches("noise at load\nmore noise\n", err)
    assert.matches("chatter\n=== F5\nstatus hijacked\n", err)

    status, out, err = support.run({ "gtp", "--policy", "noisy.lua" },
      { cwd = dir, input = "boardsize 8\nclear_board\ngenmove b\n" })
    assert.equal(0, status, err)
    assert.is_nil(out:find("noise", 1, true), out)
    assert.is_nil(out:find("chatter", 1, true), out)
    assert.is_nil(out:find("hijacked", 1, true), out)
    assert.matches("\n= %l%d\n", out)
    assert.matches("chatter\n=== F5\nstatus hijacked\n", err)
  end)

  it("prints to stderr in a match worker, never into the lines its parent reads (match --jobs)", function()
    spit(dir .. "/noisy.lua", "print('noise {')\nreturn function(g) print('chatter') return g:moves()[1] end\n")
    spit(dir .. "/quiet.lua", "return function(g) return g:moves()[1] end\n")
    local argv = { "match", "--a", "quiet.lua", "--b", "random", "--games", "4", "--jobs", "2", "--seed", "1" }
    local status, expected, err = support.run(argv, { cwd = dir })
    assert.equal(0, status, err)
    argv[3] = "noisy.lua"
    local noisy_status, out, noisy_err = support.run(argv, { cwd = dir })
    assert.equal(0, noisy_status, noisy_err)
    -- (the match itself loads the policy once: its stdout is the user's)
    assert.equal("noise {\n" .. expected:gsub("quiet%.lua", "noisy.lua"), out)
    assert.matches("chatter", noisy_err)
    local _, lines = support.run({ "match", "--a", "noisy.lua", "--b", "random", "--games", "2", "--shard", "1/2" },
      { cwd = dir })
    assert.is_nil(lines:find("chatter", 1, true), lines)
  end)

  it("prints to standard output elsewhere (play)", function()
    spit(dir .. "/hello.lua", "print('hello from a policy')\nreturn function(g) return g:moves()[1] end\n")
    local status, out, err = support.run({ "play", "reversi", "--black", "hello.lua", "--white", "random",
      "--seed", "1" }, { cwd = dir })
    assert.equal(0, status, err)
    assert.matches("hello from a policy\n", out)
  end)
end)
