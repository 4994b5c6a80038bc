--- The regression runner behind `boardscript test PATH... [--update]`, as a
-- library: Lua code may collect and run tests too. Three kinds of test,
-- found by name (formats in docs/decisions.md, "boardscript test"):
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
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local word_and_rest = require("boardscript.text").word_and_rest
local game = require "boardscript.game"
local rules_mod = require "boardscript.rules"

local testing = {}

--- The first line of every playthrough.
testing.PLAYTHROUGH_HEADER = "boardscript playthrough 1"

--- Seconds (wall clock) a transcript or a test script may run before it is
-- stopped (when `timeout` exists); opts.timeout overrides it.
testing.TIMEOUT = 300

--- MiB the Lua heap of a test script's process may grow by while the script
-- runs; opts.max_memory overrides it.
testing.MAX_MEMORY = 1024

local shell_quote = require("boardscript.text").shell_quote
testing.shell_quote = shell_quote

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

local function write_file(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

local function is_dir(path)
  return os.execute("test -d " .. shell_quote(path)) == true
end

-- A file's directory ("." for a bare name) and its name.
local function split_path(path)
  local dir, name = path:match("^(.*)/([^/]*)$")
  if not dir then return ".", path end
  return dir == "" and "/" or dir, name
end

local function indent(text)
  return (text:gsub("\n$", ""):gsub("[^\n]*", function(line) return line == "" and "" or "    " .. line end))
end

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

-- A number as the user wrote it: 300, 0.5.
local function number_text(n)
  return math.type(n) == "integer" and tostring(n) or ("%.14g"):format(n)
end

local has_timeout
-- `timeout ... ` limiting a command to `seconds`, or "" without coreutils'
-- timeout; `kill_after`: seconds after which a command that outlived the
-- first signal gets SIGKILL.
local function timeout_prefix(seconds, kill_after)
  if has_timeout == nil then
    has_timeout = os.execute("command -v timeout >/dev/null 2>&1") == true
  end
  if not has_timeout then return "" end
  -- --foreground: the host stays in the terminal's process group, so ^C reaches it.
  return ("timeout --foreground %s%s "):format(kill_after and ("-k %d "):format(kill_after) or "",
    number_text(seconds))
end

-- `diff -u` of two files, labelled; "" when they are equal.
local function diff(expected_path, actual_path, expected_label, actual_label)
  local p = io.popen(("diff -u --label %s --label %s %s %s 2>&1"):format(shell_quote(expected_label),
    shell_quote(actual_label), shell_quote(expected_path), shell_quote(actual_path)))
  local text = p:read("a")
  p:close()
  return text
end

-- `diff -u` of two texts.
local function diff_texts(expected, actual, expected_label, actual_label)
  local a, b = os.tmpname(), os.tmpname()
  write_file(a, expected)
  write_file(b, actual)
  local text = diff(a, b, expected_label, actual_label)
  os.remove(a)
  os.remove(b)
  return text
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
    local p = assert(io.popen(("find %s -type f 2>/dev/null"):format(shell_quote(path))))
    local files = {}
    for file in p:lines() do
      local below = file:sub(#path + 1)
      if not below:find("/%.") then files[#files + 1] = file end
    end
    p:close()
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

-- Rewrites `path` with `text` unless it already holds it; true if written.
local function update_file(path, text)
  if read_file(path) == text then return false end
  write_file(path, text)
  return true
end

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
  elseif has_timeout and status == 124 and expected_status ~= 124 then
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

--- Splits a playthrough's text into its header and body: the header runs to
-- the first blank line, the body is everything after it. Returns the
-- header's settings { rules =, options = { { key, text } ... }, seed =,
-- moves = }, the header's text (with its final newline) and the body; or
-- nil and what is wrong ("LINE: message").
function testing.parse_playthrough(text)
  local header_lines, body_start = {}, nil
  local pos, number = 1, 0
  while pos <= #text do
    local stop = text:find("\n", pos, true) or #text + 1
    local line = text:sub(pos, stop - 1):gsub("\r$", "")
    number = number + 1
    pos = stop + 1
    if line:match("^%s*$") then
      body_start = pos
      break
    end
    header_lines[#header_lines + 1] = { line = line, number = number }
  end
  local header = { options = {} }
  if #header_lines == 0 or header_lines[1].line ~= testing.PLAYTHROUGH_HEADER then
    return nil, ("1: not a playthrough (the first line must be '%s')"):format(testing.PLAYTHROUGH_HEADER)
  end
  for i = 2, #header_lines do
    local line, n = header_lines[i].line, header_lines[i].number
    local key, rest = word_and_rest(line)
    if key:sub(1, 1) == "#" then -- luacheck: ignore 542
    elseif key == "rules" and rest ~= "" then
      header.rules = rest
    elseif key == "option" then
      local name, value = rest:match("^([%w_]+)=(.*)$")
      if not name then return nil, ("%d: option must be written key=value"):format(n) end
      header.options[#header.options + 1] = { name, value }
    elseif key == "seed" or key == "moves" then
      local value = rest:match("^[+-]?%d+$") and math.tointeger(tonumber(rest))
      if not value or key == "moves" and value < 0 then
        return nil, ("%d: %s must be %s integer"):format(n, key, key == "moves" and "a non-negative" or "an")
      end
      header[key] = value
    else
      return nil, ("%d: unknown header line '%s' (rules, option, seed, moves or # comment)"):format(n, line)
    end
  end
  if not header.rules then return nil, "no 'rules' line in the header" end
  if not header.seed then return nil, "no 'seed' line in the header" end
  local header_text = {}
  for i, h in ipairs(header_lines) do header_text[i] = h.line end
  return header, table.concat(header_text, "\n") .. "\n", body_start and text:sub(body_start) or nil
end

--- The game a playthrough header describes: its rule set (a built-in name,
-- or a path relative to `dir`), options and generator core.rng(seed).
function testing.playthrough_game(header, dir)
  local source = header.rules
  if not rules_mod.BUILTIN[source] and source:sub(1, 1) ~= "/" and dir and dir ~= "." then
    source = dir .. "/" .. source
  end
  local rules = rules_mod.load(source)
  local opts = {}
  for _, option in ipairs(header.options) do
    opts[option[1]] = rules_mod.parse_option(rules, option[1], option[2])
  end
  local g = game.new(rules, opts, core.rng(header.seed))
  g.source = header.rules
  return g
end

-- The board text, each line indented by two spaces, trailing blanks dropped.
local function board_lines(g, out)
  for line in g:text():gsub("\n$", ""):gmatch("([^\n]*)\n?") do
    out[#out + 1] = ("  " .. line):gsub("%s+$", "")
  end
end

--- The body of a playthrough: the game of `header` (see
-- testing.parse_playthrough) played from the start. At each position the
-- choices are g:moves() in the rule set's order, then "pass" when
-- g:can_pass(); the move taken is choices[g.rng:random(#choices)], drawn
-- from the game's generator (the one setup drew from). Stops when the game
-- is finished or after header.moves moves.
function testing.playthrough_body(header, dir)
  local g = testing.playthrough_game(header, dir)
  local out = {}
  local ply = 0
  while true do
    if ply > 0 then out[#out + 1] = "" end
    if g:finished() then
      out[#out + 1] = ("state %d finished"):format(ply)
      board_lines(g, out)
      break
    end
    out[#out + 1] = ("state %d %s to move"):format(ply, g:side_name())
    board_lines(g, out)
    local choices, texts = {}, {}
    for _, move in ipairs(g:moves()) do
      local text = g:move_text(move)
      if not text then error(("the rules list a move they cannot name in position %d"):format(ply), 0) end
      choices[#choices + 1], texts[#texts + 1] = move, text
    end
    if g:can_pass() then choices[#choices + 1], texts[#texts + 1] = "pass", "pass" end
    out[#out + 1] = ("moves %d: %s"):format(#texts, table.concat(texts, ", "))
    if header.moves and ply >= header.moves then
      out[#out + 1] = ("stopped after %d moves"):format(ply)
      break
    end
    if #choices == 0 then
      error(("position %d: no move and no pass, but the game is not finished"):format(ply), 0)
    end
    local k = g.rng:random(#choices)
    out[#out + 1] = "play " .. texts[k]
    local ok, why
    if choices[k] == "pass" then ok, why = g:pass() else ok, why = g:play(choices[k]) end
    if not ok then
      error(("position %d: %s was listed but refused%s"):format(ply, texts[k], why and (": " .. why) or ""), 0)
    end
    ply = ply + 1
  end
  local first, second = g:score()
  out[#out + 1] = ("score %s %s"):format(tostring(first), tostring(second))
  if g:finished() then
    local winner = g:winner()
    out[#out + 1] = "winner " .. (winner == "draw" and "draw" or g:side_name(winner))
  else
    out[#out + 1] = "winner none (unfinished)"
  end
  return table.concat(out, "\n") .. "\n"
end

local function message_of(err)
  if errors.is_user(err) then return err.message end
  return tostring(err)
end

--- Runs the playthrough at `path`: regenerates its body from its header
-- and compares the whole file (opts.update: rewrites it instead). Returns
-- { ok =, updated =, detail = }.
function testing.run_playthrough(path, opts)
  opts = opts or {}
  local text = read_file(path)
  if not text then return { ok = false, detail = path .. ": cannot be read" } end
  local header, header_text, body = testing.parse_playthrough(text)
  if not header then return { ok = false, detail = ("%s:%s"):format(path, header_text) } end
  local dir = split_path(path)
  local ok, generated = pcall(testing.playthrough_body, header, dir)
  if not ok then return { ok = false, detail = message_of(generated) } end
  local expected = header_text .. "\n" .. generated
  if text == expected then return { ok = true } end
  if opts.update then
    write_file(path, expected)
    return { ok = true, updated = true }
  end
  if not body then return { ok = false, detail = "no body after the header (--update writes it)" } end
  return { ok = false, detail = diff_texts(text, expected, path, path .. " (regenerated)") }
end

------------------------------------------------------------------------
-- Lua test scripts
--
-- The runner (the parent) starts the host once per script: `boardscript
-- test --max-memory MIB --script-result FILE -- PATH` under `timeout`. That
-- child runs the script in its own Lua state and writes one result to FILE:
-- `ok` once the script returned with the standard library intact, `fail`
-- and the reason, or `exit` and os.exit's arguments when the script called
-- it. The parent judges from that file and the child's exit status, so a
-- script that stops its process early (os.exit, a signal, the time limit)
-- leaves no `ok` behind, and nothing a script replaces reaches the parent.

--- The first line of a child's result file, before its verdict.
testing.RESULT_HEADER = "boardscript test result: "

-- What the child uses once the script has run, taken before it runs: a
-- script may have replaced any global or library function since.
local std = {
  type = type, tostring = tostring, pairs = pairs, ipairs = ipairs, rawget = rawget, select = select,
  getmetatable = getmetatable, setmetatable = setmetatable, xpcall = xpcall, loadfile = loadfile,
  open = io.open, stdout = io.stdout, write = io.stdout.write, flush = io.stdout.flush,
  close = io.stdout.close, stderr = io.stderr, exit = os.exit, os = os, package = package, G = _G,
  format = string.format, match = string.match, sort = table.sort, concat = table.concat,
  getinfo = debug.getinfo, floor = math.floor, tointeger = math.tointeger, tonumber = tonumber, error = error,
}
local USER_ERROR = std.getmetatable(select(2, pcall(errors.fail, "")))
local host = require("boardscript.limits").host

-- The libraries whose fields a script must leave as it found them.
local LIBRARIES = { "coroutine", "debug", "io", "math", "os", "package", "string", "table", "utf8" }

-- Writes the child's result (verdict and detail) to `path`; false if it cannot.
local function write_result(path, verdict, detail)
  local f = std.open(path, "wb")
  if not f then return false end
  std.write(f, testing.RESULT_HEADER, verdict, "\n", detail or "")
  std.close(f)
  return true
end

-- A value as os.exit's argument was written: 0, true, "x".
local function argument_text(value)
  if std.type(value) == "string" then return std.format("%q", value) end
  return std.tostring(value)
end

-- What the script may not leave changed: a list of { label, table, key,
-- value } (value: rawget(table, key) before the script ran).
local function snapshot()
  local G, entries = std.G, {}
  local function add(label, t, key)
    local value = std.rawget(t, key)
    local kind = std.type(value)
    if kind == "function" or kind == "table" or kind == "userdata" then
      entries[#entries + 1] = { label, t, key, value }
    end
  end
  for key in std.pairs(G) do
    if key ~= "arg" and std.type(key) == "string" then add(key, G, key) end
  end
  for _, name in ipairs(LIBRARIES) do
    local lib = std.rawget(G, name)
    if std.type(lib) == "table" then
      for key in std.pairs(lib) do
        if std.type(key) == "string" then add(name .. "." .. key, lib, key) end
      end
    end
  end
  local loaded = std.package.loaded
  for key in std.pairs(loaded) do
    if std.type(key) == "string" then add(std.format("package.loaded[%q]", key), loaded, key) end
  end
  local string_meta = std.getmetatable("")
  if string_meta then add("the string metatable's __index", string_meta, "__index") end
  local file_meta = std.getmetatable(std.stdout)
  local methods = file_meta and std.rawget(file_meta, "__index")
  if std.type(methods) == "table" then
    for key in std.pairs(methods) do
      if std.type(key) == "string" then add("file:" .. key, methods, key) end
    end
  end
  entries.string_meta, entries.G_meta = string_meta, std.getmetatable(G)
  return entries
end

-- The labels of what changed since `entries` were taken, sorted.
local function changed_since(entries)
  local changed = {}
  for _, e in std.ipairs(entries) do
    if std.rawget(e[2], e[3]) ~= e[4] then changed[#changed + 1] = e[1] end
  end
  if std.getmetatable("") ~= entries.string_meta then changed[#changed + 1] = "the string metatable" end
  if std.getmetatable(std.G) ~= entries.G_meta then changed[#changed + 1] = "the metatable of _G" end
  std.sort(changed)
  return changed
end

-- The script's innermost frame in the stack (from the level the error was
-- raised at): "path:line".
local function script_position(path)
  for level = 3, 50 do
    local info = std.getinfo(level, "Sl")
    if not info then break end
    if info.source == "@" .. path and info.currentline and info.currentline > 0 then
      return std.format("%s:%d", info.short_src, info.currentline)
    end
  end
  return nil
end

-- The message handler of a script's errors: the message, with the
-- script's `file:line` in front when it names no position.
local function script_handler(path)
  return function(e)
    local user = std.getmetatable(e) == USER_ERROR
    local message = user and std.rawget(e, "message") or e
    if std.type(message) ~= "string" then return std.tostring(message) end
    if not std.match(message, "^[^\n]-:%d+:") then
      local where = script_position(path)
      if where then message = where .. ": " .. message end
    end
    return message
  end
end

--- The child's side of testing.run_script (`boardscript test --script-result
-- FILE -- PATH`): runs the Lua test script at `path` in this process, in a
-- fresh environment whose __index is _G, with the script's directory first
-- on package.path, its Lua heap allowed to grow by opts.max_memory MiB
-- (default testing.MAX_MEMORY; a limit the host's allocator enforces, see
-- boardscript.limits), writes the result to `result_path` and exits.
-- os.exit, while the script runs, writes `exit` and its arguments first.
function testing.script_child(path, result_path, opts)
  opts = opts or {}
  local mib = opts.max_memory or testing.MAX_MEMORY
  local out_of_memory = ("out of memory (the Lua heap grew by more than --max-memory %s MiB)")
    :format(number_text(mib))
  local exit = std.exit
  std.os.exit = function(...)
    local code = (...)
    local kind = std.type(code)
    if kind ~= "nil" and kind ~= "boolean" and not std.tointeger(std.tonumber(code)) then
      std.error(std.format("bad argument #1 to 'exit' (number expected, got %s)", kind), 2)
    end
    local words = {}
    for i = 1, std.select("#", ...) do words[i] = argument_text((std.select(i, ...))) end
    write_result(result_path, "exit", std.concat(words, ", "))
    return exit(...)
  end
  local entries = snapshot()
  local env = std.setmetatable({}, { __index = std.G })
  local verdict, detail = "ok", nil
  local chunk, load_err = std.loadfile(path, "t", env)
  if not chunk then
    verdict, detail = "fail", load_err
  else
    local dir = split_path(path)
    local package, saved_path = std.package, std.package.path
    package.path = std.format("%s/?.lua;%s/?/init.lua;%s", dir, dir, saved_path)
    local handler = script_handler(path)
    local ok, reason, err
    if host then
      ok, reason, err = host.call(std.floor(mib * 1048576), nil, handler, chunk)
    else -- not the boardscript binary: no budget
      ok, err = std.xpcall(chunk, handler)
    end
    package.path = saved_path
    std.flush(std.stdout)
    if reason == "memory" then
      verdict, detail = "fail", out_of_memory
    elseif not ok then
      verdict = "fail"
      detail = std.type(err) == "string" and err or std.format("an error that is not a string (%s)", std.type(err))
    else
      local changed = changed_since(entries)
      if #changed > 0 then
        verdict, detail = "fail", "replaced standard globals and did not restore them: " .. std.concat(changed, ", ")
      end
    end
  end
  std.flush(std.stdout)
  if not write_result(result_path, verdict, detail) then
    std.write(std.stderr, "boardscript: cannot write ", result_path, "\n")
    exit(1)
  end
  exit(0)
end

--- Runs the Lua test script at `path` in a process of its own (see
-- testing.script_child), stopped after opts.timeout seconds of wall-clock
-- time (default testing.TIMEOUT) when coreutils' timeout exists. opts: {
-- exe =, timeout =, max_memory = }. It passes when it returns without
-- error, without calling os.exit and with the standard library as it found
-- it. Returns { ok =, detail = message }.
function testing.run_script(path, opts)
  opts = opts or {}
  local result_path = os.tmpname()
  local seconds = opts.timeout or testing.TIMEOUT
  local trust = require("boardscript.sandbox").trusted() and "--trust " or ""
  local command = ("exec %s%s test %s--max-memory=%s --script-result %s -- %s"):format(timeout_prefix(seconds, 5),
    shell_quote(testing.executable(opts)), trust, number_text(opts.max_memory or testing.MAX_MEMORY),
    shell_quote(result_path), shell_quote(path))
  io.stdout:flush()
  local _, how, code = os.execute(command)
  local text = read_file(result_path) or ""
  os.remove(result_path)
  if how == "signal" and (code == 2 or code == 3) then -- ^C
    errors.fail("interrupted", 128 + code)
  end
  local verdict, detail
  if text:sub(1, #testing.RESULT_HEADER) == testing.RESULT_HEADER then
    verdict, detail = text:match("^(%a+)\n(.*)$", #testing.RESULT_HEADER + 1)
  end
  if verdict == "fail" then return { ok = false, detail = detail } end
  if verdict == "exit" then
    return { ok = false, detail = ("exited with os.exit(%s) before the script finished"):format(detail) }
  end
  if verdict == "ok" and how == "exit" and code == 0 then return { ok = true } end
  local when = verdict == "ok" and "after" or "before"
  if how ~= "exit" then
    return { ok = false, detail = ("killed by signal %d"):format(code) }
  elseif has_timeout and code == 124 then
    return { ok = false, detail = ("timed out after %s s"):format(number_text(seconds)) }
  end
  return { ok = false, detail = ("exited with status %d %s the script finished"):format(code, when) }
end

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
