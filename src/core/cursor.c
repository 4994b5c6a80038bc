/* cursor.c - a game walked one move at a time (see cursor.h). */
#include "cursor.h"

#include "simd64.h"

/* Standard Reversi on 8 x 8 (blocks allowed), as bs_playout's word path. */
static bool reversi64(const bs_game *g, const bs_state *s)
{
    return s->board.n == 8 && g->legal_dirs == BS_DIRS_ALL && g->flip_dirs == BS_DIRS_ALL &&
           g->second_after == 0 && g->pass_rule == BS_PASS_WHEN_STUCK && g->end_rule == BS_END_NO_MOVES &&
           s->piece == 1;
}

/* Fast path: the side to move's moves, passing for a side without one
 * (bs_playout's rule: over when neither side can move). */
static void settle64(bs_cursor *c)
{
    uint64_t empty = ~(c->mine | c->theirs | c->blocks);
    c->moves = bs_moves64(c->mine, c->theirs, empty);
    if (!c->moves) {
        uint64_t replies = bs_moves64(c->theirs, c->mine, empty);
        if (!replies) {
            c->count = 0;
            return;
        }
        uint64_t t = c->mine; /* a pass */
        c->mine = c->theirs;
        c->theirs = t;
        c->player = bs_opponent(c->player);
        c->state.passes++;
        c->state.unable++;
        c->state.turns++;
        c->plies++;
        c->moves = replies;
    }
    c->count = __builtin_popcountll(c->moves);
}

/* Generic games: passes for a side without a move until one has moves, the
 * game is finished or a pass is refused (as bs_playout's generic loop). */
static void settle(bs_cursor *c)
{
    for (int guard = 0; guard < 4; guard++) { /* a pass at most each way, then something ends */
        if (bs_state_finished(&c->game, &c->state) != 0) {
            c->count = 0;
            return;
        }
        bs_state_moves(&c->game, &c->state, &c->legal);
        c->count = bs_set_count(&c->legal);
        if (c->count > 0)
            return;
        if (bs_state_play(&c->game, &c->state, BS_PASS) < 0)
            break;
        c->plies++;
    }
    c->count = 0;
}

int bs_cursor_init(bs_cursor *c, const bs_game *g, const bs_state *s)
{
    if (!c || !g || !s || bs_game_check(g) != BS_OK || bs_state_finished(g, s) < 0)
        return BS_EINVAL;
    c->game = *g;
    c->start = *s;
    bs_cursor_reset(c);
    return BS_OK;
}

void bs_cursor_reset(bs_cursor *c)
{
    c->state = c->start;
    c->plies = 0;
    c->fast = reversi64(&c->game, &c->state);
    if (c->fast) {
        c->player = c->state.player;
        c->mine = bs_pack64(c->state.board.plane[c->player - 1]);
        c->theirs = bs_pack64(c->state.board.plane[bs_opponent(c->player) - 1]);
        c->blocks = bs_pack64(c->state.board.plane[2]);
        settle64(c);
    } else {
        settle(c);
    }
}

int bs_cursor_play(bs_cursor *c, int k)
{
    if (k < 1 || k > c->count)
        return BS_EINVAL;
    if (c->fast) {
        int square = bs_nth_bit(c->moves, k - 1);
        uint64_t flips = bs_flips64(c->mine, c->theirs, square);
        uint64_t mine = c->mine | flips | (1ULL << square);
        c->mine = c->theirs & ~flips;
        c->theirs = mine;
        c->player = bs_opponent(c->player);
        c->state.passes = 0;
        c->state.unable = 0;
        c->state.turns++;
        c->plies++;
        settle64(c);
        return c->count;
    }
    int square = -1;
    for (int i = 0; i < k; i++)
        bs_set_next(&c->legal, &square);
    if (bs_state_play(&c->game, &c->state, square) < 0)
        return BS_EINVAL; /* cannot happen: the move was listed as legal */
    c->plies++;
    settle(c);
    return c->count;
}

bool bs_cursor_can_pass(const bs_cursor *c)
{
    /* standard rules (the packed path): no pass with a move on the board */
    return c->count > 0 && !c->fast && bs_state_can_pass(&c->game, &c->state) == 1;
}

int bs_cursor_pass(bs_cursor *c)
{
    if (!bs_cursor_can_pass(c))
        return BS_EILLEGAL;
    bs_state before = c->state;
    if (bs_state_play(&c->game, &c->state, BS_PASS) < 0) {
        c->state = before;
        return BS_EILLEGAL;
    }
    c->plies++;
    settle(c);
    return c->count;
}

int bs_cursor_moves(const bs_cursor *c, int *squares)
{
    int n = 0;
    if (c->count == 0)
        return 0;
    if (c->fast) {
        for (uint64_t m = c->moves; m; m &= m - 1) {
            int b = __builtin_ctzll(m);
            squares[n++] = (b >> 3) * BS_MAX_N + (b & 7);
        }
        return n;
    }
    for (int index = -1; bs_set_next(&c->legal, &index);)
        squares[n++] = index;
    return n;
}

void bs_cursor_state(const bs_cursor *c, bs_state *out)
{
    *out = c->state;
    if (c->fast) {
        out->player = c->player;
        bs_unpack64(c->mine, out->board.plane[c->player - 1]);
        bs_unpack64(c->theirs, out->board.plane[bs_opponent(c->player) - 1]);
    }
}
