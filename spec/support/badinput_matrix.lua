--- The bad-input matrix (issue 11, item 4) as data: every prompt of the
-- five editions and the generic console, every NBoard and GTP command, and
-- the classes of bad input each one is given. spec/badinput_matrix_spec.lua
-- runs it against the real binary; docs/decisions.md "Bad input" states the
-- reactions.
--
-- A program: `args` (after `boardscript`), `mode` ("token" or "line", as
-- SPEC.md reads its answers), `answers` (a whole game, one answer a line),
-- `eof_status` (at a prompt; default 3) and its `prompts`. A prompt: `name`,
-- `at` (how many answers come before it: they are the valid prefix, the rest
-- of `answers` the continuation), `prompt` (its exact text: the prefix's
-- output ends with it), and `react(kind, text)`: what one invalid answer of
-- that kind prints before the program reads again (error lines and the
-- prompt again, as SPEC.md says). Kinds: "word", "huge", "negative" (a token
-- or line that reads as such a number), "blank" (an empty or blank line,
-- line input only). Optional: `discard` (a non-integer token drops the rest
-- of its line: blocks' count), `like` (a bad answer acts as this answer:
-- flipflop's y/n question), `closes` (any token ends the program: the
-- continuation is never read), `heavy` (the one prompt of the program that
-- also gets the 2-million-token line), `text` (class texts this prompt uses
-- instead of the defaults), `eof_status`, `after_eof` (end of input there
-- prints more after the prompt), `skip` (classes not applicable).
local M = {}

local MB = 1 << 20

--- The number of tokens of the `tokens` class (BOARDSCRIPT_BADINPUT_TOKENS;
-- 2 million, or 200000 under the sanitizers, which are about five times slower).
function M.token_count()
  local n = tonumber(os.getenv("BOARDSCRIPT_BADINPUT_TOKENS") or "")
  if n then return math.tointeger(n) end
  return os.getenv("BOARDSCRIPT_SANITIZED") and 200000 or 2000000
end

