--- Writing games as GGF (see boardscript.formats.ggf): which games GGF
-- can hold, and their text.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local reversi = require "boardscript.rules.reversi"
local rules_mod = require "boardscript.rules"
local syntax = require "boardscript.formats.ggf_syntax"

local write = {}

local opponent = require("boardscript.families.board").opponent
local TAG_OF_SIDE = syntax.TAG_OF_SIDE

------------------------------------------------------------------------
-- Writing

-- Which way the rule set's winner counts discs: "standard" (more discs
-- win), "anti" (fewer win), or nil (something else), probed on copies of
-- `state` with one side ahead.
local function winner_kind(rules, state)
  local function probe(ahead)
    local s = rules:clone(state)
    local b = s.board
    local n = b:size()
    local placed = 0
    for row = 1, n do
      for col = 1, n do
        if b:get(row, col) ~= "block" then
          b:set(row, col, placed < 3 and ahead or (placed < 4 and opponent(ahead) or "empty"))
          placed = placed + 1
        end
      end
    end
    local ok, who = pcall(rules.winner, rules, s)
    return ok and who or nil
  end
  local black_ahead, white_ahead = probe("black"), probe("white")
  if black_ahead == "black" and white_ahead == "white" then return "standard" end
  if black_ahead == "white" and white_ahead == "black" then return "anti" end
  return nil
end

-- Whether two core boards hold the same cells.
local function same_board(a, b)
  local n = a:size()
  for row = 1, n do
    for col = 1, n do
      if a:get(row, col) ~= b:get(row, col) then return false end
    end
  end
  return true
end

