/* dgame_search.h - alpha-beta and Monte Carlo tree search over described games (dgame.h). */
#ifndef BS_DGAME_SEARCH_H
#define BS_DGAME_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "dgame.h"
#include "dgame_ntuple.h"

/* What the horizon evaluation needs to know of a game beyond its states:
 * filled by the caller from the normalised description (the engine's
 * compiled form does not say it). Cells are 0-based indices. */
#define DG_EVAL_KINDS 8
typedef struct dg_eval_game {
    int rows, cols;
    int values[DG_EVAL_KINDS];   /* a kind's worth (kind k at index k - 1); 0 counts as 1 */
    int line_k;                  /* the k of the first `line` end, 0 without one */
    int line_axes[4][2];         /* its axes {dr, dc} */
    int line_axis_count;
    const int *reach_zone[2];    /* the first `reach` end's zone per side (cells), or NULL */
    int reach_zone_count[2];
    unsigned reach_kinds;        /* bit k - 1: kind k counts for reach (0: every kind) */
    /* A learned evaluation (dgame_ntuple.h) of this game, or NULL: when given
     * it replaces the one above, its value times DG_NT_SEARCH_SCALE. */
    const dg_ntuple *learned;
} dg_eval_game;

/* A learned value of 1 (a win's label) in the search's hundredths. */
#define DG_NT_SEARCH_SCALE 1000

/* Values, from the side to move: an evaluation stays within
 * +-(DG_SEARCH_WIN - 1); a finished game is worth 0 for a draw and
 * +-(DG_SEARCH_WIN + 256 x |score margin| - plies from the root) for a
 * win or loss, so any result beats any estimate, a sooner win beats a
 * later one and, for a game decided by score, a wider margin a narrower. */
#define DG_SEARCH_WIN 1000000
/* An evaluation counts material in hundredths of a piece of value 1. */

typedef struct dg_search_config {
    size_t tt_bytes; /* transposition table; 0 picks 16 MiB */
    /* Polled every few thousand nodes; nonzero stops the search (deadlines
     * live in the caller: the core reads no clock). */
    int (*should_stop)(void *userdata);
    void *stop_userdata;
    /* Optional, after each finished iteration from the second on: nonzero
     * ends the deepening there (as bs_search_config.iteration_done). */
    int (*iteration_done)(void *userdata, int depth, int value, int move_changed);
} dg_search_config;

typedef struct dg_searcher dg_searcher;

/* BS_OK, BS_EINVAL (NULL out), BS_ENOMEM. A searcher may search again
 * and again: its table is kept between searches (a player's moves of one
 * game share what they found), its ordering tables are not. */
int dg_searcher_new(dg_searcher **out, const dg_search_config *cfg);
void dg_searcher_free(dg_searcher *sr);
/* The stop of the searches to come (cfg's should_stop and stop_userdata). */
void dg_searcher_set_stop(dg_searcher *sr, int (*should_stop)(void *userdata), void *userdata);
/* Empties the table: its entries were found with another game or evaluation. */
void dg_searcher_clear(dg_searcher *sr);

typedef struct dg_search_limits {
    int depth;      /* deepest iteration; 0 = as deep as the stop allows (up to 100) */
    uint64_t nodes; /* stop after this many nodes; 0 = no limit */
    int quiescence; /* plies of captures searched past the horizon; 0 = none */
    int no_forcing; /* nonzero: no forced moves in a game decided by lines (to measure them) */
} dg_search_limits;

/* The pass, where a search returns a move: a side that must pass. */
#define DG_SEARCH_PASS UINT64_MAX

/* Forced moves, in a game decided by lines (dg_decided_by_lines: a
 * placement game on one word whose full-board and ply-limit ends are
 * draws, so a finished game is a line win or a draw), once both sides have
 * moved and neither this move nor the reply reaches a ply limit. The moves
 * that complete a line of the mover's win at once: `mv` keeps only them.
 * Else a cell where the opponent would complete a line stays playable for
 * them unless the mover takes it: with one such cell `mv` keeps only the
 * moves there; with two, every move loses to the reply (2, `mv` as it
 * was). Returns 1 when `*count` was shortened, 0 when nothing is forced
 * (or a pass is in the list). */
