/* pattern_impl.h - the learned evaluation's insides, shared with the searcher (not part of the API). */
#ifndef BS_PATTERN_IMPL_H
#define BS_PATTERN_IMPL_H

#include "pattern.h"

#include <string.h>

#define BS_MODEL_MAX_SHAPES 256 /* tables: with no symmetry, one an instance */
#define BS_MODEL_MAX_INSTANCES 256
/* Bias and scalar weights stay within this (hundredths of a disc). */
#define BS_PAT_MAX_VALUE 10000000

typedef struct bs_pat_shape {
    int k, size;   /* cells, 3^cells */
    size_t offset; /* of its table in a phase's weights */
    /* The maps of the group that take the table's first instance onto its own
     * cells, as digit permutations (digit j of the image is digit perm[j] of
     * the instance): entries they relate are tied (one value), which makes the
     * value invariant under the group. The identity is left out. */
    int nperm;
    uint8_t perm[7][BS_MODEL_MAX_CELLS];
} bs_pat_shape;

typedef struct bs_pat_inst {
    int shape, k;
    uint8_t r[BS_MODEL_MAX_CELLS], c[BS_MODEL_MAX_CELLS]; /* digit j is worth 3^j */
} bs_pat_inst;

/* One use of a cell: instance `inst`, where the cell's digit is worth `power`. */
typedef struct bs_pat_use {
    uint16_t inst, power;
} bs_pat_use;

struct bs_model {
    int n, phases;
    int rows, cols;  /* the boards' shape: n = max(rows, cols) */
    unsigned group;  /* the maps sharing tables (bits of enum bs_sym_map) */
    unsigned features, mobility_dirs;
    int nshapes, ninst;
    bs_pat_shape shape[BS_MODEL_MAX_SHAPES];
    bs_pat_inst *inst;
    size_t per_phase; /* pattern weights in one phase */
    int16_t *w;       /* phases * per_phase, hundredths of a disc */
    int32_t *scalar;  /* phases * (1 + BS_MODEL_SCALARS): the bias, then each scalar's weight */
    uint32_t layout;
    uint32_t generation; /* changes with the weights (fits), unique among models: with the
                            address, it names the weights (a new model may reuse a freed address) */
    /* the uses of cell r * n + c: use_list[use_start[q] .. + uses[q]] */
    uint32_t use_start[BS_MAX_N * BS_MAX_N];
    uint16_t uses[BS_MAX_N * BS_MAX_N];
    bs_pat_use *use_list;
    /* Multi-ProbCut (bs_model_set_mpc): mpc NULL when it has none */
    int8_t mpc_shallow[BS_MPC_DEPTHS];
    bs_mpc_param *mpc; /* BS_MPC_DEPTHS * phases */
};

void bs_pat_indices(const bs_model *m, const bs_board *b, int player, uint16_t *idx);
/* The entry of shape s that stands for the entries tied to idx (the least). */
int bs_pat_canonical(const bs_model *m, int s, int idx);
/* Gives every entry its tied entries' value (the canonical one's). */
void bs_pat_tie(bs_model *m);
/* FNV-1a over `len` bytes, from `h` (the layout and file checksums). */
uint32_t bs_pat_fnv(uint32_t h, const void *data, size_t len);
/* A generation number no model has had yet (see struct bs_model). */
uint32_t bs_pat_new_generation(void);
/* The cells nothing can flip: on each axis a wall (edge or block) on one side. */
void bs_pat_anchored(const bs_board *b, uint32_t *rows);
void bs_pat_scalars(const bs_model *m, const bs_board *b, int player, int x[BS_MODEL_SCALARS]);

static inline int bs_pat_phase(const bs_model *m, int discs)
{
    int p = discs * m->phases / (m->rows * m->cols + 1);
    return p < 0 ? 0 : p >= m->phases ? m->phases - 1 : p;
}

