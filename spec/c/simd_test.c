/* simd_test.c - the AVX2 8 x 8 path against the portable one: moves and flips on
 * millions of seeded random positions, perft tables by both, misuse.
 * `simd_test 12` also counts perft to depth 12 by both (a minute or so). */
#include <stdlib.h>

#include "../../src/core/perft.h"
#include "../../src/core/rng.h"
#include "../../src/core/simd64.h"
#include "check.h"

#define START_BLACK 0x0000000810000000ULL /* d5 e4: bits 8*r + c, 0-based */
#define START_WHITE 0x0000001008000000ULL

/* Reversi perft from the start, passes a ply, a finished game one leaf. */
static const uint64_t PERFT[] = {1,        4,        12,        56,         244,        1396,      8200,
                                 55092,    390216,   3005288,   24571284,   212258800,  1939886636};

typedef struct tally64 {
    long positions, moves_differ, flips_differ, dispatch_differ;
} tally64;

/* Compares both paths on one position (discs disjoint) for both players and
 * every empty cell, playable or not. */
static void compare_position(tally64 *t, uint64_t black, uint64_t white, uint64_t blocks, bool avx2)
{
    uint64_t empty = ~(black | white | blocks);
    for (int side = 0; side < 2; side++) {
        uint64_t mine = side ? white : black, theirs = side ? black : white;
        uint64_t scalar = bs_moves64_scalar(mine, theirs, empty);
        t->dispatch_differ += bs_moves64(mine, theirs, empty) != scalar;
        if (avx2)
            t->moves_differ += bs_moves64_avx2(mine, theirs, empty) != scalar;
        for (uint64_t cells = empty; cells; cells &= cells - 1) {
            int square = __builtin_ctzll(cells);
            uint64_t flips = bs_flips64_scalar(mine, theirs, square);
            if (cells == empty) /* the public entry point: once a position is enough */
                t->dispatch_differ += bs_flips64(mine, theirs, square) != flips;
            if (avx2)
                t->flips_differ += bs_flips64_avx2(mine, theirs, square) != flips;
        }
    }
    t->positions++;
}

/* Boards of independent random cells at densities from sparse to full. */
static void random_boards(tally64 *t, bs_rng *g, long count, bool avx2)
{
    for (long i = 0; i < count; i++) {
        uint64_t black = 0, white = 0, blocks = 0;
        int fill = (int)bs_rng_below(g, 101); /* percent of occupied cells */
        for (int square = 0; square < 64; square++) {
            if ((int)bs_rng_below(g, 100) >= fill)
                continue;
            uint64_t bit = 1ULL << square;
            uint64_t roll = bs_rng_below(g, 32);
            if (roll == 0)
                blocks |= bit;
            else if (roll & 1)
                black |= bit;
            else
                white |= bit;
        }
        compare_position(t, black, white, blocks, avx2);
    }
}

/* Positions of random games (the shapes real play gives), some with blocks. */
static void random_games(tally64 *t, bs_rng *g, long count, bool avx2)
{
    while (count > 0) {
        uint64_t black = START_BLACK, white = START_WHITE, blocks = 0;
        if (bs_rng_below(g, 4) == 0)
            for (int k = (int)bs_rng_below(g, 6); k > 0; k--)
                blocks |= (1ULL << bs_rng_below(g, 64)) & ~(black | white);
        uint64_t *mine = &black, *theirs = &white;
        for (int passes = 0; passes < 2 && count > 0; count--) {
            compare_position(t, black, white, blocks, avx2);
            uint64_t moves = bs_moves64_scalar(*mine, *theirs, ~(black | white | blocks));
            if (moves) {
                passes = 0;
                for (uint64_t k = bs_rng_below(g, (uint64_t)__builtin_popcountll(moves)); k > 0; k--)
                    moves &= moves - 1;
                int square = __builtin_ctzll(moves);
                uint64_t flips = bs_flips64_scalar(*mine, *theirs, square);
                *mine |= flips | 1ULL << square;
                *theirs &= ~flips;
            } else {
                passes++;
            }
            uint64_t *swap = mine;
            mine = theirs;
            theirs = swap;
        }
    }
}

