/* dots_solve_impl.h - internals shared by the solver's files (not a public API). */
#ifndef BS_DOTS_SOLVE_IMPL_H
#define BS_DOTS_SOLVE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "dots_solve.h"

#define BS_DOTS_SOLVE_MAX_BOXES 32 /* 5x5 is the most boxes 64 edges allow */
#define BS_DOTS_SOLVE_MAX_SYMS 8

/* The board once per size: which edges bound which box, and each symmetry
 * of the rectangle as an edge permutation plus byte lookup tables. */
struct geometry {
    int rows, cols, nedges, nboxes, nsym, nbytes;
    uint64_t box_mask[BS_DOTS_SOLVE_MAX_BOXES];
    uint8_t box_edge[BS_DOTS_SOLVE_MAX_BOXES][4];
    int8_t edge_box[BS_DOTS_SOLVE_MAX_EDGES][2]; /* -1 = ground */
    uint8_t centrality[BS_DOTS_SOLVE_MAX_EDGES];  /* higher nearer the middle */
    uint8_t perm[BS_DOTS_SOLVE_MAX_SYMS][BS_DOTS_SOLVE_MAX_EDGES];
    uint8_t inv[BS_DOTS_SOLVE_MAX_SYMS][BS_DOTS_SOLVE_MAX_EDGES];
    uint64_t image[BS_DOTS_SOLVE_MAX_SYMS][8][256];
};

/* 16 bytes; four to a 64-byte bucket. lo/hi bound the value of the
 * remaining boxes; move is in the canonical frame (0xff: none). */
struct tt_entry {
    uint64_t key; /* canonical edge set + 1, so 0 means empty */
    int8_t lo, hi;
    uint8_t move, work;
    uint32_t unused;
};

#define TT_WAYS 4

/* A capturable structure where declining may pay: take = the capture,
 * decline = the double-dealing move. */
struct decision {
    int take, decline;
};

struct bs_dots_solver {
    bs_dots_solve_config cfg;
    struct tt_entry *tt;
    size_t tt_buckets; /* a power of two */
    uint64_t nodes;
    int stopped;
    int root_lo, root_hi; /* what the last root search has proved so far */
    int tt_dirty;       /* the table holds entries (calloc gave it zeroed) */
    struct geometry g;
};

static inline int g_across(const struct geometry *g, int box, int e)
{
    return g->edge_box[e][0] == box ? g->edge_box[e][1] : g->edge_box[e][0];
}

void geometry_build(struct geometry *g, int rows, int cols);

/* The smallest image of `edges` under the board's symmetries; *sym gets the
 * symmetry that produced it and *stab a bit per symmetry fixing `edges`. */
uint64_t tt_canonical(const bs_dots_solver *s, uint64_t edges, int *sym, unsigned *stab);
struct tt_entry *tt_probe(bs_dots_solver *s, uint64_t key);
void tt_store(bs_dots_solver *s, uint64_t key, int lo, int hi, int move, uint64_t work);
void tt_clear(bs_dots_solver *s);

/* Moves worth trying in a position with no capturable box, best first. */
int gen_moves(const bs_dots_solver *s, uint64_t edges, const int8_t *sides, unsigned stab,
              int *moves);

#endif
