--- Playthroughs for `boardscript test` (the format: docs/guide.md, "The
-- playthrough format"): a header naming a rule set, options, a seed and a
-- move cap, then the game played from the start with moves drawn by the
-- engine's seeded generator, position by position; the body is
-- regenerated from the header and compared.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local game = require "boardscript.game"
local rules_mod = require "boardscript.rules"
local util = require "boardscript.testing.util"
local word_and_rest = require("boardscript.text").word_and_rest
local read_file, write_file, split_path, diff_texts = util.read_file, util.write_file, util.split_path,
  util.diff_texts

local playthrough = {}

--- The first line of every playthrough.
playthrough.HEADER = "boardscript playthrough 1"

--- Splits a playthrough's text into its header and body: the header runs to
-- the first blank line, the body is everything after it. Returns the
-- header's settings { rules =, options = { { key, text } ... }, seed =,
-- moves = }, the header's text (with its final newline) and the body; or
-- nil and what is wrong ("LINE: message").
function playthrough.parse(text)
  local header_lines, body_start = {}, nil
  local pos, number = 1, 0
  while pos <= #text do
    local stop = text:find("\n", pos, true) or #text + 1
    local line = text:sub(pos, stop - 1):gsub("\r$", "")
    number = number + 1
    pos = stop + 1
    if line:match("^%s*$") then
      body_start = pos
      break
    end
    header_lines[#header_lines + 1] = { line = line, number = number }
  end
  local header = { options = {} }
  if #header_lines == 0 or header_lines[1].line ~= playthrough.HEADER then
    return nil, ("1: not a playthrough (the first line must be '%s')"):format(playthrough.HEADER)
  end
  for i = 2, #header_lines do
    local line, n = header_lines[i].line, header_lines[i].number
    local key, rest = word_and_rest(line)
    if key:sub(1, 1) == "#" then -- luacheck: ignore 542
    elseif key == "rules" and rest ~= "" then
      header.rules = rest
    elseif key == "option" then
      local name, value = rest:match("^([%w_]+)=(.*)$")
      if not name then return nil, ("%d: option must be written key=value"):format(n) end
      header.options[#header.options + 1] = { name, value }
    elseif key == "seed" or key == "moves" then
      local value = rest:match("^[+-]?%d+$") and math.tointeger(tonumber(rest))
      if not value or key == "moves" and value < 0 then
        return nil, ("%d: %s must be %s integer"):format(n, key, key == "moves" and "a non-negative" or "an")
      end
      header[key] = value
    else
      return nil, ("%d: unknown header line '%s' (rules, option, seed, moves or # comment)"):format(n, line)
    end
  end
  if not header.rules then return nil, "no 'rules' line in the header" end
  if not header.seed then return nil, "no 'seed' line in the header" end
  local header_text = {}
  for i, h in ipairs(header_lines) do header_text[i] = h.line end
  return header, table.concat(header_text, "\n") .. "\n", body_start and text:sub(body_start) or nil
end

--- The game a playthrough header describes: its rule set (a built-in name,
-- or a path relative to `dir`), options and generator core.rng(seed).
function playthrough.game(header, dir)
  local source = header.rules
  if not rules_mod.BUILTIN[source] and source:sub(1, 1) ~= "/" and dir and dir ~= "." then
    source = dir .. "/" .. source
  end
  local rules = rules_mod.load(source)
  local opts = {}
  for _, option in ipairs(header.options) do
    opts[option[1]] = rules_mod.parse_option(rules, option[1], option[2])
  end
  local g = game.new(rules, opts, core.rng(header.seed))
  g.source = header.rules
  return g
end

-- The board text, each line indented by two spaces, trailing blanks dropped.
local function board_lines(g, out)
  for line in g:text():gsub("\n$", ""):gmatch("([^\n]*)\n?") do
    out[#out + 1] = ("  " .. line):gsub("%s+$", "")
  end
end

--- The body of a playthrough: the game of `header` (see
-- playthrough.parse) played from the start. At each position the
-- choices are g:moves() in the rule set's order, then "pass" when
-- g:can_pass(); the move taken is choices[g.rng:random(#choices)], drawn
-- from the game's generator (the one setup drew from). Stops when the game
-- is finished or after header.moves moves.
function playthrough.body(header, dir)
  local g = playthrough.game(header, dir)
  local out = {}
  local ply = 0
  while true do
    if ply > 0 then out[#out + 1] = "" end
    if g:finished() then
      out[#out + 1] = ("state %d finished"):format(ply)
      board_lines(g, out)
      break
    end
    out[#out + 1] = ("state %d %s to move"):format(ply, g:side_name())
    board_lines(g, out)
    local choices, texts = {}, {}
    for _, move in ipairs(g:moves()) do
      local text = g:move_text(move)
      if not text then error(("the rules list a move they cannot name in position %d"):format(ply), 0) end
      choices[#choices + 1], texts[#texts + 1] = move, text
    end
    if g:can_pass() then choices[#choices + 1], texts[#texts + 1] = "pass", "pass" end
    out[#out + 1] = ("moves %d: %s"):format(#texts, table.concat(texts, ", "))
    if header.moves and ply >= header.moves then
      out[#out + 1] = ("stopped after %d moves"):format(ply)
      break
    end
    if #choices == 0 then
      error(("position %d: no move and no pass, but the game is not finished"):format(ply), 0)
    end
    local k = g.rng:random(#choices)
    out[#out + 1] = "play " .. texts[k]
    local ok, why
    if choices[k] == "pass" then ok, why = g:pass() else ok, why = g:play(choices[k]) end
    if not ok then
      error(("position %d: %s was listed but refused%s"):format(ply, texts[k], why and (": " .. why) or ""), 0)
    end
    ply = ply + 1
  end
  local first, second = g:score()
  out[#out + 1] = ("score %s %s"):format(tostring(first), tostring(second))
  if g:finished() then
    local winner = g:winner()
    out[#out + 1] = "winner " .. (winner == "draw" and "draw" or g:side_name(winner))
  else
    out[#out + 1] = "winner none (unfinished)"
  end
  return table.concat(out, "\n") .. "\n"
end

local function message_of(err)
  if errors.is_user(err) then return err.message end
  return tostring(err)
end

--- Runs the playthrough at `path`: regenerates its body from its header
-- and compares the whole file (opts.update: rewrites it instead). Returns
-- { ok =, updated =, detail = }.
function playthrough.run(path, opts)
  opts = opts or {}
  local text = read_file(path)
  if not text then return { ok = false, detail = path .. ": cannot be read" } end
  local header, header_text, body = playthrough.parse(text)
  if not header then return { ok = false, detail = ("%s:%s"):format(path, header_text) } end
  local dir = split_path(path)
  local ok, generated = pcall(playthrough.body, header, dir)
  if not ok then return { ok = false, detail = message_of(generated) } end
  local expected = header_text .. "\n" .. generated
  if text == expected then return { ok = true } end
  if opts.update then
    write_file(path, expected)
    return { ok = true, updated = true }
  end
  if not body then return { ok = false, detail = "no body after the header (--update writes it)" } end
  return { ok = false, detail = diff_texts(text, expected, path, path .. " (regenerated)") }
end

return playthrough
