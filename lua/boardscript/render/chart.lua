--- A line chart of values over the moves of a game, as an SVG panel for
-- boardscript.render.svg: one line per series (the scores of both sides, an
-- evaluation), one point per move, axes with round ticks.
--
-- A description: { title = text, moves = N (the x axis runs 0..N),
-- series = { { name =, class =, colour =, fill =, values = { [k] = number } } ... },
-- labels = { [k] = "12. Black f5" } (each point's tooltip), symmetric = true
-- (a y range around 0 with a zero line, for evaluations), cursor = K (a
-- marker at move K), integer = true (whole-number values: ticks at least
-- 1 apart), x_label = the x axis's name (default "move"), y_max = a
-- value the y axis reaches at least }. `values[0]`,
-- the start position, starts the line but has no point; a move without a
-- value leaves a gap.
local xml = require "boardscript.render.xml"

local chart = {}

local tag, num, escape = xml.tag, xml.num, xml.escape

local HEIGHT = 190
local LEFT, RIGHT, TOP, BOTTOM = 46, 16, 30, 34

--- A round step (1, 2 or 5 times a power of ten) that cuts `range` into at
-- most `count` intervals.
function chart.step(range, count)
  local raw = math.max(range, 1e-9) / count
  local power = 10 ^ math.floor(math.log(raw, 10))
  for _, m in ipairs { 1, 2, 5, 10 } do
    if m * power >= raw - 1e-9 then return m * power end
  end
  return 10 * power
end

-- The y range: [0, top] (or [-top, top]) with top a multiple of the step.
local function y_range(description)
  local high, low = description.y_max or 0, 0
  for _, s in ipairs(description.series) do
    for _, v in pairs(s.values) do
      high, low = math.max(high, v), math.min(low, v)
    end
  end
  if description.symmetric then
    local top = math.max(high, -low, 1)
    local step = chart.step(top, 3)
    top = math.ceil(top / step - 1e-9) * step
    return -top, top, step
  end
  high = math.max(high, 1)
  local step = chart.step(high - low, 4)
  if description.integer then step = math.max(1, math.floor(step)) end
  return math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step, step
end

-- Integer-valued steps print without decimals; others keep up to two.
local function label(v)
  if v == math.floor(v) and math.abs(v) < 2 ^ 53 then return ("%d"):format(v) end
  return num(v)
end

--- The panel of `description`, `width` wide.
function chart.panel(description, width)
  local parts = {}
  local function add(s) parts[#parts + 1] = s end
  local moves = math.max(description.moves, 1)
  local plot_w, plot_h = width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
  local low, high, step = y_range(description)
  local function x(k) return LEFT + k * plot_w / moves end
  local function y(v) return TOP + (high - v) * plot_h / (high - low) end
  add(tag("text", { "class", "chart-title", "x", num(LEFT), "y", "16", "font-size", "13", "fill", "#222222" },
    escape(description.title)))
  -- Legend, under the plot on the left: a swatch and a name per series.
  local legend_x, legend_y = LEFT, TOP + plot_h + 29
  for _, s in ipairs(description.series) do
    add(tag("rect", { "x", num(legend_x), "y", num(legend_y - 9), "width", "10", "height", "10",
                      "fill", s.fill or s.colour, "stroke", s.colour }))
    add(tag("text", { "class", "legend", "x", num(legend_x + 14), "y", num(legend_y), "font-size", "11",
                      "fill", "#222222" }, escape(s.name)))
    legend_x = legend_x + 14 + 7 * (utf8.len(s.name) or #s.name) + 16
  end
  add(tag("rect", { "class", "plot", "x", num(LEFT), "y", num(TOP), "width", num(plot_w), "height", num(plot_h),
                    "fill", "#fafafa", "stroke", "#999999" }))
  local v = low
  while v <= high + 1e-9 do
    add(tag("line", { "x1", num(LEFT), "y1", num(y(v)), "x2", num(LEFT + plot_w), "y2", num(y(v)),
                      "stroke", v == 0 and description.symmetric and "#666666" or "#e2e2e2", "stroke-width", "1" }))
    add(tag("text", { "x", num(LEFT - 5), "y", num(y(v) + 4), "font-size", "11", "text-anchor", "end",
                      "fill", "#444444" }, label(v)))
    v = v + step
  end
  local x_step = math.max(1, chart.step(moves, 6))
  for k = 0, moves, x_step do
    add(tag("text", { "x", num(x(k)), "y", num(TOP + plot_h + 15), "font-size", "11", "text-anchor", "middle",
                      "fill", "#444444" }, label(k)))
  end
  add(tag("text", { "x", num(LEFT + plot_w), "y", num(TOP + plot_h + 29), "font-size", "11", "text-anchor", "end",
                    "fill", "#444444" }, escape(description.x_label or "move")))
  if description.cursor and description.cursor ~= description.moves then
    add(tag("line", { "class", "cursor", "x1", num(x(description.cursor)), "y1", num(TOP), "x2",
                      num(x(description.cursor)), "y2", num(TOP + plot_h), "stroke", "#e0301e",
                      "stroke-dasharray", "4 3" }))
  end
  local labels = description.labels or {}
  for _, s in ipairs(description.series) do
    local runs, run = {}, nil
    for k = 0, description.moves do
      local value = s.values[k]
      if value == nil then
        run = nil
      else
        if not run then
          run = {}
          runs[#runs + 1] = run
        end
        run[#run + 1] = num(x(k)) .. "," .. num(y(value))
      end
    end
    for _, points in ipairs(runs) do
      if #points > 1 then
        add(tag("polyline", { "class", "series " .. s.class, "points", table.concat(points, " "), "fill", "none",
                              "stroke", s.colour, "stroke-width", "2" }))
      end
    end
    for k = 1, description.moves do
      local value = s.values[k]
      if value ~= nil then
        local where = labels[k] or ((description.x_label or "move") .. " " .. k)
        local tip = ("%s: %s %s"):format(where, s.name, label(value))
        add(tag("circle", { "class", "point " .. s.class, "data-move", k, "cx", num(x(k)), "cy", num(y(value)),
                            "r", "2.5", "fill", s.fill or s.colour, "stroke", s.colour },
          tag("title", {}, escape(tip))))
      end
    end
  end
  return { width = width, height = HEIGHT, parts = parts }
end

return chart
