/* pattern.c - the learned evaluation: patterns from the geometry, the evaluation and the 8 x 8 word path.
 * Files in memory: pattern_io.c; fitting: pattern_fit.c. */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "pattern_impl.h"

/* ---- symmetries ---- */

static const char *const SYM_NAMES[8] = {"identity", "transpose", "mirror",    "rotate90",
                                         "flip",     "rotate270", "rotate180", "antitranspose"};

void bs_sym_apply(int rows, int cols, int which, int r, int c, int *out_r, int *out_c)
{
    int a = r, b = c;
    if (which & 1) { /* transpose */
        int t = a;
        a = b;
        b = t;
    }
    if (which & 2)
        b = cols - 1 - b;
    if (which & 4)
        a = rows - 1 - a;
    *out_r = a;
    *out_c = b;
}

/* The map that is `a` after `b`: found by where they take a cell no map fixes. */
static int compose(int a, int b)
{
    int r, c;
    bs_sym_apply(5, 5, b, 0, 1, &r, &c);
    bs_sym_apply(5, 5, a, r, c, &r, &c);
    for (int x = 0; x < 8; x++) {
        int xr, xc;
        bs_sym_apply(5, 5, x, 0, 1, &xr, &xc);
        if (xr == r && xc == c)
            return x;
    }
    return 0; /* not reached: the 8 maps take (0, 1) to 8 different cells */
}

int bs_sym_parse(const char *name, size_t len)
{
    for (int i = 0; i < 8; i++)
        if (name && strlen(SYM_NAMES[i]) == len && memcmp(SYM_NAMES[i], name, len) == 0)
            return i;
    return -1;
}

const char *bs_sym_name(int which)
{
    return which >= 0 && which < 8 ? SYM_NAMES[which] : NULL;
}

unsigned bs_sym_closure(unsigned mask)
{
    mask = (mask & BS_SYM_SQUARE) | 1u;
    for (unsigned before = 0; before != mask;) {
        before = mask;
        for (int a = 0; a < 8; a++)
            for (int b = 0; b < 8; b++)
                if ((before >> a & 1u) && (before >> b & 1u))
                    mask |= 1u << compose(a, b);
    }
    return mask;
}

unsigned bs_sym_group(const char *name, size_t len, int rows, int cols)
{
    static const char *const GROUPS[] = {"none", "mirror", "flip", "rotate180", "square"};
    static const unsigned MASKS[] = {1u, 1u | 1u << BS_SYM_MIRROR, 1u | 1u << BS_SYM_FLIP,
                                     1u | 1u << BS_SYM_ROTATE180, 0};
    for (int i = 0; i < 5; i++)
        if (name && strlen(GROUPS[i]) == len && memcmp(GROUPS[i], name, len) == 0)
            return MASKS[i] ? MASKS[i] : rows == cols ? BS_SYM_SQUARE : BS_SYM_RECT;
    return 0;
}

/* Whether `group` is a group of maps of a rows x cols board. */
static bool group_fits(unsigned group, int rows, int cols)
{
    return (group & 1u) && group <= BS_SYM_SQUARE && bs_sym_closure(group) == group &&
           (rows == cols || (group & ~BS_SYM_RECT) == 0);
}

/* ---- the patterns of a board shape ---- */

static const int POW3[BS_MODEL_MAX_CELLS + 1] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049};

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

typedef struct gen {
    bs_model *m;
    int cap;
    int failed;
} gen;

/* The cells of an instance, sorted (to compare cell sets). */
static void sorted_cells(const bs_pat_inst *in, int out[BS_MODEL_MAX_CELLS])
{
    for (int i = 0; i < in->k; i++)
        out[i] = in->r[i] * BS_MAX_N + in->c[i];
    qsort(out, (size_t)in->k, sizeof out[0], cmp_int);
}

