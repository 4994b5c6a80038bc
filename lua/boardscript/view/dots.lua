--- Dots and Boxes grids as text (seed 001): dot rows `a +-+ +`, box rows
-- with `|` edges and owner marks, the column numbers below. Every line is
-- at full width, trailing spaces kept.
-- (Dot and edge names are boardscript.notation.dots.)
local notation = require "boardscript.notation.dots"

local view = {}

--- The grid of core dots position `d`; marks maps an owner (1 or 2) to the
-- letter shown in its boxes.
function view.grid(d, marks)
  local rows, cols = d:rows(), d:cols()
  local lines = {}
  for r = 1, rows + 1 do
    local line = { notation.row_name(r), " +" }
    for c = 1, cols do line[#line + 1] = (d:is_drawn(r, c, r, c + 1) and "-" or " ") .. "+" end
    lines[#lines + 1] = table.concat(line)
    if r <= rows then
      line = { "  " }
      for c = 1, cols + 1 do
        line[#line + 1] = d:is_drawn(r, c, r + 1, c) and "|" or " "
        if c <= cols then line[#line + 1] = marks[d:box_owner(r, c)] or " " end
      end
      lines[#lines + 1] = table.concat(line)
    end
  end
  local numbers = {}
  for c = 1, cols + 1 do numbers[c] = tostring(c) end
  lines[#lines + 1] = "  " .. table.concat(numbers, " ")
  return table.concat(lines, "\n") .. "\n"
end

return view
