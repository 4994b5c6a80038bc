--- GGF, the Generic Game Format of the Generic Game Server (GGS) and NBoard,
-- for Othello games: reading, setting up a game object, and writing.
--
--     (;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]
--       TI[05:00//02:00]TY[8]RE[+0.000]BO[8 ---------------------------O*------*O--------------------------- *]
--       B[d3//0.01]W[c5/-1.5/0.01]...W[PA]...;)
--
-- A game is `(;`, properties `NAME[value]`, then `;)`. TY is the board
-- type: 4, 6, ..., 14 (N x N) or 88 (10 x 10 without three cells at each
-- corner), with modifiers (`s` synchro, `k` komi, `r<n>` random start,
-- `a` anti, `b`/`w` colour wish). BO is the start position: the board
-- type, one character per playable square row by row (`*` black, `O`
-- white, `-` empty), then the side to move. A move is `B[f5]` or `W[F5]`,
-- optionally `/eval/time`; `PA` passes. RE is the result for Black (discs
-- ahead, empties to the winner), `?` when unknown, with `:r` (resigned),
-- `:t` (time) or `:s` (agreed score). See docs/guide.md ("GGF").
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local game_mod = require "boardscript.game"
local syntax = require "boardscript.formats.ggf_syntax"
local write = require "boardscript.formats.ggf_write"

local ggf = {}

--- The square sizes GGF boards have (TY[4] .. TY[14]); 88 is the octagon.
ggf.SIZES, ggf.OCTAGON = syntax.SIZES, syntax.OCTAGON
--- The most games a GGF text (or a text of records) may hold (ggf_syntax).
ggf.MAX_GAMES = syntax.MAX_GAMES
--- (row, col) -> whether it is a cut corner of the octagon (ggf_syntax).
ggf.octagon_corner = syntax.octagon_corner
--- Reading a TY, BO or RE value (ggf_syntax.parse_type, parse_board, parse_result).
ggf.parse_type, ggf.parse_board, ggf.parse_result = syntax.parse_type, syntax.parse_board, syntax.parse_result
--- ggf.parse(text, where): the list of parsed games in `text` (ggf_syntax.parse:
-- { type, size, octagon, modifiers, props, board, moves, result, index, where,
-- line, col }); malformed text is a user error naming where, line and column.
ggf.parse = syntax.parse
--- ggf.supports(g) -> true | false, why; ggf.text(g, info) -> GGF text (ggf_write).
ggf.supports, ggf.text = write.supports, write.text

local TAG_OF_SIDE = syntax.TAG_OF_SIDE

------------------------------------------------------------------------
-- Setting up a game object

-- The directory of the example rule sets next to the Lua modules (the
-- source tree's lua/examples), or nil when it is not there.
local function examples_dir()
  local found, host = pcall(require, "boardscript.host")
  local lua_dir = found and type(host) == "table" and host.lua_dir or nil -- where the host found its Lua files
  if not lua_dir then
    local source = debug.getinfo(1, "S").source
    lua_dir = source:match("^@(.*)/boardscript/formats/[^/]*$") or (source:match("^@boardscript/") and ".")
  end
  return lua_dir and (lua_dir .. "/examples") or nil
end

--- The path of example rule set `name` ("octagon.lua", "anti.lua"), or
-- nil and why it cannot be found.
function ggf.example(name)
  local dir = examples_dir()
  local path = dir and (dir .. "/" .. name)
  local f = path and io.open(path)
  if not f then
    return nil, ("the example rule set %s is not here (it lives in the source tree's lua/examples)"):format(name)
  end
  f:close()
  return path
end

-- Whether core board `board` and side `player` are the position `b`.
local function same_position(board, player, b)
  if board:size() ~= b.size or player ~= b.player then return false end
  for row = 1, b.size do
    for col = 1, b.size do
      if board:get(row, col) ~= b.cells[row][col] then return false end
    end
  end
  return true
end

-- The rule set (name or path), options and example name a parsed game is
-- played with: reversi at its size (centre white or black as BO has it);
-- the octagon example with cut 1 for TY[88]; the anti example for `a`.
local function choose_rules(parsed)
  local b = parsed.board
  local h = parsed.size // 2
  local centre = b.cells[h][h] == "black" and b.cells[h + 1][h + 1] == "black" and "black" or "white"
  local opts = { size = parsed.size, centre = centre }
  if parsed.modifiers.anti then
    local path, why = ggf.example("anti.lua")
    if not path then errors.fail(("game %d: TY[%s] is anti Othello: %s"):format(parsed.index, parsed.type, why)) end
    return path, opts, "anti.lua"
  end
  if parsed.octagon then
    local path = ggf.example("octagon.lua")
    if path then
      opts.cut = 1
      return path, opts, "octagon.lua"
    end
  end
  return "reversi", opts, nil
end

-- A message naming where a parsed game's move is.
local function move_fail(parsed, move, k, message)
  local shown = move.pass and "PA" or move.text
  errors.fail(("%s:%d:%d: game %d: move %d %s[%s]: %s"):format(parsed.where or "ggf", move.line or 0,
    move.col or 0, parsed.index or 1, k, TAG_OF_SIDE[move.side] or "?", shown, message), errors.EXIT_FAILURE)
end

--- A game object set up from a parsed game (see ggf.parse) with its first
-- `upto` moves played (default all): reversi at the game's size, the octagon
-- example (lua/examples/octagon.lua, cut 1) for TY[88], the anti example
-- for TY[..a]; a start position from BO that differs from the rule set's is
-- set on the state through the core board API. A move by the side not to
-- move is preceded by a pass when that side has none (as GGS writers that
-- leave passes out expect). An illegal move is a user error (status 1)
-- naming the file, line, game, move number and move. `g.ggf` holds {
-- example = "octagon.lua"|"anti.lua"|nil, custom_start = boolean,
-- log_index = { [move number] = index in g.log } }.
function ggf.game(parsed, upto)
  local moves = parsed.moves
  upto = upto or #moves
  if math.type(upto) ~= "integer" or upto < 0 or upto > #moves then
    errors.fail(("game %d: cannot play %s moves of %d"):format(parsed.index or 1, tostring(upto), #moves))
  end
  local source, opts, example = choose_rules(parsed)
  local g = game_mod.new(source, opts)
  local b = parsed.board
  local custom = not same_position(g.state.board, g.state.player, b)
  if custom then
    for row = 1, b.size do
      for col = 1, b.size do g.state.board:set(row, col, b.cells[row][col]) end
    end
    g.state.player = b.player
  end
  g.ggf = { example = example, custom_start = custom, log_index = {} }
  for k = 1, upto do
    local move = moves[k]
    if g:finished() then move_fail(parsed, move, k, "the game is over") end
    if move.side ~= g:to_move() then
      if not g:can_pass() then
        move_fail(parsed, move, k, ("%s is to move"):format(g:side_name()))
      end
      g:pass()
      if g:finished() then move_fail(parsed, move, k, "the game is over") end
    end
    if move.pass then
      local ok, why = g:pass()
      if not ok then move_fail(parsed, move, k, ("illegal pass (%s)"):format(why or "refused")) end
    else
      local value = g:parse_move(move.text)
      local ok, why = nil, "not a square"
      if value then ok, why = g:play(value) end
      if not ok then move_fail(parsed, move, k, ("illegal (%s)"):format(why or "refused")) end
    end
    g.ggf.log_index[k] = #g.log
  end
  return g
end


--- The BO text of a parsed board (see ggf.parse_board), as ggf.text
-- writes it.
function ggf.board_text(b)
  local board = core.board(b.size)
  for row = 1, b.size do
    for col = 1, b.size do board:set(row, col, b.cells[row][col]) end
  end
  return syntax.board_text(board, b.player, b.octagon)
end

return ggf