static void moves_and_flips_agree(check_tally *c, bool avx2)
{
    tally64 t = {0, 0, 0, 0};
    bs_rng g;
    bs_rng_seed(&g, 20261122);
    random_boards(&t, &g, 1000000, avx2);
    random_games(&t, &g, 1000000, avx2);
    printf("%ld positions compared%s\n", t.positions, avx2 ? "" : " (AVX2 path not available: dispatch only)");
    CHECK(c, t.positions == 2000000);
    CHECK(c, t.moves_differ == 0);
    CHECK(c, t.flips_differ == 0);
    CHECK(c, t.dispatch_differ == 0);
}

/* A few hand-made cases both paths must get right, edges and corners most. */
static void known_flips(check_tally *c, bool avx2)
{
    static const struct {
        uint64_t mine, theirs;
        int square;
        uint64_t flips;
    } cases[] = {
        {0x0000000000000001ULL, 0x000000000000007eULL, 7, 0x000000000000007eULL},  /* a1..h1 along row 0 */
        {0x0000000000000080ULL, 0x000000000000007eULL, 0, 0x000000000000007eULL},  /* the other way */
        {0x0100000000000000ULL, 0x0001010101010100ULL, 0, 0x0001010101010100ULL},  /* column a, upward */
        {0x8000000000000000ULL, 0x0040201008040200ULL, 0, 0x0040201008040200ULL},  /* long diagonal */
        {0x0000000000000080ULL, 0x0002040810204000ULL, 56, 0x0002040810204000ULL}, /* anti-diagonal down */
        {0x0000000000000000ULL, 0x000000000000007eULL, 7, 0},                      /* no closing disc */
        {0x0000000000000001ULL, 0x000000000000003cULL, 7, 0},                      /* a gap breaks the line */
        {0x0000000000000100ULL, 0x00000000000000feULL, 7, 0},                      /* no wrap to the next row */
        {0x0100000000000081ULL, 0x7e8181818181817eULL, 63, 0x7e80808080808000ULL}, /* two edges at once */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(c, bs_flips64_scalar(cases[i].mine, cases[i].theirs, cases[i].square) == cases[i].flips);
        if (avx2)
            CHECK(c, bs_flips64_avx2(cases[i].mine, cases[i].theirs, cases[i].square) == cases[i].flips);
    }
}

static void perft_table(check_tally *c, bool avx2, int max_depth)
{
    for (int depth = 0; depth <= max_depth; depth++) {
        uint64_t scalar = 0, simd = 0, automatic = 0;
        CHECK(c, bs_perft64(START_BLACK, START_WHITE, 0, depth, BS_IMPL64_SCALAR, &scalar) == BS_OK);
        CHECK(c, scalar == PERFT[depth]);
        CHECK(c, bs_perft64(START_BLACK, START_WHITE, 0, depth, BS_IMPL64_AUTO, &automatic) == BS_OK);
        CHECK(c, automatic == PERFT[depth]);
        if (avx2) {
            CHECK(c, bs_perft64(START_BLACK, START_WHITE, 0, depth, BS_IMPL64_AVX2, &simd) == BS_OK);
            CHECK(c, simd == PERFT[depth]);
        }
    }
    /* the board-level entry point takes the same path */
    bs_board b;
    bs_board_init(&b, 8);
    bs_board_set(&b, 3, 3, BS_WHITE);
    bs_board_set(&b, 4, 4, BS_WHITE);
    bs_board_set(&b, 3, 4, BS_BLACK);
    bs_board_set(&b, 4, 3, BS_BLACK);
    uint64_t leaves = 0;
    CHECK(c, bs_perft(&b, BS_BLACK, 9, BS_DIRS_ALL, BS_DIRS_ALL, false, &leaves) == BS_OK);
    CHECK(c, leaves == PERFT[9]);
}

/* From positions of random games with blocks: passes, finished games and
 * blocked cells must count the same both ways. */
