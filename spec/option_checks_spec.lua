-- Options checked together (issue 32): a rule set's `check_options(self,
-- opts)` hook, and a described game's `check_options(o)`, refuse option
-- values that do not go together (Gomoku's k in a row longer than the
-- board). Every command that makes a game refuses them, naming the rule
-- set and why, with status 2; a combination they take works; the checker
-- refuses a check that is not a function; the soak draws again, or skips
-- a size, instead of failing.
local files = require "support.files"
local host = require "support.host"
local d = require "boardscript.describe"
local game = require "boardscript.game"
local rules = require "boardscript.rules"
local soak = require "boardscript.soak"
local schedule = require "boardscript.soak.schedule"

local GOMOKU = "lua/examples/gomoku.lua"
local REFUSED = "boardscript: rules " .. GOMOKU
  .. ": options k=5, size=3: k must be at most size (a line of 5 does not fit on a 3 x 3 board)\n"

-- A k-in-a-row game whose k is never drawn by the soak (its range is wide),
-- so that sizes below the default k have no option set it takes.
local FIVE = [[
local d = require "boardscript.describe"
return d.game {
  name = "five", size = function(o) return o.size end,
  options = { size = { type = "integer", min = 3, max = 7, default = 7 },
              k = { type = "integer", min = 3, max = 26, default = 5 } },
  check_options = function(o) if o.k > o.size then return "k must be at most size" end end,
  moves = { d.place() },
  ends = { d.line { k = function(o) return o.k end }, d.full { result = "draw" } },
}
]]

local function user_error(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return type(err) == "table" and err.message or tostring(err)
end

describe("check_options at the command line", function()
  it("refuses options that do not go together, naming the rule set and why, with status 2", function()
    local dir, remove = host.scratch_dir()
    for _, args in ipairs {
      { "perft", GOMOKU, "1", "--size", "3" },
      { "play", GOMOKU, "--size", "3", "--black", "random", "--white", "random" },
      { "render", GOMOKU, "--size", "3" },
      { "train", "--rules", GOMOKU, "--size", "3", "--games", "2", "--out", dir .. "/g.eval" },
    } do
      local status, out, err = host.run(args)
      assert.equal(2, status, table.concat(args, " "))
      assert.equal("", out, table.concat(args, " "))
      assert.equal(REFUSED, err, table.concat(args, " "))
    end
    assert.is_nil(io.open(dir .. "/g.eval"))
    remove()
    local status, _, err = host.run { "match", "--rules", GOMOKU, "--size", "3", "--a", "random", "--b", "random",
                                      "--games", "2" }
    assert.equal(2, status)
    assert.matches("options k=5, size=3: k must be at most size", err, 1, true)
    status, _, err = host.run { "perft", "blocks", "1", "--opt", "blocks=33" }
    assert.equal(2, status)
    assert.equal("boardscript: rules blocks: options blocks=33, size=8: the board of 8 x 8 takes 0 to 32 blocks "
      .. "(at most half of it, never a centre cell)\n", err)
  end)

  it("plays a combination it takes (3 in a row on 3 x 3 is tic-tac-toe)", function()
    local status, out = host.run { "perft", GOMOKU, "9", "--size", "3", "--opt", "k=3" }
    assert.equal(0, status)
    assert.matches("127872 leaves", out, 1, true)
    status, out = host.run { "perft", GOMOKU, "2", "--size", "9", "--opt", "k=9" }
    assert.equal(0, status)
    assert.matches("6480 leaves", out, 1, true)
  end)

  it("refuses a record whose options do not go together", function()
    local dir, remove = host.scratch_dir()
    local path = dir .. "/g.rec"
    local status = host.run { "play", GOMOKU, "--size", "3", "--opt", "k=3", "--black", "random", "--white", "random",
                              "--record", path }
    assert.equal(0, status)
    local text = host.slurp(path)
    assert.equal(0, (host.run { "replay", path }))
    host.spit(path, (text:gsub("option k=3", "option k=5")))
    local replayed, _, err = host.run { "replay", path }
    remove()
    assert.equal(2, replayed)
    assert.matches("options k=5, size=3: k must be at most size", err, 1, true)
  end)

  it("says in 'boardscript rules' that some combinations are refused", function()
    local _, out = host.run { "rules", GOMOKU }
    assert.matches("(some combinations are refused: the rule set checks them together, check_options)", out, 1, true)
    _, out = host.run { "rules", "reversi" }
    assert.is_nil(out:find("check_options", 1, true))
  end)
end)

describe("check_options in the Lua API", function()
  it("game.new refuses a combination and takes the others; the hook sees every option's value", function()
    local seen
    local r = rules.variant(require "boardscript.rules.reversi", { name = "big", check_options = function(_, o)
      seen = o
      if o.size < 8 and o.centre == "black" then return "a small board starts with white on the centre" end
    end })
    assert.equal("rules big: options centre=black, size=6: a small board starts with white on the centre",
      user_error(game.new, r, { size = 6, centre = "black" }))
    assert.same({ size = 6, centre = "black" }, seen)
    assert.equal(6, game.new(r, { size = 6 }).opts.size)
    assert.equal("black", game.new(r, { centre = "black" }).opts.centre)
  end)

  it("takes nil or true as yes, a string or false and a string as no", function()
    local answers = { ["nil"] = { nil }, yes = { true }, text = { "no" }, pair = { false, "not so" } }
    for name, answer in pairs(answers) do
      local r = rules.variant(require "boardscript.rules.reversi", { name = name, check_options = function(_, o)
        if o.size == 6 then return table.unpack(answer, 1, 2) end
      end })
      local ok, err = pcall(game.new, r, { size = 6 })
      if name == "nil" or name == "yes" then
        assert.is_true(ok, name)
      else
        assert.equal(("rules %s: options centre=white, size=6: %s"):format(name, answer[2] or answer[1]),
          err.message)
      end
    end
  end)

  it("is checked by the checker: a function, taking the rule set's own options", function()
    local reversi = require "boardscript.rules.reversi"
    assert.equal("rule set 'bad': field 'check_options' must be a function (self, opts) saying why options do not "
      .. "go together (got string)", user_error(rules.variant, reversi, { name = "bad", check_options = "k <= size" }))
    assert.equal("rule set 'own': field 'check_options' refuses the rule set's own options (centre=white, size=6): "
      .. "too small", user_error(rules.variant, reversi, { name = "own", size = 6, check_options = function(_, o)
        if o.size < 8 then return "too small" end
      end }))
  end)

  it("makes an answer of another kind the rule set's fault", function()
    local r = rules.variant(require "boardscript.rules.reversi", { name = "odd", check_options = function(_, o)
      if o.size == 6 then return 42 end
    end })
    assert.equal("rules odd: hook 'check_options' returned 42 (expected nil or true when the options go together, "
      .. "else a string (or false and a string) saying why not)", user_error(game.new, r, { size = 6 }))
  end)

  it("refuses, at load and at the command line, a file whose check_options is not a function", function()
    local path, remove = files.lua([[
local rules = require "boardscript.rules"
return rules.variant(require "boardscript.rules.reversi", { name = "bad", check_options = 3 })
]])
    local status, _, err = host.run { "perft", path, "1" }
    remove()
    assert.equal(2, status)
    assert.matches("field 'check_options' must be a function", err, 1, true)
  end)

  it("is a described game's field too: a function of the options, never another value", function()
    local desc = { name = "line", size = function(o) return o.size end,
      options = { size = { type = "integer", min = 3, max = 9, default = 5 },
                  k = { type = "integer", min = 3, max = 9, default = 4 } },
      check_options = function(o) if o.k > o.size then return "k must be at most size" end end,
      moves = { d.place() }, ends = { d.line { k = function(o) return o.k end } } }
    local r = d.game(desc)
    assert.equal("rules line: options k=4, size=3: k must be at most size", user_error(game.new, r, { size = 3 }))
    assert.equal(9, #game.new(r, { size = 3, k = 3 }):moves())
    local bad = {}
    for key, value in pairs(desc) do bad[key] = value end
    bad.check_options = "k <= size"
    assert.equal("description 'line': field 'check_options': expected a function of the options returning nil or "
      .. "why they do not go together (got string)", user_error(d.game, bad))
  end)

  it("is refused by serve's new game with its reason", function()
    local json = require "dkjson"
    local api = require "boardscript.serve.api"
    local store = require("boardscript.serve.games").new_store { seed = 1 }
    local status, _, text = api.handle(store, "PAGE", "POST", "/api/games", nil,
      json.encode { rules = "gomoku", size = 3 })
    assert.equal(400, status)
    assert.matches("options k=5, size=3: k must be at most size", json.decode(text).error, 1, true)
    status = api.handle(store, "PAGE", "POST", "/api/games", nil,
      json.encode { rules = "gomoku", size = 3, options = { k = "3" } })
    assert.equal(201, status)
  end)
end)

describe("check_options in the soak", function()
  it("plays gomoku at every size from 3, without --sizes, each game with options it takes", function()
    local status, out, err = host.run { "soak", "--rules", GOMOKU, "--games", "4" }
    assert.equal(0, status, err)
    assert.matches("soak: 4 games", out, 1, true)
    assert.is_nil(out:find("skipped", 1, true))
    local plan = soak.plan { rules = { GOMOKU } }
    assert.same({}, plan.skipped)
    for number = 1, 48 do
      local info = schedule.game(plan.configs, 1, number)
      assert.is_true(info.opts.k <= info.opts.size, info.label)
      assert.equal(info.label, schedule.game(plan.configs, 1, number).label)
    end
    assert.equal("gomoku k=3 size=3", schedule.game(plan.configs, 1, 1).label)
  end)

  it("skips a size where the rule set takes none of the option sets it tried, and says so", function()
    local path, remove = files.lua(FIVE)
    local status, out, err = host.run { "soak", "--rules", path, "--games", "3" }
    local sized, _, sized_err = host.run { "soak", "--rules", path, "--games", "3", "--sizes", "3,4" }
    remove()
    assert.equal(0, status, err)
    assert.matches("skipped 2 sizes where check_options refuses every option set tried: five at sizes 3, 4 "
      .. "(k must be at most size)", out, 1, true)
    assert.matches("five%s+3 games", out)
    assert.equal(2, sized)
    assert.equal("boardscript: soak: no rule set allows the sizes given; check_options refuses five at sizes 3, 4 "
      .. "(k must be at most size)\n", sized_err)
  end)
end)
