--- "The Tragedy of Othello" with standard legality (`othello --strict`):
-- a move must flip, and a pass is accepted only when no move is possible.
return require("boardscript.rules.othello").strict
