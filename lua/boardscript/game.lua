--- A game in progress: a rule set, its state and what was played, with
-- the state contract policies and scripts use. Every method goes through
-- the rule set's hooks (or its family's defaults), so a variant's
-- overrides always apply.
local errors = require "boardscript.errors"
local limits = require "boardscript.limits"
local rules_mod = require "boardscript.rules"

local game = {}

-- The methods, and the metatable of every game: apart, so that no game
-- reaches its metatable through a field (`g.__index`) and restricted code
-- holding a game cannot change the methods of all games.
local Game = {}
-- (hidden from getmetatable too: a policy gets a game, a copy, and must
-- not change the methods every game runs)
local GameMeta = { __index = Game, __metatable = false }

--- game.new(rules[, opts[, rng]]) sets up a new game. `rules` is a rule
-- set table, a built-in name or a path to a rule set file; `opts` the
-- options given (checked against the rule set's declarations, the rest
-- from its defaults, all of them checked together by the rule set's
-- `check_options` hook); `rng` a core generator (`core.rng(seed)`), which
-- setup may draw from and policies use. Problems are user errors naming
-- the rule set and option.
-- @tparam table|string rules a rule set table, a built-in name or a path
-- @tparam[opt] table opts option values, by name
-- @tparam[opt] userdata rng a `core.rng` generator
-- @treturn Game the game, at its start
function game.new(rules, opts, rng)
  local source = type(rules) == "string" and rules or nil
  rules = rules_mod.load(rules)
  local where = "rules " .. (source or rules.name or "?")
  local resolved = rules_mod.resolve_options(rules, opts, where)
  local state = limits.guard(where, "rules", where, rules.setup, rules, resolved, rng)
  if type(state) ~= "table" then
    errors.fail(("%s: setup must return a state table (got %s)"):format(where, type(state)))
  end
  local g = game.wrap(rules, state, rng)
  g.opts, g.source = resolved, source
  return g
end

