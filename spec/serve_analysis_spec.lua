-- boardscript serve's analysis (GET /api/games/ID/analysis, Store:analysis
-- in boardscript.serve.study): the value of every legal move, driven
-- through the API over a store (no sockets; the job runs in this process,
-- as in spec/serve_spec.lua), then once over HTTP through a worker.
local core = require "boardscript.core"
local host = require "support.host"
local json = require "dkjson"
local api = require "boardscript.serve.api"
local games = require "boardscript.serve.games"
local limits = require "boardscript.limits"
local players = require "boardscript.players"
local study = require "boardscript.serve.study"

-- Under emulation (scripts/cross-test) or the sanitizers everything is
-- slower: an analysis that deepens while its time allows may stop sooner.
local SLOW = os.getenv("BOARDSCRIPT_EMULATED") or os.getenv("BOARDSCRIPT_SANITIZED")

local function call(store, method, path, body)
  local status, content_type, text = api.handle(store, "PAGE", method, path, {}, body)
  assert.matches("^application/json", content_type)
  return status, json.decode(text)
end

-- A new game of `rules` (both sides human): its view.
local function new_game(store, rules, size)
  local status, view = call(store, "POST", "/api/games", json.encode { rules = rules, size = size })
  assert.equal(201, status, view.error)
  return view
end

