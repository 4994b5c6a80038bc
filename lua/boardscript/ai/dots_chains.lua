--- Dots and Boxes geometry and the theory of its loony endgames, for the
-- dots_search policy: edge and box numbering, chains and loops of a
-- position (component codes), and the value of a position where every
-- move opens a component (loony_value, without_junctions).
local chains = {}

chains.FILLS = 16 -- safe-move orders made per grid size (the `fills` option uses the first ones)
local FILLS = chains.FILLS
local UNKNOWN = math.mininteger

------------------------------------------------------------------------
-- Geometry. Edges and boxes are numbered from 1 here: edge e is the core's
-- edge e - 1 (horizontal edges row by row, then vertical ones), box b the
-- core's box b - 1 (row by row). Box 0 stands for the ground.

local geometries = {}

function chains.geometry(rows, cols)
  local key = rows * 64 + cols
  local geo = geometries[key]
  if geo then return geo end
  local H = (rows + 1) * cols
  local E = H + rows * (cols + 1)
  local eb1, eb2, be, dots, zob = {}, {}, {}, {}, {}
  for r = 0, rows do
    for c = 0, cols - 1 do
      local e = r * cols + c + 1
      eb1[e] = r > 0 and (r - 1) * cols + c + 1 or 0
      eb2[e] = r < rows and r * cols + c + 1 or 0
      dots[e] = { r + 1, c + 1, r + 1, c + 2 }
    end
  end
  for r = 0, rows - 1 do
    for c = 0, cols do
      local e = H + r * (cols + 1) + c + 1
      eb1[e] = c > 0 and r * cols + c or 0
      eb2[e] = c < cols and r * cols + c + 1 or 0
      dots[e] = { r + 1, c + 1, r + 2, c + 1 }
    end
  end
  for r = 0, rows - 1 do
    for c = 0, cols - 1 do
      local base = 4 * (r * cols + c)
      be[base + 1] = r * cols + c + 1
      be[base + 2] = (r + 1) * cols + c + 1
      be[base + 3] = H + r * (cols + 1) + c + 1
      be[base + 4] = H + r * (cols + 1) + c + 2
    end
  end
  -- Hash keys from a fixed generator (xorshift), so searches repeat exactly.
  local x = 0x2545F4914F6CDD1D + key
  for e = 1, E do
    x = x ~ (x << 13); x = x ~ (x >> 7); x = x ~ (x << 17)
    zob[e] = x
  end
  -- The orders the evaluation draws the remaining safe moves in: fixed
  -- shuffles (each a plausible way the safe moves could run out).
  local fills = {}
  for k = 1, FILLS do
    local order = {}
    for e = 1, E do order[e] = e end
    for i = E, 2, -1 do
      x = x ~ (x << 13); x = x ~ (x >> 7); x = x ~ (x << 17)
      local j = (x >> 1) % i + 1
      order[i], order[j] = order[j], order[i]
    end
    fills[k] = order
  end
  geo = { rows = rows, cols = cols, E = E, H = H, NB = rows * cols, eb1 = eb1, eb2 = eb2, be = be,
          dots = dots, zob = zob, fills = fills }
  geometries[key] = geo
  return geo
end

--- The 1-based edge number of an edge {r1, c1, r2, c2} of a rows x cols grid.
function chains.edge_number(geo, edge)
  local r1, c1, r2, c2 = edge[1], edge[2], edge[3], edge[4]
  if r2 < r1 or c2 < c1 then r1, c1 = r2, c2 end
  if edge[1] == edge[3] then return (r1 - 1) * geo.cols + c1 end
  return geo.H + (r1 - 1) * (geo.cols + 1) + c1
end

-- Edge e as a new table {r1, c1, r2, c2}.
function chains.edge_of(geo, e)
  local t = geo.dots[e]
  return { t[1], t[2], t[3], t[4] }
end

------------------------------------------------------------------------
-- Loony positions: chains, loops and junctions.
--
-- A component is coded as one integer: a loop of n boxes as -n; a chain of n
-- boxes whose ends are `lo` <= `hi` (junction boxes, 0 for the ground) as
-- n * 2^20 + lo * 2^10 + hi. A position is the sorted list of its codes.

function chains.chain_code(n, a, b)
  if a > b then a, b = b, a end
  return (n << 20) | (a << 10) | b
end

