--- Issue 29's "today's Lua mcts" for Connect Four, as a policy file: the
-- Lua `mcts` of boardscript over a rule set file of hooks
-- (connect4_hooks.lua, next to this file), run on the position of the
-- described game (lua/examples/connect4.lua) it is handed, replayed column
-- by column; it answers with the described game's move in the column it
-- chose. Its options are mcts's `time` and `playouts`. Needs --trust (it
-- loads a file by path). Not part of boardscript: a measuring tool.
--
--     boardscript match --trust --rules lua/examples/connect4.lua --games 100 --seed 11 \
--       --a mcts:time=0.1 --b bench/issue29/lua_mcts_today.lua:time=0.1
local rules = require "boardscript.rules"
local game_mod = require "boardscript.game"
local mcts = require "boardscript.ai.mcts"

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local HOOKS = rules.load(here .. "connect4_hooks.lua")

local policy = {
  name = "lua-mcts-today",
  options = {
    time = { type = "number", min = 0, help = "seconds per move (processor time)" },
    playouts = { type = "integer", min = 1, help = "playouts per move" },
  },
}

local function column(text) return text:match("^%s*(%a)"):lower() end

function policy:choose(g, ctx)
  local r = HOOKS
  local s = r:setup()
  for _, entry in ipairs(g.log) do
    local col, played = column(entry.text), false
    for _, m in ipairs(r:moves(s)) do
      if r:move_text(m) == col then
        played = r:play(s, m)
        break
      end
    end
    assert(played, "cannot replay " .. tostring(entry.text))
  end
  local move = mcts.new(ctx.options):choose(game_mod.wrap(r, s, ctx.rng or g.rng), ctx)
  if move == nil then return nil end
  local col = r:move_text(move)
  for _, m in ipairs(g:moves()) do
    if column(g:move_text(m)) == col then return m end
  end
  error("no move in column " .. tostring(col))
end

return policy