/* Adds a shape from its canonical cells (in the rows x cols frame). The
 * maps of the board fall into classes g's of the group (G g): the images by
 * one class share a table, each class its own. An image whose cells are an
 * instance's already (of this shape or an earlier one) is not added; one
 * whose cells are its table's first instance's ties that table's entries. */
static void add_shape(gen *g, const int cells[][2], int k)
{
    bs_model *m = g->m;
    if (g->failed || k < 2 || k > BS_MODEL_MAX_CELLS)
        return;
    unsigned all = m->rows == m->cols ? BS_SYM_SQUARE : BS_SYM_RECT, done = 0;
    for (int rep = 0; rep < 8; rep++) {
        if (!(all >> rep & 1u) || (done >> rep & 1u))
            continue;
        int added = 0, first = m->ninst;
        bs_pat_shape *sh = &m->shape[m->nshapes];
        if (m->nshapes >= BS_MODEL_MAX_SHAPES)
            return;
        sh->nperm = 0;
        for (int s = 0; s < 8; s++) {
            if (!(m->group >> s & 1u))
                continue;
            int map = compose(s, rep);
            done |= 1u << map;
            bs_pat_inst in;
            memset(&in, 0, sizeof in);
            in.shape = m->nshapes;
            in.k = k;
            bool ok = true;
            for (int i = 0; i < k && ok; i++) {
                int r, c;
                bs_sym_apply(m->rows, m->cols, map, cells[i][0], cells[i][1], &r, &c);
                ok = r >= 0 && c >= 0 && r < m->rows && c < m->cols;
                in.r[i] = (uint8_t)r;
                in.c[i] = (uint8_t)c;
            }
            if (!ok)
                continue;
            int sorted[BS_MODEL_MAX_CELLS];
            sorted_cells(&in, sorted);
            for (int i = 1; i < k; i++)
                if (sorted[i] == sorted[i - 1]) /* a shape that repeats a cell: a bug in the generator */
                    ok = false;
            if (!ok)
                continue;
            int dup = -1;
            for (int j = 0; j < m->ninst && dup < 0; j++) {
                const bs_pat_inst *o = &m->inst[j];
                if (o->k != k)
                    continue;
                int other[BS_MODEL_MAX_CELLS];
                sorted_cells(o, other);
                if (memcmp(other, sorted, sizeof(int) * (size_t)k) == 0)
                    dup = j;
            }
            if (dup >= 0) {
                if (dup == first && added && sh->nperm < 7) { /* the same cells in another order: tied */
                    const bs_pat_inst *o = &m->inst[first];
                    for (int i = 0; i < k; i++)
                        for (int j = 0; j < k; j++)
                            if (o->r[j] == in.r[i] && o->c[j] == in.c[i])
                                sh->perm[sh->nperm][i] = (uint8_t)j;
                    sh->nperm++;
                }
                continue;
            }
            if (m->ninst >= BS_MODEL_MAX_INSTANCES)
                continue;
            if (m->ninst == g->cap) {
                int cap = g->cap ? g->cap * 2 : 64;
                bs_pat_inst *more = realloc(m->inst, sizeof *more * (size_t)cap);
                if (!more) {
                    g->failed = 1;
                    return;
                }
                m->inst = more;
                g->cap = cap;
            }
            m->inst[m->ninst++] = in;
            added++;
        }
        if (added) {
            m->nshapes++;
            sh->k = k;
            sh->size = POW3[k];
            sh->offset = m->per_phase;
            m->per_phase += (size_t)sh->size;
        }
    }
}

