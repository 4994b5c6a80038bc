-- The misuse matrix of boardscript.core (issue 11): every function of the
-- module and every method and metamethod of every userdata type it creates,
-- each argument in turn replaced by each bad value (spec/support/
-- misuse_matrix.lua), called directly and again from inside a coroutine. A value the
-- argument does not accept must raise "bad argument #N to 'name'" and leave
-- the object as it was and usable; a function or method the matrix does not
-- list fails the spec. Then closed objects, and callbacks that raise, yield
-- or call back into their own object.
-- BOARDSCRIPT_MISUSE_REDUCED=1 keeps one bad value of each group (valgrind).
local core = require "boardscript.core"
local matrix = require "support.misuse_matrix"

teardown(matrix.cleanup)

local reduced = os.getenv("BOARDSCRIPT_MISUSE_REDUCED")
reduced = reduced ~= nil and reduced ~= "" and reduced ~= "0"

-- Calls go through a local named after the function, so messages read
-- "bad argument #N to 'name'" with N counting the receiver as #1.
local callers = {}
local function caller(name)
  if not callers[name] then
    callers[name] = assert(load(("return function(%s, ...) return %s(...) end"):format(name, name)))()
  end
  return callers[name]
end

local function fn_of(entry)
  if entry.of == "module" then return core[entry.name] end
  local mt = getmetatable(matrix.types[entry.of].make())
  return rawget(mt, entry.name) or mt.__index[entry.name]
end

local function valid(kind)
  if type(kind.valid) == "function" then return kind.valid() end
  return kind.valid
end

-- The expected outcome of `value` (a class entry) as argument `pos` of kind `kind`:
-- "ok", "closed" (an error saying so) or the argument number the error names.
local function expect(kind, value, pos)
  local mt = getmetatable(value.value)
  if value.closed and kind.meta and type(mt) == "table" and rawget(mt, "__name") == kind.meta
      and not kind.closed_ok then
    return "closed"
  end
  if kind.ok(value.value) then return "ok" end
  return kind.errpos and kind.errpos(value.value) or pos
end

local totals = { cases = 0, raised = 0, accepted = 0 }

