--- The settings of a run that hold for everything it does, given on the
-- command line and forwarded to its --jobs workers: --trust (the rights of
-- user code, boardscript.sandbox), the budgets --max-memory and
-- --max-seconds (boardscript.limits) and --max-plies (boardscript.game).
-- cli.dispatch applies them once, before a command runs; a command's
-- workers get them back through settings.argv (workers.run_shards).
local settings = {}

--- Applies the settings parsed from a command line: those given, with the
-- command's default --max-seconds (`default_seconds`, or nil) when it has
-- one; the others stay as they are (a script on a budget that plays a
-- game with play.run keeps its budget).
-- @tparam table args the parsed arguments (trust, max_memory, max_seconds, max_plies, shard, command)
-- @tparam[opt] number default_seconds the command's default --max-seconds
function settings.apply(args, default_seconds)
  require("boardscript.sandbox").from_args(args)
  if args.max_memory ~= nil or args.max_seconds ~= nil or default_seconds ~= nil then
    require("boardscript.limits").from_args(args, default_seconds)
  end
  if args.max_plies ~= nil then require("boardscript.game").from_args(args) end
end

--- The command-line words giving the settings in force again, for a worker
-- process: --trust, --max-memory, --max-seconds, --max-plies, as set.
-- @treturn {string,...}
function settings.argv()
  local out = {}
  local function add(words) table.move(words, 1, #words, #out + 1, out) end
  add(require("boardscript.sandbox").argv())
  add(require("boardscript.limits").argv())
  local plies = package.loaded["boardscript.game"] and require("boardscript.game").max_plies()
  if plies then out[#out + 1] = "--max-plies=" .. plies end
  return out
end

return settings