uint32_t bs_pat_fnv(uint32_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

/* The shapes along one side of the board, `along` cells long with `across`
 * cells to the opposite side: the top row when !left, else the left column
 * (cells given as along the top, then transposed). A square's left shapes
 * are its top ones' images, so add nothing. */
static void side_shapes(gen *g, int along, int across, int shortest, bool left)
{
    int cells[BS_MODEL_MAX_CELLS][2], k;
#define CELL(r_, c_)                                                                                                   \
    do {                                                                                                               \
        cells[k][left] = (r_);                                                                                         \
        cells[k++][!left] = (c_);                                                                                      \
    } while (0)
    /* the edge with its X cells (the whole edge up to 8 cells) */
    bool edge2x = along >= 4;
    if (edge2x) {
        int len = along < 8 ? along : 8;
        k = 0;
        for (int c = 0; c < len; c++)
            CELL(0, c);
        CELL(1, 1);
        if (len == along)
            CELL(1, along - 2);
        add_shape(g, (const int(*)[2])cells, k);
    }
    /* corner regions: 3 x 3, and 2 x 5 */
    k = 0;
    for (int r = 0; r < 3 && r < across; r++)
        for (int c = 0; c < 3 && c < along; c++)
            CELL(r, c);
    add_shape(g, (const int(*)[2])cells, k);
    k = 0;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 5 && c < along; c++)
            CELL(r, c);
    add_shape(g, (const int(*)[2])cells, k);
    /* rows near the edge: whole, or segments */
    int len = along < BS_MODEL_MAX_CELLS ? along : BS_MODEL_MAX_CELLS;
    int deepest = (across - 1) / 2 < 3 ? (across - 1) / 2 : 3;
    for (int row = 0; row <= deepest; row++) {
        if (row == 0 && edge2x && along <= 8)
            continue; /* the edge pattern holds the whole edge */
        int starts[2] = {0, (along - len) / 2};
        for (int j = 0; j < 2; j++) {
            if (j == 1 && starts[1] == 0)
                break;
            k = 0;
            for (int c = 0; c < len; c++)
                CELL(row, starts[j] + c);
            add_shape(g, (const int(*)[2])cells, k);
        }
    }
    /* diagonals cutting a corner, 3 or 4 cells up to the main diagonal of the
     * corner's square (the shorter side) */
    int longest = shortest < BS_MODEL_MAX_CELLS ? shortest : BS_MODEL_MAX_CELLS;
    for (int d = shortest <= 6 ? 3 : 4; d <= longest; d++) {
        k = 0;
        for (int i = 0; i < d; i++)
            CELL(i, d - 1 - i);
        add_shape(g, (const int(*)[2])cells, k);
    }
#undef CELL
}

static int generate(bs_model *m)
{
    int n = m->n, rows = m->rows, cols = m->cols, shortest = rows < cols ? rows : cols;
    gen g = {m, 0, 0};
    side_shapes(&g, cols, rows, shortest, false);
    side_shapes(&g, rows, cols, shortest, true);
    if (g.failed)
        return BS_ENOMEM;
    uint32_t h = bs_pat_fnv(2166136261u, &m->n, sizeof m->n);
    if (rows != n || cols != n || m->group != BS_SYM_SQUARE) { /* a square "square" model's is as it was */
        unsigned char shape[3] = {(unsigned char)rows, (unsigned char)cols, (unsigned char)m->group};
        h = bs_pat_fnv(h, shape, sizeof shape);
    }
    for (int i = 0; i < m->ninst; i++) {
        const bs_pat_inst *in = &m->inst[i];
        unsigned char row[2 + 2 * BS_MODEL_MAX_CELLS];
        row[0] = (unsigned char)in->shape;
        row[1] = (unsigned char)in->k;
        for (int j = 0; j < in->k; j++) {
            row[2 + 2 * j] = in->r[j];
            row[3 + 2 * j] = in->c[j];
        }
        h = bs_pat_fnv(h, row, 2 + 2 * (size_t)in->k);
    }
    m->layout = h;
    /* the instances each cell is in, for incremental updates */
    for (int i = 0; i < m->ninst; i++)
        for (int j = 0; j < m->inst[i].k; j++)
            m->uses[m->inst[i].r[j] * m->n + m->inst[i].c[j]]++;
    size_t total = 0;
    for (int q = 0; q < n * n; q++)
        total += m->uses[q];
    m->use_list = calloc(total ? total : 1, sizeof *m->use_list);
    if (!m->use_list)
        return BS_ENOMEM;
    size_t at = 0;
    for (int q = 0; q < n * n; q++) {
        m->use_start[q] = (uint32_t)at;
        at += m->uses[q];
        m->uses[q] = 0;
    }
    for (int i = 0; i < m->ninst; i++)
        for (int j = 0; j < m->inst[i].k; j++) {
            int q = m->inst[i].r[j] * m->n + m->inst[i].c[j];
            bs_pat_use *u = &m->use_list[m->use_start[q] + m->uses[q]++];
            u->inst = (uint16_t)i;
            u->power = (uint16_t)POW3[j];
        }
    return BS_OK;
}

