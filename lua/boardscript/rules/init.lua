--- Rule sets: tables of hooks over the core, validated once when loaded.
-- A rule set is called with method syntax (`rules:moves(state)`), so a
-- variant made with `rules.variant(base, {...})` overrides only what differs
-- and inherits the rest.
local M = {}

-- The hooks every rule set must end up with (own or inherited).
M.HOOKS = { "setup", "moves", "play", "undo", "pass", "finished", "score" }

-- Built-in rule sets by name; anything else is loaded as a Lua file path.
M.BUILTIN = { reversi = true, blocks = true, dots = true, othello = true, flipflop = true }

--- Checks that `rules` has every hook; returns it, or raises an error that
-- names the missing or mistyped field.
function M.validate(rules, where)
  where = where or "rule set"
  if type(rules) ~= "table" then
    error(("%s: expected a table of rule hooks, got %s"):format(where, type(rules)), 2)
  end
  for _, hook in ipairs(M.HOOKS) do
    if type(rules[hook]) ~= "function" then
      error(("%s: field '%s' must be a function (got %s)"):format(where, hook, type(rules[hook])), 2)
    end
  end
  if rules.name ~= nil and type(rules.name) ~= "string" then
    error(("%s: field 'name' must be a string"):format(where), 2)
  end
  return rules
end

-- Hooks shared by rule sets whose state is a board plus plain fields.

--- Whether (row, col) are integers naming a cell of `board`.
function M.on_board(board, row, col)
  local n = board:size()
  return math.type(row) == "integer" and math.type(col) == "integer"
    and row >= 1 and col >= 1 and row <= n and col <= n
end

--- score hook: disc counts, black then white.
function M.disc_counts(_, state)
  return state.board:count("black"), state.board:count("white")
end

--- winner hook: "black", "white" or "draw" by the score hook.
function M.winner_by_score(self, state)
  local black, white = self:score(state)
  if black > white then return "black" elseif white > black then return "white" end
  return "draw"
end

--- clone hook: the board cloned, a history list copied, other fields as they are.
function M.copy_state(_, state)
  local copy = {}
  for key, value in pairs(state) do copy[key] = value end
  copy.board = state.board:clone()
  if state.history then copy.history = table.move(state.history, 1, #state.history, 1, {}) end
  return copy
end

--- A variant of `base`: the fields of `overrides` win, the rest is inherited.
function M.variant(base, overrides)
  return M.validate(setmetatable(overrides or {}, { __index = base }))
end

--- Loads a rule set by built-in name or by path to a Lua file returning one.
function M.load(name)
  if M.BUILTIN[name] then
    return M.validate(require("boardscript.rules." .. name), name)
  end
  if name:match("%.lua$") then
    local chunk, err = loadfile(name)
    if not chunk then error(err, 0) end
    return M.validate(chunk(), name)
  end
  local known = {}
  for k in pairs(M.BUILTIN) do known[#known + 1] = k end
  table.sort(known)
  error(("unknown rule set '%s' (built-in: %s, or a path to a .lua file)"):format(
    name, table.concat(known, ", ")), 0)
end

return M
