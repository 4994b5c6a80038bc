/* dgame_ntuple.c - the n-tuple evaluation of described games and its fit (dgame_ntuple.h). */
#include "dgame_ntuple.h"
#include "dgame_impl.h"
#include "dgame_search.h"
#include "dgame_search_impl.h"
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "BSNT"
#define VERSION 5u
/* version, rows, cols, kinds, length, squares, phases, hand_scale, sides, link, symmetry, share, count
 * (version 4: no share, read as DG_NT_SHARE_POSITION; version 3: no symmetry either, read as the identity alone; version 2:
 * no link either, read as the identity; version 1: no sides either, read as 1) */
#define HEADER_WORDS 13
#define HEADER_WORDS_V1 9

struct dg_ntuple {
    dg_ntuple_shape shape;
    int base, ninst, ncells, horizon;
    int nwin;           /* the windows and squares */
    int nown;           /* instances 0..nown - 1 read tables of their own (shared under the symmetry), the
                           rest the tables shared by their shape (their cells in its order): nown is nwin
                           (DG_NT_SHARE_POSITION, DG_NT_SHARE_BOTH) or 0 (DG_NT_SHARE_SHAPE) */
    int *cells;         /* ninst x size: the instance's cells (size cells each, unused -1) */
    int *size;          /* cells per instance */
    uint32_t *offset;   /* ninst: where its table starts within a phase */
    /* The maps of the symmetry that send an instance onto its own cells, as
     * where each digit goes (digit j to place perm[j]): its entry is the least
     * of its index so permuted, so its images read one entry (a row's mirror
     * reads the row backwards). nperm[i] of them (at most 7) for instance i. */
    uint8_t *nperm;
    uint8_t (*perm)[7][DG_NT_MAX_LENGTH];
    size_t tables;      /* the tables' weights per phase */
    size_t per_phase;   /* tables + 1 + kinds + 1: one block of weights (a phase, or a phase and side) */
    unsigned char view_of[2][256]; /* a cell's code as side 1 or 2 sees it: 0 empty, 1 block, 2 + 2k (+1: enemy's) */
    float *w;
};

static size_t power(int base, int exp)
{
    size_t p = 1;
    for (int i = 0; i < exp; i++)
        p *= (size_t)base;
    return p;
}

/* The instances of a shape: line windows along e, s, se, sw, then squares.
 * Counts them when cells is NULL. */
static int make_instances(const dg_ntuple_shape *sh, int *cells, int *size)
{
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int n = 0, L = sh->length;
    for (int a = 0; a < 4; a++) {
        int dr = dirs[a][0], dc = dirs[a][1];
        if (L == 1 && a > 0)
            break; /* single cells: once */
        for (int r = 0; r < sh->rows; r++)
            for (int c = 0; c < sh->cols; c++) {
                int er = r + dr * (L - 1), ec = c + dc * (L - 1);
                if (er < 0 || er >= sh->rows || ec < 0 || ec >= sh->cols)
                    continue;
                if (cells) {
                    for (int j = 0; j < DG_NT_MAX_LENGTH; j++)
                        cells[n * DG_NT_MAX_LENGTH + j] = j < L ? (r + dr * j) * sh->cols + c + dc * j : -1;
                    size[n] = L;
                }
                n++;
            }
    }
    if (sh->squares)
        for (int r = 0; r + 1 < sh->rows; r++)
            for (int c = 0; c + 1 < sh->cols; c++) {
                if (cells) {
                    int *p = &cells[n * DG_NT_MAX_LENGTH];
                    p[0] = r * sh->cols + c;
                    p[1] = p[0] + 1;
                    p[2] = p[0] + sh->cols;
                    p[3] = p[2] + 1;
                    p[4] = p[5] = -1;
                    size[n] = 4;
                }
                n++;
            }
    return n;
}

int dg_ntuple_default_length(int rows, int cols, int kinds)
{
    int longest = rows > cols ? rows : cols, base = 2 * kinds + 2;
    int L = longest < 4 ? longest : 4;
    while (L > 2 && (power(base, L) > 65536 || (size_t)4 * (size_t)(rows * cols) * power(base, L) > ((size_t)1 << 22)))
        L--;
    return L < 1 ? 1 : L;
}

/* Where map `which` (enum bs_sym_map) sends cell index `cell` of a rows x cols board. */
static int map_cell(int which, int rows, int cols, int cell)
{
    int r, c;
    bs_sym_apply(rows, cols, which, cell / cols, cell % cols, &r, &c);
    return r * cols + c;
}

static unsigned group_of(const dg_ntuple_shape *sh)
{
    return sh->symmetry ? sh->symmetry : 1u;
}

/* Whether instances i and k hold the same cells (in any order). */
static int same_cells(const int *a, const int *b, int size)
{
    for (int j = 0; j < size; j++) {
        int found = 0;
        for (int m = 0; m < size && !found; m++)
            found = a[j] == b[m];
        if (!found)
            return 0;
    }
    return 1;
}

/* Whether the cells `image` (in order), moved by one translation, are the
 * cells `cells` of an instance (in any order): p[j] is then where image
 * cell j's counterpart stands in `cells`. With `fixed`, only the
 * translation by nothing. A translation moves the least cell index onto
 * the least. */
