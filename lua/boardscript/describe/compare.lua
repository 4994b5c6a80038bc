--- Two engines of one described game in lockstep (vocab29; docs/guide.md
-- "Described games"): random games played on both, the positions compared
-- after every move, pass and undo. Used by `soak` (C engine against the
-- reference) and by the specs. The first difference is returned as a
-- message naming the position (its board text), the moves played and what
-- each engine said.
local compare = {}

local function list_text(S, list, count)
  local parts = {}
  for j = 1, count do parts[j] = ("%s(%d)"):format(tostring(S:move_text(list[j])), list[j]) end
  return table.concat(parts, " ")
end

local function first_move_difference(A, la, na, B, lb, nb)
  for j = 1, math.max(na, nb) do
    if la[j] ~= lb[j] then
      local function named(S, m) return m and ("%s (%d)"):format(tostring(S:move_text(m)), m) or "none" end
      return ("move %d: %s against %s"):format(j, named(A, la[j]), named(B, lb[j]))
    end
    local ta, tb = A:move_text(la[j]), B:move_text(lb[j])
    if ta ~= tb then return ("move %d (%d): text %s against %s"):format(j, la[j], tostring(ta), tostring(tb)) end
  end
  return nil
end

-- The scalar observations of a state, compared one by one.
local OBSERVED = {
  { "player", function(S) return S:player() end },
  { "ply", function(S) return S:ply() end },
  { "status", function(S) return tostring(S:status()) end },
  { "finished", function(S) return S:finished() and true or false end },
  { "score", function(S) local a, b = S:score() return ("%d, %d"):format(a, b) end },
  { "can_pass", function(S) return S:can_pass() and true or false end },
  { "black pieces", function(S) return S:count("black") end },
  { "white pieces", function(S) return S:count("white") end },
  { "empty cells", function(S) return S:count("empty") end },
  { "board text", function(S) return tostring(S) end },
}

