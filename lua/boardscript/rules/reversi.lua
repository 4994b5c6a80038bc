--- Standard Reversi over the capture core: every direction traps and flips.
-- State: { board = core board, player = "black"|"white", passes = number of
-- passes in a row, history = moves and "pass" marks for undo }.
-- Moves are { row, col } tables, 1-based; the family "board" supplies the
-- notation (`f5`), the board text, score (disc counts), winner and clone.
local core = require "boardscript.core"
local rules = require "boardscript.rules"

local reversi = {
  name = "reversi",
  description = "Black and White take turns placing a disc of their colour, Black first, on an 8 x 8 board (option "
    .. "size: any even size; rows and cols: a rectangle) that starts with two discs each in the centre. A move is "
    .. "an empty cell, such as d3 (column letter, row number), that traps a straight line of the opponent's discs "
    .. "between it and another disc of yours, across, down or diagonally; every disc so trapped, in all eight "
    .. "directions, flips to your colour. A player with no such move must pass. The game ends when neither player can "
    .. "move, and the one with more discs wins.",
  score_unit = "discs", -- what the score counts: the match summary's unit
  size = 8,
  legal_dirs = "all", -- where a move must trap to be legal
  flip_dirs = "all",  -- where it flips
  centre = "white",   -- colour on the top-left and bottom-right centre cells
  options = {
    size = { type = "integer", min = 2, max = 26, even = true, help = "board size (even)" },
    rows = { type = "integer", min = 2, max = 26, even = true,
             help = "rows, when not size (even; --size RxC sets rows and cols)" },
    cols = { type = "integer", min = 2, max = 26, even = true,
             help = "columns, when not size (even; --size RxC sets rows and cols)" },
    centre = { type = "string", choices = { "white", "black" },
               help = "colour on the top-left and bottom-right centre cells" },
  },
}

local opponent = require("boardscript.families.board").opponent

reversi.opponent = opponent

--- opts.size (even), opts.rows and opts.cols (even: a rows x cols board;
-- each size by default), opts.centre; the rule set's own fields by default.
function reversi:setup(opts)
  opts = opts or {}
  local n = opts.size or self.size
  local board = core.board(opts.rows or self.rows or n, opts.cols or self.cols or n)
  local h, w = board:rows() // 2, board:cols() // 2
  local centre = opts.centre or self.centre
  board:set(h, w, centre)
  board:set(h + 1, w + 1, centre)
  board:set(h, w + 1, opponent(centre))
  board:set(h + 1, w, opponent(centre))
  return { board = board, player = "black", passes = 0, history = {} }
end

function reversi:moves(state)
  return state.board:moves(state.player, self.legal_dirs)
end

function reversi:has_moves(state, player)
  return state.board:has_moves(player or state.player, self.legal_dirs)
end

--- Plays `move` for the player to move: returns the number flipped, or nil
-- and a message (the state unchanged) when it is not legal.
function reversi:play(state, move)
  if type(move) ~= "table" or not rules.on_board(state.board, move[1], move[2]) then
    return nil, "off the board"
  end
  local flipped, err = state.board:play(state.player, move[1], move[2], self.legal_dirs, self.flip_dirs)
  if not flipped then
    if state.board:get(move[1], move[2]) ~= "empty" then return nil, "occupied" end
    return nil, err == "illegal move" and "flips nothing" or err
  end
  state.history[#state.history + 1] = { move = move, passes = state.passes }
  state.passes = 0
  state.player = opponent(state.player)
  return flipped
end

--- A player may pass only when it has no legal move.
function reversi:can_pass(state)
  return not self:has_moves(state)
end

--- Passes: true, or nil and why not (the state unchanged).
function reversi:pass(state)
  if not self:can_pass(state) then return nil, "a move is possible" end
  state.history[#state.history + 1] = { pass = true, passes = state.passes }
  state.passes = state.passes + 1
  state.player = opponent(state.player)
  return true
end

--- Takes back the last move or pass; false when there is none.
function reversi:undo(state)
  local last = table.remove(state.history)
  if not last then return false end
  if not last.pass then state.board:undo() end
  state.passes = last.passes
  state.player = opponent(state.player)
  return true
end

--- The game is over when neither player can move.
function reversi:finished(state)
  return not self:has_moves(state, "black") and not self:has_moves(state, "white")
end

--- The game as the C core describes it (perft and the alphabeta searcher).
function reversi:core_game()
  return { legal = self.legal_dirs, flip = self.flip_dirs, pass = "stuck", ending = "no-moves" }
end

rules.define(reversi, "rules reversi")

--- These hooks (and has_moves, which can_pass and finished call), with the
-- rule set's legal_dirs and flip_dirs, are exactly what the C core computes
-- (perft counts the tree hooks; the searcher also needs score and winner);
-- a variant replacing any of them is counted and searched over its hooks.
reversi.core_count = rules.vouch(reversi,
  { "moves", "has_moves", "play", "pass", "can_pass", "undo", "finished", "score", "winner" })

return reversi