int dg_decided_by_lines(const dg_desc *d);
int dg_forced(const dg_desc *d, const dg_state *s, dg_move *mv, int *count);

typedef struct dg_search_result {
    dg_move move;   /* best move, or DG_SEARCH_PASS */
    int value;      /* for the side to move (see DG_SEARCH_WIN) */
    int depth;      /* deepest finished iteration */
    int exact;      /* nonzero: value is the game's result with best play */
    int stopped;    /* a limit or the stop callback cut the search short */
    uint64_t nodes;
} dg_search_result;

/* Iterative deepening PVS from `s` (left as it was; it is played and
 * undone on). BS_ESTATE for a finished game, BS_EINVAL for a bad
 * argument, BS_ENOMEM. A move is always returned (the first legal one
 * when a limit cuts the first iteration). */
int dg_search(dg_searcher *sr, const dg_desc *d, dg_state *s, const dg_eval_game *eg, const dg_search_limits *lim,
              dg_search_result *res);

/* The static evaluation alone (what the search reads at its horizon),
 * without searching: dg_search_prepare makes the tables of game eg once
 * (BS_OK, BS_EINVAL, BS_ENOMEM), then dg_search_static values states of
 * that game: *value as the search would (the learned evaluation when eg
 * has one), *hand the hand-written one (either may be NULL). */
int dg_search_prepare(dg_searcher *sr, const dg_desc *d, const dg_eval_game *eg);
int dg_search_static(dg_searcher *sr, const dg_state *s, int *value, int *hand);

/* ---- Monte Carlo tree search ---- */

/* A leaf's value from an evaluation instead of a random playout (a hook
 * for a learned evaluation): the odds in [0, 1] that the side to move at
 * `s` wins. Nonzero *failed stops the search. */
typedef double (*dg_leaf_fn)(void *userdata, const dg_desc *d, const dg_state *s, int *failed);

typedef struct dg_mcts_config {
    uint64_t playouts;    /* 0: no limit (then should_stop must end it) */
    double c;             /* exploration constant of UCT */
    uint64_t seed;
    size_t max_nodes;     /* the node pool; a full pool stops growing the tree */
    int (*should_stop)(void *userdata); /* polled every 64 playouts */
    void *stop_userdata;
    dg_leaf_fn leaf;      /* NULL: random playouts */
    void *leaf_userdata;
} dg_mcts_config;

typedef struct dg_mcts_child {
    dg_move move;     /* DG_SEARCH_PASS for a pass */
    uint32_t visits;
    double value;     /* mean reward of the side to move at the root, 0..1 */
} dg_mcts_child;

typedef struct dg_mcts_result {
    dg_move move;          /* the most visited root move */
    uint64_t playouts;
    double value;          /* the root's mean reward for its side to move, 0..1 */
    size_t nodes;          /* nodes in the tree */
    int proven;            /* 1: a proven win for the side to move, -1 a proven loss, 0 */
    dg_mcts_child *children; /* the root's children (malloc'd, the caller frees), or NULL */
    int child_count;
} dg_mcts_result;

/* A dg_leaf_fn reading a learned evaluation (userdata: a dg_searcher that
 * dg_search_prepare made ready with it): its value v (a win 1, a loss -1)
 * as the odds (v + 1) / 2, within [0, 1]. */
double dg_ntuple_leaf(void *userdata, const dg_desc *d, const dg_state *s, int *failed);

/* UCT from `s` (played and undone on, left as it was). BS_ESTATE for a
 * finished game, BS_EINVAL, BS_ENOMEM (nothing to free then). */
int dg_mcts(const dg_desc *d, dg_state *s, const dg_mcts_config *cfg, dg_mcts_result *res);

#endif
