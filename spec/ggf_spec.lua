-- GGF (boardscript.formats.ggf): games written by hand from the format's
-- description (GGS's and NBoard's writers), parsed, set up as games, written
-- back and round-tripped through records; and `boardscript convert`.
local bs = require "boardscript"
local ggf = require "boardscript.formats.ggf"
local ggf_record = require "boardscript.formats.ggf_record"
local record = require "boardscript.record"

local support = require "support.host"
local SOURCE = os.getenv("BOARDSCRIPT_SOURCE") or "."
local EXAMPLES = SOURCE .. "/lua/examples/"

-- The standard 8 x 8 start, one character a square.
local START8 = "---------------------------O*------*O---------------------------"

-- GGS style: lower-case moves, evals and times, ratings, clock, unfinished.
local GGS = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]\n"
  .. "RB[2197.01]RW[2199.72]TI[05:00//02:00]TY[8]RE[?]\n"
  .. "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\n"
  .. "B[f5/0.5/1.25]W[d6//0.01]B[c3/-1]W[d3]B[c4//1:05];)\n"

-- NBoard style on 4 x 4: Black passes at move 11; the board fills, White
-- wins 11-5 (RE -6).
local SMALL = "(;GM[Othello]PC[NBoard]PB[ann]PW[bob]RE[-6.000]TY[4]BO[4 -----O*--*O----- *]"
  .. "B[B1]W[C1]B[D2]W[A1]B[B4]W[D4]B[C4]W[D3]B[A2]W[A4]B[PA]W[D1]B[A3];)"

-- 4 x 4 ending with one empty square: 9-6, so RE is +4 (the empty to Black).
local EARLY = "(;GM[Othello]PC[boardscript]PB[]PW[]RE[+4.000]TY[4]BO[4 -----O*--*O----- *]"
  .. "B[C4]W[B4]B[A2]W[D2]B[D3]W[B1]B[A1]W[D4]B[A3]W[C1]B[D1];)"

-- A start position of its own: the board after f5 d6, Black to move.
local CUSTOM = "(;GM[Othello]PC[boardscript]PB[x]PW[y]RE[?]TY[8]"
  .. "BO[8 -------- -------- -------- ---OX--- ---OXX-- ---O---- -------- -------- *]"
  .. "B[C3/0.5/1.2]W[D3//0.8]B[C4/1];)"

local function parse1(text, where) return ggf.parse(text, where or "t.ggf")[1] end

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error matching " .. pattern)
  assert.is_true(require("boardscript.errors").is_user(err), tostring(err))
  assert.matches(pattern, err.message)
  return err
end

