--- `boardscript convert IN [OUT] [--to ggf|record] [--game K] [--examples
-- DIR]`: GGF games to boardscript records and back. The conversions are
-- boardscript.formats.ggf_record; this module reads and writes.
local errors = require "boardscript.errors"
local output = require "boardscript.output"
local ggf = require "boardscript.formats.ggf"
local ggf_record = require "boardscript.formats.ggf_record"

local command = { summary = "Convert games between GGF (Othello's Generic Game Format) and boardscript records." }

function command.configure(cmd)
  cmd:description("Reads IN, a GGF file (one or more games '(;GM[Othello]...;)') or a boardscript record "
    .. "(one or more, each from its 'boardscript record 1' line), and writes the other format: to OUT, or "
    .. "to standard output. OUT may be an existing directory: each game then goes to a file of its own, "
    .. "NAME.ggf or NAME.rec (NAME-K.ggf for game K when there are several). A record of a rule set GGF "
    .. "cannot express (not Othello: dots, flipflop, blocks with blocks, ...) stays a record, with a note "
    .. "on standard error.")
  cmd:argument("input", "A GGF file or a record file ('-': standard input)."):argname("IN")
  cmd:argument("output", "A file or an existing directory to write (default: standard output).")
    :args("?"):argname("OUT")
  cmd:option("--to", "The format to write: ggf or record (default: the other one).")
    :choices { "ggf", "record" }
  cmd:option("--game", "Convert only game K of IN (1 = the first)."):argname("K")
  cmd:option("--examples", ("The directory records converted from GGF name the example rule sets in "
    .. "(octagon.lua for TY[88], anti.lua for anti games; default %s)."):format(ggf_record.EXAMPLES))
    :argname("DIR")
  require("boardscript.options").budgets(cmd, "each call into a rule set file a record names (a hook)")
end

-- The text of `path` ("-": standard input), read in pieces up to GGF's
-- cap (docs/decisions.md, "Bounded inputs"); a file that cannot be read
-- is a user error (status 2), as in `boardscript replay`.
local function read(path)
  return require("boardscript.bounded").read_all(path, require("boardscript.formats.ggf_syntax").MAX_BYTES, true)
end

local function is_dir(path)
  local f = io.open(path .. "/.")
  if f then f:close() end
  return f ~= nil
end

-- Writes `text` to `path`, checked; the input file itself is never the output.
local function write(path, text, input)
  if input ~= "-" and output.same_file(input, path) then
    errors.fail(("convert: %s is the input file; write the conversion elsewhere"):format(path))
  end
  output.write_file(path, text)
end

-- The games of `text` as { convert = function() -> { format, text, why } }
-- for the format asked.
local function items(text, where, kind, to, opts)
  local list = {}
  if kind == "ggf" then
    for _, parsed in ipairs(ggf.parse(text, where)) do
      list[#list + 1] = function()
        if to == "ggf" then return { format = "ggf", text = ggf_record.ggf_to_ggf(parsed) } end
        return { format = "record", text = ggf_record.ggf_to_record(parsed, opts) }
      end
    end
  else
    for _, chunk in ipairs(ggf_record.split_records(text, where)) do
      list[#list + 1] = function()
        if to == "ggf" then return ggf_record.record_to_ggf(chunk, where) end
        return ggf_record.record_to_record(chunk, where)
      end
    end
  end
  return list
end

local EXTENSION = { ggf = ".ggf", record = ".rec" }

--- Converts `args.input` (see configure). Returns the exit status: 0, or
-- the status of a user error raised (2: unreadable or malformed input, 1:
-- a move that does not replay, a game a record cannot hold).
function command.run(args)
  local where = args.input
  local text = read(where)
  local kind = ggf_record.detect(text)
  if not kind then
    errors.fail(("%s:1: neither a GGF game (starting '(;') nor a boardscript record (starting '%s')"):format(
      where, "boardscript record 1"))
  end
  -- records are held to their own cap, as `replay` holds them
  local record = require "boardscript.record"
  if kind ~= "ggf" and #text > record.MAX_BYTES then
    errors.fail(("%s: larger than %s"):format(where, require("boardscript.bounded").size_text(record.MAX_BYTES)))
  end
  local to = args.to or (kind == "ggf" and "record" or "ggf")
  local list = items(text, where, kind, to, { examples = args.examples })
  local numbers = {}
  for k = 1, #list do numbers[k] = k end
  if args.game then
    local k = math.tointeger(tonumber(args.game))
    if not k or k < 1 or k > #list then
      errors.fail(("--game %s: %s holds %d game%s"):format(args.game, where, #list, #list == 1 and "" or "s"))
    end
    numbers = { k }
  end
  local results = {}
  for i, k in ipairs(numbers) do
    local result = list[k]()
    result.number = k
    if result.why then
      io.stderr:write(("boardscript: %s: game %d is not written as GGF: %s\n"):format(where, k, result.why))
    end
    results[i] = result
  end
  local dir = args.output and is_dir(args.output) and args.output or nil
  if args.output and not dir and args.output:sub(-1) == "/" then
    errors.fail(("%s: no such directory"):format(args.output))
  end
  if dir then
    local stem = where == "-" and "game" or where:match("([^/]*)$"):gsub("%.[^.]*$", "")
    for _, result in ipairs(results) do
      local name = #results == 1 and stem or ("%s-%d"):format(stem, result.number)
      write(("%s/%s%s"):format(dir, name, EXTENSION[result.format]), result.text, where)
    end
    return 0
  end
  -- One stream holds one format: if any game stays a record, all do.
  local records, mixed = false, false
  for _, result in ipairs(results) do records = records or result.format == "record" end
  local parts = {}
  for i, result in ipairs(results) do
    if records and result.format == "ggf" then
      mixed = true
      result = ggf_record.record_to_record(ggf_record.split_records(text, where)[result.number], where)
    end
    parts[i] = result.text
  end
  local out = table.concat(parts, records and "\n" or "")
  if args.output then write(args.output, out, where) else output.stdout(out) end
  if mixed then
    io.stderr:write(("boardscript: %s: one file holds one format, so every game is written as a record\n"):format(
      where))
  end
  return 0
end

return command
