--- A game in progress: a rule set and its state, with the state contract
-- policies and scripts use (to_move, moves, play, pass, undo, clone,
-- finished, score).
local game = {}

local Game = {}
Game.__index = Game

--- game.new(rules, opts[, rng]) sets up a new game.
function game.new(rules, opts, rng)
  return game.wrap(rules, rules:setup(opts or {}), rng)
end

--- Wraps an existing state.
function game.wrap(rules, state, rng)
  return setmetatable({ rules = rules, state = state, rng = rng }, Game)
end

function Game:to_move() return self.state.player end
function Game:board() return self.state.board end
function Game:moves() return self.rules:moves(self.state) end
function Game:play(move) return self.rules:play(self.state, move) end
function Game:pass() return self.rules:pass(self.state) end
function Game:undo() return self.rules:undo(self.state) end
function Game:finished() return self.rules:finished(self.state) end
function Game:score() return self.rules:score(self.state) end

function Game:clone()
  return game.wrap(self.rules, self.rules:clone(self.state), self.rng)
end

return game
