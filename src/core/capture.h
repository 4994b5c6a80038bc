/* capture.h - sandwich capture: legal-move sets, flips, play and undo. */
#ifndef BS_CAPTURE_H
#define BS_CAPTURE_H

#include <stddef.h>
#include "board.h"

/* Directions, clockwise from north (row - 1). A capture operation takes two
 * masks of these: the directions in which a move must trap an opposing line to
 * be legal, and the directions in which it flips. A legal mask of 0 means any
 * empty cell is playable (the move then flips whatever it traps). */
enum bs_dir {
    BS_DIR_N = 1 << 0,
    BS_DIR_NE = 1 << 1,
    BS_DIR_E = 1 << 2,
    BS_DIR_SE = 1 << 3,
    BS_DIR_S = 1 << 4,
    BS_DIR_SW = 1 << 5,
    BS_DIR_W = 1 << 6,
    BS_DIR_NW = 1 << 7
};
#define BS_DIRS_ALL 0xffu
#define BS_DIRS_ORTHOGONAL (BS_DIR_N | BS_DIR_E | BS_DIR_S | BS_DIR_W)
#define BS_DIRS_DIAGONAL (BS_DIR_NE | BS_DIR_SE | BS_DIR_SW | BS_DIR_NW)

/* Empty cells where `player` traps at least one line in `legal_dirs`. */
int bs_capture_moves(const bs_board *b, int player, unsigned legal_dirs, bs_set *out);
/* Same, always through the multi-word path (to check the 8 x 8 path against):
 * rows of 32-bit lanes, vectorised (wide.h). */
int bs_capture_moves_generic(const bs_board *b, int player, unsigned legal_dirs, bs_set *out);
/* Same, cell run by cell run, one direction at a time: the slow reference the
 * fast paths are checked against. */
int bs_capture_moves_reference(const bs_board *b, int player, unsigned legal_dirs, bs_set *out);

/* The opposing pieces a piece of `player` at (r, c) would trap along
 * `dirs`; returns their number (0 when the cell is not empty). */
int bs_capture_flips(const bs_board *b, int player, int r, int c, unsigned dirs, bs_set *out);

/* True when a move at (r, c) is legal under `legal_dirs`. */
bool bs_capture_legal(const bs_board *b, int player, int r, int c, unsigned legal_dirs);

/* Places a piece and flips along `flip_dirs`; returns the number flipped, or
 * BS_EILLEGAL (board unchanged) when the move is not legal under `legal_dirs`.
 * `flipped` receives the flipped cells, which is all bs_capture_undo needs. */
int bs_capture_play(bs_board *b, int player, int r, int c, unsigned legal_dirs,
                    unsigned flip_dirs, bs_set *flipped);
/* bs_capture_play for the core's own hot paths, its arguments known to be
 * valid (a valid board, a player, a cell on it, direction sets): no checks;
 * `flipped` may be NULL. On 8 x 8 with every direction it takes the 64-bit
 * path (the one place that path is written for a single move). */
int bs_capture_play_unchecked(bs_board *b, int player, int r, int c, unsigned legal_dirs,
                              unsigned flip_dirs, bs_set *flipped);
/* Takes back a move made by bs_capture_play with these arguments. */
int bs_capture_undo(bs_board *b, int player, int r, int c, const bs_set *flipped);

/* A board's moves in order, for taking them back (the binding's board:undo):
 * the capture counterpart of the dots position's own history. Owned by its
 * holder: bs_history_init before use, bs_history_clear to free (and empty). */
typedef struct bs_capture_step bs_capture_step;
typedef struct bs_history {
    bs_capture_step *steps;
    size_t depth, capacity;
} bs_history;

void bs_history_init(bs_history *h);
void bs_history_clear(bs_history *h);
/* bs_capture_play, remembered: the number flipped, BS_EILLEGAL (board and
 * history unchanged) or BS_ENOMEM (nothing changed). */
int bs_history_play(bs_history *h, bs_board *b, int player, int r, int c, unsigned legal_dirs,
                    unsigned flip_dirs);
/* Takes back the last move remembered: BS_OK, or BS_ESTATE when there is none. */
int bs_history_undo(bs_history *h, bs_board *b);
/* `dst` (not initialised) becomes a copy of `src`: BS_OK or BS_ENOMEM (then
 * `dst` is empty). */
int bs_history_copy(bs_history *dst, const bs_history *src);

/* 8 x 8 fast path on packed words (bit 8*r + c), all eight directions: AVX2
 * when the CPU has it, else portable C (simd64.h). */
uint64_t bs_moves64(uint64_t mine, uint64_t theirs, uint64_t empty);
uint64_t bs_flips64(uint64_t mine, uint64_t theirs, int square);

#endif
