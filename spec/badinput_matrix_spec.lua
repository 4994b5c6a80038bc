-- The bad-input matrix (issue 11, item 4): every prompt of every edition and
-- of the generic console, and every NBoard and GTP command, given each class
-- of bad input (spec/support/badinput_matrix.lua) through the real binary.
-- Each case checks the reaction SPEC.md (or docs/decisions.md) specifies,
-- that the game or session goes on exactly as without the bad line, the
-- exit status, that the process ends after the end of input (killed and
-- failed after HANG_GUARD seconds of CPU or 6 x HANG_GUARD of wall clock
-- after it; see spec/support/badinput_run.sh), and that its peak RSS stays under
-- 64 MiB. BOARDSCRIPT_BADINPUT_TOKENS sets the size of the many-tokens line
-- (2 million; 200000 under the sanitizers).
local host = require "support.host"
local matrix = require "support.badinput_matrix"

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local RUNNER = SOURCE .. "/spec/support/badinput_run.sh"
local HANG_GUARD = 10 -- seconds
-- ASan's shadow memory and quarantine are not the program's: the bound is
-- for the normal build.
local RSS_LIMIT_KIB = os.getenv("BOARDSCRIPT_SANITIZED") and math.huge or 64 * 1024
local EOF_MESSAGE = "boardscript: input ended before the game finished\n"
local TOKENS = matrix.token_count()

-- The largest figures seen, per program, for the summary at the end.
local figures = {}

--- Runs the binary with `args` on `input` through the runner. With
-- opts.merged, stderr goes into stdout (in the order written). Returns
-- { status, stdout, stderr, hwm_kib, cpu_ms, post_eof_cpu_ms, timeout, blocked }.
local function run(program, case, args, input, opts)
  opts = opts or {}
  local base = os.tmpname()
  local inp, out, err = base .. ".in", base .. ".out", base .. ".err"
  host.spit(inp, input)
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = host.shell_quote(a) end
  -- The runner and its helpers need not the sanitizers' runtimes that the
  -- sanitized suite preloads for stock lua5.4 (the binary links its own).
  local command = ("env -u LD_PRELOAD bash %s %s %s %s %d %s %s"):format(host.shell_quote(RUNNER), inp, out,
    opts.merged and out or err, HANG_GUARD, host.shell_quote(host.BIN), table.concat(quoted, " "))
  local pipe = assert(io.popen(command))
  local report = pipe:read("a")
  pipe:close()
  local r = {
    stdout = host.slurp(out),
    stderr = opts.merged and "" or host.slurp(err),
  }
  os.remove(inp); os.remove(out); os.remove(err); os.remove(base)
  for key, value in report:gmatch("(%w[%w_]*)=(%d+)") do r[key] = tonumber(value) end
  assert(r.status, "the runner gave no report: " .. report)
  local f = figures[program] or { hwm_kib = 0, post_eof_cpu_ms = 0, cpu_ms = 0, runs = 0 }
  figures[program] = f
  f.runs = f.runs + 1
  if r.hwm_kib > f.hwm_kib then f.hwm_kib, f.hwm_case = r.hwm_kib, case end
  if r.post_eof_cpu_ms > f.post_eof_cpu_ms then f.post_eof_cpu_ms, f.post_case = r.post_eof_cpu_ms, case end
  if r.cpu_ms > f.cpu_ms then f.cpu_ms, f.cpu_case = r.cpu_ms, case end
  return r
end

-- Fails with where two long texts first differ (not the megabytes).
local function same(actual, expected, what)
  if actual == expected then return end
  local i = 1
  while i <= #actual and actual:byte(i) == expected:byte(i) do i = i + 1 end
  error(("%s differs at byte %d (got %d bytes, expected %d):\n got      %q\n expected %q"):format(
    what, i, #actual, #expected, actual:sub(math.max(1, i - 40), i + 60),
    expected:sub(math.max(1, i - 40), i + 60)), 2)
end

