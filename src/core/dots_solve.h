/* dots_solve.h - exact Dots and Boxes solver: alpha-beta on the net score. */
#ifndef BS_DOTS_SOLVE_H
#define BS_DOTS_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "dots.h"

/*
 * Values are the net score of the boxes still to be won: boxes the player to
 * move takes from here minus boxes the opponent takes, with perfect play by
 * both. Boxes already owned are the caller's business (add score[turn] -
 * score[1-turn] for the final margin). From the empty board this is the first
 * player's margin: 2x2 = +2, 2x3 = -2, 3x3 = -3, 3x4 = 0, 4x4 = 0.
 *
 * The solver packs a position into one 64-bit word, so it takes boards with
 * at most BS_DOTS_SOLVE_MAX_EDGES edges (2rc + r + c <= 64: up to 5x5, 4x6,
 * 3x8, ...); anything larger is BS_EINVAL.
 */
#define BS_DOTS_SOLVE_MAX_EDGES 64

typedef struct bs_dots_solve_config {
    size_t tt_bytes;      /* table size in bytes (8 per position, rounded down to a power
                           * of two of 64-byte buckets); 0 picks 16 MiB. 3x3 needs 4 MiB,
                           * 3x4 16, 4x4 runs best with 1024. Allocated whole. */
    uint64_t node_limit;  /* stop after this many nodes; 0 = no limit */
    /* Polled every few thousand nodes; returning nonzero stops the search.
     * This is how a caller imposes a deadline without the core reading clocks. */
    int (*should_stop)(void *userdata);
    void *userdata;
} bs_dots_solve_config;

typedef struct bs_dots_solver bs_dots_solver; /* opaque; owns the table */

/* Allocate a solver (and its table). BS_ENOMEM if malloc fails, BS_EINVAL on
 * a NULL out. cfg may be NULL for the defaults. */
int bs_dots_solver_new(bs_dots_solver **out, const bs_dots_solve_config *cfg);
void bs_dots_solver_free(bs_dots_solver *s);

/* Solve `pos`. The table is kept between calls, so a player asking for move
 * after move reuses earlier work. On a stop (node limit or callback) returns
 * BS_ESTATE and leaves *value untouched. */
int bs_dots_solver_value(bs_dots_solver *s, const bs_dots *pos, int *value);
/* An optimal edge for the player to move and the value it achieves.
 * BS_ESTATE also when the game is over (no edge to draw). */
int bs_dots_solver_best(bs_dots_solver *s, const bs_dots *pos, int *edge, int *value);
/* Nodes visited since the solver was created. */
uint64_t bs_dots_solver_nodes(const bs_dots_solver *s);
/* Bounds on the root value proved by the last value/best call: equal when it
 * finished, and after a stop they say how far it got. Also valid while a
 * search runs (from the should_stop callback): what the finished probes
 * have proved. */
int bs_dots_solver_bounds(const bs_dots_solver *s, int *lo, int *hi);

/* One-shot helpers: a solver with a tt_bytes table (0 = default), freed
 * before returning. nodes may be NULL. */
int bs_dots_solve(const bs_dots *pos, size_t tt_bytes, int *value, uint64_t *nodes);
int bs_dots_best_move(const bs_dots *pos, size_t tt_bytes, int *edge, int *value);

#endif
