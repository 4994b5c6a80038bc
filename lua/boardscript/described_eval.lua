--- Learned evaluations of described games (`boardscript train --rules
-- FILE.lua`, `eval=FILE`): the file, and its check against the game it is
-- used for. docs/guide.md, "Training an evaluation", "Described games".
--
-- The file: a text header
--
--     boardscript-dgeval 1
--     rules breakthrough
--     options k=4
--     board 8x8
--     form 1a2b3c4d
--     meta 57
--     <57 bytes: key=value lines: seed, command, trained>
--     weights 141368
--
-- then the weights as core.dgame_eval's E:save() writes them (little-endian,
-- their own shape and checksum). `form` is the FNV-1a checksum of the
-- normalised form's canonical text: a file is refused for any other game
-- (another rule set, other options, another board), whatever its name.
local core = require "boardscript.core"
local bounded = require "boardscript.bounded"
local compile = require "boardscript.describe.compile"
local errors = require "boardscript.errors"
local output = require "boardscript.output"

local evalfile = {}

--- The largest file read.
evalfile.MAX_FILE = 512 << 20

local MAGIC = "boardscript-dgeval 1"
local META_KEYS = { "seed", "command", "trained" }

-- FNV-1a, 32 bits, as 8 hex digits.
local function fnv1a(text)
  local h = 2166136261
  for i = 1, #text do
    h = ((h ~ text:byte(i)) * 16777619) & 0xffffffff
  end
  return ("%08x"):format(h)
end

