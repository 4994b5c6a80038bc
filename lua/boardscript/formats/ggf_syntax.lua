--- GGF syntax (see boardscript.formats.ggf): the board types, reading
-- games, positions, moves and results, and writing a BO position.
local errors = require "boardscript.errors"
local trim = require("boardscript.text").trim

local syntax = {}

--- The square sizes GGF boards have (TY[4] .. TY[14]); 88 is the octagon.
syntax.SIZES = { [4] = true, [6] = true, [8] = true, [10] = true, [12] = true, [14] = true }
syntax.OCTAGON = 88
--- The caps on a GGF text (docs/decisions.md, "Bounded inputs"): its
-- bytes and its games. GGS's archives of hundreds of thousands of games
-- are to be split first.
syntax.MAX_BYTES = 16 << 20
syntax.MAX_GAMES = 5000
--- The most properties and moves one game may hold (a game of the largest
-- board, 14 x 14, has fewer than 400 moves and passes), and a whole text.
syntax.MAX_ITEMS = 1000
syntax.MAX_TOTAL_ITEMS = 400000

local SIDE_OF_TAG = { B = "black", W = "white" }
syntax.TAG_OF_SIDE = { black = "B", white = "W" }
local CELL_OF_CHAR = {
  ["*"] = "black", x = "black", X = "black",
  O = "white", o = "white", ["0"] = "white",
  ["-"] = "empty", ["."] = "empty", ["_"] = "empty",
}
syntax.CHAR_OF_CELL = { black = "*", white = "O", empty = "-" }
local FLAGS = { r = "resigned", t = "time", s = "score" }

------------------------------------------------------------------------
-- Board geometry

--- Whether (row, col) of the 10 x 10 octagon board is one of the three
-- cut cells at a corner (not a square of the board).
function syntax.octagon_corner(row, col)
  return math.min(row - 1, 10 - row) + math.min(col - 1, 10 - col) <= 1
end

-- The board size and the number of playable squares of a board type.
function syntax.geometry(octagon, size)
  if octagon then return 10, 88 end
  return size, size * size
end

-- Calls f(row, col) for every playable square, row by row.
function syntax.each_square(size, octagon, f)
  for row = 1, size do
    for col = 1, size do
      if not (octagon and syntax.octagon_corner(row, col)) then f(row, col) end
    end
  end
end

------------------------------------------------------------------------
-- Reading

-- A function from a byte offset of `text` to its line and column. It
-- scans forward from the offset asked before (the parser asks in order),
-- so it keeps no table of line starts: memory stays constant whatever
-- the number of lines.
local function locator(text)
  local at, line, line_start = 1, 1, 1 -- no newline before `at` is uncounted
  return function(pos)
    if pos < at then at, line, line_start = 1, 1, 1 end
    while true do
      local newline = text:find("\n", at, true)
      if not newline or newline >= pos then break end
      line, line_start, at = line + 1, newline + 1, newline + 1
    end
    at = math.max(at, pos)
    return line, pos - line_start + 1
  end
end

