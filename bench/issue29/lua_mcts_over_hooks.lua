--- The Lua `mcts` over a described game's own hooks, as a policy file: the
-- rule set it is handed, copied with its `finished` hook wrapped (so
-- boardscript.describe's `in_core` is false and mcts runs its Lua tree and
-- playouts over the hooks, one C call each, not the C search). Stronger
-- at equal time than issue 29's "today's Lua mcts" over a file of hooks
-- written in Lua (lua_mcts_today.lua, Connect Four only): it plays any
-- described game. Options: mcts's `time` and `playouts`. Not part of
-- boardscript: a measuring tool.
--
--     boardscript match --trust --rules lua/examples/breakthrough.lua --games 100 --seed 11 \
--       --a alphabeta:time=0.1 --b bench/issue29/lua_mcts_over_hooks.lua:time=0.1
local game_mod = require "boardscript.game"
local mcts = require "boardscript.ai.mcts"

local policy = {
  name = "lua-mcts-over-hooks",
  options = {
    time = { type = "number", min = 0, help = "seconds per move (processor time)" },
    playouts = { type = "integer", min = 1, help = "playouts per move" },
  },
}

local copies = setmetatable({}, { __mode = "k" })

local function over_hooks(rules)
  local r = copies[rules]
  if r then return r end
  r = setmetatable({}, { __index = rules })
  local finished = rules.finished
  r.finished = function(_, s) return finished(rules, s) end
  copies[rules] = r
  return r
end

function policy:choose(g, ctx)
  local r = over_hooks(g.rules)
  return mcts.new(ctx.options):choose(game_mod.wrap(r, g.state, ctx.rng or g.rng), ctx)
end

return policy