--- The choices of the side to move in `state`, as a search sees them: a new
-- list of its moves, then "pass" when `can_pass` allows one (searchers,
-- playouts and perft share this view of the game tree; g:choices is this
-- for a game).
-- @tparam table rules a rule set
-- @tparam table state a state of it
-- @treturn table a new list of moves, then "pass" where allowed
function game.choices(rules, state)
  local list = rules:moves(state) -- a new list each call: the contract lets callers append
  if rules:can_pass(state) then list[#list + 1] = "pass" end
  return list
end

--- Plays a choice of game.choices on a bare state (no log, no ply count:
-- the searchers' and perft's way; a game plays one with g:apply): a move,
-- or "pass". Returns what the hook returns (nil and why when refused).
-- @tparam table rules a rule set
-- @tparam table state a state of it (changed in place)
-- @param choice a move value or "pass"
-- @return what the `play` or `pass` hook returns
function game.apply(rules, state, choice)
  if choice == "pass" then return rules:pass(state) end
  return rules:play(state, choice)
end

--- Wraps an existing state (no options, nothing played yet).
-- @tparam table rules a rule set table
-- @tparam table state a state of that rule set (`rules:setup` made it)
-- @tparam[opt] userdata rng a `core.rng` generator
-- @treturn Game
function game.wrap(rules, state, rng)
  return setmetatable({ rules = rules, state = state, rng = rng, opts = {}, log = {} }, GameMeta)
end

--- The side to move (`state.player`): "black"/"white", or 1/2 in dots.
-- @treturn string|integer the side to move
function Game:to_move() return self.state.player end
--- The two sides, in the order score returns them.
-- @treturn string|integer the first side
-- @treturn string|integer the second side
function Game:sides() return self.rules.sides[1], self.rules.sides[2] end
--- A side's name for people: "Black", "Player 1".
-- @param[opt] side a side (default: the side to move)
-- @treturn string
function Game:side_name(side) return self.rules:side_name(side or self.state.player) end
--- The core board (or dots position) of the state.
-- @treturn userdata the core board or dots position
function Game:board() return self.state.board end
--- The legal moves, a list of move values.
-- @treturn table a new list of moves (`{row, col}` in the board family)
function Game:moves() return self.rules:moves(self.state) end
--- Whether the game is over.
-- @treturn boolean
function Game:finished() return self.rules:finished(self.state) end
--- The two scores, in side order.
-- @treturn number the first side's score
-- @treturn number the second side's score
function Game:score() return self.rules:score(self.state) end
--- The winning side, or "draw".
-- @treturn string|integer a side, or "draw"
function Game:winner() return self.rules:winner(self.state) end
--- Whether the side to move may pass now.
-- @treturn boolean
function Game:can_pass() return self.rules:can_pass(self.state) end
--- A move in the rule set's notation ("f5", "a1 a2"); nil if malformed.
-- @param move a move value
-- @treturn ?string
function Game:move_text(move) return self.rules:move_text(move, self.state) end
--- Text in the rule set's notation -> a move value, or nil.
-- @tparam string text a move as typed
-- @return a move value, or nil
function Game:parse_move(text) return self.rules:parse_move(text, self.state) end
--- The board as text, with coordinates.
-- @treturn string
function Game:text() return self.rules:board_text(self.state) end
GameMeta.__tostring = function(g) return g:text() end
--- The size as commands print it: "8", "3x3".
-- @treturn string
function Game:size_text() return self.rules:size_text(self.state) end

--- Plays `move` for the side to move: the rule set's result (e.g. the
-- number flipped), or nil and why not, with the game unchanged.
-- @param move a move value (one of `g:moves()`)
-- @return the rule set's result, or nil
-- @treturn ?string why the move was refused
function Game:play(move)
  self:count_ply()
  local text = self.rules:move_text(move, self.state) -- named in the position it is played in
  local result, why = self.rules:play(self.state, move)
  if result == nil or result == false then return nil, why end
  self.log[#self.log + 1] = { move = move, text = text }
  return result
end

--- The choices of the side to move, as a search sees them: a new list of
-- its moves, then "pass" where the rules allow one (OpenSpiel's pass
-- action). g:apply plays any of them.
-- @treturn table a new list of moves, then "pass" where allowed
function Game:choices()
  return game.choices(self.rules, self.state)
end

--- Plays a choice of g:choices(): a move (as g:play) or "pass" (as
-- g:pass). Returns what that returns.
-- @param choice a move value or "pass"
-- @return what `g:play` or `g:pass` returns
function Game:apply(choice)
  if choice == "pass" then return self:pass() end
  return self:play(choice)
end

--- Passes: true, or nil and why not.
-- @treturn ?boolean true when the pass was taken
-- @treturn ?string why not
function Game:pass()
  self:count_ply()
  local ok, why = self.rules:pass(self.state)
  if not ok then return nil, why end
  self.log[#self.log + 1] = { pass = true }
  return true
end

-- The most plies a game may last before it is stopped as one that never
-- ends: --max-plies N when given (game.from_args), else 50 per cell of
-- the board (at least 1000). Kept here, not in the module table: the
-- module is read-only once restricted code is loaded.
local max_plies = nil

--- The --max-plies setting in force, or nil.
-- @treturn ?integer
function game.max_plies()
  return max_plies
end

function Game:ply_limit()
  if max_plies then return max_plies end
  local board = self.state.board
  local cells = 64
  if type(board) == "userdata" or type(board) == "table" then
    local ok, rows, cols = pcall(function() return board:size() end)
    if ok and math.type(rows) == "integer" then cells = rows * (math.type(cols) == "integer" and cols or rows) end
  end
  return math.max(1000, 50 * cells)
end

-- Stops a game that would go past its ply limit: the rule set never ends it.
function Game:count_ply()
  local limit = max_plies or self.default_limit
  if not limit then
    limit = self:ply_limit()
    self.default_limit = limit
  end
  if #self.log >= limit then
    errors.rules_fault(rules_mod.where(self.rules), "finished", ("did not end the game after %d plies "
      .. "(--max-plies %d; a game that never ends is the rule set's fault)"):format(limit, limit))
  end
end

--- Applies a parsed --max-plies when given.
-- @tparam table args the parsed arguments (`args.max_plies`)
function game.from_args(args)
  if args.max_plies then max_plies = args.max_plies end
end

--- Takes back the last move or pass; false when there is none.
-- @treturn boolean
function Game:undo()
  if not self.rules:undo(self.state) then return false end
  self.log[#self.log] = nil
  return true
end

--- The moves and passes played so far: a new list of `{ move = m, text =
-- notation }` and
-- `{ pass = true }`, oldest first.
-- @treturn table a new list of entries
function Game:history()
  return table.move(self.log, 1, #self.log, 1, {})
end

--- An independent copy: playing on it leaves this game as it is. It
-- shares the random generator.
-- @treturn Game
function Game:clone()
  local copy = game.wrap(self.rules, self.rules:clone(self.state), self.rng)
  copy.opts, copy.source = self.opts, self.source
  copy.log = self:history()
  return copy
end

--- Checks what a player answered: a move value, or nil / "pass" for a
-- pass. Returns the move (a copy) or "pass" when the rules take it now;
-- else nil, "malformed" or "illegal", and the rule set's reason.
-- @param move what a player answered
-- @return the move (a copy) or "pass"; or nil
-- @treturn ?string "malformed" or "illegal"
-- @treturn ?string the rule set's reason
function Game:check(move)
  if move == nil or move == "pass" then
    if self.rules:can_pass(self.state) then return "pass" end
    return nil, "illegal", "passing is not allowed now"
  end
  local ok, text = pcall(self.rules.move_text, self.rules, move, self.state)
  if not ok and limits.exceeded(text) then error(text, 0) end -- a rule set over its budget
  if not ok or type(text) ~= "string" then return nil, "malformed" end
  local copy = type(move) == "table" and table.move(move, 1, #move, 1, {}) or move
  local probe = self.rules:clone(self.state)
  local played, result, why = pcall(self.rules.play, self.rules, probe, copy)
  if not played and limits.exceeded(result) then error(result, 0) end
  if not played or result == nil or result == false then
    -- a move the rule set lists itself is its own fault to refuse
    for _, listed in ipairs(self.rules:moves(self.state)) do
      local named, listed_text = pcall(self.rules.move_text, self.rules, listed, self.state)
      if named and listed_text == text then
        errors.rules_fault(rules_mod.where(self.rules), "play", ("refused %s, a move its hook 'moves' lists%s"):format(
          text, not played and (": " .. tostring(errors.is_user(result) and result.message or result))
            or why and (" (" .. tostring(why) .. ")") or ""))
      end
    end
    return nil, "illegal", played and why or nil
  end
  return copy
end

return game
