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
-- * Lua test scripts, `NAME_test.lua`, run inside this process: a script
--   passes when it returns without raising an error.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local word_and_rest = require("boardscript.text").word_and_rest
local game = require "boardscript.game"
local rules_mod = require "boardscript.rules"

local testing = {}

--- The first line of every playthrough.
testing.PLAYTHROUGH_HEADER = "boardscript playthrough 1"

--- Seconds a transcript may run before it is stopped (when `timeout` exists).
testing.TIMEOUT = 300

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

local cwd_cache
local function cwd()
  if not cwd_cache then
    local p = io.popen("pwd")
    cwd_cache = p and p:read("l") or "."
    if p then p:close() end
  end
  return cwd_cache
end

--- The boardscript host transcripts run: opts.exe, else the running host
-- (package.boardscript_exe), else arg[-1] or arg[0]. A relative path is
-- made absolute (transcripts run in their own directory).
function testing.executable(opts)
  local exe = opts and opts.exe or rawget(package, "boardscript_exe") -- set by the host
  if exe == nil and type(_G.arg) == "table" then exe = _G.arg[-1] or _G.arg[0] end
  if exe == nil then errors.fail("cannot tell which boardscript executable runs the transcripts") end
  if exe:sub(1, 1) ~= "/" and exe:find("/", 1, true) then exe = cwd() .. "/" .. exe end
  return exe
end

local has_timeout
local function timeout_prefix(seconds)
  if has_timeout == nil then
    has_timeout = os.execute("command -v timeout >/dev/null 2>&1") == true
  end
  if not has_timeout then return "" end
  -- --foreground: the host stays in the terminal's process group, so ^C reaches it.
  return ("timeout --foreground %d "):format(seconds)
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
    problems[#problems + 1] = ("timed out after %d s"):format(opts.timeout or testing.TIMEOUT)
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

local EXIT = setmetatable({}, { __tostring = function() return "os.exit" end })

-- The script's innermost frame in the stack (from the level the error was
-- raised at): "path:line".
local function script_position(path)
  for level = 3, 50 do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.source == "@" .. path and info.currentline and info.currentline > 0 then
      return ("%s:%d"):format(info.short_src, info.currentline)
    end
  end
  return nil
end

--- Runs the Lua test script at `path` in this process, in a fresh
-- environment whose __index is _G, with the script's directory first on
-- package.path. It passes when it returns without error (os.exit(true|0)
-- counts as a return). Returns { ok =, detail = message }.
function testing.run_script(path)
  local env = setmetatable({}, { __index = _G })
  local exit_code
  env.os = setmetatable({
    exit = function(code)
      exit_code = code == nil or code
      error(EXIT, 0)
    end,
  }, { __index = os })
  local chunk, load_err = loadfile(path, "t", env)
  if not chunk then return { ok = false, detail = load_err } end
  local dir = split_path(path)
  local saved_path = package.path
  package.path = ("%s/?.lua;%s/?/init.lua;%s"):format(dir, dir, saved_path)
  local ok, err = xpcall(chunk, function(e)
    if e == EXIT then return e end
    local message = errors.is_user(e) and e.message or tostring(e)
    if type(e) == "string" or errors.is_user(e) then
      if not message:match("^[^\n]-:%d+:") then
        local where = script_position(path)
        if where then message = where .. ": " .. message end
      end
    end
    return message
  end)
  package.path = saved_path
  io.stdout:flush()
  if not ok and err == EXIT then
    if exit_code == true or exit_code == 0 then return { ok = true } end
    return { ok = false, detail = ("os.exit(%s)"):format(tostring(exit_code)) }
  end
  if not ok then return { ok = false, detail = err } end
  return { ok = true }
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
-- (a file; default io.stdout) }. Writes `ok   PATH`, `updated PATH` or
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
