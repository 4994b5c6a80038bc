--- `boardscript run FILE [args...]`: runs a Lua script with the boardscript
-- API on its path and the modules next to it.
local errors = require "boardscript.errors"
local limits = require "boardscript.limits"
local options = require "boardscript.options"

local command = { summary = "Run a Lua script with the boardscript API available." }

function command.configure(cmd)
  cmd:handle_options(false) -- everything after the script is the script's
  cmd:usage("Usage: boardscript run [-h] [--max-memory <MIB>] [--max-seconds <S>] <script> [<args>] ...")
  cmd:epilog("--max-memory MIB and --max-seconds S (given before the script) put the whole script on a budget "
    .. "of Lua heap growth and processor time; a script over it is stopped with a message naming it "
    .. "(status 2).")
  cmd:argument("script", "The Lua file to run (modules next to it are found by require).")
  cmd:argument("args", "Arguments passed to the script as 'arg' and '...'."):args("*")
end

-- The traceback of an error in the script, without the frames of the host
-- that called it.
local function script_traceback(err)
  local trace = debug.traceback(tostring(err), 2)
  local cut = trace:find("\n%s*%[C%]: in function 'xpcall'")
  return cut and trace:sub(1, cut - 1) or trace
end

--- Runs `path` as lua.c would: `arg[0]` is the script, `arg[1..]` and `...`
-- its arguments; the script's directory comes first on package.path.
-- Returns the script's integer result (its exit status) or 0.
function command.run_file(path, script_args)
  -- full Lua, but from source only: a forged precompiled chunk can crash Lua
  if require("boardscript.sandbox").binary(path) then
    errors.fail(("%s: a precompiled (binary) chunk; boardscript runs Lua source only"):format(path))
  end
  local chunk, err = loadfile(path, "t")
  if not chunk then errors.fail(err, errors.EXIT_FAILURE) end
  local dir = path:match("^(.*)/[^/]*$") or "."
  package.path = ("%s/?.lua;%s/?/init.lua;%s"):format(dir, dir, package.path)
  local script_arg = { [0] = path }
  for i, a in ipairs(script_args) do script_arg[i] = a end
  _G.arg = script_arg
  local called, ok, result = limits.call_as("script " .. path, "script", nil, xpcall, chunk, script_traceback,
    table.unpack(script_args))
  if not called then
    if limits.exceeded(ok) then error(ok, 0) end
    ok, result = false, ok
  end
  if not ok then
    if errors.is_user(result) then error(result, 0) end
    errors.fail(result, errors.EXIT_FAILURE)
  end
  return math.type(result) == "integer" and result or 0
end

function command.run(args, cmd)
  if args.script == "--help" or args.script == "-h" then
    io.stdout:write(cmd:get_help(), "\n")
    return 0
  end
  local script, script_args = args.script, args.args
  -- handle_options(false) leaves options to the script: the budgets are
  -- read from the words before it.
  local budget = {}
  while script and script:match("^%-%-max%-") do
    local name, value = script:match("^%-%-(max%-[%a]+)=(.*)$")
    if not name then name, value = script:sub(3), table.remove(script_args, 1) end
    local key = ({ ["max-memory"] = "memory", ["max-seconds"] = "seconds" })[name]
    if not key then errors.fail(("run: unknown option --%s (before the script: --max-memory, --max-seconds)"):format(
      name)) end
    local n, why = options.budget_number("--" .. name, value or "", key == "memory" and options.MAX_MEMORY_MIB or nil)
    if not n then errors.fail("run: " .. why) end
    budget[key] = n
    script = table.remove(script_args, 1)
  end
  if script == nil then errors.fail("run: no script given") end
  limits.configure(budget)
  return command.run_file(script, script_args)
end

return command