-- The process ended on its own, soon after its input did, within the bound.
local function check_process(r)
  assert.are.equal(0, r.timeout, "hang guard: the process was killed")
  assert.is_true(r.hwm_kib < RSS_LIMIT_KIB, ("peak RSS %d KiB"):format(r.hwm_kib))
end

local function lines(list, first, last)
  local out = {}
  for i = first, last do out[#out + 1] = list[i] .. "\n" end
  return table.concat(out)
end

local function kind_of(text)
  if not text:find("%S") then return "blank" end
  if text:match("^%s*%-%d+%s*$") then return "negative" end
  if text:match("^%s*%+?%d+%s*$") then return "huge" end
  return "word"
end

--- The end of the n-th occurrence of `needle` in `text` (0 for n = 0).
local function nth_end(text, needle, n)
  local stop = 0
  for _ = 1, n do
    local _, e = text:find(needle, stop + 1, true)
    if not e then return nil end
    stop = e
  end
  return stop
end

local function count(text, needle)
  local n, at = 0, 1
  while true do
    local _, e = text:find(needle, at, true)
    if not e then return n end
    n, at = n + 1, e + 1
  end
end

--- What the reactions to a bad `line` at `prompt` print, in order.
local function reactions(program, prompt, line)
  if program.mode == "line" then return prompt.react(kind_of(line), line) end
  -- Token input: one reaction per token (equal ones grouped, for the
  -- millions of tokens), or one when the rest of a bad line is dropped.
  local parts, last, run_length = {}, nil, 0
  for token in line:gmatch("%S+") do
    local kind = kind_of(token)
    local text = prompt.react(kind, token)
    if text == last then
      run_length = run_length + 1
    else
      if last then parts[#parts + 1] = last:rep(run_length) end
      last, run_length = text, 1
    end
    if prompt.discard and kind == "word" then break end
  end
  if last then parts[#parts + 1] = last:rep(run_length) end
  return table.concat(parts)
end

local function class_line(program, class)
  if class.name == "tokens" then return program.tokens:rep(TOKENS) end
  return (program.text or {})[class.name] or class.line
end

describe("bad-input matrix: editions and the generic console", function()
  for _, program in ipairs(matrix.PROGRAMS) do
    describe(program.name, function()
      local answers = program.answers
      local whole
      local function baseline()
        whole = whole or run(program.name, "baseline", program.args, lines(answers, 1, #answers))
        return whole
      end

      for _, prompt in ipairs(program.prompts) do
        describe(prompt.name, function()
          local prefix = lines(answers, 1, prompt.at)
          local rest = lines(answers, prompt.at + 1, #answers)
          local head, tail, at_eof, like

          -- The prefix alone reaches the prompt; the baseline splits there.
          local function split()
            if head then return end
            at_eof = run(program.name, prompt.name .. "/eof", program.args, prefix)
            local base = baseline()
            local stop = nth_end(base.stdout, prompt.prompt, count(at_eof.stdout, prompt.prompt))
            assert(stop and stop > 0, "the baseline never reaches the prompt")
            head, tail = base.stdout:sub(1, stop), base.stdout:sub(stop + 1)
          end

          it("eof: the prefix reaches the prompt; end of input there ends the program", function()
            split()
            local status = prompt.eof_status or program.eof_status or 3
            if not prompt.after_eof then
              same(at_eof.stdout, head, "stdout at the end of input")
            else
              same(at_eof.stdout:sub(1, #head), head, "stdout up to the prompt")
            end
            assert.are.equal(status, at_eof.status)
            assert.are.equal(status == 3 and EOF_MESSAGE or "", at_eof.stderr)
            check_process(at_eof)
          end)

          for _, class in ipairs(matrix.CLASSES) do
            local applies = class.name ~= "eof" and not (prompt.skip or {})[class.name]
              and ((class.name ~= "tokens" and not class.heavy) or prompt.heavy)
            if applies then
              it(class.name, function()
                split()
                local base = baseline()
                local input, expected
                if class.name == "crlf" then
                  input = prefix .. rest:gsub("\n", "\r\n", 1)
                  expected = base.stdout
                else
                  local line = class_line(program, class)
                  input = prefix .. line .. "\n" .. rest
                  if prompt.closes then
                    expected = base.stdout
                  elseif prompt.like then
                    if not line:find("%S") then
                      expected = base.stdout
                    else
                      like = like or run(program.name, prompt.name .. "/like", program.args,
                        prefix .. prompt.like .. "\n" .. rest)
                      expected = like.stdout
                    end
                  else
                    expected = head .. reactions(program, prompt, line) .. tail
                  end
                end
                local r = run(program.name, prompt.name .. "/" .. class.name, program.args, input)
                same(r.stdout, expected, "stdout")
                assert.are.equal(base.status, r.status)
                same(r.stderr, base.stderr, "stderr")
                check_process(r)
              end)
            end
          end
        end)
      end
    end)
  end
end)

-- The argument text of a protocol case (nil: the command alone).
local function argument(arg, command, tokens)
  if arg.name == "missing" then return nil end
  if arg.name == "extra" then return (command.valid or "zz") .. " zz" end
  if arg.name == "tokens" then return tokens:rep(TOKENS) end
  return arg.text
end

local function with(name, arg)
  return arg and (name .. " " .. arg) or name
end

describe("bad-input matrix: nboard", function()
  local spec = matrix.NBOARD
  local SET_GAME = "set game " .. spec.commands[#spec.commands].valid

  for _, command in ipairs(spec.commands) do
    it(command.name .. " with every class of argument", function()
      local input, expected = {}, {}
      local function send(line, reply)
        input[#input + 1] = line .. "\n"
        for _, l in ipairs(reply or {}) do expected[#expected + 1] = l .. "\n" end
      end
      send("nboard 2", { spec.myname })
      send("set depth 1", { spec.myname })
      send("move F5")
      for k, arg in ipairs(matrix.ARGUMENTS) do
        local text = argument(arg, command, spec.tokens)
        send(with(command.name, text), command.reply(text, spec.myname))
        -- Back to the position after F5 and depth 1, then the probe.
        send(spec.reset, { spec.myname })
        send(SET_GAME)
        send("ping " .. k, { "pong " .. k })
      end
      send("hint 3", { "status thinking", "search F6 0.40 0 1", "search F4 0.00 0 1",
        "search D6 -0.80 0 1", "status" })
      local r = run("nboard", command.name, spec.args, table.concat(input), { merged = true })
      same(r.stdout, table.concat(expected), "the session")
      assert.are.equal(0, r.status)
      assert.are.equal(1, r.blocked, "the session ended before its input did")
      check_process(r)
    end)
  end

  it("empty and blank lines are ignored; unknown command words get a warning", function()
    local input, expected = { "nboard 2\n" }, { spec.myname .. "\n" }
    for k, line in ipairs(matrix.BLANK_LINES) do
      input[#input + 1] = line .. "\nping " .. k .. "\n"
      expected[#expected + 1] = "pong " .. k .. "\n"
    end
    for k, word in ipairs(spec.unknown) do
      input[#input + 1] = word .. " 1\nping " .. k .. "\n"
      for _, l in ipairs(spec.unknown_reply(word)) do expected[#expected + 1] = l .. "\n" end
      expected[#expected + 1] = "pong " .. k .. "\n"
    end
    local r = run("nboard", "unknown", spec.args, table.concat(input), { merged = true })
    same(r.stdout, table.concat(expected), "the session")
    assert.are.equal(0, r.status)
    check_process(r)
  end)

  it("quit with any argument ends the session; nothing after it is read", function()
    for _, arg in ipairs(matrix.ARGUMENTS) do
      local text = argument(arg, { valid = "" }, spec.tokens)
      local r = run("nboard", "quit/" .. arg.name, spec.args, with("quit", text) .. "\nping 1\n", { merged = true })
      assert.are.equal("", r.stdout, arg.name)
      assert.are.equal(0, r.status)
      check_process(r)
    end
  end)
end)

describe("bad-input matrix: gtp", function()
  local spec = matrix.GTP

  -- The responses (each ends with an empty line) of a whole session.
  local function responses(text)
    local out = {}
    for response in text:gmatch("(.-\n)\n") do out[#out + 1] = response end
    return out
  end

  local plain -- the bare commands' answers and the board after the setup
  local function baseline()
    if plain then return plain end
    local names = {}
    for _, command in ipairs(spec.commands) do
      if not command.reply then names[#names + 1] = command.name end
    end
    local r = run("gtp", "baseline", spec.args, table.concat(spec.setup, "\n") .. "\n" .. spec.state .. "\n"
      .. table.concat(names, "\n") .. "\n")
    local got = responses(r.stdout)
    plain = { state = got[#spec.setup + 1] }
    for i, name in ipairs(names) do plain[name] = got[#spec.setup + 1 + i] end
    return plain
  end

  for _, command in ipairs(spec.commands) do
    if not command.last then
      it(command.name .. " with every class of argument", function()
        local base = baseline()
        local input, expected = {}, {}
        local function send(line, response)
          input[#input + 1] = line .. "\n"
          if response then expected[#expected + 1] = response .. "\n" end
        end
        local function setup()
          for _, line in ipairs(spec.setup) do send(line, "= \n") end
        end
        setup()
        for _, arg in ipairs(matrix.ARGUMENTS) do
          local text = argument(arg, command, spec.tokens)
          local reply = command.reply and (command.reply(text) .. "\n") or base[command.name]
          send(with(command.name, text), reply)
          if not (command.changes and reply:sub(1, 1) == "=") then
            send(spec.state, base.state) -- the game is as it was
          end
          send("clear_board", "= \n")
          setup()
          send(spec.probe, spec.probe_reply .. "\n")
        end
        local r = run("gtp", command.name, spec.args, table.concat(input))
        same(r.stdout, table.concat(expected), "the session")
        assert.are.equal("", r.stderr)
        assert.are.equal(0, r.status)
        assert.are.equal(1, r.blocked, "the session ended before its input did")
        check_process(r)
      end)
    end
  end

  it("empty and blank lines get no answer; unknown command words get '? unknown command'", function()
    local input, expected = {}, {}
    for _, line in ipairs(matrix.BLANK_LINES) do
      input[#input + 1] = line .. "\n" .. spec.probe .. "\n"
      expected[#expected + 1] = spec.probe_reply .. "\n\n"
    end
    for _, word in ipairs(spec.unknown) do
      input[#input + 1] = word .. " b\n" .. spec.probe .. "\n"
      expected[#expected + 1] = spec.unknown_reply .. "\n\n" .. spec.probe_reply .. "\n\n"
    end
    local r = run("gtp", "unknown", spec.args, table.concat(input))
    same(r.stdout, table.concat(expected), "the session")
    assert.are.equal(0, r.status)
    check_process(r)
  end)

  it("quit with any argument answers '= ' and ends the session", function()
    for _, arg in ipairs(matrix.ARGUMENTS) do
      local text = argument(arg, { valid = "" }, spec.tokens)
      local r = run("gtp", "quit/" .. arg.name, spec.args, with("quit", text) .. "\n" .. spec.probe .. "\n")
      assert.are.equal("= \n\n", r.stdout, arg.name)
      assert.are.equal(0, r.status)
      check_process(r)
    end
  end)
end)

describe("bad-input matrix: figures", function()
  it("are written to stderr (peak RSS, CPU after the end of input)", function()
    local names = {}
    for name in pairs(figures) do names[#names + 1] = name end
    table.sort(names)
    assert.is_true(#names > 0)
    for _, name in ipairs(names) do
      local f = figures[name]
      io.stderr:write(("badinput %-9s %3d runs; peak RSS %.1f MiB (%s); most CPU after EOF %d ms (%s); "
        .. "most CPU in a run %d ms (%s)\n"):format(name, f.runs, f.hwm_kib / 1024, f.hwm_case or "-",
        f.post_eof_cpu_ms, f.post_case or "-", f.cpu_ms, f.cpu_case or "-"))
    end
  end)
end)
