--- Studies and hints of `boardscript serve`'s store (boardscript.serve.games
-- installs these methods on it): a record or GGF file opened to step
-- through, with an evaluation chart searched in a worker, and the AI's
-- suggested move in a game as it stands.
local core = require "boardscript.core"
local errors = require "boardscript.errors"
local game_pictures = require "boardscript.render.game"
local players = require "boardscript.players"
local record = require "boardscript.record"
local rules_mod = require "boardscript.rules"
local session = require "boardscript.serve.session"

local study = {}

--- The store's methods defined here (Store:study, go_to, hint, offer_for).
study.methods = {}
local Store = study.methods

--- The depth of the evaluation chart of a study, by board size.
function study.chart_depth(n)
  return n <= 8 and 4 or n <= 12 and 2 or 1
end

-- The rule set a record names, among those offered (by name, or a file
-- offered under that file's name): the offer, or a user error.
function Store:offer_for(name)
  local entry = self.offered[name] or self.offered[session.base_name(tostring(name))]
  if not entry then
    errors.fail(("the record's rule set '%s' is not one this server offers (%s)"):format(session.quoted(name),
      table.concat(self.order, ", ")))
  end
  return entry
end

--- Opens a game to study: params { text = a record or a GGF file's text,
-- game = which game of a GGF file (default 1) }. The game's rule set must
-- be one the server offers (a record naming a path is taken by that
-- file's name, never opened). Returns the id, or nil and why not.
function Store:study(params)
  if type(params) ~= "table" or type(params.text) ~= "string" then return nil, "expected { text = the file's text }" end
  local text = params.text
  if #text > record.MAX_BYTES then return nil, ("the file is larger than %d bytes"):format(record.MAX_BYTES) end
  if params.game ~= nil and (not math.tointeger(params.game) or params.game < 1 or params.game > 100000) then
    return nil, "game: expected the number of a game of the file, from 1"
  end
  local where = "the file"
  local ok, first, entries, evals = self:guarded(function()
    if text:match("^%s*%(;") then
      local ggf = require "boardscript.formats.ggf"
      return game_pictures.from_ggf(ggf, where, text, math.tointeger(params.game) or 1)
    end
    local rec = record.parse(text, where)
    local entry = self:offer_for(rec.rules)
    rec.rules = entry.source
    return game_pictures.from_parsed(rec, where)
  end)
  if not ok then return nil, first end
  local title
  if evals and next(evals) ~= nil then
    title = "Evaluation in the file (" .. first:side_name(first.rules.sides[1]) .. "'s margin, discs)"
  elseif rules_mod.searched_in_core(first.rules) then
    local depth = study.chart_depth(first:board():size())
    local answer = self.pool:run(function()
      local values = game_pictures.evaluations(first, entries, depth)
      local out = {}
      for k = 0, #entries do out[k + 1] = ("%.17g"):format(values[k]) end
      return table.concat(out, " ")
    end)
    if answer then
      evals = {}
      local k = 0
      for value in answer:gmatch("%S+") do
        evals[k] = tonumber(value)
        k = k + 1
      end
      title = ("Evaluation (%s's margin, discs; alphabeta depth %d)"):format(first:side_name(first.rules.sides[1]),
        depth)
    end
  end
  if title == nil then evals = nil end
  local texts = {}
  for k, e in ipairs(entries) do texts[k] = e.pass and "pass" or e.text end
  local name = first.source and self.offered[session.base_name(first.source)] and session.base_name(first.source)
    or tostring(first.rules.name)
  local g = game_pictures.position(first, entries, #entries, false)
  return self:add { entry = self.offered[name] or { name = name, source = name }, seats = {}, g = g,
                    study = { start = first, entries = entries, evals = evals, eval_title = title,
                              ply = #entries, texts = texts } }
end

--- Moves a study to the position after `ply` moves (0..the game's moves).
function Store:go_to(id, ply)
  local s, why, code = self:idle(id)
  if not s then return nil, why, code end
  if not s.study then return nil, "not a study: goto steps through an opened record" end
  ply = math.tointeger(ply)
  if not ply or ply < 0 or ply > #s.study.entries then
    return nil, ("ply must be an integer from 0 to %d"):format(#s.study.entries)
  end
  local ok, g = self:guarded(game_pictures.position, s.study.start, s.study.entries, ply, false)
  if not ok then return nil, g end
  s.g, s.study.ply = g, ply
  return self:view(id)
end

--- The policy that suggests moves in `rules`: alphabeta 6 plies deep where
-- the C core searches the rule set, else the first built-in that plays it.
function study.adviser(rules)
  for _, spec in ipairs { "alphabeta:depth=6", "dots_search", "mcts:playouts=2000" } do
    local player = players.load(spec, rules)
    if players.plays(player, rules) then return player end
  end
  return nil
end

--- The AI's suggested move in session `id` as it stands: { move = text,
-- by = the policy } (move "pass" where passing is its choice), or nil and
-- why. It is searched in a worker, by a policy made there for it (its
-- table goes with the worker); the game does not change.
function Store:hint(id)
  local s, why = self:get(id)
  if not s then return nil, why end
  local g = s.g
  if g:finished() then return nil, "the game is over" end
  local answer, err, busy = self.pool:run(function()
    local player = study.adviser(g.rules)
    if not player then errors.fail("no built-in policy plays this rule set") end
    local copy = g:clone()
    copy.rng = core.rng()
    if g.rng then copy.rng:restore(g.rng:state()) end -- the game's own draws are not the hint's
    local ok, move = pcall(players.choose, player, copy)
    session.close_seats { player }
    if not ok then error(move, 0) end
    return ("%s\n%s"):format(move == "pass" and "pass" or copy:move_text(move), player.name)
  end)
  if not answer then return nil, err, busy and "full" or nil end
  local move, by = answer:match("^([^\n]*)\n(.*)$")
  return { move = move, by = by }
end

return study