-- The position left when component `i` of `list` is opened and captured:
-- the sorted codes left, the boxes the capture takes, and whether it was a
-- loop. A junction that loses a string joins its other two (a chain through
-- it, or a loop when both are the same chain); one left with a single string
-- is captured too, with the chain beyond it.
function chains.open_component(list, i)
  local code = list[i]
  local lens, ea, eb, n = {}, {}, {}, 0
  for j = 1, #list do
    local c = list[j]
    if j ~= i then
      n = n + 1
      if c < 0 then
        lens[n], ea[n], eb[n] = c, -1, -1
      else
        lens[n], ea[n], eb[n] = c >> 20, (c >> 10) & 1023, c & 1023
      end
    end
  end
  if code < 0 then
    local rest = {}
    for j = 1, n do rest[j] = lens[j] < 0 and lens[j] or chains.chain_code(lens[j], ea[j], eb[j]) end
    table.sort(rest)
    return rest, -code, true
  end
  local got = code >> 20
  local lo, hi = (code >> 10) & 1023, code & 1023
  local queue, q, gone = { lo }, 1, {}
  if hi ~= lo then queue[2] = hi end
  while q <= #queue do
    local j = queue[q]
    q = q + 1
    if j > 0 and not gone[j] then
      local deg, x, y = 0, nil, nil
      for k = 1, n do
        if lens[k] then
          if ea[k] == j then deg = deg + 1; if x then y = k else x = k end end
          if eb[k] == j then deg = deg + 1; if x then y = k else x = k end end
        end
      end
      if deg == 2 then
        gone[j] = true
        if x == y then -- a chain from j back to j: a loop through j
          lens[x], ea[x], eb[x] = -(lens[x] + 1), -1, -1
        else
          local px = ea[x] == j and eb[x] or ea[x]
          local py = ea[y] == j and eb[y] or ea[y]
          lens[x], ea[x], eb[x] = lens[x] + lens[y] + 1, px, py
          lens[y] = nil
        end
      elseif deg == 1 then -- three sides: captured, and the chain beyond it
        gone[j] = true
        got = got + 1 + lens[x]
        local p = ea[x] == j and eb[x] or ea[x]
        lens[x] = nil
        queue[#queue + 1] = p
      elseif deg == 0 then
        gone[j] = true
        got = got + 1
      end
    end
  end
  local rest, m = {}, 0
  for k = 1, n do
    local len = lens[k]
    if len then
      m = m + 1
      rest[m] = len < 0 and len or chains.chain_code(len, ea[k], eb[k])
    end
  end
  table.sort(rest)
  return rest, got, false
end

local loony_value

-- The value of a simple loony position (no junctions: chains end on the
-- ground). The opener need only try the smallest loop, the smallest chain
-- of three or more, and chains of one and of two: one of them is always
-- best (Buzzard and Ciere, "Playing simple loony dots and boxes endgames
-- optimally"; checked here against trying every component).
-- What the taker of an opened component worth `got` boxes nets when the
-- rest is worth `rest` to the one who opens next: take all and open next,
-- or decline the last two boxes of a chain (of three or more) or four of a
-- loop and make the opener open again.
local function taker_value(got, rest, loop)
  local taker = got + rest
  if loop then
    if got - 8 - rest > taker then taker = got - 8 - rest end
  elseif got >= 3 and got - 4 - rest > taker then
    taker = got - 4 - rest
  end
  return taker
end

local function simple_value(list, memo, key)
  local n = #list
  local loop, long, one, two
  for i = 1, n do
    local c = list[i]
    if c < 0 then
      loop = i -- the codes are sorted: the last loop is the smallest
    else
      local len = c >> 20
      if len == 1 then one = one or i
      elseif len == 2 then two = two or i
      elseif not long then long = i end
    end
  end
  local best = UNKNOWN
  for k = 1, 4 do
    local i
    if k == 1 then i = loop elseif k == 2 then i = long elseif k == 3 then i = one else i = two end
    if i then
      local code = list[i]
      local rest = table.move(list, 1, i - 1, 1, {})
      table.move(list, i + 1, n, i, rest)
      local got = code < 0 and -code or code >> 20
      local taker = taker_value(got, loony_value(rest, memo), code < 0)
      if -taker > best then best = -taker end
    end
  end
  memo[key] = best
  return best
end

--- The value of a loony position (the sorted component codes `list`) for
-- the player who must open a component: the net score of the boxes left.
-- `memo` maps positions to values.
function loony_value(list, memo)
  local n = #list
  if n == 0 then return 0 end
  local key = table.concat(list, ",")
  local known = memo[key]
  if known then return known end
  memo[1] = (memo[1] or 0) + 1
  local simple = true
  for i = 1, n do
    local c = list[i]
    if c > 0 and c & 0xFFFFF ~= 0 then simple = false; break end
  end
  if simple then return simple_value(list, memo, key) end
  local best, previous = UNKNOWN, nil
  for i = 1, n do
    local code = list[i]
    if code ~= previous then
      previous = code
      local rest, got, loop = chains.open_component(list, i)
      local taker = taker_value(got, loony_value(rest, memo), loop)
      if -taker > best then best = -taker end
    end
  end
  memo[key] = best
  return best
end
chains.loony_value = loony_value

--- A loony position without junctions, close to `list` in value, for the
-- evaluation (far fewer positions to value): each junction joins its two
-- longest chains, as opening the short ones first would, and the chains it
-- ends otherwise run to the ground.
local function without_junctions(list)
  local lens, ea, eb, n, any = {}, {}, {}, 0, false
  for j = 1, #list do
    local c = list[j]
    n = n + 1
    if c < 0 then
      lens[n], ea[n], eb[n] = c, 0, 0
    else
      local a, b = (c >> 10) & 1023, c & 1023
      lens[n], ea[n], eb[n] = c >> 20, a, b
      if a > 0 then any = true end
    end
  end
  if not any then return list end
  for k = 1, n do
    local j = ea[k] > 0 and ea[k] or eb[k]
    while j > 0 do
      -- the two longest chains at junction j (k's end or another)
      local x, y
      for m = 1, n do
        local len = lens[m]
        if len and len > 0 and (ea[m] == j or eb[m] == j) then
          if not x or len > lens[x] then x, y = m, x elseif not y or len > lens[y] then y = m end
        end
      end
      for m = 1, n do -- j is gone: every chain ending there now ends on the ground
        if lens[m] and lens[m] > 0 then
          if ea[m] == j then ea[m] = 0 end
          if eb[m] == j then eb[m] = 0 end
        end
      end
      if y then -- one chain through j, between the far ends of the two
        lens[x], ea[x], eb[x] = lens[x] + lens[y] + 1, ea[x] + eb[x], ea[y] + eb[y]
        lens[y] = nil
      elseif x then
        lens[x] = lens[x] + 1
      end
      j = lens[k] and (ea[k] > 0 and ea[k] or eb[k]) or 0
    end
  end
  local rest, m = {}, 0
  for k = 1, n do
    if lens[k] then
      m = m + 1
      rest[m] = lens[k] < 0 and lens[k] or (lens[k] << 20)
    end
  end
  table.sort(rest)
  return rest
end
chains.without_junctions = without_junctions

return chains
