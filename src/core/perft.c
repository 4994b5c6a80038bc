/* perft.c - perft for sandwich-capture games: an 8 x 8 word loop and a generic one. */
#include "perft.h"
#include "simd64.h"
#include "wide.h"

#define BS_PERFT_MAX_DEPTH 64

static uint64_t perft_reference(bs_board *b, int player, int depth, unsigned legal_dirs,
                              unsigned flip_dirs)
{
    bs_set moves;
    bs_capture_moves_reference(b, player, legal_dirs, &moves);
    int count = bs_set_count(&moves);
    if (depth == 1)
        return count ? (uint64_t)count : 1;
    if (count == 0) {
        bs_set reply;
        bs_capture_moves_reference(b, bs_opponent(player), legal_dirs, &reply);
        if (bs_set_empty(&reply))
            return 1;
        return perft_reference(b, bs_opponent(player), depth - 1, legal_dirs, flip_dirs);
    }
    uint64_t leaves = 0;
    for (int index = -1; bs_set_next(&moves, &index);) {
        int r = index / BS_MAX_N, c = index % BS_MAX_N;
        bs_set flipped;
        bs_capture_play(b, player, r, c, legal_dirs, flip_dirs, &flipped);
        leaves += perft_reference(b, bs_opponent(player), depth - 1, legal_dirs, flip_dirs);
        bs_capture_undo(b, player, r, c, &flipped);
    }
    return leaves;
}

int bs_perft(const bs_board *b, int player, int depth, unsigned legal_dirs,
             unsigned flip_dirs, bool generic, uint64_t *leaves)
{
    if (!b || !bs_board_valid(b) || !bs_is_player(player) || !leaves || depth < 0 ||
        depth > BS_PERFT_MAX_DEPTH || legal_dirs > BS_DIRS_ALL || flip_dirs > BS_DIRS_ALL)
        return BS_EINVAL;
    if (depth == 0) {
        *leaves = 1;
        return BS_OK;
    }
    if (!generic && b->n <= 8 && legal_dirs == BS_DIRS_ALL && flip_dirs == BS_DIRS_ALL) {
        /* simd64_perft.c: AVX2 when the CPU has it, else the portable loop; a
         * smaller board sits in the corner of the 8 x 8 word with the cells
         * past its edge blocked (a block stops a line like the edge does) */
        uint32_t outside[BS_MAX_N];
        for (int r = 0; r < 8; r++)
            outside[r] = r < b->n ? 0xffu & ~bs_row_mask(b->n) : 0xffu;
        return bs_perft64(bs_pack64(b->plane[player - 1]), bs_pack64(b->plane[bs_opponent(player) - 1]),
                          bs_pack64(b->plane[2]) | bs_pack64(outside), depth, BS_IMPL64_AUTO, leaves);
    }
    *leaves = bs_wide_perft(b, player, depth, legal_dirs, flip_dirs);
    return BS_OK;
}

int bs_perft_reference(const bs_board *b, int player, int depth, unsigned legal_dirs,
                       unsigned flip_dirs, uint64_t *leaves)
{
    if (!b || !bs_board_valid(b) || !bs_is_player(player) || !leaves || depth < 0 ||
        depth > BS_PERFT_MAX_DEPTH || legal_dirs > BS_DIRS_ALL || flip_dirs > BS_DIRS_ALL)
        return BS_EINVAL;
    if (depth == 0) {
        *leaves = 1;
        return BS_OK;
    }
    bs_board work = *b;
    *leaves = perft_reference(&work, player, depth, legal_dirs, flip_dirs);
    return BS_OK;
}
