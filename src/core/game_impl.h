/* game_impl.h - the rules over a state (game.h) as inline functions: the
 * bodies of game.c's entry points, inlined into the searcher's hot paths
 * (not a public API). */
#ifndef BS_GAME_IMPL_H
#define BS_GAME_IMPL_H

#include <stdbool.h>

#include "game.h"

static inline int state_check(const bs_game *g, const bs_state *s)
{
    if (bs_game_check(g) != BS_OK || !s || !bs_board_valid(&s->board) || !bs_is_player(s->player) ||
        s->passes < 0 || s->turns < 0 || s->unable < 0 || s->piece < 1 || s->piece > 2 ||
        (s->piece == 2 && g->second_after == 0))
        return BS_EINVAL;
    return BS_OK;
}

static inline unsigned legal_of(const bs_game *g, const bs_state *s)
{
    return s->piece == 2 ? g->legal2_dirs : g->legal_dirs;
}

static inline unsigned flip_of(const bs_game *g, const bs_state *s)
{
    return s->piece == 2 ? g->flip2_dirs : g->flip_dirs;
}

static inline bool has_moves(const bs_game *g, const bs_state *s, int player, int piece)
{
    bs_set m;
    bs_capture_moves(&s->board, player, piece == 2 ? g->legal2_dirs : g->legal_dirs, &m);
    return !bs_set_empty(&m);
}

/* bs_state_finished's body, inlined into the searcher. */
static inline int state_finished(const bs_game *g, const bs_state *s)
{
    if (state_check(g, s) != BS_OK)
        return BS_EINVAL;
    switch (g->end_rule) {
    case BS_END_NO_MOVES:
        return !has_moves(g, s, s->player, 1) && !has_moves(g, s, bs_opponent(s->player), 1);
    case BS_END_TWO_PASSES:
        return s->passes >= 2 || bs_board_count(&s->board, BS_EMPTY) == 0;
    case BS_END_TWO_PASSES_ONLY:
        return s->passes >= 2;
    default: {
        int limit = g->turn_limit ? g->turn_limit : s->board.n * s->board.n;
        return s->turns >= limit || s->unable >= 2;
    }
    }
}

static inline void end_turn(bs_state *s, bool unable)
{
    s->turns++;
    s->unable = unable ? s->unable + 1 : 0;
    s->player = bs_opponent(s->player);
    s->piece = 1;
}

/* The rules' play and pass, trusting the caller (the state was checked once). */
static inline int apply(const bs_game *g, bs_state *s, int move)
{
    if (move == BS_PASS) {
        bool unable = s->piece == 1 && !has_moves(g, s, s->player, 1);
        s->passes++;
        end_turn(s, unable);
        return 0;
    }
    int count = bs_capture_play_unchecked(&s->board, s->player, move / BS_MAX_N, move % BS_MAX_N, legal_of(g, s),
                                          flip_of(g, s), NULL);
    if (count < 0)
        return count;
    s->passes = 0;
    if (s->piece == 1 && g->second_after > 0 && count >= g->second_after)
        s->piece = 2;
    else
        end_turn(s, false);
    return count;
}

/* The final margin for `player` (bs_state_final_value): fewest discs win in
 * a misere game, the empty cells go to the winner when the game says so. */
static inline int disc_margin(const bs_game *g, const bs_board *b, int player)
{
    int mine = bs_board_count(b, player), theirs = bs_board_count(b, bs_opponent(player));
    int diff = g->misere ? theirs - mine : mine - theirs;
    if (g->empties_to_winner) {
        int empty = bs_board_count(b, BS_EMPTY);
        diff += diff > 0 ? empty : diff < 0 ? -empty : 0;
    }
    return diff;
}

#endif