/* The value from the indices and scalars of a position in `phase`. */
static inline int bs_pat_value(const bs_model *m, int phase, const uint16_t *idx, const int *x)
{
    const int16_t *w = m->w + (size_t)phase * m->per_phase;
    const int32_t *sc = m->scalar + (size_t)phase * (1 + BS_MODEL_SCALARS);
    int64_t v = sc[0]; /* scalars up to BS_PAT_MAX_VALUE times counts of up to 26 x 26 cells: past int */
    for (int j = 0; j < BS_MODEL_SCALARS; j++)
        v += (int64_t)sc[1 + j] * x[j];
    int patterns = 0; /* at most BS_MODEL_MAX_INSTANCES x 32767 */
    for (int i = 0; i < m->ninst; i++)
        patterns += w[m->shape[m->inst[i].shape].offset + idx[i]];
    v += patterns;
    return v > 999999 ? 999999 : v < -999999 ? -999999 : (int)v;
}

/* ---- the 8 x 8 word path: pattern indices kept up to date move by move ----
 * An array of a position's indices holds them twice, in vectors of 16:
 * lanes 0..47 with the digits absolute (black 1, white 2), lanes 48..95
 * with the colours swapped, which are the indices as white sees them. A
 * child's are the parent's plus a few vectors (bs_pat64_child), and both
 * sides read the model's one table. Models of up to BS_PAT64_LANES
 * instances: every model of a board of up to 8 x 8 cells has 46 or fewer. */
#define BS_PAT64_LANES 48

typedef struct bs_pat64 {
    const bs_model *m;
    uint32_t generation;
    uint64_t anchored; /* cells nothing can flip (the board's blocks fixed) */
    uint64_t blocks;
    uint32_t off[BS_PAT64_LANES]; /* each instance's table in a phase's weights */
    /* cell q's digit power in every instance (0 where it is not in one),
     * and the instances it is in, as bits */
    uint64_t touch[64];
    uint16_t feat[64][BS_PAT64_LANES];
} bs_pat64;

/* 16 indices; loaded and stored with memcpy (any alignment). */
typedef uint16_t bs_pat_vec __attribute__((vector_size(32)));

/* Prepares `p` for model `m` (of 8 x 8 and at most BS_PAT64_LANES
 * instances, else BS_EINVAL) and the blocks of an 8 x 8 board: BS_OK; p->m
 * is NULL after an error. Keeps its tables while the model and its
 * generation are the same. */
int bs_pat64_prepare(bs_pat64 *p, const bs_model *m, uint64_t blocks);
void bs_pat64_release(bs_pat64 *p);
/* The indices of a position: an array of 2 x BS_PAT64_LANES. */
void bs_pat64_indices(const bs_pat64 *p, uint64_t black, uint64_t white, uint16_t *idx);

/* A child's indices `dst` (2 x BS_PAT64_LANES): the parent's `src` with a
 * disc of `color` (1 black, 2 white) placed at `sq` flipping `flips`.
 * Returns the instances that changed, as bits. */
static inline uint64_t bs_pat64_child(const bs_pat64 *p, uint16_t *dst, const uint16_t *src, int color, int sq,
                                      uint64_t flips)
{
    /* one vector at a time: a larger memcpy may be a call */
    bs_pat_vec f[3], d[3] = {{0}, {0}, {0}};
    for (int k = 0; k < 3; k++)
        memcpy(&f[k], p->feat[sq] + 16 * k, sizeof f[k]);
    uint64_t touched = p->touch[sq];
    while (flips) {
        int q = __builtin_ctzll(flips);
        flips &= flips - 1;
        for (int k = 0; k < 3; k++) {
            bs_pat_vec g;
            memcpy(&g, p->feat[q] + 16 * k, sizeof g);
            d[k] += g;
        }
        touched |= p->touch[q];
    }
    /* The placed disc is worth `color` x its power as it is, 3 - color
     * swapped; a flipped disc turns from the other colour: +power to white
     * (-power swapped), -power to black (+power swapped). */
    for (int k = 0; k < 3; k++) {
        bs_pat_vec two = f[k] + f[k] + d[k], one = f[k] - d[k], a, b;
        memcpy(&a, src + 16 * k, sizeof a);
        memcpy(&b, src + BS_PAT64_LANES + 16 * k, sizeof b);
        a += color == 2 ? two : one;
        b += color == 2 ? one : two;
        memcpy(dst + 16 * k, &a, sizeof a);
        memcpy(dst + BS_PAT64_LANES + 16 * k, &b, sizeof b);
    }
    return touched;
}

