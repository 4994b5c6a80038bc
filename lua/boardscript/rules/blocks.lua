--- Reversi with block cells (seed 000): blocks are placed before play, black
-- sits on the top-left centre cell, and the game ends on a full board or two
-- passes in a row.
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

local blocks = rules.variant(reversi, { name = "blocks", centre = "black" })

--- At most half the board may be blocks.
function blocks:max_blocks(state)
  local n = state.board:size()
  return n * n // 2
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

function blocks:finished(state)
  return state.board:count("empty") == 0 or state.passes >= 2
end

return blocks