--- Reads a board type ("8", "88") followed by GGS modifiers. Returns {
-- size =, octagon =, synchro =, komi =, anti =, random = n|true|nil,
-- colour = "black"|"white"|nil }, or nil and what is wrong.
function syntax.parse_type(text)
  local synchro, digits, rest = text:match("^%s*([sS]?)(%d+)(.-)%s*$")
  if not digits then return nil, ("TY[%s]: expected a board type such as 8, 10 or 88"):format(text) end
  local number = tonumber(digits)
  local t = { synchro = synchro ~= "" }
  if number == syntax.OCTAGON then
    t.size, t.octagon = 10, true
  elseif syntax.SIZES[number] then
    t.size, t.octagon = number, false
  else
    return nil, ("board type %s: GGF boards are 4, 6, 8, 10, 12 or 14 squares wide, or 88 (the octagon)"):format(digits)
  end
  local i = 1
  while i <= #rest do
    local letter = rest:sub(i, i):lower()
    if letter == "k" then
      t.komi = true
    elseif letter == "a" then
      t.anti = true
    elseif letter == "s" then
      t.synchro = true
    elseif letter == "b" or letter == "w" then
      t.colour = letter == "b" and "black" or "white"
    elseif letter == "r" then
      local count = rest:match("^%d+", i + 1)
      t.random = count and tonumber(count) or true
      i = i + (count and #count or 0)
    else
      return nil, ("TY[%s]: unknown modifier '%s' (expected s, k, r, a, b or w)"):format(text, rest:sub(i, i))
    end
    i = i + 1
  end
  return t
end

--- Reads a BO value: { size =, octagon =, cells = { [row][col] = "black" |
-- "white" | "empty" | "block" }, player = "black"|"white" }, or nil and
-- what is wrong.
function syntax.parse_board(text)
  local type_text, squares = text:match("^%s*(%d+)%s(.*)$")
  if not type_text then return nil, "BO: expected the board type, then the squares and the side to move" end
  local t, why = syntax.parse_type(type_text)
  if not t then return nil, "BO: " .. why end
  local size, count = syntax.geometry(t.octagon, t.size)
  local chars = squares:gsub("%s", "")
  if #chars ~= count + 1 then
    return nil, ("BO: a %s board needs %d squares and the side to move, found %d characters"):format(
      type_text, count, #chars)
  end
  local cells = {}
  for row = 1, size do
    cells[row] = {}
    for col = 1, size do cells[row][col] = "block" end
  end
  local i, bad = 0, nil
  syntax.each_square(size, t.octagon, function(row, col)
    i = i + 1
    local cell = CELL_OF_CHAR[chars:sub(i, i)]
    if not cell and not bad then bad = ("BO: square %d is '%s' (expected *, O or -)"):format(i, chars:sub(i, i)) end
    cells[row][col] = cell or "empty"
  end)
  if bad then return nil, bad end
  local player = CELL_OF_CHAR[chars:sub(-1)]
  if player ~= "black" and player ~= "white" then
    return nil, ("BO: the side to move is '%s' (expected * or O)"):format(chars:sub(-1))
  end
  return { size = size, octagon = t.octagon, cells = cells, player = player }
end

-- A GGF number (eval, time): nil for "", else the number or false.
local function number_or_nil(text)
  if text == "" then return nil end
  return tonumber(text) or false
end

-- Reads a move value "f5", "F5/1.23/0.01", "PA//3": a move table or nil
-- and what is wrong. Times may be seconds or GGS clock text m:ss.
local function parse_move_value(value, side, size, octagon)
  local square, eval_text, time_text = value:match("^%s*([^/]*)/?([^/]*)/?([^/]*)%s*$")
  if not square then return nil, "expected MOVE/EVAL/TIME" end
  square = trim(square)
  local move = { side = side }
  local lower = square:lower()
  if lower == "pa" or lower == "pass" then
    move.pass = true
  else
    local letter, digits = lower:match("^(%a)(%d%d?)$")
    local row, col = tonumber(digits or ""), letter and letter:byte() - 96
    if not row or row < 1 or row > size or col > size or (octagon and syntax.octagon_corner(row, col)) then
      return nil, ("'%s' is not a square of the %s board"):format(square, octagon and "octagon" or
        ("%d x %d"):format(size, size))
    end
    move.text = lower
  end
  local eval = number_or_nil(trim(eval_text))
  if eval == false then return nil, ("eval '%s' is not a number"):format(eval_text) end
  local time_clean = trim(time_text)
  local time = number_or_nil(time_clean)
  if time == false then
    local minutes, seconds = time_clean:match("^(%d+):(%d+%.?%d*)$")
    time = minutes and tonumber(minutes) * 60 + tonumber(seconds) or false
  end
  if time == false then return nil, ("time '%s' is not a number of seconds"):format(time_text) end
  move.eval, move.time = eval, time
  return move
end

--- Reads an RE value for a board of `cells` playable squares: nil when
-- unknown (`?` or empty); else { margin = Black's discs ahead, black =,
-- white = (the disc counts that margin means on a full board: Othello
-- gives the empty squares to the winner), flag = "r"|"t"|"s"|nil, text =
-- the raw text }; or false and what is wrong.
function syntax.parse_result(text, cells)
  local trimmed = trim(text)
  if trimmed == "" or trimmed == "?" then return nil end
  local number, flag = trimmed:match("^([+-]?%d+%.?%d*)(.*)$")
  if not number then return false, ("RE[%s]: expected a result such as +12.000, -4 or 0"):format(text) end
  if flag ~= "" then
    flag = flag:match("^:(%a)$")
    if not flag or not FLAGS[flag] then
      return false, ("RE[%s]: unknown flag (expected :r, :t or :s)"):format(text)
    end
  else
    flag = nil
  end
  local margin = tonumber(number)
  local function whole(x) return math.tointeger(x) or x end
  return { margin = whole(margin), black = whole((cells + margin) / 2), white = whole((cells - margin) / 2),
           flag = flag, text = trimmed }
end

-- The standard start of a size x size board (octagon: with its corners).
local function standard_board(size, octagon)
  local cells = {}
  for row = 1, size do
    cells[row] = {}
    for col = 1, size do
      cells[row][col] = (octagon and syntax.octagon_corner(row, col)) and "block" or "empty"
    end
  end
  local h = size // 2
  cells[h][h], cells[h + 1][h + 1], cells[h][h + 1], cells[h + 1][h] = "white", "white", "black", "black"
  return { size = size, octagon = octagon, cells = cells, player = "black" }
end

--- Parses text holding one or more GGF games. Returns a list of games,
-- each { type = TY text, size =, octagon =, modifiers = (see parse_type),
-- props = { NAME = raw text } (every property but the moves), board = (see
-- parse_board; the standard start when BO is absent), moves = { { text =
-- "f5" | pass = true, eval =, time =, side =, line =, col = } }, result =
-- (see parse_result), index =, where =, line =, col = }. Malformed text
-- is a user error naming `where`, the line and column, and what is wrong.
function syntax.parse(text, where)
  where = where or "ggf"
  local locate = locator(text)
  local games = {}
  local pos = 1
  local current
  local total_items = 0
  local function fail(at, message)
    local line, col = locate(at)
    local prefix = current and ("game %d: "):format(current.index) or ""
    errors.fail(("%s:%d:%d: %s%s"):format(where, line, col, prefix, message))
  end
  while true do
    pos = text:match("^%s*()", pos)
    if pos > #text then break end
    if text:sub(pos, pos + 1) ~= "(;" then
      fail(pos, ("expected '(;' to start a GGF game, found '%s'"):format(text:sub(pos, pos + 9):match("^[^\n]*")))
    end
    if #games >= syntax.MAX_GAMES then
      errors.fail(("%s: more than %d games (split the file)"):format(where, syntax.MAX_GAMES))
    end
    local line, col = locate(pos)
    current = { index = #games + 1, where = where, line = line, col = col, props = {}, moves = {} }
    local prop_pos, items = {}, 0
    pos = pos + 2
    while true do
      pos = text:match("^[%s;]*()", pos)
      if pos > #text then fail(pos - 1, "the game has no end ';)'") end
      if text:sub(pos, pos) == ")" then
        pos = pos + 1
        break
      end
      items, total_items = items + 1, total_items + 1
      if items > syntax.MAX_ITEMS then
        fail(pos, ("more than %d properties and moves in one game"):format(syntax.MAX_ITEMS))
      end
      if total_items > syntax.MAX_TOTAL_ITEMS then
        fail(pos, ("more than %d properties and moves in the file (split the file)"):format(syntax.MAX_TOTAL_ITEMS))
      end
      local name, value_at = text:match("^(%a+)%[()", pos)
      if not name then
        fail(pos, ("expected a property NAME[value], found '%s'"):format(text:sub(pos, pos + 9):match("^[^\n]*")))
      end
      local close = text:find("]", value_at, true)
      if not close then fail(pos, ("%s[ has no closing ']'"):format(name)) end
      local value = text:sub(value_at, close - 1)
      name = name:upper()
      if name == "B" or name == "W" then
        local m_line, m_col = locate(pos)
        current.moves[#current.moves + 1] = { tag = name, value = value, at = pos, line = m_line, col = m_col }
      else
        if current.props[name] then fail(pos, ("property %s appears twice"):format(name)) end
        current.props[name], prop_pos[name] = value, pos
      end
      pos = close + 1
    end
    local props = current.props
    if props.GM and trim(props.GM):lower() ~= "othello" then
      fail(prop_pos.GM, ("GM[%s]: not an Othello game"):format(props.GM))
    end
    local board, why
    if props.BO then
      board, why = syntax.parse_board(props.BO)
      if not board then fail(prop_pos.BO, why) end
    end
    local t
    if props.TY then
      t, why = syntax.parse_type(props.TY)
      if not t then fail(prop_pos.TY, why) end
      if board and (board.size ~= t.size or board.octagon ~= t.octagon) then
        fail(prop_pos.BO, ("BO is a %s board but TY[%s] says %s"):format(
          board.octagon and "88" or board.size, props.TY, t.octagon and "88" or t.size))
      end
    else
      t = board and { size = board.size, octagon = board.octagon } or { size = 8, octagon = false }
    end
    board = board or standard_board(t.size, t.octagon)
    current.type = props.TY and trim(props.TY) or (t.octagon and "88" or tostring(t.size))
    current.size, current.octagon, current.modifiers, current.board = t.size, t.octagon, t, board
    local _, cells = syntax.geometry(t.octagon, t.size)
    if props.RE then
      local result, bad = syntax.parse_result(props.RE, cells)
      if result == false then fail(prop_pos.RE, bad) end
      current.result = result
    end
    for k, raw in ipairs(current.moves) do
      local move, bad = parse_move_value(raw.value, SIDE_OF_TAG[raw.tag], t.size, t.octagon)
      if not move then fail(raw.at, ("move %d %s[%s]: %s"):format(k, raw.tag, raw.value, bad)) end
      move.line, move.col = raw.line, raw.col
      current.moves[k] = move
    end
    games[#games + 1] = current
    current = nil
  end
  if #games == 0 then errors.fail(("%s:1:1: no GGF game in it (a game starts with '(;')"):format(where)) end
  return games
end


--- The BO text of core board `board` with `player` to move ("8 ---...--- *").
function syntax.board_text(board, player, octagon)
  local n = board:size()
  local chars = {}
  syntax.each_square(n, octagon, function(row, col)
    chars[#chars + 1] = syntax.CHAR_OF_CELL[board:get(row, col)] or "-"
  end)
  return ("%s %s %s"):format(octagon and "88" or tostring(n), table.concat(chars), syntax.CHAR_OF_CELL[player])
end

return syntax