static int match_cells(const dg_ntuple_shape *sh, const int *image, const int *cells, int size, int fixed, uint8_t *p)
{
    int lo_image = image[0], lo_cells = cells[0];
    for (int j = 1; j < size; j++) {
        lo_image = image[j] < lo_image ? image[j] : lo_image;
        lo_cells = cells[j] < lo_cells ? cells[j] : lo_cells;
    }
    int dr = fixed ? 0 : lo_cells / sh->cols - lo_image / sh->cols;
    int dc = fixed ? 0 : lo_cells % sh->cols - lo_image % sh->cols;
    for (int j = 0; j < size; j++) {
        int r = image[j] / sh->cols + dr, c = image[j] % sh->cols + dc, m = 0;
        if (r < 0 || r >= sh->rows || c < 0 || c >= sh->cols)
            return 0;
        while (m < size && cells[m] != r * sh->cols + c)
            m++;
        if (m == size)
            return 0;
        p[j] = (uint8_t)m;
    }
    return 1;
}

/* The digit permutations of the maps that send each instance onto its own
 * cells (see struct dg_ntuple), identities and repeats left out; for an
 * instance reading a table shared by translation, onto its own cells
 * moved by a translation. */
static void self_maps(dg_ntuple *nt)
{
    const dg_ntuple_shape *sh = &nt->shape;
    unsigned group = group_of(sh);
    for (int i = 0; i < nt->ninst; i++) {
        const int *cells = &nt->cells[i * DG_NT_MAX_LENGTH];
        int size = nt->size[i];
        nt->nperm[i] = 0;
        for (int which = 1; which < 8; which++) {
            if (!(group >> which & 1u))
                continue;
            uint8_t p[DG_NT_MAX_LENGTH];
            int image[DG_NT_MAX_LENGTH] = {0}, moved = 0;
            for (int j = 0; j < size; j++)
                image[j] = map_cell(which, sh->rows, sh->cols, cells[j]);
            int onto = match_cells(sh, image, cells, size, i < nt->nown, p);
            for (int j = 0; j < size && onto; j++)
                moved |= p[j] != j;
            if (!onto || !moved)
                continue;
            int seen = 0;
            for (int q = 0; q < nt->nperm[i] && !seen; q++)
                seen = memcmp(nt->perm[i][q], p, (size_t)size) == 0;
            if (!seen)
                memcpy(nt->perm[i][nt->nperm[i]++], p, (size_t)size);
        }
    }
}

/* The tables: each instance not yet placed starts one, and its images
 * under the group's maps that are instances too share it, their cells put
 * in the order the map sends the first's (so one entry means one pattern).
 * Returns the weights of the tables of a phase. */
static size_t share_tables(dg_ntuple *nt)
{
    const dg_ntuple_shape *sh = &nt->shape;
    unsigned group = group_of(sh);
    size_t at = 0;
    for (int i = 0; i < nt->nown; i++)
        nt->offset[i] = UINT32_MAX;
    for (int i = 0; i < nt->nown; i++) {
        if (nt->offset[i] != UINT32_MAX)
            continue;
        nt->offset[i] = (uint32_t)at;
        const int *cells = &nt->cells[i * DG_NT_MAX_LENGTH];
        for (int which = 1; which < 8; which++) {
            if (!(group >> which & 1u))
                continue;
            int image[DG_NT_MAX_LENGTH];
            for (int j = 0; j < nt->size[i]; j++)
                image[j] = map_cell(which, sh->rows, sh->cols, cells[j]);
            for (int k = i + 1; k < nt->nown; k++) {
                int *other = &nt->cells[k * DG_NT_MAX_LENGTH];
                if (nt->offset[k] != UINT32_MAX || nt->size[k] != nt->size[i] || !same_cells(other, image, nt->size[i]))
                    continue;
                memcpy(other, image, sizeof(int) * (size_t)nt->size[i]);
                nt->offset[k] = (uint32_t)at;
                break;
            }
        }
        at += power(nt->base, nt->size[i]);
    }
    return at;
}

/* The tables shared by shape (DG_NT_SHARE_SHAPE, DG_NT_SHARE_BOTH), from `at` on: each of instances
 * nown.. joins the first earlier one that a map of the group, moved by a translation, sends onto its
 * cells (reading them in the order the map sends the other's) or starts a table. Only the instances
 * that started a table are compared with: a board has a handful of shapes, so this is linear in the
 * windows. Returns where the tables end. */
static size_t share_by_translation(dg_ntuple *nt, size_t at)
{
    const dg_ntuple_shape *sh = &nt->shape;
    unsigned group = group_of(sh);
    int firsts[8], nfirst = 0; /* at most 4 line directions and the squares */
    for (int k = nt->nown; k < nt->ninst; k++) {
        int *other = &nt->cells[k * DG_NT_MAX_LENGTH], size = nt->size[k], joined = 0;
        for (int f = 0; f < nfirst && !joined; f++) {
            int i = firsts[f];
            const int *cells = &nt->cells[i * DG_NT_MAX_LENGTH];
            for (int which = 0; which < 8 && !joined && nt->size[i] == size; which++) {
                int image[DG_NT_MAX_LENGTH] = {0}, ordered[DG_NT_MAX_LENGTH];
                uint8_t p[DG_NT_MAX_LENGTH];
                if (!(group >> which & 1u))
                    continue;
                for (int j = 0; j < size; j++)
                    image[j] = map_cell(which, sh->rows, sh->cols, cells[j]);
                if (!match_cells(sh, image, other, size, 0, p))
                    continue;
                for (int j = 0; j < size; j++)
                    ordered[j] = other[p[j]];
                memcpy(other, ordered, sizeof(int) * (size_t)size);
                nt->offset[k] = nt->offset[i];
                joined = 1;
            }
        }
        if (!joined) {
            firsts[nfirst++] = k;
            nt->offset[k] = (uint32_t)at;
            at += power(nt->base, size);
        }
    }
    return at;
}

