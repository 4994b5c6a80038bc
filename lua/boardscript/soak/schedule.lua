--- The soak's schedule: which rule set, options and seed game G of a run
-- plays. Every game is a pure function of (seed, G, the filters): the
-- configurations are listed in a fixed order and game G plays the
-- ((G - 1) mod count + 1)-th, its random options, setup and moves drawn
-- from generators seeded from (seed, G) alone, so `--only-game G` replays
-- it on its own.
local core = require "boardscript.core"
local declared = require "boardscript.declared"
local reversi = require "boardscript.rules.reversi"
local rules_mod = require "boardscript.rules"

local schedule = {}

--- The soak's own variants, made per game (names `--rules` accepts besides
-- the built-in ones and files).
schedule.VARIANTS = { "directions", "misere" }

local DIRECTIONS = { "n", "ne", "e", "se", "s", "sw", "w", "nw" }
local NAMED_SETS = { "all", "orthogonal", "diagonal", "none" }

-- splitmix64's finaliser: a well-mixed integer of x (Lua integers wrap).
local function mix(x)
  x = x + 0x9E3779B97F4A7C15
  x = (x ~ (x >> 30)) * 0xBF58476D1CE4E5B9
  x = (x ~ (x >> 27)) * 0x94D049BB133111EB
  return x ~ (x >> 31)
end