/* A generation number no model has had: a model's weights are known by its
 * address and generation (a searcher's table and word-path tables), and a
 * new model may get the address of a freed one. */
uint32_t bs_pat_new_generation(void)
{
    static uint32_t last;
    return __atomic_add_fetch(&last, 1u, __ATOMIC_RELAXED);
}

static int default_phases(int cells)
{
    int p = cells / 6;
    return p < 1 ? 1 : p > 12 ? 12 : p;
}

int bs_model_new(bs_model **out, int n, int phases, unsigned features, unsigned mobility_dirs)
{
    return bs_model_new_shape(out, n, n, BS_SYM_SQUARE, phases, features, mobility_dirs);
}

int bs_model_new_shape(bs_model **out, int rows, int cols, unsigned group, int phases, unsigned features,
                       unsigned mobility_dirs)
{
    if (!out)
        return BS_EINVAL;
    *out = NULL;
    if (rows < 3 || rows > BS_MAX_N || cols < 3 || cols > BS_MAX_N || !group_fits(group, rows, cols) ||
        phases < 0 || phases > BS_MODEL_MAX_PHASES || (features & ~BS_FEAT_ALL) || mobility_dirs > BS_DIRS_ALL)
        return BS_EINVAL;
    bs_model *m = calloc(1, sizeof *m);
    if (!m)
        return BS_ENOMEM;
    m->n = rows > cols ? rows : cols;
    m->rows = rows;
    m->cols = cols;
    m->group = group;
    m->phases = phases ? phases : default_phases(rows * cols);
    m->features = features;
    m->mobility_dirs = mobility_dirs;
    m->generation = bs_pat_new_generation();
    int st = generate(m);
    if (st == BS_OK) {
        m->w = calloc((size_t)m->phases * m->per_phase, sizeof *m->w);
        m->scalar = calloc((size_t)m->phases * (1 + BS_MODEL_SCALARS), sizeof *m->scalar);
        if (!m->w || !m->scalar)
            st = BS_ENOMEM;
    }
    if (st != BS_OK) {
        bs_model_free(m);
        return st;
    }
    *out = m;
    return BS_OK;
}

void bs_model_free(bs_model *m)
{
    if (!m)
        return;
    free(m->inst);
    free(m->use_list);
    free(m->w);
    free(m->scalar);
    free(m->mpc);
    free(m);
}

int bs_model_copy(bs_model **out, const bs_model *m)
{
    if (!out || !m)
        return BS_EINVAL;
    int st = bs_model_new_shape(out, m->rows, m->cols, m->group, m->phases, m->features, m->mobility_dirs);
    if (st != BS_OK)
        return st;
    memcpy((*out)->w, m->w, sizeof *m->w * (size_t)m->phases * m->per_phase);
    memcpy((*out)->scalar, m->scalar, sizeof *m->scalar * (size_t)m->phases * (1 + BS_MODEL_SCALARS));
    st = m->mpc ? bs_model_set_mpc(*out, m->mpc_shallow, m->mpc) : BS_OK;
    if (st != BS_OK) {
        bs_model_free(*out);
        *out = NULL;
    }
    return st;
}

