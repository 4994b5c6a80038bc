/* simd64_impl.h - internals shared by the 8 x 8 word path's files (not a
 * public API).
 *
 * The word path is the capture core on one 64-bit word a side (simd64.h):
 *   simd64.c         the entry points bs_moves64 and bs_flips64: AVX2 or
 *                    portable, picked on each call
 *   simd64_avx2.c    the AVX2 path's ray table and its exported functions
 *   simd64_perft.c   perft on words (bs_perft64), portable and AVX2
 *   simd64_window.c  8 x 8 windows of bigger boards, for the wide path's perft
 *   capture.c        the portable moves and flips (bs_moves64_scalar, ...)
 * Here: when the AVX2 path is built and usable, and its kernels, inlined
 * into each file's AVX2 functions.
 *
 * Move generation: the eight directions as four 64-bit lanes of one 256-bit
 * register (steps 1, 8, 9 and 7), shifted left for one half of the directions
 * and right for the other, runs of opposing discs grown by doubling shifts.
 * Flips: per square, the rays toward higher bits and toward lower bits as two
 * rows of four lanes of a constant table; no branches. Toward higher bits the
 * first non-opposing cell is the lowest set bit; toward lower bits the mover's
 * discs with a non-opposing cell between them and the square are erased by
 * shifts along the ray, which leaves at most the one that closes the line.
 *
 * The AVX2 functions are compiled for that target alone (a function attribute,
 * BS_AVX2_FN: no file needs its own compile flags) and are called only when
 * the CPU has AVX2, BMI1, BMI2 and POPCNT: known at build time under -march
 * flags that imply them, otherwise asked of the CPU on each call
 * (__builtin_cpu_supports reads a word libgcc fills in at start). No mutable
 * state of our own. */
#ifndef BS_SIMD64_IMPL_H
#define BS_SIMD64_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "capture.h"
#include "simd64.h"

/* -DBS_NO_SIMD64 builds the portable path alone (to test that build). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(BS_NO_SIMD64)
#define BS_AVX2_PATH 1
#include <immintrin.h>
#define BS_AVX2_FN __attribute__((target("avx2,bmi,bmi2,popcnt")))
#endif

/* The AVX2 path is fixed at build time (the whole build targets it). */
#if defined(BS_AVX2_PATH) && defined(__AVX2__) && defined(__BMI__) && defined(__BMI2__) && defined(__POPCNT__)
#define BS_AVX2_BUILD_TIME 1
#endif

/* Inline, so that the public entry points test one word and jump. */
static inline bool avx2_usable(void)
{
#if defined(BS_AVX2_BUILD_TIME)
    return true;
#elif defined(BS_AVX2_PATH)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#else
    return false;
#endif
}

#ifdef BS_AVX2_PATH

/* Per square: the cells of its four lines above it (lanes: step 1, 8, 9, 7),
 * then below it (same lanes); in simd64_avx2.c. Hidden: one copy, reached
 * without the GOT from every file of the path. */
extern const uint64_t bs_rays64[64][8] __attribute__((aligned(32), visibility("hidden")));

#define LANES(a, b, c, d) _mm256_set_epi64x((long long)(d), (long long)(c), (long long)(b), (long long)(a))

/* Legal moves of the discs in every lane of `pp` against `oo`. */
BS_AVX2_FN static inline __attribute__((always_inline)) uint64_t moves_masked_avx2(__m256i pp, __m256i oo,
                                                                                    uint64_t empty, __m256i lower,
                                                                                    __m256i higher)
{
    const __m256i step = LANES(1, 8, 9, 7), step2 = LANES(2, 16, 18, 14);
    /* an opposing disc on the edge column never lies inside a sideways run */
    const __m256i inner = LANES(0x7e7e7e7e7e7e7e7eULL, ~0ULL, 0x7e7e7e7e7e7e7e7eULL, 0x7e7e7e7e7e7e7e7eULL);
    __m256i o = _mm256_and_si256(oo, inner);
    __m256i up = _mm256_and_si256(o, _mm256_sllv_epi64(pp, step));
    __m256i dn = _mm256_and_si256(o, _mm256_srlv_epi64(pp, step));
    up = _mm256_or_si256(up, _mm256_and_si256(o, _mm256_sllv_epi64(up, step)));
    dn = _mm256_or_si256(dn, _mm256_and_si256(o, _mm256_srlv_epi64(dn, step)));
    /* pairs of opposing discs: a run doubles its reach per step */
    __m256i pair_up = _mm256_and_si256(o, _mm256_sllv_epi64(o, step));
    __m256i pair_dn = _mm256_srlv_epi64(pair_up, step);
    up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, step2)));
    dn = _mm256_or_si256(dn, _mm256_and_si256(pair_dn, _mm256_srlv_epi64(dn, step2)));
    up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, step2)));
    dn = _mm256_or_si256(dn, _mm256_and_si256(pair_dn, _mm256_srlv_epi64(dn, step2)));
    /* a move above its run traps downwards (W, N, NW, NE), one below it upwards */
    __m256i m = _mm256_or_si256(_mm256_and_si256(_mm256_sllv_epi64(up, step), lower),
                                _mm256_and_si256(_mm256_srlv_epi64(dn, step), higher));
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
    return (uint64_t)_mm_cvtsi128_si64(x) & empty;
}

