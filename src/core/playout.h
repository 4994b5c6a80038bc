/* playout.h - random games to the end, for Monte Carlo policies and benchmarks. */
#ifndef BS_PLAYOUT_H
#define BS_PLAYOUT_H

#include "rng.h"
#include "game.h"

/*
 * Plays uniformly random moves from `s` until the game `g` is over or
 * `limit` plies have been played, leaving the final position in `s` and the
 * plies played in *plies. The policy, step by step (the same draws, in the
 * same order, as boardscript.ai.mcts's playouts over a rule set's hooks):
 * a finished game stops; with no legal move the player passes; otherwise,
 * when `pass_odds` > 0, one number below pass_odds is drawn and a 0 passes
 * if the rules allow a pass there; else the move is the k-th legal move in
 * row-major order, k drawn below their number. A pass the rules refuse
 * stops the game too. Standard 8 x 8 Reversi takes a 64-bit path.
 * BS_EINVAL for a malformed game, state or limit.
 */
int bs_playout(const bs_game *g, bs_state *s, bs_rng *rng, int pass_odds, int limit, int *plies);

#endif
