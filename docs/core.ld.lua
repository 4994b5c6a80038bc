--- The C core, as the Lua 5.4 module `boardscript.core` (src/lua/*.c).
--
-- This file is for LDoc only: it documents the functions and methods the
-- binding defines in C. Rows and columns are 1-based; a misused argument
-- raises ("bad argument #2 to 'play' (row out of range 1..8)"), while an
-- expected failure returns nil (fail) and a message.
--
-- The module sets no global and loads into stock `lua5.4`:
--
--     LUA_CPATH='build/lib/?.so;;' lua5.4 -e 'print(require "boardscript.core".version)'
--
-- @module boardscript.core

--- The engine's version string (such as "0.1.0").
-- @field version

--- What this copy of the engine was compiled for, and which 8 x 8 path runs
-- (a table): `flags` (the architecture flags, `"-march=native"` in the default
-- build, `""` in the portable one), `avx512` (compiled with AVX-512),
-- `vector` (`"avx2"` or `"portable"`: what runs on this CPU) and `chosen`
-- (`"build"`: fixed by the compiler flags; `"run"`: asked of the CPU).
-- @field build

--- A new empty board of `n` x `n` cells, or of `rows` x `cols`.
-- Cells are "empty", "black", "white" or "block" (a cell nobody plays and
-- no line runs through). Boards of any size are bitset planes; 8 x 8 takes
-- a 64-bit fast path. A rows x cols board is held as a square of side
-- max(rows, cols) whose cells past its rows and columns are walls: every
-- move generator, perft, search and evaluation of the core works on it
-- (6 x 8 and 8 x 6 take the 8 x 8 path), and only its cells are seen
-- (`get`, `set`, `count`, `cells` and `tostring` know nothing past them).
-- A shape out of range raises naming the argument; it is never another board.
-- @function board
-- @int n the size (or the rows), 1..26
-- @int[opt] cols the columns, 1..26 (default n)
-- @treturn board
-- @usage local b = core.board(8)
-- local connect = core.board(6, 7) -- 6 rows, 7 columns

--- The direction names in a direction set, or nil and what is wrong with it.
-- A direction set is "all", "orthogonal", "diagonal", "none" (any empty
-- cell is playable) or a list of names from n, ne, e, se, s, sw, w, nw
-- (n is towards row 1, e towards the last column). Rule sets are checked
-- with it when they load.
-- @function directions
-- @param set a direction set
-- @treturn {string,...} the names, e.g. {"n", "e", "s", "w"} for "orthogonal"
-- @usage assert(core.directions("diagonal")[1] == "ne")

--- A seeded random generator (xoshiro256**, seeded through splitmix64), so a
-- seeded game replays identically on every machine.
-- @function rng
-- @int[opt=0] seed an integer (a float with an integral value is accepted)
-- @treturn rng

--- A new Dots and Boxes position: an empty grid of `rows` x `cols` boxes,
-- player 1 to move.
-- Dots are (row, column) from (1, 1) at the top left to (rows + 1, cols + 1);
-- boxes (row, column) from (1, 1) to (rows, cols). An edge is its two dots,
-- one edge apart: four integers `r1, c1, r2, c2` or one table
-- `{r1, c1, r2, c2}`, in either order; edges handed back always put the
-- smaller dot first. Players are 1 (moves first) and 2.
-- @function dots
-- @int rows 1..16
-- @int cols 1..16
-- @treturn dots

--- An exact Dots and Boxes solver whose transposition table is kept from call
-- to call, so asking move after move reuses work.
-- @function dots_solver
-- @tab[opt] opts `tt_mb` (table size in MiB, 1..65536; default the core's),
-- `nodes` (nodes per call; 0 or absent: none), `time` (seconds of CPU
-- time per call, the clock of `--max-seconds`; 0 or absent: none; the
-- searcher's `time` counts wall time), `progress` (a function(nodes, lo, hi)
-- called with the nodes of the call so far and the bounds on the value
-- proved so far; an error in it, or a yield, stops the search and the call
-- raises it; it must not use this solver but to read `nodes`: `value`,
-- `best` and `close` raise "busy"), `progress_interval` (CPU seconds between
-- progress calls, default 1; 0: at every poll, every 4096 nodes). A call's
-- own `progress` and `progress_interval` win over these. The former names
-- `node_limit` and `seconds` raise ("field 'node_limit' is now 'nodes'").
-- @treturn dots_solver

--- A described game (issue 29), compiled from its normalised table (what
-- `boardscript.describe`'s `normalize` returns: contract section 2 in
-- docs/decisions.md "Described games"). Errors name the field:
-- "core.dgame: field 'rules'[2] 'op': unknown op \"jump\"". Boards up to
-- 26 x 26, 8 kinds, 31 rules, chains of 11 hops, 8192 moves a position.
-- @function dgame
-- @tab normalised the normalised description
-- @treturn dgame
-- @usage local S = core.dgame(normalised):start(); print(S:perft(4))

--- What a value is, as `io.type` tells files: the type name of an object
-- of this module ("board", "rng", "dots", "cursor", "searcher",
-- "dots_solver", "evaluator", "trainer", "dgame", "dgame_state", "dgame_eval",
-- "dgame_trainer" or "dgame_searcher"), "closed " and the name for a
-- closed one ("closed board"), or nil (fail) for any other value. The test
-- is the registry's own metatable (`luaL_testudata`), so a table whose
-- metatable says `__name = "boardscript.board"` is not a board.
-- @function type
-- @param x any value
-- @treturn ?string the type name, or nil
-- @usage if core.type(d) ~= "dots" then error("Dots and Boxes only") end

--- Seconds of a monotonic wall clock (only differences mean anything), for
-- time budgets measured in real time.
-- @function clock
-- @treturn number

--- An alpha-beta searcher and exact solver for capture games, with its own
-- transposition table (kept from call to call) and evaluation weights.
-- @function searcher
-- @tab[opt] opts `tt_mb` (table size in MiB, 1..65536, default 16),
-- `weights` (a table of evaluation weights, see `searcher:weights`)
-- @treturn searcher

--- Plays one random game to the end in C from a position, without
-- changing the board (the game is played on a copy), and returns how it
-- ended. The policy: a finished game stops; with no legal move the player
-- passes; otherwise, when `pass_odds` > 0, a number below it is drawn and 0
-- passes where the rules allow a pass; else the move is the k-th legal move
-- row by row, k drawn below their number (as `rng:random(n)` picks from
-- `board:move_list`). These are the draws, in the same order, of the `mcts`
-- policy's playouts over a rule set's hooks, which use it for the rule sets
-- the core searches. Standard 8 x 8 Reversi takes a 64-bit path.
-- @function playout
-- @tparam board b the position
-- @string player "black" or "white", to move
-- @tparam rng rng the generator the moves are drawn from
-- @tab[opt] opts `game` and the state fields (`passes`, `piece`, `turns`,
-- `unable`), as for a `searcher` (default: standard Reversi); `limit`, the
-- most plies to play (0..1000000, default twice the cells: the position as
-- it stands then is the result); `pass_odds` (0..1000000, default 0)
-- @treturn int black's discs at the end
-- @treturn int white's discs
-- @treturn int plies played (passes included)
-- @treturn string the winner by the described game's rules: "black",
-- "white" or "draw"
-- @usage local black, white, plies, winner = core.playout(b, "black", core.rng(1))

--- A cursor: a copy of the position, walked one move at a time, each move
-- picked by its number among the legal ones (see the `cursor` type).
-- @function cursor
-- @tparam board b the position (copied: later changes to `b` do not reach the cursor)
-- @string player "black" or "white", to move
-- @tab[opt] opts `game` and the state fields, as for `playout`
-- @treturn cursor
-- @usage local c = core.cursor(b, "black")
-- local n = c:count()
-- while n > 0 do n = c:play(rng:random(n)) end

--- A learned evaluation with zero weights, or one read from a file.
-- With a table: a new n-tuple evaluation (in the manner of Logistello and
-- Edax) for `rows` x `cols` boards, its patterns (edges with their X cells,
-- rows and columns near the edges, corner-cutting diagonals, corner regions)
-- made from the geometry alone, on the board's cells only; the images of a
-- pattern under the maps of its `symmetry` group share one table (tied, so
-- the value is the same on a position and its image), the others have their
-- own; each game phase (by the discs on the board)
-- has its own tables, a bias and the weights of the scalar features. Fit it
-- with a `trainer`, keep it with `evaluator:save`, search with it through
-- the searcher's `evaluator` option.
-- With a string: the evaluation saved in the file at that path (read whole,
-- at most 64 MiB). Every failure raises naming argument 1 and the file:
-- "bad argument #1 to 'evaluator' (cannot open PATH: No such file or
-- directory)", "(cannot load PATH: not an evaluation file)". A restricted
-- file (a rule set or policy run without `--trust`) reads only files in its
-- own directory and below, as its `io.open` does.
-- @function evaluator
-- @param opts a table: `size` (3..26, default 8; by default the larger of
-- `rows` and `cols`, which it must be), `rows` and `cols` (3..26, default
-- `size`), `symmetry` (a group: "none", "mirror", "flip", "rotate180" or
-- "square", every map of the shape, the default; or a list of maps, the
-- group they generate: "identity", "mirror", "flip", "rotate180" and, on a
-- square, "transpose", "antitranspose", "rotate90", "rotate270"), `phases` (1..64; 0 or
-- absent: by the size, a phase for each 6 cells, 1 to 12), `features` ("all",
-- the default, "none" or a list of "mobility" (legal moves), "potential"
-- (empty cells next to the opponent's discs), "parity" (an odd number of
-- empty cells) and "anchored" (discs on cells nothing can flip)), `mobility`
-- (the direction set of the game's legal moves, for the mobility feature;
-- default "all"); or a string, the path of a saved evaluation
-- @treturn evaluator
-- @treturn string with a path: the file's meta text (see `evaluator:save`)
-- @usage local ev = core.evaluator { size = 6, phases = 4 }
-- local wide = core.evaluator { rows = 6, cols = 8, symmetry = "mirror" }
-- local saved, meta = core.evaluator("reversi6.eval")

--- An evaluation from the bytes `evaluator:save` wrote. Bytes that are not
-- one (another format, another version, a truncated or damaged file, patterns
-- of another generator) give nil and the reason, never a half-read evaluator.
-- @function evaluator_load
-- @string bytes
-- @treturn evaluator
-- @treturn string the meta text saved with it
-- @return or nil and what is wrong ("a truncated or damaged file", ...)

--- A trainer fitting the weights of `ev` to positions added to it. While
-- the trainer lives (until it is closed or collected) `ev` cannot close:
-- `close` raises "cannot close an evaluator a trainer is fitting".
-- @function trainer
-- @tparam evaluator ev the evaluation to fit
-- @treturn trainer
-- @usage local tr = core.trainer(ev)
-- tr:add(b, "black", 12)       -- black to move won by 12 discs
-- tr:add(c, "white", -4, true) -- held out, to measure
-- local result = tr:fit { iterations = 20 }

--- The largest number of edges the solver takes (64).
-- @field dots_solver_max_edges

--- A new learned evaluation of a described game (n-tuples over the cells,
-- src/core/dgame_ntuple.c), every weight zero: windows of `length` cells
-- along rows, columns and both diagonals, and 2 x 2 squares, one table per
-- window and phase (and side to move, with `sides` 2), each cell read from the
-- side to move; per phase a bias, a weight per kind and one for the
-- hand-written evaluation.
-- @function dgame_eval
-- @param S a state of the game (`core.dgame(...):start()`): its shape
-- @tab[opt] opts `length` (1..6, default 4 or less on a small board),
-- `phases` (1..16, default 1), `squares` (boolean), `hand_scale` (the
-- hand-written value h is read as h / (|h| + hand_scale); default 100),
-- `sides` (1: both sides to move read the same weights, the default; 2: each
-- has its own)
-- @return the evaluation E
-- @raise for a shape with too many weights or no window

--- A searcher of described games whose transposition table is kept from
-- search to search (`dgame_state:search`'s `searcher` option): a player's
-- moves of one game share what the last search found. The table is
-- emptied when a search comes with another game, another learned
-- evaluation, other `values`, `quiescence` or `forcing`.
-- @function dgame_searcher
-- @tab[opt] opts `tt_mb` (the table in MiB, 1..4096, default 16)
-- @treturn dgame_searcher

--- Reads what `E:save()` wrote.
-- @function dgame_eval_load
-- @string bytes the bytes
-- @return the evaluation, or nil and why (a damaged or cut string, another format)

--- A capture-game board (userdata "boardscript.board"). It keeps the plays
-- made with `play` so `undo` can take them back; editing a cell with `set`
-- forgets that history.
-- `tostring(b)` is the grid, one line per row: `.` empty, `X` black, `O`
-- white, `#` block. `a == b` compares the cells.
-- A `<close>` variable (or calling `__close` or `__gc` by hand, safe twice)
-- frees the undo history and closes the board: every method, and passing it
-- where a board is an argument, then raises "attempt to use a closed board";
-- `tostring` gives "board (closed)".
-- @type board

--- The size n of an n x n board; of a rows x cols one, max(rows, cols)
-- (the side cell indices count by: `move_list` and `play_index` number a
-- cell (row - 1) * size + col).
-- @function board:size
-- @treturn int

--- The rows of the board.
-- @function board:rows
-- @treturn int

--- The columns of the board.
-- @function board:cols
-- @treturn int

--- The contents of a cell.
-- @function board:get
-- @int row
-- @int col
-- @treturn string "empty", "black", "white" or "block"

--- Sets a cell (and forgets the undo history).
-- @function board:set
-- @int row
-- @int col
-- @string cell "empty", "black", "white" or "block"

--- The contents of a cell as a small integer, for rule sets' hot loops:
-- 0 empty, 1 black, 2 white, 3 block; -1 for any integer row and column
-- off the board.
-- @function board:code
-- @int row any integer
-- @int col any integer
-- @treturn int 0, 1, 2, 3 or -1

--- Sets a cell by its code (and forgets the undo history).
-- @function board:set_code
-- @int row
-- @int col
-- @int code 0 empty, 1 black, 2 white or 3 block

--- The number of cells holding `cell`.
-- @function board:count
-- @string cell "empty", "black", "white" or "block"
-- @treturn int

--- The cells holding `cell`, row by row.
-- @function board:cells
-- @string cell "empty", "black", "white" or "block"
-- @treturn {{int,int},...} a list of `{row, col}`

--- The legal moves of `player`: the empty cells where a disc traps an
-- opposing line in one of the directions `dirs` (with "none", every empty
-- cell).
-- @function board:moves
-- @string player "black" or "white"
-- @param[opt="all"] dirs a direction set
-- @treturn {{int,int},...} a list of `{row, col}`, row by row

--- Whether `player` has a legal move (cheaper than `#b:moves(player) > 0`).
-- @function board:has_moves
-- @string player "black" or "white"
-- @param[opt="all"] dirs a direction set
-- @treturn boolean

--- Whether (row, col) is a legal move of `player` under direction set `dirs`.
-- @function board:legal
-- @string player "black" or "white"
-- @int row
-- @int col
-- @param[opt="all"] dirs a direction set
-- @treturn boolean

--- The discs a disc of `player` on (row, col) would flip in the directions
-- `dirs`, without playing it.
-- @function board:flips
-- @string player "black" or "white"
-- @int row
-- @int col
-- @param[opt="all"] dirs a direction set
-- @treturn int the number
-- @treturn {{int,int},...} the cells

--- Plays a disc of `player` on (row, col): it must trap a line in one of the
-- directions `legal_dirs`, and flips what it traps in the directions
-- `flip_dirs`.
-- @function board:play
-- @string player "black" or "white"
-- @int row
-- @int col
-- @param[opt="all"] legal_dirs a direction set
-- @param[opt="all"] flip_dirs a direction set
-- @treturn int the number of discs flipped
-- @return or nil, "illegal move", the board unchanged

--- Takes back the last `play`.
-- @function board:undo
-- @treturn boolean false when there is none

--- An independent copy, undo history included.
-- @function board:clone
-- @treturn board

--- A hash of the cells (an integer), equal for equal boards.
-- @function board:hash
-- @treturn int

--- The leaves of the game tree `depth` plies below this position, `player`
-- to move, counted in C. A pass is a ply and a finished game one leaf at any
-- depth (Aart Bik's convention).
-- @function board:perft
-- @string player "black" or "white", to move
-- @int depth 0..64
-- @tab[opt] opts `legal` and `flip` (direction sets, default "all");
-- `generic` (true: the multi-word path even on 8 x 8), `reference` (true:
-- the slow cell-by-cell path the fast ones are checked against), `scalar`
-- (true: the portable 8 x 8 loop even where the AVX2 one runs; so does
-- `BOARDSCRIPT_NO_SIMD` set in the environment to anything but "" or "0");
-- any other key raises (a misspelt `legal_dirs` would count another game)
-- @treturn int leaves

--- The legal moves of `player` as cell indices, `(row - 1) * n + col`, row
-- by row, written into `buffer` (entries after them are cleared), so a Lua
-- loop can list moves without making a table a move.
-- @function board:move_list
-- @string player "black" or "white"
-- @param[opt="all"] legal_dirs a direction set
-- @tab[opt] buffer the table to fill (default: a new one)
-- @treturn int the number of moves
-- @treturn table the buffer
-- @usage local n = b:move_list("black", "all", buffer)
-- if n > 0 then b:play_index("black", buffer[rng:random(n)]) end

--- Plays a disc of `player` on the cell with index `index` (as
-- `move_list` gives them), like `play`: `undo` takes it back, and the undo
-- record is kept in the board, whose storage is reused.
-- @function board:play_index
-- @string player "black" or "white"
-- @int index 1..n * n
-- @param[opt="all"] legal_dirs a direction set
-- @param[opt="all"] flip_dirs a direction set
-- @treturn int the number of discs flipped
-- @return or nil, "illegal move", the board unchanged

--- A random generator (userdata "boardscript.rng").
-- @type rng

--- Reseeds the generator.
-- @function rng:seed
-- @int seed

--- A random number, like `math.random`: with no argument a float in [0, 1);
-- with `m`, an integer in [1, m]; with `m, n`, an integer in [m, n].
-- @function rng:random
-- @int[opt] m
-- @int[opt] n
-- @return number

--- The generator's whole state as text (64 hex digits), for rng:restore:
-- a worker process of `boardscript serve` hands back where its draws left
-- the game's generator.
-- @function rng:state
-- @treturn string the state

--- Puts the generator in a state rng:state gave; any other text raises.
-- @function rng:restore
-- @string state the text of rng:state

--- A game walked one move at a time (userdata "boardscript.cursor"). After
-- every move it passes for a side without a legal move, as `playout` does,
-- so the side to move has `count()` legal moves, numbered 1..count row by
-- row (`board:move_list`'s order); 0 means the game is over. Picking
-- `rng:random(count)` at every move plays `playout`'s game.
-- @type cursor

--- Plays legal move k and the passes that follow. Raises for k outside
-- 1..count (the cursor unchanged).
-- @function cursor:play
-- @int k the move's number
-- @treturn int the number of legal moves of the side now to move (0: over)

--- The number of legal moves of the side to move (0: the game is over).
-- @function cursor:count
-- @treturn int

--- A pass where the rules allow one with moves on the board.
-- @function cursor:pass
-- @treturn int the new count, or nil and "the rules allow no pass here" / "the game is over"

--- The legal moves as cell indices `(row - 1) * n + col`, in order.
-- @function cursor:moves
-- @tab[opt] buffer a table to fill (entries past the moves are cleared)
-- @treturn int their number
-- @treturn table the buffer, or a new table

--- The side to move.
-- @function cursor:side
-- @treturn string "black" or "white"

--- Moves and passes played since the start.
-- @function cursor:plies
-- @treturn int

--- The discs and the winner, as `playout` returns them.
-- @function cursor:result
-- @treturn int black's discs
-- @treturn int white's discs
-- @treturn int plies
-- @treturn string "black", "white" or "draw" (as the position stands)

--- Back to the position the cursor was made from.
-- @function cursor:reset
-- @treturn int its count

--- A new board with the position now.
-- @function cursor:board
-- @treturn board

--- Whether `pass` would pass (moves on the board and the rules allow a pass).
-- @function cursor:can_pass
-- @treturn bool

--- A random game in C from the position now, played on a copy (the cursor
-- does not move): `playout` from here, with the cursor's game and state.
-- @function cursor:playout
-- @tparam rng rng the generator drawn from
-- @tab[opt] opts `limit` (plies, default twice the cells) and `pass_odds`, as for `playout`
-- @treturn int black's discs
-- @treturn int white's discs
-- @treturn int plies from the position now
-- @treturn string "black", "white" or "draw"

--- A Dots and Boxes position (userdata "boardscript.dots"). It holds no
-- pointers: `clone` is a plain copy. `tostring(d)` is the grid without
-- coordinates: `+` dots, `-` and `|` drawn edges, the owner's number in
-- each completed box. `a == b` compares size, drawn edges, owners and the
-- player to move (not the drawing order).
-- @type dots

--- Boxes per column.
-- @function dots:rows
-- @treturn int

--- Boxes per row.
-- @function dots:cols
-- @treturn int

--- The number of edges of the grid.
-- @function dots:edge_count
-- @treturn int

--- The number of edges not drawn yet.
-- @function dots:open_count
-- @treturn int

--- Draws an edge for the player to move. Completing a box scores it and
-- keeps the turn. A dot off the grid or two dots not one edge apart raise.
-- @function dots:draw
-- @param edge `{r1, c1, r2, c2}` (or four integers)
-- @treturn int the boxes completed, 0..2
-- @return or nil, "edge already drawn", the position unchanged

--- Takes back the last edge drawn (and the boxes it completed).
-- @function dots:undo
-- @return the edge `{r1, c1, r2, c2}`, or false when nothing was drawn

--- The open edges: horizontal ones row by row, then vertical ones.
-- @function dots:open_edges
-- @treturn {{int,int,int,int},...}

--- The drawn edges in the order they were drawn.
-- @function dots:history
-- @treturn {{int,int,int,int},...}

--- Whether an edge is drawn.
-- @function dots:is_drawn
-- @param edge `{r1, c1, r2, c2}` (or four integers)
-- @treturn boolean

--- The number of drawn sides of box (row, col), 0..4.
-- @function dots:box_sides
-- @int row
-- @int col
-- @treturn int

--- Who completed box (row, col).
-- @function dots:box_owner
-- @int row
-- @int col
-- @return 1, 2, or nil for a box nobody has completed

--- The open edges at dot (row, col), 0..4.
-- @function dots:degree
-- @int row
-- @int col
-- @treturn int

--- The player to move.
-- @function dots:turn
-- @treturn int 1 or 2

--- The boxes each player owns.
-- @function dots:score
-- @treturn int player 1's
-- @treturn int player 2's

--- Whether every edge is drawn.
-- @function dots:finished
-- @treturn boolean

--- What drawing an edge would do, without drawing it.
-- @function dots:effect
-- @param edge `{r1, c1, r2, c2}` (or four integers)
-- @treturn int boxes it would complete
-- @treturn int boxes it would give a third side
-- @return or nil, "edge already drawn"

--- The chains and loops: the components of boxes with exactly two sides
-- drawn. Each is `{kind = "chain" | "loop", length =, boxes = {{r, c}, ...}
-- (row by row), first =, last = (the boxes at the two ends), ends = {{edge
-- =, box = | ground = true}, x2}}` (a loop has no ends).
-- @function dots:chains
-- @treturn {table,...}

--- An independent copy.
-- @function dots:clone
-- @treturn dots

--- A hash of the position (an integer).
-- @function dots:hash
-- @treturn int

--- Solves the position exactly with a solver used once: the net score of
-- the boxes still unowned for the player to move, with perfect play (from
-- an empty grid, the first player's margin).
-- @function dots:solve
-- @tab[opt] opts as for `dots_solver`
-- @treturn int the value
-- @treturn int nodes searched
-- @return or nil and "grid too large for the solver (...)", or nil,
-- "stopped" and the nodes when a limit stopped the search

--- An optimal edge, with a solver used once.
-- @function dots:best_move
-- @tab[opt] opts as for `dots_solver`
-- @treturn {int,int,int,int} the edge
-- @treturn int the value (as for `solve`)
-- @treturn int nodes searched
-- @return or nil and a message, as for `solve`, or nil, "game over"

--- An exact Dots and Boxes solver (userdata "boardscript.dots_solver"),
-- closed by `close`, a `<close>` variable or the collector (closing twice is
-- safe; closing from its own progress function raises). A closed solver
-- raises "attempt to use a closed dots_solver".
-- @type dots_solver

--- The value of position `d` (see `dots:solve`).
-- @function dots_solver:value
-- @tparam dots d
-- @tab[opt] opts `nodes`, `time`, `progress`, `progress_interval` for this call
-- @treturn int the value
-- @treturn int nodes this call searched
-- @return or nil and a message, as for `dots:solve`

--- An optimal edge of position `d` (see `dots:best_move`).
-- @function dots_solver:best
-- @tparam dots d
-- @tab[opt] opts `nodes`, `time`, `progress`, `progress_interval` for this call
-- @treturn {int,int,int,int} the edge
-- @treturn int the value
-- @treturn int nodes this call searched
-- @return or nil and a message, as for `dots:best_move`

--- Nodes searched by this solver so far, over all calls.
-- @function dots_solver:nodes
-- @treturn int

--- Frees the solver's table now; using the solver afterwards raises.
-- @function dots_solver:close

--- A described-game searcher (userdata "boardscript.dgame_searcher"),
-- closed by `close`, a `<close>` variable or the collector (closing twice is
-- safe). Passing a closed one to `dgame_state:search` raises "attempt to use
-- a closed dgame_searcher".
-- @type dgame_searcher

--- Frees the searcher's table now.
-- @function dgame_searcher:close

--- An alpha-beta searcher (userdata "boardscript.searcher"), closed by
-- `close`, a `<close>` variable or the collector (closing twice is safe). A
-- closed searcher raises "attempt to use a closed searcher".
--
-- The options of `search`, `solve` and `evaluate`: `game`, the game as the
-- core describes it (`legal`, `flip`: direction sets of a turn's piece,
-- default "all"; `legal2`, `flip2`, `second_after`: a second piece earned by
-- capturing `second_after` or more (FlipFlop); `pass`: "stuck" (default) or
-- "anytime"; `ending`: "no-moves" (default), "two-passes",
-- "two-passes-only" or "turns" with `turn_limit`; `misere`;
-- `empties_to_winner`), the state besides the board (`passes`, `piece`,
-- `turns`, `unable`), and limits: `depth` (plies), `time` (seconds of wall
-- time, what a protocol's time control counts; the dots solver's `time` is
-- CPU time), `nodes`, `endgame` (solve exactly at this many empty cells or
-- fewer), `evaluate` (a function(board, player) returning hundredths of a
-- disc for `player`, replacing the weighted evaluation), `evaluator` (an
-- `evaluator` of the board's shape, replacing the weighted evaluation; an
-- `evaluate` function still comes first; another value, a closed evaluator
-- or one of another shape raises naming the options argument; with the
-- standard 8 x 8 rules the search keeps its pattern indices up to date move
-- by move), `mpc` (where the evaluator has Multi-ProbCut parameters,
-- `evaluator:set_mpc`, the midgame search cuts by them: true or nil at the
-- default width, 1.5 sigmas; false not at all; a number, the width in
-- sigmas, 0.01 .. 100), `threads` (1 .. 8, default 1: `search`'s midgame
-- by that many threads sharing the table, Lazy SMP with the children a
-- thread is searching left to the others, simplified ABDADA; the move and
-- value may then differ run to run; with `evaluate` one thread), `without`
-- (a list of techniques to leave out, to measure what each gains: "etc"
-- and "stability", the exact solver's enhanced transposition and stability
-- cutoffs; "eval_order", ordering by the learned evaluation; "killers",
-- killer and history ordering on the generic path; "aspiration", the
-- windows of the iterations after the third; "table", the table's cutoffs
-- and moves; another name raises naming the item). An error raised in
-- `evaluate`, a yield from it or a value that is no number stops the search
-- and the call raises it. Inside `evaluate` the searcher may be read
-- (`evaluate`, `position`, `weights`) but `search`, `solve`, `set_weights`
-- and `clear` raise "searcher is busy", and `close` raises. The table keeps
-- values of one evaluation: a call with another `evaluate` function (or
-- none after one), another evaluator or one fitted since empties it first.
-- @type searcher

--- The best move of `player` on `b` by iterative deepening.
-- @function searcher:search
-- @tparam board b
-- @string player "black" or "white"
-- @tab[opt] opts see above (without depth, time or nodes: depth 6)
-- @return the move, {row, col} or "pass"
-- @treturn int its value in hundredths of a disc for `player`
-- @treturn table info: `depth` (deepest finished iteration), `nodes`
-- (every thread's), `exact`, `stopped`, `threads` (how many searched),
-- `seconds`
-- @return or nil and "game over"

--- Solves the position exactly: the best move and the final disc margin.
-- @function searcher:solve
-- @tparam board b
-- @string player
-- @tab[opt] opts see above (`time` and `nodes` stop it: then `info.exact` is false)
-- @return the move, {row, col} or "pass"
-- @treturn int the margin in discs for `player`
-- @treturn table info, as for `search`
-- @return or nil and "game over"

--- The weighted evaluation of the position for `player`, in hundredths of a disc.
-- @function searcher:evaluate
-- @tparam board b
-- @string player
-- @tab[opt] opts `game` and the state, as above
-- @treturn int

--- What the described game's rules say of a position: `moves` (a list of
-- {row, col}), `can_pass`, `finished` and, when finished, `value` (the final
-- margin for `player`). Used to check a rule set's hooks against the core.
-- @function searcher:position
-- @tparam board b
-- @string player
-- @tab[opt] opts `game` and the state, as above
-- @treturn table

--- The evaluation weights: `discs`, `mobility`, `potential`, `corners`
-- (cells that can never be flipped), `corner_adj` (next to an empty such
-- cell), `stable` (discs that can no longer be flipped) and `parity`, in
-- hundredths of a disc per unit of own minus the opponent's.
-- @function searcher:weights
-- @treturn table

--- Changes some weights (the others stay) and clears the table.
-- @function searcher:set_weights
-- @tab weights
-- @usage s:set_weights{ mobility = 80, corners = 500 }

--- Empties the transposition table and the move-ordering tables.
-- @function searcher:clear

--- Frees the searcher's table now; using it afterwards raises.
-- @function searcher:close

--- A learned evaluation (userdata "boardscript.evaluator"): see
-- `core.evaluator`. Closed by `close`, a `<close>` variable or the
-- collector (closing twice is safe; closing one a live trainer uses raises);
-- a closed evaluator raises "attempt to use a closed evaluator".
-- `tostring(ev)` is "evaluator 8 x 8 (0x...)", or "evaluator (closed)".
-- @type evaluator

--- The value of a position for `player` to move, in hundredths of a disc
-- (within -999999..999999): the final margin the evaluation predicts.
-- @function evaluator:evaluate
-- @tparam board|string b a board of the evaluation's shape (another raises
-- "bad argument #2 to 'evaluate' (a 6 x 8 board for an evaluation of 8 x 8
-- boards)"), or a data file's cells as a string, as `trainer:add` takes
-- them (`x` black; a string of another length raises "cells: 64 characters
-- of . x o # expected")
-- @string player "black" or "white", to move
-- @treturn int

--- What the evaluation is.
-- @function evaluator:info
-- @treturn table `size`, `rows`, `cols`, `symmetry` (the names of the
-- group's maps, sorted), `phases`, `features` (a list of names),
-- `mobility` (the direction mask of the mobility feature, an integer),
-- `shapes` (pattern shapes), `instances` (their placements on the board),
-- `weights` (every weight of every phase), `nonzero` (those that are not
-- zero) and `layout` (a checksum of the patterns, 8 hex digits: files
-- record it, and a file made by another generator is refused)

--- The cells of pattern instance `i`.
-- @function evaluator:instance
-- @int i 1..`info().instances`
-- @treturn int the shape it is one of (1..`info().shapes`)
-- @treturn {{int,int},...} its cells `{row, col}`, in its digits' order
-- (the first is worth 1, the next 3, then 9...)

--- The evaluation as bytes (`core.evaluator_load` and `core.evaluator(PATH)`
-- read them): a text header, the meta text, then the weights, and a
-- checksum of it all (a changed byte anywhere is refused).
-- @function evaluator:save
-- @string[opt=""] meta free text kept in the header (the rules, options and
-- command it was trained for): at most 16384 bytes, no zero byte
-- @treturn string

--- Sets the evaluation's Multi-ProbCut parameters, which a search with it
-- cuts by (the searcher's `mpc` option): for each depth `d` (1 .. 60) that
-- has them, `params[d] = { shallow = S, slope = {...}, offset = {...},
-- sigma = {...} }`, a list of one number per phase in each: a search `d`
-- plies deep is predicted from one `S` plies deep (0 <= S < d) as slope x
-- value + offset (hundredths of a disc; slope 0.001 .. 100, offset within
-- +-10000), with an error of deviation sigma (0.01 .. 10000 hundredths).
-- nil (or no depth) removes them. A value out of range raises naming it
-- (`params[5].slope[2] must be a number from ...`) and leaves the old
-- ones. `boardscript train` fits them (lua/boardscript/train/mpc.lua) and
-- files keep them in their meta (`boardscript.evalfile`, `boardscript.mpc`);
-- a fit of the weights (`trainer:fit`) removes them.
-- @function evaluator:set_mpc
-- @tab[opt] params

--- The Multi-ProbCut parameters, as `set_mpc` takes them (slopes rounded to
-- thousandths, offsets and sigmas to whole hundredths), or nil.
-- @function evaluator:mpc
-- @treturn ?table

--- An independent copy (fitting one leaves the other as it was).
-- @function evaluator:copy
-- @treturn evaluator

--- Frees the evaluation now; using it afterwards raises. Raises while a
-- trainer uses it.
-- @function evaluator:close

--- Fits an evaluator's weights (userdata "boardscript.trainer"): see
-- `core.trainer`. It holds its positions (a few dozen bytes each) until it
-- is closed by `close`, a `<close>` variable or the collector (closing twice
-- is safe); a closed trainer raises "attempt to use a closed trainer".
-- `tostring(tr)` is "trainer of N positions (0x...)", or "trainer (closed)".
-- @type trainer

--- Adds a position and its target. The position is a board, or the cells
-- of a line of a `train` data file as a string (n x n characters, row by
-- row: `.` empty, `x` black, `o` white, `#` a block; a data file writes the
-- side to move as `x`, so give "black"), which is much quicker than setting
-- a board's cells one by one.
-- @function trainer:add
-- @tparam board|string b a board of the evaluator's size, or its cells
-- @string player "black" or "white", to move
-- @number target the final margin for `player`, in discs, -10000..10000
-- @param[opt] holdout true keeps it out of the fit, to measure with
-- @usage tr:add(b, "white", -6)
-- tr:add(("."):rep(27) .. "ox......xo" .. ("."):rep(27), "black", 0)

--- The number of positions.
-- @function trainer:count
-- @param[opt] holdout absent: all of them; true: the held-out ones; false:
-- the ones fitted to
-- @treturn int

--- Fits the evaluator's weights, from their present values, to the
-- positions: ridge least squares by preconditioned conjugate gradient,
-- deterministic for the same positions in the same order. A searcher
-- that used the evaluator notices the change and empties its table.
-- @function trainer:fit
-- @tab[opt] opts `iterations` (1..100000, default 20; each is two passes
-- over the positions), `shrink` (0..1e9, default 4: every weight is pulled
-- towards zero as by that many positions, so the entries of patterns seen a
-- few times stay near zero)
-- @treturn table `train_error` and `holdout_error` (root mean square
-- errors in discs), `holdout_abs` (mean absolute error of the held-out
-- positions), `train` and `holdout` (their numbers)

--- The errors of the evaluator as it is on the positions, as `fit` returns them.
-- @function trainer:measure
-- @treturn table

--- Frees the positions now; using the trainer afterwards raises, and its
-- evaluator can close.
-- @function trainer:close

--- A compiled described game (userdata "boardscript.dgame"): see `core.dgame`.
-- @type dgame

--- A state at the setup position.
-- @function dgame:start
-- @treturn dgame_state

--- A position of a described game with its undo history (userdata
-- "boardscript.dgame_state"). Moves are non-negative integers (bits 0-9
-- origin, 10-19 target, 20-24 rule, 25-28 hops, 29-62 arrow or hop
-- directions); cells are (row, col) from (1, 1) at the top left.
-- `S == S2` compares the position (size, cells, player, passes);
-- `tostring(S)` is the board, a line per row (`.` empty, `#` block, `x`/`o`
-- the first kind of black/white, a kind's first letter for the others).
-- @type dgame_state

--- The legal moves in the contract's order.
-- @function dgame_state:moves
-- @tab[opt] t a table to refill (its entries after the count are cleared)
-- @treturn {int,...} the moves (t when given)
-- @treturn int their count (0 when the game is over or the side must pass)

--- Plays a legal move.
-- @function dgame_state:play
-- @int m a move of `moves`
-- @treturn ?true true, or nil and "illegal" for anything else

--- Passes, where the side to move has no move and `no_move` is "pass".
-- @function dgame_state:pass
-- @treturn ?true true, or nil and why not

--- Whether the side to move must pass.
-- @function dgame_state:can_pass
-- @treturn boolean

--- Takes back the last move or pass.
-- @function dgame_state:undo
-- @treturn boolean false when there was nothing to undo

--- The result: nil while the game is on, else "black", "white" or "draw".
-- @function dgame_state:status
-- @treturn ?string

--- Whether the game is over.
-- @function dgame_state:finished
-- @treturn boolean

--- The score hook's values: (1, 0) or (0, 1) after a win by an end or by
-- `no_move = "lose"`, (0, 0) after a declared draw, else the `score` field's.
-- @function dgame_state:score
-- @treturn int black's
-- @treturn int white's

--- The side to move.
-- @function dgame_state:player
-- @treturn string "black" or "white"

--- Plies played (moves and passes).
-- @function dgame_state:ply
-- @treturn int

--- The Zobrist hash of the cells, the side to move and the passes in a row.
-- @function dgame_state:hash
-- @treturn int

--- What stands on a cell.
-- @function dgame_state:get
-- @int r row 1..rows
-- @int c column 1..cols
-- @treturn string "black", "white", "empty" or "blocked"
-- @treturn ?string the kind's name, for a piece

--- A cell's code: 0 empty, -1 block, 2 (kind - 1) + side for a piece.
-- @function dgame_state:code
-- @int r row 1..rows
-- @int c column 1..cols
-- @treturn int

--- The rows.
-- @function dgame_state:rows
-- @treturn int

--- The columns.
-- @function dgame_state:cols
-- @treturn int

--- The board size: rows when square, else the larger of rows and cols.
-- @function dgame_state:size
-- @treturn int

--- Pieces of a side, or the empty cells.
-- @function dgame_state:count
-- @string side "black", "white" or "empty"
-- @treturn int

--- An independent copy, undo history included.
-- @function dgame_state:clone
-- @treturn dgame_state

--- A move's notation (`d3`, `a2-a3`, `c3-e5-c7`, `d1-d7/g7`, `swap`).
-- @function dgame_state:move_text
-- @int m a move
-- @treturn ?string nil when m is not a well-formed move of this game

--- The legal move a text names (case and spaces ignored; a lone column
-- letter in a game with a column placement).
-- @function dgame_state:parse_move
-- @string text the notation
-- @treturn ?int the move, or nil

--- The cells of a well-formed move: origin, hop landings, arrow, landing last.
-- @function dgame_state:move_cells
-- @int m a move
-- @treturn ?{{int,int},...} `{row, col}` pairs, or nil

--- Move sequences of `depth` plies (a forced pass is a ply).
-- @function dgame_state:perft
-- @int depth 0..64
-- @treturn int leaves

--- Random games to the end from this position (which is unchanged): each
-- move drawn uniformly from `moves`, a forced pass played; a game on after
-- 10000 plies counts as a draw.
-- @function dgame_state:playout
-- @tparam rng|int rng a `core.rng` or a seed
-- @int[opt=1] n how many games
-- @treturn table `black`, `white`, `draw` (games each) and `plies` (in all)

--- The best move by iterative deepening alpha-beta (PVS, a transposition
-- table, captures, killers and history first), evaluating the horizon by
-- material, line potential and the lead towards a reach zone. It (and
-- `mcts`) plays and undoes on the state and leaves it as it was; a move is
-- an integer, or "pass" for a side that must pass; options out of range
-- raise naming the option.
-- @function dgame_state:search
-- @tab[opt] opts `depth` (1..100; without depth, time or nodes: 6), `time`
-- (seconds of wall time), `nodes`, `tt_mb` (1..4096, default 16), `values`
-- (a list of the kinds' values, default 1 each), `quiescence` (0..32 plies
-- of captures past the horizon, default 8), `eval` (a learned evaluation
-- of this game, `core.dgame_eval`: the horizon's value instead), `forcing`
-- (false: no forced moves in a game decided by lines), `searcher` (a
-- `core.dgame_searcher`: its kept table instead of one of `tt_mb` made for
-- this search)
-- @return the move
-- @treturn int its value for the side to move, in hundredths of a piece;
-- beyond +-1000000 a win or loss found
-- @treturn table info: `depth`, `nodes`, `exact` (the value is the game's
-- result with best play), `stopped`, `seconds`
-- @return or nil and "game over"

--- The most visited move of a Monte Carlo tree search (UCT with random
-- playouts, proven wins and losses carried up the tree).
-- @function dgame_state:mcts
-- @tab[opt] opts `playouts` (without playouts or time: 1000), `time`
-- (seconds of processor time), `seed` (an integer, default 1: the same seed
-- gives the same move), `c` (0..100, default 0.4), `max_nodes` (16..2^30,
-- default 2^20 nodes of 32 bytes), `eval` (a learned evaluation of this
-- game: a new leaf's odds (v + 1) / 2 of its value v, not a playout),
-- `values` (the kinds' values of the hand-written evaluation it reads)
-- @return the move
-- @treturn table info: `playouts`, `value` (the side to move's mean reward,
-- 0..1), `nodes`, `proven` (1 a proven win, -1 a proven loss, 0),
-- `visits` (move -> playouts through it), `seconds`
-- @return or nil and "game over"

--- A learned evaluation of a described game (`core.dgame_eval`).
-- @type dgame_eval

--- The value of a state for its side to move (about +1 a win, -1 a loss).
-- @function dgame_eval:value
-- @param S a state of the game it fits (another game raises)
-- @tab[opt] opts `values`: the kinds' values of the hand-written evaluation it reads
-- @treturn number the value

--- Whether the evaluation fits a state's game (rows, cols, kinds).
-- @function dgame_eval:fits
-- @param S a state
-- @treturn boolean

--- The evaluation as bytes (its shape, the weights, a checksum).
-- @function dgame_eval:save
-- @treturn string the bytes

--- What it is: `rows`, `cols`, `kinds`, `length`, `squares`, `phases`,
-- `hand_scale`, `sides`, `instances` (windows and squares), `weights`, `nonzero`.
-- @function dgame_eval:info
-- @treturn table

--- A trainer of this evaluation: positions with labels, fitted into it.
-- `T:add(S, target[, holdout[, slot]])` adds a state (or replaces the
-- slot-th position); `T:count([holdout])`; `T:fit{ iterations =, ridge = }`
-- (ridge least squares by conjugate gradient from the current weights;
-- `ridge` pulls the tables' entries to zero, the scalars by at most 1)
-- -> `{ train_rms =, holdout_rms =, iterations = }`.
-- @function dgame_eval:trainer
-- @tab[opt] opts `values`: the kinds' values of the hand-written evaluation
-- @return the trainer
