/* search_impl.h - internals shared by the searcher's files (not a public API). */
#ifndef BS_SEARCH_IMPL_H
#define BS_SEARCH_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern_impl.h"
#include "search.h"

/* Values: an evaluation is within +-(BS_WIN - 1); a finished game is worth
 * +-BS_WIN plus 100 per disc of margin, so any certain win beats any estimate
 * and a bigger margin beats a smaller one. */
#define BS_WIN 1000000
#define INF (BS_WIN * 2)
#define MAX_PLY 128
/* Deepest recursion of an exact solve (a few KiB of stack a ply). */
#define MAX_SOLVE_PLY 400
#define MAX_MOVES (BS_MAX_N * BS_MAX_N + 1)
#define STOP_POLL 4095u
#define EXACT_DEPTH 127

/* ---- the rules over a state (hot: inlined into the searcher) ---- */

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

/* Places a piece with the 8 x 8 word path when it applies. */
static inline int place(bs_board *b, int player, int r, int c, unsigned legal, unsigned flip)
{
    return bs_capture_place(b, player, r, c, legal, flip, NULL);
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
    int count = place(&s->board, s->player, move / BS_MAX_N, move % BS_MAX_N, legal_of(g, s), flip_of(g, s));
    if (count < 0)
        return count;
    s->passes = 0;
    if (s->piece == 1 && g->second_after > 0 && count >= g->second_after)
        s->piece = 2;
    else
        end_turn(s, false);
    return count;
}

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

static inline int terminal_score(int margin)
{
    return margin > 0 ? BS_WIN + 100 * margin : margin < 0 ? -BS_WIN + 100 * margin : 0;
}

/* ---- the evaluation's shape cache ---- */

/* Cells that can never be flipped, and the cells next to them, for one board
 * shape (size and blocks): cached by the searcher. */
typedef struct shape {
    int n;
    uint32_t blocks[BS_MAX_N];
    uint32_t anchored[BS_MAX_N]; /* on every axis, a wall (edge or block) on one side at least */
    uint32_t near[BS_MAX_N];     /* the non-block cells next to an anchored cell */
} shape;

/* ---- the searcher ---- */

typedef struct tt_entry {
    uint64_t key;
    int32_t value;
    int16_t move;
    int8_t depth;
    uint8_t flag; /* 1 lower bound, 2 upper bound, 3 exact */
} tt_entry;

enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3 };

struct bs_searcher {
    bs_search_config cfg;
    tt_entry *tt;
    size_t tt_mask;
    shape sh;
    int killers[MAX_PLY][2];
    int history[2][BS_MAX_N * BS_MAX_N];
    const bs_model *model; /* the learned evaluation, or NULL */
    uint32_t model_generation;
    bs_pat64 pat64;        /* its 8 x 8 word-path tables */
    int mid64;             /* the search in progress runs on the word path */
    /* the search in progress */
    const bs_game *g;
    uint64_t nodes, node_limit;
    int stop, allow_stop, exact;
};

static inline bool poll_stop(bs_searcher *sr)
{
    sr->nodes++;
    if ((sr->nodes & STOP_POLL) == 0 && sr->allow_stop) {
        if (sr->node_limit && sr->nodes >= sr->node_limit)
            sr->stop = 1;
        else if (sr->cfg.should_stop && sr->cfg.should_stop(sr->cfg.stop_userdata))
            sr->stop = 1;
    }
    return sr->stop;
}

/* ---- across files ---- */

/* eval_hand.c */
void bs_shape_compute(shape *sh, const bs_board *b);
int bs_evaluate_with(const bs_game *g, const bs_state *s, const bs_eval_weights *w, const shape *sh);

/* endgame64.c */
bool bs_fast_solvable(const bs_game *g, const bs_state *s);
int bs_solve64_root(bs_searcher *sr, const bs_state *s, int guess, int *best);

/* search64.c: the midgame search on the 8 x 8 word path with a learned
 * evaluation (when bs_mid64_applies; bs_pat64_prepare done by the caller) */
bool bs_mid64_applies(const bs_searcher *sr, const bs_game *g, const bs_state *s);
int bs_mid64_search(bs_searcher *sr, const bs_state *s, int depth, int alpha, int beta, int *best);
int bs_mid64_evaluate(bs_searcher *sr, const bs_state *s);

#endif
