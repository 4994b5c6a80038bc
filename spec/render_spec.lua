-- `boardscript render`: SVG pictures of positions and games, checked with a
-- real XML parser (xmllint, libxml2-utils) and a real renderer
-- (rsvg-convert, librsvg2-bin), both installed by scripts/bootstrap.
local bs = require "boardscript"
local files = require "support.files"
local record = require "boardscript.record"
local support = require "support.host"
local xml = require "boardscript.render.xml"

local SOURCE = assert(os.getenv("BOARDSCRIPT_SOURCE"), "BOARDSCRIPT_SOURCE is set by ctest")
local q = support.shell_quote

-- Runs a shell command: its exit status and its standard output.
local function sh(command)
  local pipe = assert(io.popen(command .. " 2>&1"))
  local out = pipe:read("a")
  local _, _, status = pipe:close()
  return status, out
end

for _, tool in ipairs { "xmllint", "rsvg-convert" } do
  assert(os.execute("command -v " .. tool .. " >/dev/null"),
    tool .. " is needed (scripts/bootstrap installs libxml2-utils and librsvg2-bin)")
end

-- A picture on disk, read through xmllint.
local Picture = {}
Picture.__index = Picture

local function picture_of(text)
  local path = os.tmpname()
  support.spit(path, text)
  return setmetatable({ path = path, text = text }, Picture)
end

function Picture:remove() os.remove(self.path) end

-- The XPath 1.0 expression's value, as text.
function Picture:xpath(expression)
  local status, out = sh(("xmllint --xpath %s %s"):format(q(expression), q(self.path)))
  assert(status == 0 or status == 10, out) -- 10: the node set is empty
  return status == 10 and "" or (out:gsub("\n$", ""))
end

function Picture:count(expression)
  return assert(tonumber(self:xpath("count(" .. expression .. ")")), expression)
end

