--- Pictures as SVG: a position of any rule set (the cells of its core board,
-- or the edges and boxes of a Dots and Boxes position) with its coordinates,
-- last move, legal moves and move numbers, and charts of values over the
-- moves of a game (boardscript.render.chart). Pure: a game and plain tables in,
-- SVG text out, depending on nothing else (no clock, no randomness), so a
-- picture can be golden-tested. Elements carry classes (`disc black`,
-- `legal`, `block`, `last`, `number`, `box p1`, `edge`, `point black`) that
-- say what they show, for scripts and tests to count.
local xml = require "boardscript.render.xml"
local chart = require "boardscript.render.chart"
local dots_notation = require "boardscript.notation.dots"

local svg = {}

svg.escape, svg.num = xml.escape, xml.num
local tag, num = xml.tag, xml.num

local COLOURS = { black = "#111111", white = "#f4f4f4" }
local TEXT_ON = { black = "#ffffff", white = "#111111" }
local OWNER_FILL = { "#9ecae1", "#f4a582" }
local OWNER_TEXT = { "#1f5f99", "#a63a1f" }
local BOARD_FILL, GRID, LAST = "#2e7d4f", "#0d3b22", "#e0301e"
local MIN_WIDTH = 320

local function clamp(x, lo, hi) return math.max(lo, math.min(hi, x)) end

--- The key of a board cell in `opts.numbers`: "row,col".
function svg.cell_key(row, col)
  return row .. "," .. col
end

--- The key of a dots edge in `opts.numbers`: "r1,c1,r2,c2", smaller dot first.
function svg.edge_key(r1, c1, r2, c2)
  if r2 < r1 or (r2 == r1 and c2 < c1) then r1, c1, r2, c2 = r2, c2, r1, c1 end
  return ("%d,%d,%d,%d"):format(r1, c1, r2, c2)
end

