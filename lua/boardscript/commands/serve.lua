--- `boardscript serve [--port 8080] [--host 127.0.0.1] [RULES_FILES...]`: a
-- local web application over the engine (boardscript.serve): play any
-- rule set offered (the built-ins, the examples and the files named here)
-- against any built-in policy, or watch two policies play, in a browser.
local errors = require "boardscript.errors"
local games = require "boardscript.serve.games"
local limits = require "boardscript.limits"
local options = require "boardscript.options"
local serve_http = require "boardscript.serve.http"
local worker = require "boardscript.serve.worker"

local command = { summary = "Serve a web page to play and watch any rule set in a browser (boardscript serve)." }
-- its budgets are per request, with defaults of its own (command.run), not cli.dispatch's
command.budgets = "own"

--- The budget of each AI move and each call into a rule set file when none
-- is given: a request never holds the server longer.
command.DEFAULT_SECONDS = 10

--- The memory budget (MiB) of each worker and each call into a rule set
-- file when none is given.
command.DEFAULT_MIB = 256

--- The wall-clock seconds a worker may take for a budget of `seconds`
-- processor seconds: the machine may be shared by other workers.
function command.wall_seconds(seconds)
  return 3 * seconds + 5
end

function command.configure(cmd)
  cmd:argument("files", "Rule set files to offer besides the built-ins and the examples."):args("*")
  cmd:option("--port", "The TCP port to listen on (0: any free one, printed).", "8080")
    :convert(options.integer_in(0, 65535, "--port"))
  cmd:option("--host", "The address to listen on; anything but loopback is reachable from other machines.",
    "127.0.0.1")
  cmd:option("--eval", "An evaluation file (boardscript train) the page may name as eval=FILE (repeatable)."):count("*")
  cmd:option("--max-games", ("Games kept at once; a new one drops the one used longest ago (default %d).")
    :format(games.MAX_GAMES)):convert(options.integer_in(1, 100000, "--max-games"))
  options.seed(cmd, "Seed of the first game (each next game takes the next one; default: drawn from the clock).")
  cmd:option("--max-workers", ("AI moves, hints and match steps computed at once, each in a worker process "
    .. "(default %d)."):format(worker.MAX)):convert(options.integer_in(1, 64, "--max-workers"))
  options.budgets(cmd, "each AI move, hint and match step (each worker) and each call into a rule set file",
    command.DEFAULT_SECONDS, command.DEFAULT_MIB)
end

-- The page: lua/boardscript/serve/page.html next to this module's tree.
local function page_text()
  local path = package.searchpath("boardscript.serve.page", (package.path:gsub("%.lua", ".html")))
  local f = path and io.open(path, "rb")
  if not f then errors.fail("serve: the page (boardscript/serve/page.html) is missing from the installation") end
  local text = f:read("a")
  f:close()
  return text
end

function command.run(args)
  local seconds, mib = args.max_seconds or command.DEFAULT_SECONDS, args.max_memory or command.DEFAULT_MIB
  limits.configure { memory = mib, seconds = seconds }
  for _, path in ipairs(args.eval or {}) do require("boardscript.evalfile").load(path) end
  local function log(text) io.stderr:write("boardscript: serve: ", text, "\n") end
  local pool = worker.new_pool { max = args.max_workers, seconds = command.wall_seconds(seconds), cpu = seconds,
                                 memory = math.floor(mib * 1024 * 1024), log = log }
  local store = games.new_store { files = args.files, evals = args.eval, max_games = args.max_games,
                                  seed = args.seed or options.clock_seed(), pool = pool, log = log,
                                  max_bytes = math.floor(mib * 1024 * 1024) }
  if args.host ~= "127.0.0.1" and args.host ~= "localhost" and args.host ~= "::1" then
    io.stderr:write(("boardscript: serve: warning: listening on %s, reachable from other machines; the server "
      .. "has no authentication\n"):format(args.host))
  end
  local ok, err = serve_http.run {
    host = args.host, port = args.port, store = store, page = page_text(),
    log = log,
    on_listen = function(host, port)
      io.stdout:write(("boardscript serve: http://%s:%d/ (Ctrl-C stops it)\n"):format(
        host:find(":", 1, true) and ("[" .. host .. "]") or host, port))
      io.stdout:flush()
    end,
  }
  if not ok then errors.fail(("serve: cannot listen on %s port %d: %s"):format(args.host, args.port, tostring(err))) end
  return 0
end

return command