int bs_model_set_mpc(bs_model *m, const int8_t shallow[BS_MPC_DEPTHS], const bs_mpc_param *param)
{
    if (!m || (shallow && !param))
        return BS_EINVAL;
    if (!shallow) {
        free(m->mpc);
        m->mpc = NULL;
        return BS_OK;
    }
    size_t count = (size_t)BS_MPC_DEPTHS * (size_t)m->phases;
    for (int d = 0; d < BS_MPC_DEPTHS; d++) {
        if (shallow[d] < -1 || shallow[d] >= d)
            return BS_EINVAL;
        if (shallow[d] < 0)
            continue;
        for (int p = 0; p < m->phases; p++) {
            const bs_mpc_param *q = &param[(size_t)d * (size_t)m->phases + (size_t)p];
            if (q->slope < 1 || q->slope > 100000 || q->offset < -1000000 || q->offset > 1000000 || q->sigma < 1 ||
                q->sigma > 1000000)
                return BS_EINVAL;
        }
    }
    bs_mpc_param *copy = malloc(count * sizeof *copy);
    if (!copy)
        return BS_ENOMEM;
    memcpy(copy, param, count * sizeof *copy);
    free(m->mpc);
    m->mpc = copy;
    memcpy(m->mpc_shallow, shallow, sizeof m->mpc_shallow);
    return BS_OK;
}

int bs_model_mpc(const bs_model *m, int8_t shallow[BS_MPC_DEPTHS], bs_mpc_param *param)
{
    if (!m || !m->mpc)
        return 0;
    if (shallow)
        memcpy(shallow, m->mpc_shallow, sizeof m->mpc_shallow);
    if (param)
        memcpy(param, m->mpc, (size_t)BS_MPC_DEPTHS * (size_t)m->phases * sizeof *param);
    return 1;
}

void bs_model_describe(const bs_model *m, bs_model_info *info)
{
    memset(info, 0, sizeof *info);
    if (!m)
        return;
    info->n = m->n;
    info->rows = m->rows;
    info->cols = m->cols;
    info->group = m->group;
    info->phases = m->phases;
    info->features = m->features;
    info->mobility_dirs = m->mobility_dirs;
    info->shapes = m->nshapes;
    info->instances = m->ninst;
    size_t per = m->per_phase + 1 + BS_MODEL_SCALARS;
    info->weights = per * (size_t)m->phases;
    for (size_t i = 0; i < (size_t)m->phases * m->per_phase; i++)
        info->nonzero += m->w[i] != 0;
    for (size_t i = 0; i < (size_t)m->phases * (1 + BS_MODEL_SCALARS); i++)
        info->nonzero += m->scalar[i] != 0;
    info->layout = m->layout;
}

int bs_model_size(const bs_model *m)
{
    return m ? m->n : 0;
}

void bs_model_shape(const bs_model *m, int *rows, int *cols)
{
    *rows = m ? m->rows : 0;
    *cols = m ? m->cols : 0;
}

bool bs_model_fits(const bs_model *m, const bs_board *b)
{
    return m && b && b->n == m->n && b->rows == m->rows && b->cols == m->cols;
}

int bs_model_instance(const bs_model *m, int i, int *shape, int cells[BS_MODEL_MAX_CELLS])
{
    if (!m || i < 0 || i >= m->ninst)
        return BS_EINVAL;
    const bs_pat_inst *in = &m->inst[i];
    if (shape)
        *shape = in->shape;
    for (int j = 0; j < in->k; j++)
        cells[j] = in->r[j] * BS_MAX_N + in->c[j];
    return in->k;
}

/* ---- evaluation ---- */

int bs_model_phase(const bs_model *m, const bs_board *b)
{
    int discs = 0;
    for (int r = 0; r < b->n; r++)
        discs += __builtin_popcount(b->plane[0][r] | b->plane[1][r]);
    return bs_pat_phase(m, discs);
}

