--- Driver of the `parsers` libFuzzer target (spec/fuzz/parsers.c): feeds
-- one input to one of the parsers of outside text. A parser may refuse its
-- input with a user error (errors.fail) or a nil-and-why answer; any other
-- Lua error is a finding, raised here as a plain string for the C side to
-- abort on.
local errors = require "boardscript.errors"
local game_mod = require "boardscript.game"
local rules = require "boardscript.rules"
local ggf = require "boardscript.formats.ggf"
local obf = require "boardscript.formats.obf"
local record = require "boardscript.record"
local nboard = require "boardscript.protocol.nboard"
local gtp = require "boardscript.protocol.gtp"
local notation = require "boardscript.notation.dots"
local core = require "boardscript.core"

local NAMES = rules.builtin_names()

-- Runs f(...): a user error is fine, anything else is a finding.
local function expect_user(what, f, ...)
  local ok, err = pcall(f, ...)
  if not ok and not errors.is_user(err) then
    error(("fuzz finding: %s raised a non-user error: %s"):format(what, tostring(err)), 0)
  end
  return ok and err
end

local function lines(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = line end
  return out
end

-- Protocol replies must not carry a Lua error's position (file.lua:NN:),
-- the mark of an internal error the session caught and passed on.
local function check_protocol(what, list)
  for _, line in ipairs(list or {}) do
    if tostring(line):match("%.lua:%d+:") then
      error(("fuzz finding: %s answered with an internal error: %s"):format(what, line), 0)
    end
  end
end

local KINDS = {}

KINDS[1] = function(text)
  local games = expect_user("ggf.parse", ggf.parse, text, "fuzz")
  if type(games) == "table" and games[1] then expect_user("ggf.game", ggf.game, games[1]) end
end

KINDS[2] = function(text)
  for _, line in ipairs(lines(text)) do
    local pos, why = expect_user("obf.parse", obf.parse, line)
    if pos == nil and why == nil then return end -- a user error
    if pos and (type(pos) ~= "table" or not pos.board) then error("fuzz finding: obf.parse gave no board", 0) end
  end
end

KINDS[3] = function(text) expect_user("record.parse", record.parse, text, "fuzz") end

KINDS[4] = function(text)
  local session = nboard.new { policy = "random", no_time = true }
  for _, line in ipairs(lines(text)) do
    local out, err = expect_user("nboard feed", session.feed, session, line)
    check_protocol("nboard", out)
    check_protocol("nboard", err)
  end
end

KINDS[5] = function(text)
  local session = gtp.new { policy = "random" }
  for _, line in ipairs(lines(text)) do
    check_protocol("gtp", expect_user("gtp feed", session.feed, session, line))
  end
end

-- `--opt key=value` of a built-in rule set: the first byte picks the rule set.
KINDS[6] = function(text)
  local name = NAMES[(text:byte(1) or 0) % #NAMES + 1]
  local key, value = text:sub(2):match("^([^=]*)=?(.*)$")
  expect_user("rules.parse_option", rules.parse_option, rules.load(name), key, value)
end

-- Move notation of each edition's rule set (the console reads moves through
-- parse_move) on a game in its start position (parse_move changes nothing,
-- so the cache keeps runs reproducible), and the dots notation.
local games = {}
KINDS[7] = function(text)
  local name = NAMES[(text:byte(1) or 0) % #NAMES + 1]
  games[name] = games[name] or game_mod.new(name, nil, core.rng(1))
  local g = games[name]
  for _, line in ipairs(lines(text:sub(2))) do
    expect_user("parse_move (" .. name .. ")", g.parse_move, g, line)
    expect_user("notation.dots.parse", notation.parse, line)
  end
end

return function(kind, text)
  KINDS[kind % #KINDS + 1](text)
end
