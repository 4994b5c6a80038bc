-- Worker processes without a shell (issue 28 items 2 and 6): host.spawn and
-- host.isatty, workers.run_shards (one ordered, fault-reporting fan-out),
-- the settings a command forwards to its workers, and no shell where a
-- library does the job.
local support = require "support.host"
local spit = support.spit

-- Runs `source` as a script in the host (`boardscript run`): status, stdout, stderr.
local function run_script(source)
  local path = os.tmpname()
  spit(path, source)
  local status, out, err = support.run { "run", path }
  os.remove(path)
  return status, out, err
end

describe("host.spawn", function()
  it("runs a program with its words as they are: no shell reads them", function()
    local status, out, err = run_script([[
      local host = require "boardscript.host"
      local pid, file = host.spawn({ "/bin/echo", "a;b", "$HOME", "'q'" }, { BS_SPEC = "x" })
      io.write(file:read("a"))
      file:close()
      print(host.waitpid(pid))
    ]])
    assert.equal("", err)
    assert.equal(0, status)
    assert.equal("a;b $HOME 'q'\nexited\t0\n", out)
  end)

  it("sets the environment names it is given, and the child holds no other descriptor of ours", function()
    local status, out = run_script([[
      local host = require "boardscript.host"
      local r, w = host.pipe() -- not passed on
      local pid, file = host.spawn({ "/bin/sh", "-c", 'echo "$BS_SPEC"; ls /proc/$$/fd' }, { BS_SPEC = "x y" })
      io.write(file:read("a"))
      file:close()
      host.waitpid(pid)
      host.close(r); host.close(w)
    ]])
    assert.equal(0, status)
    assert.equal("x y\n0\n1\n2\n", out)
  end)

  it("says when a program cannot be run: an error value naming it", function()
    local _, out = run_script([[
      print(require("boardscript.host").spawn({ "/nonexistent/program" }))
    ]])
    assert.equal("nil\texec /nonexistent/program: No such file or directory\t2\n", out)
  end)

  it("raises a Lua error naming the argument on nonsense", function()
    local _, out = run_script([[
      local host = require "boardscript.host"
      for _, call in ipairs {
        function() return host.spawn() end,
        function() return host.spawn({}) end,
        function() return host.spawn({ "/bin/echo", 3 }) end,
        function() return host.spawn({ "/bin/echo", "a\0b" }) end,
        function() return host.spawn({ "/bin/echo" }, { ["A=B"] = "x" }) end,
        function() return host.spawn({ "/bin/echo" }, { A = 1 }) end,
        function() return host.isatty(-1) end,
        function() return host.isatty("x") end,
      } do
        local ok, why = pcall(call)
        print(ok, (tostring(why):gsub("^.-bad argument", "bad argument"):gsub("to '[%w_.]-(%w+)'", "to '%1'")))
      end
      print(host.isatty(0))
    ]])
    assert.equal(table.concat({
      "false\tbad argument #1 to 'spawn' (table expected, got nil)",
      "false\tbad argument #1 to 'spawn' (a list of 1 to 4096 words expected)",
      "false\tbad argument #1 to 'spawn' (every word must be a string)",
      "false\tbad argument #1 to 'spawn' (a word holds a zero byte)",
      "false\tbad argument #2 to 'spawn' (a name is empty or holds '=')",
      "false\tbad argument #2 to 'spawn' (names and values must be strings)",
      "false\tbad argument #1 to 'isatty' (not a file descriptor)",
      "false\tbad argument #1 to 'isatty' (number expected, got string)",
      "false", -- standard input is a file here, not a terminal
    }, "\n") .. "\n", out)
  end)
end)

