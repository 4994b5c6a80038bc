--- OBF, the one-line Othello position format of the FFO test suites:
-- 64 characters a1..h8 row by row (`X` black, `O` white, `-` empty), a
-- blank, the side to move (`X` or `O`), then optionally `;` and the best
-- moves with their exact scores (`G8:+18; H1:+12;`).
local core = require "boardscript.core"
local errors = require "boardscript.errors"

local obf = {}

--- Parses one OBF line: { board = core board, player = "black"|"white",
-- best = { { move = "G8", score = 18 }, ... } }, or nil and why not.
function obf.parse(line)
  local cells, side, rest = line:match("^%s*([XO%-]+)%s+([XO])%s*(.*)$")
  if not cells or #cells ~= 64 then return nil, "expected 64 cells of X, O or -, then X or O" end
  local board = core.board(8)
  for i = 1, 64 do
    local ch = cells:sub(i, i)
    if ch ~= "-" then board:set((i - 1) // 8 + 1, (i - 1) % 8 + 1, ch == "X" and "black" or "white") end
  end
  local best = {}
  for move, score in rest:gmatch("(%a%d)%s*:%s*([+-]?%d+)") do
    local value = math.tointeger(tonumber(score))
    if not value or value < -64 or value > 64 then
      return nil, ("the score of %s must be a margin from -64 to 64 (got %s)"):format(move:upper(),
        #score > 12 and score:sub(1, 9) .. "..." or score)
    end
    best[#best + 1] = { move = move:upper(), score = value }
  end
  return { board = board, player = side == "X" and "black" or "white", best = best }
end

--- The most bytes an OBF file may hold (docs/decisions.md, "Bounded
-- inputs"): some 60000 positions; the FFO suites have tens.
obf.MAX_BYTES = 4 << 20

--- The positions of an OBF file (blank lines and `%` or `#` comments
-- skipped), each with its line number; a malformed line is a user error,
-- so is a file over obf.MAX_BYTES or a line over 64 KiB (read in pieces).
function obf.load(path)
  local positions = {}
  for line, number in require("boardscript.bounded").lines(path, { limit = obf.MAX_BYTES }) do
    if line:match("%S") and not line:match("^%s*[%%#]") then
      local pos, why = obf.parse(line)
      if not pos then errors.fail(("%s:%d: not an OBF position: %s"):format(path, number, why)) end
      pos.line = number
      positions[#positions + 1] = pos
    end
  end
  return positions
end

--- "G8" for move {row, col}; "PA" (pass) for "pass".
function obf.move_text(move)
  if move == "pass" then return "PA" end
  return string.char(64 + move[2]) .. move[1]
end

return obf