static int shape_ok(const dg_ntuple_shape *sh)
{
    unsigned group = group_of(sh);
    if (group > 0xffu || !(group & 1u) || bs_sym_closure(group) != group || ((group & 0xaau) && sh->rows != sh->cols))
        return 0;
    return sh->rows >= 1 && sh->rows <= DG_MAX_SIDE && sh->cols >= 1 && sh->cols <= DG_MAX_SIDE && sh->kinds >= 1 &&
           sh->kinds <= DG_MAX_KINDS && sh->length >= 1 && sh->length <= DG_NT_MAX_LENGTH && sh->phases >= 1 &&
           sh->phases <= DG_NT_MAX_PHASES && (sh->squares == 0 || sh->squares == 1) && sh->hand_scale >= 1 &&
           sh->hand_scale <= 1000000 && (sh->sides == 1 || sh->sides == 2) &&
           (sh->link == DG_NT_LINK_IDENTITY || sh->link == DG_NT_LINK_TANH) &&
           sh->share >= DG_NT_SHARE_POSITION && sh->share <= DG_NT_SHARE_SHAPE;
}

int dg_ntuple_new(dg_ntuple **out, const dg_ntuple_shape *shape)
{
    if (!out || !shape)
        return BS_EINVAL;
    *out = NULL;
    if (!shape_ok(shape))
        return BS_EINVAL;
    int base = 2 * shape->kinds + 2;
    /* a table of at most 65536 entries: the trainer keeps 16-bit indices */
    int squares_ok = !shape->squares || power(base, 4) <= ((size_t)1 << 16);
    if (!squares_ok || power(base, shape->length) > ((size_t)1 << 16))
        return BS_EINVAL;
    int nwin = make_instances(shape, NULL, NULL);
    if (nwin == 0)
        return BS_EINVAL;
    int ninst = shape->share == DG_NT_SHARE_BOTH ? 2 * nwin : nwin;
    dg_ntuple *nt = calloc(1, sizeof *nt);
    if (!nt)
        return BS_ENOMEM;
    nt->shape = *shape;
    nt->base = base;
    nt->ninst = ninst;
    nt->nwin = nwin;
    nt->nown = shape->share == DG_NT_SHARE_SHAPE ? 0 : nwin;
    nt->ncells = shape->rows * shape->cols;
    nt->horizon = nt->ncells;
    nt->cells = malloc(sizeof(int) * DG_NT_MAX_LENGTH * (size_t)ninst);
    nt->size = malloc(sizeof(int) * (size_t)ninst);
    nt->offset = malloc(sizeof(uint32_t) * (size_t)ninst);
    nt->nperm = malloc((size_t)ninst);
    nt->perm = malloc(sizeof *nt->perm * (size_t)ninst);
    if (!nt->cells || !nt->size || !nt->offset || !nt->nperm || !nt->perm) {
        dg_ntuple_free(nt);
        return BS_ENOMEM;
    }
    make_instances(shape, nt->cells, nt->size);
    if (ninst > nwin) {
        memcpy(nt->cells + (size_t)nwin * DG_NT_MAX_LENGTH, nt->cells, sizeof(int) * DG_NT_MAX_LENGTH * (size_t)nwin);
        memcpy(nt->size + nwin, nt->size, sizeof(int) * (size_t)nwin);
    }
    for (int me = 1; me <= 2; me++)
        for (unsigned code = 0; code < 256; code++) {
            unsigned char x = 1; /* a block, and any code no game makes */
            if (code == 0) {
                x = 0;
            } else if (code != DG_BLOCK) {
                int kind0 = (int)dg_kind_of(code);
                if (kind0 >= shape->kinds)
                    kind0 = shape->kinds - 1;
                x = (unsigned char)(2 + 2 * kind0 + (dg_side_of(code) != me));
            }
            nt->view_of[me - 1][code] = x;
        }
    size_t at = share_by_translation(nt, share_tables(nt));
    self_maps(nt);
    nt->tables = at;
    nt->per_phase = at + 1 + (size_t)shape->kinds + 1;
    if (dg_ntuple_weight_count(nt) > DG_NT_MAX_WEIGHTS) {
        dg_ntuple_free(nt);
        return BS_EINVAL;
    }
    nt->w = calloc(dg_ntuple_weight_count(nt), sizeof(float));
    if (!nt->w) {
        dg_ntuple_free(nt);
        return BS_ENOMEM;
    }
    *out = nt;
    return BS_OK;
}

