-- Multi-ProbCut: the parameters an evaluator carries (ev:set_mpc, ev:mpc,
-- src/lua/leval.c), their text in an evaluation file (boardscript.mpc,
-- boardscript.evalfile), their fit (boardscript.train.mpc), and the
-- searcher's cuts with them on the 8 x 8 word path and the generic path
-- (src/core/search_impl.h, mpc_probe).
local core = require "boardscript.core"
local evalfile = require "boardscript.evalfile"
local mpc = require "boardscript.mpc"
local fit = require "boardscript.train.mpc"
local support = require "support.host"

local SHIPPED = (os.getenv("BOARDSCRIPT_SOURCE") or ".") .. "/lua/boardscript/evals/"

-- Parameters for every depth 3 .. `top` of an evaluation of `phases`
-- phases: slope 1, offset 0, this sigma.
local function flat(phases, top, sigma)
  local params = {}
  for d = 3, top do
    local e = { shallow = mpc.shallow(d), slope = {}, offset = {}, sigma = {} }
    for p = 1, phases do e.slope[p], e.offset[p], e.sigma[p] = 1, 0, sigma end
    params[d] = e
  end
  return params
end

local function start(n)
  local b = core.board(n)
  local h = n // 2
  b:set(h, h, "white"); b:set(h + 1, h + 1, "white"); b:set(h, h + 1, "black"); b:set(h + 1, h, "black")
  return b
end