--- The classes of bad line, in matrix order: name and the line (without its
-- newline). `eof` (the input ends at the prompt) and `crlf` (the next valid
-- answer ends in CR LF) are not lines and are handled by the spec.
M.CLASSES = {
  { name = "eof" },
  { name = "empty", line = "" },
  { name = "blank", line = " \t  \t" },
  { name = "word", line = "zz" },
  { name = "huge", line = "99999999999999999999999" },
  { name = "negative", line = "-3" },
  { name = "nul", line = "z\0z" },
  { name = "utf8_lone", line = "\255" },
  { name = "utf8_truncated", line = "e\195" },
  { name = "crlf" },
  { name = "long_line", line = ("z"):rep(MB) },
  -- A word, half a megabyte of spaces, half a megabyte of CRs, a word.
  { name = "long_blanks", line = "z" .. (" "):rep(MB // 2) .. ("\r"):rep(MB // 2) .. "z" },
  { name = "tokens" }, -- M.token_count() tokens on one line (the program's `tokens` text, repeated)
  -- A word of 24 MiB: read in pieces and cut to console.MAX_LINE, so memory
  -- stays bounded whatever the length (only where `tokens` runs too).
  { name = "endless", line = ("z"):rep(24 * MB), heavy = true },
}

-- The generic console's answer to text it cannot read (docs/decisions.md,
-- "board"): the text with blanks around removed, cut after 40 bytes.
local function not_a_move(text, prompt)
  local first = text:find("%S")
  local last = #text
  while last > 0 and text:find("^%s", last) do last = last - 1 end
  local trimmed = first and text:sub(first, last) or ""
  if #trimmed > 40 then trimmed = trimmed:sub(1, 37) .. "..." end
  return ("Not a move: %s (type ? for the legal moves)\n%s"):format(trimmed, prompt)
end

-- A blank line asks again with nothing said.
local function console_reaction(prompt)
  return function(kind, text)
    if kind == "blank" then return prompt end
    return not_a_move(text, prompt)
  end
end

local function again(prompt, error_lines)
  return function() return (error_lines or "") .. prompt end
end

local REVERSI_GAME = [[
f5 d6 c3 d3 c4 f4 f6 g5 e6 d7 e3 c5 f3 e7 b6 b5 a6 g4 c6 g3 h3 f2 h6 d2 c2 e2 c7 b3 b4 a3
d1 e1 c1 a5 g6 h5 c8 h4 f8 g7 f7 g8 h8 h7 a4 a7 b2 a1 b7 a8 b8 b1 a2 d8 e8 h2 g2 h1 g1 f1]]

local function words(text)
  local out = {}
  for w in text:gmatch("%S+") do out[#out + 1] = w end
  return out
end

local FLIPFLOP_ASK = "Enter the number of squares along each edge of the board\n"
local FLIPFLOP_SIZE_ERROR = {
  word = "ERROR: Board size is not an integer\n",
  huge = "ERROR: Board size too large\n",
  negative = "ERROR: Board size too small\n",
}
local function piece_prompt(which)
  return ("Enter the square number of the square you want to put your %s piece on\n"):format(which)
end

M.PROGRAMS = {
  {
    name = "reversi", args = { "play", "reversi" }, mode = "token",
    answers = words(REVERSI_GAME), tokens = "a1 ",
    prompts = {
      { name = "move-black", at = 0, prompt = "Player ●'s move (input format: a1): ",
        react = again("Player ●'s move (input format: a1): "), heavy = true },
      { name = "move-white", at = 1, prompt = "Player ○'s move (input format: a1): ",
        react = again("Player ○'s move (input format: a1): ") },
    },
  },
  {
    name = "othello", args = { "play", "othello" }, mode = "line",
    answers = { "(-1, -1)", "3,5", "(-1, -1)", "(-1, -1)" }, tokens = "3 ",
    text = { huge = "(99999999999999999999999, 3)", negative = "(-2, 3)" },
    prompts = {
      { name = "move-black", at = 0, prompt = "Black's turn. Please choose a move:\n",
        react = again("Invalid move. Please choose a move:\n"), heavy = true },
      { name = "move-white", at = 1, prompt = "White's turn. Please choose a move:\n",
        react = again("Invalid move. Please choose a move:\n") },
    },
  },
  {
    name = "blocks", args = { "play", "blocks", "--size", "4" }, mode = "token",
    answers = words("1 A1 D2 D1 B4 C4 D4 A4 A2 D3 C1 B1 A3"), tokens = "zz ",
    prompts = {
      { name = "count", at = 0, prompt = "Enter number of blocks: ", discard = true, heavy = true,
        react = function(kind)
          return (kind == "huge" and "Too many blocks!\n" or "Invalid number!\n") .. "Enter number of blocks: "
        end },
      { name = "block-position", at = 1, prompt = "Enter position for block 1: ",
        react = again("Enter position for block 1: ", "Invalid position!\n") },
      { name = "move-x", at = 2, prompt = "Player X's turn: ", react = again("Player X's turn: ", "Invalid move!\n") },
      { name = "move-o", at = 3, prompt = "Player O's turn: ", react = again("Player O's turn: ", "Invalid move!\n") },
    },
  },
  {
    name = "flipflop", args = { "play", "flipflop" }, mode = "token",
    answers = words("8 29 19 26 37 y 33 45 y 10 30 y 44 43 y 21 38 39 y 40 q"), tokens = "zz ",
    prompts = {
      -- Three bad sizes end the program (status 1): no class gives more than two.
      { name = "size", at = 0, prompt = FLIPFLOP_ASK,
        react = function(kind)
          return FLIPFLOP_SIZE_ERROR[kind] .. "8 <= number of squares <= 24\n" .. FLIPFLOP_ASK
        end },
      { name = "first-piece", at = 1, prompt = piece_prompt("first"),
        react = again(piece_prompt("first"), "ERROR: that square is not on the board.\nTry again\n") },
      -- Anything but y or Y declines; a second bad token would go to the next prompt.
      { name = "second-piece-question", at = 5, prompt = "Would you like to place a second piece? (y/n)\n",
        like = "n", skip = { long_blanks = true } },
      { name = "second-piece", at = 6, prompt = piece_prompt("second"),
        react = again(piece_prompt("second"), "ERROR: that square is not on the board.\nTry again\n") },
      { name = "close", at = 20, prompt = "Please enter any character to close the game window\n",
        closes = true, heavy = true, eof_status = 0 },
    },
  },
  {
    name = "dots", args = { "play", "dots" }, mode = "line", eof_status = 0,
    answers = { "2", "a2 b2", "b1 c1", "b3 c3", "c1 c2", "a3 b3" }, tokens = "a1 ",
    prompts = {
      { name = "size", at = 0, prompt = "What size grid would you like? (2..8) ",
        react = again("What size grid would you like? (2..8) ", "Sorry, try again.\n") },
      -- End of input here is a quit: the post-game follows the prompt.
      { name = "move", at = 1, prompt = "What two dots would you like to connect? (Q to quit) ", heavy = true,
        after_eof = true,
        react = again("What two dots would you like to connect? (Q to quit) ", "Sorry, try again.\n") },
    },
  },
  {
    name = "board", args = { "play", "board", "--rules", "reversi", "--size", "4" }, mode = "line",
    answers = words("a2 c1 d1 a3 c4 d3 a4 b4 b1 d2 d4 a1"), tokens = "a1 ",
    prompts = {
      { name = "move-black", at = 0, prompt = "Black to move: ", heavy = true,
        react = console_reaction("Black to move: ") },
      { name = "move-white", at = 1, prompt = "White to move: ", react = console_reaction("White to move: ") },
    },
  },
  {
    -- The generic console on another rule set, against a computer.
    name = "board-dots", args = { "play", "board", "--rules", "dots", "--size", "2", "--white", "dots_rules",
      "--seed", "1" }, mode = "line",
    answers = { "b1 b2", "c1 c2", "c2 c3", "a1 a2", "a3 b3", "b2 c2", "b3 c3" }, tokens = "a1 ",
    prompts = {
      { name = "move-first", at = 0, prompt = "Player 1 to move: ", heavy = true,
        react = console_reaction("Player 1 to move: ") },
      { name = "move-after-computer", at = 3, prompt = "Player 1 to move: ",
        react = console_reaction("Player 1 to move: ") },
    },
  },
}

--- The bad argument texts given to every protocol command (each followed
-- by a probe line); `missing` is the command alone, `extra` a valid
-- argument and a word after it.
M.ARGUMENTS = {
  { name = "missing" },
  { name = "extra" },
  { name = "word", text = "zz" },
  { name = "huge", text = "99999999999999999999999" },
  { name = "negative", text = "-3" },
  { name = "nul", text = "z\0z" },
  { name = "utf8", text = "\255e\195" },
  { name = "long_line", text = ("z"):rep(MB) },
  { name = "long_blanks", text = "z" .. (" "):rep(MB // 2) .. ("\r"):rep(MB // 2) .. "z" },
  { name = "tokens" },
}

--- Lines that hold no command (each protocol ignores them): empty, blanks,
-- a CR alone, a megabyte of blanks and CRs, a NUL (GTP drops it; NBoard
-- reads it as a word, so it is not here).
M.BLANK_LINES = { "", " \t  \t", "\r", (" "):rep(MB // 2) .. ("\r"):rep(MB // 2) }

--- NBoard (lua/boardscript/protocol/nboard.lua): every command with the
-- argument a valid `extra` line starts with, and what each class of
-- argument must bring, as a function of the argument text: the lines the
-- engine writes to stdout and stderr (merged, in order) before the next
-- `ping`. `W(...)` is a warning line.
local GAME_AFTER_F5 = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)"
local function W(message) return "boardscript: nboard: " .. message end
local function cut(text) return #text > 40 and text:sub(1, 37) .. "..." or text end
local function first_word(text) return text:match("^%s*(%S+)") end
local function trim(text) -- linear, unlike "^%s*(.-)%s*$"
  local first = text:find("%S")
  if not first then return "" end
  local last = #text
  while text:find("^%s", last) do last = last - 1 end
  return text:sub(first, last)
end
local function q(text) return ("%q"):format(text) end

M.NBOARD = {
  args = { "nboard", "--policy", "alphabeta:depth=1,eval=hand", "--no-time" },
  setup = { "nboard 2", "set depth 1", "move F5" },
  -- After each case: the depth back to 1, then the probe.
  reset = "set depth 1",
  myname = "set myname boardscript-alphabeta1",
  commands = {
    { name = "nboard", valid = "2",
      reply = function(arg, myname)
        local v = arg and first_word(arg)
        if v == "1" or v == "2" then return { myname } end
        return { W(("nboard: version %s is not spoken here (1 and 2 are); going on as version 2"):format(
          v and cut(v) or "(none)")), myname }
      end },
    { name = "set depth", valid = "1",
      reply = function(arg)
        local v = first_word(arg or "")
        if v and v:match("^[+-]?%d+$") then -- brought within alphabeta's 1..60
          local n = math.max(1, math.min(60, tonumber(v)))
          return { ("set myname boardscript-alphabeta%d"):format(n) }
        end
        return { W(("set depth: %s is not a depth"):format(q(cut(trim(arg or ""))))) }
      end },
    { name = "set contempt", valid = "0",
      reply = function(arg)
        local v = first_word(arg or "")
        if v and tonumber(v) then return {} end
        return { W(("set contempt: %s is not a number"):format(q(cut(trim(arg or ""))))) }
      end },
    { name = "move", valid = "F6",
      reply = function(arg)
        local v = arg and arg:match("^%s*([^/%s]*)") or ""
        if v == "" then return { W("move: no move given") } end
        if v == "F6" then return {} end
        return { W(("move %s: not a move on this board"):format(cut(v))) }
      end },
    { name = "hint", valid = "1",
      reply = function(arg)
        local v = first_word(arg or "")
        local n = v and v:match("^%d+$") and tonumber(v) or 1
        local lines = { "status thinking", "search F6 0.40 0 1" }
        if n >= 2 then lines[#lines + 1] = "search F4 0.00 0 1" end
        if n >= 3 then lines[#lines + 1] = "search D6 -0.80 0 1" end
        lines[#lines + 1] = "status"
        return lines
      end },
    { name = "go", reply = function() return { "status thinking", "=== F6/0.40", "status" } end },
    { name = "ping", valid = "5",
      reply = function(arg)
        local v = first_word(arg or "")
        if v and v:match("^[+-]?%d+$") then return { "pong " .. v } end
        return { W(("ping: %s is not an integer; answering pong 0"):format(q(cut(trim(arg or ""))))), "pong 0" }
      end },
    { name = "learn", reply = function() return { "learned" } end },
    { name = "analyze",
      reply = function() return { "status analyzing", "analysis 1 0.40", "analysis 0 -1.80", "status" } end },
    { name = "set", reply = function() return {} end }, -- an unknown setting: ignored
    { name = "set game",
      reply = function(arg)
        local v, game = trim(arg or ""), GAME_AFTER_F5
        if v == game then return {} end
        if v:sub(1, #game) == game then -- text after the game
          return { W(("set game:1:%d: expected '(;' to start a GGF game, found '%s'"):format(
            #game + 2, trim(v:sub(#game + 1)):sub(1, 10))) }
        end
        if v == "" then return { W("set game:1:1: no GGF game in it (a game starts with '(;')") } end
        return { W(("set game:1:1: expected '(;' to start a GGF game, found '%s'"):format(v:sub(1, 10))) }
      end, valid = GAME_AFTER_F5 },
  },
  -- Command words that are no command: the warning quotes the word.
  unknown = { "zz", "Z\0Z", "\255", ("z"):rep(MB), "99999999999999999999999" },
  unknown_reply = function(word) return { W(("unknown command %s ignored"):format(q(cut(word)))) } end,
  tokens = "1 ",
}

--- GTP (lua/boardscript/protocol/gtp.lua): every command of gtp.COMMANDS
-- with the reply each class of argument must get (`=` or `?` and the text;
-- `extra` arguments are ignored, as GTP engines do). Lines are GTP-
-- preprocessed (control characters dropped), so `z\0z` is the word `zz`.
M.GTP = {
  args = { "gtp", "--policy", "alphabeta:depth=1,eval=hand" },
  setup = { "play b f5" },
  probe = "name", probe_reply = "= boardscript",
  state = "showboard",
  tokens = "a1 ",
  commands = {
    { name = "protocol_version", reply = function() return "= 2" end },
    { name = "name", reply = function() return "= boardscript" end },
    { name = "list_games", reply = function() return "= Othello" end },
    { name = "final_score", reply = function() return "= B+3" end },
    { name = "known_command", valid = "name",
      reply = function(arg) return (arg and first_word(arg) == "name") and "= true" or "= false" end },
    { name = "komi", valid = "6.5",
      reply = function(arg)
        local v = arg and first_word(arg:gsub("%z", ""))
        return (v and tonumber(v)) and "= " or "? syntax error"
      end },
    { name = "set_game", valid = "Othello",
      reply = function(arg)
        local v = arg and first_word(arg)
        return (v and v:lower() == "othello") and "= " or "? unsupported game"
      end },
    { name = "boardsize", valid = "8", changes = true,
      reply = function(arg)
        local v = arg and first_word(arg:gsub("%z", ""))
        if v == "8" then return "= " end
        -- A sign is not part of a size (spec/transcripts/gtp/bad-lines).
        if not (v and v:match("^%d+$")) then return "? boardsize not an integer" end
        return "? unacceptable size"
      end },
    { name = "play", valid = "w f4", changes = true,
      reply = function(arg)
        if arg == nil then return "? syntax error (wrong or missing color)" end
        local colour = first_word(arg)
        if colour == "w" and arg:match("^w f4") then return "= " end
        return "? syntax error (wrong or missing color)"
      end },
    { name = "play w", valid = "f4", changes = true,
      reply = function(arg)
        if arg == nil then return "? syntax error (wrong or missing color)" end
        return first_word(arg) == "f4" and "= " or "? illegal move"
      end },
    { name = "genmove", valid = "w", changes = true,
      reply = function(arg)
        local v = arg and first_word(arg)
        if v == "w" then return "= f6" end
        return "? syntax error (wrong or missing color)"
      end },
    { name = "undo", changes = true, reply = function() return "= " end },
    { name = "clear_board", changes = true, reply = function() return "= " end },
    { name = "showboard" },
    { name = "list_commands" },
    { name = "version" },
    { name = "quit", last = true, reply = function() return "= " end },
  },
  unknown = { "zz", "\255", ("z"):rep(MB), "z\0z" },
  unknown_reply = "? unknown command",
}

return M
