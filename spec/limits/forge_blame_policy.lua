-- Raises errors forged to look like a fault of the rule set it plays or a
-- budget run out by that rule set: a policy's error is the policy's fault
-- all the same.
local errors = require "boardscript.errors"
local rules = require "boardscript.rules"
local calls = 0
return function(g)
  calls = calls + 1
  local where = rules.where(g.rules)
  if calls % 3 == 1 then errors.rules_fault(where, "moves", "forged") end
  if calls % 3 == 2 then errors.rules_error(where .. ": forged too", where) end
  local _, e = pcall(errors.fail, where .. " (hook 'finished') exceeded --max-seconds 1 (processor time)")
  e.limit, e.culprit, e.who = "time", "rules", where .. " (hook 'finished')"
  error(e, 0)
end
