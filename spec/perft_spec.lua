-- Perft from the standard start: Aart Bik's convention (a pass is a ply, a
-- finished game one leaf), the 8 x 8 word path against the generic path.
local bs = require "boardscript"

local TABLES = {
  [6] = { 4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912 },
  [8] = { 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284 },
  [10] = { 4, 12, 56, 244, 1396, 8200, 55180, 392268 },
}

describe("perft", function()
  for size, counts in pairs(TABLES) do
    it(("matches the known table on %d x %d"):format(size, size), function()
      local g = bs.new_game("reversi", { size = size })
      for depth, expected in ipairs(counts) do
        assert.equal(expected, g.rules:perft(g.state, depth), "depth " .. depth)
      end
    end)
  end

  it("gives the same counts through the generic path on 8 x 8", function()
    local g = bs.new_game("reversi")
    for depth = 1, 8 do
      assert.equal(TABLES[8][depth], g.rules:perft(g.state, depth, { generic = true }))
    end
  end)

  it("agrees with a perft written in Lua over the rule hooks", function()
    local function lua_perft(g, depth)
      if depth == 0 then return 1 end
      local moves = g:moves()
      if #moves == 0 then
        if g:finished() then return 1 end
        g:pass()
        local n = lua_perft(g, depth - 1)
        g:undo()
        return n
      end
      local total = 0
      for _, m in ipairs(moves) do
        g:play(m)
        total = total + lua_perft(g, depth - 1)
        g:undo()
      end
      return total
    end
    local g = bs.new_game("blocks", { size = 6 })
    g.state.board:set(1, 1, "block")
    g.state.board:set(5, 2, "block")
    for depth = 1, 6 do
      assert.equal(lua_perft(g, depth), g.rules:perft(g.state, depth), "depth " .. depth)
    end
  end)
end)