--- The first difference between two states of one game (two engines),
-- as text, or nil when they agree on everything observable: the side to
-- move, ply, status, score, can_pass, every cell, the board text, the move
-- list (same integers in the same order) and each move's text; notation read back
-- and cells for a sample of the moves.
-- @param A a state (core.dgame or reference)
-- @param B a state of the other engine
-- @tparam[opt] table names the two engines' names, default { "A", "B" }
-- @tparam[opt] table ignore a set of observations not compared (e.g. { ["board text"] = true })
-- @treturn ?string
function compare.states(A, B, names, ignore)
  names, ignore = names or { "A", "B" }, ignore or {}
  for _, obs in ipairs(OBSERVED) do
    local a, b
    if not ignore[obs[1]] then a, b = obs[2](A), obs[2](B) end
    if a ~= b then
      return ("%s: %s says %s, %s says %s"):format(obs[1], names[1], tostring(a), names[2], tostring(b))
    end
  end
  for r = 1, A:rows() do
    for c = 1, A:cols() do
      local a, b = A:code(r, c), B:code(r, c)
      if a ~= b then
        return ("cell %s%d: %s says %d, %s says %d"):format(string.char(96 + c), r, names[1], a, names[2], b)
      end
    end
  end
  local la, na = A:moves()
  local lb, nb = B:moves()
  local diff = first_move_difference(A, la, na, B, lb, nb)
  if na ~= nb or diff then
    return ("moves (%s)\n%s: %s\n%s: %s"):format(diff or ("count %d against %d"):format(na, nb),
      names[1], list_text(A, la, na), names[2], list_text(B, lb, nb))
  end
  -- notation read back and cells: a sample of the moves (each parse is a search of the list)
  for j = 1, na, math.max(1, na // 6) do
    local m, t = la[j], A:move_text(la[j])
    if A:parse_move(t) ~= B:parse_move(t) then
      return ("parse_move(%q): %s says %s, %s says %s"):format(t, names[1], tostring(A:parse_move(t)), names[2],
        tostring(B:parse_move(t)))
    end
    local ca, cb = A:move_cells(m), B:move_cells(m)
    if ignore.move_cells then ca, cb = {}, {} end
    local sa, sb = {}, {}
    for k, p in ipairs(ca) do sa[k] = p[1] .. "," .. p[2] end
    for k, p in ipairs(cb) do sb[k] = p[1] .. "," .. p[2] end
    if table.concat(sa, " ") ~= table.concat(sb, " ") then
      return ("move_cells(%s): %s says %s, %s says %s"):format(t, names[1], table.concat(sa, " "), names[2],
        table.concat(sb, " "))
    end
  end
  return nil
end

-- A seeded generator (xorshift64*) with :random(n) -> 1..n.
local function generator(seed)
  local x = (seed * 0x9E3779B97F4A7C15) ~ 0x2545F4914F6CDD1D
  if x == 0 then x = 1 end
  return function(n)
    x = x ~ (x << 13)
    x = x ~ (x >> 7)
    x = x ~ (x << 17)
    return (x >> 1) % n + 1
  end
end

-- The message of a difference: what was done, the moves so far, the
-- position (the first engine's board text), then what differs.
local function report(played, what, A, detail)
  return ("%s; moves so far: %s (ply %d):\n%s%s"):format(what,
    #played > 0 and table.concat(played, " ") or "none", A:ply(), tostring(A), detail)
end

-- One random game on two states, checked at every step; nil or a message.
local function one_game(A, B, random, opts, names)
  local ignore = opts.ignore
  local played = {}
  local diff = compare.states(A, B, names, ignore)
  if diff then return report(played, "at the start", A, diff) end
  for _ = 1, opts.max_plies do
    if A:finished() then break end
    local what
    if #played > 0 and random(opts.undo_one_in) == 1 then
      local ua, ub = A:undo(), B:undo()
      what = "undo"
      if ua ~= ub then return report(played, what, A, ("undo: %s against %s"):format(tostring(ua), tostring(ub))) end
      played[#played] = nil
    else
      local list, count = A:moves()
      if count == 0 then
        what = "pass"
        local pa, pb = A:pass(), B:pass()
        if not pa or not pb then
          return report(played, what, A, ("pass: %s against %s"):format(tostring(pa), tostring(pb)))
        end
      else
        local m = list[random(count)]
        what = ("move %s (%d)"):format(A:move_text(m), m)
        local pa, pb = A:play(m), B:play(m)
        if not pa or not pb then
          return report(played, what, A, ("play: %s against %s"):format(tostring(pa), tostring(pb)))
        end
      end
      played[#played + 1] = what == "pass" and "pass" or what:match("^move (%S+)")
    end
    diff = compare.states(A, B, names, ignore)
    if diff then return report(played, "after " .. what, A, diff) end
  end
  return nil
end

--- Plays random games of two engines of one game in lockstep.
-- @param Ga a game object (core.dgame or reference.dgame)
-- @param Gb a game object of the same normalised table
-- @tparam[opt] table opts { games = 10, seed = 1, max_plies = 400, undo_one_in = 8, names = { "A", "B" },
-- ignore = a set of observation names (compare.states) }
-- @treturn ?boolean true when they agreed, or nil and the first difference
-- @treturn ?string the difference
function compare.games(Ga, Gb, opts)
  opts = opts or {}
  local o = { games = opts.games or 10, seed = opts.seed or 1, max_plies = opts.max_plies or 400,
    undo_one_in = opts.undo_one_in or 8, ignore = opts.ignore }
  local names = opts.names or { "A", "B" }
  for number = 1, o.games do
    local message = one_game(Ga:start(), Gb:start(), generator(o.seed * 1000003 + number), o, names)
    if message then return nil, ("game %d of seed %d: %s"):format(number, o.seed, message) end
  end
  return true
end

-- Down the first subtree whose counts differ, to the position where the
-- engines disagree; returns the line of moves and the difference there.
local function locate(A, B, depth, names, line)
  local diff = compare.states(A, B, names)
  if diff or depth <= 1 then return line, diff or "the move lists agree but the counts differ" end
  local list, count = A:moves()
  if count == 0 and A:can_pass() then list, count = { "pass" }, 1 end
  for j = 1, count do
    local m = list[j]
    if m == "pass" then A:pass() B:pass() else A:play(m) B:play(m) end
    line[#line + 1] = m == "pass" and "pass" or A:move_text(m)
    if A:perft(depth - 1) ~= B:perft(depth - 1) then return locate(A, B, depth - 1, names, line) end
    line[#line] = nil
    A:undo()
    B:undo()
  end
  return line, "no subtree differs"
end

--- Compares perft from the start at depths 1..depth of two engines; on a
-- difference, goes down the first subtree that differs to the position
-- where the engines disagree and names it.
-- @param Ga a game object
-- @param Gb a game object of the same normalised table
-- @tparam integer depth the deepest
-- @tparam[opt] table names the engines' names
-- @treturn ?boolean true, or nil and the first difference
-- @treturn ?string the difference
function compare.perft(Ga, Gb, depth, names)
  names = names or { "A", "B" }
  local A, B = Ga:start(), Gb:start()
  for d = 1, depth do
    local a, b = A:perft(d), B:perft(d)
    if a ~= b then
      local line, diff = locate(A, B, d, names, {})
      return nil, ("perft %d: %s counts %d, %s counts %d; after %s:\n%s%s"):format(d, names[1], a, names[2], b,
        #line > 0 and table.concat(line, " ") or "the start", tostring(A), diff)
    end
  end
  return true
end

return compare
