/* solve_test.c - the 8 x 8 exact solver (table pairs, transposition and
 * stability cutoffs) against a plain minimax over the generic rules, on
 * random endgames with and without blocks, misere and empties-to-winner. */
#include <stdlib.h>

#include "../../src/core/board.h"
#include "../../src/core/rng.h"
#include "../../src/core/search.h"
#include "check.h"

/* The margin for the side to move with best play, by plain minimax. */
static int minimax(const bs_game *g, const bs_state *s)
{
    if (bs_state_finished(g, s))
        return bs_state_final_value(g, s);
    bs_set moves;
    bs_state_moves(g, s, &moves);
    if (bs_set_empty(&moves)) {
        bs_state child = *s;
        bs_state_play(g, &child, BS_PASS);
        return -minimax(g, &child);
    }
    int best = -1000;
    for (int index = -1; bs_set_next(&moves, &index);) {
        bs_state child = *s;
        bs_state_play(g, &child, index);
        int v = -minimax(g, &child);
        if (v > best)
            best = v;
    }
    return best;
}

/* A random endgame: `blocks` random blocks, then random moves from the
 * start until `empties` cells are left (0 when the game ended first). */
static int random_endgame(bs_rng *rng, const bs_game *g, int blocks, int empties, bs_state *s)
{
    bs_board_init(&s->board, 8);
    bs_board_set(&s->board, 3, 3, BS_WHITE);
    bs_board_set(&s->board, 4, 4, BS_WHITE);
    bs_board_set(&s->board, 3, 4, BS_BLACK);
    bs_board_set(&s->board, 4, 3, BS_BLACK);
    for (int placed = 0; placed < blocks;) {
        int r = (int)bs_rng_below(rng, 8), c = (int)bs_rng_below(rng, 8), cell;
        bs_board_get(&s->board, r, c, &cell);
        if (cell == BS_EMPTY) {
            bs_board_set(&s->board, r, c, BS_BLOCK);
            placed++;
        }
    }
    s->player = BS_BLACK;
    s->passes = 0;
    s->piece = 1;
    s->turns = 0;
    s->unable = 0;
    while (bs_board_count(&s->board, BS_EMPTY) > empties) {
        if (bs_state_finished(g, s))
            return 0;
        bs_set moves;
        bs_state_moves(g, s, &moves);
        int count = bs_set_count(&moves);
        if (count == 0) {
            bs_state_play(g, s, BS_PASS);
            continue;
        }
        int k = (int)bs_rng_below(rng, (uint64_t)count), index = -1;
        while (bs_set_next(&moves, &index) && k-- > 0) {
        }
        bs_state_play(g, s, index);
    }
    return !bs_state_finished(g, s);
}

int main(void)
{
    check_tally t = {0, 0};
    bs_rng rng;
    bs_rng_seed(&rng, 20261122);
    bs_searcher *sr = NULL;
    bs_search_config cfg = {0};
    cfg.weights = bs_eval_default_weights();
    cfg.tt_bytes = (size_t)1 << 16; /* small: pairs are replaced all the time */
    CHECK(&t, bs_searcher_new(&sr, &cfg) == BS_OK);
    int solved = 0, lopsided = 0;
    for (int i = 0; i < 96; i++) {
        bs_game g = bs_game_reversi();
        g.misere = i % 4 == 1;
        g.empties_to_winner = i % 4 == 2;
        int blocks = i % 3 == 0 ? 0 : (int)bs_rng_below(&rng, 7);
        int empties = 8 + (int)bs_rng_below(&rng, 3); /* the table's and the cutoffs' depths */
        bs_state s;
        if (!random_endgame(&rng, &g, blocks, empties, &s))
            continue;
        bs_search_result res;
        CHECK(&t, bs_solve(sr, &g, &s, NULL, &res) == BS_OK);
        int expected = minimax(&g, &s);
        CHECK(&t, res.exact && res.value == expected);
        if (!(res.exact && res.value == expected))
            fprintf(stderr, "position %d: solver %d, minimax %d\n", i, res.value, expected);
        /* the move it names achieves the value */
        if (res.move != BS_PASS) {
            bs_state child = s;
            CHECK(&t, bs_state_play(&g, &child, res.move) >= 0);
            int after = child.player == s.player ? minimax(&g, &child) : -minimax(&g, &child);
            CHECK(&t, after == expected);
        }
        solved++;
        lopsided += expected >= 20 || expected <= -20;
        if (i % 7 == 0)
            bs_searcher_clear(sr);
    }
    CHECK(&t, solved >= 80);
    CHECK(&t, lopsided >= 5); /* some positions where stability can cut */
    bs_searcher_free(sr);
    printf("%d endgames solved, %d with a margin of 20 or more\n", solved, lopsided);
    return check_summary(&t);
}
