--- perft: the number of leaves `depth` plies below a position, for any
-- rule set. The C core counts a rule set only when it declares that it is
-- exactly a capture rule set (`core_count`, see rules.vouch) of Reversi's
-- shape (rules.counted_in_core) and still has
-- every hook that declaration vouches for; anything else is counted over
-- its own hooks, so a variant's overrides always count.
--
-- Convention (Aart Bik's): a finished position is one leaf at any remaining
-- depth; a pass is a ply. Over the hooks, a position's children are its
-- moves, plus a pass when `can_pass` allows one.
local rules_mod = require "boardscript.rules"

local perft = {}

--- Leaves below `state` counted over the hooks of `rules` (the state is
-- restored with undo).
function perft.hooks(rules, state, depth)
  if depth == 0 or rules:finished(state) then return 1 end
  local leaves = 0
  for _, choice in ipairs(rules_mod.children(rules, state)) do
    if rules_mod.apply(rules, state, choice) then
      leaves = leaves + perft.hooks(rules, state, depth - 1)
      rules:undo(state)
    end
  end
  return leaves
end

--- Whether the C core counts `rules`.
function perft.in_core(rules)
  return rules_mod.counted_in_core(rules)
end

--- Leaves `depth` plies below `state`: the count, and "core" or "hooks"
-- (how it was counted). opts.generic forces the core's multi-word path;
-- opts.hooks forces the count over the hooks.
function perft.count(rules, state, depth, opts)
  opts = opts or {}
  if not opts.hooks and perft.in_core(rules) then
    return state.board:perft(state.player, depth, {
      legal = rules.legal_dirs, flip = rules.flip_dirs, generic = opts.generic,
    }), "core"
  end
  return perft.hooks(rules, state, depth), "hooks"
end

--- Like perft.count, but position by position below the root, calling
-- progress(done, total, leaves so far) after each root child (a long count
-- can report how far it is). Same result as perft.count.
function perft.count_by_root(rules, state, depth, opts, progress)
  if depth == 0 or rules:finished(state) then return perft.count(rules, state, depth, opts) end
  local children = rules_mod.children(rules, state)
  local leaves, how = 0, (opts and opts.hooks or not perft.in_core(rules)) and "hooks" or "core"
  for i, child in ipairs(children) do
    if rules_mod.apply(rules, state, child) then
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
