--- FlipFlop (seed 004), written the way a user writes a variant: a table of
-- rule hooks over the capture core.
--
-- A turn places up to two pieces. The first must trap along a row or column;
-- if it captures two or more, the player may add a second piece, which must
-- trap along a diagonal. Every piece, once placed, captures in all eight
-- directions. White moves first. The game ends after N*N turns, or when two
-- turns in a row could not place a first piece.
--
-- State: { board, player, piece = 1 or 2 (the piece about to be placed),
-- turns = turns finished, unable = unable-to-move turns in a row, history }.
-- Moves are { row, col } tables, 1-based.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local rules = require "boardscript.rules"

local flipflop = {
  name = "flipflop",
  description = "White and Black take turns, White first, on an 8 x 8 board (option size) that starts with two pieces "
    .. "each in the centre. A turn places up to two pieces. The first goes on an empty cell, such as d6 (column "
    .. "letter, row number), and must trap a line of the opponent's pieces between it and one of yours along a row or "
    .. "a column; if it captures two or more, you may place a second piece, which must trap along a diagonal, or pass "
    .. "to decline it. Every piece placed captures, turning to your colour, the opponent's pieces it traps in all "
    .. "eight directions. A player whose first piece cannot be placed passes. The game ends after N x N turns (64 on 8 "
    .. "x 8) or two such passes in a row, and the one with more pieces wins.",
  score_unit = "pieces", -- what the score counts: the match summary's unit
  size = 8,
  options = {
    size = { type = "integer", min = 4, max = 26, even = true, help = "board size (even; the seed's 8..24)" },
  },
  attempts = 3, -- tries a player gets for each piece before forfeiting

  -- What each piece of a turn must trap to be legal, and what it captures.
  pieces = {
    { legal_dirs = "orthogonal", flip_dirs = "all" },
    { legal_dirs = "diagonal", flip_dirs = "all" },
  },
  second_piece_after = 2, -- captures the first piece needs to earn a second
}

local opponent = require("boardscript.families.board").opponent

flipflop.opponent = opponent

--- opts.size: even, 8..24 in the seed (any size the core holds works here).
function flipflop:setup(opts)
  local n = (opts and opts.size) or self.size
  local board = core.board(n)
  local h = n // 2
  board:set(h, h, "white")
  board:set(h + 1, h + 1, "white")
  board:set(h, h + 1, "black")
  board:set(h + 1, h, "black")
  return { board = board, player = "white", piece = 1, turns = 0, unable = 0, history = {} }
end

-- The legality rule of the piece about to be placed.
local function current(self, state)
  return self.pieces[state.piece]
end

--- Checked when the rule set loads: each piece's direction sets.
function flipflop:check()
  if type(self.pieces) ~= "table" or #self.pieces < 1 then return "field 'pieces' must list the pieces of a turn" end
  for i, piece in ipairs(self.pieces) do
    for _, field in ipairs { "legal_dirs", "flip_dirs" } do
      local ok, why = core.directions(piece[field])
      if not ok then
        return ("field 'pieces[%d].%s' is %s: %s"):format(i, field, errors.describe(piece[field]), why)
      end
    end
  end
  return nil
end

--- Squares where the piece about to be placed is legal.
function flipflop:moves(state)
  return state.board:moves(state.player, current(self, state).legal_dirs)
end

function flipflop:has_moves(state)
  return state.board:has_moves(state.player, current(self, state).legal_dirs)
end

--- Why `move` cannot be played now: "off the board", "occupied" or
-- "illegal"; nil when it can. The edition turns these into the seed's errors.
function flipflop:why_not(state, move)
  if type(move) ~= "table" then return "off the board" end
  local row, col = move[1], move[2]
  if not rules.on_board(state.board, row, col) then return "off the board" end
  if state.board:get(row, col) ~= "empty" then return "occupied" end
  if not state.board:legal(state.player, row, col, current(self, state).legal_dirs) then
    return "illegal"
  end
  return nil
end

-- Remembers what undo must restore, before the state changes.
local function remember(state, entry)
  entry.player, entry.piece, entry.turns, entry.unable = state.player, state.piece, state.turns, state.unable
  state.history[#state.history + 1] = entry
end

-- Closes the turn: the other player is next, with a first piece to place.
local function end_turn(state, unable)
  state.turns = state.turns + 1
  state.unable = unable and state.unable + 1 or 0
  state.player = opponent(state.player)
  state.piece = 1
end

--- Places the current piece: returns the number captured, or nil and the
-- reason (see why_not). A first piece that captures enough leaves the turn
-- open for a second piece (take it with play, decline with pass); otherwise
-- the turn is over.
function flipflop:play(state, move)
  local why = self:why_not(state, move)
  if why then return nil, why end
  local rule = current(self, state)
  remember(state, { move = move })
  local captured = state.board:play(state.player, move[1], move[2], rule.legal_dirs, rule.flip_dirs)
  if state.piece == 1 and captured >= self.second_piece_after then
    state.piece = 2
  else
    end_turn(state, false)
  end
  return captured
end

--- A player may choose to pass (decline) a second piece, or pass when no
-- first piece is legal. (The edition also ends a turn with `pass` when a
-- player forfeits after three failed attempts.)
function flipflop:can_pass(state)
  return state.piece == 2 or not self:has_moves(state)
end

--- Ends the turn without (more) pieces: the player could not move, forfeited
-- a piece, or declined the second piece. Only a turn in which no first piece
-- was legal counts towards the two-in-a-row ending.
function flipflop:pass(state)
  local unable = state.piece == 1 and not self:has_moves(state)
  remember(state, { pass = true })
  end_turn(state, unable)
  return true
end

--- Whether the player has placed a first piece and may place a second.
function flipflop:second_piece_allowed(state)
  return state.piece == 2
end

--- Takes back the last piece or pass; false when there is none.
function flipflop:undo(state)
  local last = table.remove(state.history)
  if not last then return false end
  if not last.pass then state.board:undo() end
  state.turns, state.unable = last.turns, last.unable
  state.player, state.piece = last.player, last.piece
  return true
end

function flipflop:turn_limit(state)
  local n = state.board:size()
  return n * n
end

function flipflop:finished(state)
  return state.turns >= self:turn_limit(state) or state.unable >= 2
end

--- The game as the C core describes it: two pieces a turn, a pass when no
-- first piece is legal or to decline the second, over after the turn limit
-- or two turns in a row without a first piece.
function flipflop:core_game(state)
  local first, second = self.pieces[1], self.pieces[2] or self.pieces[1]
  return {
    legal = first.legal_dirs, flip = first.flip_dirs, legal2 = second.legal_dirs, flip2 = second.flip_dirs,
    second_after = self.pieces[2] and self.second_piece_after or 0, pass = "stuck", ending = "turns",
    turn_limit = state and self:turn_limit(state) or 0,
  }
end

-- Score (piece counts, black then white), winner and clone come from the
-- "board" family.
rules.define(flipflop, "rules flipflop")
flipflop.core_count = rules.vouch(flipflop,
  { "moves", "has_moves", "play", "pass", "can_pass", "undo", "finished", "score", "winner", "turn_limit" })
return flipflop
