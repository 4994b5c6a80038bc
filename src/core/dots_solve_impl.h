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
    /* Boxes with two or more edges on the border (the corners; every box of
     * a one-wide board): in strings-and-coins terms those edges are
     * parallel strings from one coin to the ground, so they are
     * interchangeable (Barker and Korf's corner-edge symmetry). */
    int nmulti;
    uint64_t multi_mask[BS_DOTS_SOLVE_MAX_BOXES];
    uint64_t ground_of_edge[BS_DOTS_SOLVE_MAX_EDGES]; /* its box's mask, or 0 */
};

/* The ground-string normal form: of a box's interchangeable border edges,
 * the drawn ones are always the lowest-numbered. Positions with the same
 * normal form have the same value. */
static inline uint64_t g_normalize(const struct geometry *g, uint64_t x)
{
    for (int i = 0; i < g->nmulti; i++) {
        uint64_t gm = g->multi_mask[i], m = x & gm;
        if (m == 0 || m == gm)
            continue;
        uint64_t r = 0, f = gm;
        for (; m; m &= m - 1, f &= f - 1)
            r |= f & -f;
        x = (x & ~gm) | r;
    }
    return x;
}

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

/* The smallest ground-normalised image of `edges` under the board's
 * symmetries; *sym gets the symmetry that produced it and *stab a bit per
 * symmetry fixing `edges` up to ground-string swaps. */
uint64_t tt_canonical(const bs_dots_solver *s, uint64_t edges, int *sym, unsigned *stab);
/* The same in two steps: the images of `edges` under every symmetry (an
 * image of edges | e is then the image of edges | perm[k][e]), and the
 * canonical key of a set of images. */
void tt_images(const bs_dots_solver *s, uint64_t edges, uint64_t *img);
uint64_t tt_pick(const bs_dots_solver *s, const uint64_t *img, int *sym, unsigned *stab);
struct tt_entry *tt_probe(bs_dots_solver *s, uint64_t key);
/* Start loading the bucket of `key` into the cache. */
void tt_prefetch(const bs_dots_solver *s, uint64_t key);
void tt_store(bs_dots_solver *s, uint64_t key, int lo, int hi, int move, uint64_t work);
void tt_clear(bs_dots_solver *s);

/* Moves worth trying in a position with no capturable box, best first. */
int gen_moves(const bs_dots_solver *s, uint64_t edges, const int8_t *sides, unsigned stab,
              int *moves);

#endif
