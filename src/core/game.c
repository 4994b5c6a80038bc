/* game.c - capture games as descriptions, and their rules over a state (game.h). */
#include "game_impl.h"

#include <string.h>

/* ---- game descriptions and the rules over a state ---- */

bs_game bs_game_reversi(void)
{
    bs_game g;
    memset(&g, 0, sizeof g);
    g.legal_dirs = g.flip_dirs = BS_DIRS_ALL;
    g.pass_rule = BS_PASS_WHEN_STUCK;
    g.end_rule = BS_END_NO_MOVES;
    return g;
}

int bs_game_check(const bs_game *g)
{
    if (!g || g->legal_dirs > BS_DIRS_ALL || g->flip_dirs > BS_DIRS_ALL ||
        g->legal2_dirs > BS_DIRS_ALL || g->flip2_dirs > BS_DIRS_ALL || g->second_after < 0 ||
        g->second_after > BS_MAX_N * BS_MAX_N || g->pass_rule < BS_PASS_WHEN_STUCK ||
        g->pass_rule > BS_PASS_ANYTIME || g->end_rule < BS_END_NO_MOVES || g->end_rule > BS_END_TURNS ||
        g->turn_limit < 0 || g->turn_limit > 1000000)
        return BS_EINVAL;
    return BS_OK;
}

int bs_state_moves(const bs_game *g, const bs_state *s, bs_set *out)
{
    if (state_check(g, s) != BS_OK || !out)
        return BS_EINVAL;
    return bs_capture_moves(&s->board, s->player, legal_of(g, s), out);
}

int bs_state_can_pass(const bs_game *g, const bs_state *s)
{
    if (state_check(g, s) != BS_OK)
        return BS_EINVAL;
    if (g->pass_rule == BS_PASS_ANYTIME || s->piece == 2)
        return 1;
    return !has_moves(g, s, s->player, s->piece);
}

int bs_state_finished(const bs_game *g, const bs_state *s)
{
    return state_finished(g, s);
}

int bs_state_play(const bs_game *g, bs_state *s, int move)
{
    if (state_check(g, s) != BS_OK)
        return BS_EINVAL;
    if (move == BS_PASS) {
        if (!bs_state_can_pass(g, s))
            return BS_EILLEGAL;
        return apply(g, s, move);
    }
    int r = move / BS_MAX_N, c = move % BS_MAX_N;
    if (move < 0 || !bs_board_on(&s->board, r, c))
        return BS_EINVAL;
    bs_state next = *s;
    int count = apply(g, &next, move);
    if (count < 0)
        return BS_EILLEGAL;
    *s = next;
    return count;
}

int bs_state_final_value(const bs_game *g, const bs_state *s)
{
    return disc_margin(g, &s->board, s->player);
}
