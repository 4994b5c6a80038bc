--- `boardscript replay FILE [--check]`: replays a game record (see
-- boardscript.record) position by position, or checks that it replays to
-- the result it records. The formats are in docs/decisions.md ("replay and
-- records").
local errors = require "boardscript.errors"
local options = require "boardscript.options"
local record = require "boardscript.record"

local command = { summary = "Replay a game record position by position, or check it (--check)." }

function command.configure(cmd)
  cmd:argument("file", "A record written by 'boardscript play EDITION ... --record FILE'.")
  cmd:flag("--check", "Print nothing per position: check that every move applies and that the record's "
    .. "result line is the replayed game's result; print 'FILE: ok (...)' or what is wrong.")
  options.budgets(cmd, "each call into a rule set file the record names (a hook)")
end

-- The text of a file and its number of lines; a file that cannot be read is
-- a user error (status 2).
local function read(path)
  local text = record.read(path)
  local lines = select(2, text:gsub("\n", "")) + ((text ~= "" and text:sub(-1) ~= "\n") and 1 or 0)
  return text, lines
end

-- The first line of a replay: what the record says about its game.
local function header(path, rec)
  local parts = { "rules " .. rec.rules }
  if rec.edition then parts[#parts + 1] = "edition " .. rec.edition end
  if #rec.option_order > 0 then
    local opts = {}
    for i, key in ipairs(rec.option_order) do opts[i] = key .. "=" .. rec.options[key] end
    parts[#parts + 1] = "options " .. table.concat(opts, " ")
  end
  if rec.seed then parts[#parts + 1] = "seed " .. rec.seed end
  parts[#parts + 1] = ("%d moves"):format(#rec.moves)
  return ("%s: %s"):format(path, table.concat(parts, ", "))
end

--- Replays the record at `path`. opts: { check = boolean, out =, err =
-- (files; default io.stdout, io.stderr) }. Returns the exit status: 0, or 1
-- when a move does not apply (either mode) or, with check, the result line
-- is missing or differs. A file that is not a record is a user error.
function command.replay(path, opts)
  opts = opts or {}
  local out, err = opts.out or io.stdout, opts.err or io.stderr
  local text, line_count = read(path)
  local rec = record.parse(text, path)
  local g = record.open_game(rec, path)
  local function wrong(line, message)
    out:flush()
    err:write(("%s:%d: %s\n"):format(path, line, message))
    return errors.EXIT_FAILURE
  end
  if not opts.check then
    out:write(header(path, rec), "\n", g:text(), "\n")
  end
  local ok, k, entry, why = record.replay(g, rec.moves, path, not opts.check and function(i, played, side)
    out:write(("%d. %s %s\n"):format(i, side, played.pass and "pass" or played.text), g:text(), "\n")
  end)
  if not ok then return wrong(entry.line, ("move %d: %s"):format(k, why)) end
  local result = record.result(g)
  if not opts.check then
    out:write("result ", result, "\n")
    if rec.result and rec.result.text ~= result then
      wrong(rec.result.line, ("the record says 'result %s'"):format(rec.result.text))
    end
    return 0
  end
  if not rec.result then
    return wrong(math.max(line_count, 1), ("no result line (the replayed game ends '%s')"):format(result))
  end
  if rec.result.text ~= result then
    return wrong(rec.result.line, ("result '%s', but the replayed game ends '%s'"):format(
      rec.result.text, result))
  end
  out:write(("%s: ok (%d moves, result %s)\n"):format(path, #rec.moves, result))
  return 0
end

function command.run(args)
  return command.replay(args.file, { check = args.check })
end

return command
