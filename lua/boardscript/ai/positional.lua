--- The `positional` policy: the move after which the weighted sum of the
-- mover's discs minus the opponent's (plus the plain disc margin, which
-- breaks ties) is highest, with a weight table made for any board size and
-- any block cells. Where the rule set's `winner` names the side with fewer
-- discs (anti-reversi) the sum counts the other way. Plays the capture
-- rule sets (positional.fits: discs that turn when flanked); ties go to a
-- move drawn from the game's seeded generator.
--
-- The weight of a cell comes from how many of its four lines (the row, the
-- column and the two diagonals) end at it, at the edge of the board or at a
-- block, so that no disc there can be flanked along that line:
--
--   all four (a corner, or a cell boxed in by blocks)   100
--   three (an edge cell)                                  10
--   two                                                    5
--   one                                                    2
--   none (the centre)                                      0
--
-- and a cell next to an empty corner is worth -50 (-20 if it is an edge
-- cell itself): it gives the corner away. Once the corner is taken, the
-- cell weighs what its lines say. On 8 x 8 this is the classic table:
-- corners 100, X-squares -50, C-squares -20, edges 10, the rest 0.
local greedy = require "boardscript.ai.greedy"

local positional = { name = "positional", games = { "board" } }

--- Whether the weight table means something in rule set `r`: a capture
-- rule set of the core's family (it describes its game to the C capture
-- core, `core_game`: discs that turn when flanked), its variants with
-- hooks of their own included. Elsewhere (Connect Four, Breakthrough,
-- Gomoku, tic-tac-toe) a corner is worth no more than any cell, so the
-- policy is not offered there and minimax does not weigh cells.
-- @tparam table r the rule set
-- @treturn boolean
function positional.fits(r)
  return type(r) == "table" and (r.family or "board") == "board" and type(r.core_game) == "function"
end
positional.accepts = positional.fits

--- Weight of a cell by the lines that end at it (0..4).
positional.BY_LINES = { [0] = 0, 2, 5, 10, 100 }
--- Weight of an interior cell next to an empty corner, and of an edge cell next to one.
positional.NEXT_TO_CORNER, positional.EDGE_NEXT_TO_CORNER = -50, -20

-- The four lines through a cell, each as its two directions.
local LINES = { { { 0, 1 }, { 0, -1 } }, { { 1, 0 }, { -1, 0 } }, { { 1, 1 }, { -1, -1 } }, { { 1, -1 }, { -1, 1 } } }

-- Whether (r, c) is off board `b` (n x n, or rows x cols) or a block.
local function closed(b, _, r, c)
  local code = b:code(r, c)
  return code < 0 or code == 3
end

-- The rows and columns of core board `b`.
local function shape(b)
  return b:rows(), b:cols()
end

--- How many of the four lines through (r, c) end at it (0..4).
function positional.lines_ending(b, n, r, c)
  local count = 0
  for _, line in ipairs(LINES) do
    local a, z = line[1], line[2]
    if closed(b, n, r + a[1], c + a[2]) or closed(b, n, r + z[1], c + z[2]) then count = count + 1 end
  end
  return count
end

--- The weight table of core board `b`: weights[r][c], and the list of
-- corners (cells all of whose lines end there) with their neighbours, for
-- the adjustment while a corner is empty.
function positional.weights(b)
  local n = b:size()
  local rows, cols = shape(b)
  local lines, weights, corners = {}, {}, {}
  for r = 1, rows do
    lines[r], weights[r] = {}, {}
    for c = 1, cols do
      local k = b:get(r, c) == "block" and -1 or positional.lines_ending(b, n, r, c)
      lines[r][c] = k
      weights[r][c] = k >= 0 and positional.BY_LINES[k] or 0
      if k == 4 then corners[#corners + 1] = { r, c } end
    end
  end
  for _, corner in ipairs(corners) do
    local near = {}
    for dr = -1, 1 do
      for dc = -1, 1 do
        local r, c = corner[1] + dr, corner[2] + dc
        if (dr ~= 0 or dc ~= 0) and not closed(b, n, r, c) and lines[r][c] < 4 then
          near[#near + 1] = { r, c, lines[r][c] == 3 and positional.EDGE_NEXT_TO_CORNER or positional.NEXT_TO_CORNER }
        end
      end
    end
    corner.near = near
  end
  return weights, corners
end

-- Lowers the weights of the cells next to the empty corners of `b`;
-- returns what to put back (see restore).
local function next_to_empty_corners(b, weights, corners)
  local saved = {}
  for _, corner in ipairs(corners) do
    if b:get(corner[1], corner[2]) == "empty" then
      for _, cell in ipairs(corner.near) do
        local row = weights[cell[1]]
        saved[#saved + 1] = { row, cell[2], row[cell[2]] }
        row[cell[2]] = math.min(row[cell[2]], cell[3])
      end
    end
  end
  return saved
end

local function restore(saved)
  for i = #saved, 1, -1 do
    local s = saved[i]
    s[1][s[2]] = s[3]
  end
end

--- The weights that count on board `b` as it stands: rows of numbers
-- (blocks weigh 0), the cells next to an empty corner lowered.
function positional.table(b)
  local weights, corners = positional.weights(b)
  next_to_empty_corners(b, weights, corners)
  return weights
end

--- The weighted sum of `side`'s discs minus the other side's on board `b`.
function positional.value(b, weights, corners, side)
  local rows, cols = shape(b)
  local total = 0
  local saved = next_to_empty_corners(b, weights, corners)
  for r = 1, rows do
    local row = weights[r]
    for c = 1, cols do
      local cell = b:get(r, c)
      if cell == side then
        total = total + row[c]
      elseif cell ~= "empty" and cell ~= "block" then
        total = total - row[c]
      end
    end
  end
  restore(saved)
  return total
end

--- Which way the score counts for `side` in `state` of rule set `r`: 1 when
-- more is better, -1 when the rule set's `winner` names the side with the
-- lower score (anti-reversi, misere Dots and Boxes). `own` and `other` are
-- the two sides' scores; with equal scores, or a draw, it is 1.
function positional.direction(r, state, side, own, other)
  if own == other then return 1 end
  local winner = r:winner(state)
  if winner == side then return own > other and 1 or -1 end
  if winner == "draw" then return 1 end
  return own < other and 1 or -1
end

--- The value of `state` for `side`: the weighted sum (positional.value)
-- plus the disc margin, counted the way the rule set's winner counts
-- (see positional.direction).
function positional.evaluate(r, state, side, weights, corners)
  local first, second = r:score(state)
  local own, other = first, second
  if side ~= r.sides[1] then own, other = second, first end
  local v = positional.value(state.board, weights, corners, side) + (own - other)
  return v * positional.direction(r, state, side, own, other)
end

--- The best move for the side to move of `g`, or nil (a pass) when there
-- is none. `ctx.rng` (default `g.rng`) breaks ties.
function positional:choose(g, ctx)
  local rng = ctx and ctx.rng or g.rng
  local r, state = g.rules, g.state
  local side = state.player
  local weights, corners = positional.weights(state.board)
  local best, best_value = greedy.best_after(r, state,
    function() return positional.evaluate(r, state, side, weights, corners) end)
  if ctx and ctx.log then ctx.log("%d moves, best value %s", #best, tostring(best_value)) end
  if #best == 0 then return nil end
  if #best == 1 or not rng then return best[1] end
  return best[rng:random(#best)]
end

return positional
