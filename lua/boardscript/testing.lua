--- The regression runner behind `boardscript test PATH... [--update]`, as a
-- library: Lua code may collect and run tests too. Three kinds of test,
-- found by name (formats: docs/guide.md, "Regression tests"; playthroughs and
-- scripts in boardscript.testing.playthrough and .script):
--
-- * golden transcripts, `NAME.in` with `NAME.args` (the argument list after
--   `boardscript`), `NAME.out`, and optionally `NAME.err` and `NAME.status`:
--   the host runs as a subprocess in the transcript's directory, stdin from
--   NAME.in, and its stdout, stderr and exit status must match;
-- * playthroughs, `NAME.playthrough`: a header naming a rule set, options,
--   a seed and an optional move cap, then the game played from the start
--   with moves drawn by the engine's seeded generator, position by
--   position. The body is regenerated from the header and compared;
-- * Lua test scripts, `NAME_test.lua`, each run by the host in a process of
--   its own, on a wall-clock time limit and a Lua heap budget: a script
--   passes when it returns without raising an error, without calling
--   os.exit and with the standard library as it found it.
local errors = require "boardscript.errors"

local testing = {}

--- Seconds (wall clock) a transcript or a test script may run before it is
-- stopped (when `timeout` exists); opts.timeout overrides it.
testing.TIMEOUT = 300

--- MiB the Lua heap of a test script's process may grow by while the script
-- runs; opts.max_memory overrides it.
testing.MAX_MEMORY = 1024

local shell_quote = require("boardscript.text").shell_quote
testing.shell_quote = shell_quote

local util = require "boardscript.testing.util"
local read_file, exists, is_dir, split_path, indent = util.read_file, util.exists, util.is_dir, util.split_path,
  util.indent
local number_text, timeout_prefix, diff, update_file = util.number_text, util.timeout_prefix, util.diff,
  util.update_file

