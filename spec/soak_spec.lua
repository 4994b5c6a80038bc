-- boardscript soak: a short run of seeded random games of every rule set
-- passes every check; a game is a function of (seed, number) alone; and
-- rule sets broken on purpose (undo, clone, the core description, the
-- notation) make it fail with the game, its moves and a reproducer that
-- fails again on its own.
local core = require "boardscript.core"
local files = require "support.files"
local host = require "support.host"
local soak = require "boardscript.soak"

-- The rule sets the fault tests break, one fault each.
local BROKEN = {
  undo = [[
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local bad = rules.variant(reversi, { name = "bad-undo" })
-- Forgets to take back the board when the move was on the first row.
function bad:undo(state)
  local last = state.history[#state.history]
  if last and not last.pass and last.move[1] == 1 then
    table.remove(state.history)
    state.passes = last.passes
    state.player = reversi.opponent(state.player)
    return true
  end
  return reversi.undo(self, state)
end
return bad
]],
  clone = [[
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local bad = rules.variant(reversi, { name = "bad-clone" })
-- Shares the history list with the original.
function bad:clone(state)
  local copy = {}
  for k, v in pairs(state) do copy[k] = v end
  copy.board = state.board:clone()
  return copy
end
return bad
]],
  -- Keeps a table of its own in the state (moves per side) and no clone of
  -- its own: the shared clone copies the board and the history, not it.
  own = [[
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local bad = rules.variant(reversi, { name = "bad-own" })
function bad:setup(opts)
  local state = reversi.setup(self, opts)
  state.made = { black = 0, white = 0 }
  return state
end
function bad:play(state, move)
  local player = state.player
  local flipped, why = reversi.play(self, state, move)
  if flipped then state.made[player] = state.made[player] + 1 end
  return flipped, why
end
function bad:undo(state)
  local last = state.history[#state.history]
  if last and not last.pass then
    local player = reversi.opponent(state.player)
    state.made[player] = state.made[player] - 1
  end
  return reversi.undo(self, state)
end
return bad
]],
  core = [[
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local bad = rules.variant(reversi, { name = "bad-core" })
-- Tells the C core its moves trap along rows and columns only: its hooks
-- (Reversi's, still vouched for) trap along the diagonals too.
function bad:core_game()
  return { legal = "orthogonal", flip = "all", pass = "stuck", ending = "no-moves" }
end
return bad
]],
  notation = [[
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"
local bad = rules.variant(reversi, { name = "bad-notation" })
-- Reads "c4" as d3: a record of the game no longer replays.
function bad:parse_move(text, state)
  local move = reversi.parse_move(self, text, state)
  if move then move[1], move[2] = move[2], move[1] end
  return move
end
return bad
]],
}

local EXPECTED_CHECK = { undo = "undo", clone = "clone", own = "clone", core = "core view", notation = "record" }

describe("boardscript soak", function()
  it("plays every rule set of a short run with every check passing", function()
    local status, out, err = host.run { "soak", "--games", "120", "--sizes", "2..8", "--seed", "5" }
    assert.equal("", err)
    assert.equal(0, status)
    assert.matches("^soak: 120 games, %d+ moves, %d+ checks, seed 5: ok\n", out)
    for _, name in ipairs { "reversi", "blocks", "othello", "othello%-strict", "flipflop", "dots", "directions",
                            "misere", "anti", "holes", "octagon", "orthogonal", "tictactoe", "misere%-dots",
                            "connect4", "breakthrough", "gomoku", "hex", "ataxx", "amazons", "draughts",
                            "tictactoe_d" } do
      assert.matches("\n  " .. name .. " +%d+ games", out)
    end
    assert.matches("peak RSS %d+%.%d MiB\n$", out)
  end)

  it("plays the same games in two worker processes as in one", function()
    local args = { "soak", "--games", "40", "--sizes", "4..6", "--seed", "9", "--json" }
    local status, one = host.run(args)
    assert.equal(0, status)
    args[#args + 1] = "--jobs=2"
    local status2, two = host.run(args)
    assert.equal(0, status2)
    local json = require "dkjson"
    one, two = json.decode(one), json.decode(two)
    assert.equal(40, one.games)
    assert.equal(2, two.jobs)
    for _, key in ipairs { "games", "moves", "checks", "rules" } do assert.same(one[key], two[key]) end
  end)

  it("plays game G the same alone as in a run: a function of the seed and G", function()
    local plan = soak.plan { sizes = soak.parse_sizes("4..6") }
    local searcher = core.searcher { tt_mb = 1 }
    local in_run = {}
    soak.run(plan, 3, 1, 8, 1, function(r) in_run[r.number] = r end)
    for _, g in ipairs { 8, 5, 2 } do
      local alone = soak.play(plan, 3, g, searcher)
      assert.same({ in_run[g].label, in_run[g].plies, in_run[g].checks }, { alone.label, alone.plies, alone.checks })
    end
    assert.are_not.equal(soak.play(plan, 4, 2, searcher).seed, in_run[2].seed)
  end)

  for _, fault in ipairs { "undo", "clone", "own", "core", "notation" } do
    it(("finds a rule set whose %s is wrong, and prints a reproducer that fails again"):format(fault), function()
      local path, remove = files.lua(BROKEN[fault])
      local status, out, err = host.run { "soak", "--rules", path, "--sizes", "4..8", "--games", "20", "--seed", "2" }
      local game = err:match("^boardscript: soak: game (%d+) failed: ")
      assert.is_truthy(game, err)
      assert.equal(1, status)
      assert.matches("failed: " .. EXPECTED_CHECK[fault]:gsub(" ", "%%s") .. ": ", err)
      assert.matches("\n  rules: bad%-" .. fault .. " centre=%a+ size=%d+ %(game seed %d+%)\n", err)
      local playing = fault == "notation" and "" or "playing [a-h][1-8], "
      assert.matches("\n  at ply %d+, " .. playing .. "after the moves: ", err)
      local repro = err:match("\n  reproduce: (boardscript soak [^\n]+)\n")
      assert.equal(("boardscript soak --seed 2 --rules %s --sizes 4..8 --only-game %s"):format(path, game), repro)
      assert.matches("FAILED", out)
      local args = {}
      for word in repro:gmatch("%S+") do args[#args + 1] = word end
      table.remove(args, 1)
      local status2, _, err2 = host.run(args)
      remove()
      assert.equal(1, status2)
      assert.equal(err, err2)
    end)
  end

  it("refuses sizes no rule set allows and bad --sizes text (usage errors)", function()
    local status, _, err = host.run { "soak", "--rules", "reversi", "--sizes", "3" }
    assert.equal(2, status)
    assert.equal("boardscript: soak: no rule set allows the sizes given\n", err)
    status, _, err = host.run { "soak", "--sizes", "4..x" }
    assert.equal(2, status)
    assert.matches("^boardscript: %-%-sizes: '4..x' is not a size", err)
  end)
end)

describe("bugs the soak found", function()
  it("blocks: a block count larger than the cells blocks may take is a usage error, not a crash", function()
    local game = require "boardscript.game"
    local ok, err = pcall(game.new, "blocks", { size = 2, blocks = "1" }, core.rng(1))
    assert.is_false(ok)
    assert.equal("rules blocks: options blocks=1, size=2: the board of 2 x 2 takes 0 to 0 blocks (at most half of it, "
      .. "never a centre cell)", err.message)
  end)
end)

describe("board:move_list paths", function()
  it("give the same moves by the 8 x 8 word path, its portable loop, the multi-word and the reference path",
    function()
      local bs = require "boardscript"
      for _, n in ipairs { 8, 10 } do
        local g = bs.new_game("reversi", { size = n }, 7)
        for _ = 1, 30 do
          local b, lists = g:board(), {}
          for i, path in ipairs { "fast", "scalar", "generic", "reference" } do
            local count, list = b:move_list(g:to_move(), "all", nil, path)
            lists[i] = { count, table.concat(list, ",") }
          end
          for i = 2, 4 do assert.same(lists[1], lists[i]) end
          local moves = g:moves()
          if #moves == 0 then g:pass() else g:play(moves[g.rng:random(#moves)]) end
        end
      end
      assert.has_error(function() core.board(8):move_list("black", "all", nil, "quick") end)
    end)
end)
