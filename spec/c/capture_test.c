/* capture_test.c - the 8 x 8 word path against the generic path, perft tables, misuse. */
#include <string.h>

#include "../../src/core/perft.h"
#include "../../src/core/rng.h"
#include "check.h"

static void standard_start(bs_board *b, int n)
{
    bs_board_init(b, n);
    int h = n / 2 - 1;
    bs_board_set(b, h, h, BS_WHITE);
    bs_board_set(b, h + 1, h + 1, BS_WHITE);
    bs_board_set(b, h, h + 1, BS_BLACK);
    bs_board_set(b, h + 1, h, BS_BLACK);
}

static bool sets_equal(const bs_set *a, const bs_set *b)
{
    return a->n == b->n && memcmp(a->row, b->row, sizeof a->row) == 0;
}

/* Random games with random blocks: both paths must give the same move sets for
 * every direction mask, and play/undo must round-trip. */
static void paths_agree(check_tally *t)
{
    bs_rng g;
    bs_rng_seed(&g, 2024);
    int disagreements = 0, undo_errors = 0;
    for (int game = 0; game < 300; game++) {
        bs_board b;
        standard_start(&b, 8);
        for (int k = (int)bs_rng_below(&g, 6); k > 0; k--) {
            int r = (int)bs_rng_below(&g, 8), c = (int)bs_rng_below(&g, 8), cell;
            bs_board_get(&b, r, c, &cell);
            if (cell == BS_EMPTY)
                bs_board_set(&b, r, c, BS_BLOCK);
        }
        int player = BS_BLACK;
        for (int ply = 0; ply < 70; ply++) {
            unsigned masks[] = {BS_DIRS_ALL, BS_DIRS_ORTHOGONAL, BS_DIRS_DIAGONAL,
                                (unsigned)bs_rng_below(&g, 256)};
            for (int m = 0; m < 4; m++) {
                bs_set fast, generic;
                bs_capture_moves(&b, player, masks[m], &fast);
                bs_capture_moves_generic(&b, player, masks[m], &generic);
                disagreements += !sets_equal(&fast, &generic);
            }
            bs_set moves;
            bs_capture_moves(&b, player, BS_DIRS_ALL, &moves);
            int count = bs_set_count(&moves);
            if (count > 0) {
                int pick = (int)bs_rng_below(&g, (uint64_t)count), index = -1;
                for (int i = 0; i <= pick; i++)
                    bs_set_next(&moves, &index);
                int r = index / BS_MAX_N, c = index % BS_MAX_N;
                bs_board before = b;
                bs_set flipped;
                uint64_t mine = bs_pack64(b.plane[player - 1]);
                uint64_t theirs = bs_pack64(b.plane[bs_opponent(player) - 1]);
                uint64_t flips64 = bs_flips64(mine, theirs, r * 8 + c);
                int n = bs_capture_play(&b, player, r, c, BS_DIRS_ALL, BS_DIRS_ALL, &flipped);
                disagreements += n <= 0 || bs_pack64(flipped.row) != flips64;
                bs_board after = b;
                bs_capture_undo(&b, player, r, c, &flipped);
                undo_errors += !bs_board_equal(&b, &before);
                b = after;
            }
            player = bs_opponent(player);
        }
    }
    CHECK(t, disagreements == 0);
    CHECK(t, undo_errors == 0);
}

static void perft_tables(check_tally *t)
{
    static const uint64_t eight[] = {1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288};
    static const uint64_t six[] = {1, 4, 12, 56, 244, 1364, 7604, 47740, 308716};
    static const uint64_t ten[] = {1, 4, 12, 56, 244, 1396, 8200, 55180};
    bs_board b;
    uint64_t leaves;
    standard_start(&b, 8);
    for (int d = 0; d < 10; d++) {
        CHECK(t, bs_perft(&b, BS_BLACK, d, BS_DIRS_ALL, BS_DIRS_ALL, false, &leaves) == BS_OK);
        CHECK(t, leaves == eight[d]);
    }
    for (int d = 0; d < 8; d++) {
        bs_perft(&b, BS_BLACK, d, BS_DIRS_ALL, BS_DIRS_ALL, true, &leaves);
        CHECK(t, leaves == eight[d]);
    }
    standard_start(&b, 6);
    for (int d = 0; d < 9; d++) {
        bs_perft(&b, BS_BLACK, d, BS_DIRS_ALL, BS_DIRS_ALL, false, &leaves);
        CHECK(t, leaves == six[d]);
    }
    standard_start(&b, 10);
    for (int d = 0; d < 8; d++) {
        bs_perft(&b, BS_BLACK, d, BS_DIRS_ALL, BS_DIRS_ALL, false, &leaves);
        CHECK(t, leaves == ten[d]);
    }
    /* A finished game is one leaf at any depth; a pass is a ply. */
    bs_board_init(&b, 4);
    bs_board_set(&b, 0, 0, BS_BLACK);
    bs_perft(&b, BS_WHITE, 5, BS_DIRS_ALL, BS_DIRS_ALL, false, &leaves);
    CHECK(t, leaves == 1);
    bs_board_init(&b, 8);
    bs_board_set(&b, 0, 0, BS_BLACK);
    bs_board_set(&b, 0, 1, BS_WHITE);
    bs_perft(&b, BS_WHITE, 2, BS_DIRS_ALL, BS_DIRS_ALL, false, &leaves); /* pass, then c1 */
    CHECK(t, leaves == 1);
}

