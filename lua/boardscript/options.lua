--- Converters for argparse options and `--opt key=value` values: each
-- returns the value, or nil and a message naming what was expected.
local options = {}

--- An integer from lo to hi, written as an optional sign and digits.
function options.integer_in(lo, hi, what)
  return function(s)
    local n = s:match("^[+-]?%d+$") and math.tointeger(tonumber(s))
    if not n or n < lo or n > hi then
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
    local n = s:match("^[+-]?%d+$") and math.tointeger(tonumber(s))
    if not n then return nil, "seed must be an integer" end
    return n
  end)
end

--- A seed from the clock, for a run the user did not seed (commands print
-- or record it, so the run can still be repeated).
function options.clock_seed()
  return os.time() ~ math.floor(os.clock() * 1e6)
end

--- A declared option's kind as help text: "integer 4..26 even",
-- "string one of white, black".
function options.kind(spec)
  local parts = { spec.type or "string" }
  if spec.min or spec.max then parts[#parts + 1] = ("%s..%s"):format(spec.min or "", spec.max or "") end
  if spec.even then parts[#parts + 1] = "even" end
  if spec.choices then parts[#parts + 1] = "one of " .. table.concat(spec.choices, ", ") end
  return table.concat(parts, " ")
end

return options
