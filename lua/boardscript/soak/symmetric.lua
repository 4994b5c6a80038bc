--- The soak's check of a game's symmetries (boardscript.symmetry): a game
-- played, then its image under one of the maps the rule set declares (or
-- the capture core's direction sets give) played beside it, move for move.
-- At every ply the image's legal moves must be the images of the game's
-- (compared by the cells each move touches, `move_cells`), its board the
-- image of the game's, and at the end both must be over with the same
-- score and winner. The image starts from the image of the start: set
-- cell by cell on a core board; a board that cannot be set (a described
-- game's) must start symmetric.
local core = require "boardscript.core"
local game_mod = require "boardscript.game"
local symmetry = require "boardscript.symmetry"

local symmetric = {}

-- The rows and columns of a board.
local function shape(b)
  if type(b.rows) == "function" then return b:rows(), b:cols() end
  local n = b:size()
  return n, n
end

-- The cells move `m` touches in `g` (the rule set's move_cells, else the
-- move's own {row, col}), as a text after map `map`: "3,4>5,6".
local function key(g, m, map, rows, cols)
  local cells = g.rules.move_cells and g.rules:move_cells(m, g.state)
  if cells == nil and type(m) == "table" then cells = { { m[1], m[2] } } end
  if type(cells) ~= "table" then return nil end
  local parts = {}
  for i, c in ipairs(cells) do
    local r, col = symmetry.cell(map, c[1], c[2], rows, cols)
    parts[i] = r .. "," .. col
  end
  return table.concat(parts, ">")
end

-- The keys of `g`'s legal moves after `map`, as counts by key.
local function keys(g, map, rows, cols)
  local counts, by = {}, {}
  for _, m in ipairs(g:moves()) do
    local k = key(g, m, map, rows, cols) or "?"
    counts[k] = (counts[k] or 0) + 1
    by[k] = m
  end
  return counts, by
end

local function same_counts(a, b)
  for k, n in pairs(a) do if b[k] ~= n then return false end end
  for k, n in pairs(b) do if a[k] ~= n then return false end end
  return true
end

-- The first cell where board `b` after `map` differs from board `image`, or nil.
local function board_differs(b, image, map, rows, cols)
  for r = 1, rows do
    for c = 1, cols do
      local ir, ic = symmetry.cell(map, r, c, rows, cols)
      if b:get(r, c) ~= image:get(ir, ic) then return ("%s%d"):format(string.char(96 + c), r) end
    end
  end
  return nil
end

--- The map game number `number` checks: the group's maps besides the
-- identity taken in turn, or nil when the group has none.
function symmetric.map_for(group, number)
  if #group <= 1 then return nil end
  return group[2 + (number - 1) % (#group - 1)]
end

--- Replays game `g` (played to its end) on the image of its start under
-- map `map`; `info` is the soak's game (rules, opts, seed); `fail(ply,
-- check, fmt, ...)` raises. Returns the checks made.
function symmetric.check(info, g, map, generators, fail)
  local setup_rng = generators(info.seed)
  local start = game_mod.new(info.rules, info.opts, setup_rng)
  local image = start:clone()
  local b = start:board()
  local rows, cols = shape(b)
  if core.type(b) == "board" then
    local ib = image:board()
    for r = 1, rows do
      for c = 1, cols do
        local ir, ic = symmetry.cell(map, r, c, rows, cols)
        ib:set(ir, ic, b:get(r, c))
      end
    end
  elseif board_differs(b, image:board(), map, rows, cols) then
    fail(0, "symmetry", "the start is not the same under %s (cell %s); a game whose board cannot be set "
      .. "cell by cell must start symmetric to declare it", map, board_differs(b, image:board(), map, rows, cols))
  end
  local checks = 0
  local main = start
  for ply, entry in ipairs(g.log) do
    local mine, by = keys(main, map, rows, cols)
    local theirs = keys(image, "identity", rows, cols)
    if not same_counts(mine, theirs) then
      fail(ply - 1, "symmetry", "under %s the image's legal moves are not the images of the game's", map)
    end
    if entry.pass then
      main:pass()
      image:pass()
    else
      local k = key(main, entry.move, map, rows, cols)
      local _, image_by = keys(image, "identity", rows, cols)
      local m = image_by[k]
      if m == nil or by[k] == nil then fail(ply - 1, "symmetry", "under %s no image of move %s", map,
        tostring(main:move_text(entry.move))) end
      main:play(entry.move)
      image:play(m)
    end
    local cell = board_differs(main:board(), image:board(), map, rows, cols)
    if cell then fail(ply, "symmetry", "under %s the boards differ at the image of %s", map, cell) end
    checks = checks + 1
  end
  if not image:finished() then fail(#g.log, "symmetry", "under %s the image game is not over", map) end
  local a1, a2 = main:score()
  local b1, b2 = image:score()
  if a1 ~= b1 or a2 ~= b2 or main:winner() ~= image:winner() then
    fail(#g.log, "symmetry", "under %s the image ends %s-%s (%s), the game %s-%s (%s)", map, tostring(b1),
      tostring(b2), tostring(image:winner()), tostring(a1), tostring(a2), tostring(main:winner()))
  end
  return checks + 1
end

return symmetric