-- A position a few random plies from the start.
local function position(n, seed, plies)
  local b, player, rng = start(n), "black", core.rng(seed)
  for _ = 1, plies do
    local moves = b:moves(player)
    if #moves > 0 then
      local m = moves[rng:random(#moves)]
      b:play(player, m[1], m[2])
    end
    player = player == "black" and "white" or "black"
  end
  return b, player
end

describe("an evaluator's Multi-ProbCut parameters", function()
  it("are set, read back, copied and dropped by a fit of the weights", function()
    local ev = core.evaluator { size = 6 }
    assert.is_nil(ev:mpc())
    local phases = ev:info().phases
    local params = flat(phases, 8, 250)
    params[5].slope[2], params[5].offset[2] = 1.125, -37
    ev:set_mpc(params)
    local got = ev:mpc()
    assert.same(params, got)
    assert.same(params, ev:copy():mpc())
    ev:set_mpc(nil)
    assert.is_nil(ev:mpc())
    ev:set_mpc(params)
    local tr = core.trainer(ev)
    tr:add(start(6), "black", 2)
    tr:fit { iterations = 1 }
    assert.is_nil(ev:mpc(), "a fit keeps parameters fitted for the old weights")
  end)

  it("refuse what is not a parameter, naming it, and leave the old ones", function()
    local ev = core.evaluator { size = 6 }
    local phases = ev:info().phases
    ev:set_mpc(flat(phases, 4, 100))
    local cases = {
      { function(p) p[4].shallow = 4 end, "params%[4%]%.shallow must be an integer from 0 to 3" },
      { function(p) p[3].sigma = { 1 } end, "params%[3%]%.sigma must be a table of " .. phases .. " numbers" },
      { function(p) p[3].slope[1] = "x" end, "params%[3%]%.slope%[1%] must be a number" },
      { function(p) p[4].slope[2] = 0 end, "params%[4%]%.slope%[2%] must be a number from 0%.001" },
      { function(p) p[3] = 7 end, "params%[3%] must be a table" },
    }
    for _, case in ipairs(cases) do
      local p = flat(phases, 4, 100)
      case[1](p)
      local ok, err = pcall(ev.set_mpc, ev, p)
      assert.falsy(ok)
      assert.truthy(tostring(err):find(case[2]), err)
      assert.same(flat(phases, 4, 100), ev:mpc())
    end
    assert.has_error(function() ev:set_mpc(5) end)
  end)

  it("are written in an evaluation file's meta as the fitted depths and read back", function()
    local ev = core.evaluator { size = 6 }
    local phases = ev:info().phases
    local params = mpc.extend(flat(phases, 6, 300))
    assert.equal(2, params[6].shallow)
    assert.equal(6, params[12].shallow)
    -- depth 12 (shallow 6, gap 6) from the fitted depth 6 (shallow 2, gap
    -- 4): the shallow search 4 plies deeper, sigma x 0.862 ^ 2 x (6 / 4) ^ 0.164
    assert.equal(math.floor(300 * 0.862 ^ 2 * 1.5 ^ 0.164 + 0.5), params[12].sigma[1])
    -- past a shallow depth of 12 only the gap counts: 28 (14) from 6 (2)
    assert.equal(14, params[28].shallow)
    assert.equal(math.floor(300 * 0.862 ^ 5 * (14 / 4) ^ 0.164 + 0.5), params[28].sigma[1])
    ev:set_mpc(params)
    local dir, cleanup = support.scratch_dir()
    local path = dir .. "/m.bse"
    evalfile.save(path, ev, { rules = "reversi", size = 6 })
    local back, meta = evalfile.load(path)
    assert.same(params, back:mpc())
    local depths = {}
    for d in meta.mpc:gmatch("(%d+)/%d+ ") do depths[#depths + 1] = tonumber(d) end
    assert.same({ 3, 4, 5, 6 }, depths)
    -- a bad mpc line in a file is refused with the file's name
    local text = support.slurp(path)
    local bad = dir .. "/bad.bse"
    local core_ev = core.evaluator { size = 6 }
    support.spit(bad, core_ev:save("rules=reversi\nsize=6\nmpc=3/1 1,1 0 100"))
    local ok, err = pcall(evalfile.load, bad)
    assert.falsy(ok)
    assert.truthy(tostring(err):find("cannot load " .. bad .. ": its Multi%-ProbCut parameters %(mpc=%): depth 3: "
      .. "2 slope values for " .. phases .. " phases"), err)
    assert.truthy(text:find("\nmpc=3/1 ", 1, true))
    cleanup()
  end)
end)

describe("the Multi-ProbCut fit", function()
  it("draws the line through the points of each depth and its deviation", function()
    local rows, rng = {}, core.rng(3)
    for i = 1, 200 do
      local values = {}
      for d = 0, 6 do values[d] = 0 end
      local x = rng:random(-2000, 2000)
      values[1], values[2], values[3] = x, x, 0
      -- depth 4 (shallow 2): 2x + 50, off by +-30; depth 3 from depth 1 exactly x
      values[4] = 2 * x + 50 + ((i // 4) % 2 == 0 and 30 or -30)
      values[3] = x
      rows[i] = { phase = i % 4 + 1, values = values }
    end
    local p = fit.parameters(rows, 4, 4)
    assert.equal(1, p[3].shallow)
    assert.near(1, p[3].slope[1], 1e-3)
    assert.equal(1, p[3].sigma[1]) -- no error: the least sigma
    assert.near(2, p[4].slope[2], 0.01)
    assert.near(50, p[4].offset[2], 1)
    assert.near(30, p[4].sigma[2], 1)
    assert.truthy(p[60], "the deeper depths are made from the fitted ones")
    -- points of a finished game are left out; too few points give no line
    for _, row in ipairs(rows) do row.values[4] = 640000 end
    assert.is_nil(fit.parameters(rows, 4, 4)[4])
  end)
end)

describe("the searcher with Multi-ProbCut", function()
  for _, case in ipairs { { n = 8, file = "reversi-8.bse", depth = 7, path = "the word path" },
                          { n = 6, file = "reversi-6.bse", depth = 6, path = "the generic path" } } do
    it("cuts by the parameters on " .. case.path .. ", only when they are there and not turned off", function()
      local ev = evalfile.load(SHIPPED .. case.file)
      ev:set_mpc(nil)
      local phases = ev:info().phases
      local searcher = core.searcher {}
      local total = { plain = 0, tight = 0, wide = 0, narrow = 0 }
      for seed = 1, 4 do
        local b, player = position(case.n, seed, 10)
        local function search(e, width)
          searcher:clear()
          local move, value, info = searcher:search(b, player, { depth = case.depth, endgame = 0, evaluator = e,
                                                                 mpc = width })
          return move, value, info.nodes
        end
        local m0, v0, plain = search(ev)
        local tight, wide = ev:copy(), ev:copy()
        tight:set_mpc(flat(phases, 60, 100))
        wide:set_mpc(flat(phases, 60, 10000)) -- 100 discs: a cut is never predicted
        local m1, v1, off = search(tight, false)
        assert.same({ m0, v0, plain }, { m1, v1, off })
        local _, _, cut = search(tight)
        local m2, v2, probed = search(wide)
        assert.same({ m0, v0 }, { m2, v2 })
        assert.truthy(probed > plain, "the shallow searches are nodes too")
        total.plain, total.tight, total.wide = total.plain + plain, total.tight + cut, total.wide + probed
        -- a narrower width cuts more: over the positions, not at each one, where a cut that changes a
        -- value can reorder what follows by a few nodes
        local _, _, narrow = search(tight, 0.5)
        total.narrow = total.narrow + narrow
      end
      assert.truthy(total.narrow < total.tight, ("%d nodes at width 0.5, %d at 1.5"):format(total.narrow,
        total.tight))
      assert.truthy(total.tight < total.plain * 0.8, ("%d nodes with cuts, %d without"):format(total.tight,
        total.plain))
    end)
  end

  it("refuses an mpc option that is not a boolean or a width", function()
    local searcher = core.searcher {}
    assert.has_error(function() searcher:search(start(8), "black", { depth = 2, mpc = "x" }) end)
    local ok, err = pcall(searcher.search, searcher, start(8), "black", { depth = 2, mpc = 0 })
    assert.falsy(ok)
    assert.truthy(tostring(err):find("mpc", 1, true), err)
  end)
end)
