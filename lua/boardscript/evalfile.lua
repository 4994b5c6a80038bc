--- Learned evaluation files (`boardscript train --out FILE`, `eval=FILE`):
-- reading, writing and checking them against the game they are used for,
-- and the evaluations shipped with boardscript.
--
-- The file (docs/guide.md, "Training an evaluation"): a text header
--
--     boardscript-eval 2
--     size 8
--     phases 10
--     features patterns,mobility,potential,parity,anchored
--     mobility-dirs 255
--     layout 09eb30e1
--     meta 93
--     <93 bytes of meta: key=value lines: rules, size, options, command, seed, ...>
--     weights
--
-- then the weights in binary (little-endian; per phase the bias and the
-- scalar weights as 32-bit integers, then every pattern entry as a 16-bit
-- integer, a run of zeros as 0x8000 and its length) and a 32-bit FNV-1a
-- checksum of everything before it (version 1 files, whose checksum covers
-- the weights alone, are read too). `layout` is a checksum of the patterns
-- the generator makes for the size: a file from another generator is refused.
local core = require "boardscript.core"
local bounded = require "boardscript.bounded"
local errors = require "boardscript.errors"
local output = require "boardscript.output"

local evalfile = {}

--- The largest evaluation file read (a 26 x 26 one with every weight set
-- is about 40 MiB).
evalfile.MAX_FILE = 64 << 20

--- Where the shipped evaluations are: next to this module.
local function shipped_dir()
  local here = debug.getinfo(1, "S").source
  if here:sub(1, 1) ~= "@" then return nil end
  return here:sub(2):match("^(.*)/[^/]*$") .. "/evals"
end

local META_KEYS = { "rules", "size", "shape", "options", "seed", "command", "trained", "mpc" }

--- The meta text of a table: key=value lines (newlines in a value become spaces).
function evalfile.meta_text(meta)
  local lines = {}
  for _, key in ipairs(META_KEYS) do
    if meta[key] ~= nil then
      lines[#lines + 1] = ("%s=%s"):format(key, tostring(meta[key]):gsub("[\r\n]", " "))
    end
  end
  return table.concat(lines, "\n")
end

local function parse_meta(text)
  local meta = {}
  for key, value in (text or ""):gmatch("([%w_]+)=([^\n]*)") do meta[key] = value end
  meta.size = math.tointeger(tonumber(meta.size))
  return meta
end

--- Writes evaluator `ev` to `path` with `meta` (a table: rules, size,
-- options, seed, command, trained) and ev's Multi-ProbCut parameters (the
-- meta key mpc, boardscript.train.mpc), every write checked.
function evalfile.save(path, ev, meta)
  local all = {}
  for key, value in pairs(meta or {}) do all[key] = value end
  local params = ev:mpc()
  all.mpc = params and require("boardscript.mpc").text(params) or nil
  output.write_file(path, ev:save(evalfile.meta_text(all)), "wb")
end

--- Reads `path`: the evaluator and its meta table. A file that is not one
-- is a user error "cannot load PATH: REASON" (status 2).
function evalfile.load(path)
  -- core.evaluator(PATH) opens without blocking and refuses what is not a
  -- regular file (a FIFO or a device would block for ever, outside every
  -- budget); other failures are read again for the messages of bounded
  local loaded, ev, meta = pcall(core.evaluator, path)
  if not loaded then
    local why = tostring(ev):match("%((.*)%)$") or tostring(ev)
    if why:find("not a regular file", 1, true) then errors.fail(why) end
    local bytes = bounded.read_all(path, evalfile.MAX_FILE)
    ev, meta = core.evaluator_load(bytes)
  end
  if not ev then errors.fail(("cannot load %s: %s"):format(path, meta)) end
  meta = parse_meta(meta)
  if meta.mpc then
    local why = require("boardscript.mpc").load(ev, meta.mpc)
    if why then errors.fail(("cannot load %s: its Multi-ProbCut parameters (mpc=): %s"):format(path, why)) end
  end
  meta.path = path
  return ev, meta
end

