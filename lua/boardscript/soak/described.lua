--- soak's check of a described game (issue 29): the C engine (`core.dgame`)
-- and the Lua reference (boardscript.describe.reference) of the game's
-- normalised form, run in lockstep with the soak game and compared
-- (boardscript.describe.compare) at every move: before it, after it, after
-- its undo. The game's own move list must be the engines'.
local core = require "boardscript.core"
local compare = require "boardscript.describe.compare"
local reference = require "boardscript.describe.reference"

local described = {}

local NAMES = { "C", "reference" }

--- The normalised table of a rule set's `described` field for options
-- `opts`, or nil when the rule set is not described. The field is a
-- function `normalised(opts)`, a table holding one (`described.normalised`),
-- or a normalised table itself.
-- @tparam table rules a rule set
-- @tparam[opt] table opts the game's options
-- @treturn ?table
function described.normalised(rules, opts)
  local field = type(rules) == "table" and rules.described or nil
  if type(field) == "function" then return field(opts or {}) end
  if type(field) == "table" and type(field.normalised) == "function" then return field.normalised(opts or {}) end
  if type(field) == "table" and field.rows and field.cells then return field end
  return nil
end

--- A lockstep pair for a normalised table: { C = state, reference = state },
-- or nil when the C engine is not built (no core.dgame).
-- @tparam table normalised the normalised form
-- @treturn ?table the pair
function described.pair(normalised)
  if type(core.dgame) ~= "function" then return nil end
  return { C = core.dgame(normalised):start(), reference = reference.dgame(normalised):start(), checks = 0 }
end

-- The hooks the engines stand for: a rule set that replaces one of them is
-- no longer its description (the game goes its own way).
local ENGINE_HOOKS = { "moves", "play", "pass", "can_pass", "undo", "finished", "score" }

--- The pair for a soak game's rule set and options, or nil (not described,
-- a hook of the engines replaced, or no C engine).
-- @tparam table rules the rule set
-- @tparam[opt] table opts the game's options
-- @treturn ?table
function described.start(rules, opts)
  if type(rules) ~= "table" then return nil end
  for _, name in ipairs(ENGINE_HOOKS) do
    if rawget(rules, name) ~= nil then return nil end
  end
  local normalised = described.normalised(rules, opts)
  return normalised and described.pair(normalised)
end

local function same_moves(pair, moves)
  local list, count = pair.C:moves()
  if #moves ~= count then
    return ("the game lists %d moves, the engines %d"):format(#moves, count)
  end
  for j = 1, count do
    if moves[j] ~= list[j] then
      return ("the game's move %d is %s, the engines' %s"):format(j, tostring(moves[j]), pair.C:move_text(list[j]))
    end
  end
  return nil
end

local function agree(pair, when)
  local diff = compare.states(pair.C, pair.reference, NAMES)
  pair.checks = pair.checks + 1
  if diff then return ("%s, at ply %d:\n%s%s"):format(when, pair.C:ply(), tostring(pair.reference), diff) end
  return nil
end

local function apply(pair, choice)
  if choice == "pass" then return pair.C:pass(), pair.reference:pass() end
  return pair.C:play(choice), pair.reference:play(choice)
end

--- Checks the pair at a soak position and plays `choice` on it: the
-- engines agree with each other before the move, after it and after its
-- undo, and the game's own list (integers) is theirs. Returns nil, or
-- what differs.
-- @tparam table pair from described.start
-- @tparam table moves the game's legal moves (its `moves` hook)
-- @param choice the move played (an integer) or "pass"
-- @treturn ?string
function described.step(pair, moves, choice)
  local why = agree(pair, "before the move") or same_moves(pair, moves)
  if why then return why end
  local text = choice == "pass" and "pass" or pair.C:move_text(choice)
  local c, r = apply(pair, choice)
  if not c or not r then
    return ("%s: C says %s, the reference %s"):format(text, tostring(c), tostring(r))
  end
  why = agree(pair, "after " .. text)
  if why then return why end
  if pair.C:undo() ~= pair.reference:undo() then return "undo of " .. text .. ": the engines disagree" end
  why = agree(pair, "after undoing " .. text)
  if why then return why end
  apply(pair, choice)
  return nil
end

--- Checks the pair at the end of the game (both over, same result).
-- @tparam table pair from described.start
-- @treturn ?string
function described.finish(pair)
  local why = agree(pair, "at the end")
  if why then return why end
  if not pair.C:finished() then return "the game is over but the engines play on" end
  return nil
end

return described
