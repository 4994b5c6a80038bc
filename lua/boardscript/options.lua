--- The command-line options commands share, declared once each: `--seed`,
-- the budgets `--max-memory` and `--max-seconds`, `--max-plies`, and the
-- converters of option values (each returns the value, or nil and a
-- message naming what was expected). Rule-set options (`--size`, `--opt`)
-- are boardscript.rule_options; what a rule set or policy declares is
-- boardscript.declared.
local declared = require "boardscript.declared"

local options = {}

--- Whether a value is an integer (a Lua integer, not a float) from lo to hi:
-- the one range check of option values and of what commands read back
-- (match-merge's lines).
-- @param value any value
-- @tparam integer lo the smallest allowed
-- @tparam integer hi the largest allowed
-- @treturn boolean
function options.is_integer_in(value, lo, hi)
  return math.type(value) == "integer" and value >= lo and value <= hi
end

--- An integer from lo to hi, written as an optional sign and digits: a
-- converter for an argparse option.
-- @tparam integer lo the smallest allowed
-- @tparam integer hi the largest allowed
-- @tparam string what the option's name in the message
-- @treturn function the converter (the integer, or nil and a message)
function options.integer_in(lo, hi, what)
  return function(s)
    local n = declared.integer(s)
    if not options.is_integer_in(n, lo, hi) then
      return nil, ("%s must be an integer from %d to %d"):format(what, lo, hi)
    end
    return n
  end
end

--- Declares `--seed` on an argparse command: any integer, `help` its help
-- text, `default` its default (text) or none (the command then draws one
-- with options.clock_seed()). Every command's --seed is declared here.
function options.seed(cmd, help, default)
  return cmd:option("--seed", help, default):convert(function(s)
    local n = declared.integer(s)
    if not n then return nil, "seed must be an integer" end
    return n
  end)
end

--- A seed from the clock, for a run the user did not seed (commands print
-- or record it, so the run can still be repeated).
function options.clock_seed()
  return os.time() ~ math.floor(os.clock() * 1e6)
end

--- The largest --max-memory, in MiB (1 TiB: a budget in bytes must be an
-- integer).
options.MAX_MEMORY_MIB = 1 << 20

--- Checks a --max-memory or --max-seconds text: the number, or nil and
-- the usage message. `max`: the largest value (default: any finite one).
function options.budget_number(what, text, max)
  local n = tonumber(text)
  if not n or n ~= n or n <= 0 or n == math.huge or (max and n > max) then
    return nil, max and ("%s must be a number greater than 0, at most %d"):format(what, max)
      or ("%s must be a number greater than 0"):format(what)
  end
  return n
end

--- A converter (for argparse) of a number greater than 0 for option
-- `what`, at most `max` when given.
function options.positive(what, max)
  return function(text) return options.budget_number(what, text, max) end
end

--- What one budget covers, as the commands' help says it.
options.PER_CALL = "each call into user code (a policy's move, a hook of a rule set file)"

--- Declares --max-memory and --max-seconds on an argparse command (every
-- command's budget options are declared here; boardscript.limits applies
-- them); `scope` says what one budget covers (default options.PER_CALL).
-- `default_seconds`: the --max-seconds the command takes when it is not
-- given (the interactive ones: docs/decisions.md), or nil for none;
-- `default_memory` likewise for --max-memory (MiB).
function options.budgets(cmd, scope, default_seconds, default_memory)
  scope = scope or options.PER_CALL
  cmd:option("--max-memory", ("Budget of Lua heap growth in MiB for %s; a call over it is stopped "
    .. "with a message naming the file (default: %s)."):format(scope,
    default_memory and tostring(default_memory) or "none"))
    :argname("<MIB>"):convert(options.positive("--max-memory", options.MAX_MEMORY_MIB))
  cmd:option("--max-seconds", ("Budget of processor seconds for %s (default: %s)."):format(scope,
    default_seconds and tostring(default_seconds) or "none"))
    :argname("<S>"):convert(options.positive("--max-seconds"))
end

--- The --max-seconds of the protocol sessions (nboard, gtp) when none is
-- given: one move or one command of a GUI never runs longer.
options.PROTOCOL_SECONDS = 60

--- Declares what an engine session over a protocol (nboard, gtp) takes:
-- `--policy` (default alphabeta), `--seed` and the budgets, whose
-- --max-seconds defaults to options.PROTOCOL_SECONDS.
-- @param cmd an argparse command
function options.engine_session(cmd)
  cmd:option("--policy", "The engine's policy, NAME[:key=value,...] (see 'boardscript ai list').", "alphabeta")
  options.seed(cmd, "Seed for the policy's random choices (default: drawn from the clock).")
  options.budgets(cmd, "each move a policy file or a Lua policy chooses (the alphabeta search gets the "
    .. "seconds as its time limit)", options.PROTOCOL_SECONDS)
end

--- Declares --max-plies on an argparse command (boardscript.game applies it).
function options.max_plies(cmd)
  cmd:option("--max-plies", "Stop a game that has not ended after N plies (moves and passes) as the rule set's "
    .. "fault (default: 50 per cell of the board, at least 1000).")
    :argname("<N>"):convert(function(text)
      local n = math.tointeger(tonumber(text))
      if not n or n < 1 then return nil, "--max-plies must be a whole number of at least 1" end
      return n
    end)
end

return options