void dg_ntuple_free(dg_ntuple *nt)
{
    if (!nt)
        return;
    free(nt->cells);
    free(nt->size);
    free(nt->offset);
    free(nt->nperm);
    free(nt->perm);
    free(nt->w);
    free(nt);
}

const dg_ntuple_shape *dg_ntuple_shape_of(const dg_ntuple *nt)
{
    return &nt->shape;
}

int dg_ntuple_tables(const dg_ntuple *nt)
{
    int count = 0;
    for (int i = 0; i < nt->ninst; i++) {
        int first = 1;
        for (int k = 0; k < i && first; k++)
            first = nt->offset[k] != nt->offset[i];
        count += first;
    }
    return count;
}

int dg_ntuple_instances(const dg_ntuple *nt)
{
    return nt->nwin;
}

size_t dg_ntuple_weight_count(const dg_ntuple *nt)
{
    return nt->per_phase * (size_t)nt->shape.phases * (size_t)nt->shape.sides;
}

float *dg_ntuple_weights(dg_ntuple *nt)
{
    return nt->w;
}

size_t dg_ntuple_nonzero(const dg_ntuple *nt)
{
    size_t n = 0, count = dg_ntuple_weight_count(nt);
    for (size_t i = 0; i < count; i++)
        n += nt->w[i] != 0.0f;
    return n;
}

int dg_ntuple_fits(const dg_ntuple *nt, const dg_desc *d)
{
    const dg_spec *sp = dg_desc_spec(d);
    return sp->rows == nt->shape.rows && sp->cols == nt->shape.cols && sp->nkinds == nt->shape.kinds;
}

int dg_ntuple_phase(const dg_ntuple *nt, const dg_state *s)
{
    int p = (int)((long)dg_ply(s) * nt->shape.phases / nt->horizon);
    return p < 0 ? 0 : p >= nt->shape.phases ? nt->shape.phases - 1 : p;
}

/* Where the block of weights that values s starts. */
static size_t block_of(const dg_ntuple *nt, const dg_state *s)
{
    size_t block = (size_t)dg_ntuple_phase(nt, s) * (size_t)nt->shape.sides;
    if (nt->shape.sides == 2)
        block += (size_t)(s->player - 1);
    return block * nt->per_phase;
}

/* The cells as the side to move sees them; material differences per kind. */
static void view(const dg_ntuple *nt, const dg_state *s, unsigned char *v, int *material)
{
    const unsigned char *of = nt->view_of[s->player - 1];
    for (int k = 0; k < nt->shape.kinds; k++)
        material[k] = 0;
    for (int i = 0; i < nt->ncells; i++) {
        unsigned char x = of[s->cell[i]];
        v[i] = x;
        if (x >= 2)
            material[(x - 2) >> 1] += (x & 1) ? -1 : 1;
    }
}

/* The entry of instance `inst` within its table. */
static uint32_t local_index(const dg_ntuple *nt, const unsigned char *v, int inst)
{
    const int *c = &nt->cells[inst * DG_NT_MAX_LENGTH];
    uint32_t idx = 0;
    for (int j = nt->size[inst] - 1; j >= 0; j--)
        idx = idx * (uint32_t)nt->base + v[c[j]];
    for (int q = 0; q < nt->nperm[inst]; q++) { /* the least of its images under the maps onto itself */
        uint32_t place[DG_NT_MAX_LENGTH], other = 0;
        for (int j = 0, p = 1; j < nt->size[inst]; j++, p *= nt->base)
            place[j] = (uint32_t)p;
        for (int j = 0; j < nt->size[inst]; j++)
            other += v[c[j]] * place[nt->perm[inst][q][j]];
        if (other < idx)
            idx = other;
    }
    return idx;
}

/* Where instance `inst` reads its weight: its entry as it stands, unturned (expand keeps every entry
 * equal to the least of its images). */
static uint32_t index_of(const dg_ntuple *nt, const unsigned char *v, int inst)
{
    const int *c = &nt->cells[inst * DG_NT_MAX_LENGTH];
    uint32_t idx = 0;
    for (int j = nt->size[inst] - 1; j >= 0; j--)
        idx = idx * (uint32_t)nt->base + v[c[j]];
    return nt->offset[inst] + idx;
}

/* Every entry of a table whose instances map onto themselves takes the
 * weight of the least of its images (the entry the trainer fits), in every
 * block: the evaluation then reads an entry as it stands (index_of), with
 * the value local_index would give (expand: after a fit and a load). With
 * x instead of w, those entries are set to 0 (the fit's start: a weight no
 * position reads is not pulled on). */
