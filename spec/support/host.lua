--- Test helpers: the built host run as a user runs it, and scratch files.
local host = {}

--- The host under test (ctest sets BOARDSCRIPT_BIN).
host.BIN = assert(os.getenv("BOARDSCRIPT_BIN"), "BOARDSCRIPT_BIN is set by ctest")

function host.shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

--- A whole file's bytes.
function host.slurp(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

--- Writes `text` to `path`.
function host.spit(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

--- Runs the host with `args`; opts.input is its stdin (default empty),
-- opts.cwd its working directory. Returns status, stdout, stderr.
function host.run(args, opts)
  opts = opts or {}
  local base = os.tmpname()
  local inp, out, err = base .. ".in", base .. ".out", base .. ".err"
  host.spit(inp, opts.input or "")
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = host.shell_quote(a) end
  local ok, _, code = os.execute(("%s%s %s <%s >%s 2>%s"):format(
    opts.cwd and ("cd " .. host.shell_quote(opts.cwd) .. " && ") or "",
    host.shell_quote(host.BIN), table.concat(quoted, " "), inp, out, err))
  local stdout, stderr = host.slurp(out), host.slurp(err)
  os.remove(inp); os.remove(out); os.remove(err); os.remove(base)
  return ok and 0 or code, stdout, stderr
end

--- A scratch directory (with `sub` made inside it, if given) and a function
-- removing it.
function host.scratch_dir(sub)
  local base = os.tmpname()
  os.remove(base)
  assert(os.execute("mkdir -p " .. host.shell_quote(sub and (base .. "/" .. sub) or base)))
  return base, function() os.execute("rm -rf " .. host.shell_quote(base)) end
end

return host
