--- Dots and Boxes over the dots core (seed 001): players 1 and 2 take turns
-- drawing an edge between two neighbouring dots; completing a box scores it
-- and keeps the turn; the game ends when every edge is drawn.
-- State: { board = core dots position, player = 1 or 2 (to move) }.
-- Moves are edges {r1, c1, r2, c2}: two dots one edge apart, 1-based, in
-- either order. There is no passing: `pass` refuses (see below).
local core = require "boardscript.core"
local rules = require "boardscript.rules"

local dots = {
  name = "dots",
  description = "Dots and Boxes: the board is a grid of dots, 3 x 3 boxes by default. Players 1 and 2 take turns "
    .. "drawing a line between two neighbouring dots; a move is that edge, written as its two dots, such as a1 a2 (row "
    .. "letter, column number). Drawing the fourth side of a box wins it, and the same player must move again. There "
    .. "is no passing. The game ends when every line is drawn, and the player with more boxes wins.",
  family = "dots", -- notation `a1 a2`, sides 1 and 2, score, winner, clone
  score_unit = "boxes", -- what the score counts: the match summary's unit
  rows = 3, -- boxes per column, when setup is given neither rows nor size
  cols = 3, -- boxes per row
  options = {
    rows = { type = "integer", min = 1, max = 16, help = "boxes per column" },
    cols = { type = "integer", min = 1, max = 16, help = "boxes per row" },
    size = { type = "integer", min = 1, max = 16, help = "boxes per side of a square grid (instead of rows and cols)" },
  },
}

--- The other player.
function dots.opponent(player)
  return 3 - player
end

--- opts.size for a square grid, else opts.rows and opts.cols (1..16 each).
function dots:setup(opts)
  opts = opts or {}
  local rows = opts.size or opts.rows or self.rows
  local cols = opts.size or opts.cols or self.cols
  return { board = core.dots(rows, cols), player = 1 }
end

--- The open edges, each with its smaller dot first.
function dots:moves(state)
  return state.board:open_edges()
end

--- Whether `move` names an edge of this grid: true, or nil and why not.
function dots:edge_ok(state, move)
  if type(move) ~= "table" then return nil, "not an edge" end
  local d = state.board
  local limits = { d:rows() + 1, d:cols() + 1, d:rows() + 1, d:cols() + 1 }
  for i = 1, 4 do
    local v = move[i]
    if math.type(v) ~= "integer" then return nil, "not an edge" end
    if v < 1 or v > limits[i] then return nil, "off the grid" end
  end
  if math.abs(move[1] - move[3]) + math.abs(move[2] - move[4]) ~= 1 then
    return nil, "dots not one edge apart"
  end
  return true
end

--- Draws `move` for the player to move: returns the boxes it completed
-- (0..2; with any, the same player moves again), or nil and a message with
-- the state unchanged (off the grid, not one edge apart, already drawn).
function dots:play(state, move)
  local ok, why = self:edge_ok(state, move)
  if not ok then return nil, why end
  local completed, err = state.board:draw(move)
  if not completed then return nil, err end
  state.player = state.board:turn()
  return completed
end

--- Dots and Boxes has no pass: an open edge is always there to draw until
-- the game is over. Returns nil and a message; the state is unchanged.
function dots:pass(_)
  return nil, "there is no passing in Dots and Boxes"
end

--- Takes back the last edge (and any boxes it completed); false when there
-- is none.
function dots:undo(state)
  local edge = state.board:undo()
  state.player = state.board:turn()
  return edge ~= false
end

function dots:finished(state)
  return state.board:finished()
end

-- Score (boxes owned: player 1's, player 2's), winner and clone come from
-- the "dots" family.
return rules.define(dots, "rules dots")
