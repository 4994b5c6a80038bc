/* perft.h - leaf counts of the capture game tree, for testing and benchmarks. */
#ifndef BS_PERFT_H
#define BS_PERFT_H

#include "capture.h"

/* Counts the leaves `depth` plies below the position with `player` to move.
 * A pass (no legal move while the opponent has one) is one ply; a finished
 * game (neither side can move) is one leaf at any remaining depth (Aart Bik's
 * convention). Uses the 8 x 8 word path when it applies unless `generic`. */
int bs_perft(const bs_board *b, int player, int depth, unsigned legal_dirs,
             unsigned flip_dirs, bool generic, uint64_t *leaves);

/* The same count by the reference path: cell-by-cell runs for the moves
 * and bs_capture_play/undo for every child (slow; the independent second
 * path perft tables are checked with). */
int bs_perft_reference(const bs_board *b, int player, int depth, unsigned legal_dirs,
                       unsigned flip_dirs, uint64_t *leaves);

#endif
