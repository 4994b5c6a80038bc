-- No lost work (issue 27 item 4): every file a command writes replaces the
-- old one only once written whole (a temporary file renamed over it), so
-- an interrupted or failing run leaves a good file as it was; data margins
-- the fitter cannot take are one error naming the file and line; a worker
-- of --jobs that stops on a rule set's error keeps its blame and status 2.
local support = require "support.host"
local output = require "boardscript.output"
local spit, slurp, q = support.spit, support.slurp, support.shell_quote

local GOOD = "a good file, kept byte for byte\n"

-- The names in `dir` (hidden ones too), sorted.
local function listing(dir)
  local p = assert(io.popen("ls -A " .. q(dir)))
  local names = {}
  for name in p:lines() do names[#names + 1] = name end
  p:close()
  table.sort(names)
  return names
end

local function temporaries(dir)
  local found = {}
  for _, name in ipairs(listing(dir)) do
    if name:match("^%..*%.tmp$") then found[#found + 1] = name end
  end
  return found
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

local function sleep(seconds) os.execute("sleep " .. seconds) end

-- Runs the host; a status and stderr, and stdout.
local function run(args, opts)
  local status, out, err = support.run(args, opts)
  return status, err, out
end

describe("files written whole", function()
  local dir, done
  before_each(function() dir, done = support.scratch_dir() end)
  after_each(function() done() end)

  it("train --shard killed with signal 9 while writing leaves the old data file byte for byte", function()
    local out = dir .. "/part.data"
    spit(out, GOOD)
    -- a shard far too long to finish: it is killed while it writes
    local pid_file = dir .. "/pid"
    assert(os.execute(("cd %s && { %s train --rules reversi --size 6 --games 100000 --seed 1 --shard 1/1 "
      .. "--out part.data >/dev/null 2>&1 & echo $! > pid; }"):format(q(dir), q(support.BIN))))
    local pid
    for _ = 1, 50 do
      pid = pid or (exists(pid_file) and slurp(pid_file):match("%d+"))
      -- the run has begun writing: a temporary file, or (without the fix)
      -- part.data itself
      if pid and (#temporaries(dir) > 0 or slurp(out) ~= GOOD) then break end
      sleep(0.2)
    end
    assert.truthy(pid, "the run started")
    assert.truthy(#temporaries(dir) > 0 or slurp(out) ~= GOOD, "the run began writing")
    sleep(0.5) -- some games written
    os.execute("kill -9 " .. pid)
    for _ = 1, 50 do
      if not os.execute("kill -0 " .. pid .. " 2>/dev/null") then break end
      sleep(0.1)
    end
    assert.equal(GOOD, slurp(out))
    -- what it wrote is in its temporary file, which a kill -9 leaves behind
    local left = temporaries(dir)
    assert.equal(1, #left)
    assert.matches("^%.part%.data%.%d+%-1%.tmp$", left[1])
    assert.matches("^boardscript%-train%-data 1\n", slurp(dir .. "/" .. left[1]))
  end)

  it("a finished shard replaces the old file whole and leaves no temporary file", function()
    local out = dir .. "/part.data"
    spit(out, GOOD)
    local status, err = run { "train", "--rules", "reversi", "--size", "6", "--games", "2", "--seed", "1",
                              "--shard", "1/1", "--out", out }
    assert.equal(0, status, err)
    assert.matches("^boardscript%-train%-data 1\n.*\nend 2 games %d+ positions\n$", slurp(out))
    assert.same({ "part.data" }, listing(dir))
  end)

  -- Each command writes through a new file renamed over the old one: a
  -- second name of the old file (a hard link) keeps the old bytes, where
  -- a write in place would have changed them.
  local WRITERS = {
    { what = "render -o", file = "board.svg", args = { "render", "reversi", "-o", "board.svg" } },
    { what = "convert", file = "game.ggf", args = { "convert", "game.rec", "game.ggf" } },
    { what = "play --record", file = "game.rec", args = { "play", "reversi", "--black", "random", "--white",
                                                           "random", "--seed", "4", "--record", "game.rec" } },
    { what = "match --records", file = "games/game-0001.record", args = { "match", "--a", "random", "--b", "random",
                                                                         "--games", "2", "--seed", "1",
                                                                         "--records", "games" } },
    { what = "train --out (an evaluation) and --chart", file = "eval.bse",
      args = { "train", "--rules", "reversi", "--size", "4", "--games", "4", "--rounds", "1", "--seed", "1",
               "--score-games", "0", "--out", "eval.bse", "--chart", "curve.svg" }, also = "curve.svg" },
    { what = "train --data --out", file = "fit.bse",
      args = { "train", "--rules", "reversi", "--size", "4", "--data", "part.data", "--score-games", "0",
               "--out", "fit.bse" } },
    { what = "test --update (a transcript's golden output)", file = "golden/t.out",
      args = { "test", "--update", "golden" } },
  }
  for _, case in ipairs(WRITERS) do
    it(case.what .. " writes a new file and renames it over the old one", function()
      -- inputs some cases read
      assert.equal(0, (run({ "play", "reversi", "--black", "random", "--white", "random", "--seed", "2",
                             "--record", "game.rec" }, { cwd = dir })))
      assert.equal(0, (run({ "train", "--rules", "reversi", "--size", "4", "--games", "3", "--seed", "1",
                             "--shard", "1/1", "--out", "part.data" }, { cwd = dir })))
      os.execute(("mkdir -p %s/games %s/golden"):format(q(dir), q(dir)))
      spit(dir .. "/golden/t.args", "perft reversi 1\n")
      spit(dir .. "/golden/t.in", "")
      for _, name in ipairs { case.file, case.also } do
        local path = dir .. "/" .. name
        spit(path, GOOD)
        assert(os.execute(("ln %s %s.link"):format(q(path), q(path))))
      end
      local status, err = run(case.args, { cwd = dir })
      assert.equal(0, status, err)
      for _, name in ipairs { case.file, case.also } do
        local path = dir .. "/" .. name
        assert.not_equal(GOOD, slurp(path))
        assert.equal(GOOD, slurp(path .. ".link"))
      end
      assert.same({}, temporaries(dir))
    end)
  end

  it("play stopped before its game begins leaves an old record as it was", function()
    spit(dir .. "/game.rec", GOOD)
    local status = run({ "play", "reversi", "--black", "nosuchpolicy", "--record", "game.rec" }, { cwd = dir })
    assert.equal(2, status)
    assert.equal(GOOD, slurp(dir .. "/game.rec"))
    assert.same({ "game.rec" }, listing(dir))
  end)

  -- Issue 32: `play reversi --black nosuchai --record x.rec` left x.rec
  -- empty; a match's --records directory was made before its players
  -- were checked. A usage error (a player, an option, a rule set) creates
  -- nothing: no file, no directory, no temporary file.
  local USAGE_ERRORS = {
    { "play", "reversi", "--black", "nosuchai", "--record", "x.rec" },
    { "play", "board", "--rules", "nosuch", "--record", "x.rec" },
    { "play", "board", "--rules", "reversi", "--opt", "nosuch=1", "--record", "x.rec" },
    { "play", "dots", "--computer", "nosuchai", "--record", "x.rec" },
    { "match", "--a", "nosuchai", "--b", "random", "--games", "2", "--records", "games" },
    { "match", "--a", "random", "--b", "random", "--rules", "nosuch", "--games", "2", "--records", "games/sub" },
    { "match", "--a", "random", "--b", "random", "--opt", "nosuch=1", "--games", "2", "--records", "games" },
    { "match", "--a", "random", "--b", "nosuchai", "--games", "2", "--jobs", "2", "--records", "games" },
    { "render", "nosuch", "-o", "board.svg" },
    { "render", "reversi", "--opt", "nosuch=1", "-o", "board.svg" },
    { "train", "--rules", "nosuch", "--games", "2", "--out", "e.bse", "--chart", "c.svg" },
    { "train", "--rules", "reversi", "--opt", "nosuch=1", "--games", "2", "--out", "e.bse", "--chart", "c.svg" },
    { "train", "--rules", "reversi", "--size", "4", "--games", "2", "--shard", "1/1", "--opt", "nosuch=1",
      "--out", "part.data" },
    { "convert", "nosuch.rec", "out.ggf" },
  }
  for _, args in ipairs(USAGE_ERRORS) do
    it(("a usage error leaves nothing behind: boardscript %s"):format(table.concat(args, " ")), function()
      local status, err = run(args, { cwd = dir })
      assert.equal(2, status, err)
      assert.same({}, listing(dir))
    end)
  end

  it("a file that cannot be created is named, status 2, and nothing is left", function()
    local status, err = run { "render", "reversi", "-o", dir .. "/no/such/dir/board.svg" }
    assert.equal(2, status)
    assert.equal(("boardscript: %s/no/such/dir/board.svg: No such file or directory\n"):format(dir), err)
    status, err = run { "render", "reversi", "-o", dir }
    assert.equal(2, status)
    assert.equal(("boardscript: %s: Is a directory\n"):format(dir), err)
    assert.same({}, listing(dir))
  end)

  it("a link is followed: the file it names is replaced, the link stays", function()
    spit(dir .. "/real.svg", GOOD)
    assert(os.execute(("ln -s real.svg %s/link.svg"):format(q(dir))))
    assert.equal(0, (run { "render", "reversi", "-o", dir .. "/link.svg" }))
    assert.matches("^<%?xml", slurp(dir .. "/real.svg"))
    assert.equal("real.svg\n", io.popen("readlink " .. q(dir .. "/link.svg")):read("a"))
  end)

  it("a replaced file keeps its permissions", function()
    spit(dir .. "/board.svg", GOOD)
    os.execute("chmod 600 " .. q(dir .. "/board.svg"))
    assert.equal(0, (run { "render", "reversi", "-o", dir .. "/board.svg" }))
    assert.equal("600\n", io.popen("stat -c %a " .. q(dir .. "/board.svg")):read("a"))
  end)

  -- in this process: the helper itself, with failures made on purpose
  local function failing_file(how)
    return {
      write = function() if how == "write" then return nil, "No space left on device" end return true end,
      flush = function() return true end,
      close = function() if how == "close" then return nil, "Input/output error" end return true end,
    }
  end

  for _, how in ipairs { "write", "close" } do
    it(("a %s that fails leaves the old file as it was and no temporary file, naming the file"):format(how),
      function()
        local path = dir .. "/out.txt"
        spit(path, GOOD)
        local ok, err = pcall(output.replace, path, function(writer)
          writer:write("the new beginning\n")
          local real = writer.file
          real:close()
          writer.file = failing_file(how)
          writer:write("and the rest\n")
        end)
        assert.is_false(ok)
        assert.equal(1, err.status)
        assert.equal(("cannot write %s: %s"):format(path, how == "write" and "No space left on device"
          or "Input/output error"), err.message)
        assert.equal(GOOD, slurp(path))
        assert.same({ "out.txt" }, listing(dir))
      end)
  end

  it("an error while the file is being made leaves the old file and is raised as it was", function()
    local path = dir .. "/out.txt"
    spit(path, GOOD)
    local ok, err = pcall(output.replace, path, function(writer)
      writer:write("half of it\n")
      error("interrupted", 0)
    end)
    assert.is_false(ok)
    assert.equal("interrupted", err)
    assert.equal(GOOD, slurp(path))
    assert.same({ "out.txt" }, listing(dir))
  end)

  it("a directory that vanishes before the rename fails naming the file", function()
    os.execute("mkdir " .. q(dir .. "/sub"))
    local path = dir .. "/sub/out.txt"
    local ok, err = pcall(output.replace, path, function(writer)
      writer:write("text\n")
      os.execute("rm -rf " .. q(dir .. "/sub"))
    end)
    assert.is_false(ok)
    assert.equal(1, err.status)
    assert.matches("^cannot write " .. dir:gsub("%p", "%%%0") .. "/sub/out.txt: No such file or directory$",
      err.message)
  end)
end)

describe("training data the fitter cannot take", function()
  local dir, done, good
  before_each(function()
    dir, done = support.scratch_dir()
    assert.equal(0, (run({ "train", "--rules", "reversi", "--size", "6", "--games", "3", "--seed", "1",
                           "--shard", "1/1", "--out", "good.data" }, { cwd = dir })))
    good = slurp(dir .. "/good.data")
  end)
  after_each(function() done() end)

  -- good.data with its first position's line changed by `edit`: the file
  -- and that line's number
  local function with_position(edit)
    local lines, number = {}, nil
    for line in good:gmatch("([^\n]*)\n") do
      if not number and line:match("^[.xo#]+ %S+$") then
        number = #lines + 1
        line = edit(line)
      end
      lines[#lines + 1] = line
    end
    local path = dir .. "/bad.data"
    spit(path, table.concat(lines, "\n") .. "\n")
    return path, number
  end

  local function refused(path, pattern)
    local status, err = run { "train", "--rules", "reversi", "--size", "6", "--data", path, "--score-games", "0",
                              "--out", dir .. "/x.bse" }
    assert.equal(2, status, err)
    assert.matches(pattern, err)
    assert.not_matches("traceback", err)
    assert.equal(1, select(2, err:gsub("\n", "")), err) -- one line
  end

  for _, margin in ipairs { "1e6", "1000000", "10001", "-10000.5", "nan", "inf", "-inf", "0x10", "1e400" } do
    it(("a margin of %s is one error naming the file and line"):format(margin), function()
      local path, number = with_position(function(line) return line:gsub("%S+$", margin) end)
      refused(path, ("^boardscript: %s:%d: the margin '%s' is not a number from %%-10000 to 10000 %%(what the fitter "
        .. "takes%%)\n$"):format(path:gsub("%p", "%%%0"), number, margin:gsub("%p", "%%%0")))
    end)
  end

  it("takes margins up to the fitter's range", function()
    local path = with_position(function(line) return line:gsub("%S+$", "-10000") end)
    local status, err = run { "train", "--rules", "reversi", "--size", "6", "--data", path, "--score-games", "0",
                              "--out", dir .. "/x.bse" }
    assert.equal(0, status, err)
  end)

  it("a position with too many or too few fields, and a huge game number, are refused naming the line", function()
    local path, number = with_position(function(line) return line .. " 3" end)
    refused(path, (":%d: expected a position: 36 cells"):format(number))
    path, number = with_position(function(line) return line:match("^(%S+)") end)
    refused(path, (":%d: expected a position: 36 cells"):format(number))
    spit(dir .. "/bad.data", (good:gsub("\ngame 1 train\n", "\ngame 99999999999999999999999 train\n")))
    refused(dir .. "/bad.data", ":%d+: expected 'game N train|holdout' or the end line")
    spit(dir .. "/bad.data", (good:gsub("\nsize 6\n", "\nsize 1e300\n")))
    refused(dir .. "/bad.data", "bad.data:3: size must be a whole number from 1 to 26\n$")
  end)

  it("a rule set whose final margin is beyond the fitter's range is blamed, with and without --jobs", function()
    spit(dir .. "/huge.lua", [[
local base = require "boardscript.rules.reversi"
local r = setmetatable({ name = "huge" }, { __index = base })
function r.score(self, state)
  local a, b = base.score(self, state)
  return a * 1e6, b * 1e6
end
return r
]])
    local expected = "boardscript: rules ./huge.lua: hook 'score' gave game 1 a final margin of "
    for _, extra in ipairs { { "--out", "x.bse" }, { "--out", "x.bse", "--jobs", "2" },
                             { "--out", "huge.data", "--shard", "1/1" } } do
      local args = { "train", "--rules", "./huge.lua", "--size", "6", "--games", "2", "--seed", "1",
                     "--score-games", "0" }
      table.move(extra, 1, #extra, #args + 1, args)
      local status, err = run(args, { cwd = dir })
      assert.equal(2, status, err)
      assert.equal(expected, err:sub(1, #expected))
      assert.matches("outside what train can fit %(%-10000 to 10000%)\n$", err)
    end
    assert.falsy(exists(dir .. "/huge.data"))
  end)
end)

describe("workers that stop on a user error", function()
  local dir, done
  before_each(function()
    dir, done = support.scratch_dir()
    spit(dir .. "/broken.lua", [[
local base = require "boardscript.rules.reversi"
local r = setmetatable({ name = "broken" }, { __index = base })
function r.moves(self, state)
  if state.board:count("empty") < 20 then error("the moves hook broke") end
  return base.moves(self, state)
end
return r
]])
  end)
  after_each(function() done() end)

  local COMMANDS = {
    train = { "train", "--rules", "./broken.lua", "--size", "6", "--games", "4", "--seed", "1", "--score-games", "0",
              "--out", "x.bse" },
    match = { "match", "--rules", "./broken.lua", "--size", "6", "--a", "random", "--b", "random", "--games", "4",
              "--seed", "1" },
  }
  for name, args in pairs(COMMANDS) do
    it(name .. " --jobs 2 says the rule set's error, status 2, as --jobs 1 does", function()
      local one = table.move(args, 1, #args, 1, {})
      table.move({ "--jobs", "1" }, 1, 2, #one + 1, one)
      local two = table.move(args, 1, #args, 1, {})
      table.move({ "--jobs", "2" }, 1, 2, #two + 1, two)
      local status1, err1 = run(one, { cwd = dir })
      local status2, err2 = run(two, { cwd = dir })
      assert.equal(2, status1, err1)
      assert.equal("boardscript: ./broken.lua:4: the moves hook broke\n", err1)
      assert.equal(2, status2, err2)
      assert.equal(err1, err2)
    end)
  end

  it("a worker's user error comes back to its command as the worker's own (soak and solve use the same)",
    function()
      local workers = require "boardscript.workers"
      local _, alone = run { "perft", "./nosuch.lua", "1" }
      local w = workers.start { support.BIN, "perft", "./nosuch.lua", "1" }
      w.pipe:read("a")
      assert.equal("exit status 2", workers.finish(w))
      local ok, err = pcall(workers.rethrow, w)
      assert.is_false(ok)
      assert.equal(2, err.status)
      assert.equal(alone, "boardscript: " .. err.message .. "\n")
      assert.falsy(exists(w.report))
    end)

  it("a worker that ends well or is killed reports nothing to raise", function()
    local workers = require "boardscript.workers"
    local w = workers.start { support.BIN, "perft", "reversi", "1" }
    w.pipe:read("a")
    assert.is_nil(workers.finish(w))
    assert.is_nil(w.error)
    workers.rethrow(w)
  end)
end)
