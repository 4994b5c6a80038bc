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

/* The entry of the table that holds `key` (-1: none), as tt_find finds it. */
static int slot(bs_searcher *sr, uint64_t key)
{
    tt_hit hit;
    if (!tt_find(sr, key, &hit))
        return -1;
    for (int i = 0; i <= (int)sr->tt_mask; i++)
        if ((sr->tt[i].check ^ sr->tt[i].data) == key)
            return i;
    return -2;
}

static uint64_t key_at(const bs_searcher *sr, int i) { return sr->tt[i].check ^ sr->tt[i].data; }

static tt_hit hit_at(const bs_searcher *sr, int i)
{
    tt_hit h;
    tt_unpack(sr->tt[i].data, &h);
    return h;
}

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
    sr->age = 1;
    put(sr, A, 10);
    tt_hit h = hit_at(sr, 0);
    CHECK(&t, slot(sr, A) == 0 && tt_bound(&h) == TT_EXACT && h.flag >> 2 == 1 && h.value == 5 && h.move == 1);
    put(sr, B, 3); /* shallower than this search's entry: the second entry */
    CHECK(&t, slot(sr, B) == 1 && slot(sr, A) == 0);
    put(sr, A, 4); /* the deeper result of the same search stays */
    CHECK(&t, key_at(sr, 0) == A && hit_at(sr, 0).depth == 10);
    sr->age = 2;
    put(sr, A, 4); /* from an older search: replaced */
    CHECK(&t, key_at(sr, 0) == A && hit_at(sr, 0).depth == 4 && hit_at(sr, 0).flag >> 2 == 2);
    put(sr, C, 2);
    CHECK(&t, slot(sr, C) == 1 && slot(sr, B) == -1);
    sr->age = 3;
    put(sr, D, 1); /* over an older search's entry however deep; that one is not kept */
    CHECK(&t, slot(sr, D) == 0 && slot(sr, A) == -1 && slot(sr, C) == 1);
    put(sr, E, 6); /* deeper: the first entry, the one it displaces one store longer in the second */
    CHECK(&t, slot(sr, E) == 0 && slot(sr, D) == 1 && slot(sr, C) == -1);
    put(sr, D, 7); /* from the second entry to the first: one copy only */
    CHECK(&t, key_at(sr, 0) == D && hit_at(sr, 0).depth == 7 && key_at(sr, 1) == E);
    CHECK(&t, slot(sr, 0x104u) == -1 && key_at(sr, 2) == 0 && key_at(sr, 3) == 0); /* the other pair untouched */
    /* negative values and moves (a pass) come back as stored */
    tt_put(sr, 0x106u, 9, -1999999, -3, 10, BS_PASS);
    h = hit_at(sr, 2);
    CHECK(&t, slot(sr, 0x106u) == 2 && h.value == -1999999 && h.move == BS_PASS && h.depth == 9 &&
                  tt_bound(&h) == TT_UPPER);
    /* an entry torn by two writers (one's check word, the other's data) is a miss */
    tt_put(sr, 0x206u, 9, 77, 0, 10, 3); /* as deep: the first entry, 0x106 to the second */
    CHECK(&t, slot(sr, 0x206u) == 2 && slot(sr, 0x106u) == 3);
    sr->tt[2].data = sr->tt[3].data;
    CHECK(&t, slot(sr, 0x206u) == -1 && slot(sr, 0x106u) == 3);

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
    CHECK(&t, slot(sr, D) == -1 && slot(sr, E) == -1);
    bs_searcher_free(sr);
    return check_summary(&t);
}