--- Splits the text of a `.args` file into arguments: blanks separate them;
-- 'single quotes' keep everything up to the next single quote; in "double
-- quotes" a backslash escapes `"` and `\`. Returns the list, or nil and why.
function testing.split_args(text)
  local args, current, have = {}, {}, false
  local i, n = 1, #text
  while i <= n do
    local c = text:sub(i, i)
    if c:match("%s") then
      if have then args[#args + 1], current, have = table.concat(current), {}, false end
      i = i + 1
    elseif c == "'" then
      local close = text:find("'", i + 1, true)
      if not close then return nil, "unterminated single quote" end
      current[#current + 1], have, i = text:sub(i + 1, close - 1), true, close + 1
    elseif c == '"' then
      have, i = true, i + 1
      while true do
        if i > n then return nil, "unterminated double quote" end
        local d, e = text:sub(i, i), text:sub(i + 1, i + 1)
        if d == '"' then
          i = i + 1
          break
        elseif d == "\\" and (e == '"' or e == "\\") then
          current[#current + 1], i = e, i + 2
        else
          current[#current + 1], i = d, i + 1
        end
      end
    else
      current[#current + 1], have, i = c, true, i + 1
    end
  end
  if have then args[#args + 1] = table.concat(current) end
  return args
end

--- The boardscript host transcripts run: opts.exe, else
-- workers.executable() (an absolute path: transcripts run in their own
-- directory).
function testing.executable(opts)
  local exe = opts and opts.exe or require("boardscript.workers").executable()
  if exe == nil then errors.fail("cannot tell which boardscript executable runs the transcripts") end
  return exe
end

------------------------------------------------------------------------
-- Collecting tests

-- The kind of test a file is, and the path naming the test.
local function classify(path)
  if path:match("%.in$") then return "transcript", path end
  if path:match("%.playthrough$") then return "playthrough", path end
  if path:match("_test%.lua$") then return "script", path end
  return nil
end

-- Adds the regular files below directory `dir` to `files` (what `find DIR
-- -type f` lists, through lua-filesystem: links are not followed), leaving
-- out hidden files and directories.
local function walk(dir, files)
  local lfs = require "lfs"
  local ok, iter, state = pcall(lfs.dir, dir)
  if not ok then return end
  for name in iter, state do
    if name:sub(1, 1) ~= "." then
      local path = (dir == "/" and "" or dir) .. "/" .. name
      local mode = lfs.symlinkattributes(path, "mode")
      if mode == "directory" then
        walk(path, files)
      elseif mode == "file" then
        files[#files + 1] = path
      end
    end
  end
end

--- The tests under `path` (a test file, or a directory walked recursively,
-- files sorted by path; hidden files and directories below it are skipped):
-- a list of { kind = "transcript" | "playthrough" | "script", path = }.
-- A path that does not exist, a file that is not a test, or a directory
-- without tests is a usage error.
function testing.collect(path)
  if #path > 1 then path = path:gsub("/+$", "") end
  if path == "" then path = "/" end
  local tests = {}
  if is_dir(path) then
    local files = {}
    walk(path, files)
    table.sort(files)
    for _, file in ipairs(files) do
      local kind, name = classify(file)
      if kind then tests[#tests + 1] = { kind = kind, path = name } end
    end
    if #tests == 0 then
      errors.fail(("%s: no tests found (NAME.in transcripts, NAME.playthrough, NAME_test.lua)"):format(path))
    end
    return tests
  end
  if not exists(path) then errors.fail(("%s: no such file or directory"):format(path)) end
  local kind, name = classify(path)
  if not kind then -- a transcript's other files name it too
    local stem = path:match("^(.*)%.args$") or path:match("^(.*)%.out$") or path:match("^(.*)%.err$")
      or path:match("^(.*)%.status$")
    if stem and exists(stem .. ".in") then kind, name = "transcript", stem .. ".in" end
  end
  if not kind then
    errors.fail(("%s: not a test (NAME.in with NAME.args and NAME.out, NAME.playthrough or NAME_test.lua)")
      :format(path))
  end
  return { { kind = kind, path = name } }
end

------------------------------------------------------------------------
-- Transcripts

--- Runs the transcript whose input is `path` (NAME.in). opts: { exe =,
-- update = }. Returns { ok = boolean, updated = boolean, detail = text }.
function testing.run_transcript(path, opts)
  opts = opts or {}
  local stem = path:gsub("%.in$", "")
  local dir, name = split_path(stem)
  local args_text = read_file(stem .. ".args") or ""
  local args, why = testing.split_args(args_text)
  if not args then return { ok = false, detail = ("%s.args: %s"):format(name, why) } end
  local expected_status = 0
  local status_text = read_file(stem .. ".status")
  if status_text then
    expected_status = math.tointeger(tonumber(status_text:match("^%s*([+-]?%d+)%s*$") or ""))
    if not expected_status then
      return { ok = false, detail = ("%s.status: not an exit status: '%s'"):format(name,
        (status_text:gsub("^%s+", ""):gsub("%s+$", ""))) }
    end
  end
  local quoted = { shell_quote(testing.executable(opts)) }
  for i, a in ipairs(args) do quoted[i + 1] = shell_quote(a) end
  local base = os.tmpname()
  local out_path, err_path = base .. ".out", base .. ".err"
  local command = ("cd %s && %s%s <%s >%s 2>%s"):format(shell_quote(dir),
    timeout_prefix(opts.timeout or testing.TIMEOUT), table.concat(quoted, " "), shell_quote(name .. ".in"),
    shell_quote(out_path), shell_quote(err_path))
  io.stdout:flush()
  -- a shell runs the transcript's own command line (its .args, with its
  -- .in, in its directory, under timeout): the user's command, as written
  local _, how, code = os.execute(command)
  if how == "signal" and (code == 2 or code == 3) then -- ^C: the shell itself was interrupted
    os.remove(out_path); os.remove(err_path); os.remove(base)
    errors.fail("interrupted", 128 + code)
  end
  local stdout, stderr = read_file(out_path) or "", read_file(err_path) or ""
  local problems = {}
  local status = how == "exit" and code or nil
  if how ~= "exit" then
    problems[#problems + 1] = ("killed by signal %s, expected exit status %d"):format(tostring(code), expected_status)
  elseif util.has_timeout() and status == 124 and expected_status ~= 124 then
    problems[#problems + 1] = ("timed out after %s s"):format(number_text(opts.timeout or testing.TIMEOUT))
  end

  local updated = false
  if opts.update and status then
    local wrote_out = update_file(stem .. ".out", stdout)
    local wrote_err = (stderr ~= "" or exists(stem .. ".err")) and update_file(stem .. ".err", stderr)
    local wrote_status = (status ~= 0 or status_text) and update_file(stem .. ".status", status .. "\n")
    updated = wrote_out or wrote_err or wrote_status or false
  else
    local expected_out = read_file(stem .. ".out")
    if not expected_out then
      problems[#problems + 1] = ("%s.out is missing (--update writes it from this run)"):format(name)
    elseif expected_out ~= stdout then
      problems[#problems + 1] = ("stdout differs from %s.out:\n%s"):format(name,
        diff(stem .. ".out", out_path, stem .. ".out", "actual stdout"))
    end
    if exists(stem .. ".err") and read_file(stem .. ".err") ~= stderr then
      problems[#problems + 1] = ("stderr differs from %s.err:\n%s"):format(name,
        diff(stem .. ".err", err_path, stem .. ".err", "actual stderr"))
    end
    if status and status ~= expected_status then
      local detail = ("exit status %d, expected %d"):format(status, expected_status)
      if not exists(stem .. ".err") and stderr ~= "" then
        detail = detail .. "; stderr:\n" .. indent(stderr)
      end
      problems[#problems + 1] = detail
    end
  end
  os.remove(out_path)
  os.remove(err_path)
  os.remove(base)
  if #problems > 0 then return { ok = false, detail = table.concat(problems, "\n") } end
  return { ok = true, updated = updated }
end

------------------------------------------------------------------------
-- Playthroughs

local playthrough = require "boardscript.testing.playthrough"
testing.PLAYTHROUGH_HEADER = playthrough.HEADER
testing.parse_playthrough = playthrough.parse
testing.playthrough_game = playthrough.game
testing.playthrough_body = playthrough.body
testing.run_playthrough = playthrough.run

local script = require "boardscript.testing.script"
testing.RESULT_HEADER = script.RESULT_HEADER
testing.script_child = script.child
testing.run_script = script.run

------------------------------------------------------------------------
-- The runner

local RUNNERS = {
  transcript = testing.run_transcript,
  playthrough = testing.run_playthrough,
  script = testing.run_script,
}


--- Runs one test { kind =, path = }: { ok =, updated =, detail = }.
function testing.run_test(test, opts)
  return RUNNERS[test.kind](test.path, opts)
end

--- Runs every test under `paths` (a list of files and directories, see
-- testing.collect), each once, in order. opts: { update =, exe =, out =
-- (a file; default io.stdout), timeout = (seconds a transcript or a test
-- script may run; default testing.TIMEOUT), max_memory = (MiB of Lua heap
-- growth a test script may use; default testing.MAX_MEMORY) }. Writes `ok   PATH`, `updated PATH` or
-- `FAIL PATH` (the reason indented below it) per test, then `N passed, N
-- failed`. Returns the numbers passed and failed. A missing path or one
-- without tests is a usage error (raised before any test runs).
function testing.run(paths, opts)
  opts = opts or {}
  local out = opts.out or io.stdout
  local tests, seen = {}, {}
  for _, path in ipairs(paths) do
    for _, test in ipairs(testing.collect(path)) do
      if not seen[test.path] then
        seen[test.path] = true
        tests[#tests + 1] = test
      end
    end
  end
  local passed, failed = 0, 0
  for _, test in ipairs(tests) do
    local result = testing.run_test(test, opts)
    if result.ok then
      passed = passed + 1
      out:write(result.updated and "updated " or "ok   ", test.path, "\n")
    else
      failed = failed + 1
      out:write("FAIL ", test.path, "\n")
      if result.detail and result.detail ~= "" then out:write(indent(result.detail), "\n") end
    end
    out:flush()
  end
  out:write(("%d passed, %d failed\n"):format(passed, failed))
  out:flush()
  return passed, failed
end

return testing
