--- `boardscript ai list [--game NAME|FILE]`: the built-in policies (AIs),
-- the rule sets each plays, what it does and the options it takes
-- (written after its name: `--black mcts:playouts=500`).
--
-- The format, one block per policy, sorted by name:
--
--     NAME: SUMMARY
--       games: any | NAME, NAME...    (a rule set answers to its own name, its bases' and its family's;
--                                     a family that is no rule set's name is written "board family";
--                                     a policy with an `accepts` predicate: the built-in rule sets it
--                                     accepts, then "(built-in), and the variants it accepts")
--       options: none                 (or one line per option:)
--       option KEY: TYPE [MIN..MAX] [one of A, B][, default D] - HELP
--
-- then the learned evaluations boardscript ships (alphabeta's default for
-- their rule set and size; eval=shipped for minimax and mcts):
--
--     shipped evaluations:
--       RULES N x N: PATH (COMMAND THAT MADE IT)
local evalfile = require "boardscript.evalfile"
local declarations = require "boardscript.declared"
local players = require "boardscript.players"
local rules_mod = require "boardscript.rules"

local command = { summary = "List the built-in AI policies: the games they play and their options." }

function command.configure(cmd)
  cmd:command_target("ai_command")
  local list = cmd:command("list", "List the built-in policies, the rule sets they play and their options.")
  list:option("--game", "Only the policies that play this rule set (a built-in name or a path to a rule set file).")
  require("boardscript.options").budgets(list, "each call into a rule set file (its loading, a hook)")
end

-- "integer 1..30, default 3" from an option declaration.
local function option_kind(spec)
  local text = declarations.kind(spec)
  if spec.default ~= nil then text = text .. ", default " .. tostring(spec.default) end
  return text
end

-- The built-in rule sets that built-in policy `name` plays.
local function builtin_rule_sets(name)
  local found = {}
  for _, rule_set in ipairs(rules_mod.builtin_names()) do
    for _, policy in ipairs(players.builtin_for(rule_set)) do
      if policy == name then found[#found + 1] = rule_set end
    end
  end
  return found
end

-- "any", or the names in `games`; a family name that is no built-in rule
-- set's ("board") is written "board family". An entry with an `accepts`
-- predicate lists the built-in rule sets it accepts.
local function games_text(name, entry)
  if entry.accepts ~= nil then
    return table.concat(builtin_rule_sets(name), ", ") .. " (built-in), and the variants it accepts"
  end
  if entry.games == nil then return "any" end
  local parts = {}
  for i, game in ipairs(entry.games) do
    parts[i] = (rules_mod.FAMILIES[game] and not rules_mod.BUILTIN[game]) and (game .. " family") or game
  end
  return table.concat(parts, ", ")
end

--- The block describing built-in policy `name` (see the top of this file).
function command.describe(name)
  local entry = players.BUILTIN[name]
  local policy = require(entry.module)
  local out = { ("%s: %s"):format(name, entry.summary or "") }
  out[#out + 1] = "  games: " .. games_text(name, entry)
  local declared = type(policy) == "table" and policy.options or {}
  local keys = {}
  for key in pairs(declared) do keys[#keys + 1] = key end
  table.sort(keys)
  if #keys == 0 then out[#out + 1] = "  options: none" end
  for _, key in ipairs(keys) do
    local spec = declared[key]
    out[#out + 1] = ("  option %s: %s%s"):format(key, option_kind(spec), spec.help and (" - " .. spec.help) or "")
  end
  return table.concat(out, "\n") .. "\n"
end

function command.run(args)
  local names
  if args.game then
    names = players.builtin_for(rules_mod.load(args.game))
  else
    names = {}
    for name in pairs(players.BUILTIN) do names[#names + 1] = name end
    table.sort(names)
  end
  for _, name in ipairs(names) do io.stdout:write(command.describe(name)) end
  local shipped = evalfile.list_shipped()
  local game = args.game and rules_mod.load(args.game)
  local lines = {}
  for _, entry in ipairs(shipped) do
    if not game or game.name == entry.rules then
      local ok, _, meta = pcall(evalfile.load, entry.path)
      local made = ok and meta.command and (" (" .. meta.command .. ")") or ""
      lines[#lines + 1] = ("  %s %d x %d: %s%s\n"):format(entry.rules, entry.size, entry.size, entry.path, made)
    end
  end
  if #lines > 0 then
    io.stdout:write("shipped evaluations (alphabeta's default; eval=shipped):\n", table.concat(lines))
  end
  return 0
end

return command
