-- boardscript serve: the API over a store (no sockets), then the real
-- server on a free loopback port, driven over HTTP with lua-http's client:
-- a whole game played through it agrees with the engine's own replay of
-- the record it hands out, and bad requests never stop it.
local host = require "support.host"
local json = require "dkjson"
local api = require "boardscript.serve.api"
local games = require "boardscript.serve.games"
local limits = require "boardscript.limits"
local record = require "boardscript.record"

local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."

local function call(store, method, path, body, query)
  local status, content_type, text, extra = api.handle(store, "PAGE", method, path, query, body)
  local value = content_type:match("^application/json") and json.decode(text) or text
  return status, value, extra
end

describe("the serve API (boardscript.serve.api over a store)", function()
  it("lists the rule sets offered, their options and players", function()
    local store = games.new_store { seed = 1 }
    local status, value = call(store, "GET", "/api/rules")
    assert.equal(200, status)
    local names = {}
    for _, r in ipairs(value.rules) do names[r.name] = r end
    for _, name in ipairs { "reversi", "othello", "blocks", "flipflop", "dots", "anti", "tictactoe" } do
      assert.truthy(names[name], name)
    end
    assert.equal("example", names.anti.kind)
    assert.equal(8, names.reversi.options.size.default)
    assert.truthy(table.concat(names.reversi.players, ","):find("alphabeta", 1, true))
    assert.equal("PAGE", select(2, call(store, "GET", "/")))
  end)

  it("plays a game: human moves, the AI's moves, refusals with the reason, undo, restart, the record", function()
    local store = games.new_store { seed = 3 }
    local status, view = call(store, "POST", "/api/games",
      json.encode { rules = "reversi", players = { white = "alphabeta:depth=1" } })
    assert.equal(201, status)
    assert.equal("black", view.to_move)
    assert.is_true(view.human_to_move)
    assert.same({ "c4", "d3", "e6", "f5" }, (function() table.sort(view.moves) return view.moves end)())
    assert.matches('data%-cell="f5"', view.svg)
    assert.matches('class="disc black"', view.svg)
    local id = view.id
    status, view = call(store, "POST", "/api/games/" .. id .. "/move", json.encode { move = "a1" })
    assert.equal(400, status)
    assert.equal("a1 is not a legal move (flips nothing)", view.error)
    status, view = call(store, "POST", "/api/games/" .. id .. "/ai")
    assert.equal(400, status)
    assert.equal("Black is human", view.error)
    status, view = call(store, "POST", "/api/games/" .. id .. "/move", json.encode { move = "f5" })
    assert.equal(200, status)
    assert.is_false(view.human_to_move)
    status, view = call(store, "POST", "/api/games/" .. id .. "/move", json.encode { move = "d3" })
    assert.equal(400, status)
    assert.equal("it is White's turn (an AI)", view.error)
    status, view = call(store, "POST", "/api/games/" .. id .. "/ai")
    assert.equal(200, status)
    assert.equal(2, #view.log)
    status, view = call(store, "POST", "/api/games/" .. id .. "/undo")
    assert.equal(200, status)
    assert.same({}, view.log) -- back to the human's turn: the AI's move and the human's
    assert.equal(400, (call(store, "POST", "/api/games/" .. id .. "/undo")))
    call(store, "POST", "/api/games/" .. id .. "/move", json.encode { move = "f5" })
    call(store, "POST", "/api/games/" .. id .. "/ai")
    local _, text, extra = call(store, "GET", "/api/games/" .. id .. "/record")
    assert.matches("^boardscript record 1\nrules reversi\n", text)
    assert.matches("player white alphabeta:depth=1\nmove f5\nmove ", text)
    assert.matches('filename="game%-1%.txt"', extra["content-disposition"])
    local _, ggf = call(store, "GET", "/api/games/" .. id .. "/record", nil, { format = "ggf" })
    assert.matches("^%(;GM%[Othello%]", ggf)
    status, view = call(store, "POST", "/api/games/" .. id .. "/restart")
    assert.equal(200, status)
    assert.same({}, view.log)
  end)

  it("refuses bad requests with a reason and keeps the game as it was", function()
    local store = games.new_store { seed = 1 }
    local _, view = call(store, "POST", "/api/games", json.encode { rules = "reversi" })
    local id = view.id
    local cases = {
      { "POST", "/api/games", "{", 400, "^the body is not a JSON object" },
      { "POST", "/api/games", "[1]", 400, "^the body is not a JSON object" },
      { "POST", "/api/games", json.encode { rules = "../../etc/passwd" }, 400, "^unknown rule set '../../etc/passwd'" },
      { "POST", "/api/games", json.encode { rules = "reversi", size = 7 }, 400, "^option size: 7 is odd" },
      { "POST", "/api/games", json.encode { rules = "reversi", players = { black = "/tmp/mine.lua" } }, 400,
        "policy files are not taken from the page" },
      { "POST", "/api/games", json.encode { rules = "reversi", players = { black = "alphabeta:eval=/etc/passwd" } },
        400, "eval=/etc/passwd is not an evaluation this server offers" },
      { "POST", "/api/games", json.encode { rules = "reversi", players = { black = "dots_search" } }, 400,
        "does not play reversi" },
      { "GET", "/api/games", nil, 405, "^POST /api/games" },
      { "GET", "/api/games/999", nil, 404, "^no game 999" },
      { "GET", "/etc/passwd", nil, 404, "^no such path" },
      { "POST", "/api/games/" .. id .. "/fly", "", 404, "^no such action: fly" },
      { "POST", "/api/games/" .. id .. "/move", json.encode { move = 5 }, 400, "^move: expected the move's text" },
      { "POST", "/api/games/" .. id .. "/move", json.encode { move = "zz99" }, 400, "is not a move here" },
      { "POST", "/api/games/" .. id .. "/pass", "", 400, "^Black has a move and may not pass" },
      { "POST", "/api/games/" .. id .. "/move", ("x"):rep(api.MAX_BODY + 1), 413, "at most" },
      -- player specs that are not specs are refused, never a silent human seat
      { "POST", "/api/games", '{"rules":"reversi","players":{"x":1}}', 400,
        "^players: reversi has no side 'x' %(its sides: black, white%)$" },
      { "POST", "/api/games", '{"rules":"reversi","players":{"white":{"x":1}}}', 400,
        "^player for white: expected a text, human or a built%-in policy %(got an object%)$" },
      { "POST", "/api/games", '{"rules":"reversi","players":{"white":7}}', 400, "%(got a number%)$" },
      { "POST", "/api/games", '{"rules":"reversi","players":"greedy"}', 400, "^players: expected an object" },
      { "POST", "/api/games", '{"rules":"reversi","players":["greedy"]}', 400, "^players: expected an object" },
      { "POST", "/api/games", '{"rules":"dots","players":{"black":"solver"}}', 400,
        "^players: dots has no side 'black' %(its sides: 1, 2%)$" },
      { "POST", "/api/games", '{"rules":"dots","players":{"1":"alphabeta"}}', 400, "does not play dots" },
      { "POST", "/api/games", '{"rules":"reversi","players":{"white":"nosuch"}}', 400,
        "a built%-in policy is expected" },
      -- what a page may ask a policy for is capped, refused with the reason
      { "POST", "/api/games", '{"rules":"reversi","players":{"white":"alphabeta:tt_mb=1024"}}', 400,
        "tt_mb is at most " .. games.MAX_TT_MB .. " on this server" },
      { "POST", "/api/matches", '{"rules":"reversi","a":"alphabeta:tt_mb=65","b":"greedy"}', 400,
        "^a 'alphabeta:tt_mb=65': tt_mb is at most" },
      { "POST", "/api/matches", '{"rules":"reversi","a":{},"b":"greedy"}', 400, "^a: expected a text" },
      -- a table as a rule set name, a study's game that is not one
      { "POST", "/api/games", '{"rules":{"x":1}}', 400, "^rules: expected the name of a rule set %(got an object%)$" },
      { "POST", "/api/matches", '{"rules":[1],"a":"greedy","b":"greedy"}', 400, "^rules: expected the name" },
      { "POST", "/api/study", '{"text":"(;GM[Othello]PC[x]TY[8]BO[8 ---------------------------O*------*O'
        .. '--------------------------- *]B[F5];)","game":0}', 400, "^game: expected the number of a game" },
      { "POST", "/api/study", '{"text":"(;GM[Othello];)","game":{}}', 400, "^game: expected the number of a game" },
    }
    for _, case in ipairs(cases) do
      local status, value = call(store, case[1], case[2], case[3])
      assert.equal(case[4], status, case[2] .. " " .. tostring(case[3]))
      assert.matches(case[5], value.error, 1)
      -- no heap address, traceback or source line of the server's ever reaches a page
      assert.is_nil(value.error:find("0x%x+"), value.error)
      assert.is_nil(value.error:find("traceback", 1, true), value.error)
      assert.is_nil(value.error:find("%.lua:%d+"), value.error)
    end
    local status, after = call(store, "GET", "/api/games/" .. id)
    assert.equal(200, status)
    assert.same({}, after.log)
  end)

  it("opens a record or a GGF game to study: steps, charts, the AI's suggestion; never a path", function()
    local store = games.new_store { seed = 1 }
    local rec = "boardscript record 1\nrules reversi\noption size=8\nmove f5\nmove d6\nmove c3\nmove d3\n"
      .. "move c4\nresult 5-3 unfinished\n"
    local status, view = call(store, "POST", "/api/study", json.encode { text = rec })
    assert.equal(201, status)
    assert.same({ ply = 5, plies = 5, moves = { "f5", "d6", "c3", "d3", "c4" } }, view.study)
    assert.matches("Evaluation %(Black&#39;s margin, discs; alphabeta depth 4%)", view.svg)
    assert.matches("Discs after each move", view.svg)
    local id = view.id
    status, view = call(store, "POST", "/api/games/" .. id .. "/goto", json.encode { ply = 2 })
    assert.equal(200, status)
    assert.same({ "f5", "d6" }, view.log)
    assert.same({ 3, 3 }, view.score)
    assert.equal("black", view.to_move)
    status, view = call(store, "POST", "/api/games/" .. id .. "/goto", json.encode { ply = 6 })
    assert.equal(400, status)
    assert.equal("ply must be an integer from 0 to 5", view.error)
    status, view = call(store, "POST", "/api/games/" .. id .. "/move", json.encode { move = "c3" })
    assert.equal(400, status)
    assert.matches("^a study", view.error)
    local hint
    status, hint = call(store, "GET", "/api/games/" .. id .. "/hint")
    assert.equal(200, status)
    assert.equal("alphabeta:depth=6", hint.by)
    assert.truthy(select(2, call(store, "GET", "/api/games/" .. id)).moves[1])
    local legal = {}
    for _, m in ipairs(select(2, call(store, "GET", "/api/games/" .. id)).moves) do legal[m] = true end
    assert.is_true(legal[hint.move], hint.move)
    -- a GGF game with its own evaluations
    local ggf = "(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TY[8]BO[8 ---------------------------O*------*O"
      .. "--------------------------- *]B[F5//1.5]W[D6/-1]B[C3];)"
    status, view = call(store, "POST", "/api/study", json.encode { text = ggf })
    assert.equal(201, status)
    assert.equal(3, view.study.plies)
    assert.matches("Evaluation in the file", view.svg)
    -- a record naming a path: only its file name counts, among the rule sets offered
    status, view = call(store, "POST", "/api/study",
      json.encode { text = "boardscript record 1\nrules /etc/passwd.lua\nresult 0-0 unfinished\n" })
    assert.equal(400, status)
    assert.matches("^the record's rule set '/etc/passwd.lua' is not one this server offers", view.error)
    status, view = call(store, "POST", "/api/study",
      json.encode { text = "boardscript record 1\nrules /elsewhere/anti.lua\nmove f5\nresult 0-0 unfinished\n" })
    assert.equal(201, status)
    assert.equal("anti", view.rules)
    status, view = call(store, "POST", "/api/study",
      json.encode { text = "boardscript record 1\nrules reversi\nmove a1\n" })
    assert.equal(400, status)
    assert.matches("move 1", view.error)
  end)

  it("plays a match to watch, a move a step, its lines and summary as `boardscript match` prints them", function()
    local store = games.new_store { seed = 1 }
    local status, view = call(store, "POST", "/api/matches",
      json.encode { rules = "reversi", size = 6, a = "greedy", b = "random", games = 3, seed = 5 })
    assert.equal(201, status)
    assert.same({}, view.match.lines)
    local id, steps = view.id, 0
    repeat
      status, view = call(store, "POST", "/api/games/" .. id .. "/step")
      assert.equal(200, status)
      steps = steps + 1
    until view.match.done
    assert.is_true(steps > 3 * 20)
    local code, out = host.run { "match", "--a", "greedy", "--b", "random", "--rules", "reversi", "--size", "6",
                                 "--games", "3", "--seed", "5", "--verbose" }
    assert.equal(0, code)
    -- the page's lines are the command's, line for line, the Elo line too: 3-0 here, said in words
    assert.truthy(out:find("\nElo difference: not yet measurable (greedy won every game), LOS: ", 1, true), out)
    assert.equal(out, table.concat(view.match.lines, "\n") .. "\n" .. table.concat(view.match.summary, "\n") .. "\n")
    status, view = call(store, "POST", "/api/games/" .. id .. "/step")
    assert.equal(400, status)
    assert.equal("the match is over", view.error)
    assert.equal(400, (call(store, "POST", "/api/games/" .. id .. "/move", json.encode { move = "a1" })))
    status, view = call(store, "POST", "/api/matches", json.encode { rules = "reversi", a = "human", b = "random" })
    assert.equal(400, status)
    assert.equal("a: a match is between two policies, not a human", view.error)
    status, view = call(store, "POST", "/api/matches", json.encode { a = "random", b = "random", games = 0 })
    assert.equal(400, status)
    assert.equal("games must be an integer from 1 to 1000", view.error)
  end)

  it("answers an error of its own with 500 and a message that says nothing of it, logged", function()
    local logged = {}
    local store = games.new_store { seed = 1, log = function(text) logged[#logged + 1] = text end }
    store.rule_sets = function() error(setmetatable({}, { __tostring = function() return "at 0xdeadbeef" end })) end
    local status, value = call(store, "GET", "/api/rules")
    assert.equal(500, status)
    assert.equal("the server failed on this request (its log says why)", value.error)
    store.rule_sets = function() error("internal.lua:12: attempt to index a nil value") end
    status, value = call(store, "GET", "/api/rules")
    assert.equal(500, status)
    assert.is_nil(value.error:find("internal", 1, true))
    assert.matches("internal%.lua:12", logged[#logged])
    -- a policy's own failure in a worker job: a message of the server's is not shown either
    local worker = require "boardscript.serve.worker"
    local text, why = store.pool:run(function() error("games.lua:99: boom") end)
    assert.is_nil(text)
    assert.equal(worker.INTERNAL, why)
    assert.matches("games%.lua:99: boom", logged[#logged])
    -- a user error quoting a place in the program or an address says neither
    assert.equal("player 'alphabeta' (Black) failed: not enough memory for the searcher's 64 MiB table",
      worker.clean("player 'alphabeta' (Black) failed: /usr/share/lua/5.4/boardscript/ai/alphabeta.lua:60: "
        .. "not enough memory for the searcher's 64 MiB table"))
    assert.equal("got a table", worker.clean("got table: 0x55d0aa12"))
  end)

  it("refuses to change a game while its AI thinks (409) and shows it thinking; other requests are answered", function()
    local worker = require "boardscript.serve.worker"
    local store = games.new_store { seed = 1 }
    local during
    local real = worker.new_pool {}
    -- a pool that lets the test make requests while a job is under way, as
    -- the server's other coroutines do while a worker thinks
    store.pool = { run = function(_, job)
      local f = during
      during = nil
      if f then f() end
      return real:run(job)
    end }
    local _, view = call(store, "POST", "/api/games", json.encode { rules = "reversi", players = { white = "greedy" } })
    local id = view.id
    local _, other = call(store, "POST", "/api/games", "{}")
    call(store, "POST", "/api/games/" .. id .. "/move", json.encode { move = "f5" })
    local seen = {}
    during = function()
      local status, v = call(store, "GET", "/api/games/" .. id)
      seen.get, seen.thinking = status, v.thinking
      for _, action in ipairs { "move", "undo", "restart", "ai", "pass" } do
        local s, answer = call(store, "POST", ("/api/games/%s/%s"):format(id, action), json.encode { move = "d3" })
        seen[action] = s
        assert.equal(games.THINKING, answer.error)
      end
      seen.hint = call(store, "GET", "/api/games/" .. id .. "/hint")
      seen.rules = call(store, "GET", "/api/rules")
      seen.other = call(store, "POST", "/api/games/" .. other.id .. "/move", json.encode { move = "f5" })
    end
    local status
    status, view = call(store, "POST", "/api/games/" .. id .. "/ai")
    assert.equal(200, status)
    assert.same({ get = 200, thinking = true, move = 409, undo = 409, restart = 409, ai = 409, pass = 409, hint = 200,
                  rules = 200, other = 200 }, seen)
    assert.is_false(view.thinking)
    assert.equal(2, #view.log)
    assert.is_true(view.human_to_move)
  end)

  it("closes a dropped session's searchers at once, and a hint's", function()
    local core = require "boardscript.core"
    local store = games.new_store { max_games = 1, seed = 1 }
    local _, view = call(store, "POST", "/api/games",
      json.encode { rules = "reversi", size = 6, players = { white = "alphabeta:depth=1,tt_mb=2" } })
    call(store, "POST", "/api/games/" .. view.id .. "/move", json.encode { move = view.moves[1] })
    assert.equal(200, (call(store, "POST", "/api/games/" .. view.id .. "/ai")))
    local policy = store.sessions[view.id].seats.white.policy
    local searcher = rawget(policy, "searcher") -- made by the move (here, without workers, in this process)
    assert.equal("searcher", core.type(searcher))
    call(store, "POST", "/api/games", "{}") -- the store is full: the game above is dropped
    assert.equal("closed searcher", core.type(searcher))
    -- a session holds no searcher before one of its moves needs it
    _, view = call(store, "POST", "/api/games", json.encode { rules = "reversi", players = { white = "alphabeta" } })
    assert.is_nil(rawget(store.sessions[view.id].seats.white.policy, "searcher"))
  end)

  it("drops the games used longest ago when they would fill its memory bound (--max-memory)", function()
    local store = games.new_store { seed = 1 }
    call(store, "POST", "/api/games", "{}")
    collectgarbage()
    local bound = math.floor(collectgarbage("count") * 1024) + 32 * 1024
    store.max_bytes = bound
    for _ = 1, 60 do
      assert.equal(201, (call(store, "POST", "/api/games", '{"rules":"reversi","size":26}')))
      collectgarbage()
      assert.is_true(collectgarbage("count") * 1024 < bound + 16 * 1024)
    end
    assert.is_true(store.count > 1 and store.count < 40, store.count)
  end)

  it("keeps a bounded number of games, dropping the one used longest ago", function()
    local store = games.new_store { max_games = 3, seed = 1 }
    local ids = {}
    for i = 1, 3 do ids[i] = select(2, call(store, "POST", "/api/games", "{}")).id end
    call(store, "GET", "/api/games/" .. ids[1]) -- 1 is used again: 2 is the oldest now
    call(store, "POST", "/api/games", "{}")
    assert.equal(3, store.count)
    assert.equal(200, (call(store, "GET", "/api/games/" .. ids[1])))
    assert.equal(404, (call(store, "GET", "/api/games/" .. ids[2])))
  end)

  it("survives a rule set file that runs away: the request is refused, the game kept", function()
    limits.configure { seconds = 0.3 }
    finally(function() limits.configure(nil) end)
    -- loop_rules.lua: Reversi whose `finished` runs away once 12 discs are down
    local store = games.new_store { files = { SOURCE .. "/spec/limits/loop_rules.lua" }, seed = 1 }
    local status, view = call(store, "POST", "/api/games", json.encode { rules = "loop_rules" })
    assert.equal(201, status)
    local id = view.id
    while status == 200 or status == 201 do
      status, view = call(store, "POST", "/api/games/" .. id .. "/move", json.encode { move = view.moves[1] })
    end
    assert.equal(400, status)
    assert.matches("exceeded %-%-max%-seconds 0%.3", view.error)
    assert.equal(200, (call(store, "GET", "/api/rules")))
    assert.equal(201, (call(store, "POST", "/api/games", "{}")))
  end)
end)

describe("boardscript.host's worker processes (in the binary)", function()
  -- Under qemu-user (scripts/cross-test sets BOARDSCRIPT_EMULATED) the child
  -- of a plain fork of the emulated host spins and never runs: serve's
  -- workers are such forks, so they are checked natively only.
  if os.getenv("BOARDSCRIPT_EMULATED") then
    pending("fork under qemu-user hangs in the child: checked natively only")
    return
  end
  it("forks a child that answers on a pipe, is reaped, limited and killed; nonsense arguments raise", function()
    local script = os.tmpname()
    host.spit(script, [[
      local h = require "boardscript.host"
      local extra = assert(io.open("/dev/null")) -- a descriptor the child must not keep
      local r, w = assert(h.pipe())
      local pid = assert(h.fork(w))
      if pid == 0 then
        -- the child keeps 0-2 and its pipe, as descriptor 3, and nothing else
        local fds = 0
        for fd = 4, 64 do if io.open("/proc/self/fd/" .. fd) then fds = fds + 1 end end
        assert(h.limit_process(5, 64 * 1024 * 1024))
        h.write(3, "child " .. fds)
        h.exit_now(0)
      end
      h.close(w)
      local parts = {}
      while true do
        local data, err = h.read(r)
        if data == "" then break end
        if data then parts[#parts + 1] = data elseif err ~= "again" then error(err) end
      end
      h.close(r)
      print(table.concat(parts), h.waitpid(pid))
      r, w = assert(h.pipe())
      pid = assert(h.fork(w))
      if pid == 0 then while true do end end
      h.close(w)
      print(h.read(r))
      assert(h.waitpid(pid, true) == nil)
      assert(h.kill(pid))
      print(h.waitpid(pid))
      for _, bad in ipairs { function() h.kill(1) end, function() h.kill(-1) end, function() h.fork(1) end,
                             function() h.fork(999) end, function() h.read(-1) end, function() h.exit_now(256) end,
                             function() h.limit_process(0) end, function() h.write(1, {}) end } do
        local ok, err = pcall(bad)
        assert(not ok and err:find("bad argument", 1, true), tostring(err))
      end
      print("refused")
      extra:close()
    ]])
    local code, out, err = host.run { "run", script }
    os.remove(script)
    assert.equal(0, code, err)
    -- the child's descriptors above 3 are those Lua opened to count them
    assert.matches("^child %d+\texited\t0\nnil\tagain\nkilled\t9\nrefused\n$", out)
    assert.equal("0", out:match("^child (%d+)"))
  end)
end)

describe("boardscript serve (the server over HTTP)", function()
  local serve_http = require "boardscript.serve.http"
  -- The client is lua-http's: Debian installs its Lua files for 5.1 to 5.3
  -- only, and they run on 5.4 as they are.
  local function lua_http()
    if pcall(require, "http.request") then return true end
    for _, dir in ipairs { "/usr/share/lua/5.3", "/usr/share/lua/5.2", "/usr/share/lua/5.1" } do
      package.path = ("%s;%s/?.lua;%s/?/init.lua"):format(package.path, dir, dir)
    end
    return (pcall(require, "http.request"))
  end
  local available = pcall(serve_http.library) and lua_http()

  -- Starts the server on a free port; returns its base URL and a stop function.
  local function start(args)
    local out = os.tmpname()
    local quoted = {}
    for i, a in ipairs(args) do quoted[i] = host.shell_quote(a) end
    local pid = io.popen(("%s serve --port 0 %s >%s 2>&1 & echo $!"):format(host.shell_quote(host.BIN),
      table.concat(quoted, " "), out)):read("l")
    local url
    for _ = 1, 100 do
      local text = host.slurp(out)
      url = text:match("(http://[%d%.]+:%d+/)")
      if url then break end
      os.execute("sleep 0.05")
    end
    return url, function()
      os.execute("kill " .. pid .. " 2>/dev/null")
      local text = host.slurp(out)
      os.remove(out)
      return text
    end, tonumber(pid)
  end

  local function request(method, url, body)
    local http_request = require "http.request"
    local req = http_request.new_from_uri(url)
    req.headers:upsert(":method", method)
    if method == "POST" then
      req.headers:upsert("content-type", "application/json") -- the server takes no other
      req:set_body(body or "")
    end
    local headers, stream = assert(req:go(30))
    local text = assert(stream:get_body_as_string(30))
    return tonumber(headers:get(":status")), text, headers
  end

  it("plays a whole game over HTTP, the record replaying to the same end", function()
    if not available then
      pending("lua-http or cqueues is not installed (scripts/bootstrap installs them)")
      return
    end
    local url, stop = start { "--seed", "7" }
    assert.truthy(url, "the server printed its address")
    local ok, err = pcall(function()
      local status, page = request("GET", url)
      assert.equal(200, status)
      assert.matches("<title>boardscript</title>", page)
      local _, text = request("POST", url .. "api/games",
        json.encode { rules = "reversi", size = 6, players = { white = "greedy" } })
      local view = json.decode(text)
      local rng = require("boardscript.core").rng(5)
      while not view.finished do
        local action, body = "ai", nil
        if view.human_to_move then
          if #view.moves == 0 then
            action = "pass"
          else
            action, body = "move", json.encode { move = view.moves[rng:random(#view.moves)] }
          end
        end
        status, text = request("POST", ("%sapi/games/%s/%s"):format(url, view.id, action), body)
        assert.equal(200, status, text)
        view = json.decode(text)
      end
      -- bad requests on the way do not stop it, nor connections that close
      -- early or speak no HTTP
      assert.equal(400, (request("POST", url .. "api/games", "{")))
      assert.equal(404, (request("GET", url .. "api/games/77")))
      local socket = require "cqueues.socket"
      local port = tonumber(url:match(":(%d+)/$"))
      for _, bytes in ipairs { "", "GET / HT", "NONSENSE\r\n\r\n",
                               "POST /api/games HTTP/1.1\r\ncontent-length: 99\r\n\r\n{" } do
        local conn = assert(socket.connect("127.0.0.1", port))
        if bytes ~= "" then conn:write(bytes) conn:flush() end
        conn:close()
      end
      assert.equal(200, (request("GET", url .. "api/rules")))
      local _, rec = request("GET", ("%sapi/games/%s/record"):format(url, view.id))
      local parsed = record.parse(rec, "the served record")
      local g = record.open_game(parsed, "the served record")
      assert.is_true(record.replay(g, parsed.moves, "the served record"))
      assert.equal(view.result, record.result(g))
      assert.equal(#view.log, #g.log)
    end)
    local log = stop()
    assert(ok, tostring(err) .. "\n" .. log)
  end)

  it("offers a rule set file named at start, and plays it", function()
    if not available then
      pending("lua-http or cqueues is not installed")
      return
    end
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. host.shell_quote(dir)))
    host.spit(dir .. "/my_variant.lua", host.slurp(SOURCE .. "/lua/examples/anti.lua"))
    local url, stop = start { dir .. "/my_variant.lua" }
    local ok, err = pcall(function()
      local _, text = request("GET", url .. "api/rules")
      local offered
      for _, r in ipairs(json.decode(text).rules) do
        if r.name == "my_variant" then offered = r end
      end
      assert.truthy(offered, "my_variant is offered")
      assert.equal("file", offered.kind)
      local status
      status, text = request("POST", url .. "api/games",
        json.encode { rules = "my_variant", players = { white = "greedy" } })
      assert.equal(201, status, text)
      local view = json.decode(text)
      status, text = request("POST", ("%sapi/games/%s/move"):format(url, view.id), json.encode { move = view.moves[1] })
      assert.equal(200, status, text)
      status, text = request("POST", ("%sapi/games/%s/ai"):format(url, view.id))
      assert.equal(200, status, text)
      assert.equal(2, #json.decode(text).log)
    end)
    local log = stop()
    os.remove(dir .. "/my_variant.lua")
    os.remove(dir)
    assert(ok, tostring(err) .. "\n" .. log)
  end)

  -- The server's resident memory, in MiB (VmRSS).
  local function rss_mib(pid)
    local text = host.slurp("/proc/" .. pid .. "/status") or ""
    return tonumber(text:match("VmRSS:%s*(%d+)")) / 1024
  end

  it("answers every other request at once while an AI thinks in a worker, and stops a runaway AI", function()
    if not available then
      pending("lua-http is not installed")
      return
    end
    local url, stop = start { "--max-seconds", "2" }
    local ok, err = pcall(function()
      local cqueues = require "cqueues"
      local _, text = request("POST", url .. "api/games",
        -- minimax searches the hooks 30 plies deep and never stops itself (mcts and alphabeta stop
        -- themselves within the budget): the budget stops it
        json.encode { rules = "reversi", players = { white = "minimax:depth=30" } })
      local id = json.decode(text).id
      _, text = request("POST", url .. "api/games", "{}")
      local other = json.decode(text).id
      assert.equal(200, (request("POST", ("%sapi/games/%s/move"):format(url, id), json.encode { move = "f5" })))
      local cq = cqueues.new()
      local ai, answers = nil, {}
      cq:wrap(function()
        local started = cqueues.monotime()
        local status, body = request("POST", ("%sapi/games/%s/ai"):format(url, id))
        ai = { status = status, body = json.decode(body), seconds = cqueues.monotime() - started }
      end)
      cq:wrap(function()
        cqueues.sleep(0.3)
        for _, r in ipairs { { "GET", "api/rules" }, { "GET", "api/games/" .. other }, { "GET", "api/games/" .. id },
                             { "POST", ("api/games/%s/undo"):format(id) }, { "GET", ("api/games/%s/hint"):format(id) },
                             { "POST", ("api/games/%s/move"):format(other), json.encode { move = "f5" } } } do
          local started = cqueues.monotime()
          local status, body = request(r[1], url .. r[2], r[3])
          answers[#answers + 1] = { what = r[1] .. " " .. r[2], status = status, body = json.decode(body),
                                    seconds = cqueues.monotime() - started }
        end
        assert.is_nil(ai, "the AI had not answered yet")
      end)
      assert(cq:loop())
      local statuses = {}
      for i, a in ipairs(answers) do
        statuses[i] = a.status
        assert.is_true(a.seconds < 1, a.what .. " answered at once")
      end
      assert.same({ 200, 200, 200, 409, 200, 200 }, statuses)
      assert.is_true(answers[3].body.thinking)
      assert.equal("the AI is thinking about this game; wait for its move", answers[4].body.error)
      -- the runaway AI was stopped by its budget, the game kept for another try
      assert.equal(400, ai.status)
      assert.matches("exceeded %-%-max%-seconds 2", ai.body.error)
      assert.is_true(ai.seconds < 15)
      local status, body = request("GET", ("%sapi/games/%s"):format(url, id))
      assert.equal(200, status)
      assert.is_false(json.decode(body).thinking)
      assert.equal(1, #json.decode(body).log)
    end)
    local log = stop()
    assert(ok, tostring(err) .. "\n" .. log)
  end)

  it("plays a watched match in workers move by move, the very games of `boardscript match`", function()
    if not available then
      pending("lua-http is not installed")
      return
    end
    local url, stop = start {}
    local ok, err = pcall(function()
      -- mcts draws from the game's generator: the workers hand its state back
      local settings = { rules = "reversi", size = 6, a = "mcts:playouts=30", b = "random", games = 2, seed = 5 }
      local status, text = request("POST", url .. "api/matches", json.encode(settings))
      assert.equal(201, status, text)
      local view = json.decode(text)
      while not view.match.done do
        status, text = request("POST", ("%sapi/games/%s/step"):format(url, view.id))
        assert.equal(200, status, text)
        view = json.decode(text)
      end
      local code, out = host.run { "match", "--a", settings.a, "--b", settings.b, "--rules", "reversi", "--size", "6",
                                   "--games", "2", "--seed", "5", "--verbose" }
      assert.equal(0, code)
      -- the same lines, the Elo line included
      assert.equal(out,
        table.concat(view.match.lines, "\n") .. "\n" .. table.concat(view.match.summary, "\n") .. "\n")
    end)
    local log = stop()
    assert(ok, tostring(err) .. "\n" .. log)
  end)

  it("keeps its memory bounded: hints and dropped sessions leave nothing behind", function()
    if not available then
      pending("lua-http is not installed")
      return
    end
    local url, stop, pid = start { "--max-games", "1" }
    local ok, err = pcall(function()
      local before = rss_mib(pid)
      local _, text = request("POST", url .. "api/games", "{}")
      local id = json.decode(text).id
      for _ = 1, 40 do
        local status, body = request("GET", ("%sapi/games/%s/hint"):format(url, id))
        assert.equal(200, status, body)
      end
      -- each of these games is dropped by the next (--max-games 1) after a move of its 64 MiB searchers
      for _ = 1, 20 do
        local status, body = request("POST", url .. "api/games", json.encode { rules = "reversi", players = {
          black = "alphabeta:depth=1,tt_mb=64", white = "alphabeta:depth=1,tt_mb=64" } })
        assert.equal(201, status, body)
        status, body = request("POST", ("%sapi/games/%s/ai"):format(url, json.decode(body).id))
        assert.equal(200, status, body)
      end
      local after = rss_mib(pid)
      -- 40 hints of a 16 MiB table and 20 games of 64 MiB ones: gigabytes if any were kept
      assert.is_true(after < before + 64, ("%.1f MiB, from %.1f"):format(after, before))
    end)
    local log = stop()
    assert(ok, tostring(err) .. "\n" .. log)
  end)

  it("warns when it listens beyond loopback", function()
    if not available then
      pending("lua-http or cqueues is not installed")
      return
    end
    local status, out, err = host.run { "serve", "--host", "0.0.0.0", "--port", "99999" }
    assert.equal(2, status)
    assert.equal("", out)
    assert.matches("%-%-port must be an integer from 0 to 65535", err)
    local url, stop = start { "--host", "0.0.0.0" }
    local text = stop()
    assert.matches("^http://0%.0%.0%.0:%d+/$", url)
    assert.matches("warning: listening on 0%.0%.0%.0, reachable from other machines", text)
  end)
end)
