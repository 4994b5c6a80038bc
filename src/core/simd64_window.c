/* simd64_window.c - perft in an 8 x 8 window of a bigger board on the AVX2
 * word path (bs_perft64_window, bs_moves64_window): what the wide path's
 * windows (wide_window.c) count with. Only in builds with the AVX2 path. */
#include "simd64_impl.h"

#ifdef BS_AVX2_PATH

/* simd64_perft.c's perft_avx2 in a window of a bigger board: a child whose
 * new disc lands on the ring goes to the escape (the caller checked the
 * root). MASKED: the legal and flip directions come from the window (else
 * all eight). */
#define DEFINE_PERFT_WINDOW(NAME, MASKED)                                                                        \
    BS_AVX2_FN static uint64_t NAME(uint64_t mine, uint64_t theirs, uint64_t empty, int depth,                   \
                                    const struct bs_window64 *w)                                                 \
    {                                                                                                            \
        const __m256i all = _mm256_set1_epi64x(-1);                                                              \
        const __m256i ll = MASKED ? _mm256_loadu_si256((const __m256i *)(w->lanes + 0)) : all;                      \
        const __m256i lh = MASKED ? _mm256_loadu_si256((const __m256i *)(w->lanes + 4)) : all;                      \
        const __m256i fh = MASKED ? _mm256_loadu_si256((const __m256i *)(w->lanes + 8)) : all;                      \
        const __m256i fl = MASKED ? _mm256_loadu_si256((const __m256i *)(w->lanes + 12)) : all;                      \
        __m256i pp = _mm256_set1_epi64x((long long)mine), oo = _mm256_set1_epi64x((long long)theirs);            \
        uint64_t moves = moves_masked_avx2(pp, oo, empty, ll, lh);                                               \
        if (depth == 1)                                                                                          \
            return moves ? (uint64_t)_mm_popcnt_u64(moves) : 1;                                                  \
        if (!moves) {                                                                                            \
            uint64_t replies = moves_masked_avx2(oo, pp, empty, ll, lh);                                         \
            if (!replies)                                                                                        \
                return 1;                                                                                        \
            return depth == 2 ? (uint64_t)_mm_popcnt_u64(replies) : NAME(theirs, mine, empty, depth - 1, w);     \
        }                                                                                                        \
        uint64_t leaves = 0;                                                                                     \
        if (depth == 2) {                                                                                        \
            do {                                                                                                 \
                uint64_t bit = _blsi_u64(moves);                                                                 \
                __m256i flips = spread_lanes(flip_lanes_masked_avx2(pp, oo, (int)_tzcnt_u64(moves), fh, fl));   \
                if (bit & w->ring) {                                                                             \
                    uint64_t f = (uint64_t)_mm256_extract_epi64(flips, 0);                                       \
                    leaves += w->escape(w->ctx, theirs ^ f, mine | f | bit, 1);                                  \
                } else {                                                                                         \
                    __m256i bits = _mm256_or_si256(flips, _mm256_set1_epi64x((long long)bit));                   \
                    uint64_t next = moves_masked_avx2(_mm256_xor_si256(oo, flips), _mm256_or_si256(pp, bits),    \
                                                      empty ^ bit, ll, lh);                                      \
                    leaves += next ? _mm_popcnt_u64(next) : 1;                                                   \
                }                                                                                                \
                moves = _blsr_u64(moves);                                                                        \
            } while (moves);                                                                                     \
            return leaves;                                                                                       \
        }                                                                                                        \
        do {                                                                                                     \
            uint64_t bit = _blsi_u64(moves);                                                                     \
            uint64_t flips = fold_lanes(flip_lanes_masked_avx2(pp, oo, (int)_tzcnt_u64(moves), fh, fl));         \
            if (bit & w->ring)                                                                                   \
                leaves += w->escape(w->ctx, theirs ^ flips, mine | flips | bit, depth - 1);                      \
            else                                                                                                 \
                leaves += NAME(theirs ^ flips, mine | flips | bit, empty ^ bit, depth - 1, w);                   \
            moves = _blsr_u64(moves);                                                                            \
        } while (moves);                                                                                         \
        return leaves;                                                                                           \
    }

DEFINE_PERFT_WINDOW(perft_window_avx2, 0)
DEFINE_PERFT_WINDOW(perft_window_dirs_avx2, 1)

uint64_t bs_perft64_window(uint64_t mine, uint64_t theirs, int depth, const struct bs_window64 *w)
{
    uint64_t empty = w->playable & ~(mine | theirs);
    if (w->legal == BS_DIRS_ALL && w->flip == BS_DIRS_ALL)
        return perft_window_avx2(mine, theirs, empty, depth, w);
    return perft_window_dirs_avx2(mine, theirs, empty, depth, w);
}

BS_AVX2_FN uint64_t bs_moves64_window(uint64_t mine, uint64_t theirs, const struct bs_window64 *w)
{
    uint64_t empty = w->playable & ~(mine | theirs);
    __m256i pp = _mm256_set1_epi64x((long long)mine), oo = _mm256_set1_epi64x((long long)theirs);
    if (w->legal == BS_DIRS_ALL)
        return moves_avx2(pp, oo, empty);
    return moves_masked_avx2(pp, oo, empty, _mm256_loadu_si256((const __m256i *)(w->lanes + 0)),
                             _mm256_loadu_si256((const __m256i *)(w->lanes + 4)));
}

/* The lane masks of a direction set, lanes (E-W, S-N, SE-NW, SW-NE): the
 * directions towards lower cells (W, N, NW, NE), then towards higher ones. */
static void dir_lanes(unsigned dirs, uint64_t lower[4], uint64_t higher[4])
{
    static const unsigned LOWER[4] = {BS_DIR_W, BS_DIR_N, BS_DIR_NW, BS_DIR_NE};
    static const unsigned HIGHER[4] = {BS_DIR_E, BS_DIR_S, BS_DIR_SE, BS_DIR_SW};
    for (int i = 0; i < 4; i++) {
        lower[i] = dirs & LOWER[i] ? ~0ULL : 0;
        higher[i] = dirs & HIGHER[i] ? ~0ULL : 0;
    }
}

void bs_window64_lanes(unsigned legal, unsigned flip, uint64_t lanes[16])
{
    dir_lanes(legal, lanes, lanes + 4);
    dir_lanes(flip, lanes + 12, lanes + 8);
}

#endif
