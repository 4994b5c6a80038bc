--- The C path of a rule set: its declaration that the C capture core
-- computes exactly what its hooks do (core_path.vouch, stored as
-- `core_count`), the description of its game for the core (core_game), and
-- whether perft counts it (counted_in_core) or the searchers play it
-- (searched_in_core) in C. A variant that replaces a vouched hook loses
-- the C path, so a user's override is never ignored. The registry
-- (boardscript.rules) re-exports these.
local core_path = {}

--- A declaration that `rules` is exactly what the C capture core computes
-- for the game its `core_game` method describes (with its own `legal_dirs`
-- and `flip_dirs`): it vouches for the hooks named, as they are now. A
-- variant that replaces any of them loses the C path (see `counted_in_core`
-- and `searched_in_core`), so a user's override is never ignored.
-- @tparam table rules the rule set declaring it
-- @tparam {string,...} hooks the names of the hooks vouched for
-- @treturn table the declaration, for `rules.core_count`
function core_path.vouch(rules, hooks)
  local vouched = {}
  for _, name in ipairs(hooks) do vouched[name] = rules[name] end
  return { hooks = vouched }
end

--- The hooks that shape the game tree (what perft counts).
core_path.TREE_HOOKS = { moves = true, has_moves = true, play = true, pass = true, can_pass = true, undo = true,
                 finished = true }

-- Whether every hook `core_count` vouches for (those of `only`, if given)
-- is still the rule set's.
local function vouched(rules, only)
  local declared = rules.core_count
  if type(declared) ~= "table" or type(declared.hooks) ~= "table" then return false end
  for name, hook in pairs(declared.hooks) do
    if (only == nil or only[name]) and rules[name] ~= hook then return false end
  end
  return true
end

--- The C description of the game (legal, flip, legal2, flip2,
-- second_after, pass, ending, turn_limit, misere: see core.searcher), or
-- nil when the rule set has no core declaration.
-- @tparam table rules a rule set
-- @tparam[opt] table state a state of it, passed to its `core_game`
-- @treturn ?table the description
function core_path.core_game(rules, state)
  if type(rules.core_count) ~= "table" or type(rules.core_game) ~= "function" then return nil end
  return rules:core_game(state)
end

--- Whether the C core's perft counts `rules`: its tree hooks are still the
-- ones its `core_count` declaration vouches for, and its game is standard
-- Reversi's shape (a pass only when stuck, over when neither side can move).
-- @tparam table rules a rule set
-- @treturn boolean
function core_path.counted_in_core(rules)
  if not vouched(rules, core_path.TREE_HOOKS) then return false end
  local game = core_path.core_game(rules)
  if game == nil then return true end
  return (game.pass or "stuck") == "stuck" and (game.ending or "no-moves") == "no-moves"
    and (game.second_after or 0) == 0
end

--- Whether the C searcher plays `rules` exactly: every hook vouched for
-- (the score and winner too) is still the rule set's, and it describes its
-- game (`core_game`).
-- @tparam table rules a rule set
-- @treturn boolean
function core_path.searched_in_core(rules)
  return vouched(rules) and type(rules.core_game) == "function"
end

--- Whether the moves of `rules` are what its `core_game` describes: its
-- tree hooks (moves, play, undo, ...) are still the ones its `core_count`
-- declaration vouches for. A variant that overrides one of them with a
-- hook of its own is not (its moves are whatever its Lua says).
-- @tparam table rules a rule set
-- @treturn boolean
function core_path.moves_in_core(rules)
  return vouched(rules, core_path.TREE_HOOKS) and core_path.core_game(rules) ~= nil
end

return core_path
