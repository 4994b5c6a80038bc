/* pattern_impl.h - the learned evaluation's insides, shared with the searcher (not part of the API). */
#ifndef BS_PATTERN_IMPL_H
#define BS_PATTERN_IMPL_H

#include "pattern.h"

#define BS_MODEL_MAX_SHAPES 64
#define BS_MODEL_MAX_INSTANCES 256
/* Bias and scalar weights stay within this (hundredths of a disc). */
#define BS_PAT_MAX_VALUE 10000000

typedef struct bs_pat_shape {
    int k, size;   /* cells, 3^cells */
    size_t offset; /* of its table in a phase's weights */
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
    unsigned features, mobility_dirs;
    int nshapes, ninst;
    bs_pat_shape shape[BS_MODEL_MAX_SHAPES];
    bs_pat_inst *inst;
    size_t per_phase; /* pattern weights in one phase */
    int16_t *w;       /* phases * per_phase, hundredths of a disc */
    int32_t *scalar;  /* phases * (1 + BS_MODEL_SCALARS): the bias, then each scalar's weight */
    uint32_t layout;
    /* the uses of cell r * n + c: use_list[use_start[q] .. + uses[q]] */
    uint32_t use_start[BS_MAX_N * BS_MAX_N];
    uint16_t uses[BS_MAX_N * BS_MAX_N];
    bs_pat_use *use_list;
};

void bs_pat_indices(const bs_model *m, const bs_board *b, int player, uint16_t *idx);
void bs_pat_scalars(const bs_model *m, const bs_board *b, int player, int x[BS_MODEL_SCALARS]);

static inline int bs_pat_phase(const bs_model *m, int discs)
{
    int p = discs * m->phases / (m->n * m->n + 1);
    return p < 0 ? 0 : p >= m->phases ? m->phases - 1 : p;
}

/* The value from the indices and scalars of a position in `phase`. */
static inline int bs_pat_value(const bs_model *m, int phase, const uint16_t *idx, const int *x)
{
    const int16_t *w = m->w + (size_t)phase * m->per_phase;
    const int32_t *sc = m->scalar + (size_t)phase * (1 + BS_MODEL_SCALARS);
    int v = sc[0];
    for (int j = 0; j < BS_MODEL_SCALARS; j++)
        v += sc[1 + j] * x[j];
    for (int i = 0; i < m->ninst; i++)
        v += w[m->shape[m->inst[i].shape].offset + idx[i]];
    return v > 999999 ? 999999 : v < -999999 ? -999999 : v;
}

#endif
