-- Random normalised described games (vocab29 section 2) for the
-- differential check of the C engine against the reference: every rule,
-- end, no_move and score kind, drawn from a seeded generator.
local T = require "support.ref_tables"

local R = {}

local SETS = { "all", "orthogonal", "diagonal", "hex", "forward", "f", "fe fw", "n s", "e w ne", "b be bw" }
local KNIGHT = { { -2, -1 }, { -2, 1 }, { -1, -2 }, { -1, 2 }, { 1, -2 }, { 1, 2 }, { 2, -1 }, { 2, 1 } }

local function generator(seed)
  local x = (seed * 0x9E3779B97F4A7C15) ~ 0x2545F4914F6CDD1D
  return function(n)
    x = x ~ (x << 13)
    x = x ~ (x >> 7)
    x = x ~ (x << 17)
    return (x >> 1) % n + 1
  end
end

local function pick(random, list) return list[random(#list)] end

local function kinds_set(random, k)
  local set, any = {}, false
  for kind = 1, k do
    if random(2) == 1 then set[kind], any = true, true end
  end
  if not any then set[random(k)] = true end
  return set
end

local function maybe_dirs(random, one_in)
  if random(one_in) == 1 then return T.dirs(pick(random, SETS)) end
  return nil
end

local function rule(random, k, rows, cols)
  local op = pick(random, { "place", "place", "step", "step", "slide", "leap", "hop" })
  local r = { op = op, to = pick(random, { "empty", "enemy", "free" }), leave = random(5) == 1 }
  if op == "place" then
    r.kind = random(k)
    r.at = pick(random, { "empty", "adjacent", "column" })
    r.dirs = T.dirs(pick(random, SETS))
    r.flips = maybe_dirs(random, 4)
    r.convert = maybe_dirs(random, 4)
    r.leave, r.to = nil, nil
  else
    r.kinds = kinds_set(random, k)
    r.dirs = op == "leap" and T.offsets(random(2) == 1 and KNIGHT or T.ring2()) or T.dirs(pick(random, SETS))
    r.convert = op ~= "hop" and maybe_dirs(random, 5) or nil
    if op == "slide" and random(3) == 1 and rows * cols <= 36 then r.arrow = T.dirs(pick(random, SETS)) end
    if op == "hop" then r.chain, r.to, r.leave = random(3) > 1, nil, nil end
  end
  return r
end

local function zone(random, rows, cols)
  if random(2) == 1 then return T.far(rows, cols) end
  local z = { {}, {} }
  for side = 1, 2 do
    for i = 0, rows * cols - 1 do
      if random(6) == 1 then z[side][#z[side] + 1] = i end
    end
  end
  return z
end

local function an_end(random, rows, cols, k)
  local op = pick(random, { "line", "connect", "reach", "no_pieces", "full", "plies" })
  if op == "line" then
    local axes = {}
    for _, a in ipairs(T.AXES) do
      if random(3) > 1 then axes[#axes + 1] = a end
    end
    return { op = op, k = random(2, 4), exact = random(3) == 1, axes = #axes > 0 and axes or T.AXES }
  elseif op == "connect" then
    local dirs = T.dirs(pick(random, { "hex", "orthogonal", "all" }))[1]
    return { op = op, dirs = dirs, edges = { { "n", "s" }, { "w", "e" } } }
  elseif op == "reach" then
    return { op = op, zone = zone(random, rows, cols), kinds = random(2) == 1 and kinds_set(random, k) or nil }
  elseif op == "plies" then
    return { op = op, n = random(10, 60), result = pick(random, { "draw", "score" }) }
  elseif op == "full" then
    return { op = op, result = pick(random, { "draw", "score" }) }
  end
  return { op = op }
end

--- A random normalised game from `seed`.
function R.game(seed)
  local random = generator(seed)
  local wrapped = random
  random = function(a, b)
    if b then return a + wrapped(b - a + 1) - 1 end
    return wrapped(a)
  end
  local rows, cols = random(3, 7), random(3, 7)
  if random(3) == 1 then cols = rows end
  local k = random(3)
  local kinds = ({ { "stone" }, { "man", "king" }, { "pawn", "queen", "knight" } })[k]
  local cells = {}
  for i = 1, rows * cols do
    local roll = random(10)
    cells[i] = roll == 1 and -1 or roll <= 3 and (2 * (random(k) - 1) + random(2)) or 0
  end
  local rules = {}
  for j = 1, random(3) do rules[j] = rule(random, k, rows, cols) end
  local ends = {}
  for j = 1, random(0, 3) do ends[j] = an_end(random, rows, cols, k) end
  local promote = {}
  if k > 1 and random(2) == 1 then promote[1] = { from = 1, to = random(2, k), zone = zone(random, rows, cols) } end
  return T.game { name = "random " .. seed, rows = rows, cols = cols, kinds = kinds, cells = cells,
    first = random(2), rules = rules, must_capture = random(3) == 1, promote = promote, ends = ends,
    no_move = pick(random, { "lose", "pass", "draw", "score" }),
    score = pick(random, { "pieces", "territory", "none" }),
    swap = rows == cols and random(4) == 1 }
end

return R
