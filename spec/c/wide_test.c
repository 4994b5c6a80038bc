/* wide_test.c - the vectorised wide path against the cell-by-cell reference:
 * moves of random positions of every size with blocks and every legal
 * direction set, and perft counts with blocks. */
#include "capture.h"
#include "check.h"
#include "perft.h"
#include "rng.h"

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

int main(void)
{
    check_tally t = {0, 0};
    moves_agree(&t);
    perft_agree(&t);
    return check_summary(&t);
}
