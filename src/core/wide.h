/* wide.h - the capture core on boards of any size (N <= 26) as rows of
 * 32-bit lanes: move generation by parallel-prefix (Kogge-Stone) fills over
 * every row at once, written as plain loops over a fixed number of rows (16
 * for N <= 16, 32 above) that the compiler turns into vector code (AVX2 when
 * the processor has it, chosen at run time, else SSE2); with AVX2 and BMI2,
 * boards up to 16 x 16 (and windows of larger ones) run on one register of
 * 16-bit rows written with intrinsics. */
#ifndef BS_WIDE_H
#define BS_WIDE_H

#include "capture.h"

/* Empty cells where a piece of the side owning `mine` traps a line of
 * `theirs` in one of `legal_dirs` (0: every empty cell); rows hold bit c for
 * column c, rows at or past n are ignored. `empty` has the playable cells. */
void bs_wide_moves(int n, const uint32_t *mine, const uint32_t *theirs, const uint32_t *empty,
                   unsigned legal_dirs, uint32_t *moves);

/* perft over the wide path (see bs_perft for the conventions). */
uint64_t bs_wide_perft(const bs_board *b, int player, int depth, unsigned legal_dirs,
                       unsigned flip_dirs);

#endif