--- The key under which a move of `g`'s rule set is numbered, or nil when
-- the move is no cell (board) or edge (dots) of the game's board.
function svg.move_key(g, move)
  if type(move) ~= "table" then return nil end
  local b = g:board()
  local family = g.rules.family or "board"
  local function int(v, hi) return math.type(v) == "integer" and v >= 1 and v <= hi end
  if family == "dots" then
    local rows, cols = b:rows() + 1, b:cols() + 1
    if not (int(move[1], rows) and int(move[2], cols) and int(move[3], rows) and int(move[4], cols)) then
      return nil
    end
    if math.abs(move[1] - move[3]) + math.abs(move[2] - move[4]) ~= 1 then return nil end
    return svg.edge_key(move[1], move[2], move[3], move[4])
  end
  local cells = svg.move_cells(g, move)
  if not cells then return nil end
  local to = cells[#cells]
  return svg.cell_key(to[1], to[2])
end

--- The cells a board-family move touches, the one it lands on last (the
-- rule set's `move_cells` hook; by default the move's own {row, col}), or
-- nil when it is no move on the board.
function svg.move_cells(g, move)
  local b = g:board()
  local rows, cols = b:size(), b:size()
  if type(b.rows) == "function" and type(b.cols) == "function" then rows, cols = b:rows(), b:cols() end
  local f = g.rules.move_cells
  local cells
  if f then
    cells = f(g.rules, move, g.state)
  elseif type(move) == "table" and math.type(move[1]) == "integer" and math.type(move[2]) == "integer" then
    cells = { { move[1], move[2] } }
  end
  if type(cells) ~= "table" or #cells == 0 then return nil end
  for i, c in ipairs(cells) do
    if type(c) ~= "table" or math.type(c[1]) ~= "integer" or math.type(c[2]) ~= "integer" then return nil end
    if c[1] < 1 or c[2] < 1 or c[1] > rows or c[2] > cols then
      local rules_mod = require "boardscript.rules"
      require("boardscript.errors").rules_fault(rules_mod.where(g.rules), "move_cells", ("returned %s as cell %d "
        .. "for %s (expected {row, col} on the %d x %d board)"):format(require("boardscript.errors").describe(c),
        i, tostring(g:move_text(move)), rows, cols))
    end
  end
  return cells
end

-- A panel: a width, a height and its elements, drawn from (0, 0).
local function panel(width, height, parts)
  return { width = width, height = height, parts = parts }
end

-- A number drawn on a cell or an edge, centred on (x, y).
-- `where` names the cell or edge (a data- attribute and its value).
local function number_text(x, y, size, k, fill, halo, where)
  local attrs = { "class", "number", where[1], where[2], "x", num(x), "y", num(y + size * 0.36), "font-size", num(size),
                  "text-anchor", "middle", "fill", fill }
  if halo then
    for _, v in ipairs { "stroke", "#ffffff", "stroke-width", "3", "paint-order", "stroke" } do
      attrs[#attrs + 1] = v
    end
  end
  return tag("text", attrs, xml.escape(tostring(k)))
end

local function coordinate(x, y, size, anchor, text)
  return tag("text", { "class", "coord", "x", num(x), "y", num(y), "font-size", num(size),
                       "text-anchor", anchor, "fill", "#333333" }, xml.escape(text))
end

-- The cells of a board-family game: board, grid, blocks, discs, numbers,
-- the last move ringed, legal moves dotted in the mover's colour.
local function board_panel(g, opts)
  local b = g:board()
  local n = b:size()
  -- a core board or a described game's may be rows x cols (n = the larger)
  local rows, cols = n, n
  if b.rows and b.cols then rows, cols = b:rows(), b:cols() end
  local cell = clamp(480 // n, 24, 60)
  local margin = cell // 2 + 10
  local font = clamp(cell * 0.36, 10, 16)
  local parts = {}
  local function add(s) parts[#parts + 1] = s end
  local function centre(r, c) return margin + (c - 0.5) * cell, margin + (r - 0.5) * cell end
  local function name(r, c) return string.char(96 + c) .. r end
  for c = 1, cols do add(coordinate(margin + (c - 0.5) * cell, margin - 8, font, "middle", string.char(96 + c))) end
  for r = 1, rows do add(coordinate(margin - 6, margin + (r - 0.5) * cell + font * 0.36, font, "end", tostring(r))) end
  add(tag("rect", { "class", "board", "x", num(margin), "y", num(margin), "width", num(cols * cell),
                    "height", num(rows * cell), "fill", BOARD_FILL }))
  local grid = {}
  for i = 0, n do
    if i <= rows then grid[#grid + 1] = ("M%d %dh%d"):format(margin, margin + i * cell, cols * cell) end
    if i <= cols then grid[#grid + 1] = ("M%d %dv%d"):format(margin + i * cell, margin, rows * cell) end
  end
  add(tag("path", { "class", "grid", "d", table.concat(grid), "stroke", GRID, "stroke-width", "1", "fill", "none" }))
  local radius = cell * 0.42
  local numbers = opts.numbers or {}
  local changed = {} -- cells the last move changed (flipped, captured): "d3" = true
  for _, cell_name in ipairs(opts.changed or {}) do changed[cell_name] = true end
  for r = 1, rows do
    for c = 1, cols do
      local what = b:get(r, c)
      local x, y = centre(r, c)
      if what == "block" or what == "blocked" then
        local x0, y0, inset = margin + (c - 1) * cell, margin + (r - 1) * cell, 3
        add(tag("rect", { "class", "block", "data-cell", name(r, c), "x", num(x0 + 1), "y", num(y0 + 1),
                          "width", num(cell - 2),
                          "height", num(cell - 2), "fill", "#6b6b6b" }))
        add(tag("path", { "d", ("M%s %sl%s %sM%s %sl%s %s"):format(num(x0 + inset), num(y0 + inset),
          num(cell - 2 * inset), num(cell - 2 * inset), num(x0 + cell - inset), num(y0 + inset),
          num(2 * inset - cell), num(cell - 2 * inset)), "stroke", "#8f8f8f", "stroke-width", "2" }))
      elseif COLOURS[what] then
        local flipped = changed[name(r, c)]
        add(tag("circle", { "class", "disc " .. what .. (flipped and " flipped" or ""), "data-cell", name(r, c),
                            "cx", num(x), "cy", num(y), "r", num(radius),
                            "fill", COLOURS[what], "stroke", "#000000", "stroke-width", "1" }))
        if flipped then -- marked by shape, not colour alone: a small square in the disc's middle
          local half = cell * 0.09
          add(tag("rect", { "class", "changed", "data-cell", name(r, c), "x", num(x - half), "y", num(y - half),
                            "width", num(2 * half), "height", num(2 * half), "fill", TEXT_ON[what] }))
        end
        local k = numbers[svg.cell_key(r, c)]
        if k then add(number_text(x, y, clamp(cell * 0.4, 9, 22), k, TEXT_ON[what], false,
          { "data-cell", name(r, c) })) end
      elseif changed[name(r, c)] then -- emptied by the last move (a capture, a piece moved away)
        add(tag("circle", { "class", "changed emptied", "data-cell", name(r, c), "cx", num(x), "cy", num(y),
                            "r", num(radius * 0.6), "fill", "none", "stroke", "#ffffff", "stroke-width", "2",
                            "stroke-dasharray", "3 3" }))
      end
    end
  end
  local last = opts.last
  local last_cells = last and not last.pass and svg.move_cells(g, last.move)
  if last_cells then
    local width = num(clamp(cell * 0.07, 2, 4))
    for i, c in ipairs(last_cells) do
      local x, y = centre(c[1], c[2])
      if i == #last_cells then
        add(tag("circle", { "class", "last", "data-cell", name(c[1], c[2]), "cx", num(x), "cy", num(y),
                            "r", num(cell * 0.46), "fill", "none", "stroke", LAST, "stroke-width", width }))
      else -- where the move came from (a jump's origin)
        add(tag("rect", { "class", "from", "data-cell", name(c[1], c[2]), "x", num(x - cell * 0.42),
                          "y", num(y - cell * 0.42), "width", num(cell * 0.84), "height", num(cell * 0.84),
                          "fill", "none", "stroke", LAST, "stroke-width", width, "stroke-dasharray", "4 3" }))
      end
    end
  end
  if opts.legal ~= false and not g:finished() then
    local colour = COLOURS[g:to_move()] or "#888888"
    local marked = {}
    for _, move in ipairs(g:moves()) do
      local cells = svg.move_cells(g, move)
      local to = cells and cells[#cells]
      local key = to and svg.cell_key(to[1], to[2])
      if key and not marked[key] then -- one mark a cell, however many moves land there
        marked[key] = true
        local x, y = centre(to[1], to[2])
        add(tag("circle", { "class", "legal", "data-cell", name(to[1], to[2]), "cx", num(x), "cy", num(y),
                            "r", num(cell * 0.12),
                            "fill", colour, "fill-opacity", "0.55", "stroke", "#000000", "stroke-opacity", "0.4" }))
      end
    end
  end
  if opts.cells then -- a see-through square on every cell, on top: what a page clicks
    for r = 1, rows do
      for c = 1, cols do
        add(tag("rect", { "class", "cell", "data-cell", name(r, c), "x", num(margin + (c - 1) * cell),
                          "y", num(margin + (r - 1) * cell), "width", num(cell), "height", num(cell),
                          "fill", "#000000", "fill-opacity", "0" }))
      end
    end
  end
  return panel(margin + cols * cell + 12, margin + rows * cell + 8, parts)
end

-- An edge in dots notation, smaller dot first: "a1 a2".
local edge_name = dots_notation.format

-- A Dots and Boxes position: owned boxes filled with their owner's colour
-- and number, open edges (the legal moves) dashed, drawn edges solid, the
-- last one red, move numbers on the edges.
local function dots_panel(g, opts)
  local d = g:board()
  local rows, cols = d:rows(), d:cols()
  local step = clamp(400 // math.max(rows, cols), 30, 90)
  local margin = 30
  local font = 13
  local parts = {}
  local function add(s) parts[#parts + 1] = s end
  local function at(r, c) return margin + (c - 1) * step, margin + (r - 1) * step end
  local changed = {} -- boxes the last move completed: "a1" = true
  for _, box_name in ipairs(opts.changed or {}) do changed[box_name] = true end
  for c = 1, cols + 1 do add(coordinate(margin + (c - 1) * step, margin - 14, font, "middle", tostring(c))) end
  for r = 1, rows + 1 do
    add(coordinate(margin - 14, margin + (r - 1) * step + font * 0.36, font, "end", string.char(96 + r)))
  end
  for r = 1, rows do
    for c = 1, cols do
      local owner = d:box_owner(r, c)
      if owner then
        local x, y = at(r, c)
        local box_name = string.char(96 + r) .. c
        add(tag("rect", { "class", "box p" .. owner .. (changed[box_name] and " changed" or ""),
                          "x", num(x), "y", num(y), "width", num(step), "height", num(step),
                          "fill", OWNER_FILL[owner] }))
        if changed[box_name] then -- completed by the last move: a frame inside the box
          add(tag("rect", { "class", "changed", "x", num(x + step * 0.12), "y", num(y + step * 0.12),
                            "width", num(step * 0.76), "height", num(step * 0.76), "fill", "none",
                            "stroke", OWNER_TEXT[owner], "stroke-width", "2", "stroke-dasharray", "5 3" }))
        end
        add(tag("text", { "class", "owner", "x", num(x + step / 2), "y", num(y + step / 2 + step * 0.14),
                          "font-size", num(step * 0.4), "text-anchor", "middle", "fill", OWNER_TEXT[owner] },
          xml.escape(tostring(g.rules.sides[owner]))))
      end
    end
  end
  local edges = {}
  for r = 1, rows + 1 do
    for c = 1, cols do edges[#edges + 1] = { r, c, r, c + 1 } end
  end
  for r = 1, rows do
    for c = 1, cols + 1 do edges[#edges + 1] = { r, c, r + 1, c } end
  end
  local function line(e, class, colour, width, extra)
    local x1, y1 = at(e[1], e[2])
    local x2, y2 = at(e[3], e[4])
    local attrs = { "class", class, "data-edge", edge_name(e), "x1", num(x1), "y1", num(y1), "x2", num(x2),
                    "y2", num(y2),
                    "stroke", colour, "stroke-width", num(width), "stroke-linecap", "round" }
    for _, v in ipairs(extra or {}) do attrs[#attrs + 1] = v end
    return tag("line", attrs)
  end
  if opts.legal ~= false and not g:finished() then
    for _, move in ipairs(g:moves()) do
      if svg.move_key(g, move) then add(line(move, "legal", "#9a9a9a", 1.5, { "stroke-dasharray", "4 4" })) end
    end
  end
  local last = opts.last
  local last_key = last and svg.move_key(g, last.move)
  local numbers = opts.numbers or {}
  local labels = {}
  for _, e in ipairs(edges) do
    if d:is_drawn(e[1], e[2], e[3], e[4]) then
      local key = svg.edge_key(e[1], e[2], e[3], e[4])
      local is_last = key == last_key
      add(line(e, is_last and "edge last" or "edge", is_last and LAST or "#222222", 4))
      if is_last then -- marked by shape as well as colour: a diamond on its middle
        local x1, y1 = at(e[1], e[2])
        local x2, y2 = at(e[3], e[4])
        local mx, my, k = (x1 + x2) / 2, (y1 + y2) / 2, 7
        add(tag("path", { "class", "last-mark", "d", ("M%s %sl%d %dl%d %dl%d %dz"):format(num(mx), num(my - k),
          k, k, -k, k, -k, -k), "fill", LAST, "stroke", "#ffffff", "stroke-width", "1.5" }))
      end
      local k = numbers[key]
      if k then
        local x1, y1 = at(e[1], e[2])
        local x2, y2 = at(e[3], e[4])
        labels[#labels + 1] = number_text((x1 + x2) / 2, (y1 + y2) / 2, 11, k, "#222222", true,
          { "data-edge", edge_name(e) })
      end
    end
  end
  for _, s in ipairs(labels) do add(s) end
  for r = 1, rows + 1 do
    for c = 1, cols + 1 do
      local x, y = at(r, c)
      add(tag("circle", { "class", "dot", "cx", num(x), "cy", num(y), "r", "4", "fill", "#111111" }))
    end
  end
  if opts.cells and not g:finished() then
    -- a see-through diamond on each open edge, for a page to click: its two
    -- dots and the middles of the boxes on either side, so the diamonds of
    -- the edges tile the board and a touch anywhere picks the nearest edge
    -- (split at the middle, never a neighbour's by a corner); half a box
    -- beyond the border on the outer edges
    local half = step / 2
    for _, move in ipairs(g:moves()) do
      if svg.move_key(g, move) then
        local x1, y1 = at(move[1], move[2])
        local x2, y2 = at(move[3], move[4])
        local mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        local dx, dy = (y1 == y2) and 0 or half, (y1 == y2) and half or 0
        add(tag("path", { "class", "hit", "data-edge", edge_name(move),
                          "d", ("M%s %sL%s %sL%s %sL%s %sZ"):format(num(x1), num(y1), num(mx + dx), num(my + dy),
                            num(x2), num(y2), num(mx - dx), num(my - dy)),
                          "fill", "#000000", "fill-opacity", "0" }))
      end
    end
  end
  return panel(margin + cols * step + 24, margin + rows * step + 16, parts)
end

--- The second caption line: the scores, then who won or who is to move
-- (and a pass just played).
function svg.status(g, last)
  local sides = g.rules.sides
  local scores = table.pack(g:score())
  local text = ("%s %s, %s %s"):format(g:side_name(sides[1]), tostring(scores[1]),
    g:side_name(sides[2]), tostring(scores[2]))
  if g:finished() then
    local winner = g:winner()
    if winner == "draw" then return text .. " · draw" end
    return text .. " · " .. g:side_name(winner) .. " wins"
  end
  text = text .. " · " .. g:side_name() .. " to move"
  if last and last.pass then
    local passer = last.side
    if passer == nil then passer = g:to_move() == sides[1] and sides[2] or sides[1] end
    text = text .. " (" .. g:side_name(passer) .. " passed)"
  end
  return text
end

--- A panel of centred caption lines (the first larger), `width` wide.
function svg.captions(lines, width)
  local parts = {}
  for i, line in ipairs(lines) do
    parts[i] = tag("text", { "class", "caption", "x", num(width / 2), "y", num(18 + (i - 1) * 20),
                             "font-size", i == 1 and "15" or "13", "text-anchor", "middle", "fill", "#222222" },
      xml.escape(line))
  end
  return panel(width, #lines * 20 + 6, parts)
end

--- The SVG document of panels stacked top to bottom, each centred;
-- `title` is the document's <title>.
function svg.document(panels, title)
  local width = MIN_WIDTH
  for _, p in ipairs(panels) do width = math.max(width, p.width) end
  local out, y = {}, 0
  for _, p in ipairs(panels) do
    out[#out + 1] = ('<g transform="translate(%s %s)">\n%s\n</g>'):format(num((width - p.width) // 2), num(y),
      table.concat(p.parts, "\n"))
    y = y + p.height
  end
  local height = math.ceil(y)
  return table.concat({
    '<?xml version="1.0" encoding="UTF-8"?>',
    ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      .. 'font-family="DejaVu Sans, Verdana, sans-serif">'):format(width, height, width, height),
    tag("title", {}, xml.escape(title)),
    ('<rect class="background" width="%d" height="%d" fill="#ffffff"/>'):format(width, height),
    table.concat(out, "\n"),
    "</svg>",
    "",
  }, "\n")
end

--- A picture of game `g` as it stands. opts:
-- `title` (first caption line; default the rule set's name and size),
-- `numbers` ({ [svg.cell_key or svg.edge_key] = move number }),
-- `last` (the last entry played: { move = m } or { pass = true, side = s };
-- default the game's own last move), `legal` (false: no legal-move
-- markers), `cells` (true: a see-through square with `data-cell` on every
-- cell, on top, for a page to click), `changed` (the names of the cells,
-- "d3", or dots boxes, "a1", the last move changed: marked), `captions`
-- (false: no title and status lines above the board, as a page that says
-- them itself shows it), `charts` (a list of chart descriptions, see
-- boardscript.render.chart, drawn below the board).
-- Returns the SVG text.
function svg.picture(g, opts)
  opts = opts or {}
  local last = opts.last
  if last == nil and #g.log > 0 then last = g.log[#g.log] end
  local family = g.rules.family or "board"
  local view = { numbers = opts.numbers, last = last, legal = opts.legal, cells = opts.cells, changed = opts.changed }
  local board = family == "dots" and dots_panel(g, view) or board_panel(g, view)
  local title = opts.title or svg.describe(g)
  local width = math.max(MIN_WIDTH, board.width)
  local panels = { board }
  if opts.captions ~= false then table.insert(panels, 1, svg.captions({ title, svg.status(g, last) }, width)) end
  for _, description in ipairs(opts.charts or {}) do
    panels[#panels + 1] = chart.panel(description, math.max(width, 360))
  end
  return svg.document(panels, title)
end

--- "reversi, 8 x 8" / "connect4, 6 x 7" (rows x columns) / "dots, 3 x 3 boxes": the rule set's name and size.
-- A rule set whose `size_text` says "RxC" (rows x columns: a 7 x 6 game on
-- a square core board with a row blocked) is shown at that size.
function svg.describe(g)
  local name = tostring(g.rules.name or g.source or "?")
  if (g.rules.family or "board") == "dots" then
    return ("%s, %d x %d boxes"):format(name, g:board():rows(), g:board():cols())
  end
  return ("%s, %s"):format(name, svg.size_words(g))
end

--- "8 x 8", "6 x 7" (rows x columns): the size game `g` (a board game)
-- shows: its rule set's `size_text` where that says "RxC", else its
-- board's rows and columns.
function svg.size_words(g)
  local ok, text = pcall(g.size_text, g)
  if ok and type(text) == "string" then
    local rows, cols = text:match("^%s*(%d+)%s*[xX]%s*(%d+)%s*$")
    if rows then return ("%d x %d"):format(tonumber(rows), tonumber(cols)) end
  end
  local b = g:board()
  if type(b.rows) == "function" and type(b.cols) == "function" and b:rows() ~= b:cols() then
    return ("%d x %d"):format(b:rows(), b:cols()) -- a described game's rows x columns
  end
  local n = b:size()
  return ("%d x %d"):format(n, n)
end

return svg