-- Runs every bad value in every argument position of one matrix entry.
local function run_entry(entry)
  local t = entry.of ~= "module" and matrix.types[entry.of] or nil
  local kinds = {}
  if t then
    kinds[1] = entry.self or matrix.kind.udata(entry.of, nil, entry.closed_ok)
  end
  for _, kind in ipairs(entry.args) do kinds[#kinds + 1] = kind end
  local f, call = fn_of(entry), caller(entry.name:gsub("^__", "mm_"))
  local label = (entry.signature or entry.name) .. (t and " of a " .. t.short or "")
  local object, twin
  local function fresh()
    if not t then return end
    object = t.make()
    if entry.of == "boardscript.rng" then twin = t.make() end
  end
  fresh()
  for case = 1, 2 * #kinds do
    local pos = (case + 1) // 2
    for _, value in ipairs(matrix.values(reduced)) do
      local args = {}
      for i, kind in ipairs(kinds) do args[i] = valid(kind) end
      if t then args[1] = object end
      args[pos] = value.value
      local outcome = expect(kinds[pos], value, pos)
      local before = t and t.state(object)
      local results
      if case % 2 == 1 then
        results = table.pack(pcall(call, f, table.unpack(args, 1, #kinds)))
      else
        local co = coroutine.wrap(function(...) return table.pack(pcall(call, f, ...)) end)
        results = co(table.unpack(args, 1, #kinds))
      end
      local ok, err = results[1], results[2]
      local where = ("%s, argument #%d = %s"):format(label, pos, value.name)
      totals.cases = totals.cases + 1
      if outcome == "ok" then
        if not ok then
          assert(value.trap and err == "trap", ("%s: accepted, but raised: %s"):format(where, tostring(err)))
        elseif entry.fail_ok and results[2] == nil and results.n >= 2 then
          assert(type(results[3]) == "string", where .. ": nil without a message")
        end
        totals.accepted = totals.accepted + 1
        fresh()
      else
        assert(not ok, ("%s: returned instead of raising"):format(where))
        assert(type(err) == "string", where .. ": the error is not a string")
        if value.trap and err == "trap" then -- luacheck: ignore 542
          -- the table's own error, raised while the binding read it: fine
        elseif outcome == "closed" then
          assert(err:find("closed", 1, true), ("%s: %s"):format(where, err))
        else
          local fragment = ("bad argument #%d to '%s'"):format(outcome, entry.name:gsub("^__", "mm_"))
          if not err:find(fragment, 1, true) then
            -- a receiver of the wrong type: "calling 'name' on bad self" is also a clear message
            error(("%s: expected %q in: %s"):format(where, fragment, err:sub(1, 200)))
          end
          assert(err:find("%(.+%)"), where .. ": no reason in: " .. err:sub(1, 200))
        end
        totals.raised = totals.raised + 1
        if t then
          assert(t.state(object) == before, where .. ": the failed call changed the object")
          t.probe(object)
          if twin then
            twin:random(1000)
            assert(object:random(1e9) == twin:random(1e9), where .. ": the failed call changed the generator")
          end
        end
      end
    end
  end
end

describe("the misuse matrix of boardscript.core", function()
  it("lists every function of the module and every method and metamethod of every type", function()
    local listed = {}
    for _, entry in ipairs(matrix.functions) do listed[entry.of .. "." .. entry.name] = true end
    local missing = {}
    for name, f in pairs(core) do
      if type(f) == "function" and not listed["module." .. name] then missing[#missing + 1] = "core." .. name end
    end
    -- every userdata type: the registry's boardscript.* metatables
    for name, mt in pairs(debug.getregistry()) do
      if type(name) == "string" and name:match("^boardscript%.") and type(mt) == "table" then
        local t = matrix.types[name]
        if not t then
          missing[#missing + 1] = "the type " .. name
        else
          assert.equal(mt, getmetatable(t.make()))
          for method, f in pairs(mt.__index) do
            if type(f) == "function" and not listed[name .. "." .. method] then
              missing[#missing + 1] = name .. ":" .. method
            end
          end
          for method, f in pairs(mt) do
            if type(f) == "function" and not listed[name .. "." .. method] then
              missing[#missing + 1] = name .. "." .. method
            end
          end
        end
      end
    end
    table.sort(missing)
    assert.are.same({}, missing)
    for _, entry in ipairs(matrix.functions) do
      assert.is_function(fn_of(entry), entry.of .. "." .. entry.name .. " is listed but does not exist")
    end
  end)

  it("has valid argument lists (each call works with them)", function()
    for _, entry in ipairs(matrix.functions) do
      local args = {}
      if entry.of ~= "module" then args[1] = matrix.types[entry.of].make() end
      for _, kind in ipairs(entry.args) do args[#args + 1] = valid(kind) end
      local ok, err = pcall(fn_of(entry), table.unpack(args, 1, #args))
      assert(ok, (entry.signature or entry.name) .. ": " .. tostring(err))
    end
  end)

  for _, entry in ipairs(matrix.functions) do
    local t = matrix.types[entry.of]
    it(("%s%s: every bad value in every argument"):format(t and t.short .. ":" or "core.",
      entry.signature or entry.name), function()
      run_entry(entry)
    end)
  end

  it("covered them all", function()
    assert.is_true(totals.cases > 1000 or reduced and totals.cases > 500)
    if os.getenv("BOARDSCRIPT_MISUSE_VERBOSE") then
      io.stderr:write(("misuse matrix: %d functions and methods, %d cases, %d raised, %d accepted\n"):format(
        #matrix.functions, totals.cases, totals.raised, totals.accepted))
    end
  end)
end)

-- The valid argument list of a matrix entry, with `object` as the receiver.
local function valid_args(entry, object)
  local args = { object }
  for _, kind in ipairs(entry.args) do args[#args + 1] = valid(kind) end
  return args
end

describe("closed objects", function()
  for name, t in pairs(matrix.types) do
    local mt = getmetatable(t.make())
    if mt.__close then
      it(("a closed %s raises 'closed' from every method, and closing twice is safe"):format(t.short), function()
        local kept
        do
          local object <close> = t.make()
          kept = object
        end
        assert.matches("closed", tostring(kept))
        for _, entry in ipairs(matrix.functions) do
          if entry.of == name and not entry.closed_ok and not entry.name:match("^__") then
            local args = valid_args(entry, kept)
            local ok, err = pcall(caller(entry.name), fn_of(entry), table.unpack(args, 1, #args))
            assert(not ok, entry.name .. " on a closed " .. t.short .. " returned")
            assert(err:find("(attempt to use a closed " .. t.short .. ")", 1, true), err)
          end
        end
        -- __gc and __close again, in any order, by hand (users can reach the metatable)
        mt.__gc(kept)
        mt.__close(kept)
        mt.__gc(kept)
        local fresh = t.make()
        mt.__gc(fresh)
        mt.__gc(fresh)
        assert.matches("closed", tostring(fresh))
        collectgarbage("collect")
      end)
    end
  end

  it("a closed board is refused where a board is an argument", function()
    local b = matrix.board()
    getmetatable(b).__close(b)
    local s <close> = core.searcher { tt_mb = 1 }
    for _, call in ipairs {
      function() return s:search(b, "black") end,
      function() return s:evaluate(b, "black") end,
      function() return core.playout(b, "black", core.rng(1)) end,
      function() return b:clone() end,
    } do
      local ok, err = pcall(call)
      assert.is_false(ok)
      assert.is_truthy(err:match("bad argument #1 to '%w+' %(attempt to use a closed board%)")
        or err:match("calling 'clone' on bad self %(attempt to use a closed board%)"), err)
    end
    assert.is_true(b == matrix.board()) -- __eq compares the cells, closed or not
  end)

  it("types without resources have no __gc or __close", function()
    assert.is_nil(getmetatable(core.dots(1, 1)).__gc)
    assert.is_nil(getmetatable(core.rng(1)).__close)
  end)
end)

-- A board where black has moves, for the searcher's callbacks.
local function position()
  return matrix.board()
end

local function raises(fragment, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "did not raise: " .. fragment)
  assert(tostring(err):find(fragment, 1, true), ("expected %q in %s"):format(fragment, tostring(err)))
  return err
end

describe("learned evaluations", function()
  it("the searcher's evaluator option: every other value, a closed one or another size raises naming it", function()
    local s <close> = core.searcher { tt_mb = 1 }
    for _, method in ipairs { "search", "solve" } do
      local call = caller(method)
      for _, value in ipairs(matrix.values(reduced)) do
        local ok, err = pcall(call, s[method], s, matrix.board(), "black", { depth = 1, evaluator = value.value })
        local where = ("%s with evaluator = %s"):format(method, value.name)
        local mt = getmetatable(value.value)
        local is_evaluator = type(mt) == "table" and rawget(mt, "__name") == "boardscript.evaluator"
        if value.value == nil or (is_evaluator and not value.closed) then
          assert(ok, where .. ": " .. tostring(err))
        else
          assert(not ok, where .. ": returned")
          local fragment = ("bad argument #4 to '%s' (field 'evaluator': "):format(method)
          assert(err:find(fragment, 1, true), where .. ": " .. err)
          if value.closed and is_evaluator then assert(err:find("closed", 1, true), where .. ": " .. err) end
        end
      end
      local ok, err = pcall(call, s[method], s, matrix.board(), "black", { evaluator = core.evaluator { size = 6 } })
      assert.is_false(ok)
      assert.matches("bad argument #4 to '" .. method .. "' (field 'evaluator': an evaluation of 6 x 6 boards for a "
        .. "4 x 4 board)", err, 1, true)
    end
    -- the searcher is usable after all that
    assert.is_table((s:search(matrix.board(), "black", { depth = 2, evaluator = core.evaluator { size = 4 } })))
    assert.is_table((s:search(matrix.board(), "black", { depth = 2 })))
  end)

  it("an evaluator cannot close while a trainer uses it; it can after the trainer closes", function()
    local ev = core.evaluator { size = 4 }
    local tr = core.trainer(ev)
    local other = core.trainer(ev)
    local mt = getmetatable(ev)
    for _, close in ipairs { ev.close, mt.__gc, mt.__close } do
      raises("cannot close an evaluator a trainer is fitting", close, ev)
      assert.equal("integer", math.type(ev:evaluate(matrix.board(), "black")))
    end
    tr:close()
    raises("cannot close an evaluator a trainer is fitting", ev.close, ev) -- `other` still uses it
    getmetatable(other).__close(other)
    getmetatable(other).__gc(other) -- twice: the evaluator's count of users is not taken twice
    tr:close()
    ev:close()
    assert.matches("closed", tostring(ev))
    raises("closed", ev.info, ev)
    -- a trainer and its evaluator collected together (the trainer goes first)
    for _ = 1, 3 do
      local t = core.trainer(core.evaluator { size = 4 })
      t:add(matrix.board(), "black", 1)
    end
    collectgarbage("collect")
  end)
end)

describe("the searcher's evaluate callback", function()
  local function search(s, evaluate, depth)
    return s:search(position(), "black", { depth = depth or 3, evaluate = evaluate })
  end
  local function usable(s)
    local move, value = search(s, function() return 7 end)
    assert.is_table(move)
    assert.equal(7, math.abs(value)) -- no value of an earlier evaluation is reused
    assert.equal("integer", math.type(s:evaluate(position(), "black")))
  end

  it("raising: the error comes out as it was raised, the searcher is usable", function()
    local s <close> = core.searcher { tt_mb = 1 }
    for _ = 1, 20 do
      raises("boom", search, s, function() error("boom") end)
      local token = {}
      local ok, err = pcall(search, s, function() error(token) end)
      assert.is_false(ok)
      assert.equal(token, err)
      usable(s)
    end
  end)

  it("yielding: a clean error, from inside a coroutine too", function()
    local s <close> = core.searcher { tt_mb = 1 }
    raises("attempt to yield", search, s, function() coroutine.yield(1) end)
    local co = coroutine.create(function() return search(s, function() coroutine.yield(1) end) end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.matches("attempt to yield across a C%-call boundary", err)
    assert.equal("dead", coroutine.status(co))
    -- a coroutine of its own inside the callback may yield
    local move = search(s, function()
      local inner = coroutine.wrap(function() coroutine.yield(3) return 5 end)
      return inner() + inner()
    end)
    assert.is_table(move)
    usable(s)
  end)

  it("searching from inside a coroutine works", function()
    local s <close> = core.searcher { tt_mb = 1 }
    local co = coroutine.wrap(function() return search(s, function(b) return b:count("black") end) end)
    assert.is_table(co())
  end)

  it("calling back into the same searcher: reads work, changes raise 'busy'", function()
    local s <close> = core.searcher { tt_mb = 1 }
    local calls = 0
    local move = search(s, function(b, player)
      calls = calls + 1
      assert.is_table(s:weights())
      assert.is_table(s:position(b, player))
      return s:evaluate(b, player)
    end)
    assert.is_table(move)
    assert.is_true(calls > 0)
    for _, f in ipairs {
      function() return s:search(position(), "black", { depth = 1 }) end,
      function() return s:solve(position(), "black") end,
      function() return s:clear() end,
      function() return s:set_weights { discs = 1 } end,
    } do
      raises("searcher is busy", search, s, function() f() end)
      usable(s)
    end
    raises("cannot close a searcher while it is searching", search, s, function() s:close() end)
    raises("cannot close a searcher while it is searching", search, s, function() getmetatable(s).__gc(s) end)
    raises("cannot close a searcher while it is searching", search, s, function() getmetatable(s).__close(s) end)
    usable(s)
    -- from a coroutine inside the callback too
    raises("searcher is busy", search, s, function() coroutine.wrap(function() s:clear() end)() end)
    usable(s)
  end)

  it("changing the board being searched, or collecting garbage, is safe", function()
    local s <close> = core.searcher { tt_mb = 1 }
    local b = position()
    local move = s:search(b, "black", { depth = 3, evaluate = function()
      b:set(1, 1, "block")
      b:play("white", 4, 4)
      collectgarbage("collect")
      return 0
    end })
    assert.is_table(move)
    assert.equal("block", b:get(1, 1))
    -- a board closed while it is searched: the search has its own copy
    local c = position()
    move = s:search(c, "black", { depth = 2, evaluate = function() getmetatable(c).__close(c) return 0 end })
    assert.is_table(move)
    usable(s)
  end)

  it("a value that is no number raises", function()
    local s <close> = core.searcher { tt_mb = 1 }
    for _, bad in ipairs { 0 / 0, "x", {}, false } do
      raises("evaluate must return a number", search, s, function() return bad end)
    end
    usable(s)
  end)

  it("another searcher inside the callback is fine", function()
    local s <close> = core.searcher { tt_mb = 1 }
    local other <close> = core.searcher { tt_mb = 1 }
    local move = search(s, function(b, player)
      local _, value = other:search(b, player, { depth = 1 })
      return value
    end, 2)
    assert.is_table(move)
  end)
end)

describe("the dots solver's progress callback", function()
  -- 4 x 4 takes millions of nodes: a call stops at the first poll (every
  -- 4096 nodes) when the callback raises, else at its node budget (`nodes`).
  local LIMIT = 40000
  local function opts(progress)
    return { progress = progress, progress_interval = 0, nodes = LIMIT }
  end
  local function big() return core.dots(4, 4) end
  -- The solver still gives what a fresh one gives.
  local function usable(s)
    local fresh <close> = core.dots_solver { tt_mb = 1 }
    for _, d in ipairs { core.dots(1, 2), core.dots(2, 2) } do
      assert.equal(fresh:value(d), (s:value(d)))
      assert.same({ fresh:best(d) }, { s:best(d) })
    end
  end

  it("is called at every poll with progress_interval = 0, from a constructor's options too", function()
    local calls, last = 0, 0
    local s <close> = core.dots_solver { tt_mb = 1, progress_interval = 0, nodes = LIMIT,
      progress = function(nodes, lo, hi)
        calls = calls + 1
        assert.is_true(nodes >= last and lo <= hi)
        last = nodes
      end }
    local value, why, nodes = s:value(big())
    assert.is_nil(value)
    assert.equal("stopped", why)
    assert.is_true(nodes >= LIMIT and calls >= LIMIT // 4096 - 1)
    -- a call's own options win
    local own = 0
    calls = 0
    assert.is_nil((s:value(big(), opts(function() own = own + 1 end))))
    assert.is_true(own > 5)
    assert.equal(0, calls)
  end)

  it("raising: the error comes out, the solver is usable", function()
    local s <close> = core.dots_solver { tt_mb = 1 }
    for _ = 1, 10 do
      raises("boom", s.value, s, big(), opts(function() error("boom") end))
      raises("boom", s.best, s, big(), opts(function() error("boom") end))
      local d = big()
      raises("boom", d.solve, d, opts(function() error("boom") end))
      raises("boom", d.best_move, d, opts(function() error("boom") end))
      local token = {}
      local ok, err = pcall(s.value, s, big(), opts(function() error(token) end))
      assert.is_false(ok)
      assert.equal(token, err)
    end
    usable(s)
  end)

  it("yielding: a clean error, from inside a coroutine too", function()
    local s <close> = core.dots_solver { tt_mb = 1 }
    local co = coroutine.create(function()
      return s:value(big(), opts(function() coroutine.yield() end))
    end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.matches("attempt to yield across a C%-call boundary", err)
    usable(s)
  end)

  it("calling back into the same solver raises 'busy'; nodes can be read", function()
    local s <close> = core.dots_solver { tt_mb = 1 }
    raises("solver is busy", s.value, s, big(), opts(function() s:value(core.dots(1, 1)) end))
    raises("solver is busy", s.value, s, big(), opts(function() s:best(core.dots(1, 1)) end))
    raises("cannot close a solver while it is solving", s.value, s, big(), opts(function() s:close() end))
    raises("cannot close a solver while it is solving", s.value, s, big(),
      opts(function() getmetatable(s).__gc(s) end))
    raises("cannot close a solver while it is solving", s.value, s, big(),
      opts(function() getmetatable(s).__close(s) end))
    local seen = 0
    assert.is_nil((s:value(big(), opts(function() seen = s:nodes() end))))
    assert.is_true(seen > 0)
    -- changing the position being solved: the solver works on its own copy
    local e = big()
    assert.is_nil((s:value(e, opts(function() if e:open_count() > 0 then e:draw(e:open_edges()[1]) end end))))
    assert.is_true(e:open_count() < big():open_count())
    usable(s)
  end)
end)
