--- The rule-set options every command that takes a rule set accepts:
-- `--size N` and repeatable `--opt key=value`. The values stay text here;
-- game.new checks them against the rule set's declarations.
local errors = require "boardscript.errors"
local rules_mod = require "boardscript.rules"

local rule_options = {}

--- Adds --size and --opt to an argparse command.
function rule_options.add(cmd)
  cmd:option("--size", "Board size (the rule set's `size` option; rows x cols as RxC for dots).")
  cmd:option("--opt", "A rule option, key=value (repeatable; 'boardscript rules NAME' lists them)."):count("*")
end

--- The options as text: { key = "value" }, --size included.
function rule_options.texts(args)
  local texts = {}
  for _, item in ipairs(args.opt or {}) do
    local key, value = item:match("^([%w_]+)=(.*)$")
    if not key then errors.fail(("--opt %s: expected key=value"):format(item)) end
    texts[key] = value
  end
  if args.size then
    local rows, cols = args.size:match("^(%d+)[xX](%d+)$")
    if rows then
      texts.rows, texts.cols = rows, cols
    else
      texts.size = args.size
    end
  end
  return texts
end

--- Converts texts to the values the rule set declares (by rules_mod.parse_option)
-- and checks them together with the rest of its options (its `check_options`):
-- a combination it refuses is a user error naming the rule set and why, before
-- a command starts anything (game.new checks again).
function rule_options.convert(rules, texts)
  local opts = {}
  for key, text in pairs(texts) do opts[key] = rules_mod.parse_option(rules, key, text) end
  -- (named as game.new names it: "rules FILE", "rules NAME")
  local where = rules_mod.from_file(rules) and rules_mod.where(rules) or ("rules " .. tostring(rules.name))
  rules_mod.resolve_options(rules, opts, where)
  return opts
end

--- A new game of the rule set named by args.rules (or `name`), with the
-- options of args, set up with generator `rng`. Problems are user errors.
function rule_options.new_game(args, rng, name)
  local game = require "boardscript.game"
  local source = name or args.rules
  local rules = rules_mod.load(source)
  local g = game.new(rules, rule_options.convert(rules, rule_options.texts(args)), rng)
  g.source = source
  return g
end

return rule_options
