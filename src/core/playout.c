/* playout.c - random games to the end (see playout.h). */
#include "playout.h"

/* Standard Reversi on 8 x 8 (blocks allowed): the packed-word path. */
static bool reversi64(const bs_game *g, const bs_state *s)
{
    return s->board.n == 8 && g->legal_dirs == BS_DIRS_ALL && g->flip_dirs == BS_DIRS_ALL &&
           g->second_after == 0 && g->pass_rule == BS_PASS_WHEN_STUCK && g->end_rule == BS_END_NO_MOVES &&
           s->piece == 1;
}

static int playout64(bs_state *s, bs_rng *rng, int pass_odds, int limit)
{
    int player = s->player;
    uint64_t mine = bs_pack64(s->board.plane[player - 1]);
    uint64_t theirs = bs_pack64(s->board.plane[bs_opponent(player) - 1]);
    uint64_t blocks = bs_pack64(s->board.plane[2]);
    int plies = 0;
    while (plies < limit) {
        uint64_t empty = ~(mine | theirs | blocks);
        uint64_t moves = bs_moves64(mine, theirs, empty);
        if (!moves) {
            if (!bs_moves64(theirs, mine, empty))
                break; /* neither side can move: over */
            s->passes++;
            s->unable++;
        } else {
            if (pass_odds > 0) /* drawn, but a pass is not allowed with a move */
                (void)bs_rng_below(rng, (uint64_t)pass_odds);
            uint64_t k = bs_rng_below(rng, (uint64_t)__builtin_popcountll(moves));
            while (k-- > 0)
                moves &= moves - 1;
            int square = __builtin_ctzll(moves);
            uint64_t flips = bs_flips64(mine, theirs, square);
            mine |= flips | (1ULL << square);
            theirs &= ~flips;
            s->passes = 0;
            s->unable = 0;
        }
        uint64_t t = mine;
        mine = theirs;
        theirs = t;
        player = bs_opponent(player);
        s->turns++;
        plies++;
    }
    s->player = player;
    bs_unpack64(mine, s->board.plane[player - 1]);
    bs_unpack64(theirs, s->board.plane[bs_opponent(player) - 1]);
    return plies;
}

static int playout_generic(const bs_game *g, bs_state *s, bs_rng *rng, int pass_odds, int limit, int *plies)
{
    *plies = 0;
    while (*plies < limit) {
        int finished = bs_state_finished(g, s);
        if (finished < 0)
            return finished;
        if (finished)
            break;
        bs_set moves;
        int st = bs_state_moves(g, s, &moves);
        if (st < 0)
            return st;
        int n = bs_set_count(&moves), move = BS_PASS;
        if (n > 0 && !(pass_odds > 0 && bs_rng_below(rng, (uint64_t)pass_odds) == 0 && bs_state_can_pass(g, s) == 1)) {
            uint64_t k = bs_rng_below(rng, (uint64_t)n);
            move = -1;
            for (uint64_t i = 0; i <= k; i++)
                bs_set_next(&moves, &move);
        }
        if (bs_state_play(g, s, move) < 0)
            break; /* no move and no pass: nothing more can happen */
        (*plies)++;
    }
    return BS_OK;
}

int bs_playout(const bs_game *g, bs_state *s, bs_rng *rng, int pass_odds, int limit, int *plies)
{
    if (!g || !s || !rng || !plies || pass_odds < 0 || limit < 0 || bs_game_check(g) != BS_OK)
        return BS_EINVAL;
    /* Validates the state (shape, player, piece) before the fast path trusts it. */
    if (bs_state_finished(g, s) < 0)
        return BS_EINVAL;
    if (reversi64(g, s)) {
        *plies = playout64(s, rng, pass_odds, limit);
        return BS_OK;
    }
    return playout_generic(g, s, rng, pass_odds, limit, plies);
}