-- The values of attribute `attribute` of the elements of class `class`, in
-- document order.
function Picture:values(class, attribute)
  local values = {}
  for value in self:xpath(("//*[@class='%s']/@%s"):format(class, attribute)):gmatch('="([^"]*)"') do
    values[#values + 1] = value
  end
  return values
end

-- Checks that the SVG is well-formed XML and that rsvg-convert draws it as a
-- PNG of the declared size; returns the width and height.
function Picture:check()
  local status, out = sh("xmllint --noout " .. q(self.path))
  assert.equal(0, status, out)
  local width = tonumber(self:xpath("string(/*/@width)"))
  local height = tonumber(self:xpath("string(/*/@height)"))
  assert.equal("svg", self:xpath("local-name(/*)"))
  assert.equal("http://www.w3.org/2000/svg", self:xpath("namespace-uri(/*)"))
  local png = self.path .. ".png"
  status, out = sh(("rsvg-convert -o %s %s"):format(q(png), q(self.path)))
  assert.equal(0, status, out)
  local data = support.slurp(png)
  os.remove(png)
  assert.equal("\137PNG\r\n\26\n", data:sub(1, 8))
  assert.equal("IHDR", data:sub(13, 16))
  local png_width, png_height = string.unpack(">I4I4", data, 17)
  assert.equal(width, png_width)
  assert.equal(height, png_height)
  return width, height
end

-- Runs `boardscript render ARGS...` (to standard output): the picture.
local function render(args, opts)
  local full = { "render" }
  for i, a in ipairs(args) do full[i + 1] = a end
  local status, out, err = support.run(full, opts or { cwd = SOURCE })
  assert.equal("", err)
  assert.equal(0, status)
  return picture_of(out)
end

-- Runs the host expecting a usage error: its one line on stderr.
local function fails(args)
  local full = { "render" }
  for i, a in ipairs(args) do full[i + 1] = a end
  local status, out, err = support.run(full, { cwd = SOURCE })
  assert.equal(2, status, err)
  assert.equal("", out)
  assert.matches("^boardscript: [^\n]+\n$", err)
  return err
end

local function sorted(list)
  table.sort(list)
  return list
end

-- The cells of a core board holding `what`, in notation, sorted.
local function cells(board, what)
  local list = {}
  for _, cell in ipairs(board:cells(what)) do list[#list + 1] = string.char(96 + cell[2]) .. cell[1] end
  return sorted(list)
end

-- A game of `rules` after the moves of `texts` (notation).
local function played(rules, texts, opts, seed)
  local g = bs.new_game(rules, opts, seed)
  for _, text in ipairs(texts) do
    if text == "pass" then assert(g:pass()) else assert(g:play(assert(g:parse_move(text), text))) end
  end
  return g
end

local DOTS_MOVES = "a3 a4, d2 d3, a5 b5, a4 a5, b5 c5, a1 a2, b1 c1, b4 b5, a2 a3, b2 b3, c4 c5, b3 b4, c4 d4, "
  .. "a1 b1, a2 b2, d1 d2, a4 b4, d4 d5, c2 d2, c5 d5, c1 d1, b3 c3, b2 c2, c1 c2, a3 b3"
local GAME = SOURCE .. "/docs/images/reversi-game.rec"

-- The entries of the record at `path` replayed: the game, and the cell of
-- each move (nil for a pass), by move number.
local function replayed(path, upto)
  local rec = record.load(path)
  local g = record.start(rec, path)
  local at = {}
  for k, entry in ipairs(rec.moves) do
    if upto and k > upto then break end
    assert(record.apply(g, entry))
    if not entry.pass then at[k] = entry.text end
  end
  return g, at, #rec.moves
end

-- A game of single and jump moves written from scratch (as Ataxx is): a
-- step {row, col} puts a new piece next to one of the mover's, a jump
-- {from_row, from_col, to_row, to_col} moves one two cells away. Its
-- move_cells hook tells render where a jump comes from and lands.
local HOP = [[
local core = require "boardscript.core"
local rules = require "boardscript.rules"
local hop = { name = "hop" }
local OTHER = { black = "white", white = "black" }
function hop:setup()
  local board = core.board(5)
  board:set(1, 1, "black")
  board:set(5, 5, "white")
  return { board = board, player = "black", history = {} }
end
function hop:moves(state)
  local b, list, seen = state.board, {}, {}
  for _, from in ipairs(b:cells(state.player)) do
    for dr = -2, 2 do
      for dc = -2, 2 do
        local r, c = from[1] + dr, from[2] + dc
        local far = math.max(math.abs(dr), math.abs(dc))
        if far > 0 and rules.on_board(b, r, c) and b:get(r, c) == "empty" then
          if far == 1 and not seen[r * 8 + c] then
            seen[r * 8 + c] = true
            list[#list + 1] = { r, c }
          elseif far == 2 then
            list[#list + 1] = { from[1], from[2], r, c }
          end
        end
      end
    end
  end
  return list
end
function hop:play(state, move)
  local legal
  for _, m in ipairs(self:moves(state)) do
    if self:move_text(m, state) == self:move_text(move, state) then legal = m end
  end
  if not legal then return nil, "not a move here" end
  local b = state.board
  if #legal == 4 then b:set(legal[1], legal[2], "empty") end
  b:set(legal[#legal - 1], legal[#legal], state.player)
  state.history[#state.history + 1] = legal
  state.player = OTHER[state.player]
  return true
end
function hop:undo(state)
  local last = table.remove(state.history)
  if not last then return false end
  state.player = OTHER[state.player]
  state.board:set(last[#last - 1], last[#last], "empty")
  if #last == 4 then state.board:set(last[1], last[2], state.player) end
  return true
end
function hop:can_pass() return false end
function hop:pass() return nil, "no passing" end
function hop:finished(state) return #state.history >= 6 end
function hop:score(state) return state.board:count("black"), state.board:count("white") end
local function cell(r, c) return string.char(96 + c) .. r end
function hop:move_text(move, state)
  if type(move) ~= "table" then return nil end
  local n = state and state.board:size() or 26
  for i = 1, #move do
    if math.type(move[i]) ~= "integer" or move[i] < 1 or move[i] > n then return nil end
  end
  if #move == 2 then return cell(move[1], move[2]) end
  if #move == 4 then return cell(move[1], move[2]) .. "-" .. cell(move[3], move[4]) end
  return nil
end
function hop:parse_move(text, state)
  local a, b, c, d = tostring(text):match("^(%a)(%d)%-(%a)(%d)$")
  local move = a and { tonumber(b), a:byte() - 96, tonumber(d), c:byte() - 96 }
  if not move then
    a, b = tostring(text):match("^(%a)(%d)$")
    move = a and { tonumber(b), a:byte() - 96 }
  end
  return move and self:move_text(move, state) and move or nil
end
function hop:move_cells(move)
  if #move == 4 then return { { move[1], move[2] }, { move[3], move[4] } } end
  return { { move[1], move[2] } }
end
return rules.define(hop)
]]

describe("boardscript render", function()
  describe("a game of jumps (move_cells)", function()
    it("rings where the last jump landed, marks where it came from, and marks each legal cell once", function()
      local path, remove = files.lua(HOP)
      local p = render { path, "--moves", "a1-c3" }
      p:check()
      assert.same({ "c3" }, p:values("last", "data-cell"))
      assert.same({ "a1" }, p:values("from", "data-cell"))
      -- white at e5: steps to d4, d5, e4; jumps to c3 (taken), c4, c5, d3, e3
      assert.same({ "c4", "c5", "d3", "d4", "d5", "e3", "e4" }, sorted(p:values("legal", "data-cell")))
      p:remove()
      -- a step: no origin; black now has two moves onto most cells, marked once
      p = render { path, "--moves", "a1-c3 d4 b2" }
      assert.same({ "b2" }, p:values("last", "data-cell"))
      assert.equal(0, p:count("//*[@class='from']"))
      local legal = p:values("legal", "data-cell")
      assert.truthy(#legal > 5)
      local seen = {}
      for _, cell in ipairs(legal) do
        assert.is_nil(seen[cell], cell)
        seen[cell] = true
      end
      p:remove()
      -- a move_cells naming a cell off the board is the rule set's fault
      local bad, remove_bad = files.lua(HOP:gsub("return { { move%[1%], move%[2%] } }\nend",
        "return { { 9, 9 } }\nend"))
      local status, _, err = support.run({ "render", bad, "--moves", "a1-c3 d4 b2" }, { cwd = SOURCE })
      assert.equal(2, status)
      assert.matches("rules " .. bad:gsub("%p", "%%%0") .. ": hook 'move_cells' returned {9, 9} as cell 1 for b2 "
        .. "%(expected {row, col} on the 5 x 5 board%)", err)
      remove_bad()
      remove()
    end)
  end)

  describe("a position", function()
    it("has one disc element per disc, the legal moves of the side to move and the last move", function()
      local p = render { "reversi", "--moves", "f5 d6 c3" }
      p:check()
      local g = played("reversi", { "f5", "d6", "c3" })
      local black, white = g:score()
      assert.equal(black, p:count("//*[@class='disc black']"))
      assert.equal(white, p:count("//*[@class='disc white']"))
      assert.same(cells(g:board(), "black"), sorted(p:values("disc black", "data-cell")))
      local legal = {}
      for i, move in ipairs(g:moves()) do legal[i] = g:move_text(move) end
      assert.same(sorted(legal), sorted(p:values("legal", "data-cell")))
      assert.same({ "c3" }, p:values("last", "data-cell"))
      assert.equal(16, p:count("//*[@class='coord']")) -- a..h and 1..8
      assert.equal(0, p:count("//*[@class='number']"))
      assert.matches("White to move", p:xpath("string(//*[@class='caption'][2])"), 1, true)
      p:remove()
    end)

    it("draws the blocks where the seeded setup put them", function()
      local p = render { "blocks", "--size", "6", "--opt", "blocks=5", "--seed", "7" }
      p:check()
      local g = bs.new_game("blocks", { size = 6, blocks = "5" }, 7)
      assert.equal(5, #cells(g:board(), "block"))
      assert.same(cells(g:board(), "block"), sorted(p:values("block", "data-cell")))
      assert.equal(#g:moves(), p:count("//*[@class='legal']"))
      assert.equal(0, p:count("//*[@class='last']"))
      p:remove()
      local other = render { "blocks", "--size", "6", "--opt", "blocks=5", "--seed", "8" }
      assert.are_not.equal(p.text, other.text)
      other:remove()
    end)

    it("fits any size: the picture grows with the board and renders at its declared size", function()
      local widths = {}
      for _, size in ipairs { "4", "8", "26" } do
        local p = render { "reversi", "--size", size, "--no-legal" }
        widths[#widths + 1] = p:check()
        assert.equal(0, p:count("//*[@class='legal']"))
        assert.equal(4, p:count("//*[@class='disc black' or @class='disc white']"))
        assert.equal(2 * tonumber(size), p:count("//*[@class='coord']"))
        p:remove()
      end
      assert.is_true(widths[1] < widths[2] and widths[2] < widths[3])
    end)

    it("titles a game by its rule set's size_text where that says rows x columns", function()
      local dir = os.tmpname()
      os.remove(dir)
      assert(os.execute("mkdir " .. q(dir)))
      local path = dir .. "/wide.lua"
      local f = assert(io.open(path, "w"))
      f:write('local rules = require "boardscript.rules"\n',
        'return rules.variant(require "boardscript.rules.reversi", { name = "wide", ',
        'size_text = function() return "7x6" end })\n')
      f:close()
      local p = render { path }
      assert.matches("<title>wide, 7 x 6, start position</title>", p.text, 1, true)
      p:remove()
      p = render { "reversi", "--size", "6" }
      assert.matches("<title>reversi, 6 x 6, start position</title>", p.text, 1, true)
      p:remove()
      os.remove(path)
      os.remove(dir)
    end)

    it("numbers the moves with --numbers and says who passed", function()
      local p = render { "reversi", "--numbers", "--moves", "f5 d6 c3 d3 c4" }
      p:check()
      assert.same({ "c3", "c4", "d3", "d6", "f5" }, sorted(p:values("number", "data-cell")))
      assert.equal("5", p:xpath("string(//*[@class='number'][@data-cell='c4'])"))
      p:remove()
      -- A random game on 4 x 4 up to a pass that does not end it.
      local g, texts
      for seed = 1, 100 do
        g, texts = bs.new_game("reversi", { size = 4 }, seed), {}
        while not g:finished() and not g:can_pass() do
          local moves = g:moves()
          local move = moves[g.rng:random(#moves)]
          texts[#texts + 1] = g:move_text(move)
          g:play(move)
        end
        if not g:finished() then
          assert(g:pass())
          if not g:finished() then break end
        end
      end
      texts[#texts + 1] = "pass"
      assert.is_false(g:finished())
      p = render { "reversi", "--size", "4", "--moves", table.concat(texts, " ") }
      p:check()
      assert.matches(g:side_name() .. " to move (" .. g:side_name(g:to_move() == "black" and "white" or "black")
        .. " passed)", p:xpath("string(//*[@class='caption'][2])"), 1, true)
      assert.equal(0, p:count("//*[@class='last']"))
      p:remove()
    end)

    it("draws other rule sets through their board: flipflop, othello, files", function()
      for _, case in ipairs {
        { "flipflop", "--size", "8" },
        { "othello", "--moves", "a1" },
        { "othello-strict" },
        { "./lua/examples/holes.lua", "--size", "6", "--opt", "holes=3", "--seed", "3" },
        { "./lua/examples/tictactoe.lua", "--moves", "b2 a1 c3" },
        { "./lua/examples/octagon.lua" },
      } do
        local p = render(case)
        p:check()
        local opts, texts = {}, {}
        for i = 2, #case, 2 do
          if case[i] == "--size" then opts.size = tonumber(case[i + 1]) end
          if case[i] == "--opt" then
            local key, value = case[i + 1]:match("(%w+)=(.*)")
            opts[key] = tonumber(value) or value
          end
          if case[i] == "--moves" then for t in case[i + 1]:gmatch("%S+") do texts[#texts + 1] = t end end
        end
        local seed = case[#case - 1] == "--seed" and tonumber(case[#case]) or 0
        local g = played((case[1]:gsub("^%./", SOURCE .. "/")), texts, opts, seed)
        assert.same(cells(g:board(), "black"), sorted(p:values("disc black", "data-cell")), case[1])
        assert.same(cells(g:board(), "white"), sorted(p:values("disc white", "data-cell")), case[1])
        assert.same(cells(g:board(), "block"), sorted(p:values("block", "data-cell")), case[1])
        assert.equal(g:finished() and 0 or #g:moves(), p:count("//*[@class='legal']"), case[1])
        p:remove()
      end
    end)

    it("escapes what a user's file names: markup, quotes, control bytes, bad UTF-8", function()
      local path, remove = files.lua([[
local rules = require "boardscript.rules"
return rules.variant(require "boardscript.rules.reversi", { name = "<b>&\"quoted\"'s\1 \255 é" })
]])
      local p = render { path }
      remove()
      p:check()
      assert.matches('<title>&lt;b&gt;&amp;&quot;quoted&quot;&#39;s\u{FFFD} \u{FFFD} é, 8 x 8', p.text, 1, true)
      assert.equal("<b>&\"quoted\"'s\u{FFFD} \u{FFFD} é, 8 x 8, start position",
        p:xpath("string(//*[local-name()='title'])"))
      p:remove()
    end)

    it("writes the same bytes every time, to -o FILE as to standard output", function()
      local dir, remove = support.scratch_dir()
      local status, out, err = support.run({ "render", "dots", "--size", "3x4", "--moves", DOTS_MOVES, "-o",
        dir .. "/a.svg" }, { cwd = SOURCE })
      assert.same({ 0, "", "" }, { status, out, err })
      local again = render { "dots", "--size", "3x4", "--moves", DOTS_MOVES }
      assert.equal(again.text, support.slurp(dir .. "/a.svg"))
      again:remove()
      remove()
    end)
  end)

  describe("Dots and Boxes", function()
    it("fills each box with its owner's colour and number, and draws every edge", function()
      local p = render { "dots", "--size", "3x4", "--numbers", "--moves", DOTS_MOVES }
      p:check()
      local texts = {}
      for m in DOTS_MOVES:gmatch("[^,]+") do texts[#texts + 1] = m end
      local g = played("dots", texts, { rows = 3, cols = 4 })
      local first, second = g:score()
      assert.is_true(first > 0 and second > 0)
      assert.equal(first, p:count("//*[@class='box p1']"))
      assert.equal(second, p:count("//*[@class='box p2']"))
      assert.equal(first, p:count("//*[@class='owner' and text()='1']"))
      assert.equal(second, p:count("//*[@class='owner' and text()='2']"))
      assert.equal(#texts, p:count("//*[@class='edge' or @class='edge last']"))
      assert.same({ "a3 b3" }, p:values("edge last", "data-edge"))
      assert.equal(#g:moves(), p:count("//*[@class='legal']"))
      assert.equal(20, p:count("//*[@class='dot']"))
      assert.equal(#texts, p:count("//*[@class='number']"))
      assert.equal("1", p:xpath("string(//*[@class='number'][@data-edge='a3 a4'])"))
      assert.matches("Player 1 " .. first .. ", Player 2 " .. second, p:xpath("string(//*[@class='caption'][2])"),
        1, true)
      p:remove()
    end)

    it("charts the boxes of both players after each move", function()
      local p = render { "dots", "--size", "2", "--chart", "--moves", "a1 a2 a1 b1 b1 b2 a2 b2" }
      p:check()
      assert.equal(4, p:count("//*[@class='point p1']"))
      assert.equal(4, p:count("//*[@class='point p2']"))
      assert.equal(1, p:count("//*[@class='box p2']"))
      p:remove()
    end)
  end)

  describe("a recorded game", function()
    it("numbers each disc with the move that placed it and charts one point per move", function()
      local p = render { "--record", GAME, "--chart" }
      p:check()
      local g, at, n = replayed(GAME)
      local black, white = g:score()
      assert.equal(black, p:count("//*[@class='disc black']"))
      assert.equal(white, p:count("//*[@class='disc white']"))
      local numbered = 0
      for k, cell in pairs(at) do
        numbered = numbered + 1
        assert.equal(tostring(k), p:xpath(("string(//*[@class='number'][@data-cell='%s'])"):format(cell)))
      end
      assert.equal(numbered, p:count("//*[@class='number']"))
      assert.equal(n, p:count("//*[@class='point black']"))
      assert.equal(n, p:count("//*[@class='point white']"))
      for k = 1, n do
        assert.equal(1, p:count(("//*[@class='point black'][@data-move='%d']"):format(k)))
      end
      assert.matches("^" .. n .. "%. ", p:xpath("string(//*[@class='point black'][last()])"))
      assert.equal(0, p:count("//*[@class='legal']")) -- the game is over
      assert.equal(0, p:count("//*[@class='cursor']"))
      p:remove()
    end)

    it("--at K draws the position after K moves, numbered up to K, with a cursor on the chart", function()
      local p = render { "--record", GAME, "--at", "20", "--chart" }
      p:check()
      local g, at, n = replayed(GAME, 20)
      assert.same(cells(g:board(), "black"), sorted(p:values("disc black", "data-cell")))
      assert.same(cells(g:board(), "white"), sorted(p:values("disc white", "data-cell")))
      local numbered = {}
      for _, cell in pairs(at) do numbered[#numbered + 1] = cell end
      assert.same(sorted(numbered), sorted(p:values("number", "data-cell")))
      assert.equal(#g:moves(), p:count("//*[@class='legal']"))
      assert.equal(1, p:count("//*[@class='cursor']"))
      assert.equal(n, p:count("//*[@class='point black']"))
      assert.matches("after 20 of " .. n .. " moves", p:xpath("string(//*[@class='caption'][1])"), 1, true)
      p:remove()
      p = render { "--record", GAME, "--at", "20", "--no-numbers", "--no-legal" }
      assert.equal(0, p:count("//*[@class='number']") + p:count("//*[@class='legal']"))
      p:remove()
    end)

    it("counts passes as moves (one point each), as replay numbers them", function()
      local dir, remove = support.scratch_dir()
      local rec, passes
      for seed = 1, 30 do
        rec = dir .. "/g.rec"
        local status = support.run({ "play", "board", "--rules", "reversi", "--size", "4", "--black", "random",
          "--white", "random", "--seed", tostring(seed), "--record", rec })
        assert.equal(0, status)
        passes = select(2, support.slurp(rec):gsub("\npass\n", "\n"))
        if passes > 0 then break end
      end
      assert.is_true(passes > 0)
      local p = render { "--record", rec, "--chart", "--eval", "2" }
      p:check()
      local _, at, n = replayed(rec)
      local numbered = 0
      for _ in pairs(at) do numbered = numbered + 1 end
      assert.equal(n - passes, numbered)
      assert.equal(n, p:count("//*[@class='point white']"))
      assert.equal(n, p:count("//*[@class='point eval']"))
      p:remove()
      remove()
    end)

    it("--eval charts the searcher's value of every position, ending at the final margin", function()
      local p = render { "--record", GAME, "--eval", "2" }
      p:check()
      local g, _, n = replayed(GAME)
      local black, white = g:score()
      assert.equal(n, p:count("//*[@class='point eval']"))
      assert.matches((": evaluation %d$"):format(black - white),
        p:xpath("string(//*[@class='point eval'][last()])"))
      assert.equal(n, p:count("//*[@class='point black']")) -- --eval implies the chart
      p:remove()
    end)
  end)

  describe("a GGF game", function()
    local GGF = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TY[8]"
      .. "BO[8 ---------------------------O*------*O--------------------------- *]"
      .. "B[f5//0.01]W[d6/1.5/0.01]B[c3/-2/0.01]W[d3/0.5];)\n"
      .. "(;GM[Othello]TY[8]B[f5]W[f5];)\n"

    it("draws the moves with numbers and charts the file's evaluations as Black's margin", function()
      local path = os.tmpname()
      support.spit(path, GGF)
      local p = render { "--record", path, "--chart" }
      p:check()
      local g = played("reversi", { "f5", "d6", "c3", "d3" })
      assert.same(cells(g:board(), "white"), sorted(p:values("disc white", "data-cell")))
      assert.equal(4, p:count("//*[@class='number']"))
      assert.equal(4, p:count("//*[@class='point black']"))
      -- Move 1 has no evaluation; White's +1.5 is Black's -1.5.
      assert.same({ "2", "3", "4" }, p:values("point eval", "data-move"))
      assert.matches(": evaluation %-1%.5$", p:xpath("string(//*[@class='point eval'][@data-move='2'])"))
      assert.matches(": evaluation %-2$", p:xpath("string(//*[@class='point eval'][@data-move='3'])"))
      p:remove()
      assert.matches("--game 3: the file has 2 games", fails { "--record", path, "--game", "3" }, 1, true)
      assert.matches("game 2: move 2 W[f5]: illegal", fails { "--record", path, "--game", "2" }, 1, true)
      os.remove(path)
    end)
  end)

  describe("bad input: one line on stderr, status 2, nothing written", function()
    local dir, remove_dir
    setup(function() dir, remove_dir = support.scratch_dir() end)
    teardown(function() remove_dir() end)

    it("an unknown rule set, a bad option, an illegal or malformed move", function()
      assert.matches("unknown rule set 'chess'", fails { "chess" }, 1, true)
      assert.matches("rule set 'reversi' has no option 'colour'", fails { "reversi", "--opt", "colour=red" }, 1, true)
      assert.matches("--moves: move 2 'a1' is illegal: ", fails { "reversi", "--moves", "f5 a1" }, 1, true)
      assert.matches("--moves: move 2 'zz' is not a move in reversi's notation",
        fails { "reversi", "--moves", "f5 zz" }, 1, true)
      assert.matches("--moves: move 2: pass is illegal: there is no passing",
        fails { "dots", "--moves", "a1 a2 pass" }, 1, true)
      assert.matches("--moves: move 2 'a2 a1' is illegal: ", fails { "dots", "--moves", "a1 a2 a2 a1" }, 1, true)
      assert.matches("--at 3: the game has 2 moves", fails { "reversi", "--moves", "f5 d6", "--at", "3" }, 1, true)
      assert.matches("--eval: the C searcher does not play rule set 'dots'", fails { "dots", "--eval", "2" }, 1, true)
    end)

    it("an unreadable or broken record", function()
      assert.matches("/missing.rec: No such file or directory", fails { "--record", dir .. "/missing.rec" }, 1, true)
      assert.matches("Is a directory", fails { "--record", dir }, 1, true)
      support.spit(dir .. "/bad.rec", "hello\n")
      assert.matches("bad.rec:1: not a boardscript record", fails { "--record", dir .. "/bad.rec" }, 1, true)
      support.spit(dir .. "/illegal.rec", "boardscript record 1\nrules reversi\nmove f5\nmove a1\n")
      assert.matches("illegal.rec:4: move 2: a1 is illegal", fails { "--record", dir .. "/illegal.rec" }, 1, true)
      support.spit(dir .. "/rules.rec", "boardscript record 1\nrules nowhere.lua\n")
      assert.matches("rules.rec: ", fails { "--record", dir .. "/rules.rec" }, 1, true)
    end)

    it("contradictory or missing arguments, an unwritable output", function()
      assert.matches("nothing to draw", fails {}, 1, true)
      assert.matches("not both", fails { "reversi", "--record", GAME }, 1, true)
      assert.matches("--size goes with a rule set", fails { "--record", GAME, "--size", "6" }, 1, true)
      assert.matches("--moves goes with a rule set", fails { "--record", GAME, "--moves", "f5" }, 1, true)
      assert.matches("--numbers and --no-numbers", fails { "reversi", "--numbers", "--no-numbers" }, 1, true)
      assert.matches("No such file or directory", fails { "reversi", "-o", dir .. "/no/such/dir/x.svg" }, 1, true)
      assert.matches("illegal", fails { "reversi", "--moves", "a1", "-o", dir .. "/x.svg" }, 1, true)
      assert.is_nil(io.open(dir .. "/x.svg"))
    end)
  end)

  describe("the guide's pictures", function()
    local guide = support.slurp(SOURCE .. "/docs/guide.md")

    -- The guide's `boardscript render ... -o docs/images/NAME.svg` commands.
    local function commands()
      local list = {}
      for line in guide:gmatch("\nboardscript render ([^\n]*)") do
        local image = line:match("%-o (docs/images/[%w%-]+%.svg)$")
        if image then list[#list + 1] = { args = line, image = image } end
      end
      return list
    end

    it("embeds two pictures, each made by a command the guide shows", function()
      local made = {}
      for _, c in ipairs(commands()) do made[c.image] = true end
      -- learning curves: `boardscript train ... --chart docs/images/NAME.svg`
      -- (shown, not rerun here: a minute of self-play; spec/train_spec.lua
      -- checks that a run draws its chart the same way every time)
      local joined = guide:gsub("\\\n%s*", " ") -- continued lines as one
      for image in joined:gmatch("\n%s*%$? ?boardscript train [^\n]-%-%-chart (docs/images/[%w%-]+%.svg)") do
        made[image] = true
      end
      -- screenshots: `SCREENSHOTS=docs/images ... spec/browser_test.py` (the
      -- names it saves; shown, not rerun here: the browser test is its own)
      if guide:find("SCREENSHOTS=docs/images [^\n]*spec/browser_test%.py") then
        for name in support.slurp(SOURCE .. "/spec/browser_test.py"):gmatch('"(serve%-[%w%-]+%.png)"') do
          made["docs/images/" .. name] = true
        end
      end
      local shown = 0
      for link in guide:gmatch("!%[[^%]]+%]%((images/[^)]+)%)") do
        shown = shown + 1
        assert.is_true(made["docs/" .. link], link)
      end
      assert.is_true(shown >= 2)
    end)

    for _, c in ipairs(commands()) do
      it(("regenerates %s byte for byte"):format(c.image), function()
        local out = os.tmpname()
        local command = ("cd %s && %s render %s"):format(q(SOURCE), q(support.BIN),
          c.args:gsub("%-o docs/images/[%w%-]+%.svg$", "-o " .. q(out)))
        local status, text = sh(command)
        assert.equal(0, status, text)
        local fresh, committed = support.slurp(out), support.slurp(SOURCE .. "/" .. c.image)
        os.remove(out)
        assert.is_true(fresh == committed, c.image .. " is stale: rerun `boardscript render " .. c.args
          .. "` from the top of the repository")
        local p = picture_of(committed)
        p:check()
        p:remove()
      end)
    end

    it("and the guide's other render commands run", function()
      local dir, remove = support.scratch_dir()
      local ran = 0
      for line in guide:gmatch("\nboardscript render ([^\n]*)") do
        if not line:match("docs/images/") then
          line = line:gsub("%-o (%S+)$", "-o " .. dir .. "/%1"):gsub("> (%S+)$", "> " .. dir .. "/%1")
          local status, text = sh(("cd %s && %s render %s"):format(q(SOURCE), q(support.BIN), line))
          assert.equal(0, status, text)
          ran = ran + 1
        end
      end
      assert.is_true(ran >= 3)
      remove()
    end)
  end)

  describe("the XML writer", function()
    it("escapes markup and replaces what XML cannot hold", function()
      assert.equal("a&lt;b&gt;&amp;&quot;&#39;", xml.escape("a<b>&\"'"))
      assert.equal("tab\there\nand é €", xml.escape("tab\there\nand é €"))
      assert.equal("\u{FFFD}x\u{FFFD}\u{FFFD}y", xml.escape("\0x\27\255y"))
      assert.equal("\u{FFFD}(", xml.escape("\xC3\x28")) -- a lead byte without its continuation
      assert.equal("\u{FFFD}\u{FFFD}\u{FFFD}", xml.escape("\xED\xA0\x80")) -- a surrogate
      assert.equal("\u{FFFD}", xml.escape("\xC0\x80"):sub(1, 3)) -- overlong
      assert.equal("7", xml.escape(7))
    end)

    it("writes numbers the same way everywhere", function()
      assert.equal("12", xml.num(12))
      assert.equal("12", xml.num(12.0))
      assert.equal("0.5", xml.num(0.5))
      assert.equal("3.33", xml.num(10 / 3))
      assert.equal("0", xml.num(-0.001))
    end)
  end)
end)
