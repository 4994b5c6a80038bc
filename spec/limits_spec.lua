-- Resource limits (--max-memory, --max-seconds): boardscript.limits in
-- process (the Lua count hook of a Lua that is not the host), and the
-- host's limiting allocator and hook through the binary, stopping the
-- runaway policies, rule set and scripts of spec/limits/.
local host = require "support.host"
local limits = require "boardscript.limits"

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local DIR = SOURCE .. "/spec/limits"

-- Runs the binary in spec/limits with a hang guard (a runaway that is not
-- stopped fails the test instead of hanging the suite, `seconds` at most,
-- 120 by default; timeout's status is 124): status, out, err.
local function bin(args, input, seconds)
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = host.shell_quote(a) end
  local base = os.tmpname()
  host.spit(base .. ".in", input or "")
  local ok, _, code = os.execute(("cd %s && timeout %d %s %s <%s >%s 2>%s"):format(host.shell_quote(DIR),
    seconds or 120,
    host.shell_quote(host.BIN), table.concat(quoted, " "), base .. ".in", base .. ".out", base .. ".err"))
  local out, err = host.slurp(base .. ".out"), host.slurp(base .. ".err")
  os.remove(base .. ".in"); os.remove(base .. ".out"); os.remove(base .. ".err"); os.remove(base)
  return ok and 0 or code, out, err
end

-- How many times `pattern` (plain text) occurs in `text`.
local function count(text, pattern)
  local n, from = 0, 1
  while true do
    local at = text:find(pattern, from, true)
    if not at then return n end
    n, from = n + 1, at + 1
  end
end

describe("limits in process (the Lua hook)", function()
  after_each(function() limits.configure(nil) end)

  it("calls as pcall does without budgets", function()
    assert.is_nil(limits.settings())
    assert.same({ true, 3, "x" }, { limits.call("f", function(a, b) return a + b, "x" end, 1, 2) })
    local ok, err = limits.call("f", error, "boom", 0)
    assert.is_false(ok)
    assert.equal("boom", err)
  end)

  it("stops a loop, a loop in a coroutine and a loop that catches its errors", function()
    limits.configure { seconds = 0.2 }
    local loops = {
      function() while true do end end,
      function()
        local co = coroutine.create(function() while true do end end)
        while true do pcall(coroutine.resume, co) end
      end,
      function() while true do pcall(function() while true do end end) end end,
    }
    for _, f in ipairs(loops) do
      local ok, err = limits.call("policy loop.lua", f)
      assert.is_false(ok)
      assert.equal("time", (limits.exceeded(err)))
      assert.equal("policy loop.lua exceeded --max-seconds 0.2 (processor time)", err.message)
    end
  end)

  it("stops a call that keeps what it allocates, and not one that makes garbage", function()
    limits.configure { memory = 4 }
    local kept = {}
    local ok, err = limits.call("policy grow.lua", function()
      while true do kept[#kept + 1] = { #kept } end
    end)
    kept = nil
    assert.is_false(ok)
    assert.equal("memory", (limits.exceeded(err)))
    assert.equal("policy grow.lua exceeded --max-memory 4 MiB", err.message)
    assert.same({ true, "done" }, { limits.call("policy garbage.lua", function()
      for i = 1, 200000 do local _ = { i, i, i } end
      return "done"
    end) })
  end)

  it("passes an ordinary error on as it is, and keeps results", function()
    limits.configure { seconds = 5, memory = 64 }
    local ok, err = limits.call("p", error, "boom", 0)
    assert.is_false(ok)
    assert.equal("boom", err)
    assert.is_nil(limits.exceeded(err))
    assert.same({ true, 1, nil, 3 }, { limits.call("p", function() return 1, nil, 3 end) })
  end)

  it("runs a call made inside a window on that window's budget", function()
    limits.configure { seconds = 0.2 }
    local ok, err = limits.call("script outer.lua", function()
      local inner_ok, inner_err = limits.call("policy inner.lua", function() return "inner" end)
      assert(inner_ok and inner_err == "inner")
      limits.call("policy inner.lua", function() while true do end end)
      return "not reached"
    end)
    assert.is_false(ok)
    assert.equal("script outer.lua exceeded --max-seconds 0.2 (processor time)", err.message)
  end)

  it("puts the hooks of a rule set file on budget, blaming the rule set", function()
    limits.configure { seconds = 0.2 }
    local rules_mod = require "boardscript.rules"
    local game_mod = require "boardscript.game"
    local g = game_mod.new(DIR .. "/loop_rules.lua")
    local ok, err = pcall(function()
      while not g:finished() do g:play(g:moves()[1]) end
    end)
    assert.is_false(ok)
    assert.same({ "time", "rules" }, { limits.exceeded(err) })
    assert.matches("rules .*loop_rules%.lua %(hook 'finished'%) exceeded %-%-max%-seconds 0%.2", err.message)
    -- a built-in rule set keeps its own functions
    assert.equal(require("boardscript.rules.reversi").finished, rules_mod.load("reversi").finished)
  end)

  it("never replaces a library function, and stops a loop in a coroutine made before the budgets", function()
    local create, wrap, resume = coroutine.create, coroutine.wrap, coroutine.resume
    local early = coroutine.wrap(function() while true do end end)
    limits.configure { seconds = 0.2 }
    local seen
    local ok, err = limits.call("policy wrap.lua", function()
      seen = { coroutine.create, coroutine.wrap, coroutine.resume }
      early()
    end)
    assert.is_false(ok)
    assert.equal("time", (limits.exceeded(err)))
    assert.same({ create, wrap, resume }, seen)
    -- a coroutine of a coroutine
    ok, err = limits.call("policy nested.lua", function()
      local outer = coroutine.wrap(function()
        local inner = coroutine.create(function() while true do end end)
        return coroutine.resume(inner)
      end)
      return outer()
    end)
    assert.is_false(ok)
    assert.equal("time", (limits.exceeded(err)))
    limits.configure(nil)
    assert.same({ create, wrap, resume }, { coroutine.create, coroutine.wrap, coroutine.resume })
  end)
end)

describe("limits in process: nothing of the user's runs outside a window", function()
  local errors = require "boardscript.errors"
  after_each(function() limits.configure(nil) end)
  local function forever() while true do end end

  it("turns an error object into text inside the window, on its budget", function()
    limits.configure { seconds = 0.2 }
    local ok, err = limits.call("policy p.lua", function() error(setmetatable({}, { __tostring = forever })) end)
    assert.is_false(ok)
    assert.equal("time", (limits.exceeded(err)))
    local told = setmetatable({}, { __tostring = function() return "told" end })
    ok, err = limits.call("policy p.lua", function() error(told) end)
    assert.is_false(ok)
    assert.equal("told", err)
  end)

  it("copies a value as plain data with raw operations", function()
    local loopy = setmetatable({ 1, { 2, 3 } }, { __index = forever, __len = forever, __pairs = forever })
    local copy = limits.plain_value(loopy)
    assert.is_nil(getmetatable(copy))
    assert.same({ 1, { 2, 3 } }, copy)
  end)

  it("records blame only where boardscript finds it", function()
    local _, forged = pcall(errors.rules_fault, "rules x.lua", "moves", "forged")
    assert.is_nil(errors.culprit(forged))
    assert.is_nil(limits.exceeded(forged))
    forged.limit, forged.culprit = "time", "rules"
    assert.is_nil(limits.exceeded(forged))
    assert.is_nil(limits.culprit(forged))
    assert.is_false(getmetatable(forged)) -- user errors hide their metatable
    assert.is_true(errors.is_user(forged))
  end)
end)

describe("limits through the binary", function()
  local RUNAWAYS = {
    { "loop_policy.lua", "--max-seconds 0.3 (processor time)" },
    { "grow_policy.lua", "--max-memory 16 MiB" },
    { "huge_string_policy.lua", "--max-memory 16 MiB" },
    { "coroutine_policy.lua", "--max-seconds 0.3 (processor time)" },
    { "pcall_policy.lua", "--max-memory 16 MiB" },
    { "pcall_loop_policy.lua", "--max-seconds 0.3 (processor time)" },
  }

  for _, case in ipairs(RUNAWAYS) do
    local file, limit = case[1], case[2]
    it("forfeits every game of a match of " .. file .. ", and the match goes on", function()
      -- one budget at a time: how long filling 16 MiB takes depends on the build (ASan)
      local budget = limit:match("^%-%-max%-memory") and { "--max-memory", "16" } or { "--max-seconds", "0.3" }
      local status, out, err = bin { "match", "--a", "./" .. file, "--b", "random", "--games", "2", "--seed", "1",
                                     table.unpack(budget) }
      assert.equal(0, status)
      assert.equal(1, count(err, ("game 1: player './%s' (Black) exceeded %s; scored as a loss"):format(file, limit)))
      assert.equal(1, count(err, ("game 2: player './%s' (White) exceeded %s; scored as a loss"):format(file, limit)))
      assert.matches("Score of %./" .. file:gsub("%p", "%%%0") .. " vs random: 0 %- 2 %- 0", out)
      assert.matches("Forfeits: 2 games lost by a player's fault", out, 1, true)
    end)
  end

  it("forfeits the games a policy gets stuck in mid-game, in worker processes too", function()
    local status, out, err = bin { "match", "--a", "./late_loop_policy.lua", "--b", "greedy", "--games", "4",
                                   "--seed", "2", "--jobs", "2", "--max-seconds", "0.3" }
    assert.equal(0, status)
    assert.equal(4, count(err, "player './late_loop_policy.lua'"))
    assert.matches("Forfeits: 4 games", out, 1, true)
  end)

  it("stops a match when a rule set file runs away: nobody's forfeit", function()
    local status, out, err = bin { "match", "--rules", "./loop_rules.lua", "--a", "greedy", "--b", "random",
                                   "--games", "2", "--seed", "1", "--max-seconds", "0.3" }
    assert.equal(2, status)
    assert.equal("", out)
    assert.equal("boardscript: rules ./loop_rules.lua (hook 'finished') exceeded --max-seconds 0.3 "
      .. "(processor time)\n", err)
  end)

  it("plays byte for byte the same match under generous budgets as without", function()
    local cases = {
      { "--a", "greedy", "--b", "random" },
      { "--a", "alphabeta:depth=3", "--b", "minimax:depth=2" },
      { "--rules", SOURCE .. "/lua/examples/holes.lua", "--a", "mcts:playouts=50", "--b", SOURCE
        .. "/lua/examples/greedy.lua" },
    }
    for _, players in ipairs(cases) do
      local args = { "match", "--games", "4", "--seed", "9", "--verbose", table.unpack(players) }
      local s1, out1, err1 = bin(args)
      table.move({ "--max-memory", "256", "--max-seconds", "60" }, 1, 4, #args + 1, args)
      local s2, out2, err2 = bin(args)
      assert.equal(0, s1)
      assert.same({ s1, out1, err1 }, { s2, out2, err2 })
    end
  end)

  it("stops a runaway script with a message naming it", function()
    local status, out, err = bin { "run", "--max-seconds", "0.3", "./loop_script.lua" }
    assert.equal(2, status)
    assert.equal("started\n", out)
    assert.equal("boardscript: script ./loop_script.lua exceeded --max-seconds 0.3 (processor time)\n", err)
    status, out, err = bin { "run", "--max-memory=16", "./grow_script.lua" }
    assert.equal(2, status)
    assert.equal("started\n", out)
    assert.equal("boardscript: script ./grow_script.lua exceeded --max-memory 16 MiB\n", err)
  end)

  it("runs a script within its budget as without one, with its arguments", function()
    local s1, out1 = bin { "run", "./small_script.lua" }
    local s2, out2, err2 = bin { "run", "--max-memory", "64", "--max-seconds=30", "./small_script.lua", "x" }
    assert.equal(0, s1)
    assert.same({ 0, out1, "" }, { s2, out2, err2 })
  end)

  it("refuses budgets that are not positive numbers", function()
    for _, args in ipairs {
      { "run", "--max-memory", "x", "./small_script.lua" },
      { "run", "--max-seconds=0", "./small_script.lua" },
      { "match", "--a", "random", "--b", "random", "--max-seconds", "-1" },
      { "match", "--a", "random", "--b", "random", "--max-memory", "nan" },
    } do
      local status, _, err = bin(args)
      assert.equal(2, status)
      assert.matches("%-%-max%-%a+ must be a number greater than 0", err)
    end
  end)

  it("ends a game of play with a message naming the policy", function()
    local status, out, err = bin { "play", "reversi", "--black", "./late_loop_policy.lua", "--white", "random",
                                   "--seed", "2", "--max-seconds", "0.3" }
    assert.equal(2, status)
    assert.matches("BLACK:", out, 1, true)
    assert.matches("boardscript: player './late_loop_policy.lua' (Black) exceeded --max-seconds 0.3", err, 1, true)
  end)

  it("answers a protocol's error for a runaway move and keeps the session", function()
    local status, out, err = bin({ "nboard", "--policy", "./loop_policy.lua", "--max-seconds", "0.3", "--no-time" },
      "nboard 2\ngo\nping 1\nmove f5\nping 2\n")
    assert.equal(0, status)
    assert.equal("set myname boardscript-loop_policy\nstatus thinking\nstatus\npong 1\npong 2\n", out)
    assert.equal("boardscript: nboard: go: player './loop_policy.lua' (Black) exceeded --max-seconds 0.3 "
      .. "(processor time)\n", err)
    status, out = bin({ "gtp", "--policy", "./grow_policy.lua", "--max-memory", "8", "--seed", "1" },
      "1 genmove black\n2 play b f5\n3 final_score\n")
    assert.equal(0, status)
    assert.equal("?1 player './grow_policy.lua' (Black) exceeded --max-memory 8 MiB\n\n=2 \n\n=3 B+3\n\n", out)
  end)

  it("caps the C search of alphabeta by --max-seconds", function()
    -- depth 60 would search for ages; the budget's time limit makes it answer
    local status, out = bin({ "gtp", "--policy", "alphabeta:depth=60,endgame=0", "--max-seconds", "0.5" },
      "1 genmove black\n")
    assert.equal(0, status)
    assert.matches("^=1 [a-h][1-8]\n", out)
  end)
end)

describe("budgets that cannot be escaped", function()
  -- a regression hangs: the guard (timeout) ends it with status 124 in 30 s
  local function match(a, extra, games)
    local args = { "match", "--a", a, "--b", "random", "--games", games or "2", "--seed", "1", "--max-seconds", "0.5" }
    for _, word in ipairs(extra or {}) do args[#args + 1] = word end
    return bin(args, nil, 30)
  end

  it("turns an error object whose __tostring loops into text on the policy's budget", function()
    for _, file in ipairs { "tostring_error_policy.lua", "user_error_policy.lua" } do
      local status, out, err = match("./" .. file)
      assert.equal(0, status)
      assert.equal(1, count(err, ("game 1: player './%s' (Black) exceeded --max-seconds 0.5"):format(file)))
      assert.matches("Forfeits: 2 games lost by a player's fault", out, 1, true)
    end
    local status, _, err = match("./tostring_error_load_policy.lua")
    assert.equal(2, status)
    assert.equal("boardscript: player ./tostring_error_load_policy.lua exceeded --max-seconds 0.5 (processor time)\n",
      err)
  end)

  it("turns an error object whose __tostring loops into text on the rule set's budget", function()
    local status, out, err = bin({ "match", "--rules", "./tostring_error_rules.lua", "--a", "greedy", "--b", "random",
                                   "--games", "2", "--seed", "1", "--max-seconds", "0.5" }, nil, 30)
    assert.equal(2, status)
    assert.equal("", out)
    assert.equal("boardscript: rules ./tostring_error_rules.lua (hook 'finished') exceeded --max-seconds 0.5 "
      .. "(processor time)\n", err)
  end)

  it("reads a move whose metamethods loop as plain data, made on the policy's budget", function()
    local status, out, err = match("./loopy_move_policy.lua")
    assert.equal(0, status)
    assert.equal("", err)
    assert.matches("Score of ./loopy_move_policy.lua vs random: 0 - 2 - 0", out, 1, true)
  end)

  it("reads what a rule set's hooks return on the hook's budget", function()
    local status, out, err = bin({ "match", "--rules", "./loopy_moves_rules.lua", "--a", "greedy", "--b", "random",
                                   "--games", "2", "--seed", "1", "--max-seconds", "0.5" }, nil, 30)
    assert.equal(2, status)
    assert.equal("", out)
    assert.matches("^boardscript: rules ./loopy_moves_rules.lua %(hook '%a+'%) exceeded %-%-max%-seconds 0.5", err)
  end)

  it("reads a policy's table (new, games, options) on its budget, also after it changed it", function()
    local status, out, err = match("./loopy_index_policy.lua")
    assert.equal(2, status)
    assert.equal("", out)
    assert.equal("boardscript: policy ./loopy_index_policy.lua exceeded --max-seconds 0.5 (processor time)\n", err)
  end)

  it("refuses a rule set file whose tables hold code boardscript would run outside a budget", function()
    for _, budget in ipairs { { "--max-seconds", "0.5" }, {} } do
      local status, out, err = bin({ "match", "--rules", "./hidden_code_rules.lua", "--a", "random", "--b", "random",
                                     "--games", "1", "--seed", "1", table.unpack(budget) }, nil, 30)
      assert.equal(2, status)
      assert.equal("", out)
      assert.matches("^boardscript: rules ./hidden_code_rules.lua: field 'sides' has a metatable with __index "
        .. "%(a function%)", err)
    end
  end)

  it("runs a to-be-closed variable's __close on the policy's budget", function()
    local status, out, err = match("./close_policy.lua")
    assert.equal(0, status)
    assert.equal(2, count(err, "player './close_policy.lua'"))
    assert.matches("Forfeits: 2 games", out, 1, true)
  end)

  it("blames a policy for what it raises, whatever blame the error claims", function()
    local holes = SOURCE .. "/lua/examples/holes.lua"
    local status, out, err = match("./forge_blame_policy.lua", {}, "3")
    assert.equal(0, status)
    assert.equal(1, count(err, "game 1: rule set 'reversi': hook 'moves' forged; scored as a loss"))
    assert.equal(1, count(err, "game 2: rule set 'reversi': forged too; scored as a loss"))
    assert.equal(1, count(err, "game 3: rule set 'reversi' (hook 'finished') exceeded --max-seconds 1 (processor "
      .. "time); scored as a loss"))
    assert.matches("Forfeits: 3 games lost by a player's fault", out, 1, true)
    -- a rule set file: its own faults found while a policy explores stop the match (right_answers_spec);
    -- a forged one does not
    status, out, err = match("./forge_blame_policy.lua", { "--rules", holes }, "3")
    assert.equal(0, status)
    assert.equal(1, count(err, ("game 1: rules %s: hook 'moves' forged; scored as a loss"):format(holes)))
    assert.matches("Forfeits: 3 games lost by a player's fault", out, 1, true)
  end)

  it("forfeits a policy that changes the hooks of the rule set it plays, and puts them back", function()
    -- restricted, every write is refused (the modules are frozen): the games are played out as usual
    local status, out, err = match("./rewrite_rules_policy.lua", { "--verbose" })
    assert.equal(0, status)
    assert.equal(0, count(err, "changed the rule set it plays"))
    assert.matches("Finished game 2", out, 1, true)
    assert.is_nil(out:find("Forfeits:", 1, true))
    -- trusted, the writes go through: each is found after the move, put back, and a forfeit
    status, out, err = match("./rewrite_rules_policy.lua", { "--verbose", "--trust" })
    assert.equal(0, status)
    assert.equal(2, count(err, "changed the rule set it plays"))
    assert.matches("Forfeits: 2 games lost by a player's fault", out, 1, true)
  end)

  it("ends nboard's hint and analyze within --max-seconds", function()
    local status, out = bin({ "nboard", "--max-seconds", "1", "--no-time" },
      "nboard 2\nset depth 30\nhint 3\nanalyze\nping 1\n", 30)
    assert.equal(0, status)
    assert.matches("status thinking\nsearch ", out, 1, true)
    assert.matches("analysis 0 ", out, 1, true)
    assert.matches("pong 1\n$", out)
  end)

  it("refuses a FIFO or a device as an evaluation instead of blocking", function()
    local fifo = os.tmpname()
    os.remove(fifo)
    assert.is_true(os.execute("mkfifo " .. host.shell_quote(fifo)))
    for _, path in ipairs { fifo, "/dev/zero" } do
      local status, out = bin({ "gtp", "--policy", "alphabeta:eval=" .. path }, "1 genmove black\n", 30)
      assert.equal(0, status)
      assert.matches("^%?1 cannot load " .. path:gsub("%p", "%%%0") .. ": not a regular file", out)
    end
    os.remove(fifo)
  end)

  it("takes budgets in every command that runs a rule set file", function()
    for _, command in ipairs {
      { "perft", "./loop_rules.lua", "9" },
      { "render", "./loop_rules.lua", "--moves", "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7" },
    } do
      table.move({ "--max-seconds", "0.3" }, 1, 2, #command + 1, command)
      local status, _, err = bin(command, nil, 60)
      assert.equal(2, status, table.concat(command, " "))
      assert.matches("rules ./loop_rules.lua (hook 'finished') exceeded --max-seconds 0.3", err, 1, true)
    end
    for _, name in ipairs { "replay", "train", "soak" } do
      local _, out = bin { name, "--help" }
      assert.matches("--max-seconds", out, 1, true)
    end
  end)

  it("defaults a protocol session's budget: a policy that never answers fails the move", function()
    local status, out = bin({ "gtp", "--policy", "./tostring_error_policy.lua", "--max-seconds", "0.3" },
      "1 genmove black\n", 30)
    assert.equal(0, status)
    assert.matches("^%?1 player './tostring_error_policy.lua' %(Black%) exceeded", out)
    local _, help = bin { "gtp", "--help" }
    assert.matches("(default: 60)", help, 1, true)
  end)
end)
