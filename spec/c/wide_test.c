/* wide_test.c - the vectorised wide path against the cell-by-cell reference:
 * moves of random positions of every size with blocks and every legal
 * direction set, and perft counts with blocks. */
#include "capture.h"
#include "check.h"
#include "perft.h"
#include "rng.h"

#include <stdio.h>

static void random_board(bs_board *b, int n, bs_rng *rng)
{
    bs_board_init(b, n);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint64_t x = bs_rng_next(rng) % 16;
            bs_board_set(b, r, c, x < 6 ? BS_BLACK : x < 12 ? BS_WHITE : x < 13 ? BS_BLOCK : BS_EMPTY);
        }
}

static void moves_agree(check_tally *t)
{
    bs_rng rng;
    bs_rng_seed(&rng, 2026);
    int mismatches = 0, checked = 0;
    for (int n = 1; n <= BS_MAX_N; n++) {
        for (int trial = 0; trial < 300; trial++) {
            bs_board b;
            random_board(&b, n, &rng);
            unsigned dirs = trial < 8 ? (trial == 0 ? BS_DIRS_ALL : 1u << trial)
                                      : (unsigned)(bs_rng_next(&rng) % 256);
            for (int player = BS_BLACK; player <= BS_WHITE; player++) {
                bs_set fast, slow;
                bs_capture_moves_generic(&b, player, dirs, &fast);
                bs_capture_moves_reference(&b, player, dirs, &slow);
                checked++;
                for (int r = 0; r < n; r++)
                    if (fast.row[r] != slow.row[r]) {
                        mismatches++;
                        break;
                    }
            }
        }
    }
    CHECK(t, checked == 2 * 300 * BS_MAX_N);
    CHECK(t, mismatches == 0);
}

static void perft_agree(check_tally *t)
{
    bs_rng rng;
    bs_rng_seed(&rng, 7);
    static const int sizes[] = {4, 5, 8, 10, 15, 16, 18, 26};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i], h = n / 2 - 1;
        bs_board b;
        bs_board_init(&b, n);
        bs_board_set(&b, h, h, BS_WHITE);
        bs_board_set(&b, h + 1, h + 1, BS_WHITE);
        bs_board_set(&b, h, h + 1, BS_BLACK);
        bs_board_set(&b, h + 1, h, BS_BLACK);
        for (int k = 0; k < n; k++) {
            int r = (int)(bs_rng_next(&rng) % (uint64_t)n), c = (int)(bs_rng_next(&rng) % (uint64_t)n), cell;
            bs_board_get(&b, r, c, &cell);
            if (cell == BS_EMPTY)
                bs_board_set(&b, r, c, BS_BLOCK);
        }
        uint64_t fast = 0, slow = 0;
        int depth = n <= 8 ? 7 : 5;
        CHECK(t, bs_perft(&b, BS_BLACK, depth, BS_DIRS_ALL, BS_DIRS_ALL, true, &fast) == BS_OK);
        CHECK(t, bs_perft_reference(&b, BS_BLACK, depth, BS_DIRS_ALL, BS_DIRS_ALL, &slow) == BS_OK);
        CHECK(t, fast == slow);
        CHECK(t, bs_perft(&b, BS_WHITE, depth, BS_DIRS_ORTHOGONAL, BS_DIRS_ALL, true, &fast) == BS_OK);
        CHECK(t, bs_perft_reference(&b, BS_WHITE, depth, BS_DIRS_ORTHOGONAL, BS_DIRS_ALL, &slow) == BS_OK);
        CHECK(t, fast == slow);
    }
    CHECK(t, bs_perft_reference(NULL, BS_BLACK, 1, BS_DIRS_ALL, BS_DIRS_ALL, NULL) == BS_EINVAL);
}

/* A position with discs placed at random in a square of side `span` whose
 * top-left cell is (r0, c0), blocks sprinkled over the whole board. */
static void spread_board(bs_board *b, int n, int r0, int c0, int span, bs_rng *rng)
{
    bs_board_init(b, n);
    for (int r = r0; r < r0 + span; r++)
        for (int c = c0; c < c0 + span; c++) {
            uint64_t x = bs_rng_next(rng) % 8;
            bs_board_set(b, r, c, x < 2 ? BS_BLACK : x < 4 ? BS_WHITE : BS_EMPTY);
        }
    for (int k = 0; k < n; k++) {
        int r = (int)(bs_rng_next(rng) % (uint64_t)n), c = (int)(bs_rng_next(rng) % (uint64_t)n), cell;
        bs_board_get(b, r, c, &cell);
        if (cell == BS_EMPTY)
            bs_board_set(b, r, c, BS_BLOCK);
    }
}

