/* perft.c - perft for sandwich-capture games: an 8 x 8 word loop and a generic one. */
#include "perft.h"
#include "wide.h"

#define BS_PERFT_MAX_DEPTH 64

static uint64_t perft64(uint64_t mine, uint64_t theirs, uint64_t blocks, int depth)
{
    uint64_t moves = bs_moves64(mine, theirs, ~(mine | theirs | blocks));
    if (depth == 1)
        return moves ? (uint64_t)__builtin_popcountll(moves) : 1;
    if (!moves) {
        if (!bs_moves64(theirs, mine, ~(mine | theirs | blocks)))
            return 1;
        return perft64(theirs, mine, blocks, depth - 1);
    }
    uint64_t leaves = 0;
    do {
        int square = __builtin_ctzll(moves);
        uint64_t flips = bs_flips64(mine, theirs, square);
        leaves += perft64(theirs ^ flips, mine | flips | (1ULL << square), blocks, depth - 1);
        moves &= moves - 1;
    } while (moves);
    return leaves;
}

static uint64_t perft_generic(bs_board *b, int player, int depth, unsigned legal_dirs,
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
        return perft_generic(b, bs_opponent(player), depth - 1, legal_dirs, flip_dirs);
    }
    uint64_t leaves = 0;
    for (int index = -1; bs_set_next(&moves, &index);) {
        int r = index / BS_MAX_N, c = index % BS_MAX_N;
        bs_set flipped;
        bs_capture_play(b, player, r, c, legal_dirs, flip_dirs, &flipped);
        leaves += perft_generic(b, bs_opponent(player), depth - 1, legal_dirs, flip_dirs);
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
    if (!generic && b->n == 8 && legal_dirs == BS_DIRS_ALL && flip_dirs == BS_DIRS_ALL) {
        *leaves = perft64(bs_pack64(b->plane[player - 1]),
                          bs_pack64(b->plane[bs_opponent(player) - 1]),
                          bs_pack64(b->plane[2]), depth);
        return BS_OK;
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
    *leaves = perft_generic(&work, player, depth, legal_dirs, flip_dirs);
    return BS_OK;
}