static void misuse(check_tally *t)
{
    bs_board b;
    bs_set s;
    uint64_t leaves;
    CHECK(t, bs_board_init(&b, 0) == BS_EINVAL);
    CHECK(t, bs_board_init(&b, 27) == BS_EINVAL);
    CHECK(t, bs_board_init(NULL, 8) == BS_EINVAL);
    standard_start(&b, 8);
    int cell;
    CHECK(t, bs_board_get(&b, -1, 0, &cell) == BS_EINVAL);
    CHECK(t, bs_board_get(&b, 0, 8, &cell) == BS_EINVAL);
    CHECK(t, bs_board_set(&b, 0, 0, 7) == BS_EINVAL);
    CHECK(t, bs_capture_moves(&b, BS_EMPTY, BS_DIRS_ALL, &s) == BS_EINVAL);
    CHECK(t, bs_capture_moves(&b, BS_BLACK, 256, &s) == BS_EINVAL);
    CHECK(t, bs_capture_moves(NULL, BS_BLACK, BS_DIRS_ALL, &s) == BS_EINVAL);
    CHECK(t, bs_capture_play(&b, BS_BLACK, 0, 0, BS_DIRS_ALL, BS_DIRS_ALL, &s) == BS_EILLEGAL);
    CHECK(t, bs_capture_play(&b, BS_BLACK, 8, 0, BS_DIRS_ALL, BS_DIRS_ALL, &s) == BS_EINVAL);
    CHECK(t, bs_capture_flips(&b, BS_BLACK, 3, 3, BS_DIRS_ALL, &s) == 0); /* occupied */
    CHECK(t, bs_perft(&b, BS_BLACK, -1, BS_DIRS_ALL, BS_DIRS_ALL, false, &leaves) == BS_EINVAL);
    bs_set_init(&s, 8);
    CHECK(t, bs_capture_undo(&b, BS_BLACK, 0, 0, &s) == BS_ESTATE); /* nothing there */
    bs_board broken = b;
    broken.plane[0][3] |= 1u << 3; /* a cell both black and white */
    CHECK(t, !bs_board_valid(&broken));
    CHECK(t, bs_capture_moves(&broken, BS_BLACK, BS_DIRS_ALL, &s) == BS_EINVAL);
}

static void rng(check_tally *t)
{
    bs_rng a, b;
    bs_rng_seed(&a, 7);
    bs_rng_seed(&b, 7);
    int same = 1, in_range = 1;
    for (int i = 0; i < 1000; i++) {
        same &= bs_rng_next(&a) == bs_rng_next(&b);
        uint64_t x = bs_rng_below(&a, 10), y = bs_rng_below(&b, 10);
        in_range &= x < 10 && x == y;
    }
    CHECK(t, same);
    CHECK(t, in_range);
    bs_rng_seed(&a, 0);
    CHECK(t, bs_rng_next(&a) == 0x99ec5f36cb75f2b4ULL); /* xoshiro256** after splitmix64(0) */
}

/* The core's undo history: random games on 8 x 8 (the word path) and 10 x 10
 * played through it, then taken back move by move to the start; a copy
 * taken 20 moves in undoes that position to the same start; an illegal move
 * (on an occupied centre cell) and an empty history change nothing. */
static void history(check_tally *t)
{
    for (int n = 8; n <= 10; n += 2) {
        bs_rng rng;
        bs_rng_seed(&rng, (uint64_t)n);
        bs_board b, start, mid;
        standard_start(&b, n);
        start = mid = b;
        bs_history h, copy;
        bs_history_init(&h);
        bs_history_init(&copy);
        int player = BS_BLACK, passes = 0, plays = 0, errors = 0, centre = n / 2;
        while (passes < 2) {
            bs_set moves;
            bs_capture_moves(&b, player, BS_DIRS_ALL, &moves);
            int count = bs_set_count(&moves);
            player = bs_opponent(player);
            if (count == 0) {
                passes++;
                continue;
            }
            passes = 0;
            int pick = (int)bs_rng_below(&rng, (uint64_t)count), index = -1;
            for (int i = 0; i <= pick; i++)
                bs_set_next(&moves, &index);
            bs_board before = b;
            size_t depth = h.depth;
            errors += bs_history_play(&h, &b, bs_opponent(player), centre, centre, BS_DIRS_ALL, BS_DIRS_ALL)
                      != BS_EILLEGAL;
            errors += !bs_board_equal(&b, &before) || h.depth != depth;
            errors += bs_history_play(&h, &b, bs_opponent(player), index / BS_MAX_N, index % BS_MAX_N,
                                      BS_DIRS_ALL, BS_DIRS_ALL) <= 0;
            if (++plays == 20) {
                mid = b;
                errors += bs_history_copy(&copy, &h) != BS_OK;
            }
        }
        CHECK(t, plays > 40);
        CHECK(t, errors == 0);
        CHECK(t, h.depth == (size_t)plays);
        while (bs_history_undo(&h, &b) == BS_OK)
            ;
        CHECK(t, bs_board_equal(&b, &start));
        CHECK(t, bs_history_undo(&h, &b) == BS_ESTATE && bs_board_equal(&b, &start));
        CHECK(t, copy.depth == 20);
        while (bs_history_undo(&copy, &mid) == BS_OK)
            ;
        CHECK(t, bs_board_equal(&mid, &start));
        bs_history_clear(&copy);
        CHECK(t, copy.depth == 0 && copy.steps == NULL);
        bs_history_clear(&h);
    }
}

int main(void)
{
    check_tally t = {0, 0};
    paths_agree(&t);
    perft_tables(&t);
    misuse(&t);
    rng(&t);
    history(&t);
    return check_summary(&t);
}
