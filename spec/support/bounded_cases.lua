--- The cases of spec/bounded_input_spec.lua (issue 18 item 5, "Bounded
-- inputs"; docs/decisions.md): every reader of an outside file given
-- /dev/zero, a directory, a huge line, a huge file, many games, forged
-- counts and huge numbers, and numeric options given huge values.
--
-- A case: `name`, `args` (after `boardscript`; "FILE" is replaced by the
-- case's file, "DIR" by a directory), `file` (its content: a string, or a
-- function(write) calling write(piece) as often as it likes, so 50 MB
-- need not be one string), `status`, and `stderr`: a Lua pattern the one
-- line of standard error must match after "boardscript: " (FILE and DIR
-- in it stand for the paths, matched literally), or, with `usage`, the
-- pattern of argparse's closing "Error: " line. `unsanitized`: only
-- outside the sanitizers (the case needs the spec's `ulimit -v`).
local M = {}

local MB = 1 << 20

-- `text` repeated until `bytes` bytes are written (in pieces of a MiB).
local function fill(text, bytes)
  return function(write)
    local piece = text:rep(math.max(1, MB // #text))
    local written = 0
    while written < bytes do
      write(piece)
      written = written + #piece
    end
  end
end

local POSITION = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
local GGS = "(;GM[Othello]PC[GGS/os]PB[a]PW[b]TY[8]RE[?]"
  .. "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
  .. "B[f5/0.5/1.25]W[d6//0.01]B[c3/-1]W[d3]B[c4//1:05];)\n"

-- A game line of `match --shard` with some fields replaced (`raw`: JSON
-- text put in as it is).
local function game_line(fields, raw)
  local json = require "dkjson"
  local line = {
    game = 1, pair = 1, a = "random", b = "random", a_side = "black", result = "win", score_a = 40,
    score_b = 24, margin = 16, unit = "discs", seed = 1, opening = "f5,d6", rules = "reversi", size = "8",
    games = 2, sides = { "black", "white" }, side_names = { "Black", "White" },
  }
  for key, value in pairs(fields or {}) do line[key] = value end
  local text = json.encode(line)
  if raw then text = text:gsub("}$", "," .. raw .. "}") end
  return text .. "\n"
end
M.game_line = game_line

local MERGE = "FILE:1: not a game line of 'boardscript match %-%-shard': "

M.CASES = {
  -- records: replay, render --record
  { name = "replay /dev/zero", args = { "replay", "/dev/zero" }, status = 2,
    stderr = "/dev/zero: larger than 4 MiB" },
  { name = "replay a directory", args = { "replay", "DIR" }, status = 2, stderr = "DIR: Is a directory" },
  { name = "replay a 50 MB record", args = { "replay", "FILE" }, status = 2, stderr = "FILE: larger than 4 MiB",
    file = function(write)
      write("boardscript record 1\nrules reversi\n")
      fill("move f5\n", 50 * MB)(write)
    end },
  { name = "render --record /dev/zero", args = { "render", "--record", "/dev/zero" }, status = 2,
    stderr = "/dev/zero: larger than 16 MiB" },
  { name = "render --record a 50 MB record", args = { "render", "--record", "FILE" }, status = 2,
    stderr = "FILE: larger than 16 MiB", file = fill("boardscript record 1\n", 50 * MB) },
  { name = "render --record a 6 MB record", args = { "render", "--record", "FILE" }, status = 2,
    stderr = "FILE: larger than 4 MiB", file = fill("boardscript record 1\n", 6 * MB) },
  -- GGF: convert
  { name = "convert /dev/zero", args = { "convert", "/dev/zero" }, status = 2,
    stderr = "/dev/zero: larger than 16 MiB" },
  { name = "convert a directory", args = { "convert", "DIR" }, status = 2, stderr = "DIR: Is a directory" },
  { name = "convert 200,000 small GGF games", args = { "convert", "FILE" }, status = 2,
    stderr = "FILE: more than 5000 games %(split the file%)",
    file = function(write)
      local game = "(;GM[Othello]TY[8];)\n"
      for _ = 1, 4 do write(game:rep(50000)) end
    end },
  { name = "convert 200,000 GGS games (50 MB)", args = { "convert", "FILE" }, status = 2,
    stderr = "FILE: larger than 16 MiB",
    file = function(write)
      for _ = 1, 200 do write(GGS:rep(1000)) end
    end },
  { name = "convert a game of 100,000 moves", args = { "convert", "FILE" }, status = 2,
    stderr = "FILE:1:%d+: game 1: more than 1000 properties and moves in one game",
    file = "(;GM[Othello]TY[8]" .. ("B[f5]"):rep(100000) .. ";)\n" },
  { name = "convert 16 MB of moves in short games", args = { "convert", "FILE" }, status = 2,
    stderr = "FILE:%d+:%d+: game %d+: more than 400000 properties and moves in the file %(split the file%)",
    file = function(write)
      local game = "(;GM[Othello]TY[8]" .. ("B[f5]"):rep(990) .. ";)\n"
      for _ = 1, (15 * MB) // #game do write(game) end
    end },
  { name = "convert 16 MB of newlines", args = { "convert", "FILE" }, status = 2,
    stderr = "FILE:%d+:1: game 1: the game has no end ';%)'",
    file = function(write)
      write("(;GM[Othello]")
      fill("\n", 15 * MB)(write)
    end },
  { name = "convert 6000 records", args = { "convert", "FILE" }, status = 2,
    stderr = "FILE: more than 5000 games %(split the file%)",
    file = ("boardscript record 1\nrules reversi\nmove f5\n"):rep(6000) },
  { name = "convert a 15 MB file of records", args = { "convert", "FILE" }, status = 2,
    stderr = "FILE: larger than 4 MiB", file = fill("boardscript record 1\nrules reversi\nmove f5\n", 15 * MB) },
  -- OBF: solve reversi --obf, bench --obf
  { name = "solve --obf /dev/zero", args = { "solve", "reversi", "--obf", "/dev/zero" }, status = 2,
    stderr = "/dev/zero:1: line longer than 65536 bytes" },
  { name = "solve --obf a directory", args = { "solve", "reversi", "--obf", "DIR" }, status = 2,
    stderr = "DIR: Is a directory" },
  { name = "solve --obf a 50 MB file", args = { "solve", "reversi", "--obf", "FILE" }, status = 2,
    stderr = "FILE: larger than 4 MiB", file = fill(POSITION .. "; G8:+18;\n", 50 * MB) },
  { name = "solve --obf a huge score", args = { "solve", "reversi", "--obf", "FILE" }, status = 2,
    stderr = "FILE:1: not an OBF position: the score of G8 must be a margin from %-64 to 64 %(got %+99999999%.%.%.%)",
    file = POSITION .. "; G8:+" .. ("9"):rep(400) .. ";\n" },
  { name = "solve --obf a score of 2^63", args = { "solve", "reversi", "--obf", "FILE" }, status = 2,
    stderr = "FILE:1: not an OBF position: the score of G8 must be a margin from %-64 to 64 "
      .. "%(got 922337203%.%.%.%)",
    file = POSITION .. "; G8:9223372036854775808;\n" },
  { name = "bench --obf a directory", args = { "bench", "--only", "ffo", "--obf", "DIR" }, status = 2,
    stderr = "DIR: Is a directory" },
  { name = "bench --obf /dev/zero", args = { "bench", "--only", "ffo", "--obf", "/dev/zero" }, status = 2,
    stderr = "/dev/zero:1: line longer than 65536 bytes" },
  -- shards' outputs: solve reversi --merge
  { name = "solve --merge /dev/zero", args = { "solve", "reversi", "--merge", "/dev/zero" }, status = 2,
    stderr = "/dev/zero:1: line longer than 65536 bytes" },
  { name = "solve --merge a directory", args = { "solve", "reversi", "--merge", "DIR" }, status = 2,
    stderr = "DIR: Is a directory" },
  { name = "solve --merge a forged line", args = { "solve", "reversi", "--merge", "FILE" }, status = 2,
    stderr = "FILE:2: not a position line of 'solve reversi %-%-shard'",
    file = "#1 G8 +18 (best +18 ok) nodes 42256, 0.001 s\n#2 G8\n" },
  { name = "solve --merge a huge position number", args = { "solve", "reversi", "--merge", "FILE" }, status = 2,
    stderr = "FILE:1: not a position line of 'solve reversi %-%-shard'",
    file = "#99999999999999999999999 G8 +18 nodes 1, 0.001 s\n" },
  -- openings: match --openings
  { name = "match --openings /dev/zero", args = { "match", "--a", "random", "--b", "random", "--openings",
    "/dev/zero" }, status = 2, stderr = "/dev/zero:1: line longer than 65536 bytes" },
  { name = "match --openings a directory", args = { "match", "--a", "random", "--b", "random", "--openings",
    "DIR" }, status = 2, stderr = "DIR: Is a directory" },
  { name = "match --openings a 60 KB line of moves", args = { "match", "--a", "random", "--b", "random",
    "--openings", "FILE" }, status = 2,
    stderr = "FILE:1: move 11 'f5d6c3d3c4f4f6f3' is not a legal move there "
      .. "%(an opening is legal moves from the start%)",
    file = ("f5d6c3d3c4f4f6f3e6e7"):rep(3000) .. "\n" },
  { name = "match --openings a bad second move", args = { "match", "--a", "random", "--b", "random",
    "--openings", "FILE" }, status = 2,
    stderr = "FILE:2: move 2 'zz' is not a legal move there %(an opening is legal moves from the start%)",
    file = "f5d6\nf5 zz " .. ("d6 "):rep(20000) .. "\n" },
  -- match-merge
  { name = "match-merge /dev/zero", args = { "match-merge", "/dev/zero" }, status = 2,
    stderr = "/dev/zero:1: line longer than 65536 bytes" },
  { name = "match-merge a directory", args = { "match-merge", "DIR" }, status = 2, stderr = "DIR: Is a directory" },
  { name = "match-merge a 50 MB file", args = { "match-merge", "FILE" }, status = 2,
    stderr = "FILE: larger than 32 MiB", file = fill(game_line(), 50 * MB) },
  { name = "match-merge 2,000,000 empty lines", args = { "match-merge", "FILE" }, status = 2,
    stderr = "FILE: more than 1000000 lines", file = fill("\n", 2000000) },
  { name = "solve --merge 2,000,000 empty lines", args = { "solve", "reversi", "--merge", "FILE" }, status = 2,
    stderr = "FILE: more than 1000000 lines", file = fill("\n", 2000000) },
  { name = "match-merge games 1e15", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "games must be an integer from 1 to 100000000", file = game_line({ games = 1e15 }) },
  { name = "match-merge games 10^15", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "games must be an integer from 1 to 100000000",
    file = game_line({ games = 1000000000000000 }) },
  { name = "match-merge games 10^8 with two lines", args = { "match-merge", "FILE" }, status = 1,
    stderr = "match%-merge: 99999998 of 100000000 games missing %(first: game 3%); the summary counts the others",
    file = game_line({ games = 100000000 }) .. game_line({ games = 100000000, game = 2, a_side = "white" }),
    no_file_name = true },
  { name = "match-merge games a string", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "games must be an integer", file = game_line({ games = "x" }) },
  { name = "match-merge game past games", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "game must be an integer from 1 to games", file = game_line({ game = 3 }) },
  { name = "match-merge empty sides", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "sides must be two different strings", file = game_line({ sides = {} }) },
  { name = "match-merge a_side not a side", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "a_side must be one of sides", file = game_line({ a_side = 7 }) },
  { name = "match-merge a result", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "result must be win, loss or draw", file = game_line({ result = "maybe" }) },
  { name = "match-merge a margin string", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "margin must be score_a %- score_b", file = game_line({ margin = "x" }) },
  { name = "match-merge a fractional seed", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "seed must be an integer", file = game_line({ seed = 1.5 }) },
  { name = "match-merge a bad sprt", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "%-%-sprt: expected", file = game_line({ sprt = "garbage" }) },
  { name = "match-merge deep nesting", args = { "match-merge", "FILE" }, status = 2,
    stderr = MERGE .. "not a JSON object", file = ("["):rep(30000) .. ("]"):rep(30000) .. "\n" },
  -- numbers given to options
  { name = "match --shard 1/10^23", args = { "match", "--a", "random", "--b", "random", "--games", "2", "--shard",
    "1/99999999999999999999999" }, status = 2, stderr = "%-%-shard must be I/N with 1 <= I <= N", no_file_name = true },
  { name = "solve --shard 1/10^23", args = { "solve", "reversi", "--obf", "FILE", "--shard",
    "1/99999999999999999999999" }, status = 2, stderr = "%-%-shard must be I/N with 1 <= I <= N",
    file = POSITION .. "; G8:+18;\n", no_file_name = true },
  { name = "match --max-memory 1e308", args = { "match", "--a", "random", "--b", "random", "--games", "2",
    "--max-memory", "1e308" }, status = 2, usage = "%-%-max%-memory must be a number greater than 0, at most 1048576" },
  { name = "match --max-memory 1e15", args = { "match", "--a", "random", "--b", "random", "--games", "2",
    "--max-memory", "1e15" }, status = 2, usage = "%-%-max%-memory must be a number greater than 0, at most 1048576" },
  { name = "run --max-memory 1e15", args = { "run", "--max-memory", "1e15", "FILE" }, status = 2,
    stderr = "run: %-%-max%-memory must be a number greater than 0, at most 1048576", file = "",
    no_file_name = true },
  { name = "solve reversi --time 1e15", args = { "solve", "reversi", "--obf", "FILE", "--time", "1e15" },
    status = 2, usage = "time must be a number of seconds from 0 to 10000000", file = POSITION .. ";\n" },
  -- a table larger than the address space the spec allows (not under the
  -- sanitizers, which run without that limit)
  { name = "solve reversi --tt-mb 65536", args = { "solve", "reversi", "--obf", "FILE", "--tt-mb", "65536" },
    status = 1, stderr = "cannot solve with a 65536 MiB table: not enough memory", file = POSITION .. ";\n",
    no_file_name = true, unsanitized = true },
  { name = "solve dots --size 2x10^23", args = { "solve", "dots", "--size", "2x99999999999999999999999" },
    status = 2, usage = "size must be RxC or N with at most %d+ edges" },
  { name = "match alphabeta:time=1e15", args = { "match", "--a", "random", "--b", "alphabeta:time=1e15",
    "--games", "1" }, status = 2,
    stderr = "player 'alphabeta:time=1e15': option time: 1e%+15 is out of range 0%.%.10000000", no_file_name = true },
}

return M
