--- Reversi positions solved exactly, as `boardscript solve reversi` and the
-- FFO scores count them: standard Reversi with the empty cells going to the
-- winner. Every value is the C core's: the searcher's solve for a position
-- with a move (a side with none but whose opponent has one gets "pass" and
-- the value after it from the solver itself), and the described game's
-- final value (game.c's bs_state_final_value, reached through
-- `searcher:position`) for a finished one.
local solve = {}

--- The game the core is told about: Reversi, the empties to the winner.
solve.GAME = { empties_to_winner = true }

--- The final margin of a finished position for `player`, as the core
-- computes it (discs, the empties to the winner); nil when the game is
-- not over.
-- @param searcher a core.searcher
-- @param board a core board (8 x 8 or any size the core takes)
-- @tparam string player "black" or "white"
-- @treturn ?integer the margin for `player`
function solve.final_margin(searcher, board, player)
  local position = searcher:position(board, player, { game = solve.GAME })
  return position.value
end

--- The evaluator that orders the solver's moves for `spec` (`--eval`):
-- "hand" (or nil where none is shipped) the hand ordering, a file from
-- `boardscript train` for 8 x 8 Reversi, nil the shipped one. Returns it
-- (nil: the hand ordering) and its words for a listing.
-- @tparam ?string spec the option's text
-- @return the evaluator or nil
-- @treturn string "the learned evaluation reversi-8.bse", "the hand ordering"
function solve.ordering(spec)
  local ev, meta = require("boardscript.evalfile").for_game(spec, "reversi", 8)
  if not ev then return nil, "the hand ordering" end
  return ev, "the learned evaluation " .. tostring(meta.path):match("[^/]*$")
end

--- Solves one position for the side to move: the best move, "pass" when
-- it has none but the opponent has, or "end" when neither has (the game
-- is over: its final margin, no search); then the margin for the side to
-- move and the search's info (exact, nodes, seconds, ...).
-- @param searcher a core.searcher
-- @tparam table pos { board =, player = } (as formats.obf reads them)
-- @tparam[opt] number time seconds before the solver gives up (0 or nil: never)
-- @param[opt] evaluator a core.evaluator that orders the moves (nil: the hand ordering)
-- @tparam[opt] integer threads threads solving together (1 .. 8; default 1)
-- @tparam[opt] {string,...} without techniques left out (core.searcher's `without`)
-- @return the move ({row, col}, "pass" or "end")
-- @treturn integer the margin
-- @treturn table the info
function solve.position(searcher, pos, time, evaluator, threads, without)
  local opts = { game = solve.GAME, time = time and time > 0 and time or nil, evaluator = evaluator,
                 threads = threads, without = without }
  local move, margin, info = searcher:solve(pos.board, pos.player, opts)
  if move ~= nil then return move, margin, info end
  return "end", solve.final_margin(searcher, pos.board, pos.player), { exact = true, nodes = 0, seconds = 0 }
end

return solve
