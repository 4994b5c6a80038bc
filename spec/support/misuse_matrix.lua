--- The data of spec/misuse_matrix_spec.lua: the bad values, the objects of
-- every userdata type of boardscript.core, and every function and method
-- with the kinds of its arguments. A kind says which values an argument
-- accepts (`ok(value)`); every other value must raise "bad argument #N".
-- An argument list: the valid values a call is made with, one of them
-- replaced by a bad value at a time.
local core = require "boardscript.core"
local dgame_tables = require "support.dgame_tables"

local matrix = {}

local MB = string.rep("x", 1 << 20)

--- The bad values, one per class: {name =, value =, closed = the value is a
-- closed object, trap = a table whose every field access raises "trap"}.
-- `reduced` keeps one value of each group (for valgrind).
function matrix.values(reduced)
  local closed_board = core.board(4)
  getmetatable(closed_board).__close(closed_board)
  local closed_searcher = core.searcher { tt_mb = 1 }
  closed_searcher:close()
  local closed_solver = core.dots_solver { tt_mb = 1 }
  closed_solver:close()
  local closed_evaluator = core.evaluator { size = 3, phases = 1 }
  closed_evaluator:close()
  local closed_trainer = core.trainer(core.evaluator { size = 3, phases = 1 })
  closed_trainer:close()
  local trap = setmetatable({}, {
    __index = function() error("trap", 0) end,
    __newindex = function() error("trap", 0) end,
  })
  local all = {
    { name = "nil", value = nil, reduced = true },
    { name = "false", value = false },
    { name = "true", value = true, reduced = true },
    { name = "table", value = {}, reduced = true },
    { name = "trap table", value = trap, trap = true, reduced = true },
    { name = "function", value = function() end, reduced = true },
    { name = "NaN", value = 0 / 0, reduced = true },
    { name = "1/0", value = 1 / 0 },
    { name = "-1/0", value = -1 / 0, reduced = true },
    { name = "maxinteger", value = math.maxinteger, reduced = true },
    { name = "mininteger", value = math.mininteger },
    { name = "-1", value = -1, reduced = true },
    { name = "0", value = 0 },
    { name = "2^53", value = 2 ^ 53 },
    { name = "1e300", value = 1e300 },
    { name = "2.5", value = 2.5, reduced = true },
    { name = "100000", value = 100000 },
    { name = "word", value = "x", reduced = true },
    { name = "empty string", value = "" },
    { name = "black NUL", value = "black\0x", reduced = true },
    { name = "e NUL", value = "e\0" },
    { name = "all NUL", value = "all\0x" },
    { name = "1 MB string", value = MB },
    { name = "board", value = core.board(4) },
    { name = "closed board", value = closed_board, closed = true, reduced = true },
    { name = "dots", value = core.dots(2, 2), reduced = true },
    { name = "rng", value = core.rng(3) },
    { name = "searcher", value = core.searcher { tt_mb = 1 } },
    { name = "closed searcher", value = closed_searcher, closed = true, reduced = true },
    { name = "dots_solver", value = core.dots_solver { tt_mb = 1 } },
    { name = "closed dots_solver", value = closed_solver, closed = true },
    { name = "evaluator", value = core.evaluator { size = 4, phases = 1 } },
    { name = "closed evaluator", value = closed_evaluator, closed = true, reduced = true },
    { name = "trainer", value = core.trainer(core.evaluator { size = 4, phases = 1 }) },
    { name = "closed trainer", value = closed_trainer, closed = true },
    { name = "io.stdout", value = io.stdout, reduced = true },
    { name = "coroutine", value = coroutine.create(function() end) },
  }
  if not reduced then return all end
  local some = {}
  for _, v in ipairs(all) do
    if v.reduced then some[#some + 1] = v end
  end
  return some
end

-- Kinds of arguments: {ok = function(value) -> accepted, valid = a value or
-- a function making one, closed_ok = a closed object of the type is fine}.
local kind = {}

local function integer(v)
  return type(v) == "number" and math.tointeger(v) or nil
end

--- An integer lo..hi (a float with an integral value too).
function kind.int(lo, hi, valid)
  return { valid = valid, ok = function(v)
    local i = integer(v)
    return i ~= nil and i >= lo and i <= hi
  end }
end

--- An integer lo..hi or nil.
function kind.optint(lo, hi, valid)
  return { valid = valid, ok = function(v)
    local i = integer(v)
    return v == nil or (i ~= nil and i >= lo and i <= hi)
  end }
end

--- Any integer, or nil when optional.
function kind.seed(optional, valid)
  return { valid = valid, ok = function(v) return integer(v) ~= nil or (optional and v == nil) end }
end

--- One of the names (exactly), or nil with a default.
function kind.option(names, optional, valid)
  local set = {}
  for _, name in ipairs(names) do set[name] = true end
  return { valid = valid, ok = function(v) return (optional and v == nil) or (type(v) == "string" and set[v]) end }
end

local PLAYERS = { "black", "white" }
local CELLS = { "empty", "black", "white", "block" }

--- A direction set, optional: a set name or a list (raw access: {} is the empty list).
function kind.dirs()
  local sets = kind.option({ "all", "orthogonal", "diagonal", "none" }, true)
  return { ok = function(v) return sets.ok(v) or type(v) == "table" end }
end

--- An options table (optional unless `required`): {} takes the defaults.
function kind.table(required, valid)
  return { valid = valid, ok = function(v) return type(v) == "table" or (not required and v == nil) end }
end

--- A userdata of type `meta` ("boardscript.board", ...).
function kind.udata(meta, valid, closed_ok)
  return { valid = valid, meta = meta, closed_ok = closed_ok, ok = function(v)
    local mt = getmetatable(v)
    return type(v) == "userdata" and type(mt) == "table" and rawget(mt, "__name") == meta
  end }
end

--- A number lo..hi (luaL_checknumber: numeric strings too; none of the bad values is one).
function kind.number(lo, hi, valid)
  return { valid = valid, ok = function(v) return type(v) == "number" and v >= lo and v <= hi end }
end

--- A string (a number is converted to one), with `check(string)` when given, or nil when optional.
function kind.string(optional, valid, check)
  return { valid = valid, ok = function(v)
    if v == nil then return optional end
    if type(v) == "number" then return true end
    return type(v) == "string" and (not check or check(v))
  end }
end

--- Anything.
function kind.any(valid)
  return { valid = valid, ok = function() return true end }
end

--- A 4 x 4 board with the four centre discs (black's moves: 1,2 2,1 3,4 4,3).
function matrix.board()
  local b = core.board(4)
  b:set(2, 2, "white"); b:set(3, 3, "white"); b:set(2, 3, "black"); b:set(3, 2, "black")
  return b
end

--- The objects of every userdata type the module creates, by metatable name:
-- make() a fresh one; state(o) a string that changes when it changes; probe(o)
-- a valid use that must still work (raises otherwise), leaving it as it was.
matrix.types = {
  ["boardscript.board"] = {
    short = "board",
    make = matrix.board,
    state = function(b)
      local c = b:clone()
      local undone = {}
      while c:undo() do undone[#undone + 1] = tostring(c) end
      return table.concat({ tostring(b), b:hash(), b:count("black"), b:count("white"), b:count("empty"),
        table.concat(undone, "|") }, ";")
    end,
    probe = function(b)
      local before = tostring(b)
      assert(b:play("black", 1, 2) == 1, "board: play")
      assert(b:undo(), "board: undo")
      assert(tostring(b) == before, "board: undo restores")
    end,
  },
  ["boardscript.dots"] = {
    short = "dots",
    make = function()
      local d = core.dots(2, 2)
      d:draw(1, 1, 1, 2)
      return d
    end,
    state = function(d)
      local h = {}
      for _, e in ipairs(d:history()) do h[#h + 1] = table.concat(e, ",") end
      local s1, s2 = d:score()
      return table.concat({ tostring(d), d:hash(), d:turn(), s1, s2, table.concat(h, " ") }, ";")
    end,
    probe = function(d)
      assert(d:draw(3, 1, 3, 2) == 0, "dots: draw")
      assert(d:undo(), "dots: undo")
    end,
  },
  ["boardscript.rng"] = {
    short = "rng",
    make = function() return core.rng(7) end,
    -- The state is the next draws of a copy: a twin seeded alike, advanced alike.
    state = function() return "" end,
    probe = function(g) assert(math.type(g:random(1000)) == "integer", "rng: random") end,
  },
  ["boardscript.cursor"] = {
    short = "cursor",
    make = function() return core.cursor(matrix.board(), "black") end,
    state = function(c)
      local _, moves = c:moves()
      return table.concat({ tostring(c:board()), c:side(), c:count(), c:plies(), table.concat(moves, ",") }, ";")
    end,
    probe = function(c)
      assert(c:count() == 4 and c:side() == "black", "cursor: count")
      assert(c:moves() == 4, "cursor: moves")
    end,
  },
  ["boardscript.searcher"] = {
    short = "searcher",
    make = function() return core.searcher { tt_mb = 1 } end,
    state = function(s)
      local w, keys = s:weights(), {}
      for k, v in pairs(w) do keys[#keys + 1] = k .. "=" .. v end
      table.sort(keys)
      return tostring(s):match("%(closed%)") or table.concat(keys, ",")
    end,
    probe = function(s)
      assert(math.type(s:evaluate(matrix.board(), "black")) == "integer", "searcher: evaluate")
      assert(type(s:search(matrix.board(), "black", { depth = 2 })) == "table", "searcher: search")
    end,
  },
  ["boardscript.evaluator"] = {
    short = "evaluator",
    make = function() return core.evaluator { size = 4, phases = 2 } end,
    state = function(e) return tostring(e):match("%(closed%)") or e:save("state") end,
    probe = function(e)
      assert(math.type(e:evaluate(matrix.board(), "black")) == "integer", "evaluator: evaluate")
      assert(e:info().size == 4, "evaluator: info")
    end,
  },
  ["boardscript.trainer"] = {
    short = "trainer",
    -- two positions (one held out) on a 4 x 4 evaluator
    make = function()
      local t = core.trainer(core.evaluator { size = 4, phases = 2 })
      t:add(matrix.board(), "black", 2)
      t:add(matrix.board(), "white", -2, true)
      return t
    end,
    state = function(t)
      if tostring(t):match("%(closed%)") then return "closed" end
      local m = t:measure()
      return table.concat({ t:count(false), t:count(true), m.train_error, m.holdout_error, m.holdout_abs }, ",")
    end,
    probe = function(t)
      assert(t:count() == 2, "trainer: count")
      assert(t:measure().train == 1, "trainer: measure")
    end,
  },
  ["boardscript.dgame"] = {
    short = "dgame",
    make = function() return core.dgame(dgame_tables.tictactoe()) end,
    state = function() return "" end,
    probe = function(g) assert(g:start():perft(2) == 72, "dgame: start") end,
  },
  ["boardscript.dgame_state"] = {
    short = "dgame_state",
    make = function()
      local S = core.dgame(dgame_tables.tictactoe()):start()
      assert(S:play(S:parse_move("b2")))
      return S
    end,
    state = function(S)
      local c = S:clone()
      local undone = {}
      while c:undo() do undone[#undone + 1] = tostring(c) end
      return table.concat({ tostring(S), S:hash(), S:ply(), S:player(), table.concat(undone, "|") }, ";")
    end,
    probe = function(S)
      local before = tostring(S)
      assert(S:play(S:moves()[1]), "dgame_state: play")
      assert(S:undo(), "dgame_state: undo")
      assert(tostring(S) == before, "dgame_state: undo restores")
    end,
  },
  ["boardscript.dgame_eval"] = {
    short = "dgame_eval",
    make = function() return core.dgame_eval(core.dgame(dgame_tables.tictactoe()):start()) end,
    state = function(e) return e:save() end,
    probe = function(e)
      assert(type(e:value(core.dgame(dgame_tables.tictactoe()):start())) == "number", "dgame_eval: value")
    end,
  },
  ["boardscript.dgame_trainer"] = {
    short = "dgame_trainer",
    make = function() return core.dgame_eval(core.dgame(dgame_tables.tictactoe()):start()):trainer() end,
    state = function(t) return tostring(t:count()) end,
    probe = function(t)
      t:add(core.dgame(dgame_tables.tictactoe()):start(), 1)
      assert(t:count() >= 1, "dgame_trainer: add")
    end,
  },
  ["boardscript.dgame_searcher"] = {
    short = "dgame_searcher",
    make = function() return core.dgame_searcher { tt_mb = 1 } end,
    state = function(s) return tostring(s):match("%(closed%)") or "open" end,
    probe = function(s)
      local S = core.dgame(dgame_tables.tictactoe()):start()
      assert(math.type(S:search { depth = 2, searcher = s }) == "integer", "dgame_searcher: search")
    end,
  },
  ["boardscript.dots_solver"] = {
    short = "dots_solver",
    make = function() return core.dots_solver { tt_mb = 1 } end,
    state = function(s) return tostring(s):match("%(closed%)") or "open" end,
    probe = function(s) assert(math.type(s:value(core.dots(1, 2))) == "integer", "dots_solver: value") end,
  },
}

local BOARD, DOTS, RNG = "boardscript.board", "boardscript.dots", "boardscript.rng"
local SEARCHER, SOLVER = "boardscript.searcher", "boardscript.dots_solver"
local CURSOR = "boardscript.cursor"
local DGAME, DGSTATE = "boardscript.dgame", "boardscript.dgame_state"
local DGEVAL, DGTRAINER = "boardscript.dgame_eval", "boardscript.dgame_trainer"
local DGSEARCHER = "boardscript.dgame_searcher"
local function dgstate() return core.dgame(dgame_tables.tictactoe()):start() end
local function dgeval() return core.dgame_eval(dgstate()) end
-- A described game's move: any number is one (a nonsense one is illegal, not an error).
local dgmove = { valid = 1023, -- a1
  ok = function(v) return type(v) == "number" end }
local EVALUATOR, TRAINER = "boardscript.evaluator", "boardscript.trainer"
local function board() return matrix.board() end
local function evaluator() return core.evaluator { size = 4, phases = 2 } end

-- core.evaluator(PATH)'s valid value: a saved 4 x 4 evaluation in a scratch
-- file (matrix.cleanup removes it). Every string of the bad values names no
-- such file (or is refused as a path): "bad argument #1", naming the file.
matrix.eval_path = os.tmpname()
do
  local f = assert(io.open(matrix.eval_path, "wb"))
  f:write(evaluator():save("misuse matrix"))
  f:close()
end

--- Removes the scratch files.
function matrix.cleanup()
  os.remove(matrix.eval_path)
end

-- The pattern instances of a 4 x 4 evaluation.
local INSTANCES4 = evaluator():info().instances

-- A function or method: {of = "module" or a metatable name, name, args
-- (kinds; a method's receiver is added as argument 1), signature = a name
-- for a second argument list of the same function}.
local k = kind
local edge = {
  k.int(1, 3, 2), k.int(1, 3, 1), k.int(1, 3, 3), k.int(1, 3, 1),
}
-- The one-table form: no bad value is an edge ({} has no field 1).
local edge_table = { { valid = function() return { 2, 1, 3, 1 } end, ok = function() return false end } }
local box = { k.int(1, 2, 1), k.int(1, 2, 2) }
local dot = { k.int(1, 3, 2), k.int(1, 3, 2) }
local search_args = {
  k.udata(BOARD, board), k.option(PLAYERS, false, "black"), k.table(false, function() return { depth = 1 } end),
}

matrix.functions = {
  -- the module table
  { of = "module", name = "board", args = { k.int(1, 26, 4), k.optint(1, 26, 6) } },
  { of = "module", name = "directions", args = { k.any("all") }, fail_ok = true },
  { of = "module", name = "rng", args = { k.seed(true, 1) } },
  { of = "module", name = "dots", args = { k.int(1, 16, 2), k.int(1, 16, 2) } },
  { of = "module", name = "dots_solver", args = { k.table(false, function() return { tt_mb = 1 } end) } },
  { of = "module", name = "clock", args = {} },
  { of = "module", name = "type", args = { k.any(board) } },
  { of = "module", name = "searcher", args = { k.table(false, function() return { tt_mb = 1 } end) } },
  { of = "module", name = "playout", args = {
    k.udata(BOARD, board), k.option(PLAYERS, false, "black"), k.udata(RNG, function() return core.rng(1) end),
    k.table(false, function() return { limit = 4 } end) } },
  { of = "module", name = "cursor", args = {
    k.udata(BOARD, board), k.option(PLAYERS, false, "black"), k.table(false, function() return {} end) } },
  { of = "module", name = "evaluator", args = { k.table(true, function() return { size = 4, phases = 1 } end) } },
  { of = "module", name = "evaluator", signature = "evaluator(path)",
    args = { k.table(true, function() return matrix.eval_path end) } },
  { of = "module", name = "evaluator_load", fail_ok = true,
    args = { k.string(false, function() return evaluator():save() end) } },
  { of = "module", name = "trainer", args = { k.udata(EVALUATOR, evaluator) } },
  { of = "module", name = "dgame", args = { { valid = dgame_tables.tictactoe, ok = function() return false end } } },
  { of = "module", name = "dgame_eval",
    args = { k.udata(DGSTATE, dgstate), k.table(false, function() return {} end) } },
  { of = "module", name = "dgame_searcher", args = { k.table(false, function() return { tt_mb = 1 } end) } },
  { of = "module", name = "dgame_eval_load", fail_ok = true,
    args = { k.string(false, function() return dgeval():save() end) } },

  -- boards
  { of = BOARD, name = "size", args = {} },
  { of = BOARD, name = "rows", args = {} },
  { of = BOARD, name = "cols", args = {} },
  { of = BOARD, name = "get", args = { k.int(1, 4, 1), k.int(1, 4, 1) } },
  { of = BOARD, name = "set", args = { k.int(1, 4, 1), k.int(1, 4, 1), k.option(CELLS, false, "block") } },
  -- (code: any integers, -1 off the board)
  { of = BOARD, name = "code", args = {
    k.int(math.mininteger, math.maxinteger, 1), k.int(math.mininteger, math.maxinteger, 1) } },
  { of = BOARD, name = "set_code", args = { k.int(1, 4, 1), k.int(1, 4, 1), k.int(0, 3, 2) } },
  { of = BOARD, name = "count", args = { k.option(CELLS, false, "black") } },
  { of = BOARD, name = "cells", args = { k.option(CELLS, false, "black") } },
  { of = BOARD, name = "moves", args = { k.option(PLAYERS, false, "black"), k.dirs() } },
  { of = BOARD, name = "has_moves", args = { k.option(PLAYERS, false, "black"), k.dirs() } },
  { of = BOARD, name = "legal", args = {
    k.option(PLAYERS, false, "black"), k.int(1, 4, 1), k.int(1, 4, 2), k.dirs() } },
  { of = BOARD, name = "flips", args = {
    k.option(PLAYERS, false, "black"), k.int(1, 4, 1), k.int(1, 4, 2), k.dirs() } },
  { of = BOARD, name = "play", fail_ok = true, args = {
    k.option(PLAYERS, false, "black"), k.int(1, 4, 1), k.int(1, 4, 2), k.dirs(), k.dirs() } },
  { of = BOARD, name = "play_index", fail_ok = true, args = {
    k.option(PLAYERS, false, "black"), k.int(1, 16, 2), k.dirs(), k.dirs() } },
  { of = BOARD, name = "move_list", args = { k.option(PLAYERS, false, "black"), k.dirs(), k.table(),
    k.option({ "fast", "scalar", "generic", "reference" }, true) } },
  { of = BOARD, name = "undo", args = {} },
  { of = BOARD, name = "clone", args = {} },
  { of = BOARD, name = "hash", args = {} },
  { of = BOARD, name = "perft", args = { k.option(PLAYERS, false, "black"), k.int(0, 64, 1), k.table() } },
  { of = BOARD, name = "__tostring", args = {}, closed_ok = true },
  { of = BOARD, name = "__eq", args = { k.any(board) }, self = k.any() },
  { of = BOARD, name = "__gc", args = {}, closed_ok = true },
  { of = BOARD, name = "__close", args = { k.any() }, closed_ok = true },

  -- random generators
  { of = RNG, name = "seed", args = { k.seed(false, 5) } },
  { of = RNG, name = "random", args = {} },
  { of = RNG, name = "random", signature = "random(m)", args = { k.int(1, math.maxinteger, 6) } },
  { of = RNG, name = "random", signature = "random(m, n)", args = {
    -- lo > hi: "interval is empty" names the last argument (as math.random does)
    { valid = 1, ok = function(v) local i = integer(v); return i ~= nil and i <= 6 end,
      errpos = function(v) return integer(v) and 3 or 2 end },
    { valid = 6, ok = function(v) local i = integer(v); return i ~= nil and i >= 1 end } } },
  { of = RNG, name = "__tostring", args = {} },
  { of = RNG, name = "state", args = {} },
  { of = RNG, name = "restore", args = { { valid = ("0"):rep(63) .. "1", ok = function(v)
    return type(v) == "string" and #v == 64 and v:match("^[0-9a-f]+$") ~= nil and v:match("[1-9a-f]") ~= nil
  end } } },

  -- cursors (4 x 4 start, black to move: four moves)
  { of = CURSOR, name = "play", args = { k.int(1, 4, 1) } },
  { of = CURSOR, name = "count", args = {} },
  { of = CURSOR, name = "pass", args = {}, fail_ok = true },
  { of = CURSOR, name = "moves", args = { k.table() } },
  { of = CURSOR, name = "side", args = {} },
  { of = CURSOR, name = "plies", args = {} },
  { of = CURSOR, name = "result", args = {} },
  { of = CURSOR, name = "reset", args = {} },
  { of = CURSOR, name = "board", args = {} },
  { of = CURSOR, name = "can_pass", args = {} },
  { of = CURSOR, name = "playout", args = {
    k.udata(RNG, function() return core.rng(1) end), k.table(false, function() return { limit = 4 } end) } },
  { of = CURSOR, name = "__tostring", args = {} },

  -- Dots and Boxes positions
  { of = DOTS, name = "rows", args = {} },
  { of = DOTS, name = "cols", args = {} },
  { of = DOTS, name = "edge_count", args = {} },
  { of = DOTS, name = "open_count", args = {} },
  { of = DOTS, name = "draw", args = edge, fail_ok = true },
  { of = DOTS, name = "draw", signature = "draw{edge}", args = edge_table, fail_ok = true },
  { of = DOTS, name = "undo", args = {} },
  { of = DOTS, name = "open_edges", args = {} },
  { of = DOTS, name = "history", args = {} },
  { of = DOTS, name = "is_drawn", args = edge },
  { of = DOTS, name = "is_drawn", signature = "is_drawn{edge}", args = edge_table },
  { of = DOTS, name = "box_sides", args = box },
  { of = DOTS, name = "box_owner", args = box },
  { of = DOTS, name = "degree", args = dot },
  { of = DOTS, name = "turn", args = {} },
  { of = DOTS, name = "score", args = {} },
  { of = DOTS, name = "finished", args = {} },
  { of = DOTS, name = "effect", args = edge, fail_ok = true },
  { of = DOTS, name = "effect", signature = "effect{edge}", args = edge_table, fail_ok = true },
  { of = DOTS, name = "chains", args = {} },
  { of = DOTS, name = "clone", args = {} },
  { of = DOTS, name = "hash", args = {} },
  { of = DOTS, name = "solve", args = { k.table(false, function() return { tt_mb = 1 } end) } },
  { of = DOTS, name = "best_move", args = { k.table(false, function() return { tt_mb = 1 } end) } },
  { of = DOTS, name = "__tostring", args = {} },
  { of = DOTS, name = "__eq", args = { k.any(function() return core.dots(2, 2) end) }, self = k.any() },

  -- the Dots and Boxes solver
  { of = DGSEARCHER, name = "close", args = {}, closed_ok = true },
  { of = DGSEARCHER, name = "__gc", args = {}, closed_ok = true },
  { of = DGSEARCHER, name = "__close", args = { k.any() }, closed_ok = true },
  { of = DGSEARCHER, name = "__tostring", args = {}, closed_ok = true },
  { of = SOLVER, name = "value", args = { k.udata(DOTS, function() return core.dots(1, 2) end), k.table() } },
  { of = SOLVER, name = "best", args = { k.udata(DOTS, function() return core.dots(1, 2) end), k.table() } },
  { of = SOLVER, name = "nodes", args = {} },
  { of = SOLVER, name = "close", args = {}, closed_ok = true },
  { of = SOLVER, name = "__gc", args = {}, closed_ok = true },
  { of = SOLVER, name = "__close", args = { k.any() }, closed_ok = true },
  { of = SOLVER, name = "__tostring", args = {}, closed_ok = true },

  -- learned evaluations (4 x 4) and their trainers
  { of = EVALUATOR, name = "evaluate", args = { k.udata(BOARD, board), k.option(PLAYERS, false, "black") } },
  { of = EVALUATOR, name = "info", args = {} },
  { of = EVALUATOR, name = "instance", args = { k.int(1, INSTANCES4, 1) } },
  { of = EVALUATOR, name = "save", args = {
    k.string(true, "meta", function(v) return #v <= 16384 and not v:find("\0", 1, true) end) } },
  { of = EVALUATOR, name = "copy", args = {} },
  { of = EVALUATOR, name = "set_mpc", args = { k.table(false, function() return {} end) } },
  { of = EVALUATOR, name = "mpc", args = {} },
  { of = EVALUATOR, name = "close", args = {}, closed_ok = true },
  { of = EVALUATOR, name = "__gc", args = {}, closed_ok = true },
  { of = EVALUATOR, name = "__close", args = { k.any() }, closed_ok = true },
  { of = EVALUATOR, name = "__tostring", args = {}, closed_ok = true },
  { of = TRAINER, name = "add", args = {
    k.udata(BOARD, board), k.option(PLAYERS, false, "black"), k.number(-10000, 10000, 3), k.any() } },
  { of = TRAINER, name = "count", args = { k.any() } },
  { of = TRAINER, name = "fit", args = { k.table(false, function() return { iterations = 2 } end) } },
  { of = TRAINER, name = "measure", args = {} },
  { of = TRAINER, name = "close", args = {}, closed_ok = true },
  { of = TRAINER, name = "__gc", args = {}, closed_ok = true },
  { of = TRAINER, name = "__close", args = { k.any() }, closed_ok = true },
  { of = TRAINER, name = "__tostring", args = {}, closed_ok = true },

  -- the capture-game searcher
  { of = SEARCHER, name = "search", args = search_args },
  { of = SEARCHER, name = "solve", args = search_args },
  { of = SEARCHER, name = "evaluate", args = search_args },
  { of = SEARCHER, name = "position", args = search_args },
  { of = SEARCHER, name = "weights", args = {} },
  { of = SEARCHER, name = "set_weights", args = { k.table(true, function() return { discs = 1 } end) } },
  { of = SEARCHER, name = "clear", args = {} },
  { of = SEARCHER, name = "close", args = {}, closed_ok = true },
  { of = SEARCHER, name = "__gc", args = {}, closed_ok = true },
  { of = SEARCHER, name = "__close", args = { k.any() }, closed_ok = true },
  { of = SEARCHER, name = "__tostring", args = {}, closed_ok = true },

  -- described games (tic-tac-toe; the state has b2 played)
  { of = DGAME, name = "start", args = {} },
  { of = DGAME, name = "__gc", args = {}, closed_ok = true },
  { of = DGSTATE, name = "moves", args = { k.table() } },
  { of = DGSTATE, name = "play", args = { dgmove }, fail_ok = true },
  { of = DGSTATE, name = "pass", args = {}, fail_ok = true },
  { of = DGSTATE, name = "can_pass", args = {} },
  { of = DGSTATE, name = "undo", args = {} },
  { of = DGSTATE, name = "status", args = {} },
  { of = DGSTATE, name = "finished", args = {} },
  { of = DGSTATE, name = "score", args = {} },
  { of = DGSTATE, name = "player", args = {} },
  { of = DGSTATE, name = "ply", args = {} },
  { of = DGSTATE, name = "hash", args = {} },
  { of = DGSTATE, name = "get", args = { k.int(1, 3, 1), k.int(1, 3, 2) } },
  { of = DGSTATE, name = "code", args = { k.int(1, 3, 1), k.int(1, 3, 2) } },
  { of = DGSTATE, name = "rows", args = {} },
  { of = DGSTATE, name = "cols", args = {} },
  { of = DGSTATE, name = "size", args = {} },
  { of = DGSTATE, name = "count", args = { k.option({ "empty", "black", "white" }, false, "black") } },
  { of = DGSTATE, name = "clone", args = {} },
  { of = DGSTATE, name = "move_text", args = { dgmove } },
  { of = DGSTATE, name = "move_cells", args = { dgmove } },
  { of = DGSTATE, name = "parse_move", args = { k.string(false, "a1") } },
  { of = DGSTATE, name = "perft", args = { k.int(0, 64, 2) } },
  { of = DGSTATE, name = "playout", args = {
    { valid = 1, ok = function(v) return integer(v) ~= nil or k.udata(RNG).ok(v) end },
    { valid = 2, ok = function(v)
      return v == nil or (integer(v) ~= nil and integer(v) >= 0 and integer(v) <= 100000000)
    end } } },
  { of = DGSTATE, name = "search", args = { k.table(false, function() return { depth = 2, tt_mb = 1 } end) } },
  { of = DGSTATE, name = "mcts", args = { k.table(false, function() return { playouts = 10 } end) } },
  { of = DGSTATE, name = "__gc", args = {}, closed_ok = true },
  -- the n-tuple evaluation of a described game and its trainer
  { of = DGEVAL, name = "value", args = { k.udata(DGSTATE, dgstate), k.table(false, function() return {} end) } },
  { of = DGEVAL, name = "fits", args = { k.udata(DGSTATE, dgstate) } },
  { of = DGEVAL, name = "save", args = {} },
  { of = DGEVAL, name = "info", args = {} },
  { of = DGEVAL, name = "trainer", args = { k.table(false, function() return {} end) } },
  { of = DGEVAL, name = "__gc", args = {}, closed_ok = true },
  { of = DGTRAINER, name = "add", args = { k.udata(DGSTATE, dgstate), k.number(-1e6, 1e6, 1), k.any() } },
  { of = DGTRAINER, name = "count", args = { k.any() } },
  { of = DGTRAINER, name = "fit", args = { k.table(false, function() return { iterations = 2 } end) } },
  { of = DGTRAINER, name = "__gc", args = {}, closed_ok = true },
  { of = DGSTATE, name = "__tostring", args = {} },
  { of = DGSTATE, name = "__eq", args = { k.any(function() return core.dgame(dgame_tables.tictactoe()):start() end) },
    self = k.any() },
}

matrix.kind = kind
return matrix