/* The flips of the fast paths (lines read into words, windows on boards
 * above 16, boards under 8 inside the 8 x 8 word) against the reference:
 * perft with every kind of legal and flip set, from positions whose discs
 * fill most of a 16 x 16 window (moves reach its borders at once, so nodes
 * leave the window and choose another) or sit against edges and corners. */
static void paths_agree(check_tally *t)
{
    bs_rng rng;
    bs_rng_seed(&rng, 99);
    static const unsigned sets[][2] = {
        {BS_DIRS_ALL, BS_DIRS_ALL},
        {BS_DIRS_ALL, BS_DIR_N | BS_DIR_SW},
        {BS_DIRS_DIAGONAL, BS_DIRS_ORTHOGONAL},
        {BS_DIR_E | BS_DIR_S, BS_DIRS_ALL},
        {0, BS_DIRS_ALL},
        {BS_DIRS_ALL, BS_DIR_NE | BS_DIR_W | BS_DIR_SE},
    };
    static const int cases[][5] = {
        /* n, r0, c0, span, depth */
        {26, 6, 7, 13, 3}, {26, 0, 0, 9, 4}, {26, 17, 15, 9, 4}, {20, 3, 5, 14, 3}, {17, 1, 0, 15, 3},
        {16, 0, 0, 16, 3}, {16, 2, 5, 9, 4},  {12, 0, 0, 12, 4}, {9, 0, 0, 9, 4},   {7, 0, 0, 7, 5},
        {5, 0, 0, 5, 6},   {3, 0, 0, 3, 6},
    };
    int mismatches = 0, checked = 0;
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bs_board b;
        spread_board(&b, cases[i][0], cases[i][1], cases[i][2], cases[i][3], &rng);
        for (unsigned k = 0; k < sizeof sets / sizeof sets[0]; k++) {
            int depth = sets[k][0] == 0 ? 2 : cases[i][4];
            for (int player = BS_BLACK; player <= BS_WHITE; player++) {
                uint64_t fast = 0, generic = 0, slow = 0;
                bool ok = bs_perft(&b, player, depth, sets[k][0], sets[k][1], false, &fast) == BS_OK &&
                          bs_perft(&b, player, depth, sets[k][0], sets[k][1], true, &generic) == BS_OK &&
                          bs_perft_reference(&b, player, depth, sets[k][0], sets[k][1], &slow) == BS_OK;
                checked++;
                if (!ok || fast != slow || generic != slow) {
                    mismatches++;
                    fprintf(stderr, "n %d case %u set %u player %d: %llu %llu %llu\n", cases[i][0], i, k, player,
                            (unsigned long long)fast, (unsigned long long)generic, (unsigned long long)slow);
                }
            }
        }
    }
    CHECK(t, checked == 2 * 6 * 12);
    CHECK(t, mismatches == 0);
}

/* The 8 x 8 window of boards of 9 and more (every direction): discs in a
 * small square anywhere, edges and corners too, with blocks about; deep
 * enough that nodes reach the ring, take a new window and finally leave
 * for the wider paths. */