describe("ggf.parse", function()
  it("reads GGS's properties, evals and times, and the start board", function()
    local p = parse1(GGS)
    assert.equal("8", p.type)
    assert.equal(8, p.size)
    assert.is_false(p.octagon)
    assert.equal("Saio1200", p.props.PB)
    assert.equal("05:00//02:00", p.props.TI)
    assert.equal("2199.72", p.props.RW)
    assert.is_nil(p.props.B)
    assert.is_nil(p.result)
    assert.equal("black", p.board.player)
    assert.equal("white", p.board.cells[4][4])
    assert.equal("black", p.board.cells[4][5])
    assert.equal("empty", p.board.cells[1][1])
    assert.equal(5, #p.moves)
    assert.same({ text = "f5", eval = 0.5, time = 1.25, side = "black", line = 4, col = 1 }, p.moves[1])
    assert.same({ "d6", nil, 0.01, "white" }, { p.moves[2].text, p.moves[2].eval, p.moves[2].time, p.moves[2].side })
    assert.equal(-1, p.moves[3].eval)
    assert.is_nil(p.moves[3].time)
    assert.is_nil(p.moves[4].eval)
    assert.equal(65, p.moves[5].time) -- a GGS clock time m:ss
  end)

  it("reads passes, results and several games in one text", function()
    local games = ggf.parse(SMALL .. "\n" .. EARLY .. "\n", "two.ggf")
    assert.equal(2, #games)
    local p = games[1]
    assert.is_true(p.moves[11].pass)
    assert.equal("black", p.moves[11].side)
    assert.same({ margin = -6, black = 5, white = 11, text = "-6.000" }, p.result)
    assert.same({ margin = 4, black = 10, white = 6, text = "+4.000" }, games[2].result)
    assert.equal(2, games[2].index)
    assert.equal(2, games[2].line)
  end)

  it("reads RE with flags, and TY modifiers", function()
    assert.same({ margin = 64, black = 64, white = 0, flag = "t", text = "+64.000:t" },
      ggf.parse_result("+64.000:t", 64))
    assert.same({ margin = 0, black = 32, white = 32, text = "0" }, ggf.parse_result("0", 64))
    assert.equal(-3, ggf.parse_result("-3", 64).margin)
    assert.equal(33.5, ggf.parse_result("-3", 64).white)
    assert.is_nil(ggf.parse_result("?", 64))
    assert.is_false((ggf.parse_result("+3:x", 64)))
    assert.is_false((ggf.parse_result("won", 64)))
    local t = ggf.parse_type("s8r20")
    assert.same({ size = 8, octagon = false, synchro = true, random = 20 }, t)
    assert.same({ size = 8, octagon = false, synchro = false, komi = true, random = true }, ggf.parse_type("8kr"))
    assert.same({ size = 10, octagon = true, synchro = false, anti = true, colour = "white" }, ggf.parse_type("88aw"))
    assert.is_nil((ggf.parse_type("16")))
    assert.is_nil((ggf.parse_type("8q")))
  end)

  it("reads TY[10] and the 88-square octagon, whose corners are no squares", function()
    local ten = parse1("(;GM[Othello]TY[10]BO[10 " .. ("-"):rep(44) .. "O*--------*O" .. ("-"):rep(44)
      .. " *]B[E4]W[D4];)")
    assert.equal(10, ten.size)
    assert.equal("white", ten.board.cells[5][5])
    local oct = parse1("(;GM[Othello]TY[88]BO[88 " .. ("-"):rep(38) .. "O*--------*O" .. ("-"):rep(38)
      .. " *]B[E4];)")
    assert.is_true(oct.octagon)
    assert.equal(10, oct.size)
    for _, cell in ipairs { { 1, 1 }, { 1, 2 }, { 2, 1 }, { 10, 10 }, { 9, 10 }, { 1, 10 } } do
      assert.equal("block", oct.board.cells[cell[1]][cell[2]])
    end
    assert.equal("empty", oct.board.cells[1][3])
    assert.equal("empty", oct.board.cells[2][2])
    assert.equal("white", oct.board.cells[5][5])
  end)

  it("takes Edax's lower-case GM without TY, and a game without BO starts from the standard start", function()
    local p = parse1("(;GM[othello]PC[Edax]PB[?]PW[?]RE[-127.000]BO[8 " .. START8 .. " *]B[F5]W[D6];)")
    assert.equal("8", p.type)
    local bare = parse1("(;GM[Othello]B[f5];)")
    assert.equal("black", bare.board.cells[4][5])
    assert.equal("8", bare.type)
  end)

  it("reads a non-standard start (x for black), Black or White to move", function()
    local p = parse1(CUSTOM)
    assert.equal("black", p.board.cells[5][6])
    assert.equal("white", p.board.cells[6][4])
    local w = parse1("(;GM[Othello]BO[8 " .. START8 .. " O];)")
    assert.equal("white", w.board.player)
  end)

  it("names the file, line and column of what is malformed", function()
    fails("^t%.ggf:1:1: expected '%(;'", ggf.parse, "GM[Othello]", "t.ggf")
    fails("^t%.ggf:1:1: no GGF game", ggf.parse, "  \n", "t.ggf")
    fails("^t%.ggf:1:%d+: game 1: the game has no end", ggf.parse, "(;GM[Othello]B[f5]", "t.ggf")
    fails("^t%.ggf:2:1: game 1: PB%[ has no closing", ggf.parse, "(;GM[Othello]\nPB[x", "t.ggf")
    fails("^t%.ggf:1:3: game 1: GM%[Amazons%]: not an Othello game", ggf.parse, "(;GM[Amazons];)", "t.ggf")
    fails("game 1: property PB appears twice", ggf.parse, "(;PB[a]PB[b];)", "t.ggf")
    fails("expected a property", ggf.parse, "(;GM[Othello] 5;)", "t.ggf")
    fails("BO: a 8 board needs 64 squares and the side to move, found 64", ggf.parse,
      "(;BO[8 " .. START8 .. "];)", "t.ggf")
    fails("BO: square 1 is 'Z'", ggf.parse, "(;BO[8 Z" .. START8:sub(2) .. " *];)", "t.ggf")
    fails("BO is a 8 board but TY%[10%] says 10", ggf.parse, "(;TY[10]BO[8 " .. START8 .. " *];)", "t.ggf")
    fails("board type 16: GGF boards are", ggf.parse, "(;TY[16];)", "t.ggf")
    fails("^t%.ggf:2:2: game 1: move 2 W%[i9%]: 'i9' is not a square of the 8 x 8 board", ggf.parse,
      "(;B[f5]\n W[i9];)", "t.ggf")
    fails("move 1 B%[a1%]: 'a1' is not a square of the octagon board", ggf.parse, "(;TY[88]B[a1];)", "t.ggf")
    fails("move 1 B%[f5/x%]: eval 'x' is not a number", ggf.parse, "(;B[f5/x];)", "t.ggf")
    fails("RE%[won%]", ggf.parse, "(;RE[won];)", "t.ggf")
    fails("game 2: ", ggf.parse, SMALL .. "(;TY[9];)", "t.ggf")
  end)
end)

describe("ggf.game", function()
  it("plays a game's moves on reversi at its size, passes included", function()
    local g = ggf.game(parse1(SMALL))
    assert.equal("reversi", g.rules.name)
    assert.equal(4, g:board():size())
    assert.is_true(g:finished())
    assert.same({ 5, 11 }, { g:score() })
    assert.is_true(g:history()[11].pass)
    assert.is_false(g.ggf.custom_start)
  end)

  it("plays only the first `upto` moves", function()
    local p = parse1(GGS)
    local g = ggf.game(p, 2)
    assert.equal(2, #g:history())
    assert.equal("black", g:to_move())
    assert.equal(0, #ggf.game(p, 0):history())
    fails("cannot play 6 moves of 5", ggf.game, p, 6)
  end)

  it("sets a start position of its own on the state through the core board", function()
    local g = ggf.game(parse1(CUSTOM))
    assert.is_true(g.ggf.custom_start)
    assert.equal(3, #g:history())
    assert.equal("white", g:to_move())
    assert.equal("black", g:board():get(4, 3)) -- c4
    assert.equal(6, g:board():count("black"))
  end)

  it("sets up TY[88] with the octagon example, cut 1", function()
    local text = ggf.text(bs.new_game(EXAMPLES .. "octagon.lua", { cut = 1 }))
    local g = ggf.game(parse1(text .. ""))
    assert.equal("octagon", g.rules.name)
    assert.equal(1, g.opts.cut)
    assert.equal(12, g:board():count("block"))
    assert.is_false(g.ggf.custom_start)
    assert.equal("octagon.lua", g.ggf.example)
  end)

  it("takes a move of the other side as a pass when the side to move has none", function()
    local g = ggf.game(parse1(SMALL:gsub("B%[PA%]", "")))
    assert.is_true(g:history()[11].pass)
    assert.is_true(g:finished())
  end)

  it("refuses illegal moves, naming the file, line, game, move number and move (status 1)", function()
    local err = fails("^t%.ggf:1:8: game 1: move 2 W%[a1%]: illegal %(flips nothing%)", ggf.game,
      parse1("(;B[f5]W[a1];)"))
    assert.equal(1, err.status)
    fails("move 2 B%[e6%]: White is to move", ggf.game, parse1("(;B[f5]B[e6];)"))
    fails("move 1 B%[PA%]: illegal pass", ggf.game, parse1("(;B[PA];)"))
    fails("move 12 W%[d1%]: the game is over", ggf.game, parse1(EARLY:gsub(";%)$", "W[D1];)")))
  end)
end)

describe("ggf.text", function()
  it("writes back what it reads, evals, times and passes included", function()
    for _, text in ipairs { SMALL, EARLY } do
      local p = parse1(text)
      local g = ggf.game(p)
      assert.equal(text .. "\n", ggf.text(g, { place = p.props.PC,
        players = { black = p.props.PB, white = p.props.PW } }))
    end
    assert.equal("(;GM[Othello]PC[boardscript]PB[x]PW[y]RE[?]TY[8]BO[8 ---------------------------O*------O**-----"
      .. "O-------------------- *]B[C3/0.5/1.2]W[D3//0.8]B[C4/1];)\n", ggf_record.ggf_to_ggf(parse1(CUSTOM)))
    local ours = ggf_record.ggf_to_ggf(parse1(GGS))
    assert.equal("(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]RB[2197.01]"
      .. "RW[2199.72]RE[?]TI[05:00//02:00]TY[8]BO[8 " .. START8 .. " *]"
      .. "B[F5/0.5/1.25]W[D6//0.01]B[C3/-1]W[D3]B[C4//65];)\n", ours)
    assert.equal(ours, ggf_record.ggf_to_ggf(parse1(ours)))
  end)

  it("writes passes a GGF left out, and the result of a finished game", function()
    local g = ggf.game(parse1(SMALL:gsub("B%[PA%]", "")))
    assert.matches("W%[A4%]B%[PA%]W%[D1%]", ggf.text(g))
    assert.matches("RE%[%-6%.000%]", ggf.text(g))
  end)

  it("writes DT from a time in UTC, TI, RE and more properties as given", function()
    local g = bs.new_game("reversi")
    g:play(g:parse_move("f5"))
    local text = ggf.text(g, { date = 0, clock = "15:00", result = "+64.000:r", props = { RB = "1500" },
      evals = { 2.5 }, times = { [1] = 3 }, players = { black = "me", white = "you" } })
    assert.equal("(;GM[Othello]PC[boardscript]DT[1970.01.01_00:00:00.UTC]PB[me]PW[you]RB[1500]RE[+64.000:r]"
      .. "TI[15:00]TY[8]BO[8 " .. START8 .. " *]B[F5/2.5/3];)\n", text)
    fails("holds a '%]'", ggf.text, g, { players = { black = "a]b" } })
    fails("RE%[soon%]: not a GGF result", ggf.text, g, { result = "soon" })
    fails("TY%[10%] does not describe", ggf.text, g, { type = "10" })
  end)

  it("writes 10 x 10 as TY[10] and the octagon as TY[88], BO with 88 squares", function()
    local ten = bs.new_game("reversi", { size = 10 })
    assert.matches("TY%[10%]BO%[10 %-+O%*%-%-%-%-%-%-%-%-%*O%-+ %*%]", ggf.text(ten))
    local oct = bs.new_game(EXAMPLES .. "octagon.lua", { cut = 1 })
    oct:play(oct:parse_move("e4"))
    local text = ggf.text(oct)
    local bo = text:match("BO%[88 (%S+) %*%]")
    assert.equal(88, #bo)
    assert.matches("TY%[88%]", text)
    assert.matches("B%[E4%];%)", text)
  end)
end)

describe("ggf.supports", function()
  local function play_random(source, opts, seed, limit)
    local g = bs.new_game(source, opts, seed)
    local random = bs.players.load("random")
    for _ = 1, limit or 1000 do
      if g:finished() then break end
      local move = bs.players.choose(random, g)
      if move == "pass" then g:pass() else g:play(move) end
    end
    return g
  end

  it("takes Othello at the GGF sizes, from either centre, and othello-strict", function()
    for _, size in ipairs { 4, 6, 8, 10, 12, 14 } do
      assert.is_true(ggf.supports(play_random("reversi", { size = size }, size)))
    end
    assert.is_true(ggf.supports(play_random("reversi", { centre = "black" }, 3)))
    local strict = play_random("othello-strict", nil, 5)
    assert.is_true(ggf.supports(strict))
    local last = strict:history()
    assert.is_true(last[#last].pass) -- its closing passes are left out of the GGF
    assert.not_matches("%[PA%];%)", ggf.text(strict))
  end)

  it("refuses what GGF cannot hold, saying why", function()
    local function reason(g) return select(2, ggf.supports(g)) end
    assert.matches("rules 'dots' are not a game of black and white discs", reason(bs.new_game("dots")))
    assert.matches("a 16 x 16 board", reason(bs.new_game("reversi", { size = 16 })))
    assert.matches("a 2 x 2 board", reason(bs.new_game("reversi", { size = 2 })))
    assert.matches("block cells %(b2", reason(bs.new_game("blocks", { blocks = "b2" })))
    assert.matches("block cells", reason(bs.new_game(EXAMPLES .. "octagon.lua")))
    assert.matches("rules 'flipflop': a turn may place a second piece", reason(bs.new_game("flipflop")))
    assert.matches("rules 'orthogonal': moves trap or flip along orthogonal",
      reason(bs.new_game(EXAMPLES .. "orthogonal.lua")))
    local loose = bs.new_game("othello")
    loose:play(loose:parse_move("a1"))
    assert.matches("move 1 %(a1%) is not an Othello move %(flips nothing%)", reason(loose))
    local passing = bs.new_game("othello")
    passing:pass()
    assert.matches("move 1 is a pass while Black has a move", reason(passing))
    local ok, why = ggf.supports(bs.new_game("blocks"))
    assert.is_true(ok, why) -- blocks without blocks is Othello from the other centre
    fails("cannot write the game as GGF: rules 'dots'", ggf.text, bs.new_game("dots"))
  end)

  it("writes a rule set where the fewest discs win as anti (TY[8a]) and reads it back", function()
    local g = play_random(EXAMPLES .. "anti.lua", nil, 7)
    local text = ggf.text(g)
    assert.matches("TY%[8a%]", text)
    local back = ggf.game(parse1(text))
    assert.equal("anti", back.rules.name)
    assert.equal(g:winner(), back:winner())
  end)
end)

describe("GGF and records", function()
  local function record_of(g, players)
    return record.text(g, { players = players })
  end

  it("record -> GGF -> record gives the same record (without edition and seed)", function()
    for seed = 1, 20 do
      local size = ({ 4, 6, 8, 10 })[seed % 4 + 1]
      local g = bs.new_game("reversi", { size = size, centre = seed % 3 == 0 and "black" or "white" }, seed)
      local random = bs.players.load("random")
      while not g:finished() do
        local move = bs.players.choose(random, g)
        if move == "pass" then g:pass() else g:play(move) end
      end
      local rec_text = record_of(g, { black = "random", white = "greedy" })
      local chunk = ggf_record.split_records(rec_text, "r.rec")[1]
      local converted = ggf_record.record_to_ggf(chunk, "r.rec")
      assert.equal("ggf", converted.format)
      local back = ggf_record.ggf_to_record(parse1(converted.text))
      assert.equal(rec_text, back)
      -- and GGF -> record -> GGF gives the same GGF
      local again = ggf_record.record_to_ggf(ggf_record.split_records(back, "b.rec")[1], "b.rec")
      assert.equal(converted.text, again.text)
    end
  end)

  it("an octagon record names the example with cut=1; a custom start cannot be a record", function()
    local g = bs.new_game(EXAMPLES .. "octagon.lua", { cut = 1 })
    g:play(g:parse_move("e4"))
    local rec = ggf_record.ggf_to_record(parse1(ggf.text(g)), { examples = "ex" })
    assert.matches("^boardscript record 1\nrules ex/octagon.lua\noption centre=white\noption cut=1\n"
      .. "option size=10\nmove e4\nresult 4%-1 unfinished\n$", rec)
    local err = fails("^t%.ggf:1:1: game 1: starts from a position of its own %(BO%[8 %-%-", ggf_record.ggf_to_record,
      parse1(CUSTOM))
    assert.equal(1, err.status)
  end)

  it("reads several records, counting lines in the whole file", function()
    local one = "boardscript record 1\nrules reversi\nmove f5\nresult 4-1 unfinished\n"
    local chunks = ggf_record.split_records(one .. "\n" .. one, "two.rec")
    assert.equal(2, #chunks)
    assert.equal(6, chunks[2].line)
    assert.equal(8, chunks[2].rec.moves[1].line)
    fails("^two%.rec:7: unknown line 'bogus'", ggf_record.split_records, one .. "\n" .. one:gsub("rules", "bogus"),
      "two.rec")
    local bad = ggf_record.split_records(one:gsub("f5", "a1"), "bad.rec")[1]
    fails("^bad%.rec:3: move 1: a1 is illegal", ggf_record.record_to_ggf, bad, "bad.rec")
    local wrong = ggf_record.split_records(one:gsub("4%-1", "4-2"), "w.rec")[1]
    fails("^w%.rec:4: result '4%-2 unfinished', but the replayed game ends '4%-1 unfinished'",
      ggf_record.record_to_ggf, wrong, "w.rec")
  end)

  it("keeps a record of a rule set GGF cannot hold as it is", function()
    local text = "boardscript record 1\nrules dots\noption cols=2\noption rows=2\nmove a1 a2\nresult 0-0 unfinished\n"
    local result = ggf_record.record_to_ggf(ggf_record.split_records(text, "d.rec")[1], "d.rec")
    assert.equal("record", result.format)
    assert.equal(text, result.text)
    assert.matches("not a game of black and white discs", result.why)
  end)
end)

describe("boardscript convert", function()
  it("converts a record to a GGF file and back into a directory", function()
    local dir, cleanup = support.scratch_dir()
    local status, _, err = support.run({ "play", "reversi", "--black", "random", "--white", "random",
      "--seed", "9", "--record", dir .. "/game.rec" })
    assert.equal(0, status, err)
    status, _, err = support.run({ "convert", dir .. "/game.rec", dir .. "/game.ggf" })
    assert.equal(0, status, err)
    assert.equal("", err)
    assert.matches("^%(;GM%[Othello%]PC%[boardscript%]PB%[random%]PW%[random%]RE%[[+-]%d+%.000%]TY%[8%]",
      support.slurp(dir .. "/game.ggf"))
    assert(os.execute("mkdir " .. support.shell_quote(dir .. "/out")))
    status, _, err = support.run({ "convert", dir .. "/game.ggf", dir .. "/out" })
    assert.equal(0, status, err)
    local original = support.slurp(dir .. "/game.rec"):gsub("edition reversi\n", ""):gsub("seed 9\n", "")
    assert.equal(original, support.slurp(dir .. "/out/game.rec"))
    support.spit(dir .. "/two.ggf", SMALL .. "\n" .. EARLY .. "\n")
    status, _, err = support.run({ "convert", dir .. "/two.ggf", dir .. "/out" })
    assert.equal(0, status, err)
    assert.matches("move a3\nresult 5%-11 white\n$", support.slurp(dir .. "/out/two-1.rec"))
    assert.matches("result 9%-6 black\n$", support.slurp(dir .. "/out/two-2.rec"))
    status, _, err = support.run({ "convert", dir .. "/two.ggf", dir .. "/missing/" })
    assert.equal(2, status)
    assert.matches("missing/: no such directory", err)
    cleanup()
  end)
end)