static void spread(const dg_ntuple *nt, float *w, double *x)
{
    size_t blocks = (size_t)nt->shape.phases * (size_t)nt->shape.sides;
    uint32_t next = 0; /* tables start in the order of their first instance: one with a new start is a first */
    for (int i = 0; i < nt->ninst; i++) {
        int size = nt->size[i];
        int first = nt->offset[i] >= next;
        if (first)
            next = nt->offset[i] + (uint32_t)power(nt->base, size);
        if (!first || !nt->nperm[i]) /* the instances that share a table map onto themselves alike */
            continue;
        uint32_t entries = (uint32_t)power(nt->base, size), place[DG_NT_MAX_LENGTH];
        for (int j = 0, p = 1; j < size; j++, p *= nt->base)
            place[j] = (uint32_t)p;
        for (uint32_t idx = 0; idx < entries; idx++) {
            uint32_t least = idx;
            for (int q = 0; q < nt->nperm[i]; q++) {
                uint32_t other = 0;
                for (int j = 0; j < size; j++)
                    other += idx / place[j] % (uint32_t)nt->base * place[nt->perm[i][q][j]];
                least = other < least ? other : least;
            }
            for (size_t b = 0; least != idx && b < blocks; b++) {
                size_t at = b * nt->per_phase + nt->offset[i];
                if (w)
                    w[at + idx] = w[at + least];
                else
                    x[at + idx] = 0;
            }
        }
    }
}

static void expand(dg_ntuple *nt)
{
    spread(nt, nt->w, NULL);
}

double dg_ntuple_hand_feature(const dg_ntuple *nt, int hand)
{
    double h = hand;
    if (nt->shape.link == DG_NT_LINK_TANH)
        return h / nt->shape.hand_scale;
    return h / ((h < 0 ? -h : h) + nt->shape.hand_scale);
}

/* e^x for |x| <= 40 (the core links no maths library): 2^k e^r, |r| <= ln 2 / 2, by its series. */
static double exp_of(double x)
{
    x = x > 40 ? 40 : x < -40 ? -40 : x;
    const double ln2 = 0.69314718055994530942;
    int k = (int)(x / ln2 + (x < 0 ? -0.5 : 0.5));
    double r = x - k * ln2, term = 1, sum = 1;
    for (int i = 1; i < 18; i++) {
        term *= r / i;
        sum += term;
    }
    for (; k > 0; k--)
        sum *= 2;
    for (; k < 0; k++)
        sum /= 2;
    return sum;
}

double dg_ntuple_tanh(double z)
{
    if (z > 20)
        return 1;
    if (z < -20)
        return -1;
    double e = exp_of(2 * z);
    return (e - 1) / (e + 1);
}

double dg_ntuple_value_hand(const dg_ntuple *nt, const dg_state *s, int hand)
{
    unsigned char v[DG_MAX_CELLS];
    int material[DG_MAX_KINDS];
    view(nt, s, v, material);
    const float *w = nt->w + block_of(nt, s);
    double sum = w[nt->tables] + w[nt->per_phase - 1] * dg_ntuple_hand_feature(nt, hand);
    for (int k = 0; k < nt->shape.kinds; k++)
        sum += (double)w[nt->tables + 1 + (size_t)k] * material[k];
    for (int i = 0; i < nt->ninst; i++)
        sum += w[index_of(nt, v, i)];
    return sum;
}

/* ---- the file ---- */

