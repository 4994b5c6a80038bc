--- What `boardscript serve`'s page shows of a session (boardscript.serve.games
-- installs these methods on its store): the picture, whose turn it is and
-- why (a forced pass, a second piece, a box completed), what the last move
-- changed, the legal moves with the cells each touches, the moves so far
-- by side, and the settings the game was made with.
local game_pictures = require "boardscript.render.game"
local record = require "boardscript.record"
local svg = require "boardscript.render.svg"
local watch = require "boardscript.serve.watch"

local view = {}

--- The store's methods defined here (Store:view, describe).
view.methods = {}
local Store = view.methods

-- The text of a move or pass of the log.
local function entry_text(e)
  return e.pass and "pass" or e.text or "?"
end

--- What the page shows of session `id`: { id =, version = (up by one at
-- each change), rules =, size =, svg =, to_move =, side_name =, finished =,
-- winner =, winner_name =, resigned = the side that resigned, score = { a,
-- b }, sides =, side_names =, players = { [side] = spec }, human_to_move =,
-- can_pass =, must_pass = (no move: a pass is the only choice), piece =
-- (the state's piece of a turn, FlipFlop's 2), last = view.last_move,
-- moves = { texts of the legal moves }, paths = { { text =, cells = {
-- names } } } (board games: the cells each move touches, in the order its
-- text names them, a person's clicks), log = { texts }, log_sides = { the
-- side of each }, drops = true where pieces drop down a column (a click
-- anywhere in it plays there), settings = { options = { key = text },
-- players = { [side] = spec } }, result = the record's result line, study
-- =, match = }.
function Store:view(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  local ok, shown = self:guarded(self.describe, self, s)
  if not ok then return nil, shown end
  return shown
end

-- The cells (board games: "d3") or boxes (dots: "a1") the last move of
-- `g` changed besides the cell it was played on, with who played it:
-- { side =, side_name =, text =, pass =, again = the same side is to move
-- again, changed = { names }, flipped = cells that changed colour,
-- captured = cells emptied (board games) }, or nil at the start. The
-- position before it is the game taken back one move; where that fails (a
-- rule set file's undo), nothing is marked.
function view.last_move(g)
  local entry = g.log[#g.log]
  if not entry then return nil end
  local before = g:clone()
  local undone = pcall(before.undo, before)
  if not undone or #before.log ~= #g.log - 1 then return nil end
  local side = before:to_move()
  local out = { side = tostring(side), side_name = before:side_name(side), pass = entry.pass or false,
                text = entry.pass and "pass" or entry.text, changed = {} }
  out.again = not entry.pass and not g:finished() and g:to_move() == side
  if entry.pass then return out end
  local b0, b1 = before:board(), g:board()
  if (g.rules.family or "board") == "dots" then
    for r = 1, b1:rows() do
      for c = 1, b1:cols() do
        if b1:box_owner(r, c) ~= b0:box_owner(r, c) then out.changed[#out.changed + 1] = string.char(96 + r) .. c end
      end
    end
    return out
  end
  out.flipped, out.captured = 0, 0
  local placed = {}
  for _, cell in ipairs(svg.move_cells(g, entry.move) or {}) do placed[svg.cell_key(cell[1], cell[2])] = true end
  local rows, cols = b1:size(), b1:size()
  if type(b1.rows) == "function" and type(b1.cols) == "function" then rows, cols = b1:rows(), b1:cols() end
  for r = 1, rows do
    for c = 1, cols do
      local now = b1:get(r, c)
      if not placed[svg.cell_key(r, c)] and b0:get(r, c) ~= now then
        out.changed[#out.changed + 1] = string.char(96 + c) .. r
        if now == "empty" then out.captured = out.captured + 1 else out.flipped = out.flipped + 1 end
      end
    end
  end
  return out
end

--- The side that played each entry of `g`'s log ({ side texts }, oldest
-- first), found by taking the moves back on a copy; nil where a take-back
-- fails.
function view.log_sides(g)
  local copy = g:clone()
  local out = {}
  for i = #g.log, 1, -1 do
    if not copy:undo() then return nil end
    out[i] = tostring(copy:to_move())
  end
  return out
end

-- The options of game `g` as texts ({ key = text }), for a page's form
-- (a study's game, which has no settings of a request).
local function option_texts(g)
  local out = {}
  for key, value in pairs(g.opts or {}) do
    if type(key) == "string" and (type(value) == "number" or type(value) == "string" or type(value) == "boolean") then
      out[key] = tostring(value)
    end
  end
  return out
end

-- The names of a move's cells (svg.move_cells: the landing last) in the
-- order a person clicks them: the order the move's text names them
-- ("d1-e1/f1": the queen, where it lands, its arrow), where the text names
-- exactly those cells; else as move_cells gives them.
local function click_order(text, cells)
  local names, wanted = {}, {}
  for i, c in ipairs(cells) do
    names[i] = string.char(96 + c[2]) .. c[1]
    wanted[names[i]] = (wanted[names[i]] or 0) + 1
  end
  local said = {}
  for name in tostring(text):lower():gmatch("%f[%w](%l%d+)%f[%W]") do
    if not wanted[name] or wanted[name] == 0 then return names end
    wanted[name] = wanted[name] - 1
    said[#said + 1] = name
  end
  return #said == #names and said or names
end

-- Whether a described game's pieces drop down a column (`d.place { at =
-- "column" }`, Connect Four): a click anywhere in a column is its move.
local function drops_in_columns(rules)
  local described = type(rules.described) == "table" and rules.described.description
  for _, m in ipairs(type(described) == "table" and type(described.moves) == "table" and described.moves or {}) do
    if type(m) == "table" and m.op == "place" and m.at == "column" then return true end
  end
  return false
end

-- The view of session `s` (a rule set file's hook may fail in it).
function Store:describe(s)
  local g = s.g
  local picture
  local ok_last, last = pcall(view.last_move, g)
  if not ok_last then last = nil end
  if s.study then
    local st = s.study
    local _, numbers, last_entry = game_pictures.position(st.start, st.entries, st.ply, true)
    picture = svg.picture(g, { numbers = numbers, last = last_entry or false, cells = true, captions = false,
      changed = last and last.changed,
      title = ("%s, move %d of %d"):format(svg.describe(g), st.ply, #st.entries),
      charts = game_pictures.charts(st.start, st.entries, st.evals, st.eval_title, st.ply) })
  else
    picture = svg.picture(g, { cells = true, captions = false, changed = last and last.changed })
  end
  local sides = { g:sides() }
  local side_names = {}
  for i, side in ipairs(sides) do side_names[i] = g:side_name(side) end
  local a, b = g:score()
  local finished = g:finished() or s.resigned ~= nil
  local moves, paths = {}, {}
  local board_family = (g.rules.family or "board") ~= "dots"
  if not finished then
    for _, m in ipairs(g:moves()) do
      local text = g:move_text(m)
      moves[#moves + 1] = text
      local cells = board_family and svg.move_cells(g, m)
      if cells then
        paths[#paths + 1] = { text = text, cells = click_order(text, cells) }
      end
    end
  end
  local log = {}
  for i, e in ipairs(g.log) do log[i] = entry_text(e) end
  local ok_sides, log_sides = pcall(view.log_sides, g)
  if not ok_sides then log_sides = nil end
  local players_shown = {}
  for _, side in ipairs(sides) do
    players_shown[tostring(side)] = s.seats[side] and s.seats[side].name or "human"
  end
  local to_move = g:to_move()
  local winner -- the side that won, "draw", or nil
  if s.resigned ~= nil then winner = s.resigned == sides[1] and sides[2] or sides[1]
  elseif finished then winner = g:winner() end
  local params = s.params or {}
  return {
    id = s.id, version = s.version or 0, rules = s.entry.name, size = g:size_text(), svg = picture, sides = sides,
    side_names = side_names, thinking = s.thinking or false,
    to_move = to_move, side_name = g:side_name(to_move), finished = finished,
    winner = winner ~= nil and tostring(winner) or nil,
    winner_name = winner ~= nil and winner ~= "draw" and g:side_name(winner) or nil,
    resigned = s.resigned and tostring(s.resigned) or nil,
    score = { a, b }, players = players_shown, last = last,
    human_to_move = not finished and s.seats[to_move] == nil, can_pass = not finished and g:can_pass(),
    must_pass = not finished and #moves == 0 and g:can_pass(),
    settings = { options = params.texts or option_texts(g), players = params.players or {} },
    piece = math.tointeger(g.state.piece), log_sides = log_sides,
    moves = moves, paths = paths, drops = drops_in_columns(g.rules) or nil, log = log, result = record.result(g),
    study = s.study and { ply = s.study.ply, plies = #s.study.entries, moves = s.study.texts } or nil,
    match = s.match and { game = s.match.game.index, games = s.match.info.games, done = s.match.done,
                          a = s.match.info.a, b = s.match.info.b, lines = s.match.lines,
                          summary = watch.summary(s.match, s.seed) } or nil,
  }
end

return view
