--- Describing a game: a rule set as data built from a small vocabulary
-- (docs/guide.md, "Describing a game: boardscript.describe"). `d.game`
-- checks a description and returns a new rule set of the "board" family
-- whose hooks run the game compiled by the C core (`core.dgame`); its
-- moves are integers, its notation `d3`, `a2-a3`, `c3-e5-c7`, `d1-d7/g7`.
--
--     local d = require "boardscript.describe"
--     return d.game { name = "breakthrough", size = 8, ... }
--
-- A rule set that replaces a tree hook (`function g:finished(s) ... end`)
-- is played and counted over its hooks: an override is never ignored.
local compile = require "boardscript.describe.compile"
local errors = require "boardscript.errors"
local hooks = require "boardscript.describe.hooks"
local words = require "boardscript.describe.words"

local d = {}

-- A constructor: a new table with the fields given and `op`.
local function maker(op)
  return function(fields)
    if fields ~= nil and type(fields) ~= "table" then
      errors.fail(("d.%s: expected a table of fields, got %s"):format(op, type(fields)))
    end
    local out = {}
    for key, value in pairs(fields or {}) do out[key] = value end
    out.op = op
    return out
  end
end

--- A placement rule: `{ at = "empty"|"adjacent"|"column", dirs =, flips =, convert =, piece = }`.
-- @function d.place
-- @tparam[opt] table fields the rule's fields
-- @treturn table the rule
d.place = maker("place")
--- A step rule: `{ dirs =, to = "empty"|"enemy"|"free", leave =, convert =, piece = }`.
-- @function d.step
-- @tparam[opt] table fields the rule's fields
-- @treturn table the rule
d.step = maker("step")
--- A slide rule: as a step, along rays; `arrow =` a second slide that leaves blocks.
-- @function d.slide
-- @tparam[opt] table fields the rule's fields
-- @treturn table the rule
d.slide = maker("slide")
--- A leap rule: `{ offsets = {{dr, dc}, ...} | "ring2" | "knight", to =, leave =, convert =, piece = }`.
-- @function d.leap
-- @tparam[opt] table fields the rule's fields
-- @treturn table the rule
d.leap = maker("leap")
--- A hop capture rule: `{ dirs =, chain =, piece = }`.
-- @function d.hop
-- @tparam[opt] table fields the rule's fields
-- @treturn table the rule
d.hop = maker("hop")
--- An end: k in a row, `{ k =, exact =, dirs = }`.
-- @function d.line
-- @tparam[opt] table fields the end's fields
-- @treturn table the end
d.line = maker("line")
--- An end: a group joining the side's two edges, `{ dirs =, black = "n s", white = "w e" }`.
-- @function d.connect
-- @tparam[opt] table fields the end's fields
-- @treturn table the end
d.connect = maker("connect")
--- An end: a piece in the side's zone, `{ zone =, piece = }`.
-- @function d.reach
-- @tparam[opt] table fields the end's fields
-- @treturn table the end
d.reach = maker("reach")
--- An end: the opponent has no piece left.
-- @function d.no_pieces
-- @tparam[opt] table fields none
-- @treturn table the end
d.no_pieces = maker("no_pieces")
--- An end: no empty cell left, `{ result = "score"|"draw" }`.
-- @function d.full
-- @tparam[opt] table fields the end's fields
-- @treturn table the end
d.full = maker("full")
--- An end: after n plies, `{ n =, result = "draw"|"score" }`.
-- @function d.plies
-- @tparam[opt] table fields the end's fields
-- @treturn table the end
d.plies = maker("plies")

--- A cell list read: `"a1:h2/dark c5"` -> `{ {1, 1}, ... }` (a new list of
-- `{row, col}`); a user error when it is malformed.
-- @param text a cell list (a string, or a list of strings and pairs)
-- @treturn table the cells
function d.cells(text)
  local cells, why = words.cells(text)
  if not cells then errors.fail("d.cells: " .. why) end
  return cells
end

--- The normalised form of a description (or of a described rule set) for
-- options `opts` (the declared defaults fill the rest), computed once per
-- distinct option set: the table the C engine and the Lua reference read.
-- @tparam table desc a description, or a rule set made by d.game
-- @tparam[opt] table opts option values
-- @treturn table the normalised form (shared: do not change it)
function d.normalize(desc, opts)
  if type(desc) == "table" and type(desc.described) == "table" then desc = desc.described.description end
  return (compile.normalised(desc, opts))
end

-- The hooks the C path stands for: the tree hooks and the score.
local VOUCHED = { "moves", "play", "pass", "can_pass", "undo", "finished", "score" }

--- Whether the C engine runs `rules` exactly: a rule set made by d.game
-- (not by d.reference) whose tree hooks and score are still those it
-- yields. Then perft counts with the engine's own `S:perft`.
-- @tparam table rules a rule set
-- @treturn boolean
function d.in_core(rules)
  if type(rules) ~= "table" or type(rules.described) ~= "table" or rules.described.engine ~= "core" then
    return false
  end
  for _, name in ipairs(VOUCHED) do
    if rules[name] ~= hooks[name] then return false end
  end
  return true
end

local function make(desc, engine)
  if type(desc) ~= "table" then errors.fail(("d.game: expected a description table, got %s"):format(type(desc))) end
  compile.normalised(desc) -- checked now, with the default options
  local original = {}
  for _, name in ipairs { "setup", "moves", "play", "pass", "can_pass", "undo", "finished", "score", "clone",
    "move_text", "parse_move", "move_cells", "board_text", "side_name", "size_text" } do
    original[name] = hooks[name]
  end
  local rules = {
    name = desc.name, family = "board", description = desc.description, score_unit = desc.score_unit,
    symmetry = desc.symmetry,
    described = {
      description = desc, engine = engine, hooks = original,
      normalised = function(opts) return d.normalize(desc, opts) end,
    },
  }
  if desc.options ~= nil then
    local options = {}
    for key, spec in pairs(desc.options) do options[key] = spec end
    rules.options = options
  end
  local check_options = desc.check_options
  if check_options ~= nil then
    -- a function of the options, as every field of a description is
    rules.check_options = function(_, opts) return check_options(opts) end
  end
  return setmetatable(rules, { __index = hooks })
end

--- A rule set from a description: checked now (a user error naming the
-- field at fault), a new table of the "board" family whose hooks run the
-- game in C. `options` declarations become the rule set's, and
-- `check_options` (a function of the options: nil when they go together,
-- else why not) its hook of that name; any field may be a function of the
-- options.
-- @tparam table desc the description
-- @treturn table the rule set
function d.game(desc)
  return make(desc, "core")
end

--- The same game run by the Lua reference interpreter
-- (boardscript.describe.reference), for checking the C engine.
-- @tparam table desc_or_rules a description, or a rule set made by d.game
-- @treturn table a new rule set
function d.reference(desc_or_rules)
  local desc = desc_or_rules
  if type(desc) == "table" and type(desc.described) == "table" then desc = desc.described.description end
  return make(desc, "reference")
end

return d