-- "k=v,k=v": the options, sorted by name.
local function options_text(opts)
  local keys = {}
  for key in pairs(opts) do
    if type(key) == "string" then keys[#keys + 1] = key end
  end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do parts[i] = ("%s=%s"):format(key, tostring(opts[key])) end
  return table.concat(parts, ",")
end

--- What names the game an evaluation is for: { rules =, options =, rows =,
-- cols =, form = }.
-- @tparam table rules a described rule set (boardscript.describe)
-- @tparam[opt] table opts its option values
-- @treturn table the identity
function evalfile.identity(rules, opts)
  local desc = rules.described.description
  local resolved = compile.resolve(desc, opts or {})
  local n = compile.normalised(desc, resolved)
  return { rules = tostring(n.name), options = options_text(resolved), rows = n.rows, cols = n.cols,
           form = fnv1a(compile.canonical_text(n)) }
end

local function one_line(v)
  return (tostring(v):gsub("[\r\n]", " "))
end

--- Writes evaluation `E` (core.dgame_eval) for the game `id` (evalfile.identity)
-- to `path` whole (a temporary file renamed), with `meta` (seed, command, trained).
-- @tparam string path the file
-- @tparam userdata E the evaluation
-- @tparam table id the game's identity
-- @tparam[opt] table meta what made it
function evalfile.save(path, E, id, meta)
  local lines = {}
  for _, key in ipairs(META_KEYS) do
    if meta and meta[key] ~= nil then lines[#lines + 1] = ("%s=%s"):format(key, one_line(meta[key])) end
  end
  local meta_text = table.concat(lines, "\n")
  local weights = E:save()
  local text = table.concat({ MAGIC, "rules " .. one_line(id.rules), "options " .. one_line(id.options),
    ("board %dx%d"):format(id.rows, id.cols), "form " .. id.form, "meta " .. #meta_text, meta_text,
    "weights " .. #weights, weights }, "\n")
  output.write_file(path, text, "wb")
end

--- Reads the bytes of a file: the evaluation and its header table
-- ({ rules, options, rows, cols, form, seed, command, trained }), or nil and why.
-- @tparam string bytes the file's bytes
-- @treturn ?userdata the evaluation
-- @treturn table|string the header, or why not
function evalfile.decode(bytes)
  local pos = 1
  local function line()
    local e = bytes:find("\n", pos, true)
    if not e then return nil end
    local l = bytes:sub(pos, e - 1)
    pos = e + 1
    return l
  end
  if line() ~= MAGIC then return nil, "not an evaluation of a described game (boardscript-dgeval)" end
  local h = {}
  h.rules = (line() or ""):match("^rules (.*)$")
  h.options = (line() or ""):match("^options (.*)$")
  local rows, cols = (line() or ""):match("^board (%d+)x(%d+)$")
  h.form = (line() or ""):match("^form (%x+)$")
  local meta_len = math.tointeger(tonumber((line() or ""):match("^meta (%d+)$")))
  if not (h.rules and h.options and rows and h.form and meta_len) then return nil, "a damaged header" end
  h.rows, h.cols = math.tointeger(tonumber(rows)), math.tointeger(tonumber(cols))
  local meta_text = bytes:sub(pos, pos + meta_len - 1)
  pos = pos + meta_len + 1
  for key, value in meta_text:gmatch("([%w_]+)=([^\n]*)") do
    if h[key] == nil then h[key] = value end
  end
  local count = math.tointeger(tonumber((line() or ""):match("^weights (%d+)$")))
  if not count or #bytes - pos + 1 ~= count then return nil, "a damaged or cut file" end
  local E, why = core.dgame_eval_load(bytes:sub(pos))
  if not E then return nil, why end
  local info = E:info()
  if info.rows ~= h.rows or info.cols ~= h.cols then return nil, "the weights are for another board" end
  return E, h
end

--- Reads `path`: the evaluation and its header; a file that is not one is
-- a user error "cannot load PATH: REASON".
-- @tparam string path the file
-- @treturn userdata the evaluation
-- @treturn table the header
function evalfile.load(path)
  local bytes = bounded.read_all(path, evalfile.MAX_FILE)
  local E, h = evalfile.decode(bytes)
  if not E then errors.fail(("cannot load %s: %s"):format(path, h)) end
  return E, h
end

--- Refuses (a user error) evaluation header `h` read from `path` for any
-- game but `id`.
-- @tparam table h the header
-- @tparam table id the game's identity (evalfile.identity)
-- @tparam string path the file, for the message
function evalfile.check(h, id, path)
  if h.form == id.form and h.rows == id.rows and h.cols == id.cols then return end
  local function game(t)
    return ("%s%s (%dx%d)"):format(t.rules, t.options ~= "" and (" " .. t.options) or "", t.rows, t.cols)
  end
  errors.fail(("%s is an evaluation of %s, not of %s"):format(path, game(h), game(id)))
end

--- The evaluation in `path` for described rule set `rules` with options
-- `opts`, checked against the game (a user error for another game).
-- @tparam string path the file
-- @tparam table rules a described rule set
-- @tparam[opt] table opts its option values
-- @treturn userdata the evaluation (core.dgame_eval)
function evalfile.for_game(path, rules, opts)
  local E, h = evalfile.load(path)
  evalfile.check(h, evalfile.identity(rules, opts), path)
  return E
end

--- The evaluation shipped for the game `id` (evalfile.identity), or nil:
-- lua/boardscript/evals/RULES-ROWSxCOLS.dgeval next to the capture games'.
-- @tparam table id the game's identity
-- @treturn ?string its path
function evalfile.shipped(id)
  local here = debug.getinfo(1, "S").source
  if here:sub(1, 1) ~= "@" or not tostring(id.rules):match("^[%w_]+$") then return nil end
  local path = ("%s/evals/%s-%dx%d.dgeval"):format(here:sub(2):match("^(.*)/[^/]*$") or ".", id.rules, id.rows,
    id.cols)
  local file = io.open(path, "rb")
  if not file then return nil end
  file:close()
  return path
end

--- The learned evaluation a policy plays described game `g` with for its
-- option eval=`spec` (a file, or "shipped": the one boardscript ships for
-- this game; nil or "hand": none), loaded once per file
-- and option set and kept in `holder` (the policy's instance).
-- @tparam table holder where it is kept (fields dg_eval, dg_eval_key)
-- @tparam ?string spec the option's value
-- @tparam table g the game (rules, opts)
-- @tparam string policy the policy's name, for messages
-- @treturn ?userdata the evaluation
function evalfile.for_policy(holder, spec, g, policy)
  if spec == nil or spec == "hand" then return nil end
  if spec == "shipped" then
    local id = evalfile.identity(g.rules, g.opts or {})
    spec = evalfile.shipped(id)
    if not spec then
      errors.fail(("%s: no evaluation is shipped for the described game %s (%dx%d)"):format(policy, id.rules,
        id.rows, id.cols))
    end
  end
  local key = spec .. "|" .. tostring(g.rules.described.normalised(g.opts or {}))
  if rawget(holder, "dg_eval_key") ~= key then
    rawset(holder, "dg_eval", evalfile.for_game(spec, g.rules, g.opts or {}))
    rawset(holder, "dg_eval_key", key)
  end
  return rawget(holder, "dg_eval")
end

return evalfile
