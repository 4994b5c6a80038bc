/* simd64_perft.c - perft on the 8 x 8 word path (bs_perft64): the portable
 * walk and the AVX2 one, which keeps a node's children in registers. */
#include "simd64_impl.h"

/* `empty` already excludes blocked cells; depth >= 2. */
static uint64_t perft_scalar(uint64_t mine, uint64_t theirs, uint64_t empty, int depth)
{
    uint64_t moves = bs_moves64_scalar(mine, theirs, empty);
    if (!moves) {
        uint64_t replies = bs_moves64_scalar(theirs, mine, empty);
        if (!replies)
            return 1;
        return depth == 2 ? (uint64_t)__builtin_popcountll(replies)
                          : perft_scalar(theirs, mine, empty, depth - 1);
    }
    uint64_t leaves = 0;
    if (depth == 2) {
        do {
            int square = __builtin_ctzll(moves);
            uint64_t bit = moves & -moves;
            uint64_t flips = bs_flips64_scalar(mine, theirs, square);
            uint64_t next = bs_moves64_scalar(theirs ^ flips, mine | flips | bit, empty ^ bit);
            leaves += next ? (uint64_t)__builtin_popcountll(next) : 1;
            moves ^= bit;
        } while (moves);
        return leaves;
    }
    do {
        int square = __builtin_ctzll(moves);
        uint64_t bit = moves & -moves;
        uint64_t flips = bs_flips64_scalar(mine, theirs, square);
        leaves += perft_scalar(theirs ^ flips, mine | flips | bit, empty ^ bit, depth - 1);
        moves ^= bit;
    } while (moves);
    return leaves;
}

#ifdef BS_AVX2_PATH

BS_AVX2_FN static uint64_t perft_avx2(uint64_t mine, uint64_t theirs, uint64_t empty, int depth)
{
    __m256i pp = _mm256_set1_epi64x((long long)mine), oo = _mm256_set1_epi64x((long long)theirs);
    uint64_t moves = moves_avx2(pp, oo, empty);
    if (!moves) {
        uint64_t replies = moves_avx2(oo, pp, empty);
        if (!replies)
            return 1;
        return depth == 2 ? (uint64_t)_mm_popcnt_u64(replies) : perft_avx2(theirs, mine, empty, depth - 1);
    }
    uint64_t leaves = 0;
    if (depth == 2) {
        /* the last ply is counted, never played: children stay in registers */
        do {
            uint64_t bit = _blsi_u64(moves);
            __m256i flips = spread_lanes(flip_lanes_avx2(pp, oo, (int)_tzcnt_u64(moves)));
            __m256i bits = _mm256_or_si256(flips, _mm256_set1_epi64x((long long)bit));
            uint64_t next = moves_avx2(_mm256_xor_si256(oo, flips), _mm256_or_si256(pp, bits), empty ^ bit);
            leaves += next ? _mm_popcnt_u64(next) : 1;
            moves = _blsr_u64(moves);
        } while (moves);
        return leaves;
    }
    do {
        uint64_t bit = _blsi_u64(moves);
        uint64_t flips = fold_lanes(flip_lanes_avx2(pp, oo, (int)_tzcnt_u64(moves)));
        leaves += perft_avx2(theirs ^ flips, mine | flips | bit, empty ^ bit, depth - 1);
        moves = _blsr_u64(moves);
    } while (moves);
    return leaves;
}

#endif

int bs_perft64(uint64_t mine, uint64_t theirs, uint64_t blocks, int depth, int impl,
               uint64_t *leaves)
{
    if (!leaves || depth < 0 || depth > BS_PERFT64_MAX_DEPTH || (mine & theirs) ||
        ((mine | theirs) & blocks) || impl < BS_IMPL64_AUTO || impl > BS_IMPL64_AVX2)
        return BS_EINVAL;
    bool avx2 = avx2_usable();
    if (impl == BS_IMPL64_AVX2 && !avx2)
        return BS_EINVAL;
    if (impl == BS_IMPL64_SCALAR)
        avx2 = false;
    uint64_t empty = ~(mine | theirs | blocks); /* blocks folded in once */
    if (depth == 0) {
        *leaves = 1;
    } else if (depth == 1) {
        uint64_t moves = avx2 ? moves64_avx2(mine, theirs, empty) : bs_moves64_scalar(mine, theirs, empty);
        *leaves = moves ? (uint64_t)__builtin_popcountll(moves) : 1;
    } else {
#ifdef BS_AVX2_PATH
        *leaves = avx2 ? perft_avx2(mine, theirs, empty, depth) : perft_scalar(mine, theirs, empty, depth);
#else
        *leaves = perft_scalar(mine, theirs, empty, depth);
#endif
    }
    return BS_OK;
}
