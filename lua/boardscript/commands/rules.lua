--- `boardscript rules [NAME|FILE]`: what a rule set is (its description,
-- how the game is played) and the options it takes; without an argument,
-- the built-in rule sets.
local declarations = require "boardscript.declared"
local perft = require "boardscript.perft"
local players = require "boardscript.players"
local rules_mod = require "boardscript.rules"
local text = require "boardscript.text"

local command = { summary = "Describe a rule set: how it is played, its options (for --size/--opt), sides and AIs." }

function command.configure(cmd)
  cmd:argument("rules", "A built-in name or a path to a rule set file (default: list the built-in ones)."):args("?")
  require("boardscript.options").budgets(cmd, "each call into a rule set file (its loading, a hook)")
end

local option_kind = declarations.kind

-- The description is printed indented, its lines filled to this width.
local DESCRIPTION_WIDTH = 76

--- The line saying a board game's symmetries at its default options
-- (boardscript.symmetry): declared, from its direction sets, or none; nil
-- for Dots and Boxes and where no default game can be set up.
function command.symmetry_line(r)
  if (r.family or "board") ~= "board" then return nil end
  local symmetry = require "boardscript.symmetry"
  local ok, g = pcall(require("boardscript.game").new, r, {}, require("boardscript.core").rng(1))
  if not ok or type(g.state) ~= "table" or g.state.board == nil then return nil end
  local got, group = pcall(symmetry.of, r, g:board(), g.state)
  if not got then return nil end
  local why = r.symmetry ~= nil and "declared" or (#group > 1 and "from its direction sets" or "none declared")
  return ("symmetry: %s (%s)"):format(symmetry.text(group), why)
end

local function describe(name)
  local r = rules_mod.load(name)
  local out = {}
  out[#out + 1] = ("rules %s (family %s)"):format(tostring(r.name), r.family or "board")
  if r.description then
    for _, line in ipairs(text.wrap(r.description, DESCRIPTION_WIDTH)) do
      out[#out + 1] = line ~= "" and ("  " .. line) or ""
    end
  end
  out[#out + 1] = ("sides: %s, %s"):format(r:side_name(r.sides[1]), r:side_name(r.sides[2]))
  out[#out + 1] = ("score: %s (score_unit)"):format(require("boardscript.match").unit(r))
  local symmetry_line = command.symmetry_line(r)
  if symmetry_line then out[#out + 1] = symmetry_line end
  local keys = {}
  for key in pairs(r.options or {}) do keys[#keys + 1] = key end
  table.sort(keys)
  out[#out + 1] = #keys > 0 and "options:" or "options: none"
  for _, key in ipairs(keys) do
    local spec = r.options[key]
    local default = r[key]
    if default == nil then default = spec.default end
    out[#out + 1] = ("  %s: %s%s%s"):format(key, option_kind(spec),
      default ~= nil and default ~= "" and (", default " .. tostring(default)) or "",
      spec.help and (" - " .. spec.help) or "")
  end
  if r.check_options ~= nil then
    out[#out + 1] = "  (some combinations are refused: the rule set checks them together, check_options)"
  end
  out[#out + 1] = "built-in AIs: " .. table.concat(players.builtin_for(r), ", ")
  out[#out + 1] = "perft: " .. (perft.in_core(r) and "counted by the C core" or "counted over the Lua hooks")
  return table.concat(out, "\n") .. "\n"
end

function command.run(args)
  if args.rules then
    io.stdout:write(describe(args.rules))
    return 0
  end
  for _, name in ipairs(rules_mod.builtin_names()) do
    local r = rules_mod.load(name)
    io.stdout:write(("%-16s %s family, sides %s and %s\n"):format(name, r.family or "board",
      r:side_name(r.sides[1]), r:side_name(r.sides[2])))
  end
  return 0
end

return command
