/* simd64.h - the 8 x 8 word path: an AVX2 version chosen at run time beside the
 * portable one (both give the same results), and perft on packed words. */
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

#endif