static uint32_t fnv1a(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static void put32(unsigned char *p, uint32_t x)
{
    p[0] = (unsigned char)x;
    p[1] = (unsigned char)(x >> 8);
    p[2] = (unsigned char)(x >> 16);
    p[3] = (unsigned char)(x >> 24);
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

size_t dg_ntuple_saved_size(const dg_ntuple *nt)
{
    return 4 + 4 * HEADER_WORDS + 4 * dg_ntuple_weight_count(nt) + 4;
}

void dg_ntuple_save(const dg_ntuple *nt, unsigned char *b)
{
    size_t count = dg_ntuple_weight_count(nt);
    size_t n = dg_ntuple_saved_size(nt);
    memcpy(b, MAGIC, 4);
    uint32_t head[HEADER_WORDS] = {VERSION,
                                   (uint32_t)nt->shape.rows,
                                   (uint32_t)nt->shape.cols,
                                   (uint32_t)nt->shape.kinds,
                                   (uint32_t)nt->shape.length,
                                   (uint32_t)nt->shape.squares,
                                   (uint32_t)nt->shape.phases,
                                   (uint32_t)nt->shape.hand_scale,
                                   (uint32_t)nt->shape.sides,
                                   (uint32_t)nt->shape.link,
                                   group_of(&nt->shape),
                                   (uint32_t)nt->shape.share,
                                   (uint32_t)count};
    for (int i = 0; i < HEADER_WORDS; i++)
        put32(b + 4 + 4 * i, head[i]);
    unsigned char *p = b + 4 + 4 * HEADER_WORDS;
    for (size_t i = 0; i < count; i++) {
        uint32_t bits;
        memcpy(&bits, &nt->w[i], 4);
        put32(p + 4 * i, bits);
    }
    put32(b + n - 4, fnv1a(b, n - 4));
}

static int refuse(char *why, size_t why_len, const char *text)
{
    if (why && why_len)
        snprintf(why, why_len, "%s", text);
    return BS_EINVAL;
}

int dg_ntuple_load(dg_ntuple **out, const unsigned char *bytes, size_t len, char *why, size_t why_len)
{
    if (!out)
        return BS_EINVAL;
    *out = NULL;
    if (!bytes || len < 4 + 4 * HEADER_WORDS_V1 + 4 || memcmp(bytes, MAGIC, 4) != 0)
        return refuse(why, why_len, "not an n-tuple evaluation");
    if (get32(bytes + len - 4) != fnv1a(bytes, len - 4))
        return refuse(why, why_len, "checksum mismatch (a damaged file)");
    uint32_t version = get32(bytes + 4);
    if (version < 1u || version > VERSION)
        return refuse(why, why_len, "an n-tuple evaluation of another version");
    int words = version == 1u   ? HEADER_WORDS_V1
                : version == 2u ? HEADER_WORDS - 3
                : version == 3u ? HEADER_WORDS - 2
                : version == 4u ? HEADER_WORDS - 1
                                : HEADER_WORDS;
    if (len < 4 + 4 * (size_t)words + 4)
        return refuse(why, why_len, "not an n-tuple evaluation");
    uint32_t head[HEADER_WORDS];
    for (int i = 0; i < words; i++)
        head[i] = get32(bytes + 4 + 4 * i);
    if (version == 1u) { /* before sides: one set of weights for both */
        head[9] = head[8];
        head[8] = 1;
    }
    if (version <= 2u) { /* before the link: least squares */
        head[10] = head[9];
        head[9] = DG_NT_LINK_IDENTITY;
    }
    if (version <= 3u) { /* before the symmetry: every instance a table of its own */
        head[11] = head[10];
        head[10] = 1u;
    }
    if (version <= 4u) { /* before share: every window its own table */
        head[12] = head[11];
        head[11] = 0u;
    }
    for (int i = 1; i < 7; i++)
        if (head[i] > 64)
            return refuse(why, why_len, "a bad shape");
    if (head[7] > 1000000 || head[8] > 2 || head[9] > 1 || head[10] > 0xffu || head[11] > 2)
        return refuse(why, why_len, "a bad shape");
    if (len != 4 + 4 * (size_t)words + 4 * (size_t)head[12] + 4) /* before building what the header asks for */
        return refuse(why, why_len, "the weights do not match the shape");
    dg_ntuple_shape sh = {(int)head[1], (int)head[2], (int)head[3], (int)head[4], (int)head[5], (int)head[6],
                          (int)head[7], (int)head[8], (int)head[9], head[10], (int)head[11]};
    dg_ntuple *nt;
    int st = dg_ntuple_new(&nt, &sh);
    if (st == BS_ENOMEM)
        return st;
    if (st != BS_OK)
        return refuse(why, why_len, "a bad shape");
    size_t count = dg_ntuple_weight_count(nt);
    if (head[12] != count || len != 4 + 4 * (size_t)words + 4 * count + 4) {
        dg_ntuple_free(nt);
        return refuse(why, why_len, "the weights do not match the shape");
    }
    const unsigned char *p = bytes + 4 + 4 * (size_t)words;
    for (size_t i = 0; i < count; i++) {
        uint32_t bits = get32(p + 4 * i);
        float f;
        memcpy(&f, &bits, 4);
        if (!(f == f) || f > 1e30f || f < -1e30f) {
            dg_ntuple_free(nt);
            return refuse(why, why_len, "a weight is not a finite number");
        }
        nt->w[i] = f;
    }
    expand(nt);
    *out = nt;
    return BS_OK;
}

/* ---- fitting ---- */

typedef struct sample {
    float target, hand;
    uint8_t holdout;
    int16_t material[DG_MAX_KINDS];
    uint32_t base; /* where its block of weights starts */
} sample;

struct dg_nt_trainer {
    const dg_ntuple *nt;
    size_t count, cap;
    sample *samples;
    uint16_t *idx; /* count x ninst, within each instance's table */
};

int dg_nt_trainer_new(dg_nt_trainer **out, const dg_ntuple *nt)
{
    if (!out || !nt)
        return BS_EINVAL;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return BS_ENOMEM;
    (*out)->nt = nt;
    return BS_OK;
}

void dg_nt_trainer_free(dg_nt_trainer *t)
{
    if (!t)
        return;
    free(t->samples);
    free(t->idx);
    free(t);
}

static void fill(dg_nt_trainer *t, size_t slot, const dg_state *s, int hand, double target, int holdout)
{
    const dg_ntuple *nt = t->nt;
    unsigned char v[DG_MAX_CELLS];
    int material[DG_MAX_KINDS];
    view(nt, s, v, material);
    sample *sm = &t->samples[slot];
    memset(sm, 0, sizeof *sm);
    sm->target = (float)target;
    sm->hand = (float)dg_ntuple_hand_feature(nt, hand);
    sm->holdout = holdout != 0;
    sm->base = (uint32_t)block_of(nt, s);
    for (int k = 0; k < nt->shape.kinds; k++)
        sm->material[k] = (int16_t)material[k];
    uint16_t *ix = &t->idx[slot * (size_t)nt->ninst];
    for (int i = 0; i < nt->ninst; i++)
        ix[i] = (uint16_t)local_index(nt, v, i);
}

int dg_nt_trainer_add(dg_nt_trainer *t, const dg_state *s, int hand, double target, int holdout)
{
    if (!t || !s || !(target >= -1e6 && target <= 1e6))
        return BS_EINVAL;
    const dg_ntuple *nt = t->nt;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        sample *ns = realloc(t->samples, cap * sizeof *ns);
        if (!ns)
            return BS_ENOMEM;
        t->samples = ns;
        uint16_t *ni = realloc(t->idx, cap * (size_t)nt->ninst * sizeof *ni);
        if (!ni)
            return BS_ENOMEM;
        t->idx = ni;
        t->cap = cap;
    }
    fill(t, t->count, s, hand, target, holdout);
    t->count++;
    return BS_OK;
}

int dg_nt_trainer_set(dg_nt_trainer *t, size_t slot, const dg_state *s, int hand, double target, int holdout)
{
    if (!t || !s || slot >= t->count || !(target >= -1e6 && target <= 1e6))
        return BS_EINVAL;
    fill(t, slot, s, hand, target, holdout);
    return BS_OK;
}

size_t dg_nt_trainer_size(const dg_nt_trainer *t)
{
    return t->count;
}

size_t dg_nt_trainer_count(const dg_nt_trainer *t, int holdout)
{
    size_t n = 0;
    for (size_t i = 0; i < t->count; i++)
        n += t->samples[i].holdout == (holdout != 0);
    return n;
}

/* x . (one sample's features) */
static double dot(const dg_nt_trainer *t, size_t i, const double *x)
{
    const dg_ntuple *nt = t->nt;
    const sample *sm = &t->samples[i];
    const double *w = x + sm->base;
    const uint16_t *ix = &t->idx[i * (size_t)nt->ninst];
    double sum = w[nt->tables] + w[nt->per_phase - 1] * sm->hand;
    for (int k = 0; k < nt->shape.kinds; k++)
        sum += w[nt->tables + 1 + (size_t)k] * sm->material[k];
    for (int j = 0; j < nt->ninst; j++)
        sum += w[nt->offset[j] + ix[j]];
    return sum;
}

/* g += r x (one sample's features) */
static void add_row(const dg_nt_trainer *t, size_t i, double r, double *g)
{
    const dg_ntuple *nt = t->nt;
    const sample *sm = &t->samples[i];
    double *w = g + sm->base;
    const uint16_t *ix = &t->idx[i * (size_t)nt->ninst];
    w[nt->tables] += r;
    w[nt->per_phase - 1] += r * sm->hand;
    for (int k = 0; k < nt->shape.kinds; k++)
        w[nt->tables + 1 + (size_t)k] += r * sm->material[k];
    for (int j = 0; j < nt->ninst; j++)
        w[nt->offset[j] + ix[j]] += r;
}

/* The ridge of weight j: the tables' entries are pulled to zero by
 * `ridge`, the scalars (bias, material, hand) by 1 only. */
static double ridge_of(const dg_ntuple *nt, size_t j, double ridge)
{
    return j % nt->per_phase < nt->tables ? ridge : (ridge < 1 ? ridge : 1);
}

/* q = (X'DX + ridge) p over the training samples (D: the samples' weights, NULL for 1) */
static void mul_a(const dg_nt_trainer *t, const float *wt, const double *p, double *q, size_t nw, double ridge)
{
    for (size_t j = 0; j < nw; j++)
        q[j] = ridge_of(t->nt, j, ridge) * p[j];
    for (size_t i = 0; i < t->count; i++)
        if (!t->samples[i].holdout)
            add_row(t, i, wt ? wt[i] * dot(t, i, p) : dot(t, i, p), q);
}

static double vdot(const double *a, const double *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

static double root_of(double x)
{
    if (!(x > 0))
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            break;
        r = next;
    }
    return r;
}

static void measure(const dg_nt_trainer *t, const double *x, dg_nt_fit_result *res)
{
    double se[2] = {0, 0};
    size_t n[2] = {0, 0};
    int logistic = t->nt->shape.link == DG_NT_LINK_TANH;
    for (size_t i = 0; i < t->count; i++) {
        double v = dot(t, i, x);
        double e = (logistic ? dg_ntuple_tanh(v) : v) - t->samples[i].target;
        int h = t->samples[i].holdout;
        se[h] += e * e;
        n[h]++;
    }
    res->train_rms = n[0] ? root_of(se[0] / (double)n[0]) : -1;
    res->holdout_rms = n[1] ? root_of(se[1] / (double)n[1]) : -1;
}

/* diag += D_i x (the squares of sample i's features) */
static void add_square(const dg_nt_trainer *t, size_t i, double weight, double *diag)
{
    const dg_ntuple *nt = t->nt;
    const sample *sm = &t->samples[i];
    double *d = diag + sm->base;
    d[nt->tables] += weight;
    d[nt->per_phase - 1] += weight * sm->hand * sm->hand;
    for (int k = 0; k < nt->shape.kinds; k++)
        d[nt->tables + 1 + (size_t)k] += weight * sm->material[k] * sm->material[k];
    const uint16_t *ix = &t->idx[i * (size_t)nt->ninst];
    for (int j = 0; j < nt->ninst; j++)
        d[nt->offset[j] + ix[j]] += weight;
}

/* Preconditioned conjugate gradient on (X'DX + ridge) x = b, from x, given r = b - A x and the
 * diagonal of A; work holds 3 nw doubles. The iterations done. */
static int solve(const dg_nt_trainer *t, const float *wt, double ridge, double *x, double *r, const double *diag,
                 int iterations, double *work, size_t nw)
{
    double *z = work, *p = work + nw, *q = work + 2 * nw;
    for (size_t j = 0; j < nw; j++) {
        z[j] = diag[j] > 0 ? r[j] / diag[j] : 0;
        p[j] = z[j];
    }
    double rz = vdot(r, z, nw);
    int it = 0;
    for (; it < iterations && rz > 1e-18; it++) {
        mul_a(t, wt, p, q, nw, ridge);
        double pq = vdot(p, q, nw);
        if (!(pq > 0))
            break;
        double alpha = rz / pq;
        for (size_t j = 0; j < nw; j++) {
            x[j] += alpha * p[j];
            r[j] -= alpha * q[j];
            z[j] = diag[j] > 0 ? r[j] / diag[j] : 0;
        }
        double rz2 = vdot(r, z, nw);
        double beta = rz2 / rz;
        rz = rz2;
        for (size_t j = 0; j < nw; j++)
            p[j] = z[j] + beta * p[j];
    }
    return it;
}

/* The least D_i of a Newton step: a saturated sample keeps some weight, so a step stays short. */
#define LOGISTIC_FLOOR 0.05
#define CG_PER_NEWTON 10

/* Newton steps on the cross-entropy of tanh(X x) against the targets: each solves
 * (X'DX + ridge) d = X'(y - tanh(X x)) - ridge x, D_i = 1 - tanh^2 (at least the floor). */
static int fit_logistic(dg_nt_trainer *t, double *x, double *r, double *diag, double *step, double *work, int iterations,
                        double ridge, size_t nw)
{
    float *wt = malloc(sizeof(float) * (t->count ? t->count : 1));
    if (!wt)
        return BS_ENOMEM;
    int steps = (iterations + CG_PER_NEWTON - 1) / CG_PER_NEWTON, done = 0;
    for (int k = 0; k < steps && done < iterations; k++) {
        for (size_t j = 0; j < nw; j++) {
            diag[j] = ridge_of(t->nt, j, ridge);
            r[j] = -diag[j] * x[j];
            step[j] = 0;
        }
        for (size_t i = 0; i < t->count; i++) {
            if (t->samples[i].holdout)
                continue;
            double th = dg_ntuple_tanh(dot(t, i, x));
            double d = 1 - th * th;
            wt[i] = (float)(d > LOGISTIC_FLOOR ? d : LOGISTIC_FLOOR);
            add_row(t, i, t->samples[i].target - th, r);
            add_square(t, i, wt[i], diag);
        }
        int left = iterations - done, per = left < CG_PER_NEWTON ? left : CG_PER_NEWTON;
        done += solve(t, wt, ridge, step, r, diag, per, work, nw);
        for (size_t j = 0; j < nw; j++)
            x[j] += step[j];
    }
    free(wt);
    return done;
}

int dg_nt_trainer_fit(dg_nt_trainer *t, dg_ntuple *nt, int iterations, double ridge, dg_nt_fit_result *res)
{
    if (!t || !nt || nt != t->nt || iterations < 0 || !(ridge >= 0) || !res)
        return BS_EINVAL;
    memset(res, 0, sizeof *res);
    size_t nw = dg_ntuple_weight_count(nt);
    double *mem = calloc(7 * nw, sizeof(double));
    if (!mem)
        return BS_ENOMEM;
    double *x = mem, *r = mem + nw, *diag = mem + 2 * nw, *step = mem + 3 * nw, *work = mem + 4 * nw;
    for (size_t j = 0; j < nw; j++)
        x[j] = nt->w[j];
    spread(nt, NULL, x);
    int it;
    if (nt->shape.link == DG_NT_LINK_TANH) {
        it = fit_logistic(t, x, r, diag, step, work, iterations, ridge, nw);
        if (it < 0) {
            free(mem);
            return it;
        }
    } else {
        /* r = X'y - A x; diag = the columns' squares + ridge */
        for (size_t j = 0; j < nw; j++)
            diag[j] = ridge_of(nt, j, ridge);
        for (size_t i = 0; i < t->count; i++) {
            if (t->samples[i].holdout)
                continue;
            add_row(t, i, t->samples[i].target, r);
            add_square(t, i, 1, diag);
        }
        mul_a(t, NULL, x, step, nw, ridge);
        for (size_t j = 0; j < nw; j++)
            r[j] -= step[j];
        it = solve(t, NULL, ridge, x, r, diag, iterations, work, nw);
    }
    for (size_t j = 0; j < nw; j++) {
        double v = x[j] > 1e6 ? 1e6 : x[j] < -1e6 ? -1e6 : x[j];
        nt->w[j] = (float)v;
    }
    expand(nt);
    for (size_t j = 0; j < nw; j++)
        x[j] = nt->w[j];
    measure(t, x, res);
    res->iterations = it;
    free(mem);
    return BS_OK;
}

/* ---- the leaf values of MCTS ---- */

double dg_ntuple_leaf(void *userdata, const dg_desc *d, const dg_state *s, int *failed)
{
    (void)d;
    int value;
    if (dg_search_static(userdata, s, &value, NULL) != BS_OK) {
        *failed = 1;
        return 0.5;
    }
    double z = (double)value / DG_NT_SEARCH_SCALE;
    const dg_searcher *sr = userdata;
    if (sr->learned && sr->learned->shape.link == DG_NT_LINK_TANH)
        z = dg_ntuple_tanh(z);
    double v = (z + 1) / 2;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}
