/* cursor.h - a game walked one move at a time by a caller that picks each
 * move by its number among the legal ones (the per-move API of issue 10:
 * one call a move, no allocation). */
#ifndef BS_CURSOR_H
#define BS_CURSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

/*
 * A cursor holds a copy of a position of a described game and plays from
 * it. After every move it passes for a side with no legal move, as
 * bs_playout does (a pass the rules refuse, or a finished game, ends the
 * walk), so the side to move always has `count` legal moves, or the walk is
 * over (count 0). Moves are numbered 1..count in row-major order, the order
 * of bs_state_moves and of board:move_list: a caller that picks move
 * k = 1 + bs_rng_below(rng, count) at every step plays bs_playout's game.
 * Standard 8 x 8 Reversi (blocks allowed) runs on packed words.
 */
typedef struct bs_cursor {
    bs_game game;
    bs_state start; /* the position reset() returns to */
    bs_state state; /* generic games: the position now */
    int fast;       /* nonzero: the packed 8 x 8 words below are the position */
    uint64_t mine, theirs, blocks, moves; /* side to move's discs, the other's, legal moves */
    int player;     /* fast: the side to move */
    int count;      /* legal moves of the side to move; 0: the walk is over */
    int plies;      /* moves and passes since the start */
    bs_set legal;   /* generic games: the legal moves */
} bs_cursor;

/* A cursor on a copy of `s` (passing at once for a side with no move).
 * BS_EINVAL for a malformed game or state. */
int bs_cursor_init(bs_cursor *c, const bs_game *g, const bs_state *s);
/* Back to the position the cursor was made from. */
void bs_cursor_reset(bs_cursor *c);
/* Plays legal move k (1..count) and the passes that follow; the new count.
 * BS_EINVAL (nothing changed) for k out of range. */
int bs_cursor_play(bs_cursor *c, int k);
/* Passes for the side to move where the rules allow it with moves on the
 * board (then the passes that follow, as after a move): the new count;
 * BS_EILLEGAL (nothing changed) where they do not, or the walk is over. */
int bs_cursor_pass(bs_cursor *c);
/* Whether bs_cursor_pass would pass: moves on the board and the rules allow
 * a pass anyway (never on the packed path: standard rules). */
bool bs_cursor_can_pass(const bs_cursor *c);
/* The legal moves as square indices r * BS_MAX_N + c, in order: their number. */
int bs_cursor_moves(const bs_cursor *c, int *squares);
/* The position now. */
void bs_cursor_state(const bs_cursor *c, bs_state *out);

#endif
