-- The NBoard and GTP sessions (boardscript.protocol.*), driven line by
-- line, and the `boardscript nboard` / `boardscript gtp` commands playing
-- whole games against a controller.
local core = require "boardscript.core"
local game_mod = require "boardscript.game"
local gtp = require "boardscript.protocol.gtp"
local host = require "support.host"
local nboard = require "boardscript.protocol.nboard"
local players = require "boardscript.players"

-- A session fed `lines`: every line it sent and every warning, in order.
local function nboard_run(lines, opts)
  local s = nboard.new(opts or { policy = "alphabeta:depth=2", no_time = true })
  local out, err = {}, {}
  for _, line in ipairs(lines) do
    local o, e = s:feed(line)
    table.move(o, 1, #o, #out + 1, out)
    table.move(e, 1, #e, #err + 1, err)
  end
  return out, err, s
end

-- Lines starting with `prefix`.
local function starting(lines, prefix)
  local found = {}
  for _, line in ipairs(lines) do
    if line:sub(1, #prefix) == prefix then found[#found + 1] = line end
  end
  return found
end

-- A seeded random game's moves (texts, "PA" for a pass) up to the first
-- position where the side to move must pass but the game goes on.
local function moves_to_a_pass()
  for seed = 1, 500 do
    local rng = core.rng(seed)
    local g = game_mod.new("reversi")
    local texts = {}
    while not g:finished() do
      if g:can_pass() then return texts, g end
      local moves = g:moves()
      local move = moves[rng:random(#moves)]
      texts[#texts + 1] = g:move_text(move)
      g:play(move)
    end
  end
  error("no pass found")
end

describe("nboard session", function()
  it("answers the handshake and set depth with its name, clamping the depth", function()
    local out, err = nboard_run({ "nboard 2", "set depth 3", "set depth 0", "set depth 99999999999999999999999" })
    assert.same({ "set myname boardscript-alphabeta2", "set myname boardscript-alphabeta3",
                  "set myname boardscript-alphabeta1", "set myname boardscript-alphabeta60" }, out)
    assert.same({}, err)
  end)

  it("keeps a policy that plays by time on its time under set depth: the depth is the hints'", function()
    local out, err, s = nboard_run({ "nboard 2", "set depth 60", "move f5", "go", "hint 2" },
      { policy = "alphabeta:time=0.05", no_time = true })
    assert.same({}, err)
    assert.same({ "set myname boardscript-alphabeta", "set myname boardscript-alphabeta" }, { out[1], out[2] })
    assert.is_true(s.engine:timed())
    assert.is_nil(s.engine:depth())
    assert.equal(60, s.engine:search_depth())
    assert.equal(1, #starting(out, "==="))
    local hints = #starting(out, "search ")
    assert.truthy(hints >= 2 and hints % 2 == 0, hints) -- two a depth, as deep as a move's time went
  end)

  it("speaks versions 1 and 2 and warns about others, going on", function()
    local out, err = nboard_run({ "nboard 1", "nboard 7", "ping 3" })
    assert.same({ "set myname boardscript-alphabeta2", "set myname boardscript-alphabeta2", "pong 3" }, out)
    assert.equal(1, #err)
    assert.matches("version 7", err[1])
  end)

  it("answers ping with pong and the same number; garbage gets pong 0 and a warning", function()
    local out, err = nboard_run({ "ping 12", "ping 123456789012345678901234567890", "ping", "ping x1" })
    assert.same({ "pong 12", "pong 123456789012345678901234567890", "pong 0", "pong 0" }, out)
    assert.equal(2, #err)
  end)

  it("ignores empty lines and unknown commands (a warning on stderr only)", function()
    local out, err = nboard_run({ "", "   ", "frobnicate 1 2", "set unknown 5", "\r\n" })
    assert.same({}, out)
    assert.equal(1, #err)
    assert.matches("frobnicate", err[1])
  end)

  it("takes CRLF line endings", function()
    local out, err, s = nboard_run({ "nboard 2\r\n", "move f5\r\n", "ping 1\r\n" })
    assert.same({ "set myname boardscript-alphabeta2", "pong 1" }, out)
    assert.same({}, err)
    assert.equal("f5", s.game:history()[1].text)
  end)

  it("answers go with a legal move and its eval, and does not play it", function()
    local out, err, s = nboard_run({ "nboard 2", "set depth 2", "move F5/0.00/1.5", "go" })
    assert.same({}, err)
    assert.equal(1, #s.game:history())
    local replies = starting(out, "===")
    assert.equal(1, #replies)
    local move, eval = replies[1]:match("^=== (%u%d)/(%-?%d+%.%d%d)$")
    assert.truthy(move, replies[1])
    assert.truthy(s.game:check(s.game:parse_move(move)))
    assert.same({ "status thinking", replies[1], "status" }, { out[3], out[4], out[5] })
    assert.truthy(tonumber(eval))
  end)

  it("reports times and nodestats unless told not to", function()
    local out = nboard_run({ "set depth 1", "go" }, { policy = "alphabeta" })
    assert.equal(1, #starting(out, "nodestats "))
    assert.matches("^nodestats %d+ %d+%.%d%d$", starting(out, "nodestats ")[1])
    assert.matches("^=== %u%d/%-?%d+%.%d%d/%d+%.%d%d$", starting(out, "===")[1])
  end)

  it("keeps the searcher's table from move to move of one game, and empties it for another game", function()
    local function ggf(moves)
      local text = "(;GM[Othello]PC[NBoard]PB[a]PW[b]TY[8]" ..
        "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
      for i, m in ipairs(moves) do text = text .. (i % 2 == 1 and "B[" or "W[") .. m .. "]" end
      return "set game " .. text .. ";)"
    end
    local function nodes(out) return tonumber(starting(out, "nodestats ")[1]:match("^nodestats (%d+)")) end
    local s = nboard.new { policy = "alphabeta:depth=5" }
    local line = { "F5", "D6", "C3", "D3", "C4" }
    s:feed(ggf(line))
    local fresh = nodes(s:feed("go"))
    s:feed(ggf(line)) -- the same game again: kept
    assert.is_true(nodes(s:feed("go")) < fresh)
    s:feed(ggf { "F5", "D6", "C4", "D3", "C3" }) -- the same position by another game: a fresh search
    assert.equal(fresh, nodes(s:feed("go")))
    s:feed("move F4") -- played on: kept
    local after = nodes(s:feed("go"))
    local t = nboard.new { policy = "alphabeta:depth=5" }
    t:feed(ggf { "F5", "D6", "C4", "D3", "C3", "F4" })
    assert.is_true(after < nodes(t:feed("go")))
  end)

  it("plays on the GGF clock: TI[] less each side's move times, its own when the GUI leaves them out", function()
    local given = {}
    local context = players.context
    players.context = function(p, g)
      local ctx = context(p, g)
      given[#given + 1] = ctx.clock and ctx.clock.left or false
      return ctx
    end
    finally(function() players.context = context end)
    local function ggf(ti, moves)
      return "set game (;GM[Othello]PC[NBoard]PB[a]PW[b]" .. ti .. "TY[8]" ..
        "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]" .. moves .. ";)"
    end
    local s = nboard.new { policy = "alphabeta:depth=3", no_time = true }
    s:feed(ggf("TI[0:10//2:00]", "B[F5//2.5]W[D6//1.0]B[C3/0.5/0.5]"))
    local reply = starting(s:feed("go"), "===")[1]
    assert.equal(9, given[1]) -- white: 10 s less 1.0
    s:feed("move " .. reply:match("^=== (%u%d)") .. "/0.1/3.0") -- its own move, timed by the GUI
    s:feed("go")
    assert.equal(7, given[2]) -- black: 10 less 2.5 and 0.5
    s:feed(ggf("TI[1:00:00/5/]", "B[F5//2]"))
    s:feed("go")
    assert.equal(3600, given[3]) -- white has made no move: one hour (increments come after moves)
    reply = starting(s:feed("go"), "===")[1]
    s:feed("move " .. reply:match("^=== (%u%d)")) -- no time given: its own measured time
    assert.is_true(s.tc.used.white > 0 and s.tc.made.white == 1)
    s:feed(ggf("", "B[F5//2]"))
    s:feed("go")
    assert.is_false(given[#given]) -- no TI: no clock (a depth policy)
  end)

  it("takes moves with evals and times, passes and bare moves (NBoard 1.1)", function()
    local texts = moves_to_a_pass()
    local lines = {}
    for i, text in ipairs(texts) do
      lines[#lines + 1] = i % 2 == 0 and text:upper() or ("move %s/%d.5/0.25"):format(text, i)
    end
    lines[#lines + 1] = "move PA"
    local _, err, s = nboard_run(lines)
    assert.same({}, err)
    assert.equal(#texts + 1, #s.game:history())
    assert.is_true(s.game:history()[#texts + 1].pass)
  end)

  it("plays the opponent's move when the controller leaves out a forced pass", function()
    local texts, g = moves_to_a_pass()
    g:pass()
    local reply = g:move_text(g:moves()[1])
    local lines = {}
    for _, text in ipairs(texts) do lines[#lines + 1] = "move " .. text end
    lines[#lines + 1] = "move " .. reply
    local _, err, s = nboard_run(lines)
    assert.same({}, err)
    local history = s.game:history()
    assert.equal(#texts + 2, #history)
    assert.is_true(history[#texts + 1].pass)
    assert.equal(reply, history[#texts + 2].text)
  end)

  it("refuses bad moves with a warning and leaves the game as it was", function()
    local out, err, s = nboard_run({ "move a1", "move z9", "move", "move PA", "move f5f5", "move 5f",
                                     "move F5/x/y", "move e6" })
    assert.same({}, out)
    assert.equal(7, #err)
    assert.matches("illegal for Black %(flips nothing%)", err[1])
    assert.matches("not a move", err[2])
    assert.matches("no move given", err[3])
    assert.matches("a pass is not allowed", err[4])
    -- "F5/x/y": only the move counts (f5 is played); e6 is not one of White's replies
    assert.matches("move e6: illegal for White", err[7])
    local history = s.game:history()
    assert.equal("f5", history[1].text)
    assert.equal(1, #history)
  end)

  it("refuses moves, go and hints once the game is over", function()
    local s = nboard.new { policy = "alphabeta:depth=1", no_time = true }
    local rng = core.rng(5)
    while not s.game:finished() do
      local moves = s.game:moves()
      local line = #moves == 0 and "move PA" or ("move " .. s.game:move_text(moves[rng:random(#moves)]))
      local _, e = s:feed(line)
      assert.same({}, e)
    end
    local played = #s.game:history()
    for _, line in ipairs({ "move a1", "move PA", "go", "hint 3" }) do
      local out, err = s:feed(line)
      assert.equal(1, #err, line)
      assert.matches("game is over", err[1])
      assert.is_nil(starting(out, "===")[1])
      assert.is_nil(starting(out, "search")[1])
    end
    assert.equal(played, #s.game:history())
  end)

  it("streams hint lines: the n best moves at each depth, best first", function()
    local out, err, s = nboard_run({ "set depth 3", "move f5", "hint 2" })
    assert.same({}, err)
    local lines = starting(out, "search ")
    assert.equal(6, #lines)
    local by_depth = {}
    for _, line in ipairs(lines) do
      local move, eval, depth = line:match("^search (%u%d) (%-?%d+%.%d%d) 0 (%d+)$")
      assert.truthy(move, line)
      assert.truthy(s.game:check(s.game:parse_move(move)))
      local d = tonumber(depth)
      by_depth[d] = by_depth[d] or {}
      table.insert(by_depth[d], tonumber(eval))
    end
    for d = 1, 3 do
      assert.equal(2, #by_depth[d])
      assert.is_true(by_depth[d][1] >= by_depth[d][2])
    end
    assert.equal("status thinking", out[#out - #lines - 1])
    assert.equal("status", out[#out])
  end)

  it("agrees with go: the best hint at the set depth has go's move value, through a whole game", function()
    local s = nboard.new { policy = "alphabeta:depth=2", no_time = true }
    local rng = core.rng(11)
    while not s.game:finished() do
      local go = s:feed("go")[2]:match("^=== %S+/(%S+)$")
      local hints = starting(s:feed("hint 1"), "search ")
      local value, depth = hints[#hints]:match("^search %S+ (%S+) 0 (%d+)$")
      assert.equal(go, value)
      assert.is_true(tonumber(depth) <= 2)
      local moves = s.game:moves()
      s:feed(#moves == 0 and "move PA" or ("move " .. s.game:move_text(moves[rng:random(#moves)])))
    end
  end)

  it("gives at most as many hints as there are moves, whatever n says", function()
    local out = nboard_run({ "set depth 1", "hint 99999999999999999999", "hint -3", "hint x" })
    local lines = starting(out, "search ")
    assert.equal(4 + 1 + 1, #lines)
  end)

  it("hints a pass as PA when the side to move has none", function()
    local texts = moves_to_a_pass()
    local lines = { "set depth 2" }
    for _, text in ipairs(texts) do lines[#lines + 1] = "move " .. text end
    lines[#lines + 1] = "hint 1"
    lines[#lines + 1] = "go"
    local out, err = nboard_run(lines)
    assert.same({}, err)
    for _, line in ipairs(starting(out, "search ")) do assert.matches("^search PA ", line) end
    assert.matches("^=== PA/", starting(out, "===")[1])
  end)

  it("answers learn with learned, and set contempt with nothing", function()
    local out, err = nboard_run({ "learn", "set contempt 3", "set contempt 1e400", "set contempt x" })
    assert.same({ "learned" }, out)
    assert.equal(2, #err)
  end)

  it("analyzes the game backwards, one analysis line per position", function()
    local out, err, s = nboard_run({ "set depth 2", "move f5", "move d6", "move c3", "analyze" })
    assert.same({}, err)
    local lines = starting(out, "analysis ")
    assert.equal(4, #lines)
    for i, line in ipairs(lines) do
      local k, eval = line:match("^analysis (%d+) (%-?%d+%.%d%d)$")
      assert.equal(4 - i, tonumber(k))
      assert.truthy(eval)
    end
    assert.equal(3, #s.game:history())
  end)

  it("ends the session at quit and ignores what follows", function()
    local out, _, s = nboard_run({ "ping 1", "quit", "ping 2" })
    assert.same({ "pong 1" }, out)
    assert.is_true(s.done)
  end)

  it("plays another policy's choice: go without an eval, one hint line", function()
    local out, err = nboard_run({ "go", "hint 5", "analyze" }, { policy = "greedy", seed = 3, no_time = true })
    assert.same({}, err)
    assert.matches("^=== %u%d$", starting(out, "===")[1])
    assert.equal(1, #starting(out, "search "))
    assert.matches("^search %u%d %-?%d+%.%d%d 0 0$", starting(out, "search ")[1])
    assert.same({ "status analyze needs the alphabeta policy" }, starting(out, "status analyze"))
  end)

  it("refuses a bad --policy as a user error", function()
    assert.has_error(function() nboard.new { policy = "nosuch" } end)
    assert.has_error(function() nboard.new { policy = "dots_rules" } end)
  end)

  it("keeps its game when set game gets a line that is not GGF", function()
    local ok = pcall(require, "boardscript.formats.ggf")
    if not ok then return pending("boardscript.formats.ggf is not there yet") end
    local out, err, s = nboard_run({ "move f5", "set game (;GM[Othello]PC[x", "set game garbage", "set game" })
    assert.same({}, out)
    assert.equal(3, #err)
    assert.equal(1, #s.game:history())
  end)

  it("sets up the position of a GGF game and plays on from it", function()
    local ok = pcall(require, "boardscript.formats.ggf")
    if not ok then return pending("boardscript.formats.ggf is not there yet") end
    local ggf = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[0:00//02:00]TY[8]" ..
      "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]" ..
      "B[F5//0.01]W[D6//0.01]B[C3/1.00/0.02];)"
    local out, err, s = nboard_run({ "set game " .. ggf, "go" })
    assert.same({}, err)
    assert.equal(3, #s.game:history())
    assert.same({ "f5", "d6", "c3" }, { s.game:history()[1].text, s.game:history()[2].text,
                                        s.game:history()[3].text })
    local move = starting(out, "===")[1]:match("^=== (%u%d)")
    assert.truthy(s.game:check(s.game:parse_move(move)))
    local out2, err2 = s:feed("analyze")
    assert.same({}, err2)
    assert.equal(4, #starting(out2, "analysis "))
  end)

  it("plays a whole game against itself: go for each side, then the move", function()
    local s = nboard.new { policy = "alphabeta:depth=2", no_time = true }
    local check = game_mod.new("reversi")
    local plies = 0
    while not check:finished() do
      local out, err = s:feed("go")
      assert.same({}, err)
      local move = starting(out, "===")[1]:match("^=== (%u%u?%d*)")
      if move == "PA" then
        assert.is_true(check:pass())
      else
        assert.truthy(check:play(assert(check:parse_move(move))), move)
      end
      local _, err2 = s:feed("move " .. move)
      assert.same({}, err2)
      plies = plies + 1
      assert.is_true(plies < 100)
    end
    assert.is_true(s.game:finished())
    assert.same({ check:score() }, { s.game:score() })
  end)
end)

-- A session fed `lines`: the lines it sent.
local function gtp_run(lines, opts)
  local s = gtp.new(opts or { policy = "alphabeta:depth=2" })
  local out = {}
  for _, line in ipairs(lines) do
    local o = s:feed(line)
    table.move(o, 1, #o, #out + 1, out)
  end
  return out, s
end

describe("gtp session", function()
  it("answers the administrative commands, with ids", function()
    local out = gtp_run({ "protocol_version", "7 name", "version", "known_command play", "known_command fly",
                          "42 list_commands" })
    assert.same({ "= 2", "", "=7 boardscript", "", "= " .. core.version, "", "= true", "", "= false", "" },
      { table.unpack(out, 1, 10) })
    assert.equal("=42 protocol_version", out[11])
    assert.equal("", out[#out])
    for i = 12, #out - 1 do assert.not_equal("", out[i]) end
  end)

  it("keeps the searcher's table from genmove to genmove; a new board empties it", function()
    local s = gtp.new { policy = "alphabeta:depth=2" }
    local forgot = 0
    local forget = s.engine.forget
    s.engine.forget = function(e) forgot = forgot + 1; return forget(e) end
    for _, line in ipairs { "genmove b", "genmove w", "play b f5", "genmove w" } do s:feed(line) end
    assert.equal(0, forgot)
    s:feed("clear_board")
    s:feed("boardsize 6")
    assert.equal(2, forgot)
  end)

  it("plays on the controller's clock: time_settings and time_left, byo-yomi periods", function()
    local clock = require "boardscript.clock"
    local s = gtp.new { policy = "alphabeta" }
    local given = {}
    local context = players.context
    players.context = function(p, g)
      local ctx = context(p, g)
      given[#given + 1] = ctx.clock and { ctx.clock.left, ctx.time } or false
      return ctx
    end
    finally(function() players.context = context end)
    local function feed(line) return s:feed(line)[1] end
    assert.equal("= ", feed("time_settings 10 0 0"))
    assert.equal("= ", feed("time_left b 4 0"))
    assert.matches("^= %a%d$", feed("genmove b"))
    assert.same({ 4, clock.allot(4, 0, 30) }, given[1])
    assert.is_true(s.left.black.time < 4 and s.left.black.time > 0) -- a search stops within its share
    assert.matches("^= %a%d$", feed("genmove w"))
    assert.same({ 10, clock.allot(10, 0, 30) }, given[2]) -- white's whole main time
    assert.equal("= ", feed("time_settings 0 10 3")) -- byo-yomi only: 10 s for every 3 moves
    for i = 1, 3 do
      feed("genmove b")
      feed("genmove w")
      assert.equal(3 - i > 0 and 3 - i or 3, s.left.black.stones)
    end
    assert.same({ 10, clock.allot(10, 0, 3) }, given[3])
    assert.equal("= ", feed("time_settings 0 5 0")) -- no time limit
    local n = #given
    feed("genmove b")
    assert.is_false(given[n + 1])
    assert.equal("? syntax error", feed("time_left b x 0"))
    assert.equal("? syntax error", feed("time_settings 1 2"))
  end)

  it("answers ? for what it cannot do, and ignores empty and comment lines", function()
    local out = gtp_run({ "", "# just a comment", "fly away", "3 fly", "boardsize 7", "boardsize 28",
                          "boardsize x", "boardsize 99999999999999999999", "play", "play b", "play red f5",
                          "play b z9", "genmove", "5 genmove purple", "undo", "komi x" })
    local replies = {}
    for i = 1, #out, 2 do
      replies[#replies + 1] = out[i]
      assert.equal("", out[i + 1])
    end
    assert.same({ "? unknown command", "?3 unknown command", "? unacceptable size", "? unacceptable size",
                  "? boardsize not an integer", "? unacceptable size",
                  "? syntax error (wrong or missing color)", "? syntax error (wrong or missing color)",
                  "? syntax error (wrong or missing color)", "? illegal move",
                  "? syntax error (wrong or missing color)", "?5 syntax error (wrong or missing color)",
                  "? cannot undo", "? syntax error" }, replies)
  end)

  it("plays, generates and takes back moves; refuses illegal ones and the wrong colour", function()
    local out, s = gtp_run({ "play b f5", "play b e6", "play w a1", "play w D6", "genmove w", "genmove b",
                             "undo", "undo", "play w pass", "play b pass" })
    assert.same({ "= ", "", "? wrong color", "", "? illegal move", "", "= ", "", "? wrong color", "" },
      { table.unpack(out, 1, 10) })
    assert.matches("^= %l%d$", out[11])
    assert.same({ "= ", "", "= ", "", "? illegal move", "", "? wrong color", "" }, { table.unpack(out, 13, 20) })
    assert.equal(1, #s.game:history())
  end)

  it("takes a move of the colour not to move when the side to move must pass", function()
    local texts, g = moves_to_a_pass()
    local lines = {}
    for _, text in ipairs(texts) do
      local side = #lines % 2 == 0 and "b" or "w"
      lines[#lines + 1] = ("play %s %s"):format(side, text)
    end
    local passer = g:to_move() == "black" and "w" or "b"
    g:pass()
    lines[#lines + 1] = ("play %s %s"):format(passer, g:move_text(g:moves()[1]))
    lines[#lines + 1] = "undo"
    local out, s = gtp_run(lines)
    for i = 1, #out, 2 do assert.equal("= ", out[i], lines[(i + 1) // 2]) end
    assert.equal(#texts, #s.game:history())
  end)

  it("shows the board on lines of their own, and the final score", function()
    local out = gtp_run({ "boardsize 4", "showboard", "final_score", "play b b1", "final_score" })
    assert.same({ "= ", "", "= ", "   a b c d", " 1 . . . .", " 2 . O X .", " 3 . X O .", " 4 . . . .",
                  "Black 2, White 2; Black to move", "", "= 0", "", "= ", "", "= B+3", "" }, out)
  end)

  it("ends at quit", function()
    local out, s = gtp_run({ "quit", "name" })
    assert.same({ "= ", "" }, out)
    assert.is_true(s.done)
  end)

  it("plays a whole game: genmove for both colours until two passes in a row", function()
    local s = gtp.new { policy = "alphabeta:depth=2" }
    local check = game_mod.new("reversi")
    local colour, passes, plies = "b", 0, 0
    while passes < 2 do
      local out = s:feed("genmove " .. colour)
      local move = out[1]:match("^= (%S+)$")
      assert.truthy(move, out[1])
      if move == "pass" then
        passes = passes + 1
        assert.is_true(check:pass())
      else
        passes = 0
        assert.truthy(check:play(assert(check:parse_move(move))), move)
      end
      colour = colour == "b" and "w" or "b"
      plies = plies + 1
      assert.is_true(plies < 100)
    end
    assert.is_true(check:finished())
    local black, white = check:score()
    local expected = black == white and "0" or ((black > white and "B+" or "W+") .. math.abs(black - white))
    assert.equal("= " .. expected, s:feed("final_score")[1])
  end)
end)

describe("both sessions, fed random lines", function()
  local WORDS = { "nboard", "set", "depth", "game", "contempt", "move", "go", "hint", "ping", "learn", "analyze",
                  "play", "genmove", "undo", "boardsize", "showboard", "clear_board", "known_command", "final_score",
                  "b", "w", "white", "pass", "PA", "f5", "F5/1.5/2", "d6", "c3", "a1", "h8", "z9", "0", "1", "2", "3",
                  "-7", "6", "99999999999999999999999", "1e999", "nan", "x", "", "#", "\t", "\r", "(;GM[Othello];)",
                  "\0", "é" }
  local function random_line(rng)
    local words = {}
    for i = 1, rng:random(0, 4) do words[i] = WORDS[rng:random(#WORDS)] end
    return table.concat(words, " ")
  end

  it("never raise, and answer in the protocols' forms", function()
    local rng = core.rng(2024)
    local n = nboard.new { policy = "alphabeta:depth=1", no_time = true }
    local known = { "set myname ", "status", "search ", "=== ", "pong ", "learned", "analysis " }
    for _ = 1, 600 do
      local out, err = n:feed(random_line(rng))
      for _, message in ipairs(err) do assert.not_matches("%.lua:%d", message) end -- no internal error
      for _, line in ipairs(out) do
        local ok = false
        for _, prefix in ipairs(known) do ok = ok or line:sub(1, #prefix) == prefix end
        assert.is_true(ok, line)
      end
    end
    local g = gtp.new { policy = "alphabeta:depth=1" }
    for _ = 1, 600 do
      local out = g:feed(random_line(rng))
      if #out > 0 then
        assert.matches("^[=?]%d* ", out[1])
        assert.not_matches("%.lua:%d", out[1])
        assert.equal("", out[#out])
        for i = 2, #out - 1 do assert.not_equal("", out[i]) end
      end
    end
  end)
end)

describe("boardscript nboard and gtp", function()
  it("ends cleanly and at once at the end of input, mid-session", function()
    local clock = os.time()
    local status, out, err = host.run({ "nboard", "--no-time" }, { input = "nboard 2\nset depth 1\nmove f5" })
    assert.equal(0, status)
    assert.equal("set myname boardscript-alphabeta\nset myname boardscript-alphabeta1\n", out)
    assert.equal("", err)
    status, out = host.run({ "gtp" }, { input = "name\nplay b" })
    assert.equal(0, status)
    assert.equal("= boardscript\n\n? syntax error (wrong or missing color)\n\n", out)
    assert.is_true(os.time() - clock <= 2)
  end)

  it("refuses a bad --policy with a usage error", function()
    local status, _, err = host.run({ "nboard", "--policy", "nosuch" })
    assert.equal(2, status)
    assert.matches("^boardscript: unknown player 'nosuch'", err)
    status = host.run({ "gtp", "--policy", "alphabeta:depth=x" })
    assert.equal(2, status)
  end)

  it("plays a full game with a GUI over pipes (go, then the move, for each side)", function()
    local dir, cleanup = host.scratch_dir()
    local fifo = dir .. "/to-engine"
    assert(os.execute("mkfifo " .. host.shell_quote(fifo)))
    local engine = assert(io.popen(("%s nboard --policy alphabeta:depth=3 --no-time <%s 2>%s"):format(
      host.shell_quote(host.BIN), host.shell_quote(fifo), host.shell_quote(dir .. "/err"))))
    local to_engine = assert(io.open(fifo, "w"))
    local function send(line)
      to_engine:write(line, "\n")
      to_engine:flush()
    end
    -- Reads the engine's lines up to one starting with `prefix`.
    local function until_line(prefix)
      while true do
        local line = engine:read("l")
        assert.truthy(line, "the engine stopped before sending " .. prefix)
        if line:sub(1, #prefix) == prefix then return line end
      end
    end
    send("nboard 2")
    send("set depth 3")
    send("set game (;GM[Othello]PC[NBoard]PB[a]PW[b]TY[8]BO[8 -------- -------- -------- ---O*--- "
      .. "---*O--- -------- -------- -------- *];)")
    local check = game_mod.new("reversi")
    local ping = 0
    while not check:finished() do
      ping = ping + 1
      send("ping " .. ping)
      until_line("pong " .. ping)
      send("go")
      local move = until_line("=== "):match("^=== (%u%u?%d*)")
      if move == "PA" then
        assert.is_true(check:pass())
      else
        assert.truthy(check:play(assert(check:parse_move(move))), move)
      end
      send("move " .. move)
    end
    send("ping 0")
    until_line("pong 0")
    send("quit")
    to_engine:close()
    local rest = engine:read("a")
    local ok = engine:close()
    local err = host.slurp(dir .. "/err")
    cleanup()
    assert.equal("", rest)
    assert.is_true(ok)
    -- the GGF line is only understood once boardscript.formats.ggf is there
    if pcall(require, "boardscript.formats.ggf") then assert.equal("", err) end
  end)

  it("plays a full game over GTP from a script of genmoves", function()
    local script = {}
    for _ = 1, 40 do script[#script + 1] = "genmove b\ngenmove w\n" end
    script[#script + 1] = "final_score\nshowboard\nquit\n"
    local status, out, err = host.run({ "gtp", "--policy", "alphabeta:depth=2" }, { input = table.concat(script) })
    assert.equal(0, status)
    assert.equal("", err)
    local check = game_mod.new("reversi")
    local passes_in_a_row, replies = 0, {}
    for reply in out:gmatch("(=[^\n]*)\n") do replies[#replies + 1] = reply end
    for i = 1, 80 do
      local move = replies[i]:match("^= (%S+)$")
      if move == "pass" then
        passes_in_a_row = passes_in_a_row + 1
        assert.is_true(check:pass())
      else
        assert.is_true(passes_in_a_row < 2, "a move after two passes")
        passes_in_a_row = 0
        assert.truthy(check:play(assert(check:parse_move(move))), move)
      end
    end
    assert.is_true(check:finished())
    local black, white = check:score()
    local expected = black == white and "0" or ((black > white and "B+" or "W+") .. math.abs(black - white))
    assert.equal("= " .. expected, replies[81])
  end)
end)
