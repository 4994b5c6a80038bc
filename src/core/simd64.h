/* simd64.h - the 8 x 8 word path: an AVX2 version chosen at run time beside the
 * portable one (both give the same results), and perft on packed words
 * (its files: simd64_impl.h). */
#ifndef BS_SIMD64_H
#define BS_SIMD64_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"

/* Which version of the 8 x 8 word path to run. */
enum bs_impl64 {
    BS_IMPL64_AUTO = 0,   /* AVX2 when bs_avx2_available(), else portable */
    BS_IMPL64_SCALAR = 1, /* the portable C version, always */
    BS_IMPL64_AVX2 = 2    /* AVX2 (BS_EINVAL where it is not available) */
};

#define BS_PERFT64_MAX_DEPTH 64

/* True when this build has the AVX2 path and this CPU can run it (AVX2,
 * BMI1, BMI2, POPCNT). bs_moves64 and bs_flips64 (capture.h) use it then. */
bool bs_avx2_available(void);

/* True when the AVX2 path is fixed at build time (compiled with -march flags
 * that imply AVX2, BMI1, BMI2 and POPCNT: the program then needs such a CPU);
 * false when bs_avx2_available() asks the CPU when the program runs. */
bool bs_avx2_build_time(void);

/* The portable versions (defined in capture.c). */
uint64_t bs_moves64_scalar(uint64_t mine, uint64_t theirs, uint64_t empty);
uint64_t bs_flips64_scalar(uint64_t mine, uint64_t theirs, int square);

/* The AVX2 versions: call only when bs_avx2_available() (a build without the
 * AVX2 path makes them the portable ones). `mine` and `theirs` disjoint. */
uint64_t bs_moves64_avx2(uint64_t mine, uint64_t theirs, uint64_t empty);
uint64_t bs_flips64_avx2(uint64_t mine, uint64_t theirs, int square);

/* Leaves `depth` plies below the 8 x 8 position (bit 8*r + c) with `mine` to
 * move; `blocks` are cells nobody may play. All eight directions trap and
 * flip; passes and finished games count as bs_perft says. `impl` is an
 * enum bs_impl64. BS_EINVAL on overlapping planes or a bad depth or impl. */
int bs_perft64(uint64_t mine, uint64_t theirs, uint64_t blocks, int depth, int impl,
               uint64_t *leaves);

/* An 8 x 8 window of a bigger board, for perft: `playable` the window's
 * cells that are on the board and not blocks; `ring` the window's border
 * cells that are not on the board's edge. While no disc lies on the ring,
 * every move and flip of the board lies in the window (a move is next to a
 * disc), so the 8 x 8 path counts the board's tree; a node whose new disc
 * lands on the ring is handed to `escape` (the position in window bits,
 * the plies left), which counts it some other way. */
struct bs_window64 {
    uint64_t playable, ring;
    uint64_t (*escape)(void *ctx, uint64_t mine, uint64_t theirs, int depth);
    void *ctx;
    unsigned legal, flip;   /* direction sets (capture.h); legal nonzero (with
                               none, every empty cell is a move: no window holds them) */
    const uint64_t *lanes;  /* unless both are every direction: bs_window64_lanes's masks */
};

/* The lane masks of a window's legal and flip directions (16 words). */
void bs_window64_lanes(unsigned legal, unsigned flip, uint64_t lanes[16]);

/* Leaves `depth` (>= 1) plies below a window position with no disc on the
 * ring. Only in builds with the AVX2 path, and only when
 * bs_avx2_available() (wide_window.c's windows are used only then). */
uint64_t bs_perft64_window(uint64_t mine, uint64_t theirs, int depth, const struct bs_window64 *w);

/* The moves of a window position (its legal directions; ring and escape
 * unused), under the same conditions. */
uint64_t bs_moves64_window(uint64_t mine, uint64_t theirs, const struct bs_window64 *w);

#endif
