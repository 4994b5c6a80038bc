--- Notation and board text of the reference interpreter (vocab29 section
-- 1.5; the board text is defined in docs/decisions.md, "Described games:
-- board text").
local board = require "boardscript.describe.reference.board"

local cell_name, row_col, offset = board.cell_name, board.row_col, board.offset

local text = {}

-- The landings of a hop move (1-based cells), or nil when a hop leaves
-- the board or does not end on the target.
local function hop_landings(D, o, t, hops, extra)
  if hops < 1 or hops > 11 or extra >= (1 << (3 * hops)) then return nil end
  local cur, landings = o, {}
  for j = 0, hops - 1 do
    local d = board.COMPASS[((extra >> (3 * j)) & 7) + 1]
    local over = offset(D, cur, d)
    cur = over and offset(D, over, d)
    if not cur then return nil end
    landings[#landings + 1] = cur
  end
  if cur ~= t then return nil end
  return landings
end

--- The parts of a well-formed move of game D: a table { swap = true } or
-- { rule =, origin =, target =, landings =, arrow = } (1-based cells;
-- origin nil for a placement), or nil.
-- @tparam table D the compiled game
-- @param m a value that may be a move
-- @treturn ?table
function text.parts(D, m)
  if math.type(m) ~= "integer" or m < 0 then return nil end
  local o, t, ri, hops, extra = board.decode(m)
  if ri == board.SWAP_RULE then
    if D.swap and o == board.NONE and t == board.NONE and hops == 0 and extra == 0 then return { swap = true } end
    return nil
  end
  local rule = D.rules[ri + 1]
  if not rule or t >= D.n then return nil end
  local parts = { rule = rule, target = t + 1 }
  if rule.op == "place" then
    if o ~= board.NONE or hops ~= 0 or extra ~= 0 then return nil end
    return parts
  end
  if o >= D.n then return nil end
  parts.origin = o + 1
  if rule.op == "hop" then
    parts.landings = hop_landings(D, o + 1, t + 1, hops, extra)
    return parts.landings and parts
  end
  if hops ~= 0 then return nil end
  if rule.arrow then
    if extra >= D.n then return nil end
    parts.arrow = extra + 1
  elseif extra ~= 0 then
    return nil
  end
  return parts
end

--- The text of move m ("d3", "a2-a3", "c3-e5-c7", "d1-d7/g7", "swap"),
-- or nil when m is not a well-formed move of game D.
-- @tparam table D the compiled game
-- @param m the move
-- @treturn ?string
function text.move_text(D, m)
  local p = text.parts(D, m)
  if not p then return nil end
  if p.swap then return "swap" end
  if not p.origin then return cell_name(D, p.target) end
  if p.landings then
    local names = { cell_name(D, p.origin) }
    for _, i in ipairs(p.landings) do names[#names + 1] = cell_name(D, i) end
    return table.concat(names, "-")
  end
  local s = cell_name(D, p.origin) .. "-" .. cell_name(D, p.target)
  if p.arrow then s = s .. "/" .. cell_name(D, p.arrow) end
  return s
end

--- The cells of move m as { r, c } pairs: origin first, then the
-- intermediate hop landings, then the arrow cell, the landing cell last.
-- A swap gives the cell of the new piece. nil when m is not well formed.
-- @tparam table D the compiled game
-- @tparam table S the state (for swap)
-- @param m the move
-- @treturn ?table
function text.move_cells(D, S, m)
  local p = text.parts(D, m)
  if not p then return nil end
  local list = {}
  local function add(i)
    local r, c = row_col(D, i)
    list[#list + 1] = { r, c }
  end
  if p.swap then
    for i = 1, D.n do
      if board.side_of(S.cells[i]) == D.first then
        local r, c = row_col(D, i)
        list[1] = { c, r }
        break
      end
    end
    return list
  end
  if p.origin then add(p.origin) end
  for j = 1, #(p.landings or {}) - 1 do add(p.landings[j]) end
  if p.arrow then add(p.arrow) end
  add(p.target)
  return list
end

--- The character of a cell code: '.' empty, '#' block, the first kind
-- 'x' (black) and 'o' (white), other kinds the first letter of the kind's
-- name, uppercase for black and lowercase for white.
-- @tparam table D the compiled game
-- @tparam integer code
-- @treturn string
function text.cell_char(D, code)
  if code == 0 then return "." end
  if code < 0 then return "#" end
  local kind, side = board.kind_of(code), board.side_of(code)
  if kind == 1 then return side == 1 and "x" or "o" end
  local letter = D.kinds[kind]:sub(1, 1)
  return side == 1 and letter:upper() or letter:lower()
end

--- The board text: a header of column letters, then one line per row,
-- its number right-aligned in 2 characters, each cell a space and its
-- character; every line ends with "\n".
-- @tparam table D the compiled game
-- @tparam table cells the position's cells
-- @treturn string
function text.board_text(D, cells)
  local lines = { "  " }
  for c = 1, D.cols do lines[1] = lines[1] .. " " .. string.char(96 + c) end
  for r = 1, D.rows do
    local row = { ("%2d"):format(r) }
    for c = 1, D.cols do row[#row + 1] = text.cell_char(D, cells[(r - 1) * D.cols + c]) end
    lines[#lines + 1] = table.concat(row, " ")
  end
  return table.concat(lines, "\n") .. "\n"
end

return text
