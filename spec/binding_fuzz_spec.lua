-- Nonsense from Lua never crashes the core: every method of every userdata
-- type is called with random argument lists; each call either returns or
-- raises a Lua error (a crash would end this process and fail the test).
local core = require "boardscript.core"

local function pool()
  return {
    nil, true, false, 0, -1, 1, 2, 3, 4, 5, 8, 9, 17, 26, 27, 64, 65, 1000, -1000,
    3.5, -0.0, 1e300, -1e300, 0 / 0, math.huge, math.mininteger, math.maxinteger,
    "", "black", "white", "empty", "block", "all", "none", "diagonal", "orthogonal", "n", "x",
    {}, { 1 }, { 1, 2 }, { 1, 1, 1, 2 }, { 2, 1, 1, 1 }, { 9, 9, 9, 9 }, { "n", "se" }, { "up" },
    { legal = "all", flip = { "n" }, generic = true }, { tt_mb = 1, nodes = 10 },
    { tt_mb = 0 }, { tt_mb = 1e9 }, { nodes = -5 }, { time = 0.001 },
    print, core.board(4), core.board(8), core.dots(2, 2), core.dots(1, 1), core.rng(1),
  }
end

-- perft with a random depth could run for hours; its misuse is in core_spec.
local SLOW = { perft = true }

local function methods_of(object)
  local index = getmetatable(object).__index
  local names = {}
  for name, f in pairs(index) do
    if type(f) == "function" and not SLOW[name] then names[#names + 1] = name end
  end
  table.sort(names)
  return names
end

describe("the binding under random arguments", function()
  local objects = {
    board8 = function() return core.board(8) end,
    board5 = function()
      local b = core.board(5)
      b:set(2, 2, "black"); b:set(2, 3, "white"); b:set(3, 3, "block")
      return b
    end,
    dots = function() return core.dots(2, 3) end,
    rng = function() return core.rng(7) end,
  }
  if core.dots_solver then
    objects.solver = function() return core.dots_solver { tt_mb = 1 } end
  end

  for kind, make in pairs(objects) do
    it("survives 3000 random calls on a " .. kind, function()
      local rng = core.rng(#kind)
      local values = pool()
      local object = make()
      local names = methods_of(object)
      local raised, returned = 0, 0
      for _ = 1, 3000 do
        local name = names[rng:random(#names)]
        local args = {}
        local count = rng:random(0, 5)
        for i = 1, count do args[i] = values[rng:random(#values)] end
        local ok = pcall(object[name], object, table.unpack(args, 1, count))
        if ok then returned = returned + 1 else raised = raised + 1 end
        if rng:random(50) == 1 then object = make() end
      end
      assert.is_true(raised > 0 and returned > 0)
      -- Methods called on the wrong receiver raise too.
      for _, name in ipairs(names) do
        assert.is_false((pcall(object[name], {}, 1, 1)))
      end
    end)
  end

  it("survives random calls to the module's constructors", function()
    local rng = core.rng(99)
    local values = pool()
    for name, f in pairs(core) do
      if type(f) == "function" then
        for _ = 1, 300 do
          local args, count = {}, rng:random(0, 3)
          for i = 1, count do args[i] = values[rng:random(#values)] end
          pcall(f, table.unpack(args, 1, count))
        end
      end
      assert.is_string(name)
    end
  end)
end)