-- Plays `n` moves chosen with `rng` among the view's moves (a pass where it
-- is the only choice): the view after them.
local function play_random(store, view, n, rng, keep_going)
  for _ = 1, n do
    if view.finished or (keep_going and not keep_going(view)) then break end
    local status
    if #view.moves == 0 then
      status, view = call(store, "POST", ("/api/games/%s/pass"):format(view.id))
    else
      status, view = call(store, "POST", ("/api/games/%s/move"):format(view.id),
        json.encode { move = view.moves[rng:random(#view.moves)] })
    end
    assert.equal(200, status, view.error)
  end
  return view
end

local function analysis(store, id)
  return call(store, "GET", ("/api/games/%s/analysis"):format(id))
end

-- The texts of the moves an analysis lists, as a set.
local function listed(a)
  local set = {}
  for _, m in ipairs(a.moves) do
    assert.is_nil(set[m.move], "listed twice: " .. m.move)
    set[m.move] = true
  end
  return set
end

-- The view's legal moves as a set, with "pass" where passing is a choice.
local function legal(view)
  local set = {}
  for _, m in ipairs(view.moves) do set[m] = true end
  if view.can_pass then set.pass = true end
  return set
end

-- The shape every answer has: the legal moves, best first, numbers, the
-- position's value the best one's, the side to move the view's.
local function check_shape(a, view)
  assert.same(legal(view), listed(a))
  assert.is_string(a.by)
  assert.is_string(a.unit)
  assert.is_boolean(a.exact)
  for i, m in ipairs(a.moves) do
    assert.is_number(m.value)
    if i > 1 then assert.is_true(a.moves[i - 1].value >= m.value, "best first") end
  end
  assert.equal(a.moves[1].value, a.value)
  assert.equal(view.to_move, a.side)
end

-- A search of the game of session `id` for its side to move, `depth` plies
-- deep on an empty table, by a policy of its own (Multi-ProbCut off, as the
-- analysis searches): hundredths of a disc.
local function searched(store, id, depth)
  local g = store.sessions[id].g
  local player = players.load(("alphabeta:depth=%d,mpc=off"):format(depth), g.rules)
  local policy = player.policy
  local _, value = policy.searcher:search(g.state.board, g.state.player, policy:search_options(g))
  policy:close()
  return value
end

describe("serve's analysis: GET /api/games/ID/analysis", function()
  it("values every legal move of 8 x 8 Reversi by alphabeta, best first, the search's value", function()
    local store = games.new_store { seed = 1 }
    local view = new_game(store, "reversi")
    local status, a = analysis(store, view.id)
    assert.equal(200, status, a.error)
    check_shape(a, view)
    assert.same({ by = ("alphabeta:depth=%d,mpc=off"):format(a.depth), unit = "discs", exact = false,
                  side = "black" }, { by = a.by, unit = a.unit, exact = a.exact, side = a.side })
    if not SLOW then assert.equal(6, a.depth) end
    assert.equal(searched(store, view.id, a.depth), math.floor(a.value * 100 + 0.5))
    -- symmetric openings: f5 and e6 lead to the same position turned over
    local values = {}
    for _, m in ipairs(a.moves) do values[m.move] = m.value end
    assert.equal(values.f5, values.e6)
    -- a midgame position: the best value is still the search's
    view = play_random(store, view, 20, core.rng(3))
    local before = view
    status, a = analysis(store, view.id)
    assert.equal(200, status, a.error)
    check_shape(a, view)
    if not SLOW then assert.equal(6, a.depth) end
    assert.equal(searched(store, view.id, a.depth), math.floor(a.value * 100 + 0.5))
    -- the game did not change
    local _, after = call(store, "GET", "/api/games/" .. view.id)
    assert.same(before, after)
  end)

  it("solves every move exactly near the end", function()
    local store = games.new_store { seed = 1 }
    local view = play_random(store, new_game(store, "reversi", 6), 26, core.rng(9))
    assert.is_false(view.finished)
    local status, a = analysis(store, view.id)
    assert.equal(200, status, a.error)
    check_shape(a, view)
    assert.is_true(a.exact)
    assert.is_nil(a.depth)
    for _, m in ipairs(a.moves) do assert.equal(math.tointeger(m.value), m.value) end
  end)

  it("values FlipFlop's first piece that earns a second for the side that keeps the turn", function()
    local store = games.new_store { seed = 1 }
    local rng = core.rng(4)
    local view = new_game(store, "flipflop")
    local found = 0
    for _ = 1, 30 do
      local g = store.sessions[view.id].g
      local keeps = {}
      if g.state.piece == 1 then
        for _, move in ipairs(g:moves()) do
          local child = g:clone()
          child:play(move)
          if child:to_move() == g:to_move() then keeps[g:move_text(move)] = child end
        end
      end
      if next(keeps) then
        local status, a = analysis(store, view.id)
        assert.equal(200, status, a.error)
        check_shape(a, view)
        -- the position's value is a search's of it; a move after which the
        -- same side places a second piece is worth that position's value
        assert.equal(searched(store, view.id, a.depth), math.floor(a.value * 100 + 0.5))
        for _, m in ipairs(a.moves) do
          local child = keeps[m.move]
          if child and a.depth > 1 then
            local player = players.load(("alphabeta:depth=%d,mpc=off"):format(a.depth - 1), child.rules)
            local _, v = player.policy.searcher:search(child.state.board, child.state.player,
              player.policy:search_options(child))
            player.policy:close()
            assert.equal(v, math.floor(m.value * 100 + 0.5), m.move)
            found = found + 1
          end
        end
      end
      if view.can_pass and #view.moves > 0 then
        -- a second piece to place: declining it is a choice, valued too
        local status, a = analysis(store, view.id)
        assert.equal(200, status, a.error)
        assert.is_true(listed(a).pass)
      end
      view = play_random(store, view, 1, rng)
      if view.finished then break end
    end
    if not SLOW then assert.is_true(found >= 2, "moves that earned a second piece: " .. found) end
  end)

  it("values Dots and Boxes moves: exactly on a small grid, by dots_search on a large one", function()
    local store = games.new_store { seed = 1 }
    local view = new_game(store, "dots")
    local status, a = analysis(store, view.id)
    assert.equal(200, status, a.error)
    check_shape(a, view)
    assert.same({ "solver", "boxes", true }, { a.by, a.unit, a.exact })
    -- the solver's value of the position: the first player's margin with perfect play
    local solver = core.dots_solver { tt_mb = 4 }
    assert.equal(solver:value(store.sessions[view.id].g:board()), a.value)
    solver:close()
    view = new_game(store, "dots", 6)
    status, a = analysis(store, view.id)
    assert.equal(200, status, a.error)
    check_shape(a, view)
    assert.equal("boxes", a.unit)
    assert.matches("^dots_search:depth=%d+$", a.by)
    assert.is_true(a.depth >= 1)
  end)

  it("values an example game's moves, or by playouts where no search values them", function()
    local store = games.new_store { seed = 1 }
    -- connect4: a described game, by the described-game searcher
    local view = new_game(store, "connect4")
    local status, a = analysis(store, view.id)
    assert.equal(200, status, a.error)
    check_shape(a, view)
    assert.equal("pieces", a.unit)
    assert.matches("^alphabeta:depth=%d+$", a.by)
    -- tic-tac-toe (Lua hooks): win rates of random playouts; a winning move is a win
    view = new_game(store, "tictactoe")
    for _, move in ipairs { "a1", "b1", "a2", "b2" } do
      status, view = call(store, "POST", ("/api/games/%s/move"):format(view.id), json.encode { move = move })
      assert.equal(200, status, view.error)
    end
    status, a = analysis(store, view.id)
    assert.equal(200, status, a.error)
    check_shape(a, view)
    assert.equal("win rate", a.unit)
    assert.matches("^random playouts", a.by)
    assert.same({ move = "a3", value = 1 }, a.moves[1])
    for _, m in ipairs(a.moves) do assert.is_true(m.value >= 0 and m.value <= 1) end
    -- misère Dots and Boxes: not what the solver values, so by playouts too
    view = new_game(store, "misere_dots")
    status, a = analysis(store, view.id)
    assert.equal(200, status, a.error)
    check_shape(a, view)
    assert.equal("win rate", a.unit)
  end)

  it("stays within the budget (--max-seconds)", function()
    local store = games.new_store { seed = 1 }
    -- under emulation or the sanitizers a first pass (loose Othello: 61 choices) takes longer than half
    -- a second of processor time: a budget that fits it there
    local budget = SLOW and 5 or 0.5
    limits.configure { seconds = budget }
    local ok, err = pcall(function()
      for _, rules in ipairs { "reversi", "othello", "tictactoe", "hex", "dots" } do
        local view = new_game(store, rules, rules == "dots" and 6 or nil)
        local started = os.clock()
        local status, a = analysis(store, view.id)
        assert.equal(200, status, a.error)
        assert.is_true(os.clock() - started < budget, rules)
      end
    end)
    limits.configure {}
    assert(ok, err)
    assert.equal(1, study.ANALYSIS_SECONDS)
  end)

  it("keeps an analysis until the game changes: asked again, the same answer without another search", function()
    local store = games.new_store { seed = 1 }
    local view = new_game(store, "reversi")
    local runs, run = 0, store.pool.run
    store.pool.run = function(pool, job)
      runs = runs + 1
      return run(pool, job)
    end
    local status, first = analysis(store, view.id)
    assert.equal(200, status, first.error)
    local again
    status, again = analysis(store, view.id)
    assert.equal(200, status, again.error)
    assert.same(first, again)
    assert.equal(1, runs)
    view = play_random(store, view, 1, core.rng(2))
    status, again = analysis(store, view.id)
    assert.equal(200, status, again.error)
    assert.equal(2, runs)
    assert.are_not.same(listed(first), listed(again))
    status, view = call(store, "POST", ("/api/games/%s/undo"):format(view.id))
    assert.equal(200, status, view.error)
    status, again = analysis(store, view.id)
    assert.equal(200, status, again.error)
    assert.equal(3, runs, "the game changed (undo), so it is analysed again")
    assert.same(listed(first), listed(again))
  end)

  it("refuses a finished game, a missing one and a wrong method", function()
    local store = games.new_store { seed = 1 }
    local view = new_game(store, "dots", 1)
    view = play_random(store, view, 4, core.rng(1))
    assert.is_true(view.finished)
    local status, a = analysis(store, view.id)
    assert.equal(400, status)
    assert.equal("the game is over", a.error)
    status, a = analysis(store, 999)
    assert.equal(404, status)
    assert.matches("no game 999", a.error)
    view = new_game(store, "reversi")
    status, a = call(store, "POST", ("/api/games/%s/analysis"):format(view.id))
    assert.equal(405, status)
    assert.equal("GET /api/games/ID/analysis", a.error)
  end)
end)

describe("serve's analysis over HTTP (in a worker)", function()
  it("answers the same values from a worker process", function()
    if os.getenv("BOARDSCRIPT_EMULATED") then
      pending("fork under qemu-user hangs in the child: checked natively only")
      return
    end
    local serve_http = require "boardscript.serve.http"
    local function lua_http()
      if pcall(require, "http.request") then return true end
      for _, dir in ipairs { "/usr/share/lua/5.3", "/usr/share/lua/5.2", "/usr/share/lua/5.1" } do
        package.path = ("%s;%s/?.lua;%s/?/init.lua"):format(package.path, dir, dir)
      end
      return (pcall(require, "http.request"))
    end
    if not (pcall(serve_http.library) and lua_http()) then
      pending("lua-http or cqueues is not installed (scripts/bootstrap installs them)")
      return
    end
    local out = os.tmpname()
    local pid = io.popen(("%s serve --port 0 --max-seconds 2 >%s 2>&1 & echo $!"):format(host.shell_quote(host.BIN),
      out)):read("l")
    local ok, err = pcall(function()
      local url
      for _ = 1, 100 do
        url = host.slurp(out):match("(http://[%d%.]+:%d+/)")
        if url then break end
        os.execute("sleep 0.05")
      end
      assert.truthy(url, "the server did not start")
      local http_request = require "http.request"
      local function request(method, target, body)
        local req = http_request.new_from_uri(url .. target)
        req.headers:upsert(":method", method)
        if body then
          req.headers:upsert("content-type", "application/json")
          req:set_body(body)
        end
        local headers, stream = assert(req:go(30))
        return tonumber(headers:get(":status")), json.decode(assert(stream:get_body_as_string(30)))
      end
      local status, view = request("POST", "api/games", json.encode { rules = "reversi" })
      assert.equal(201, status)
      local cqueues = require "cqueues"
      local started = cqueues.monotime()
      local a
      status, a = request("GET", ("api/games/%s/analysis"):format(view.id))
      local seconds = cqueues.monotime() - started
      assert.equal(200, status, a.error)
      assert.is_true(seconds < 2, ("%.2f s"):format(seconds))
      -- what the same analysis answers in this process
      local store = games.new_store { seed = 1 }
      local _, here = analysis(store, new_game(store, "reversi").id)
      assert.same(here, a)
    end)
    os.execute("kill " .. pid .. " 2>/dev/null")
    local log = host.slurp(out)
    os.remove(out)
    assert(ok, tostring(err) .. "\n" .. log)
  end)
end)
