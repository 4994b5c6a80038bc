-- Raises errors forged to look like a rule set's fault or a budget run
-- out by the rule set: a policy's error is the policy's fault all the same.
local errors = require "boardscript.errors"
local calls = 0
return function()
  calls = calls + 1
  if calls % 2 == 1 then errors.rules_fault("rules reversi", "moves", "forged") end
  local _, e = pcall(errors.fail, "rules reversi (hook 'finished') exceeded --max-seconds 1 (processor time)")
  e.limit, e.culprit, e.who = "time", "rules", "rules reversi (hook 'finished')"
  error(e, 0)
end