static void small_windows_agree(check_tally *t)
{
    bs_rng rng;
    bs_rng_seed(&rng, 2026);
    static const int sizes[] = {9, 10, 12, 16, 17, 20, 26};
    int mismatches = 0, checked = 0;
    for (int i = 0; i < 42; i++) {
        int n = sizes[i % 7], span = 2 + (int)(bs_rng_next(&rng) % 5); /* 2..6 */
        int at_edge = i % 3;
        int r0 = at_edge == 1 ? 0 : at_edge == 2 ? n - span : (int)(bs_rng_next(&rng) % (uint64_t)(n - span + 1));
        int c0 = i % 2 ? 0 : (int)(bs_rng_next(&rng) % (uint64_t)(n - span + 1));
        bs_board b;
        spread_board(&b, n, r0, c0, span, &rng);
        int depth = span <= 3 ? 7 : 5;
        /* every direction, then one of the partial sets (trap and flip) */
        static const unsigned sets[][2] = {
            {BS_DIRS_ALL, BS_DIRS_ALL},
            {BS_DIRS_ALL, BS_DIR_N | BS_DIR_SW},
            {BS_DIRS_DIAGONAL, BS_DIRS_ORTHOGONAL},
            {BS_DIR_E | BS_DIR_S, BS_DIRS_ALL},
            {BS_DIRS_ORTHOGONAL, BS_DIRS_ORTHOGONAL},
            {BS_DIRS_ALL, BS_DIR_NE | BS_DIR_W | BS_DIR_SE},
            {BS_DIR_NW | BS_DIR_SW | BS_DIR_N, BS_DIR_NW | BS_DIR_SW | BS_DIR_E | BS_DIR_S},
        };
        for (int k = 0; k < 2; k++) {
            unsigned legal = sets[k ? 1 + i % 6 : 0][0], flip = sets[k ? 1 + i % 6 : 0][1];
            for (int player = BS_BLACK; player <= BS_WHITE; player++) {
                uint64_t fast = 0, slow = 0;
                bool ok = bs_perft(&b, player, depth, legal, flip, false, &fast) == BS_OK &&
                          bs_perft_reference(&b, player, depth, legal, flip, &slow) == BS_OK;
                checked++;
                if (!ok || fast != slow) {
                    mismatches++;
                    fprintf(stderr, "window n %d at %d,%d span %d dirs %x/%x player %d: %llu %llu\n", n, r0, c0,
                            span, legal, flip, player, (unsigned long long)fast, (unsigned long long)slow);
                }
            }
        }
    }
    CHECK(t, checked == 168);
    CHECK(t, mismatches == 0);
}

/* Boards of 8 and less with direction sets are the 8 x 8 window without a
 * ring (the cells past a smaller board's edge not playable): every kind of
 * set, from positions filling part of the board, blocks about. */
static void small_boards_agree(check_tally *t)
{
    bs_rng rng;
    bs_rng_seed(&rng, 808);
    static const unsigned sets[][2] = {
        {BS_DIRS_ALL, BS_DIRS_ORTHOGONAL},
        {BS_DIRS_ALL, BS_DIRS_DIAGONAL},
        {BS_DIRS_ALL, BS_DIR_N | BS_DIR_SW},
        {BS_DIRS_DIAGONAL, BS_DIRS_ORTHOGONAL},
        {BS_DIR_E | BS_DIR_S, BS_DIRS_ALL},
        {BS_DIRS_ORTHOGONAL, BS_DIRS_ORTHOGONAL},
        {BS_DIR_NW | BS_DIR_SW | BS_DIR_N, BS_DIR_NW | BS_DIR_SW | BS_DIR_E | BS_DIR_S},
    };
    int mismatches = 0, checked = 0;
    for (int n = 2; n <= 8; n++)
        for (int i = 0; i < 3; i++) {
            int span = n < 4 ? n : n - 2 + (int)(bs_rng_next(&rng) % 3);
            bs_board b;
            spread_board(&b, n, (n - span) * (i == 1), (n - span) * (i == 2), span, &rng);
            for (unsigned k = 0; k < sizeof sets / sizeof sets[0]; k++)
                for (int player = BS_BLACK; player <= BS_WHITE; player++) {
                    uint64_t fast = 0, slow = 0;
                    bool ok = bs_perft(&b, player, 6, sets[k][0], sets[k][1], false, &fast) == BS_OK &&
                              bs_perft_reference(&b, player, 6, sets[k][0], sets[k][1], &slow) == BS_OK;
                    checked++;
                    if (!ok || fast != slow) {
                        mismatches++;
                        fprintf(stderr, "small n %d position %d dirs %x/%x player %d: %llu %llu\n", n, i,
                                sets[k][0], sets[k][1], player, (unsigned long long)fast, (unsigned long long)slow);
                    }
                }
        }
    CHECK(t, checked == 7 * 3 * 7 * 2);
    CHECK(t, mismatches == 0);
}

int main(void)
{
    check_tally t = {0, 0};
    moves_agree(&t);
    perft_agree(&t);
    paths_agree(&t);
    small_windows_agree(&t);
    small_boards_agree(&t);
    return check_summary(&t);
}
