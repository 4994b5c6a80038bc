-- A user's variant for the transcript variant-file: Reversi on 6 x 6 with
-- black on the top-left centre cell.
local rules = require "boardscript.rules"
return rules.variant(require "boardscript.rules.reversi", { name = "small-reversi", size = 6, centre = "black" })
