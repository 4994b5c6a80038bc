/* dgame_search_impl.h - internals shared by the described-game searcher's files (not a public API). */
#ifndef BS_DGAME_SEARCH_IMPL_H
#define BS_DGAME_SEARCH_IMPL_H

#include "dgame_impl.h" /* the evaluation and ordering read the state's cells and piece sets directly */
#include "dgame_search.h"

/* Values beyond INF never occur. */
#define INF (DG_SEARCH_WIN * 4)
/* Values beyond this are results (a win or a loss found along the line). */
#define RESULT_BOUND (DG_SEARCH_WIN / 2)
#define EVAL_BOUND (DG_SEARCH_WIN / 4)
#define MAX_PLY 128
#define MAX_DEPTH 100
#define STOP_POLL 1023u
#define HISTORY_SIZE 4096
#define NO_CELL 1023
#define SWAP_RULE 31

typedef struct tt_entry {
    uint64_t key;
    dg_move move;
    int32_t value;
    int8_t depth;
    uint8_t flag;     /* 1 lower bound, 2 upper bound, 3 exact */
    uint8_t complete; /* no horizon evaluation below: the value is the game's */
    uint8_t pad;
} tt_entry;

enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3 };

/* A line of cells along a line end's axis, at least k long. */
typedef struct line {
    int start, step, length;
} line;

struct dg_searcher {
    dg_search_config cfg;
    tt_entry *tt;
    size_t tt_mask;
    dg_move killers[MAX_PLY][2];
    int history[2][HISTORY_SIZE];
    /* the move stack: every node's list, one above the other */
    dg_move *moves;
    int *scores;
    size_t move_cap, move_used;
    /* the evaluation's tables for the game being searched */
    int cells, k, far; /* far: the longest side, a distance no piece has */
    line *lines;
    int line_count;
    uint64_t *windows; /* boards of 64 cells or fewer: each window of k cells as a mask */
    int window_count;
    uint64_t board_mask;
    unsigned char side_of[256]; /* a cell's code: 0 empty, 1 black, 2 white, 3 block */
    int uniform;                /* every kind is worth the same: material is a piece count */
    unsigned char *dist[2]; /* per side and cell: rows to the reach zone (255 none) */
    int values[DG_EVAL_KINDS];
    unsigned reach_kinds;
    const dg_ntuple *learned; /* the learned evaluation (dgame_ntuple.h), or NULL */
    /* the search in progress */
    const dg_desc *d;
    dg_state *s;
    uint64_t nodes, node_limit;
    int stop, allow_stop, failed, horizon;
    int qdepth; /* plies of captures past the horizon (0: none) */
    int forcing; /* a game decided by lines alone: forced moves (dg_forced) */
    dg_move root_best;
    int root_best_set;
};

/* dgame_eval.c: the horizon evaluation's tables for a game (made once a
 * search; BS_OK / BS_ENOMEM), freeing them, and the evaluation itself. */
int dgs_prepare_eval(dg_searcher *sr, const dg_eval_game *eg);
void dgs_free_tables(dg_searcher *sr);
int dgs_evaluate(dg_searcher *sr);

#endif
