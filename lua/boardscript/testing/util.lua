--- Helpers the regression runner's parts share (boardscript.testing,
-- .playthrough, .script): files, paths, diffs and the time limit.
local util = {}

local shell_quote = require("boardscript.text").shell_quote

function util.read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

-- Writes `text` to `path` whole or not at all, every step checked
-- (boardscript.output): a golden file being updated is never left cut.
function util.write_file(path, text)
  require("boardscript.output").write_file(path, text, "wb")
end

function util.exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

function util.is_dir(path)
  return require("lfs").attributes(path, "mode") == "directory"
end

-- Whether program `name` is on $PATH (what `command -v` says, through
-- lua-filesystem: no shell).
local function on_path(name)
  local lfs = require "lfs"
  for dir in (os.getenv("PATH") or ""):gmatch("[^:]+") do
    local mode = lfs.attributes(dir .. "/" .. name, "mode")
    if mode == "file" then return true end
  end
  return false
end

-- A file's directory ("." for a bare name) and its name.
function util.split_path(path)
  local dir, name = path:match("^(.*)/([^/]*)$")
  if not dir then return ".", path end
  return dir == "" and "/" or dir, name
end

function util.indent(text)
  return (text:gsub("\n$", ""):gsub("[^\n]*", function(line) return line == "" and "" or "    " .. line end))
end

-- A number as the user wrote it: 300, 0.5.
function util.number_text(n)
  return math.type(n) == "integer" and tostring(n) or ("%.14g"):format(n)
end

local has_timeout

--- Whether coreutils' timeout is there (known once timeout_prefix ran).
function util.has_timeout()
  return has_timeout == true
end

-- `timeout ... ` limiting a command to `seconds`, or "" without coreutils'
-- timeout; `kill_after`: seconds after which a command that outlived the
-- first signal gets SIGKILL.
function util.timeout_prefix(seconds, kill_after)
  if has_timeout == nil then
    has_timeout = on_path("timeout")
  end
  if not has_timeout then return "" end
  -- --foreground: the host stays in the terminal's process group, so ^C reaches it.
  return ("timeout --foreground %s%s "):format(kill_after and ("-k %d "):format(kill_after) or "",
    util.number_text(seconds))
end

-- `diff -u` of two files, labelled; "" when they are equal.
function util.diff(expected_path, actual_path, expected_label, actual_label)
  -- diff(1) shows a failed test's difference: the user's own tool, no library does it
  local p = io.popen(("diff -u --label %s --label %s %s %s 2>&1"):format(shell_quote(expected_label),
    shell_quote(actual_label), shell_quote(expected_path), shell_quote(actual_path)))
  local text = p:read("a")
  p:close()
  return text
end

-- `diff -u` of two texts.
function util.diff_texts(expected, actual, expected_label, actual_label)
  local a, b = os.tmpname(), os.tmpname()
  util.write_file(a, expected)
  util.write_file(b, actual)
  local text = util.diff(a, b, expected_label, actual_label)
  os.remove(a)
  os.remove(b)
  return text
end

-- Rewrites `path` with `text` unless it already holds it; true if written.
function util.update_file(path, text)
  if util.read_file(path) == text then return false end
  util.write_file(path, text)
  return true
end

return util
