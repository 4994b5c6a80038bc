-- No silent data loss (issue 18 item 3): every write is checked, a closed
-- standard output never turns a record into the dialogue, `convert X X`
-- refuses, and a worker of --jobs that dies fails the run, naming what is
-- missing, after printing what was finished; workers die with their parent.
local core = require "boardscript.core"
local support = require "support.host"
local spit, slurp, q = support.spit, support.slurp, support.shell_quote

-- Runs `boardscript ARGS` through the shell with `redirect` (e.g. ">/dev/full",
-- ">&-"); returns status, stderr.
local function shell(args, redirect, cwd)
  local words = {}
  for i, a in ipairs(args) do words[i] = q(a) end
  local err = os.tmpname()
  local _, _, code = os.execute(("%s%s %s </dev/null %s 2>%s"):format(cwd and ("cd " .. q(cwd) .. " && ") or "",
    q(support.BIN), table.concat(words, " "), redirect, err))
  local text = slurp(err)
  os.remove(err)
  return code, text
end

local GAME = { "play", "reversi", "--black", "random", "--white", "random", "--seed", "11" }

describe("checked writes", function()
  local dir, done
  before_each(function() dir, done = support.scratch_dir("records") end)
  after_each(function() done() end)

  -- commands whose standard output is their product: to a full disk, or
  -- closed, each fails with one line and status 1
  local PRODUCERS = {
    { "--version" },
    GAME,
    { "render", "reversi", "--moves", "f5 d6" },
    { "perft", "reversi", "3" },
    { "solve", "dots", "--size", "2x2" },
    { "match", "--a", "random", "--b", "greedy", "--games", "2", "--seed", "1" },
    { "rules", "reversi" },
    { "bench", "--quick", "--only", "perft6" },
  }
  for _, args in ipairs(PRODUCERS) do
    for _, case in ipairs {
      { redirect = ">/dev/full", why = "No space left on device" },
      { redirect = ">&-", why = "Bad file descriptor" },
    } do
      it(("boardscript %s %s fails with one line"):format(table.concat(args, " "), case.redirect), function()
        local status, err = shell(args, case.redirect)
        assert.equal(1, status, err)
        assert.equal("boardscript: cannot write standard output: " .. case.why .. "\n", err)
      end)
    end
  end

  it("a record to a full disk fails the game's command (status 1), naming the file", function()
    local args = table.move(GAME, 1, #GAME, 1, {})
    table.move({ "--record", "/dev/full" }, 1, 2, #args + 1, args)
    local status, out, err = support.run(args)
    assert.equal(1, status)
    assert.matches("White wins!\n$", out) -- the game itself was played and shown
    assert.equal("boardscript: cannot write /dev/full: No space left on device\n", err)
  end)

  it("with standard output closed, the record file gets the record, not the dialogue", function()
    local status, err = shell({ "play", "reversi", "--black", "random", "--white", "random", "--seed", "11",
      "--record", "game.rec" }, ">&-", dir)
    assert.equal(1, status)
    assert.equal("boardscript: cannot write standard output: Bad file descriptor\n", err)
    local text = slurp(dir .. "/game.rec")
    assert.matches("^boardscript record 1\n", text)
    assert.matches("\nresult ", text)
    -- and it replays
    assert.equal(0, (support.run({ "replay", "--check", "game.rec" }, { cwd = dir })))
  end)

  it("render -o onto a full disk fails with status 1", function()
    local status, _, err = support.run { "render", "reversi", "-o", "/dev/full" }
    assert.equal(1, status)
    assert.equal("boardscript: cannot write /dev/full: No space left on device\n", err)
  end)

  it("convert to a full disk fails; convert X X refuses and leaves X as it was", function()
    local rec = dir .. "/game.rec"
    local args = table.move(GAME, 1, #GAME, 1, {})
    table.move({ "--record", rec }, 1, 2, #args + 1, args)
    assert.equal(0, (support.run(args)))
    local before = slurp(rec)
    local status, _, err = support.run { "convert", rec, "/dev/full" }
    assert.equal(1, status)
    assert.equal("boardscript: cannot write /dev/full: No space left on device\n", err)
    status, _, err = support.run { "convert", rec, rec }
    assert.equal(2, status)
    assert.equal(("boardscript: convert: %s is the input file; write the conversion elsewhere\n"):format(rec), err)
    assert.equal(before, slurp(rec))
    -- the same file by another name
    status = support.run({ "convert", "game.rec", "./records/../game.rec", "--to", "record" }, { cwd = dir })
    assert.equal(2, status)
    assert.equal(before, slurp(rec))
    -- into a directory, where NAME.rec to a record is NAME.rec again
    status = support.run({ "convert", "game.rec", ".", "--to", "record" }, { cwd = dir })
    assert.equal(2, status)
    assert.equal(before, slurp(rec))
  end)

  it("match --records onto a full disk fails with status 1 (every record file written or the run fails)", function()
    os.execute("ln -s /dev/full " .. q(dir .. "/records/game-0002.record"))
    local status, _, err = support.run { "match", "--a", "random", "--b", "random", "--games", "4", "--seed", "1",
      "--records", dir .. "/records" }
    assert.equal(1, status)
    assert.matches("cannot write " .. dir:gsub("%p", "%%%0") .. "/records/game%-0002%.record: No space left on device",
      err)
  end)
end)

describe("workers of --jobs", function()
  local dir, done
  before_each(function() dir, done = support.scratch_dir() end)
  after_each(function()
    -- nothing of a failed case may keep running (or hold the test's output open)
    os.execute("env -u LD_PRELOAD pkill -KILL -f -- " .. q("[" .. dir:sub(1, 1) .. "]" .. dir:sub(2) .. "/mixed"))
    done()
  end)

  -- An OBF line after `plies` seeded random moves from the start.
  local function position(seed, plies)
    local b = core.board(8)
    b:set(4, 4, "white"); b:set(5, 5, "white"); b:set(4, 5, "black"); b:set(5, 4, "black")
    local rng, side = core.rng(seed), "black"
    local buffer = {}
    for _ = 1, plies do
      local n = b:move_list(side, "all", buffer)
      if n == 0 then
        side = side == "black" and "white" or "black"
        n = b:move_list(side, "all", buffer)
        if n == 0 then break end
      end
      b:play_index(side, buffer[rng:random(n)])
      side = side == "black" and "white" or "black"
    end
    local cells = {}
    for r = 1, 8 do
      for c = 1, 8 do
        local v = b:get(r, c)
        cells[#cells + 1] = v == "black" and "X" or v == "white" and "O" or "-"
      end
    end
    return table.concat(cells) .. (side == "black" and " X" or " O")
  end

  -- Odd positions quick (8 empties), even ones slow (34 empties): worker 1
  -- of 2 finishes, worker 2 is still busy when it is killed.
  local function write_obf()
    local lines = {}
    for i = 1, 6 do lines[i] = position(i, i % 2 == 1 and 52 or 26) end
    local path = dir .. "/mixed.obf"
    spit(path, table.concat(lines, "\n") .. "\n")
    return path
  end

  -- Starts `boardscript solve reversi --obf OBF --jobs 2` in the background.
  local function start_solve(obf)
    os.execute(("(%s solve reversi --obf %s --jobs 2 --time 30 >%s/out 2>%s/err; echo $? >%s/status) </dev/null &")
      :format(q(support.BIN), q(obf), q(dir), q(dir), q(dir)))
  end

  -- The processes whose command line holds `pattern` (its first character
  -- in brackets, so that the shell running pgrep does not match itself).
  local function pids(pattern)
    -- (not under the sanitizers' LD_PRELOAD: pgrep hangs with it)
    local p = io.popen("env -u LD_PRELOAD pgrep -f -- "
      .. q("[" .. pattern:sub(1, 1) .. "]" .. pattern:sub(2):gsub("%.", "[.]")))
    local text = p:read("a")
    p:close()
    local list = {}
    for pid in text:gmatch("%d+") do list[#list + 1] = pid end
    return list
  end

  local function wait_for(f, seconds)
    local deadline = os.time() + seconds
    while os.time() <= deadline do
      local v = f()
      if v then return v end
      os.execute("sleep 0.1")
    end
    return nil
  end

  it("solve: a worker killed leaves the finished positions printed, the missing ones named, status 1", function()
    local obf = write_obf()
    start_solve(obf)
    local worker = wait_for(function()
      local list = pids(obf .. " --time 30 --shard=2/2")
      return list[1]
    end, 10)
    assert.truthy(worker, "worker 2 never started")
    -- worker 1's quick positions are done before worker 2 is killed
    wait_for(function() return #pids(obf .. " --time 30 --shard=1/2") == 0 end, 20)
    os.execute("kill -9 " .. worker)
    local status = wait_for(function() local f = io.open(dir .. "/status") return f and f:read("n") end, 20)
    assert.equal(1, status)
    local out, err = slurp(dir .. "/out"), slurp(dir .. "/err")
    assert.matches("^#1 [A-H%d]+ [+-]%d+ nodes %d+, [%d.]+ s\n#3 [^\n]*\n#5 [^\n]*\ntotal: 3 positions", out)
    assert.equal("boardscript: solve: worker 2 (killed by signal 9) stopped; positions not solved: #2, #4, #6\n", err)
  end)

  it("killing solve leaves no worker running", function()
    local obf = write_obf()
    start_solve(obf)
    assert.truthy(wait_for(function() return pids(obf .. " --time 30 --shard=2/2")[1] end, 10))
    local parent = pids("solve reversi --obf " .. obf .. " --jobs 2 --time 30")
    assert.equal(1, #parent)
    os.execute("kill -9 " .. parent[1])
    assert.truthy(wait_for(function() return #pids(obf .. " --time 30 --shard") == 0 end, 5),
      "a worker outlived its parent")
  end)

  it("match: a worker that dies fails the run after the summary of the games played", function()
    -- the second worker to load the policy exits at its first move
    local lock = dir .. "/first"
    spit(dir .. "/p.lua", ([[
local lock = %q
local first = io.open(lock) == nil
if first then io.open(lock, "w"):close() end
return function(g)
  if not first then os.exit(7) end
  return g:moves()[1]
end
]]):format(lock))
    local status, out, err = support.run { "match", "--a", dir .. "/p.lua", "--b", "random", "--games", "6",
      "--jobs", "2", "--seed", "1", "--trust" }
    assert.equal(1, status)
    assert.matches("Score of ", out, 1, true)
    assert.matches("^boardscript: match: worker %d stopped %(exit status 7%) before game %d; games %d to 6 were not "
      .. "played or not counted\n$", err)
  end)
end)
