--- Training data files (`boardscript train --shard I/N` writes them,
-- `train --data FILES` fits them): plain text, one position a line.
--
--     boardscript-train-data 1
--     rules reversi
--     size 6
--     options size=6
--     seed 7
--     game 1 train
--     ...xo.....#.xx... -12
--     game 2 holdout
--     ...
--     end 2 games 61 positions
--
-- After the first line, `key value` header lines (rules, size, options are
-- required; others are kept as they are), then games: `game N train|holdout`
-- and its positions, each the cells row by row from the top left (`.`
-- empty, `x` the side to move's discs, `o` the other side's, `#` a block)
-- and the final margin of the game for the side to move (in the rule set's
-- score unit, positive when it won, as the rule set's `winner` counts).
-- The `end` line counts what came before it: a file cut short has none
-- and is refused. Comment lines (`#` alone or followed by a space) and blank lines are skipped:
-- a position may start with a block, `#`. docs/guide.md, "Training an
-- evaluation".
local errors = require "boardscript.errors"

local data = {}

--- The first line of every data file.
data.MAGIC = "boardscript-train-data 1"
--- The largest |margin| a position may have: the fitter's range
-- (core.trainer's `add` takes -10000 to 10000), far above any board's cells.
data.MAX_TARGET = 10000
--- The most bytes a data file may hold (bounded reader; 8 x 8 positions
-- take about 70 bytes: some 240 million positions). The file is read a
-- line at a time, so its size costs no memory; what a fit holds grows with
-- its positions, which is what was asked for. A 40-minute shard on one
-- core of this project's machine writes 1.4 GB.
data.MAX_BYTES = 16 << 30
--- The longest line: a 26 x 26 board and its margin.
data.MAX_LINE = 1024
--- The most lines a data file may hold.
data.MAX_LINES = 250000000

--- A number as the files write it: an integer without a point, else up to
-- 10 significant digits.
function data.number_text(x)
  if math.type(x) == "integer" then return ("%d"):format(x) end
  if x == math.floor(x) and math.abs(x) < 2 ^ 53 then return ("%d"):format(math.tointeger(x)) end
  return ("%.10g"):format(x)
end

-- tostring(board) is rows of `.XOX#` and newlines; these turn it into a
-- row of cells from one side's view.
local VIEW = {
  black = { X = "x", O = "o" },
  white = { X = "o", O = "x" },
}

--- The cells of core board `board` seen by `player` ("black" or "white"):
-- n x n of them, n = board:size(), row by row; on a rows x cols board the
-- cells past its rows and columns are blocks ("#"), as the core holds them.
function data.cells(board, player)
  local text = (tostring(board):gsub("[XO]", VIEW[player]))
  local n, rows, cols = board:size(), board:rows(), board:cols()
  if rows == n and cols == n then return (text:gsub("\n", "")) end
  local out = {}
  for line in text:gmatch("[^\n]+") do out[#out + 1] = line .. ("#"):rep(n - cols) end
  for _ = rows + 1, n do out[#out + 1] = ("#"):rep(n) end
  return table.concat(out)
end

local CELL = { ["."] = "empty", x = "black", o = "white", ["#"] = "block" }

--- Sets core board `board` to `cells` (n x n of them, n = its size, as
-- data.cells writes them; x as black): board, "black". `n` is the size the
-- cells were written for.
function data.board(board, cells, n)
  local rows, cols = board:rows(), board:cols()
  local k = 0
  for r = 1, n do
    for c = 1, n do
      k = k + 1
      if r <= rows and c <= cols then board:set(r, c, CELL[cells:sub(k, k)]) end
    end
  end
  return board, "black"
end

--- The header text: info = { rules =, size = n, options = "k=v,...", and
-- any other fields (seed, eval ...) }, written in a fixed order.
function data.header(info)
  local lines = { data.MAGIC, "rules " .. info.rules, "size " .. info.size, "options " .. info.options }
  local extra = {}
  for key in pairs(info) do
    if key ~= "rules" and key ~= "size" and key ~= "options" then extra[#extra + 1] = key end
  end
  table.sort(extra)
  for _, key in ipairs(extra) do lines[#lines + 1] = key .. " " .. tostring(info[key]) end
  lines[#lines + 1] = ""
  return table.concat(lines, "\n")
end

--- A game's text: game = { game = N, holdout = bool, positions = { { cells
-- =, target = } ... } }.
function data.game(game)
  local lines = { ("game %d %s"):format(game.game, game.holdout and "holdout" or "train") }
  for _, p in ipairs(game.positions) do lines[#lines + 1] = p.cells .. " " .. data.number_text(p.target) end
  lines[#lines + 1] = ""
  return table.concat(lines, "\n")
end

--- The last line: what the file holds.
function data.ending(games, positions)
  return ("end %d games %d positions\n"):format(games, positions)
end

local Reader = {}
Reader.__index = Reader

--- A reader of the data in `next_line` (an iterator giving line, number),
-- named `where` in its messages (`FILE:LINE: ...`). Reads the header at
-- once: reader.info = { rules =, size =, options =, ... }. Several data
-- files one after the other (what `parallel ... --out -` collects) read as
-- one, when their headers name the same game; reader.part is the header of
-- the one being read (its endgame, depth, ...).
function data.reader(next_line, where)
  local self = setmetatable({ next_line = next_line, where = where, games = 0, positions = 0 }, Reader)
  local first, number = self:line()
  if first ~= data.MAGIC then
    errors.fail(("%s:%d: not a training data file of boardscript (expected '%s')"):format(where, number or 1,
      data.MAGIC))
  end
  self.info = self:header()
  self.part = self.info -- the header of the part being read
  local n = math.tointeger(tonumber(self.info.size))
  if not n or n < 1 or n > 26 then self:bad(self.size_line, "size must be a whole number from 1 to 26") end
  self.n = n
  return self
end

-- The header lines after the first line: a table of them.
function Reader:header()
  local info = {}
  while true do
    local line = self:line()
    if line == nil then self:bad(nil, "no games and no end line (the file is cut short)") end
    local key, value = line:match("^(%a[%w_]*) (.*)$")
    if key == "game" or key == "end" then
      self.pending = line
      break
    end
    if not key then self:bad(nil, "expected a header line 'key value'") end
    info[key] = value
    if key == "size" then self.size_line = self.number end
  end
  for _, key in ipairs { "rules", "size", "options" } do
    if not info[key] then self:bad(nil, ("the header has no '%s' line"):format(key)) end
  end
  return info
end

-- The next line that is not blank or a comment; nil at the end.
function Reader:line()
  while true do
    local line, number = self.next_line()
    if line == nil then return nil, (self.number or 0) + 1 end
    self.number = number
    line = line:gsub("\r$", "")
    -- a comment is "#" alone or followed by a space: a position may start
    -- with a block cell ("#...")
    if line ~= "" and line ~= "#" and line:sub(1, 2) ~= "# " then return line, number end
  end
end

function Reader:bad(number, why)
  errors.fail(("%s:%d: %s"):format(self.where, number or self.number or 0, why))
end

--- The next game { game =, holdout =, positions = { { cells =, target = } } },
-- or nil after the end line (checked against what was read).
function Reader:next_game()
  local line = self.pending
  self.pending = nil
  if line == nil then line = self:line() end
  if line == nil then self:bad(nil, "the file ends without its end line (cut short?)") end
  local games, positions = line:match("^end (%d+) games (%d+) positions$")
  if games then
    if tonumber(games) ~= self.games or tonumber(positions) ~= self.positions then
      self:bad(nil, ("the end line counts %s games and %s positions, the file holds %d and %d"):format(games,
        positions, self.games, self.positions))
    end
    local after = self:line()
    if after == nil then return nil end
    if after ~= data.MAGIC then self:bad(nil, "expected the end of the file or another data file's first line") end
    local info = self:header()
    for _, key in ipairs { "rules", "size", "options" } do
      if info[key] ~= self.info[key] then
        self:bad(nil, ("this part's %s is %s, the first part's %s"):format(key, info[key], self.info[key]))
      end
    end
    self.games, self.positions = 0, 0
    self.part = info
    return self:next_game()
  end
  local n, kind = line:match("^game (%d+) (%a+)$")
  local number = math.tointeger(tonumber(n or ""))
  if not number or number < 1 or (kind ~= "train" and kind ~= "holdout") then
    self:bad(nil, "expected 'game N train|holdout' or the end line")
  end
  local game = { game = number, holdout = kind == "holdout", positions = {} }
  local size = self.n * self.n
  while true do
    line = self:line()
    if line == nil then self:bad(nil, "the file ends without its end line (cut short?)") end
    if line:match("^game ") or line:match("^end ") then
      self.pending = line
      break
    end
    local cells, target = line:match("^([%.xo#]+) (%S+)$")
    if not cells or #cells ~= size then
      self:bad(nil, ("expected a position: %d cells of . x o # and the margin"):format(size))
    end
    -- a decimal number as data.number_text writes it (no hex, inf or nan)
    local value = not target:find("[^%d.eE+-]") and tonumber(target) or nil
    if not value or value ~= value or math.abs(value) > data.MAX_TARGET then
      self:bad(nil, ("the margin '%s' is not a number from %d to %d (what the fitter takes)"):format(target,
        -data.MAX_TARGET, data.MAX_TARGET))
    end
    game.positions[#game.positions + 1] = { cells = cells, target = value }
  end
  self.games, self.positions = self.games + 1, self.positions + #game.positions
  return game
end

--- Reads data file `path` through the bounded reader: a reader (see
-- data.reader).
function data.open(path)
  local lines = require("boardscript.bounded").lines(path,
    { limit = data.MAX_BYTES, max_line = data.MAX_LINE, max_lines = data.MAX_LINES })
  return data.reader(lines, path)
end

return data
