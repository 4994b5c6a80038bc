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
    int nmulti, npairs; /* the first npairs of them have exactly two */
    uint64_t multi_mask[BS_DOTS_SOLVE_MAX_BOXES];
    uint8_t pair_lo[BS_DOTS_SOLVE_MAX_BOXES], pair_hi[BS_DOTS_SOLVE_MAX_BOXES];
    uint64_t ground_of_edge[BS_DOTS_SOLVE_MAX_EDGES]; /* its box's mask, or 0 */
};

/* The ground-string normal form: of a box's interchangeable border edges,
 * the drawn ones are always the lowest-numbered. Positions with the same
 * normal form have the same value. */
static inline uint64_t g_normalize(const struct geometry *g, uint64_t x)
{
    /* Boxes with two border edges (the corners of a board two or more
     * wide), branch-free: the low edge is drawn if either is, the high
     * one if both are. */
    for (int i = 0; i < g->npairs; i++) {
        int a = g->pair_lo[i], b = g->pair_hi[i];
        uint64_t la = x >> a & 1, hb = x >> b & 1;
        x = (x & ~((uint64_t)1 << a | (uint64_t)1 << b)) | (la | hb) << a | (la & hb) << b;
    }
    for (int i = g->npairs; i < g->nmulti; i++) {
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

/* The table: eight 8-byte entries to a 64-byte bucket. An entry packs
 *   bits  0-4   log2 of the nodes its search took (the replacement priority)
 *   bits  5-10  best move, in the canonical frame (a hint only)
 *   bits 11-16  lower bound, as (lo + rem) / 2 (values share rem's parity)
 *   bits 17-22  upper bound, as (hi + rem) / 2 + 1 (so 0 means empty)
 *   bits 23-63  the key's tag.
 * The key (the canonical edge set, nedges bits) goes through a bijection
 * of nedges bits; its low bits pick the bucket and the rest are the tag,
 * so a tag match is a key match whenever nedges <= 41 + log2(buckets)
 * (every board up to 4x5 with any table, 5x5 with 32 MiB or more). */
#define TT_WAYS 8
#define TT_TAG_SHIFT 23
#define TT_TAG_BITS 41

/* A probe's answer, decoded. */
struct tt_hit {
    int lo, hi, move; /* move: canonical frame */
};

/* A capturable structure where declining may pay: take = the capture,
 * decline = the double-dealing move. */
struct decision {
    int take, decline;
};

struct bs_dots_solver {
    bs_dots_solve_config cfg;
    uint64_t *tt;
    size_t tt_buckets; /* a power of two */
    int tt_bucket_bits;
    uint64_t key_mask; /* the low nedges bits */
    int key_shift;     /* about half of nedges, for the key's bijection */
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
/* Whether `key` (a position with rem boxes left) is in the table. */
int tt_probe(const bs_dots_solver *s, uint64_t key, int rem, struct tt_hit *hit);
/* Start loading the bucket of `key` into the cache. */
void tt_prefetch(const bs_dots_solver *s, uint64_t key);
void tt_store(bs_dots_solver *s, uint64_t key, int rem, int lo, int hi, int move,
              uint64_t work);
void tt_clear(bs_dots_solver *s);

/* Moves worth trying in a position with no capturable box, best first. */
int gen_moves(const bs_dots_solver *s, uint64_t edges, const int8_t *sides, unsigned stab,
              int *moves);
/* The exact value when every box left has two sides (a loony endgame of
 * chains and loops), from the chain lengths alone: 1 with *value, or 0 when
 * the position is not one (or has too many components). */
int loony_value(const bs_dots_solver *s, uint64_t edges, const int8_t *sides, int *value);

#endif