/* Every direction (the masks fold away). */
BS_AVX2_FN static inline uint64_t moves_avx2(__m256i pp, __m256i oo, uint64_t empty)
{
    const __m256i all = _mm256_set1_epi64x(-1);
    return moves_masked_avx2(pp, oo, empty, all, all);
}

/* The flips of a move at `square`, one line per lane, not yet combined. */
BS_AVX2_FN static inline __attribute__((always_inline)) __m256i flip_lanes_masked_avx2(__m256i pp, __m256i oo,
                                                                                       int square, __m256i higher,
                                                                                       __m256i lower)
{
    const __m256i step = LANES(1, 8, 9, 7), step4 = LANES(4, 32, 36, 28);
    const __m256i zero = _mm256_setzero_si256();
    const uint64_t *rays = bs_rays64[square & 63];
    /* rays of the directions that do not flip are left out */
    __m256i above = _mm256_and_si256(_mm256_load_si256((const __m256i *)rays), higher);
    __m256i below = _mm256_and_si256(_mm256_load_si256((const __m256i *)(rays + 4)), lower);
    /* above: the nearest cell that is not the opponent's is the lowest bit */
    __m256i stop = _mm256_andnot_si256(oo, above);
    stop = _mm256_and_si256(_mm256_and_si256(stop, _mm256_sub_epi64(zero, stop)), pp);
    __m256i none = _mm256_cmpeq_epi64(stop, zero);
    __m256i below_stop = _mm256_add_epi64(stop, _mm256_cmpeq_epi64(zero, zero));
    __m256i up = _mm256_andnot_si256(none, _mm256_and_si256(above, below_stop)); /* stop - 1, or nothing */
    /* below: keep the mover's discs with no non-opposing cell between them
     * and the square (cells 1 to 7 steps above them on the ray) */
    __m256i gap = _mm256_andnot_si256(oo, below);
    gap = _mm256_or_si256(gap, _mm256_srlv_epi64(gap, step));
    gap = _mm256_or_si256(gap, _mm256_srlv_epi64(gap, _mm256_add_epi64(step, step)));
    __m256i end = _mm256_andnot_si256(_mm256_srlv_epi64(gap, step), _mm256_and_si256(pp, below));
    end = _mm256_andnot_si256(_mm256_srlv_epi64(gap, step4), end);
    /* the ray's cells above that end: -(2 * end) is every bit above it */
    __m256i dn = _mm256_and_si256(below, _mm256_sub_epi64(zero, _mm256_add_epi64(end, end)));
    return _mm256_or_si256(up, dn);
}

BS_AVX2_FN static inline __m256i flip_lanes_avx2(__m256i pp, __m256i oo, int square)
{
    const __m256i all = _mm256_set1_epi64x(-1);
    return flip_lanes_masked_avx2(pp, oo, square, all, all);
}

/* The OR of the four lanes, in every lane. */
BS_AVX2_FN static inline __m256i spread_lanes(__m256i v)
{
    v = _mm256_or_si256(v, _mm256_permute4x64_epi64(v, 0x4e));
    return _mm256_or_si256(v, _mm256_shuffle_epi32(v, 0x4e));
}

BS_AVX2_FN static inline uint64_t fold_lanes(__m256i v)
{
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
    return (uint64_t)_mm_cvtsi128_si64(x);
}

/* Inline, so that the entry points reach them without a call and, when the
 * whole build targets AVX2, inline them. */
BS_AVX2_FN static inline uint64_t moves64_avx2(uint64_t mine, uint64_t theirs, uint64_t empty)
{
    return moves_avx2(_mm256_set1_epi64x((long long)mine), _mm256_set1_epi64x((long long)theirs), empty);
}

BS_AVX2_FN static inline uint64_t flips64_avx2(uint64_t mine, uint64_t theirs, int square)
{
    return fold_lanes(flip_lanes_avx2(_mm256_set1_epi64x((long long)mine),
                                      _mm256_set1_epi64x((long long)theirs), square));
}

#else

#define moves64_avx2 bs_moves64_scalar
#define flips64_avx2 bs_flips64_scalar

#endif

#endif