static void perft_positions_agree(check_tally *c, bool avx2)
{
    if (!avx2)
        return;
    bs_rng g;
    bs_rng_seed(&g, 77);
    int differ = 0, positions = 0;
    for (int game = 0; game < 40; game++) {
        uint64_t black = START_BLACK, white = START_WHITE, blocks = 0;
        for (int k = (int)bs_rng_below(&g, 8); k > 0; k--)
            blocks |= (1ULL << bs_rng_below(&g, 64)) & ~(black | white);
        int stop = 20 + (int)bs_rng_below(&g, 45); /* some end games, some finished */
        uint64_t *mine = &black, *theirs = &white;
        for (int ply = 0; ply < stop; ply++) {
            uint64_t moves = bs_moves64_scalar(*mine, *theirs, ~(black | white | blocks));
            if (moves) {
                for (uint64_t k = bs_rng_below(&g, (uint64_t)__builtin_popcountll(moves)); k > 0; k--)
                    moves &= moves - 1;
                int square = __builtin_ctzll(moves);
                uint64_t flips = bs_flips64_scalar(*mine, *theirs, square);
                *mine |= flips | 1ULL << square;
                *theirs &= ~flips;
            }
            uint64_t *swap = mine;
            mine = theirs;
            theirs = swap;
        }
        for (int depth = 1; depth <= 6; depth++) {
            uint64_t a = 0, b = 0;
            bs_perft64(*mine, *theirs, blocks, depth, BS_IMPL64_SCALAR, &a);
            bs_perft64(*mine, *theirs, blocks, depth, BS_IMPL64_AVX2, &b);
            differ += a != b;
            positions++;
        }
    }
    CHECK(c, positions == 240);
    CHECK(c, differ == 0);
}

static void misuse(check_tally *c, bool avx2)
{
    uint64_t leaves = 99;
    CHECK(c, bs_perft64(START_BLACK, START_WHITE, 0, 3, BS_IMPL64_AUTO, NULL) == BS_EINVAL);
    CHECK(c, bs_perft64(START_BLACK, START_WHITE, 0, -1, BS_IMPL64_AUTO, &leaves) == BS_EINVAL);
    CHECK(c, bs_perft64(START_BLACK, START_WHITE, 0, BS_PERFT64_MAX_DEPTH + 1, BS_IMPL64_AUTO, &leaves) == BS_EINVAL);
    CHECK(c, bs_perft64(START_BLACK, START_BLACK, 0, 3, BS_IMPL64_AUTO, &leaves) == BS_EINVAL);
    CHECK(c, bs_perft64(START_BLACK, START_WHITE, START_WHITE, 3, BS_IMPL64_AUTO, &leaves) == BS_EINVAL);
    CHECK(c, bs_perft64(START_BLACK, START_WHITE, 0, 3, 3, &leaves) == BS_EINVAL);
    CHECK(c, bs_perft64(START_BLACK, START_WHITE, 0, 3, -1, &leaves) == BS_EINVAL);
    CHECK(c, leaves == 99);
    CHECK(c, (bs_perft64(START_BLACK, START_WHITE, 0, 3, BS_IMPL64_AVX2, &leaves) == BS_OK) == avx2);
    /* an out-of-range square is taken modulo 64, never read past the table */
    if (avx2)
        CHECK(c, bs_flips64_avx2(START_BLACK, START_WHITE, 64 + 19) == bs_flips64_avx2(START_BLACK, START_WHITE, 19));
}

int main(int argc, char **argv)
{
    check_tally t = {0, 0};
    bool avx2 = bs_avx2_available();
    int max_depth = 10;
    if (argc > 1)
        max_depth = atoi(argv[1]) < 12 ? atoi(argv[1]) : 12;
    if (max_depth < 0)
        max_depth = 0;
    printf("AVX2 path: %s\n", avx2 ? "available, checked against the portable one" : "not available");
    known_flips(&t, avx2);
    moves_and_flips_agree(&t, avx2);
    perft_table(&t, avx2, max_depth);
    perft_positions_agree(&t, avx2);
    misuse(&t, avx2);
    return check_summary(&t);
}