-- Everything writing `g` as GGF needs, or nil and why it cannot be: {
-- size =, octagon =, anti =, start = core board, player =, entries = { {
-- index = log index, side =, text = | pass = true } }, finished =, board =
-- the final core board }. The game's moves are replayed under standard
-- Othello rules from its start; passes after the end (othello-strict's
-- closing passes) are left out.
local function analyse(g)
  local r = g.rules
  local name = tostring(r.name or g.source or "?")
  if (r.family or "board") ~= "board" or r.sides[1] ~= "black" or r.sides[2] ~= "white" then
    return nil, ("rules '%s' are not a game of black and white discs on a square board"):format(name)
  end
  local start = g:clone()
  for _ = 1, #g.log do
    if not start:undo() then
      return nil, ("rules '%s': its moves cannot be taken back to find its start"):format(name)
    end
  end
  local board = start:board()
  local n = board:size()
  local octagon = false
  if board:count("block") > 0 then
    octagon = n == 10 and board:count("block") == 12
    for row = 1, n do
      for col = 1, n do
        if (board:get(row, col) == "block") ~= (n == 10 and syntax.octagon_corner(row, col)) then octagon = false end
      end
    end
    if not octagon then
      local cells = board:cells("block")
      return nil, ("rules '%s': the board has block cells (%s%s) that GGF cannot hold (only the 88-square "
        .. "octagon's corners)"):format(name, table.concat({ r:move_text(cells[1], start.state) }),
        #cells > 1 and ", ..." or "")
    end
  elseif not syntax.SIZES[n] then
    return nil, ("rules '%s': a %d x %d board; GGF boards are 4 to 14 squares wide (even) or the 88-square "
      .. "octagon"):format(name, n, n)
  end
  local shape = rules_mod.core_game(r, start.state)
  if shape then
    local legal, flip = core.directions(shape.legal or "all"), core.directions(shape.flip or "all")
    if (shape.second_after or 0) > 0 then
      return nil, ("rules '%s': a turn may place a second piece, which Othello (and GGF) cannot"):format(name)
    elseif not flip or #flip ~= 8 or not legal or (#legal ~= 8 and #legal ~= 0) then
      return nil, ("rules '%s': moves trap or flip along %s, not all eight directions as in Othello"):format(
        name, tostring(#(legal or {}) ~= 8 and #(legal or {}) ~= 0 and shape.legal or shape.flip))
    end
  end
  local kind = winner_kind(r, start.state)
  if not kind then
    return nil, ("rules '%s': its winner is not decided by the disc count"):format(name)
  end
  local info = { size = n, octagon = octagon, anti = kind == "anti", start = board:clone(),
                 player = start:to_move(), entries = {} }
  local referee = { board = board:clone(), player = info.player, passes = 0, history = {} }
  local own = start
  for i, entry in ipairs(g.log) do
    local side = own:to_move()
    local what = entry.pass and "a pass" or entry.text
    if reversi:finished(referee) then
      if not entry.pass then
        return nil, ("rules '%s': move %d (%s) comes after the end of the game under Othello rules"):format(
          name, i, what)
      end
    else
      if side ~= referee.player then
        return nil, ("rules '%s': move %d (%s) is not an Othello move: %s is to move under Othello rules"):format(
          name, i, what, r:side_name(referee.player))
      end
      if entry.pass then
        if not reversi:pass(referee) then
          return nil, ("rules '%s': move %d is a pass while %s has a move, which Othello does not allow"):format(
            name, i, r:side_name(side))
        end
        info.entries[#info.entries + 1] = { index = i, side = side, pass = true }
      else
        local ok, why = reversi:play(referee, entry.move)
        if not ok then
          return nil, ("rules '%s': move %d (%s) is not an Othello move (%s)"):format(name, i, what, why)
        end
        info.entries[#info.entries + 1] = { index = i, side = side, text = entry.text }
      end
    end
    if entry.pass then own:pass() else own:play(entry.move) end
    if not same_board(own:board(), referee.board) then
      return nil, ("rules '%s': after move %d (%s) the board is not the one Othello's rules make"):format(
        name, i, what)
    end
  end
  info.finished, info.board = reversi:finished(referee), referee.board
  return info
end

--- Whether `g` can be written as GGF: true, or false and why not (not a
-- game of discs, a board size or blocks GGF has no type for, a winner not
-- by discs, or a move, pass or turn order Othello's rules do not allow).
function write.supports(g)
  local info, why = analyse(g)
  if not info then return false, why end
  return true
end

-- The shortest text that reads back as the number x.
local function number_text(x)
  if math.type(x) == "integer" or (x == math.floor(x) and math.abs(x) < 2 ^ 53) then
    return ("%d"):format(math.tointeger(x) or math.floor(x))
  end
  for digits = 1, 17 do
    local text = ("%." .. digits .. "g"):format(x)
    if tonumber(text) == x then return text end
  end
  return tostring(x)
end

-- A property value checked for what GGF cannot hold (no escapes exist).
local function value(name, text)
  text = tostring(text)
  if text:find("]", 1, true) then
    errors.fail(("GGF %s[...]: '%s' holds a ']', which GGF cannot write"):format(name, text))
  end
  return text
end

-- The RE text of a finished game on `board`: Black's discs ahead, the
-- empty squares to the winner ("+12.000", "+0.000"); anti: discs only.
local function result_text(board, anti)
  local black, white, empty = board:count("black"), board:count("white"), board:count("empty")
  local margin = black - white
  if not anti then
    if margin > 0 then margin = margin + empty elseif margin < 0 then margin = margin - empty end
  end
  return ("%+d.000"):format(margin)
end

--- The GGF text of game `g` (one line, ending in a newline). info: {
-- players = { black =, white = } (PB, PW), evals = { [log index] = number
-- }, times = { [log index] = seconds }, date = text or os.time() number
-- (DT, written as GGS does, in UTC), place = text (PC, default
-- "boardscript"), clock = TI text, type = TY text (default the board type,
-- with `a` for an anti rule set), result = RE text (default the finished
-- game's result, else "?"), props = { NAME = text } (more properties) }.
-- A game GGF cannot hold (see write.supports) is a user error saying why.
function write.text(g, info)
  info = info or {}
  local a, why = analyse(g)
  if not a then errors.fail("cannot write the game as GGF: " .. why) end
  local out = { "(;GM[Othello]" }
  local function prop(name, text) out[#out + 1] = ("%s[%s]"):format(name, value(name, text)) end
  prop("PC", info.place or "boardscript")
  if info.date then
    prop("DT", math.type(info.date) and os.date("!%Y.%m.%d_%H:%M:%S.UTC", info.date) or info.date)
  end
  local players = info.players or {}
  prop("PB", players.black or "")
  prop("PW", players.white or "")
  local extra = {}
  for name in pairs(info.props or {}) do
    if not name:match("^%u+$") or name == "B" or name == "W" then
      errors.fail(("GGF property '%s': not a property name GGF can hold"):format(name))
    end
    extra[#extra + 1] = name
  end
  table.sort(extra)
  for _, name in ipairs(extra) do prop(name, info.props[name]) end
  local _, cells = syntax.geometry(a.octagon, a.size)
  local re = info.result or (a.finished and result_text(a.board, a.anti) or "?")
  if syntax.parse_result(re, cells) == false then errors.fail(("GGF RE[%s]: not a GGF result"):format(re)) end
  prop("RE", re)
  if info.clock then prop("TI", info.clock) end
  local type_text = info.type or ((a.octagon and "88" or tostring(a.size)) .. (a.anti and "a" or ""))
  local t, bad = syntax.parse_type(type_text)
  if not t then errors.fail(bad) end
  if t.size ~= a.size or t.octagon ~= a.octagon then
    errors.fail(("GGF TY[%s] does not describe the game's board"):format(type_text))
  end
  prop("TY", type_text)
  prop("BO", syntax.board_text(a.start, a.player, a.octagon))
  local evals, times = info.evals or {}, info.times or {}
  for _, entry in ipairs(a.entries) do
    local text = entry.pass and "PA" or entry.text:upper()
    local eval, time = evals[entry.index], times[entry.index]
    if time then
      text = ("%s/%s/%s"):format(text, eval and number_text(eval) or "", number_text(time))
    elseif eval then
      text = ("%s/%s"):format(text, number_text(eval))
    end
    out[#out + 1] = ("%s[%s]"):format(TAG_OF_SIDE[entry.side], text)
  end
  out[#out + 1] = ";)\n"
  return table.concat(out)
end


return write
