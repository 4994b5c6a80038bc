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
