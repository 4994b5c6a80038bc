-- Described games for the learned-evaluation specs: a position after some
-- moves, and a trainer fed with random games (dgame_train_spec,
-- dgame_share_spec).
local core = require "boardscript.core"
local compile = require "boardscript.describe.compile"

local M = {}

--- A state of the described game in the rule set file `path` after the moves `texts` (space separated).
function M.position(path, texts, opts)
  local S = compile.game(require("boardscript.rules").load(path), opts or {}):start()
  for text in (texts or ""):gmatch("%S+") do assert(S:play(assert(S:parse_move(text), text))) end
  return S
end

--- A trainer of E fed with `games` random games from S0, every position labelled by the result for its
-- side to move (1, 0, -1); with `holdout_every`, each game whose number it divides is held out.
function M.random_trainer(E, S0, games, seed, holdout_every)
  local T = E:trainer()
  local rng = core.rng(seed)
  for g = 1, games do
    local S = S0:clone()
    local seen = {}
    while not S:finished() do
      seen[#seen + 1] = S:clone()
      local list, n = S:moves()
      assert(S:play(list[rng:random(n)]))
    end
    local status = S:status()
    for _, p in ipairs(seen) do
      T:add(p, status == "draw" and 0 or (status == p:player() and 1 or -1),
        holdout_every ~= nil and g % holdout_every == 0)
    end
  end
  return T
end

return M