/* The cells next to a set of cells (8 directions), on the 8 x 8 word. */
static inline uint64_t bs_neighbours64(uint64_t x)
{
    uint64_t h = ((x << 1) & 0xfefefefefefefefeULL) | ((x >> 1) & 0x7f7f7f7f7f7f7f7fULL);
    uint64_t row = x | h;
    return h | (row << 8) | (row >> 8);
}

/* The weights of a phase. */
static inline const int16_t *bs_pat64_table(const bs_pat64 *p, int phase)
{
    return p->m->w + (size_t)phase * p->m->per_phase;
}

/* The mover's indices in an array of them (`white` nonzero when that is white). */
static inline const uint16_t *bs_pat64_side(const uint16_t *idx, int white)
{
    return white ? idx + BS_PAT64_LANES : idx;
}

/* The bias and the scalar features' terms of the value for the mover
 * (discs P) in `phase`; moves_p/moves_o the two sides' legal moves. */
static inline int64_t bs_pat64_scalars(const bs_pat64 *p, int phase, uint64_t P, uint64_t O, uint64_t moves_p,
                                       uint64_t moves_o)
{
    const bs_model *m = p->m;
    const int32_t *sc = m->scalar + (size_t)phase * (1 + BS_MODEL_SCALARS);
    uint64_t E = ~(P | O | p->blocks);
    int64_t v = sc[0]; /* as in bs_pat_value: the scalars' terms may pass int */
    if (m->features & BS_FEAT_MOBILITY)
        v += (int64_t)sc[1] * (__builtin_popcountll(moves_p) - __builtin_popcountll(moves_o));
    if (m->features & BS_FEAT_POTENTIAL)
        v += (int64_t)sc[2] *
             (__builtin_popcountll(bs_neighbours64(O) & E) - __builtin_popcountll(bs_neighbours64(P) & E));
    if (m->features & BS_FEAT_PARITY)
        v += (int64_t)sc[3] * (__builtin_popcountll(E) & 1);
    if (m->features & BS_FEAT_ANCHORED)
        v += (int64_t)sc[4] * (__builtin_popcountll(p->anchored & P) - __builtin_popcountll(p->anchored & O));
    return v;
}

/* The patterns' sum: at most BS_MODEL_MAX_INSTANCES x 32767. */
static inline int bs_pat64_patterns(const bs_pat64 *p, const int16_t *w, const uint16_t *idx)
{
    int patterns = 0;
    for (int i = 0, n = p->m->ninst; i < n; i++)
        patterns += w[p->off[i] + idx[i]];
    return patterns;
}

static inline int bs_pat64_clamp(int64_t v)
{
    return v > 999999 ? 999999 : v < -999999 ? -999999 : (int)v;
}

/* The value for the mover (discs P; `white` nonzero when that is white),
 * from an array of indices; moves_p/moves_o the two sides' legal moves. */
static inline int bs_pat64_value(const bs_pat64 *p, const uint16_t *idx, uint64_t P, uint64_t O, int white,
                                 uint64_t moves_p, uint64_t moves_o)
{
    int phase = bs_pat_phase(p->m, __builtin_popcountll(P | O));
    int64_t v = bs_pat64_scalars(p, phase, P, O, moves_p, moves_o);
    return bs_pat64_clamp(v + bs_pat64_patterns(p, bs_pat64_table(p, phase), bs_pat64_side(idx, white)));
}

#endif
