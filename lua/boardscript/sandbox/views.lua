--- The views a restricted file gets of the modules that load or read
-- files by path (boardscript.sandbox): the same functions, with a path
-- argument read as io.open reads in the file's directory.
local errors = require "boardscript.errors"
local freeze = require "boardscript.sandbox.freeze"
local paths = require "boardscript.sandbox.paths"

local readable, unreadable = paths.readable, paths.unreadable

local views = {}

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- A learned evaluation named by a policy option (`eval=FILE`) as a
-- restricted file at `dir` may name it: "hand", "shipped" or a file it may read.
local function eval_option(value, dir)
  if type(value) ~= "string" or value == "hand" or value == "shipped" then return value end
  local full = readable(dir, value)
  if not full then errors.fail(unreadable(value, dir)) end
  return full
end

-- `fn` with its path arguments (positions `positions`) read relative to
-- `dir` (a spec `FILE.lua:options` for players.load, whose `eval=FILE`
-- option too): a built-in name, a table or a non-path passes as it is.
local function resolving(fn, positions, dir, is_builtin)
  return function(...)
    local args = table.pack(...)
    for _, i in ipairs(positions) do
      local value = args[i]
      if type(value) == "string" then
        local name, options = value:match("^(.*%.lua):(.*)$")
        if not name then name, options = value:match("^([^:]*):(.*)$") end
        name = name or value
        if name:match("%.lua$") and not is_builtin(name) then
          name = readable(dir, name) or errors.fail(unreadable(name, dir))
        end
        if options then
          options = ("," .. options):gsub("(,%s*eval%s*=)([^,]*)", function(key, file)
            return key .. eval_option(file, dir)
          end):sub(2)
        end
        args[i] = options and (name .. ":" .. options) or name
      end
    end
    return fn(table.unpack(args, 1, args.n))
  end
end

--- The read-only view a restricted file at `dir` gets of module `name`
-- (`module`, with the loaders `loaders`: field -> argument positions, see
-- sandbox.LOADERS): the module itself, frozen, unless it has loaders, is
-- a policy module (`new{eval = FILE}`) or is the core (whose evaluator
-- reads a file by path).
-- @tparam string name the module's name
-- @param module the module
-- @tparam string dir the restricted file's directory
-- @tparam[opt] table loaders its loaders
-- @return the view
function views.module(name, module, dir, loaders)
  local policy = name:match("^boardscript%.ai%.") and type(module) == "table" and type(module.new) == "function"
  if not loaders and not policy and name ~= "boardscript.core" then return module end
  local rules_mod = require "boardscript.rules"
  local players = require "boardscript.players"
  local function is_builtin(value)
    return rules_mod.BUILTIN[value] ~= nil or players.BUILTIN[(value:match("^([^:]*)"))] ~= nil
  end
  local view = copy(module)
  for field, positions in pairs(loaders or {}) do
    view[field] = resolving(module[field], positions, dir, is_builtin)
  end
  if policy then
    -- a policy's `new{eval = FILE}` reads a learned evaluation
    view.new = function(opts, ...)
      if type(opts) == "table" and not freeze.protected(opts) and opts.eval ~= nil then
        local own = copy(opts)
        own.eval = eval_option(opts.eval, dir)
        opts = own
      end
      return module.new(opts, ...)
    end
  end
  if name == "boardscript.core" then
    view.evaluator = function(arg, ...)
      if type(arg) == "string" then
        local full = readable(dir, arg)
        if not full then error(unreadable(arg, dir), 2) end
        return module.evaluator(full, ...)
      end
      return module.evaluator(arg, ...)
    end
  end
  return freeze.freeze(view, name)
end

return views
