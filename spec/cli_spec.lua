-- The host and its command line, run as a user would run them.
local files = require "support.files"
local BIN = assert(os.getenv("BOARDSCRIPT_BIN"), "BOARDSCRIPT_BIN is set by ctest")

local function shell_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

--- Runs the host with arguments and stdin text; returns status, stdout, stderr.
local function host(args, input)
  local dir = os.tmpname()
  local inp, out, err = dir .. ".in", dir .. ".out", dir .. ".err"
  local f = assert(io.open(inp, "w")); f:write(input or ""); f:close()
  local quoted = {}
  for i, a in ipairs(args) do quoted[i] = shell_quote(a) end
  local ok, _, code = os.execute(("%s %s <%s >%s 2>%s"):format(
    shell_quote(BIN), table.concat(quoted, " "), inp, out, err))
  local function slurp(p) local h = assert(io.open(p)); local s = h:read("a"); h:close(); os.remove(p); return s end
  local stdout, stderr = slurp(out), slurp(err)
  os.remove(inp); os.remove(dir)
  return ok and 0 or code, stdout, stderr
end

describe("boardscript host", function()
  it("prints its version", function()
    local status, out = host { "--version" }
    assert.equal(0, status)
    assert.matches("^boardscript %d+%.%d+%.%d+\n$", out)
  end)

  it("prints help listing commands and editions", function()
    local status, out = host { "--help" }
    assert.equal(0, status)
    for _, word in ipairs { "play", "run", "perft" } do assert.matches(word, out, 1, true) end
    status, out = host { "play", "--help" }
    assert.equal(0, status)
    assert.matches("blocks", out, 1, true)
  end)

  it("rejects unknown commands and editions with status 2", function()
    local status, _, err = host { "frobnicate" }
    assert.equal(2, status)
    assert.matches("unknown command 'frobnicate'", err, 1, true)
    status, _, err = host { "play", "blocks", "--size", "5" }
    assert.equal(2, status)
    assert.matches("^Usage: boardscript play blocks ", err)
    assert.matches("Error: size must be an even integer from 4 to 26\n$", err)
    status, _, err = host { "play", "chess" }
    assert.equal(2, status)
    assert.matches("unknown command 'chess'", err, 1, true)
  end)

  it("exits 3 with the standard message when input ends mid-game", function()
    local status, out, err = host({ "play", "blocks" }, "0\n")
    assert.equal(3, status)
    assert.matches("Player X's turn: $", out)
    assert.equal("boardscript: input ended before the game finished\n", err)
  end)

  it("runs a user script with require 'boardscript' and its arguments", function()
    local path, remove = files.lua([[
local bs = require "boardscript"
local g = bs.new_game("reversi", { size = tonumber(arg[1]) })
print(#g:moves(), g:to_move(), ...)
return 4
]])
    local status, out = host { "run", path, "6", "--flag" }
    remove()
    assert.equal(4, status)
    assert.equal("4\tblack\t6\t--flag\n", out)
  end)

  it("reports an error in a script with a traceback and status 1", function()
    local path, remove = files.lua("local t = nil\nreturn t.x\n")
    local status, _, err = host { "run", path }
    remove()
    assert.equal(1, status)
    assert.matches("attempt to index", err, 1, true)
    assert.matches("stack traceback", err, 1, true)
  end)

  it("counts perft leaves and reports their rate", function()
    local status, out = host { "perft", "reversi", "6" }
    assert.equal(0, status)
    assert.matches("^perft reversi depth 6 size 8: 8200 leaves, [%d.]+ s, %d+ leaves/s %(C core%)\n$", out)
    status, out = host { "perft", "reversi", "5", "--size", "6", "--generic" }
    assert.equal(0, status)
    assert.matches(": 1364 leaves,", out, 1, true)
    local err
    status, out, err = host { "perft", "nosuchrules", "3" }
    assert.equal("", out)
    assert.equal(2, status)
    assert.equal("boardscript: unknown rule set 'nosuchrules' (built-in: blocks, dots, flipflop, othello, "
      .. "othello-strict, reversi, or a path to a .lua file)\n", err)
  end)
end)
