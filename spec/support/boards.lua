--- Test helpers: boards from pictures like the seeds' figures.
local core = require "boardscript.core"

local boards = {}

local CELL = { X = "black", O = "white", ["#"] = "block", ["."] = "empty" }
local SYMBOL = { black = "X", white = "O", block = "#", empty = "." }

--- A board from rows of cells ("X", "O", "#", "."), blanks ignored.
function boards.from(rows)
  local b = core.board(#rows)
  for r, line in ipairs(rows) do
    local c = 0
    for ch in line:gmatch("%S") do
      c = c + 1
      b:set(r, c, assert(CELL[ch], "bad cell " .. ch))
    end
  end
  return b
end

--- The board as rows in the same notation.
function boards.picture(b)
  local rows = {}
  for r = 1, b:size() do
    local cells = {}
    for c = 1, b:size() do cells[c] = SYMBOL[b:get(r, c)] end
    rows[r] = table.concat(cells, " ")
  end
  return rows
end

--- "D3" -> row 3, column 4.
function boards.square(name)
  return tonumber(name:sub(2)), name:upper():byte() - 64
end

return boards