void bs_pat_anchored(const bs_board *b, uint32_t *rows)
{
    int n = b->n;
    const uint32_t *blocks = b->plane[2];
    uint32_t full = bs_row_mask(n), first = 1u, last = 1u << (n - 1);
    for (int r = 0; r < n; r++) {
        uint32_t up = r == 0 ? full : blocks[r - 1], down = r == n - 1 ? full : blocks[r + 1];
        uint32_t h = (blocks[r] << 1) | first | (blocks[r] >> 1) | last;
        uint32_t d1 = (r == 0 ? full : ((blocks[r - 1] << 1) | first)) |
                      (r == n - 1 ? full : ((blocks[r + 1] >> 1) | last));
        uint32_t d2 = (r == 0 ? full : ((blocks[r - 1] >> 1) | last)) |
                      (r == n - 1 ? full : ((blocks[r + 1] << 1) | first));
        rows[r] = h & (up | down) & d1 & d2 & full & ~blocks[r];
    }
}

/* The scalar features of a board for `player`: own minus opponent's. */
void bs_pat_scalars(const bs_model *m, const bs_board *b, int player, int x[BS_MODEL_SCALARS])
{
    int n = b->n, op = bs_opponent(player);
    const uint32_t *mine = b->plane[player - 1], *theirs = b->plane[op - 1], *blocks = b->plane[2];
    uint32_t full = bs_row_mask(n);
    memset(x, 0, sizeof(int) * BS_MODEL_SCALARS);
    if (m->features & BS_FEAT_MOBILITY) {
        bs_set a, z;
        bs_capture_moves(b, player, m->mobility_dirs, &a);
        bs_capture_moves(b, op, m->mobility_dirs, &z);
        x[0] = bs_set_count(&a) - bs_set_count(&z);
    }
    if (m->features & (BS_FEAT_POTENTIAL | BS_FEAT_PARITY)) {
        int own = 0, other = 0, empties = 0;
        for (int r = 0; r < n; r++) {
            uint32_t empty = ~(mine[r] | theirs[r] | blocks[r]) & full;
            uint32_t near_t = 0, near_m = 0;
            for (int dr = -1; dr <= 1; dr++) {
                int rr = r + dr;
                if (rr < 0 || rr >= n)
                    continue;
                near_t |= theirs[rr] | (theirs[rr] << 1) | (theirs[rr] >> 1);
                near_m |= mine[rr] | (mine[rr] << 1) | (mine[rr] >> 1);
            }
            own += __builtin_popcount(near_t & empty);
            other += __builtin_popcount(near_m & empty);
            empties += __builtin_popcount(empty);
        }
        if (m->features & BS_FEAT_POTENTIAL)
            x[1] = own - other;
        if (m->features & BS_FEAT_PARITY)
            x[2] = empties & 1;
    }
    if (m->features & BS_FEAT_ANCHORED) {
        uint32_t anchored[BS_MAX_N];
        bs_pat_anchored(b, anchored);
        int count = 0;
        for (int r = 0; r < n; r++)
            count += __builtin_popcount(anchored[r] & mine[r]) - __builtin_popcount(anchored[r] & theirs[r]);
        x[3] = count;
    }
}

/* The pattern indices of a board for `player` (1 own, 2 opponent's). */
void bs_pat_indices(const bs_model *m, const bs_board *b, int player, uint16_t *idx)
{
    const uint32_t *mine = b->plane[player - 1], *theirs = b->plane[bs_opponent(player) - 1];
    for (int i = 0; i < m->ninst; i++) {
        const bs_pat_inst *in = &m->inst[i];
        int v = 0;
        for (int j = in->k - 1; j >= 0; j--) {
            int r = in->r[j], c = in->c[j];
            v = v * 3 + (int)((mine[r] >> c) & 1u) + 2 * (int)((theirs[r] >> c) & 1u);
        }
        idx[i] = (uint16_t)v;
    }
}

