--- What a training run trains for and starts from: the game (rule set,
-- options, board size), a new or loaded evaluation, and the defaults of
-- `boardscript train` (commands/train.lua parses the options, train.rounds
-- plays and fits).
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local rule_options = require "boardscript.rule_options"

local setup = {}

--- The default number of rounds.
setup.ROUNDS = 4
--- The default self-play search depth (plies).
setup.DEPTH = 2
--- The default share of exploratory random moves.
setup.EPSILON = 0.05
--- The default games of each round's duel against the hand-written evaluation.
setup.SCORE_GAMES = 20
--- The default ridge of the fits (positions' worth of pull to zero; the
-- trainer's own default, 4, overfits a few hundred thousand positions:
-- docs/decisions.md, "boardscript train").
setup.SHRINK = 1000
--- The most games a run may ask for.
setup.MAX_GAMES = 100000000

-- "k=v,k=v": the options a game was set up with, sorted by name.
local function options_text(opts)
  local keys = {}
  for key in pairs(opts) do keys[#keys + 1] = key end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do parts[i] = ("%s=%s"):format(key, tostring(opts[key])) end
  return table.concat(parts, ",")
end

--- What a run trains for: { rules =, name =, source =, opts =, n =,
-- options = text, mobility = legal directions or nil }. Rule sets that are
-- not played with discs on a square core board are refused.
function setup.trained_game(args)
  local rules_mod = require "boardscript.rules"
  local game_mod = require "boardscript.game"
  local rules = rules_mod.load(args.rules)
  local name = tostring(rules.name or args.rules)
  if (rules.family or "board") ~= "board" then
    errors.fail(("train: %s is a game of the %s family; train learns evaluations of games of discs on core "
      .. "boards"):format(name, tostring(rules.family)))
  end
  local opts = rule_options.convert(rules, rule_options.texts(args))
  local g = game_mod.new(rules, opts, core.rng(0))
  local board = g.state.board
  if core.type(board) ~= "board" then
    errors.fail(("train: %s does not keep its position on a core board (core.board); train cannot read it")
      :format(name))
  end
  local n, shape = require("boardscript.evalfile").shape(board)
  if n < 3 then errors.fail(("train: %d x %d boards are too small for an evaluation (3 to 26)"):format(n, n)) end
  local described = rules_mod.core_game(rules, g.state)
  local group = require("boardscript.symmetry").of(rules, board, g.state)
  return { rules = rules, name = name, source = args.rules, opts = opts, n = n, board_shape = shape,
           rows = board:rows(), cols = board:cols(), symmetry = group,
           options = options_text(g.opts),
           shape = require("boardscript.render.svg").size_words(g), -- "7 x 6" where the rule set says so
           mobility = described and described.legal or nil, searched = rules_mod.searched_in_core(rules) }
end

local function features_of(args, game)
  local text = args.features
  if text == nil then return game.mobility and "all" or "none" end
  if text == "all" or text == "none" then return text end
  local list = {}
  for word in text:gmatch("[^,%s]+") do list[#list + 1] = word end
  if #list == 0 then errors.fail("--features: expected all, none or a list such as mobility,parity") end
  return list
end

--- A new evaluation for the game (zero weights), as --phases and
-- --features ask.
function setup.new_evaluator(args, game)
  -- its patterns placed on the board's rows and columns, one table shared
  -- by the images of a pattern under the maps the rules keep (symmetry.of)
  local ok, ev = pcall(core.evaluator, { size = game.n, rows = game.rows, cols = game.cols, symmetry = game.symmetry,
                                         phases = args.phases, features = features_of(args, game),
                                         mobility = game.mobility })
  if not ok then
    local why = tostring(ev):gsub("^bad argument #1 to '[%w_.]+' %((.*)%)$", "%1")
    errors.fail("train: " .. why)
  end
  return ev
end

-- A --phases or --features (in `args`) that asks for other tables than
-- --eval's file `ev` has is refused: training goes on with the file's.
local function check_asked(args, ev, game, path)
  if args == nil or (args.phases == nil and args.features == nil) then return end
  local asked = setup.new_evaluator(args, game)
  local want, have = asked:info(), ev:info()
  asked:close()
  local function refuse(option, value, has)
    errors.fail(("train: --%s %s: --eval %s has %s, and goes on with them (leave out --%s, or start a new file "
      .. "without --eval)"):format(option, value, path, has, option))
  end
  if args.phases ~= nil and want.phases ~= have.phases then
    refuse("phases", args.phases, ("%d phase%s"):format(have.phases, have.phases == 1 and "" or "s"))
  end
  local function names(list) return #list > 0 and table.concat(list, ",") or "none" end
  if args.features ~= nil and names(want.features) ~= names(have.features) then
    refuse("features", args.features, "the features " .. names(have.features))
  end
end

--- Loads --eval, checked against the game (and, given the arguments, against
-- a --phases or --features asking for other tables).
function setup.load_eval(path, game, args)
  local evalfile = require "boardscript.evalfile"
  local ev, meta = evalfile.load(path)
  evalfile.check(meta, game.name, game.n, game.board_shape)
  if meta.options and meta.options ~= game.options then
    errors.fail(("%s was trained with the options %s, not %s"):format(path, meta.options, game.options))
  end
  check_asked(args, ev, game, path)
  return ev, meta
end

return setup
