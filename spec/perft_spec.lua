-- Perft from the standard start: Aart Bik's convention (a pass is a ply, a
-- finished game one leaf), the 8 x 8 word path against the generic path.
local bs = require "boardscript"
local perft = require "boardscript.perft"
local rules = require "boardscript.rules"

local TABLES = {
  [6] = { 4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912 },
  [8] = { 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284 },
  [10] = { 4, 12, 56, 244, 1396, 8200, 55180, 392268 },
  -- 16 x 16: counted by the vectorised wide path and by the cell-by-cell
  -- reference path (they agreed to depth 10; depth 11 is 221,497,428).
  [16] = { 4, 12, 56, 244, 1396, 8200, 55180, 392268, 3046196, 25179208 },
}

describe("perft", function()
  for size, counts in pairs(TABLES) do
    it(("matches the known table on %d x %d"):format(size, size), function()
      local g = bs.new_game("reversi", { size = size })
      for depth, expected in ipairs(counts) do
        assert.equal(expected, perft.count(g.rules, g.state, depth), "depth " .. depth)
      end
    end)
  end

  it("counts the same through the wide path and the reference path, with blocks and direction sets", function()
    local core = require "boardscript.core"
    local rng = core.rng(7)
    for _, size in ipairs { 4, 6, 9, 12, 16, 17, 20, 26 } do
      local b = core.board(size)
      local h = size // 2
      b:set(h, h, "white"); b:set(h + 1, h + 1, "white"); b:set(h, h + 1, "black"); b:set(h + 1, h, "black")
      for _ = 1, size // 2 do -- a few blocks away from the centre
        local r, c = rng:random(size), rng:random(size)
        if b:get(r, c) == "empty" and (math.abs(r - h) > 1 or math.abs(c - h) > 1) then b:set(r, c, "block") end
      end
      local depth = size <= 6 and 7 or 5
      for _, dirs in ipairs { { legal = "all", flip = "all" }, { legal = "orthogonal", flip = "all" },
                              { legal = "diagonal", flip = "orthogonal" } } do
        local wide = b:perft("black", depth, { legal = dirs.legal, flip = dirs.flip, generic = true })
        local reference = b:perft("black", depth, { legal = dirs.legal, flip = dirs.flip, reference = true })
        assert.equal(reference, wide, ("size %d %s/%s"):format(size, dirs.legal, dirs.flip))
      end
    end
  end)

  it("gives the same counts through the generic path on 8 x 8", function()
    local g = bs.new_game("reversi")
    for depth = 1, 8 do
      assert.equal(TABLES[8][depth], perft.count(g.rules, g.state, depth, { generic = true }))
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
      assert.equal(lua_perft(g, depth), perft.count(g.rules, g.state, depth), "depth " .. depth)
    end
  end)

  it("counts reversi in C, and the same over its hooks, on 6, 8 and 10", function()
    for _, size in ipairs { 6, 8, 10 } do
      local g = bs.new_game("reversi", { size = size })
      for depth = 1, 5 do
        local core_count, how = perft.count(g.rules, g.state, depth)
        assert.equal("core", how)
        local hook_count, how2 = perft.count(g.rules, g.state, depth, { hooks = true })
        assert.equal("hooks", how2)
        assert.equal(core_count, hook_count, ("size %d depth %d"):format(size, depth))
      end
    end
  end)

  it("counts finished games above the last ply as one leaf, or as none with terminal = 0", function()
    local source = os.getenv("BOARDSCRIPT_SOURCE") or "."
    local ttt = bs.new_game(rules.load(source .. "/lua/examples/tictactoe.lua"))
    -- X can first win on ply 5, in 1440 games; none ends earlier
    assert.equal(56160, (perft.count(ttt.rules, ttt.state, 6)))
    local without, how = perft.count(ttt.rules, ttt.state, 6, { terminal = 0 })
    assert.same({ 56160 - 1440, "hooks" }, { without, how })
    assert.equal(15120, (perft.count(ttt.rules, ttt.state, 5, { terminal = 0 })))
    -- reversi 4 x 4: terminal = 0 goes over the hooks, and finished games
    -- before ply 11 are the difference from the core's count
    local g = bs.new_game("reversi", { size = 4 })
    local core11 = perft.count(g.rules, g.state, 11)
    local hooks11, how11 = perft.count(g.rules, g.state, 11, { terminal = 0 })
    assert.equal("hooks", how11)
    local function finished_above(state, depth)
      if depth == 0 then return 0 end
      if g.rules:finished(state) then return 1 end
      local n = 0
      for _, choice in ipairs(bs.game.choices(g.rules, state)) do
        assert(bs.game.apply(g.rules, state, choice))
        n = n + finished_above(state, depth - 1)
        g.rules:undo(state)
      end
      return n
    end
    local early = finished_above(g.state, 11)
    assert.truthy(early > 0)
    assert.equal(core11 - early, hooks11)
  end)

  it("refuses --generic where the count goes over the hooks", function()
    local bin = assert(os.getenv("BOARDSCRIPT_BIN"), "BOARDSCRIPT_BIN is set by ctest")
    for _, extra in ipairs { "--hooks", "--terminal 0" } do
      local pipe = io.popen(("'%s' perft reversi 3 --generic %s 2>&1"):format(bin, extra))
      local out = pipe:read("a")
      local _, _, status = pipe:close()
      assert.equal(2, status)
      assert.equal(("boardscript: --generic: reversi is counted over its Lua hooks here (%s), not by the "
        .. "core's multi-word path\n"):format(extra), out)
    end
  end)

  it("counts a variant over its own hooks once it replaces one the core count vouches for", function()
    local reversi = require "boardscript.rules.reversi"
    local banned = rules.variant(reversi, { name = "banned" })
    function banned:moves(state)
      local kept = {}
      for _, m in ipairs(reversi.moves(self, state)) do
        local corner_ring = (m[1] == 3 or m[1] == 6) and (m[2] == 3 or m[2] == 6)
        if not corner_ring then kept[#kept + 1] = m end
      end
      return kept
    end
    local g = bs.new_game(banned)
    local leaves, how = perft.count(g.rules, g.state, 6)
    assert.equal("hooks", how)
    assert.is_true(leaves < 8200)
    -- Changing only the direction sets keeps the C count, which reads them.
    local orthogonal = rules.variant(reversi,
      { name = "orthogonal", legal_dirs = "orthogonal", flip_dirs = "orthogonal" })
    local og = bs.new_game(orthogonal)
    local c_leaves, c_how = perft.count(og.rules, og.state, 6)
    assert.equal("core", c_how)
    assert.equal(perft.count(og.rules, og.state, 6, { hooks = true }), c_leaves)
  end)

  it("counts over the hooks a variant that overrides only has_moves (can_pass and finished call it)", function()
    local reversi = require "boardscript.rules.reversi"
    local v = rules.variant(reversi, { name = "never-stuck" })
    function v:has_moves(state, player)
      return reversi.has_moves(self, state, player) and state.board:count("empty") > 2
    end
    assert.is_false(perft.in_core(v))
    local g = bs.new_game(v, { size = 4 })
    assert.equal("hooks", select(2, perft.count(g.rules, g.state, 6)))
  end)

  it("does not count blocks or othello in C: their passes and endings differ", function()
    for _, name in ipairs { "blocks", "othello", "othello-strict", "flipflop", "dots" } do
      assert.is_false(perft.in_core(rules.load(name)), name)
    end
    assert.is_true(perft.in_core(rules.load("reversi")))
  end)
  it("counts Breakthrough 8 x 8 written as a file of Lua hooks (the hook path's benchmark)", function()
    local source = os.getenv("BOARDSCRIPT_SOURCE") or "."
    local g = bs.new_game(source .. "/spec/support/breakthrough_hooks.lua")
    for depth, expected in ipairs({ 22, 484, 11132, 256036 }) do
      assert.same({ expected, "hooks" }, { perft.count(g.rules, g.state, depth) })
    end
    assert.equal(0, #g.state.history) -- restored
  end)
  it("asks a rule set file's finished once a node and names its moves in full only on the first calls", function()
    local source = os.getenv("BOARDSCRIPT_SOURCE") or "."
    local text = assert(io.open(source .. "/lua/examples/tictactoe.lua")):read("a")
    text = text:gsub("function tictactoe:finished%(state%)\n", "local finished_calls, text_calls = 0, 0\n"
      .. "function tictactoe:calls() return finished_calls, text_calls end\n"
      .. "function tictactoe:move_text(move, state)\n  text_calls = text_calls + 1\n"
      .. "  return getmetatable(self).__index.move_text(self, move, state)\nend\n"
      .. "%0  finished_calls = finished_calls + 1\n", 1)
    local path = os.tmpname() .. ".lua"
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
    local g = bs.new_game(rules.load(path))
    os.remove(path)
    assert.equal(15120, (perft.count(g.rules, g.state, 5)))
    local finished, texts = g.rules:calls()
    -- 1 + 9 + 72 + 504 + 3024 = 3610 positions: perft asks each once (its
    -- moves asks again: remembered), and play once more before it changes
    -- the position (9 + 72 + 504 + 3024 plays): 7219, where every hook
    -- asking it made 10829
    assert.equal(3610 + 3609, finished)
    -- the move_text of every move on the first 64 calls of moves, then none
    -- in a counting loop (one a call elsewhere: 3546 more here)
    assert.is_true(texts > 0 and texts <= 64 * 9, tostring(texts))
  end)
  it("names each integer-coded move a rule set file lists once, however often it is listed", function()
    local source = os.getenv("BOARDSCRIPT_SOURCE") or "."
    local text = assert(io.open(source .. "/spec/support/breakthrough_hooks.lua")):read("a")
    local count = "local text_calls, seen = 0, {}\n"
      .. "function bt:calls() return text_calls end\n%0  text_calls = text_calls + 1\n"
      .. "  assert(not seen[move], 'named twice') seen[move] = true\n"
    text = text:gsub("function bt:move_text%(move%)\n", count, 1)
    local path = os.tmpname() .. ".lua"
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
    local g = bs.new_game(rules.load(path))
    os.remove(path)
    assert.equal(11132, (perft.count(g.rules, g.state, 3)))
    -- 507 lists of 22 moves or so, their first 64 in full without it: at
    -- most the 8 x 8 x 3 steps there are
    assert.is_true(g.rules:calls() <= 8 * 8 * 3, tostring(g.rules:calls()))
  end)
end)
