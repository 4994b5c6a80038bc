-- Rectangular capture boards (core.board(rows, cols)) through every layer a
-- user meets: the rule set's options, notation and board text, render,
-- serve's view, records, training data and trained files.
local core = require "boardscript.core"
local game = require "boardscript.game"
local json = require "dkjson"
local rules_mod = require "boardscript.rules"
local svg = require "boardscript.render.svg"

-- A game of `name` with option texts `texts` (as --size and --opt give them).
local function new(name, texts)
  local rule_options = require "boardscript.rule_options"
  local rules = rules_mod.load(name)
  return game.new(rules, rule_options.convert(rules, texts), core.rng(1))
end

describe("a rows x cols capture board", function()
  it("is what --size RxC asks of Reversi: the shape, the start, the size text", function()
    local texts = require("boardscript.rule_options").texts { size = "6x8" }
    assert.same({ rows = "6", cols = "8" }, texts)
    local g = new("reversi", texts)
    local b = g:board()
    assert.equal(6, b:rows())
    assert.equal(8, b:cols())
    assert.equal("6x8", g:size_text())
    assert.equal("white", b:get(3, 4)); assert.equal("black", b:get(3, 5))
    assert.equal("black", b:get(4, 4)); assert.equal("white", b:get(4, 5))
    assert.equal(44, b:count("empty"))
    assert.equal(0, b:count("block"))
    local listed = {}
    for _, m in ipairs(g:moves()) do listed[#listed + 1] = g:move_text(m) end
    table.sort(listed)
    assert.same({ "c3", "d2", "e5", "f4" }, listed)
  end)

  it("has the notation of its rows and columns: h6 is a cell, i1 and a7 are not", function()
    local g = new("reversi", { rows = "6", cols = "8" })
    assert.same({ 6, 8 }, g:parse_move("h6"))
    assert.is_nil(g:parse_move("i1"))
    assert.is_nil(g:parse_move("a7"))
    assert.is_nil(g:move_text({ 7, 1 }))
    assert.equal("h6", g:move_text({ 6, 8 }))
    local text = g.rules:board_text(g.state)
    local lines = {}
    for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
    assert.equal(7, #lines)
    assert.equal("   a b c d e f g h", lines[1])
    assert.equal(" 6 . . . . . . . .", lines[7])
    local tall = new("reversi", { rows = "8", cols = "4" })
    assert.equal("8x4", tall:size_text())
    assert.same({ 8, 4 }, tall:parse_move("d8"))
    assert.is_nil(tall:parse_move("e1"))
  end)

  it("is drawn rows x cols: the title, the cells, a picture as wide as its columns", function()
    local g = new("reversi", { rows = "6", cols = "8" })
    local text = svg.picture(g, { cells = true })
    assert.matches("<title>reversi, 6 x 8</title>", text, 1, true)
    local width, height = text:match('viewBox="0 0 (%d+) (%d+)"')
    local cells = {}
    for cell in text:gmatch('data%-cell="(%w+)"') do cells[cell] = true end
    assert.is_true(cells.h6)
    assert.is_nil(cells.a7)
    assert.is_nil(cells.i1)
    local square = svg.picture(new("reversi", { size = "8" }), { cells = true })
    local sw, sh = square:match('viewBox="0 0 (%d+) (%d+)"')
    assert.equal(tonumber(sw), tonumber(width))
    assert.is_true(tonumber(height) < tonumber(sh), "6 rows are drawn shorter than 8")
  end)

  it("plays a game to its end as the C searcher and the hooks agree, and records it with its shape", function()
    local g = new("reversi", { rows = "4", cols = "6" })
    local players = require "boardscript.players"
    local black, white = players.load("alphabeta:depth=3", g.rules), players.load("random", g.rules)
    local moves = 0
    while not g:finished() do
      local p = g:to_move() == "black" and black or white
      local choice = players.choose(p, g)
      if choice == "pass" then g:pass() else g:play(g:check(choice)) end
      moves = moves + 1
      assert.is_true(moves < 40)
    end
    local b = g:board()
    assert.equal(24, b:count("black") + b:count("white") + b:count("empty"))
    local record = require "boardscript.record"
    local text = record.text(g)
    assert.matches("option cols=6\n", text, 1, true)
    assert.matches("option rows=4\n", text, 1, true)
    local rec = record.parse(text)
    local again = record.start(rec)
    for _, entry in ipairs(rec.moves) do assert.is_true(record.apply(again, entry)) end
    assert.equal("4x6", again:size_text())
    assert.is_true(again:board() == b)
  end)

  it("is served rows x cols: the view's size, its moves and a move played", function()
    local api = require "boardscript.serve.api"
    local games = require "boardscript.serve.games"
    local store = games.new_store { seed = 1 }
    local status, _, text = api.handle(store, "PAGE", "POST", "/api/games", {},
      json.encode { rules = "reversi", size = "6x8", players = { black = "human", white = "human" } })
    local view = json.decode(text)
    assert.equal(201, status, view.error)
    assert.equal("6x8", view.size)
    table.sort(view.moves)
    assert.same({ "c3", "d2", "e5", "f4" }, view.moves)
    status, _, text = api.handle(store, "PAGE", "POST", ("/api/games/%s/move"):format(view.id), {},
      json.encode { move = "d2" })
    view = json.decode(text)
    assert.equal(200, status, view.error)
    assert.same({ "d3" }, view.last.changed)
    status, _, text = api.handle(store, "PAGE", "POST", ("/api/games/%s/move"):format(view.id), {},
      json.encode { move = "a7" })
    assert.equal(400, status)
    assert.matches("'a7' is not a move here", json.decode(text).error, 1, true)
  end)

  it("writes training cells n x n with the margin as blocks, and reads them back", function()
    local data = require "boardscript.train.data"
    local b = core.board(2, 3)
    b:set(1, 1, "black"); b:set(2, 3, "white"); b:set(1, 2, "block")
    assert.equal("x#...o###", data.cells(b, "black"))
    assert.equal("o#...x###", data.cells(b, "white"))
    local back = data.board(core.board(2, 3), data.cells(b, "black"), 3)
    assert.is_true(back == b)
    assert.is_false(core.board(3) == b)
    -- and an evaluator of its shape reads it
    local wide = core.board(3, 5)
    wide:set(2, 2, "black")
    local ev = core.evaluator { rows = 3, cols = 5, phases = 1 }
    assert.equal(0, ev:evaluate(wide, "black"))
    assert.is_false((pcall(ev.evaluate, ev, core.board(5), "black")))
  end)

  it("keeps a trained file to its shape: refused on the square of the same size", function()
    local evalfile = require "boardscript.evalfile"
    assert.same({ 8 }, { evalfile.shape(core.board(8)) })
    assert.same({ 8, "6x8" }, { evalfile.shape(core.board(6, 8)) })
    local meta = { rules = "reversi", size = 8, shape = "6x8", path = "r68.bse" }
    evalfile.check(meta, "reversi", 8, "6x8")
    local ok, err = pcall(evalfile.check, meta, "reversi", 8, nil)
    assert.is_false(ok)
    assert.matches("r68.bse was trained for reversi 6 x 8, not reversi 8 x 8", tostring(err), 1, true)
    ok, err = pcall(evalfile.check, { rules = "reversi", size = 8, path = "sq.bse" }, "reversi", 8, "8x6")
    assert.is_false(ok)
    assert.matches("sq.bse was trained for reversi 8 x 8, not reversi 8 x 6", tostring(err), 1, true)
  end)
end)
