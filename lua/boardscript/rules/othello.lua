--- "The Tragedy of Othello" (seed 002): Reversi with the seed's loose
-- validity. Any empty cell may be played (it flips whatever it traps, maybe
-- nothing) and a pass is always allowed; the game ends only when a pass
-- follows the other player's pass. `othello.strict` keeps the explicit
-- passes but uses standard legality.
local rules = require "boardscript.rules"
local reversi = require "boardscript.rules.reversi"

-- legal_dirs = "none" is the core's "any empty cell is playable".
local othello = rules.variant(reversi, {
  name = "othello", legal_dirs = "none",
  description = "Reversi with the loose rules of the seed program: Black and White take turns placing a disc of their "
    .. "colour, Black first, on an 8 x 8 board that starts with two discs each in the centre. A move is any empty "
    .. "cell, such as d3 (column letter, row number); it flips every straight line of the opponent's discs it traps "
    .. "between it and another disc of yours, in all eight directions, and may flip nothing at all. You may pass "
    .. "whenever you like. The game ends when a player passes right after the other player passed, and the one with "
    .. "more discs wins.",
})

--- Whether the player to move may pass now: always, in the loose rules.
function othello:can_pass(_state)
  return true
end

--- A pass is a move the player chooses here, so it is refused when not allowed.
-- Returns true, or nil and why not.
function othello:pass(state)
  if not self:can_pass(state) then return nil, "a move is possible" end
  reversi.pass(self, state)
  return true
end

--- Over when a pass follows the other player's pass (the board need not be full).
function othello:finished(state)
  return state.passes >= 2
end

--- The seed's "value of the board": +1 per black disc, -1 per white disc.
function othello:value(state)
  local black, white = self:score(state)
  return black - white
end

function othello:winner(state)
  local value = self:value(state)
  if value > 0 then return "black" elseif value < 0 then return "white" end
  return "draw"
end

--- Standard legality: a move must flip, and a pass is accepted only when
-- the player has no move.
othello.strict = rules.variant(othello, {
  name = "othello-strict", legal_dirs = "all",
  description = "Othello with the standard rule for a move: Black and White take turns placing a disc of their colour, "
    .. "Black first, on an 8 x 8 board that starts with two discs each in the centre. A move is an empty cell, such as "
    .. "d3 (column letter, row number), that traps at least one straight line of the opponent's discs between it and "
    .. "another disc of yours; every disc so trapped, in all eight directions, flips to your colour. You pass only "
    .. "when you have no such move. The game ends when both players pass in a row, and the one with more discs wins.",
})

function othello.strict:can_pass(state)
  return not self:has_moves(state)
end

--- The game as the C core describes it: any empty cell (legal "none") and a
-- pass at any time, over after two passes in a row; strict: moves must
-- flip and a pass only when stuck.
function othello:core_game()
  return { legal = self.legal_dirs, flip = self.flip_dirs, pass = "anytime", ending = "two-passes-only" }
end

function othello.strict:core_game()
  return { legal = self.legal_dirs, flip = self.flip_dirs, pass = "stuck", ending = "two-passes-only" }
end

local HOOKS = { "moves", "has_moves", "play", "pass", "can_pass", "undo", "finished", "score", "winner", "value" }
othello.core_count = rules.vouch(othello, HOOKS)
othello.strict.core_count = rules.vouch(othello.strict, HOOKS)

-- Loaded by name as "othello-strict" (boardscript.rules.othello_strict).

return othello
