--- Test helper: a table of misuse cases, each a message fragment and a call
-- that must raise "bad argument ..." containing it.
local assert = require "luassert"

local misuse = {}

--- Declares one case per `it` (busted's, passed in) inside the current `describe`.
function misuse.describe_cases(it, cases)
  for _, case in ipairs(cases) do
    it("raises an error naming the argument: " .. case[1], function()
      local ok, err = pcall(case[2])
      assert.is_false(ok)
      assert.matches(case[1], err, 1, true)
      assert.matches("bad argument", err, 1, true)
    end)
  end
end

return misuse
