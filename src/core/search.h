/* search.h - alpha-beta search and the exact endgame solver over capture
 * games (described in game.h). */
#ifndef BS_SEARCH_H
#define BS_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* The evaluation: a weighted sum, from the side to move, in hundredths of a
 * disc. Every feature is own minus opponent's. */
typedef struct bs_eval_weights {
    int discs;      /* discs */
    int mobility;   /* legal moves */
    int potential;  /* potential mobility: empty cells next to the opponent's discs */
    int corners;    /* discs on cells that can never be flipped (a corner, or walled in by blocks) */
    int corner_adj; /* discs next to an empty such cell (usually negative) */
    int stable;     /* discs that can no longer be flipped (edge-anchored stability) */
    int parity;     /* the side to move has the last move in an odd region (endgame) */
} bs_eval_weights;

bs_eval_weights bs_eval_default_weights(void);
/* The evaluation of `s` for its side to move, with these weights. */
int bs_evaluate(const bs_game *g, const bs_state *s, const bs_eval_weights *w);

/* An evaluation supplied by the caller (e.g. a Lua function); returns the
 * value for s->player. A nonzero *failed stops the search. */
typedef int (*bs_eval_fn)(void *userdata, const bs_state *s, int *failed);

typedef struct bs_search_config {
    size_t tt_bytes;         /* transposition table; 0 picks 16 MiB */
    bs_eval_weights weights; /* used when no eval_fn is given */
    bs_eval_fn eval_fn;      /* optional: replaces the weighted evaluation */
    void *eval_userdata;
    /* Polled every few thousand nodes; nonzero stops the search (deadlines
     * live in the caller: the core reads no clock). */
    int (*should_stop)(void *userdata);
    void *stop_userdata;
    /* Optional, called with stop_userdata after each finished iteration of
     * bs_search (not the first): its depth, value, and whether its best move
     * differs from the iteration before. Nonzero ends the deepening there:
     * time management that spends less where the search is settled. */
    int (*iteration_done)(void *userdata, int depth, int value, int move_changed);
} bs_search_config;

typedef struct bs_searcher bs_searcher; /* opaque: owns the table and the ordering tables */

int bs_searcher_new(bs_searcher **out, const bs_search_config *cfg);
void bs_searcher_free(bs_searcher *s);
/* Replaces the evaluation weights (the table is cleared: its values were theirs). */
void bs_searcher_set_weights(bs_searcher *s, const bs_eval_weights *w);
void bs_searcher_clear(bs_searcher *s);
bs_eval_weights bs_searcher_weights(const bs_searcher *s);
/* Replaces the evaluation function (NULL: the weighted evaluation). */
void bs_searcher_set_eval(bs_searcher *s, bs_eval_fn fn, void *userdata);
/* A learned evaluation (pattern.h) instead of the weighted one (NULL: the
 * weighted one); an evaluation function still comes first. The model must
 * stay alive and unchanged while set, except through a fit (the searcher
 * notices its generation). The table is cleared when the model changes. */
struct bs_model;
void bs_searcher_set_model(bs_searcher *s, const struct bs_model *m);

typedef struct bs_search_limits {
    int depth;      /* deepest iteration (plies); 0 = as deep as time allows (up to 60) */
    int endgame;    /* solve exactly once this many empty cells or fewer remain; 0 = never
                       (off the 8 x 8 Reversi path at most 10, and never where a pass is
                       always allowed) */
    uint64_t nodes; /* stop after this many nodes; 0 = no limit */
    int midgame_first; /* nonzero (a search on a clock): where it would solve, it searches by
                          iterative deepening first (at most 8 plies, or until iteration_done
                          ends it) and solves with the time left; a solve cut short leaves
                          that search's move */
    int mpc;        /* Multi-ProbCut with a learned evaluation that has its parameters
                       (bs_model_set_mpc): 0 the default width (BS_MPC_WIDTH), > 0 the width
                       in hundredths of a sigma, < 0 off */
    unsigned without; /* BS_WITHOUT_* techniques left out (0: every one used) */
    int wld;        /* with midgame_first, on the 8 x 8 word path: from this many empty cells
                       (more than endgame) the search deepens at most empties - WLD_GAP plies
                       (search.c), then proves win, loss or draw with the time left; a proven
                       win or draw plays the move that proves it, a loss or a proof cut short
                       the searched move. 0 = never */
    int threads;    /* threads searching together (Lazy SMP, sharing the table): bs_search's
                       midgame and the 8 x 8 exact solve (bs_solve, bs_search's endgame); 0 or 1
                       one, at most BS_MAX_THREADS; one beside an evaluation function. With more
                       than one, a midgame result may differ run to run (an exact value never). */
} bs_search_limits;

#define BS_MAX_THREADS 8

/* Techniques a search can go without (bs_search_limits.without, or'ed),
 * so that each one's gain can be measured: */
#define BS_WITHOUT_ETC 1u        /* the exact solver's enhanced transposition cutoffs */
#define BS_WITHOUT_STABILITY 2u  /* the exact solver's stability cutoffs */
#define BS_WITHOUT_EVAL_ORDER 4u /* ordering by the learned evaluation (8 x 8 midgame far from the leaves,
                                    the solver far from the end): the cheap mobility ordering instead */
#define BS_WITHOUT_KILLERS 8u    /* killer and history ordering (the generic path) */
#define BS_WITHOUT_ASPIRATION 16u /* the aspiration window of each iteration after the third */
#define BS_WITHOUT_TABLE 32u     /* the transposition table's cutoffs and moves (it is still written) */

/* The default Multi-ProbCut width: a shallow search must predict a cutoff
 * by this many hundredths of the prediction's sigma. */
#define BS_MPC_WIDTH 150

typedef struct bs_search_result {
    int move;        /* best move (square index or BS_PASS); BS_PASS with no move too */
    int value;       /* bs_search: hundredths of a disc (an evaluation, or 100 x the margin of a
                        game found finished along the line); bs_solve: the margin in discs */
    int depth;       /* deepest completed iteration (plies), or empties when exact */
    int exact;       /* nonzero: value is the game's exact outcome with best play */
    int wld;         /* nonzero: win, loss or draw proven (bs_search_limits.wld): value is at least
                        100 for a win, 0 for a draw, at most -100 for a loss */
    int stopped;     /* nonzero: a limit or the stop callback cut the search short */
    uint64_t nodes;  /* nodes this search visited (every thread's) */
    int threads;     /* threads that searched (bs_search_limits.threads; 1 when only one could) */
} bs_search_result;

/* Searches `s` by iterative deepening. BS_ESTATE for a finished state,
 * BS_EINVAL for a malformed game or state. The best move of the deepest
 * finished iteration is returned even when stopped early (a first iteration
 * always finishes unless a node limit under its size cuts it: then the first
 * legal move). */
int bs_search(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
              bs_search_result *res);

/* Solves `s` exactly (every empty cell): value and best move. */
int bs_solve(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
             bs_search_result *res);

#endif
