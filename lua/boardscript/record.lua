--- Game records: plain text, one fact a line, moves in the rule set's
-- notation, so a game can be read, replayed and checked anywhere.
--
--     boardscript record 1
--     edition reversi          (the edition that made it, if any)
--     rules reversi            (a built-in name or the rule set file's path)
--     option size=8            (one line per option)
--     seed 1234
--     player black random      (one line per side: human, an AI, a policy file)
--     move f5
--     pass
--     ...
--     result 33-31 black       (scores in side order, then the winner,
--                               "draw", or "unfinished")
--
-- Blank lines and lines starting with `#` are ignored.
local errors = require "boardscript.errors"
local word_and_rest = require("boardscript.text").word_and_rest
local game = require "boardscript.game"
local core = require "boardscript.core"
local rules_mod = require "boardscript.rules"

local record = {}

record.HEADER = "boardscript record 1"

-- Option values as text, keys sorted so a record is stable.
local function option_lines(opts, out)
  local keys = {}
  for key, value in pairs(opts or {}) do
    if type(value) ~= "table" and type(value) ~= "function" then keys[#keys + 1] = key end
  end
  table.sort(keys)
  for _, key in ipairs(keys) do out[#out + 1] = ("option %s=%s"):format(key, tostring(opts[key])) end
end

--- The result line's text for the game as it stands: "33-31 black".
-- @tparam boardscript.game.Game g the game
-- @treturn string
function record.result(g)
  local first, second = g:score()
  local outcome = g:finished() and tostring(g:winner()) or "unfinished"
  return ("%s-%s %s"):format(tostring(first), tostring(second), outcome)
end

--- The text of a record of `g`. info: { rules = name or path (default
-- g.source or the rule set's name), edition =, seed =, players = { [side]
-- = spec } }.
-- @tparam boardscript.game.Game g the game
-- @tparam[opt] table info { rules =, edition =, seed =, players = }
-- @treturn string the record, lines ending in newlines
function record.text(g, info)
  info = info or {}
  local out = { record.HEADER }
  if info.edition then out[#out + 1] = "edition " .. info.edition end
  out[#out + 1] = "rules " .. tostring(info.rules or g.source or g.rules.name)
  option_lines(g.opts, out)
  if info.seed then out[#out + 1] = ("seed %d"):format(info.seed) end
  for _, side in ipairs(g.rules.sides) do
    local spec = info.players and info.players[side]
    if spec then out[#out + 1] = ("player %s %s"):format(tostring(side), spec) end
  end
  for _, entry in ipairs(g.log) do
    out[#out + 1] = entry.pass and "pass" or ("move " .. (entry.text or "?"))
  end
  out[#out + 1] = "result " .. record.result(g)
  return table.concat(out, "\n") .. "\n"
end

--- Writes the record of `g` to an open file (see record.text for info).
-- @tparam file file an open file
-- @tparam boardscript.game.Game g the game
-- @tparam[opt] table info as for record.text
function record.write(file, g, info)
  require("boardscript.output").write(file, "the record", record.text(g, info))
end

--- Parses a record's text: { rules =, edition =, options = { key = text },
-- option_order = {...}, seed =, players = { [side text] = spec }, moves =
-- { { text =, line = } | { pass = true, line = } }, result = { text =,
-- line = } }. A malformed line is a user error naming `where` and the line.
-- @tparam string text the record's text
-- @tparam[opt="record"] string where how errors name it (the file)
-- @treturn table the parsed record
function record.parse(text, where)
  where = where or "record"
  local rec = { options = {}, option_order = {}, players = {}, moves = {} }
  local number = 0
  local function bad(message) errors.fail(("%s:%d: %s"):format(where, number, message)) end
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    number = number + 1
    local key, rest = word_and_rest(line)
    if number == 1 then
      if line ~= record.HEADER then
        bad("not a boardscript record (the first line must be '" .. record.HEADER .. "')")
      end
    elseif key == nil or key:sub(1, 1) == "#" then -- luacheck: ignore 542
    elseif key == "rules" or key == "edition" then
      if rest == "" then bad(key .. " needs a value") end
      rec[key] = rest
    elseif key == "option" then
      local name, value = rest:match("^([%w_]+)=(.*)$")
      if not name then bad("option must be written key=value") end
      rec.options[name] = value
      rec.option_order[#rec.option_order + 1] = name
    elseif key == "seed" then
      rec.seed = rest:match("^[+-]?%d+$") and math.tointeger(tonumber(rest))
      if not rec.seed then bad("seed must be an integer") end
    elseif key == "player" then
      local side, spec = rest:match("^(%S+)%s+(.+)$")
      if not side then bad("player must be written: player SIDE SPEC") end
      rec.players[side] = spec
    elseif key == "move" then
      if rest == "" then bad("move needs a value") end
      rec.moves[#rec.moves + 1] = { text = rest, line = number }
    elseif key == "pass" then
      rec.moves[#rec.moves + 1] = { pass = true, line = number }
    elseif key == "result" then
      rec.result = { text = rest, line = number }
    else
      bad(("unknown line '%s'"):format(key))
    end
  end
  if number == 0 or not rec.rules then
    number = math.max(number, 1)
    if not rec.rules then bad("no 'rules' line") end
  end
  return rec
end

--- The most bytes a record file may hold (docs/decisions.md, "Bounded
-- inputs"): the longest game of any rule set is far shorter.
record.MAX_BYTES = 4 << 20

--- The text of a record file, read in pieces: a directory, an unreadable
-- file or one over record.MAX_BYTES is a user error naming it.
-- @tparam string path the file
-- @treturn string its text
function record.read(path)
  return require("boardscript.bounded").read_all(path, record.MAX_BYTES)
end

--- Reads and parses a record file.
-- @tparam string path the file
-- @treturn table the parsed record (see record.parse)
function record.load(path)
  return record.parse(record.read(path), path)
end

--- The rule set a record names: a built-in name or a path, tried as
-- written and then next to the record file.
-- @tparam table rec a parsed record
-- @tparam[opt] string path its file
-- @treturn string a built-in name or a path
function record.rules(rec, path)
  local name = rec.rules
  if not rules_mod.BUILTIN[name] and name:match("%.lua$") and name:sub(1, 1) ~= "/" then
    local f = io.open(name)
    if f then
      f:close()
    else
      local dir = path and path:match("^(.*)/[^/]*$")
      if dir then name = dir .. "/" .. name end
    end
  end
  return name
end

--- Sets up the game a record starts from: its rule set, options and seed.
-- @tparam table rec a parsed record
-- @tparam[opt] string path its file, for relative rule set paths
-- @treturn boardscript.game.Game
function record.start(rec, path)
  local source = record.rules(rec, path)
  local rules = rules_mod.load(source)
  local opts = {}
  for _, key in ipairs(rec.option_order) do
    opts[key] = rules_mod.parse_option(rules, key, rec.options[key])
  end
  local g = game.new(rules, opts, rec.seed and core.rng(rec.seed) or nil)
  g.source = rec.rules
  return g
end

--- Plays record entry `entry` (a move or pass) on `g`: true, or nil and
-- why it cannot be played.
-- @tparam boardscript.game.Game g the game
-- @tparam table entry an entry of `rec.moves`
-- @treturn ?boolean true when it was played
-- @treturn ?string why not
function record.apply(g, entry)
  if entry.pass then
    local ok, why = g:pass()
    if not ok then return nil, "pass refused" .. (why and (": " .. why) or "") end
    return true
  end
  local move = g:parse_move(entry.text)
  if move == nil then return nil, ("'%s' is not a move in this rule set's notation"):format(entry.text) end
  local ok, why = g:play(move)
  if not ok then return nil, ("%s is illegal%s"):format(entry.text, why and (": " .. why) or "") end
  return true
end

--- The game a parsed record starts from (record.start), a problem with its
-- rule set or options being a user error that names `path`.
-- @tparam table rec a parsed record
-- @tparam string path its file
-- @treturn boardscript.game.Game
function record.open_game(rec, path)
  local ok, g = pcall(record.start, rec, path)
  if ok then return g end
  if errors.is_user(g) then errors.fail(("%s: %s"):format(path, g.message), g.status) end
  error(g, 0)
end

--- Plays `entries` (a parsed record's moves) on g in order, calling
-- each(k, entry, side) after entry k is played (side: the name of the side
-- that played it). Returns true, or nil, k, entry and why for the first
-- entry that cannot be played: one after the end of the game, or one the
-- game refuses (a failing rule set named with `where`:LINE: move K).
-- replay and render both replay records with it.
-- @tparam boardscript.game.Game g the game to play them on
-- @tparam table entries the record's moves (`rec.moves`)
-- @tparam string where the file, for messages
-- @tparam[opt] function each called after each entry with (k, entry, side)
-- @treturn ?boolean true when every entry was played
-- @treturn ?integer the entry that was not
-- @treturn ?table that entry
-- @treturn ?string why
function record.replay(g, entries, where, each)
  for k, entry in ipairs(entries) do
    if g:finished() then
      return nil, k, entry, ("%s after the end of the game (result %s)"):format(
        entry.pass and "pass" or entry.text, record.result(g))
    end
    local side = g:side_name()
    local ok, why = errors.guard(("%s:%d: move %d"):format(where, entry.line or 0, k), record.apply, g, entry)
    if not ok then return nil, k, entry, why end
    if each then each(k, entry, side) end
  end
  return true
end

return record
