-- boardscript serve, what the page needs to show a game truly (issue 31):
-- a forced pass and `pass` typed, what the last move changed, who played
-- each move, resigning, a game from a list of moves (a study's "play from
-- here"), a version a second tab polls, the settings a game was made
-- with, the strength levels and rules text of each rule set, the cells of
-- moves that are not one cell, and a watched match's Elo only once finite.
local json = require "dkjson"
local api = require "boardscript.serve.api"
local game_mod = require "boardscript.game"
local games = require "boardscript.serve.games"
local levels = require "boardscript.serve.levels"
local watch = require "boardscript.serve.watch"
local match_mod = require "boardscript.match"

local function call(store, method, path, body, query)
  local status, content_type, text = api.handle(store, "PAGE", method, path, query, body)
  return status, content_type:match("^application/json") and json.decode(text) or text
end

local function post(store, path, body) return call(store, "POST", path, body and json.encode(body) or "") end

-- Black must pass after these moves of 8 x 8 Reversi (found by random play).
local TO_PASS = { "f5", "f6", "c4", "g5", "h5", "h4", "f7", "h6" }

local function set_of(list)
  local out = {}
  for _, v in ipairs(list or {}) do out[v] = true end
  return out
end

-- The cells whose content changed between two positions of game `g`'s board, but `except`.
local function diff(before, after, n, except)
  local out = {}
  for r = 1, n do
    for c = 1, n do
      local name = string.char(96 + c) .. r
      if name ~= except and before[name] ~= after:get(r, c) then out[#out + 1] = name end
    end
  end
  table.sort(out)
  return out
end

local function cells(b, n)
  local out = {}
  for r = 1, n do
    for c = 1, n do out[string.char(96 + c) .. r] = b:get(r, c) end
  end
  return out
end

describe("serve: turns, passes and what a move did", function()
  it("announces a forced pass, takes `pass` typed, and refuses it where a move exists", function()
    local store = games.new_store { seed = 1 }
    local status, view = post(store, "/api/games", { rules = "reversi", moves = TO_PASS,
                                                     players = { black = "human", white = "human" } })
    assert.equal(201, status, view.error)
    assert.equal("black", view.to_move)
    assert.is_true(view.must_pass)
    assert.is_true(view.can_pass)
    assert.same({}, view.moves)
    status, view = post(store, "/api/games/" .. view.id .. "/move", { move = " PASS " })
    assert.equal(200, status, view.error)
    assert.equal("pass", view.log[#view.log])
    assert.is_false(view.must_pass)
    assert.is_true(view.last.pass)
    assert.equal("Black", view.last.side_name)
    status, view = post(store, "/api/games/" .. view.id .. "/move", { move = "pass" })
    assert.equal(400, status)
    assert.equal("White has a move and may not pass", view.error)
  end)

  it("marks the cells the last move changed, checked against the game replayed here", function()
    local store = games.new_store { seed = 1 }
    local _, view = post(store, "/api/games", { rules = "reversi", players = { black = "human", white = "human" } })
    local g = game_mod.new("reversi", {})
    for ply = 1, 12 do
      local text = view.moves[(ply * 7) % #view.moves + 1]
      local before = cells(g:board(), 8)
      local move = g:check(g:parse_move(text))
      local mover = g:side_name()
      g:play(move)
      local status
      status, view = post(store, "/api/games/" .. view.id .. "/move", { move = text })
      assert.equal(200, status, view.error)
      local marked = view.last.changed
      table.sort(marked)
      assert.same(diff(before, g:board(), 8, text), marked)
      assert.is_true(#marked >= 1)
      assert.equal(#marked, view.last.flipped)
      assert.equal(0, view.last.captured)
      assert.equal(mover, view.last.side_name)
      assert.equal(text, view.last.text)
      -- the picture marks exactly those discs
      local shown = {}
      for cell in view.svg:gmatch('class="disc %a+ flipped" data%-cell="(%w+)"') do shown[#shown + 1] = cell end
      table.sort(shown)
      assert.same(marked, shown)
    end
  end)

  it("says who moves again: FlipFlop's second piece, a box completed in dots", function()
    local store = games.new_store { seed = 1 }
    -- c5 captures two: White may place a second piece, or pass
    local status, view = post(store, "/api/games", { rules = "flipflop", moves = { "e3", "d3", "c5" },
                                                     players = { white = "human", black = "human" } })
    assert.equal(201, status, view.error)
    assert.equal("white", view.to_move)
    assert.is_true(view.last.again)
    assert.equal(2, view.piece)
    assert.is_true(view.can_pass)
    assert.is_false(view.must_pass)
    assert.is_true(view.last.flipped >= 2)
    assert.same({ "white", "black", "white" }, view.log_sides)
    status, view = post(store, "/api/games", { rules = "dots", size = "2x2", moves = { "a1 a2", "a1 b1", "b1 b2" },
                                               players = { ["1"] = "human", ["2"] = "human" } })
    assert.equal(201, status, view.error)
    status, view = post(store, "/api/games/" .. view.id .. "/move", { move = "a2 b2" })
    assert.equal(200, status, view.error)
    assert.is_true(view.last.again)
    assert.same({ "a1" }, view.last.changed)
    assert.equal("Player 2", view.last.side_name)
    assert.same({ "Player 1", "Player 2" }, view.side_names)
    assert.same({ "1", "2", "1", "2" }, view.log_sides)
    assert.truthy(view.svg:find('class="box p2 changed"', 1, true))
    assert.truthy(view.svg:find('class="last-mark"', 1, true)) -- the last edge by shape too
  end)

  it("lists the side of every move, a side that moves twice included", function()
    local store = games.new_store { seed = 1 }
    local _, view = post(store, "/api/games", { rules = "dots", size = "2x2",
                                                players = { ["1"] = "human", ["2"] = "human" },
                                                moves = { "a1 a2", "a1 b1", "b1 b2", "a2 b2", "b2 b3" } })
    assert.same({ "1", "2", "1", "2", "2" }, view.log_sides)
  end)
end)

describe("serve: games from moves, resigning, versions and settings", function()
  it("starts a game from a list of moves, naming the first that is not legal", function()
    local store = games.new_store { seed = 1 }
    local status, view = post(store, "/api/games", { rules = "reversi", size = "6", moves = { "c2", "b2" },
                                                     players = { black = "human", white = "human" } })
    assert.equal(201, status, view.error)
    assert.same({ "c2", "b2" }, view.log)
    status, view = post(store, "/api/games", { rules = "reversi", moves = { "f5", "a1" } })
    assert.equal(400, status)
    assert.equal("moves[2] a1 is not a legal move here", view.error)
    status, view = post(store, "/api/games", { rules = "reversi", moves = "f5" })
    assert.equal(400, status)
    assert.matches("moves: expected a list", view.error)
    status, view = post(store, "/api/games", { rules = "reversi", moves = { 5 } })
    assert.equal(400, status)
    assert.equal("moves[1]: expected a move's text", view.error)
  end)

  it("resigns for the human, the other side wins; undo takes it back; the AI is refused meanwhile", function()
    local store = games.new_store { seed = 1 }
    local _, view = post(store, "/api/games", { rules = "reversi", players = { black = "human", white = "greedy" } })
    local id = view.id
    local status
    status, view = post(store, "/api/games/" .. id .. "/resign")
    assert.equal(200, status, view.error)
    assert.is_true(view.finished)
    assert.equal("black", view.resigned)
    assert.equal("white", view.winner)
    assert.equal("White", view.winner_name)
    assert.same({}, view.moves)
    assert.is_false(view.human_to_move)
    status, view = post(store, "/api/games/" .. id .. "/move", { move = "f5" })
    assert.equal(400, status)
    assert.equal("the game is over: Black resigned", view.error)
    assert.equal(400, (post(store, "/api/games/" .. id .. "/ai")))
    assert.equal(400, (post(store, "/api/games/" .. id .. "/resign")))
    status, view = post(store, "/api/games/" .. id .. "/undo")
    assert.equal(200, status, view.error)
    assert.is_false(view.finished)
    assert.is_nil(view.resigned)
    -- two humans: the side is named, and must be a human's
    _, view = post(store, "/api/games", { rules = "reversi", players = { black = "human", white = "human" } })
    status, view = post(store, "/api/games/" .. view.id .. "/resign", { side = "white" })
    assert.equal(200, status)
    assert.equal("black", view.winner)
    _, view = post(store, "/api/games", { rules = "reversi", players = { black = "human", white = "greedy" } })
    status, view = post(store, "/api/games/" .. view.id .. "/resign", { side = "white" })
    assert.equal(400, status)
    assert.matches("not a human player", view.error)
  end)

  it("counts a version a page polls with ?since=, changed by every move", function()
    local store = games.new_store { seed = 1 }
    local _, view = post(store, "/api/games", { rules = "reversi", players = { black = "human", white = "human" } })
    local id, version = view.id, view.version
    local status, same = call(store, "GET", "/api/games/" .. id, nil, { since = tostring(version) })
    assert.equal(200, status)
    assert.is_true(same.unchanged)
    assert.equal(version, same.version)
    assert.is_nil(same.svg)
    _, view = post(store, "/api/games/" .. id .. "/move", { move = view.moves[1] })
    assert.equal(version + 1, view.version)
    local _, changed = call(store, "GET", "/api/games/" .. id, nil, { since = tostring(version) })
    assert.is_nil(changed.unchanged)
    assert.equal(version + 1, changed.version)
    assert.same(view.log, changed.log)
    _, view = post(store, "/api/games/" .. id .. "/undo")
    assert.equal(version + 2, view.version)
    _, view = post(store, "/api/games/" .. id .. "/restart")
    assert.equal(version + 3, view.version)
  end)

  it("hands back the settings a game was made with, for the page's form", function()
    local store = games.new_store { seed = 1 }
    local _, view = post(store, "/api/games", { rules = "dots", size = "2x3", players = { ["2"] = "dots_search" } })
    assert.same({ rows = "2", cols = "3" }, view.settings.options)
    assert.same({ ["2"] = "dots_search" }, view.settings.players)
    _, view = post(store, "/api/games", { rules = "reversi", size = 6, options = { centre = "black" } })
    assert.same({ size = "6", centre = "black" }, view.settings.options)
  end)
end)

describe("serve: the rule sets' levels and texts", function()
  it("offers levels that stand for documented policies, Strong being the policy's default", function()
    local store = games.new_store { seed = 1 }
    local _, value = call(store, "GET", "/api/rules")
    local by = {}
    for _, r in ipairs(value.rules) do by[r.name] = r end
    local function policies(r)
      local out = {}
      for _, l in ipairs(r.levels) do out[l.key] = l.policy end
      return out
    end
    assert.same({ easy = "greedy", casual = "alphabeta:depth=2", strong = "alphabeta", expert = "alphabeta:time=1" },
      policies(by.reversi))
    assert.equal("dots_search", policies(by.dots).strong)
    assert.equal("mcts", policies(by.anti).strong)
    for _, r in ipairs(value.rules) do
      assert.equal("string", type(r.description), r.name)
      assert.equal(2, #r.sides, r.name)
      for _, l in ipairs(r.levels) do
        local name = l.policy:match("^[%w_]+")
        assert.truthy(set_of(r.players)[name], r.name .. ": " .. l.policy)
      end
    end
    assert.same({ { side = "1", name = "Player 1" }, { side = "2", name = "Player 2" } }, by.dots.sides)
    assert.same({}, levels.for_policies { "random" })
  end)

  it("gives the cells of each move that is not one cell (a Breakthrough step, an Amazons move and arrow)", function()
    local store = games.new_store { seed = 1 }
    local status, view = post(store, "/api/games", { rules = "breakthrough", players = { black = "human",
                                                                                       white = "human" } })
    assert.equal(201, status, view.error)
    assert.equal(#view.moves, #view.paths)
    for i, p in ipairs(view.paths) do
      assert.equal(view.moves[i], p.text)
      assert.equal(2, #p.cells)
    end
    -- Amazons: in the order a person clicks them, the order the text names them (move_cells puts the landing last)
    status, view = post(store, "/api/games", { rules = "amazons", players = { black = "human", white = "human" } })
    assert.equal(201, status, view.error)
    for _, p in ipairs(view.paths) do
      local from, to, arrow = p.text:match("^(%l%d+)%-(%l%d+)/(%l%d+)$")
      assert.same({ from, to, arrow }, p.cells)
    end
  end)
end)

describe("serve: a watched match's summary", function()
  it("always has the Elo line, in words while the Elo or its margin is not finite (never inf or nan)", function()
    local info = { a = "A", b = "B", rules = "reversi", size = "8", games = 4, unit = "discs",
                   sides = { "black", "white" }, side_names = { "Black", "White" } }
    local mt = { tally = match_mod.tally(info.sides), info = info }
    local function has_elo()
      for _, line in ipairs(watch.summary(mt, 1)) do
        if line:find("^Elo difference:") then return line end
      end
    end
    local function add(result, side)
      match_mod.add(mt.tally, { a_side = side, result = result, margin = result == "win" and 10 or -10 })
    end
    add("win", "black")
    assert.equal("Elo difference: not yet measurable (A won every game), LOS: 84.1 %, DrawRatio: 0.0 %", has_elo())
    add("win", "white") -- 2-0: infinite
    assert.equal("Elo difference: not yet measurable (A won every game), LOS: 92.1 %, DrawRatio: 0.0 %", has_elo())
    add("loss", "black")
    add("draw", "white")
    add("win", "white") -- 3-1-1: 147.2 +/- inf
    assert.equal("Elo difference: 147.2, margin not yet measurable (too few games), LOS: 84.1 %, DrawRatio: 20.0 %",
      has_elo())
    add("loss", "black") -- 3-2-1: 58.5 +/- 350.6
    assert.equal("Elo difference: 58.5 +/- 350.6, LOS: 67.3 %, DrawRatio: 16.7 %", has_elo())
  end)
end)