int bs_pat_canonical(const bs_model *m, int s, int idx)
{
    const bs_pat_shape *sh = &m->shape[s];
    if (!sh->nperm)
        return idx;
    int digit[BS_MODEL_MAX_CELLS], best = idx;
    for (int j = 0, x = idx; j < sh->k; j++, x /= 3)
        digit[j] = x % 3;
    for (int p = 0; p < sh->nperm; p++) {
        int v = 0;
        for (int j = sh->k - 1; j >= 0; j--)
            v = v * 3 + digit[sh->perm[p][j]];
        if (v < best)
            best = v;
    }
    return best;
}

void bs_pat_tie(bs_model *m)
{
    for (int s = 0; s < m->nshapes; s++) {
        const bs_pat_shape *sh = &m->shape[s];
        if (!sh->nperm)
            continue;
        for (int idx = 0; idx < sh->size; idx++) {
            int c = bs_pat_canonical(m, s, idx);
            for (int p = 0; p < m->phases && c != idx; p++) {
                int16_t *w = m->w + (size_t)p * m->per_phase + sh->offset;
                w[idx] = w[c];
            }
        }
    }
}

int bs_model_evaluate(const bs_model *m, const bs_board *b, int player)
{
    if (!bs_model_fits(m, b) || !bs_is_player(player))
        return 0;
    uint16_t idx[BS_MODEL_MAX_INSTANCES];
    int x[BS_MODEL_SCALARS];
    bs_pat_indices(m, b, player, idx);
    bs_pat_scalars(m, b, player, x);
    return bs_pat_value(m, bs_model_phase(m, b), idx, x);
}

/* ---- the 8 x 8 word path ---- */

int bs_pat64_prepare(bs_pat64 *p, const bs_model *m, uint64_t blocks)
{
    if (p->m == m && p->generation == m->generation) {
        if (p->blocks != blocks) {
            bs_board b;
            bs_board_init(&b, 8);
            bs_unpack64(blocks, b.plane[2]);
            uint32_t rows[BS_MAX_N];
            bs_pat_anchored(&b, rows);
            p->anchored = bs_pack64(rows);
            p->blocks = blocks;
        }
        return BS_OK;
    }
    bs_pat64_release(p);
    if (m->n != 8 || m->ninst > BS_PAT64_LANES)
        return BS_EINVAL;
    for (int i = 0; i < m->ninst; i++)
        p->off[i] = (uint32_t)m->shape[m->inst[i].shape].offset;
    for (int q = 0; q < 64; q++)
        for (int j = 0; j < m->uses[q]; j++) {
            const bs_pat_use *u = &m->use_list[m->use_start[q] + (uint32_t)j];
            p->feat[q][u->inst] = u->power;
            p->touch[q] |= 1ULL << u->inst;
        }
    p->m = m;
    p->generation = m->generation;
    p->blocks = ~blocks; /* differs: the anchored cells are made below */
    return bs_pat64_prepare(p, m, blocks);
}

void bs_pat64_release(bs_pat64 *p)
{
    memset(p, 0, sizeof *p);
}

/* The absolute indices of a position in `idx`, 0 in the lanes past them. */
static void indices64(const bs_model *m, uint64_t black, uint64_t white, uint16_t *idx)
{
    for (int i = 0; i < m->ninst; i++) {
        const bs_pat_inst *in = &m->inst[i];
        int v = 0;
        for (int j = in->k - 1; j >= 0; j--) {
            int sq = in->r[j] * 8 + in->c[j];
            v = v * 3 + (int)((black >> sq) & 1u) + 2 * (int)((white >> sq) & 1u);
        }
        idx[i] = (uint16_t)v;
    }
    for (int i = m->ninst; i < BS_PAT64_LANES; i++)
        idx[i] = 0;
}

void bs_pat64_indices(const bs_pat64 *p, uint64_t black, uint64_t white, uint16_t *idx)
{
    indices64(p->m, black, white, idx);
    indices64(p->m, white, black, idx + BS_PAT64_LANES); /* the colours swapped */
}