describe("workers.run_shards", function()
  -- Worker I of N (its last word --shard=I/N) prints the numbers I, I + N,
  -- ... up to 7, one a line; worker `bad` stops with status 3 after `after` lines.
  local function fan_script(jobs, bad, after)
    return ([[
      local workers = require "boardscript.workers"
      local sh = 'i=${1#--shard=}; n=${i#*/}; i=${i%%/*}; k=0; while [ $i -le 7 ]; do '
        .. 'if [ "${i}" = "%d" ] || [ $((i %% n)) = $((%d %% n)) ] && [ $k -ge %d ]; then exit 3; fi; '
        .. 'echo $i; i=$((i + n)); k=$((k + 1)); done'
      local got = {}
      workers.run_shards({ argv = { "/bin/sh", "-c", sh, "sh" }, jobs = %d, count = 7,
                           item = function(w, k) local line = w:line(); return line and tonumber(line) end },
        function(fan)
          for k, item, fault in fan.next, fan do
            got[#got + 1] = fault and ("%%d: worker %%d %%s"):format(k, fault.worker, fault.how) or tostring(item)
          end
        end)
      print(table.concat(got, ", "))
    ]]):format(bad, bad, after, jobs)
  end

  it("gives the items in order, item k from worker (k - 1) % jobs + 1", function()
    local status, out, err = run_script(fan_script(3, 0, 99))
    assert.equal("", err)
    assert.equal(0, status)
    assert.equal("1, 2, 3, 4, 5, 6, 7\n", out)
  end)

  it("names the worker that stopped and how, for each of its items, and goes on with the others", function()
    local status, out = run_script(fan_script(2, 2, 1))
    assert.equal(0, status)
    assert.equal("1, 2, 3, 4: worker 2 stopped (exit status 3), 5, 6: worker 2 stopped (exit status 3), 7\n", out)
  end)
end)

describe("settings forwarded to --jobs workers", function()
  it("--max-plies reaches match's workers: their error is the command's own, once", function()
    local args = { "match", "--a", "random", "--b", "greedy", "--games", "4", "--seed", "1", "--max-plies", "3" }
    local status1, out1, err1 = support.run(args)
    table.insert(args, "--jobs=2")
    local status2, out2, err2 = support.run(args)
    assert.equal(2, status1)
    assert.equal(status1, status2)
    assert.equal(out1, out2)
    assert.equal("boardscript: rule set 'reversi': hook 'finished' did not end the game after 3 plies (--max-plies 3; "
      .. "a game that never ends is the rule set's fault)\n", err1)
    assert.equal(err1, err2)
  end)

  it("settings.argv gives back what was applied", function()
    local _, out = run_script([[
      local settings = require "boardscript.settings"
      print(table.concat(settings.argv(), " "))
      settings.apply { trust = true, max_memory = 64, max_seconds = 2.5, max_plies = 90 }
      print(table.concat(settings.argv(), " "))
    ]])
    assert.equal("\n--trust --max-memory=64 --max-seconds=2.5 --max-plies=90\n", out)
  end)
end)

describe("no shell where a library does the job", function()
  -- Each os.execute / io.popen in lua/ runs a user's own command line or is
  -- the stock-Lua fallback, and says so in a comment just above it.
  it("every os.execute and io.popen under lua/ is a documented one", function()
    local root = assert(os.getenv("BOARDSCRIPT_SOURCE"), "BOARDSCRIPT_SOURCE is set by ctest")
    local lfs = require "lfs"
    local undocumented = {}
    local function scan(dir)
      for name in lfs.dir(dir) do
        local path = dir .. "/" .. name
        if name:sub(1, 1) ~= "." and lfs.attributes(path, "mode") == "directory" then
          scan(path)
        elseif name:match("%.lua$") then
          local lines = {}
          for line in io.lines(path) do lines[#lines + 1] = line end
          for n, line in ipairs(lines) do
            if line:find("os.execute(", 1, true) or line:find("io.popen(", 1, true) then
              local said = false
              for m = math.max(1, n - 4), n do
                local text = lines[m]:lower()
                if text:find("%-%-.*fallback") or text:find("%-%-.*user's") or text:find("%-%-.*shell runs") then
                  said = true
                end
              end
              if not said and not line:find("^%s*%-%-") then
                undocumented[#undocumented + 1] = ("%s:%d"):format(path:sub(#root + 2), n)
              end
            end
          end
        end
      end
    end
    scan(root .. "/lua")
    assert.same({}, undocumented)
  end)
end)
