--- Reversi with block cells (seed 000): blocks are placed before play, black
-- sits on the top-left centre cell, and the game ends on a full board or two
-- passes in a row.
--
-- Option `blocks`: the blocks to place at setup, as a list of cells
-- ("b2,c5" in standard notation) or a count ("6": that many, on random
-- cells drawn from the game's seeded generator) that the board can take
-- (`check_options`).
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

local blocks = rules.variant(reversi, {
  name = "blocks",
  description = "Reversi on a board with blocks: before play, block cells are put on the board (option blocks: cells "
    .. "such as b2,c5, or a count placed at random); nobody plays on a block and no line of discs runs through one. "
    .. "Black and White take turns, Black first, each placing a disc on an empty cell, such as e3 (column letter, row "
    .. "number), that traps a straight line of the opponent's discs between it and another disc of theirs; every "
    .. "trapped disc, in all eight directions, flips. A player with no such move passes. The game ends when the board "
    .. "is full or after two passes in a row, and the one with more discs wins.",
  centre = "black",
  blocks = "",
})
blocks.options = {
  size = reversi.options.size,
  blocks = { type = "string", help = "blocks placed at setup: cells such as b2,c5, or a count for random cells" },
}

--- At most half the board may be blocks.
function blocks:max_blocks(state)
  local n = state.board:size()
  return n * n // 2
end

--- A count of blocks goes with the size when the board can take them: at
-- most half of it, never a centre cell (a list of cells is checked cell by
-- cell at setup).
function blocks:check_options(opts)
  local count = math.tointeger(tonumber(opts.blocks))
  if not count then return nil end
  local n = opts.size
  local most = math.min(n * n // 2, n * n - 4)
  if count < 0 or count > most then
    return ("the board of %d x %d takes 0 to %d blocks (at most half of it, never a centre cell)"):format(n, n, most)
  end
end

--- Puts a block on (row, col): true, or nil and why not (off the board, a
-- centre cell, or a block already).
function blocks:add_block(state, row, col)
  if not rules.on_board(state.board, row, col) then return nil, "off the board" end
  local h = state.board:size() // 2
  if (row == h or row == h + 1) and (col == h or col == h + 1) then
    return nil, "centre cell"
  end
  if state.board:get(row, col) == "block" then
    return nil, "already a block"
  end
  state.board:set(row, col, "block")
  return true
end

-- `count` blocks on random free cells that may hold one.
local function random_blocks(self, state, count, rng)
  local free = {}
  local n = state.board:size()
  for r = 1, n do
    for c = 1, n do
      local probe = self:clone(state)
      if self:add_block(probe, r, c) then free[#free + 1] = { r, c } end
    end
  end
  if not rng then error("option blocks: a count needs the game's random generator", 0) end
  if count > #free then
    error(("option blocks: %d is more than the %d cells a block may take"):format(count, #free), 0)
  end
  for _ = 1, count do
    local i = rng:random(#free)
    self:add_block(state, free[i][1], free[i][2])
    free[i] = free[#free]
    free[#free] = nil
  end
end

--- Reversi's setup, then the blocks of opts.blocks (see above).
function blocks:setup(opts, rng)
  opts = opts or {}
  local state = reversi.setup(self, opts)
  local spec = opts.blocks or self.blocks
  if spec == nil or spec == "" then return state end
  local count = math.tointeger(tonumber(spec))
  if count then
    if count < 0 or count > self:max_blocks(state) then
      error(("option blocks: %d is out of range 0..%d"):format(count, self:max_blocks(state)), 0)
    end
    random_blocks(self, state, count, rng)
    return state
  end
  for cell in tostring(spec):gmatch("[^,%s]+") do
    local move = self:parse_move(cell, state)
    local ok, why = nil, "not a cell"
    if move then ok, why = self:add_block(state, move[1], move[2]) end
    if not ok then error(("option blocks: %s: %s"):format(cell, why), 0) end
  end
  return state
end

function blocks:finished(state)
  return state.board:count("empty") == 0 or state.passes >= 2
end

function blocks:core_game()
  return { legal = self.legal_dirs, flip = self.flip_dirs, pass = "stuck", ending = "two-passes" }
end

blocks.core_count = rules.vouch(blocks,
  { "moves", "has_moves", "play", "pass", "can_pass", "undo", "finished", "score", "winner" })

return blocks
