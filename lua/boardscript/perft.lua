--- perft: the number of leaves `depth` plies below a position, for any
-- rule set. The C core counts a rule set only when it declares that it is
-- exactly a capture rule set (`core_count`, see rules.vouch) of Reversi's
-- shape (rules.counted_in_core) and still has
-- every hook that declaration vouches for; anything else is counted over
-- its own hooks, so a variant's overrides always count.
--
-- Convention (Aart Bik's, as the Othello tables count): a finished
-- position is one leaf at any remaining depth; a pass is a ply. With
-- `terminal = 0` (the Ataxx and chess tables' convention) a finished game
-- above the last ply counts no leaf; that is counted over the hooks. Over
-- the hooks, a position's children are its moves, plus a pass when
-- `can_pass` allows one; the last ply is counted from that list, not
-- played.
--
-- A described game (boardscript.describe) counts with the other
-- convention: a finished game above the last ply is no leaf (its hooks
-- are counted so too, unless `terminal` says otherwise); while its tree
-- hooks are those its description yields (describe.in_core), the engine
-- counts it (`S:perft`).
local game_mod = require "boardscript.game"
local rules_mod = require "boardscript.rules"

local perft = {}

--- Leaves below `state` counted over the hooks of `rules` (the state is
-- restored with undo); `terminal` (default 1): the leaves a finished game
-- counts above the last ply.
-- @tparam table rules a rule set
-- @tparam table state a state of it (restored)
-- @tparam integer depth plies
-- @tparam[opt=1] integer terminal leaves a finished game counts above the last ply (1 or 0)
-- @treturn integer the leaves
function perft.hooks(rules, state, depth, terminal)
  if depth == 0 then return 1 end
  if rules:finished(state) then return terminal or 1 end
  local children = game_mod.choices(rules, state)
  if depth == 1 then return #children end
  local leaves = 0
  for _, choice in ipairs(children) do
    if game_mod.apply(rules, state, choice) then
      leaves = leaves + perft.hooks(rules, state, depth - 1, terminal)
      rules:undo(state)
    end
  end
  return leaves
end

--- Whether the C core counts `rules`.
-- @tparam table rules a rule set
-- @treturn boolean
function perft.in_core(rules)
  return rules_mod.counted_in_core(rules) or perft.described_in_core(rules)
end

--- Whether `rules` is a described game that its engine counts (its tree
-- hooks are still those its description yields).
-- @tparam table rules a rule set
-- @treturn boolean
function perft.described_in_core(rules)
  return type(rules) == "table" and type(rules.described) == "table"
    and require("boardscript.describe").in_core(rules)
end

-- The leaves a finished game counts above the last ply: as asked, else 0
-- for a described game and 1 for the others.
local function terminal_of(rules, opts)
  if opts.terminal ~= nil then return opts.terminal end
  return type(rules.described) == "table" and 0 or 1
end

--- How perft.count counts `rules` with `opts`: "core" or "hooks".
-- @tparam table rules a rule set
-- @tparam[opt] table opts as for perft.count
-- @treturn string "core" or "hooks"
function perft.how(rules, opts)
  opts = opts or {}
  if opts.hooks then return "hooks" end
  if perft.described_in_core(rules) then return terminal_of(rules, opts) == 0 and "core" or "hooks" end
  if opts.terminal == 0 or not perft.in_core(rules) then return "hooks" end
  return "core"
end

--- Leaves `depth` plies below `state`: the count, and "core" or "hooks"
-- (how it was counted). opts.generic forces the core's multi-word path;
-- opts.hooks forces the count over the hooks; opts.terminal = 0 counts a
-- finished game above the last ply as no leaf (over the hooks).
-- @tparam table rules a rule set
-- @tparam table state a state of it
-- @tparam integer depth plies
-- @tparam[opt] table opts { generic =, hooks =, terminal = }
-- @treturn integer the leaves
-- @treturn string "core" or "hooks"
function perft.count(rules, state, depth, opts)
  opts = opts or {}
  if perft.how(rules, opts) == "core" then
    if perft.described_in_core(rules) then return state.board:perft(depth), "core" end
    return state.board:perft(state.player, depth, {
      legal = rules.legal_dirs, flip = rules.flip_dirs, generic = opts.generic,
    }), "core"
  end
  return perft.hooks(rules, state, depth, terminal_of(rules, opts)), "hooks"
end

--- Like perft.count, but position by position below the root, calling
-- progress(done, total, leaves so far) after each root child (a long count
-- can report how far it is). Same result as perft.count.
-- @tparam table rules a rule set
-- @tparam table state a state of it (restored)
-- @tparam integer depth plies
-- @tparam[opt] table opts as for perft.count
-- @tparam[opt] function progress called with (done, total, leaves so far)
-- @treturn integer the leaves
-- @treturn string "core" or "hooks"
function perft.count_by_root(rules, state, depth, opts, progress)
  if depth == 0 or rules:finished(state) then return perft.count(rules, state, depth, opts) end
  local children = game_mod.choices(rules, state)
  local leaves, how = 0, perft.how(rules, opts)
  for i, child in ipairs(children) do
    if game_mod.apply(rules, state, child) then
      local n
      n, how = perft.count(rules, state, depth - 1, opts)
      leaves = leaves + n
      rules:undo(state)
    end
    if progress then progress(i, #children, leaves) end
  end
  return leaves, how
end

return perft
