-- The 8 x 8 perft: the AVX2 loop (where the CPU has it) and the portable one
-- (board:perft's `scalar` option, or BOARDSCRIPT_NO_SIMD in the environment)
-- count the same trees. spec/c/simd_test.c compares the two much further.
local core = require "boardscript.core"

local START = { 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288 }

local function start_board()
  local b = core.board(8)
  b:set(4, 4, "white"); b:set(5, 5, "white"); b:set(4, 5, "black"); b:set(5, 4, "black")
  return b
end

local function quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

describe("8 x 8 perft paths", function()
  it("count the start position's table both ways", function()
    local b = start_board()
    for depth, expected in ipairs(START) do
      assert.equal(expected, b:perft("black", depth), "depth " .. depth)
      assert.equal(expected, b:perft("black", depth, { scalar = true }), "scalar depth " .. depth)
    end
  end)

  it("agree on random positions with blocks, passes and finished games", function()
    local rng = core.rng(11)
    for _ = 1, 30 do
      local b = start_board()
      for _ = 1, rng:random(6) do
        local r, c = rng:random(8), rng:random(8)
        if b:get(r, c) == "empty" then b:set(r, c, "block") end
      end
      local player = "black"
      for _ = 1, 20 + rng:random(40) do
        local moves = b:moves(player)
        if #moves > 0 then
          local move = moves[rng:random(#moves)]
          b:play(player, move[1], move[2])
        end
        player = player == "black" and "white" or "black"
      end
      for depth = 1, 5 do
        assert.equal(b:perft(player, depth, { generic = true }), b:perft(player, depth), "fast path, depth " .. depth)
        assert.equal(b:perft(player, depth), b:perft(player, depth, { scalar = true }), "scalar, depth " .. depth)
      end
    end
  end)

  it("BOARDSCRIPT_NO_SIMD selects the portable loop from the command line and counts the same", function()
    local bin, source = os.getenv("BOARDSCRIPT_BIN"), os.getenv("BOARDSCRIPT_SOURCE")
    if not bin then return pending("BOARDSCRIPT_BIN not set") end
    local outputs = {}
    for _, env in ipairs { "", "BOARDSCRIPT_NO_SIMD=1 " } do
      local p = assert(io.popen(("cd %s && %s%s perft reversi 8"):format(quote(source or "."), env, quote(bin))))
      local out = p:read("a")
      p:close()
      outputs[#outputs + 1] = out:match(": (%d+) leaves")
    end
    assert.equal("390216", outputs[1])
    assert.equal("390216", outputs[2])
  end)
end)
