--- The command line's words to parsed arguments, in one place: argparse
-- driven without exiting the process, values that look like negative
-- numbers, and `play FILE.lua` read as the generic console. (What it knows
-- of argparse's insides, the `_options`, `_aliases`, `_maxargs` and
-- `_commands` fields, is here and nowhere else.)
local editions = require "boardscript.editions"

local arguments = {}

--- Parses argv with an argparse parser: true and the arguments, or false
-- and the message for the user (the usage of the command that failed, e.g.
-- `boardscript play blocks`, then the error). Unlike parser:parse it never
-- exits the process.
function arguments.parse(parser, argv)
  argv = arguments.negative_values(parser, argv)
  local failure
  parser.error = function(failed, message) -- called with the failing (sub)command
    failure = ("%s\n\nError: %s\n"):format(failed:get_usage(), message)
    error(failure, 0)
  end
  local ok, args = pcall(parser.parse, parser, argv)
  if ok then return true, args end
  if failure then return false, failure end
  error(args, 0)
end

-- The long names of every option (in `parser` and its subcommands) that
-- takes a value.
local function value_options(parser, names)
  names = names or {}
  for _, option in ipairs(parser._options or {}) do
    if (option._maxargs or 1) > 0 then
      for _, alias in ipairs(option._aliases or {}) do names[alias] = true end
    end
  end
  for _, command in ipairs(parser._commands or {}) do value_options(command, names) end
  return names
end

--- argparse reads `-5` as an option: an argument that looks like a negative
-- number right after an option taking a value is joined to it
-- (`--seed -5` -> `--seed=-5`). Returns a new argument list.
function arguments.negative_values(parser, argv)
  local takes_value
  local out = {}
  local i = 1
  while i <= #argv do
    local a, b = argv[i], argv[i + 1]
    if b and b:match("^%-%d") and a:match("^%-%-[^=]+$") then
      takes_value = takes_value or value_options(parser)
      if takes_value[a] then
        out[#out + 1] = a .. "=" .. b
        i = i + 1
      else
        out[#out + 1] = a
      end
    elseif a == "--" then
      table.move(argv, i, #argv, #out + 1, out)
      break
    else
      out[#out + 1] = a
    end
    i = i + 1
  end
  return out
end

--- `play FILE.lua ...` and `play NAME ...` for a rule set that is not an
-- edition are the generic console: `play board --rules FILE ...`.
function arguments.rewrite_file_edition(argv)
  local target = argv[2]
  if argv[1] ~= "play" or target == nil or target:sub(1, 1) == "-" then return argv end
  for _, name in ipairs(editions.NAMES) do
    if name == target then return argv end
  end
  if not editions.NAMES.board then return argv end
  local out = { "play", "board", "--rules", target }
  table.move(argv, 3, #argv, 5, out)
  return out
end

return arguments
