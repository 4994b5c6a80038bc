/* tt_test.c - the searcher's two-way table kept between searches (search_impl.h):
 * which entry a store takes, by depth and by the age of what is there. */
#include "../../src/core/search_impl.h"
#include "check.h"

#define A 0x100u /* keys of the same pair (bit 1 clear) */
#define B 0x200u
#define C 0x300u
#define D 0x500u
#define E 0x600u

static void put(bs_searcher *sr, uint64_t key, int depth) { tt_put(sr, key, depth, 5, 0, 10, 1); }

int main(void)
{
    check_tally t = {0, 0};
    bs_search_config cfg = {0};
    cfg.weights = bs_eval_default_weights();
    cfg.tt_bytes = 4 * sizeof(tt_entry); /* two pairs */
    bs_searcher *sr = NULL;
    CHECK(&t, bs_searcher_new(&sr, &cfg) == BS_OK && sr->tt_mask == 3);
    if (!sr)
        return check_summary(&t);
    tt_entry *tt = sr->tt;
    sr->age = 1;
    put(sr, A, 10);
    CHECK(&t, tt_find(sr, A) == &tt[0] && tt_bound(&tt[0]) == TT_EXACT && tt[0].flag >> 2 == 1);
    put(sr, B, 3); /* shallower than this search's entry: the second entry */
    CHECK(&t, tt_find(sr, B) == &tt[1] && tt_find(sr, A) == &tt[0]);
    put(sr, A, 4); /* the deeper result of the same search stays */
    CHECK(&t, tt[0].key == A && tt[0].depth == 10);
    sr->age = 2;
    put(sr, A, 4); /* from an older search: replaced */
    CHECK(&t, tt[0].key == A && tt[0].depth == 4 && tt[0].flag >> 2 == 2);
    put(sr, C, 2);
    CHECK(&t, tt_find(sr, C) == &tt[1] && tt_find(sr, B) == NULL);
    sr->age = 3;
    put(sr, D, 1); /* over an older search's entry however deep; that one is not kept */
    CHECK(&t, tt_find(sr, D) == &tt[0] && tt_find(sr, A) == NULL && tt_find(sr, C) == &tt[1]);
    put(sr, E, 6); /* deeper: the first entry, the one it displaces one store longer in the second */
    CHECK(&t, tt_find(sr, E) == &tt[0] && tt_find(sr, D) == &tt[1] && tt_find(sr, C) == NULL);
    put(sr, D, 7); /* from the second entry to the first: one copy only */
    CHECK(&t, tt[0].key == D && tt[0].depth == 7 && tt[1].key == E);
    CHECK(&t, tt_find(sr, 0x104u) == NULL && tt[2].key == 0 && tt[3].key == 0); /* the other pair untouched */

    /* every search and solve is a new age; a cleared table holds nothing */
    bs_game g = bs_game_reversi();
    bs_state s = {0};
    bs_board_init(&s.board, 8);
    bs_board_set(&s.board, 3, 3, BS_WHITE);
    bs_board_set(&s.board, 4, 4, BS_WHITE);
    bs_board_set(&s.board, 3, 4, BS_BLACK);
    bs_board_set(&s.board, 4, 3, BS_BLACK);
    s.player = BS_BLACK;
    s.piece = 1;
    bs_search_limits lim = {.depth = 2};
    bs_search_result res;
    unsigned before = sr->age;
    CHECK(&t, bs_search(sr, &g, &s, &lim, &res) == BS_OK);
    CHECK(&t, sr->age == ((before + 1) & 63));
    bs_searcher_clear(sr);
    CHECK(&t, tt_find(sr, D) == NULL && tt_find(sr, E) == NULL);
    bs_searcher_free(sr);
    return check_summary(&t);
}