--- The seed of game `number` of a run seeded `seed`: a positive integer
-- below 2^48 (what the game's record carries).
function schedule.game_seed(seed, number)
  return mix(mix(seed) + number) & 0xFFFFFFFFFFFF
end

--- Three generators of a game: setup (seeded with the game seed, as its
-- record replays it), choices (the moves) and options.
function schedule.generators(game_seed)
  return core.rng(game_seed), core.rng(mix(game_seed) & 0xFFFFFFFFFFFF),
    core.rng(mix(game_seed + 1) & 0xFFFFFFFFFFFF)
end

-- A random direction set: a named one, or a list of directions (maybe empty).
local function random_dirs(rng)
  if rng:random(3) == 1 then return NAMED_SETS[rng:random(#NAMED_SETS)] end
  local list = {}
  for _, name in ipairs(DIRECTIONS) do
    if rng:random(2) == 1 then list[#list + 1] = name end
  end
  return list
end

--- A direction set as text: "all", "n,e".
function schedule.dirs_text(dirs)
  if type(dirs) == "table" then return #dirs > 0 and table.concat(dirs, ",") or "{}" end
  return tostring(dirs)
end

-- Reversi whose fewest discs win, told to the C core (game.misere), so the
-- searcher's view of the end is checked against the Lua winner.
local function misere_variant()
  local misere = rules_mod.variant(reversi, { name = "misere" })
  function misere:winner(state)
    local black, white = self:score(state)
    if black < white then return "black" elseif white < black then return "white" end
    return "draw"
  end
  function misere:core_game()
    local g = reversi.core_game(self)
    g.misere = true
    return g
  end
  misere.core_count = rules_mod.vouch(misere,
    { "moves", "has_moves", "play", "pass", "can_pass", "undo", "finished", "score", "winner" })
  return misere
end

--- The entries a run plays, in order: `names` (built-in names, soak
-- variants, files) or, without them, every built-in rule set, the soak's
-- variants and the example rule sets found. Each entry: { name =, source =
-- (what game.new and a record take: a name or a path; nil for a soak
-- variant), rules = (a loaded rule set, or a function making one per game) }.
function schedule.entries(names)
  local list = {}
  if names == nil or #names == 0 then
    names = rules_mod.builtin_names()
    for _, v in ipairs(schedule.VARIANTS) do names[#names + 1] = v end
    for _, example in ipairs(rules_mod.examples()) do names[#names + 1] = example.path end
  end
  for _, name in ipairs(names) do
    if name == "directions" then
      list[#list + 1] = { name = name, base = reversi, variant = "directions" }
    elseif name == "misere" then
      list[#list + 1] = { name = name, base = reversi, variant = "misere" }
    else
      local rules = rules_mod.load(name)
      local label = rules_mod.BUILTIN[name] and name or rawget(rules, "name") or name:match("([^/]+)%.lua$") or name
      list[#list + 1] = { name = label, source = name, base = rules }
    end
  end
  return list
end

-- Whether `n` passes the --sizes filter (nil: every size).
local function wanted(sizes, n)
  return sizes == nil or sizes[n] == true
end

-- How many draws of a configuration's options the soak tries before it
-- settles: when making the configurations (to find one the rule set's
-- `check_options` takes) and for each game (then its configuration's).
local CONFIG_DRAWS, GAME_DRAWS = 64, 16

local draw_options -- (below)

-- Why the rule set `rules` refuses the options `opts` together (its
-- `check_options`), or nil. A fault of the rule set (or a value it refuses
-- on its own) counts as taken here: game.new raises it again where the
-- soak reports a failed game.
local function refused(rules, opts)
  if rules.check_options == nil then return nil end
  local ok, why = pcall(function() return declared.refusal(rules, declared.resolved(rules, opts)) end)
  return ok and why or nil
end

--- The configurations of `entries`: one per entry and size, sizes being
-- those its `size` option allows (or `rows`, for a rule set with rows and
-- cols) that `sizes` (a set, or nil) keeps; one without a size when it
-- declares none. { entry =, size =, rect = boolean, taken = options its
-- check_options takes, when it has one }. They are dealt round robin, the
-- smallest size of every entry first, then the next, so any run of a few
-- dozen games meets every rule set. A size whose options the rule set's
-- `check_options` refuses, with its defaults and CONFIG_DRAWS draws of the
-- rest, is skipped: the second result lists them, { name =, size =, why = }.
-- @treturn table the configurations
-- @treturn table the sizes skipped
function schedule.configurations(entries, sizes)
  local lists, longest, skipped = {}, 0, {}
  for i, entry in ipairs(entries) do
    local list = {}
    local options = entry.base.options or {}
    local rect = options.rows ~= nil and options.cols ~= nil and options.size == nil
    local spec = rect and options.rows or options.size
    if spec and spec.type == "integer" then
      for n = spec.min or 1, spec.max or 26 do
        if (not spec.even or n % 2 == 0) and wanted(sizes, n) then
          list[#list + 1] = { entry = entry, size = n, rect = rect }
        end
      end
    else
      list[1] = { entry = entry }
    end
    if entry.base.check_options ~= nil then
      local kept = {}
      for _, config in ipairs(list) do
        local opts = draw_options(entry.base, config, nil)
        local why = refused(entry.base, opts)
        local rng = core.rng(config.size or 0)
        for _ = 1, why and CONFIG_DRAWS or 0 do
          opts = draw_options(entry.base, config, rng)
          if not refused(entry.base, opts) then
            why = nil
            break
          end
        end
        if why then
          skipped[#skipped + 1] = { name = entry.name, size = config.size, why = why }
        else
          config.taken = opts
          kept[#kept + 1] = config
        end
      end
      list = kept
    end
    lists[i] = list
    longest = math.max(longest, #list)
  end
  local configs = {}
  for k = 1, longest do
    for _, list in ipairs(lists) do
      if list[k] then configs[#configs + 1] = list[k] end
    end
  end
  return configs, skipped
end

-- `count` distinct random cells of an n x n board outside the four centre
-- cells, in notation: "b2,c5".
local function random_cells(rng, n, count)
  local h, cells, taken = n // 2, {}, {}
  while #cells < count do
    local r, c = rng:random(n), rng:random(n)
    local centre = (r == h or r == h + 1) and (c == h or c == h + 1)
    if not centre and not taken[r * 32 + c] then
      taken[r * 32 + c] = true
      cells[#cells + 1] = string.char(96 + c) .. r
    end
  end
  return table.concat(cells, ",")
end

-- A value for option `key` (declared by `spec`) of a game on size n, or
-- nil to leave the rule set's default.
local function option_value(key, spec, n, rng)
  if key == "blocks" then
    local kind = rng:random(4)
    if kind == 1 then return "" end
    local most = math.min(n * n // 4, n * n - 4)
    if kind == 2 then return random_cells(rng, n, rng:random(0, math.min(most, 12))) end
    return tostring(rng:random(0, most))
  elseif key == "holes" then
    return rng:random(0, math.min(n * n - 4, n * n // 4))
  elseif spec.choices then
    return spec.choices[rng:random(#spec.choices)]
  elseif spec.type == "boolean" then
    return rng:random(2) == 1
  elseif spec.type == "integer" and spec.min and spec.max and spec.max - spec.min <= 16 then
    return rng:random(spec.min, spec.max)
  end
  return nil
end

-- A value of option `spec` (an integer, maybe even) within 2 of n, drawn
-- with `rng`; `other` true: not n where another is allowed.
local function near(rng, spec, n, other)
  local list = {}
  for v = math.max(spec.min or 1, n - 2), math.min(spec.max or 16, n + 2) do
    if (not spec.even or v % 2 == 0) and not (other and v == n) then list[#list + 1] = v end
  end
  if #list == 0 then return n end
  return list[rng:random(#list)]
end

-- The options of a game of `config` of rule set `rules`: its size, and a
-- value drawn with `rng` for each other option the soak varies (none
-- without `rng`: the rule set's own values and defaults).
function draw_options(rules, config, rng)
  local opts = {}
  local n = config.size or rules.size or 8
  local options = rules.options or {}
  if config.rect then
    opts.rows = config.size
    opts.cols = rng and near(rng, options.cols, n, false) or nil
  elseif config.size then
    opts.size = config.size
    -- a rule set with a size and rows and cols too (reversi): a third of
    -- its games on a rectangle size x cols
    if rng and options.rows and options.cols and rng:random(3) == 1 then
      opts.cols = near(rng, options.cols, n, true)
    end
  end
  if not rng then return opts end
  local names = {}
  for key in pairs(rules.options or {}) do names[#names + 1] = key end
  table.sort(names)
  for _, key in ipairs(names) do
    if key ~= "size" and key ~= "rows" and key ~= "cols" then
      local value = option_value(key, rules.options[key], n, rng)
      if value ~= nil then opts[key] = value end
    end
  end
  return opts
end

--- Game `number` of the run: { config =, name =, source =, rules = (the
-- rule set table), opts = { key = value }, label = "reversi size=10
-- centre=black", seed = the game seed }, with `opts_rng` drawn from.
function schedule.game(configs, seed, number)
  local config = configs[(number - 1) % #configs + 1]
  local entry = config.entry
  local game_seed = schedule.game_seed(seed, number)
  local _, _, opts_rng = schedule.generators(game_seed)
  local rules, extra = entry.base, {}
  if entry.variant == "directions" then
    local legal, flip = random_dirs(opts_rng), random_dirs(opts_rng)
    rules = rules_mod.variant(reversi, { name = "directions", legal_dirs = legal, flip_dirs = flip })
    extra[1] = ("legal=%s flip=%s"):format(schedule.dirs_text(legal), schedule.dirs_text(flip))
  elseif entry.variant == "misere" then
    rules = misere_variant()
  end
  local opts = draw_options(rules, config, opts_rng)
  -- a combination its check_options refuses is drawn again, GAME_DRAWS
  -- times at most, then the configuration's own is played
  local draws = 1
  while config.taken and refused(rules, opts) do
    if draws == GAME_DRAWS then
      opts = {}
      for key, value in pairs(config.taken) do opts[key] = value end
      break
    end
    opts, draws = draw_options(rules, config, opts_rng), draws + 1
  end
  local keys = {}
  for key in pairs(opts) do keys[#keys + 1] = key end
  table.sort(keys)
  local parts = { entry.name }
  for _, key in ipairs(keys) do parts[#parts + 1] = ("%s=%s"):format(key, tostring(opts[key])) end
  for _, text in ipairs(extra) do parts[#parts + 1] = text end
  return { config = config, name = entry.name, source = entry.source, rules = rules, opts = opts,
           label = table.concat(parts, " "), seed = game_seed }
end

return schedule