--- The words of a game in messages: "reversi 8 x 8", "reversi 6 x 8"
-- (`shape`: "RxC" of a board that is not square).
local function game_text(rules, size, shape)
  local rows, cols = tostring(shape or ""):match("^(%d+)x(%d+)$")
  return ("%s %s x %s"):format(rules, rows or size, cols or size)
end

--- The size of core board `b` (its side, as evaluators count it) and, when
-- it is not square, its shape "RxC" (rows x cols), which an evaluation's
-- file records (meta `shape`) and evalfile.check compares.
-- @treturn integer the size
-- @treturn ?string the shape
function evalfile.shape(b)
  local n = b:size()
  if type(b.rows) ~= "function" or (b:rows() == n and b:cols() == n) then return n, nil end
  return n, ("%dx%d"):format(b:rows(), b:cols())
end

--- Raises a user error unless the file of `meta` was trained for rule set
-- `rules` (a name) on `size` x `size` boards, or on boards of `shape`
-- ("RxC", evalfile.shape) when given.
function evalfile.check(meta, rules, size, shape)
  if meta.rules ~= rules or meta.size ~= size or meta.shape ~= shape then
    errors.fail(("%s was trained for %s, not %s"):format(meta.path or "the evaluation",
      game_text(tostring(meta.rules), meta.size or 0, meta.shape), game_text(tostring(rules), size, shape)))
  end
end

--- The path of the evaluation shipped for rule set `rules` (a name) at
-- `size`, or nil: evals/RULES-SIZE.bse next to this module.
function evalfile.shipped(rules, size)
  local dir = shipped_dir()
  if not dir or type(rules) ~= "string" or not rules:match("^[%w_]+$") then return nil end
  local path = ("%s/%s-%d.bse"):format(dir, rules, size)
  local file = io.open(path, "rb")
  if not file then return nil end
  file:close()
  return path
end

--- Every shipped evaluation: a list of { rules =, size =, path = }, sorted.
function evalfile.list_shipped()
  local dir = shipped_dir()
  local list = {}
  local index = dir and io.open(dir .. "/index.txt", "r")
  if not index then return list end
  for line in index:lines() do
    local rules, size = line:match("^([%w_]+)%-(%d+)%.bse")
    if rules then list[#list + 1] = { rules = rules, size = tonumber(size), path = ("%s/%s"):format(dir, line) } end
  end
  index:close()
  table.sort(list, function(a, b) return a.rules < b.rules or (a.rules == b.rules and a.size < b.size) end)
  return list
end

local cache = {}

--- The evaluator of `spec` for a game of rule set `rules` (name) on `size`
-- boards: spec "hand" gives nil (the hand-written evaluation), a path that
-- file (checked against the game), nil the shipped one if there is one.
-- Loaded files are kept: each use gets a copy.
function evalfile.for_game(spec, rules, size, shape)
  if spec == "hand" then return nil end
  local path = spec or (shape == nil and evalfile.shipped(rules, size) or nil)
  if not path then return nil end
  local entry = cache[path]
  if not entry then
    local ev, meta = evalfile.load(path)
    entry = { ev = ev, meta = meta }
    cache[path] = entry
  end
  evalfile.check(entry.meta, rules, size, shape)
  return entry.ev:copy(), entry.meta
end

--- The evaluator a policy named `policy` plays with for option eval=`spec`
-- (a file or "shipped") in state `s` of rule set `r`: the state must keep
-- its pieces on a core board, and "shipped" needs a shipped evaluation.
function evalfile.learned(spec, r, s, policy)
  local name = tostring(r.name)
  local ok, size, shape = pcall(evalfile.shape, s.board)
  if not ok or math.type(size) ~= "integer" then
    errors.fail(("%s: eval=%s needs a rule set whose position is a core board (state.board)"):format(policy, spec))
  end
  if spec == "shipped" then
    if shape or not evalfile.shipped(name, size) then
      errors.fail(("%s: no evaluation is shipped for %s (see 'boardscript ai list')"):format(policy,
        game_text(name, size, shape)))
    end
    spec = nil
  end
  return (evalfile.for_game(spec, name, size, shape))
end

return evalfile
