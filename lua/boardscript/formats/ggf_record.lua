--- Converting between GGF games and boardscript records, for `boardscript
-- convert`: pure functions from text to text (the command does the I/O).
--
-- A GGF game becomes the record of the same game: `rules reversi` with its
-- `size` and `centre`, or the example rule sets for TY[88] (octagon.lua
-- with `cut=1`) and anti games (anti.lua); PB and PW become the player
-- lines. A record becomes GGF when ggf.supports its game; the rest stay
-- records. What neither side can hold is in docs/decisions.md ("convert").
local errors = require "boardscript.errors"
local ggf = require "boardscript.formats.ggf"
local record = require "boardscript.record"
local trim = require("boardscript.text").trim

local M = {}

--- Where records converted from GGF find the example rule sets they name
-- (as from the top of the repository, like the guide's commands).
M.EXAMPLES = "lua/examples"

--- "record" when `text` starts (after blank lines) with a record's header,
-- "ggf" when it starts with "(;", else nil.
function M.detect(text)
  local first = text:match("^%s*([^\r\n]*)")
  if first == record.HEADER then return "record" end
  if first:sub(1, 2) == "(;" then return "ggf" end
  return nil
end

-- Re-raises a user error from record.parse of a chunk starting at line
-- `first` of `where`, with the line counted in the whole file.
local function reraise(err, where, first)
  if not errors.is_user(err) then error(err, 0) end
  local prefix = where .. ":"
  local line, rest = err.message:sub(#prefix + 1):match("^(%d+):(.*)$")
  if err.message:sub(1, #prefix) == prefix and line then
    errors.fail(("%s:%d:%s"):format(where, tonumber(line) + first - 1, rest), err.status)
  end
  error(err, 0)
end

--- The records in `text` (one or more, each starting with the header
-- line): a list of { rec = record.parse result (its lines counted in the
-- whole text), text = its own text, line = its first line }. A malformed
-- record is a user error naming `where` and the line.
function M.split_records(text, where)
  local chunks, number = {}, 0
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    number = number + 1
    if line == record.HEADER then
      -- as many records as GGF games (docs/decisions.md, "Bounded inputs")
      if #chunks >= ggf.MAX_GAMES then
        errors.fail(("%s: more than %d games (split the file)"):format(where, ggf.MAX_GAMES))
      end
      chunks[#chunks + 1] = { line = number, lines = {} }
    elseif #chunks == 0 and line:match("%S") and not line:match("^%s*#") then
      errors.fail(("%s:%d: not a boardscript record (the first line must be '%s')"):format(
        where, number, record.HEADER))
    end
    if #chunks > 0 then table.insert(chunks[#chunks].lines, line) end
  end
  if #chunks == 0 then errors.fail(("%s:1: not a boardscript record (no '%s' line)"):format(where, record.HEADER)) end
  for _, chunk in ipairs(chunks) do
    while #chunk.lines > 1 and not chunk.lines[#chunk.lines]:match("%S") do chunk.lines[#chunk.lines] = nil end
    chunk.text = table.concat(chunk.lines, "\n") .. "\n"
    chunk.lines = nil
    local ok, rec = pcall(record.parse, chunk.text, where)
    if not ok then reraise(rec, where, chunk.line) end
    for _, entry in ipairs(rec.moves) do entry.line = entry.line + chunk.line - 1 end
    if rec.result then rec.result.line = rec.result.line + chunk.line - 1 end
    chunk.rec = rec
  end
  return chunks
end

-- A replay problem: status 1, as `boardscript replay`.
local function wrong(where, line, message)
  errors.fail(("%s:%d: %s"):format(where, line, message), errors.EXIT_FAILURE)
end

--- Replays a record (a chunk of M.split_records) read from `where`: the
-- game, or a user error naming the line that does not replay (status 1)
-- or a rule set or option at fault (status 2). A result line that differs
-- from the replayed game's is a problem too.
function M.replay(chunk, where)
  local rec = chunk.rec
  local ok, g = pcall(record.start, rec, where ~= "-" and where or nil)
  if not ok then
    if errors.is_user(g) then errors.fail(("%s:%d: %s"):format(where, chunk.line, g.message), g.status) end
    error(g, 0)
  end
  for k, entry in ipairs(rec.moves) do
    local what = entry.pass and "pass" or entry.text
    if g:finished() then
      wrong(where, entry.line, ("move %d: %s after the end of the game (result %s)"):format(k, what, record.result(g)))
    end
    local applied, why = errors.guard(("%s:%d: move %d"):format(where, entry.line, k), record.apply, g, entry)
    if not applied then wrong(where, entry.line, ("move %d: %s"):format(k, why)) end
  end
  if rec.result and rec.result.text ~= record.result(g) then
    wrong(where, rec.result.line, ("result '%s', but the replayed game ends '%s'"):format(
      rec.result.text, record.result(g)))
  end
  return g
end

--- A record chunk as GGF: { format = "ggf", text = } when ggf.supports its
-- game, else { format = "record", text = the record as it is, why = }.
function M.record_to_ggf(chunk, where)
  local g = M.replay(chunk, where)
  local ok, why = ggf.supports(g)
  if not ok then return { format = "record", text = chunk.text, why = why } end
  return { format = "ggf", text = ggf.text(g, { players = chunk.rec.players }) }
end

--- A record chunk as a record: checked by replaying it, then as it is.
function M.record_to_record(chunk, where)
  M.replay(chunk, where)
  return { format = "record", text = chunk.text }
end

-- PB/PW of a parsed game as record player specs (nil when empty or "?",
-- Edax's unknown player).
local function players_of(parsed)
  local players = {}
  for side, name in pairs { black = "PB", white = "PW" } do
    local spec = trim(parsed.props[name] or "")
    if spec ~= "" and spec ~= "?" and not spec:find("\n", 1, true) then players[side] = spec end
  end
  return players
end

--- A parsed GGF game (see ggf.parse) as the text of a record. opts: {
-- examples = the directory the record names example rule sets in (default
-- M.EXAMPLES) }. A game starting from a position no rule set sets up is a
-- user error (status 1): records hold a rule set, options and moves only.
function M.ggf_to_record(parsed, opts)
  opts = opts or {}
  local g = ggf.game(parsed)
  if g.ggf.custom_start then
    errors.fail(("%s:%d:%d: game %d: starts from a position of its own (BO[%s]), which no rule set sets up, so a "
      .. "record cannot hold it (convert --to ggf keeps it)"):format(parsed.where or "ggf", parsed.line or 1,
      parsed.col or 1, parsed.index or 1, ggf.board_text(parsed.board)), errors.EXIT_FAILURE)
  end
  local rules = "reversi"
  if g.ggf.example then rules = (opts.examples or M.EXAMPLES) .. "/" .. g.ggf.example end
  return record.text(g, { rules = rules, players = players_of(parsed) })
end

-- The properties ggf.text writes itself.
local OWN = { GM = true, PC = true, DT = true, PB = true, PW = true, RE = true, TI = true, TY = true, BO = true }

--- A parsed GGF game written again as ggf.text writes it (moves checked,
-- passes made explicit), keeping its properties, evals and times.
function M.ggf_to_ggf(parsed)
  local g = ggf.game(parsed)
  local info = { place = parsed.props.PC, date = parsed.props.DT, clock = parsed.props.TI, type = parsed.type,
                 result = parsed.props.RE and trim(parsed.props.RE), evals = {}, times = {},
                 players = { black = parsed.props.PB, white = parsed.props.PW }, props = {} }
  if info.result == "" then info.result = nil end
  for name, text in pairs(parsed.props) do
    if not OWN[name] then info.props[name] = text end
  end
  for k, move in ipairs(parsed.moves) do
    local i = g.ggf.log_index[k]
    info.evals[i], info.times[i] = move.eval, move.time
  end
  return ggf.text(g, info)
end

return M
