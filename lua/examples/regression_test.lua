--- A regression script. `boardscript test lua/examples` runs every
-- `*_test.lua` file in a host process of its own, with `require
-- "boardscript"` working; any error (a failed assert) fails the test. It
-- also runs on its own:
--
--     boardscript run lua/examples/regression_test.lua
--
-- It pins the perft counts of two variants, checks them against a count
-- written here over the game object alone, plays a seeded game of two
-- policies to the end, and round-trips that game through a record.
local bs = require "boardscript"
local perft = require "boardscript.perft"
local players = require "boardscript.players"
local record = require "boardscript.record"

-- The directory of this file, so it finds its neighbours from anywhere.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"

-- Leaves `depth` plies down, counted with the game's own methods (moves,
-- play, pass, undo): independent of boardscript.perft.
local function leaves(g, depth)
  if depth == 0 or g:finished() then return 1 end
  local total = 0
  for _, move in ipairs(g:moves()) do
    assert(g:play(move), "a listed move is legal")
    total = total + leaves(g, depth - 1)
    assert(g:undo())
  end
  if g:can_pass() then
    assert(g:pass())
    total = total + leaves(g, depth - 1)
    assert(g:undo())
  end
  return total
end

-- Perft from the start, depths 1 up (the C core counts both variants).
local PERFT = {
  ["anti.lua"] = { 4, 12, 56, 244, 1396 },
  ["octagon.lua"] = { 4, 12, 56, 244, 1396, 8188 },
}

for file, counts in pairs(PERFT) do
  local g = bs.new_game(here .. file)
  for depth, expected in ipairs(counts) do
    local count, how = perft.count(g.rules, g.state, depth)
    assert(how == "core", file .. ": counted in C")
    assert(count == expected, ("%s depth %d: %d leaves, expected %d"):format(file, depth, count, expected))
    if depth <= 4 then
      assert(leaves(g, depth) == expected, ("%s depth %d: the game's own count differs"):format(file, depth))
    end
  end
end

-- Plays `g` to the end, `seats[side]` choosing each move; returns the plies.
local function play_out(g, seats)
  local plies = 0
  while not g:finished() do
    local move = players.choose(seats[g:to_move()], g) -- checks the answer is legal
    if move == "pass" then assert(g:pass()) else assert(g:play(move)) end
    plies = plies + 1
    assert(plies <= 200, "the game ends")
  end
  return plies
end

-- A seeded game of greedy against random on a board with random holes.
local seed = 11
local g = bs.new_game(here .. "holes.lua", { size = 6, holes = 3 }, seed)
local seats = { black = players.load(here .. "greedy.lua"), white = players.load("random") }
local plies = play_out(g, seats)
assert(plies >= 10, "a real game was played")
assert(g:winner() == "black" or g:winner() == "white" or g:winner() == "draw")

-- Its record replays from the same seed (the holes too) to the same end.
local text = record.text(g, { rules = here .. "holes.lua", seed = seed,
                              players = { black = "greedy.lua", white = "random" } })
local rec = record.parse(text, "greedy-vs-random")
assert(#rec.moves == plies)
local again = record.start(rec)
for _, entry in ipairs(rec.moves) do assert(record.apply(again, entry)) end
assert(again:board() == g:board(), "the replayed board is the same")
assert(rec.result.text == record.result(again))
