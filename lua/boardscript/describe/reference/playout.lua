--- Perft and random playouts of the reference interpreter.
local playout = {}

--- Perft of state S (restored afterwards): move sequences of length depth,
-- a forced pass counting as a ply; finished games above the last ply add
-- nothing.
-- @tparam table S the state
-- @tparam integer depth
-- @treturn integer
function playout.perft(S, depth)
  if depth == 0 then return 1 end
  if S:finished() then return 0 end
  local list, count = S:moves()
  if count == 0 then
    if not S:can_pass() then return 0 end
    if depth == 1 then return 1 end
    S:pass()
    local n = playout.perft(S, depth - 1)
    S:undo()
    return n
  end
  if depth == 1 then return count end
  local total = 0
  for _, m in ipairs(list) do
    S:play(m)
    total = total + playout.perft(S, depth - 1)
    S:undo()
  end
  return total
end

-- A seeded generator with :random(n) (xorshift64*), for an integer seed.
local function seeded(seed)
  local x = seed ~ 0x2545F4914F6CDD1D
  if x == 0 then x = 1 end
  return {
    random = function(_, n)
      x = x ~ (x << 13)
      x = x ~ (x >> 7)
      x = x ~ (x << 17)
      return (x >> 1) % n + 1
    end,
  }
end

--- The longest playout: a game still on after this many plies counts as a draw.
playout.MAX_PLIES = 10000

--- n random playouts to the end from a copy of S.
-- @tparam table S the state
-- @param rng an object with :random(n), or an integer seed
-- @tparam integer n the number of playouts
-- @treturn table { black =, white =, draw =, plies = }
function playout.run(S, rng, n)
  if math.type(rng) == "integer" then
    rng = seeded(rng)
  elseif not (type(rng) == "table" or type(rng) == "userdata") then
    error("bad argument #1 to 'playout' (rng or integer seed expected)", 3)
  end
  local out = { black = 0, white = 0, draw = 0, plies = 0 }
  for _ = 1, n do
    local T = S:clone()
    local plies = 0
    while not T:finished() and plies < playout.MAX_PLIES do
      local list, count = T:moves()
      if count == 0 then T:pass() else T:play(list[rng:random(count)]) end
      plies = plies + 1
    end
    local status = T:status() or "draw"
    out[status] = out[status] + 1
    out.plies = out.plies + plies
  end
  return out
end

return playout
