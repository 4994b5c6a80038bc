/* pattern.c - the learned evaluation: patterns from the geometry, evaluation, files in memory, fitting. */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "pattern_impl.h"

/* ---- the patterns of a board size ---- */

static const int POW3[BS_MODEL_MAX_CELLS + 1] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049};

/* The 8 symmetries of the square, applied to (r, c). */
static void symmetry(int n, int which, int r, int c, int *out_r, int *out_c)
{
    int a = r, b = c;
    if (which & 1) { /* transpose */
        int t = a;
        a = b;
        b = t;
    }
    if (which & 2)
        b = n - 1 - b;
    if (which & 4)
        a = n - 1 - a;
    *out_r = a;
    *out_c = b;
}

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

/* Adds a shape from its canonical cells and each of its images that is not
 * already an instance (of this shape or an earlier one) as an instance. */
static void add_shape(gen *g, const int cells[][2], int k)
{
    bs_model *m = g->m;
    if (g->failed || k < 2 || k > BS_MODEL_MAX_CELLS || m->nshapes >= BS_MODEL_MAX_SHAPES)
        return;
    int added = 0;
    for (int s = 0; s < 8; s++) {
        bs_pat_inst in;
        memset(&in, 0, sizeof in);
        in.shape = m->nshapes;
        in.k = k;
        int sorted[BS_MODEL_MAX_CELLS];
        bool ok = true;
        for (int i = 0; i < k && ok; i++) {
            int r, c;
            symmetry(m->n, s, cells[i][0], cells[i][1], &r, &c);
            ok = r >= 0 && c >= 0 && r < m->n && c < m->n;
            in.r[i] = (uint8_t)r;
            in.c[i] = (uint8_t)c;
            sorted[i] = r * BS_MAX_N + c;
        }
        if (!ok)
            continue;
        qsort(sorted, (size_t)k, sizeof sorted[0], cmp_int);
        bool dup = false;
        for (int i = 1; i < k; i++)
            if (sorted[i] == sorted[i - 1]) /* a shape that repeats a cell: a bug in the generator */
                ok = false;
        if (!ok)
            continue;
        for (int j = 0; j < m->ninst && !dup; j++) {
            const bs_pat_inst *o = &m->inst[j];
            if (o->k != k)
                continue;
            int other[BS_MODEL_MAX_CELLS];
            for (int i = 0; i < k; i++)
                other[i] = o->r[i] * BS_MAX_N + o->c[i];
            qsort(other, (size_t)k, sizeof other[0], cmp_int);
            dup = memcmp(other, sorted, sizeof(int) * (size_t)k) == 0;
        }
        if (dup)
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
        bs_pat_shape *sh = &m->shape[m->nshapes++];
        sh->k = k;
        sh->size = POW3[k];
        sh->offset = m->per_phase;
        m->per_phase += (size_t)sh->size;
    }
}

static uint32_t fnv(uint32_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static int generate(bs_model *m)
{
    int n = m->n, cells[BS_MODEL_MAX_CELLS][2], k;
    gen g = {m, 0, 0};
    /* the edge with its X cells (the whole edge up to 8 cells) */
    bool edge2x = n >= 4;
    if (edge2x) {
        int len = n < 8 ? n : 8;
        k = 0;
        for (int c = 0; c < len; c++) {
            cells[k][0] = 0;
            cells[k++][1] = c;
        }
        cells[k][0] = 1;
        cells[k++][1] = 1;
        if (len == n) {
            cells[k][0] = 1;
            cells[k++][1] = n - 2;
        }
        add_shape(&g, (const int(*)[2])cells, k);
    }
    /* corner regions: 3 x 3, and 2 x 5 */
    k = 0;
    for (int r = 0; r < 3 && r < n; r++)
        for (int c = 0; c < 3 && c < n; c++) {
            cells[k][0] = r;
            cells[k++][1] = c;
        }
    add_shape(&g, (const int(*)[2])cells, k);
    k = 0;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 5 && c < n; c++) {
            cells[k][0] = r;
            cells[k++][1] = c;
        }
    add_shape(&g, (const int(*)[2])cells, k);
    /* rows (and by symmetry columns) near the edges: whole, or segments */
    int len = n < BS_MODEL_MAX_CELLS ? n : BS_MODEL_MAX_CELLS;
    int deepest = (n - 1) / 2 < 3 ? (n - 1) / 2 : 3;
    for (int row = 0; row <= deepest; row++) {
        if (row == 0 && edge2x && n <= 8)
            continue; /* the edge pattern holds the whole edge */
        int starts[2] = {0, (n - len) / 2};
        for (int j = 0; j < 2; j++) {
            if (j == 1 && starts[1] == 0)
                break;
            k = 0;
            for (int c = 0; c < len; c++) {
                cells[k][0] = row;
                cells[k++][1] = starts[j] + c;
            }
            add_shape(&g, (const int(*)[2])cells, k);
        }
    }
    /* diagonals cutting a corner, 3 or 4 cells up to the main diagonal */
    for (int d = n <= 6 ? 3 : 4; d <= len; d++) {
        k = 0;
        for (int i = 0; i < d; i++) {
            cells[k][0] = i;
            cells[k++][1] = d - 1 - i;
        }
        add_shape(&g, (const int(*)[2])cells, k);
    }
    if (g.failed)
        return BS_ENOMEM;
    uint32_t h = fnv(2166136261u, &m->n, sizeof m->n);
    for (int i = 0; i < m->ninst; i++) {
        const bs_pat_inst *in = &m->inst[i];
        unsigned char row[2 + 2 * BS_MODEL_MAX_CELLS];
        row[0] = (unsigned char)in->shape;
        row[1] = (unsigned char)in->k;
        for (int j = 0; j < in->k; j++) {
            row[2 + 2 * j] = in->r[j];
            row[3 + 2 * j] = in->c[j];
        }
        h = fnv(h, row, 2 + 2 * (size_t)in->k);
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
static uint32_t new_generation(void)
{
    static uint32_t last;
    return __atomic_add_fetch(&last, 1u, __ATOMIC_RELAXED);
}

static int default_phases(int n)
{
    int cells = n * n;
    int p = cells / 6;
    return p < 1 ? 1 : p > 12 ? 12 : p;
}

int bs_model_new(bs_model **out, int n, int phases, unsigned features, unsigned mobility_dirs)
{
    if (!out)
        return BS_EINVAL;
    *out = NULL;
    if (n < 3 || n > BS_MAX_N || phases < 0 || phases > BS_MODEL_MAX_PHASES || (features & ~BS_FEAT_ALL) ||
        mobility_dirs > BS_DIRS_ALL)
        return BS_EINVAL;
    bs_model *m = calloc(1, sizeof *m);
    if (!m)
        return BS_ENOMEM;
    m->n = n;
    m->phases = phases ? phases : default_phases(n);
    m->features = features;
    m->mobility_dirs = mobility_dirs;
    m->generation = new_generation();
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
    free(m);
}

int bs_model_copy(bs_model **out, const bs_model *m)
{
    if (!out || !m)
        return BS_EINVAL;
    int st = bs_model_new(out, m->n, m->phases, m->features, m->mobility_dirs);
    if (st != BS_OK)
        return st;
    memcpy((*out)->w, m->w, sizeof *m->w * (size_t)m->phases * m->per_phase);
    memcpy((*out)->scalar, m->scalar, sizeof *m->scalar * (size_t)m->phases * (1 + BS_MODEL_SCALARS));
    return BS_OK;
}

void bs_model_describe(const bs_model *m, bs_model_info *info)
{
    memset(info, 0, sizeof *info);
    if (!m)
        return;
    info->n = m->n;
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

int bs_model_evaluate(const bs_model *m, const bs_board *b, int player)
{
    if (!m || !b || b->n != m->n || !bs_is_player(player))
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
    if (p->m == m && p->generation == m->generation && p->swapped) {
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
    if (m->n != 8)
        return BS_EINVAL;
    size_t total = (size_t)m->phases * m->per_phase;
    p->swapped = malloc(total * sizeof *p->swapped);
    if (!p->swapped)
        return BS_ENOMEM;
    for (int s = 0; s < m->nshapes; s++) {
        const bs_pat_shape *sh = &m->shape[s];
        for (int idx = 0; idx < sh->size; idx++) {
            int swapped = 0;
            for (int j = sh->k - 1, x = idx; j >= 0; j--) {
                int d = x / POW3[j];
                x -= d * POW3[j];
                swapped = swapped * 3 + (d == 0 ? 0 : 3 - d);
            }
            for (int ph = 0; ph < m->phases; ph++) {
                size_t base = (size_t)ph * m->per_phase + sh->offset;
                p->swapped[base + (size_t)idx] = m->w[base + (size_t)swapped];
            }
        }
    }
    for (int i = 0; i < m->ninst; i++)
        p->off[i] = (uint32_t)m->shape[m->inst[i].shape].offset;
    p->m = m;
    p->generation = m->generation;
    p->blocks = ~blocks; /* differs: the anchored cells are made below */
    return bs_pat64_prepare(p, m, blocks);
}

void bs_pat64_release(bs_pat64 *p)
{
    free(p->swapped);
    memset(p, 0, sizeof *p);
}

void bs_pat64_indices(const bs_pat64 *p, uint64_t black, uint64_t white, uint16_t *idx)
{
    const bs_model *m = p->m;
    for (int i = 0; i < m->ninst; i++) {
        const bs_pat_inst *in = &m->inst[i];
        int v = 0;
        for (int j = in->k - 1; j >= 0; j--) {
            int sq = in->r[j] * 8 + in->c[j];
            v = v * 3 + (int)((black >> sq) & 1u) + 2 * (int)((white >> sq) & 1u);
        }
        idx[i] = (uint16_t)v;
    }
}

/* ---- files, in memory ---- */

static const char MAGIC[] = "boardscript-eval";

typedef struct sink {
    unsigned char *buf;
    size_t cap, len;
} sink;

static void put(sink *s, const void *data, size_t len)
{
    if (s->len + len <= s->cap)
        memcpy(s->buf + s->len, data, len);
    s->len += len;
}

static void put_u16(sink *s, unsigned v)
{
    unsigned char b[2] = {(unsigned char)(v & 0xff), (unsigned char)(v >> 8 & 0xff)};
    put(s, b, 2);
}

static void put_i32(sink *s, int32_t v)
{
    uint32_t u = (uint32_t)v;
    unsigned char b[4] = {(unsigned char)(u & 0xff), (unsigned char)(u >> 8 & 0xff), (unsigned char)(u >> 16 & 0xff),
                          (unsigned char)(u >> 24)};
    put(s, b, 4);
}

static void features_text(unsigned f, char *out, size_t cap)
{
    static const char *const NAMES[BS_MODEL_SCALARS] = {"mobility", "potential", "parity", "anchored"};
    out[0] = 0;
    size_t at = 0;
    at += (size_t)snprintf(out, cap, "patterns");
    for (int i = 0; i < BS_MODEL_SCALARS; i++)
        if (f & (1u << i))
            at += (size_t)snprintf(out + at, at < cap ? cap - at : 0, ",%s", NAMES[i]);
}

size_t bs_model_save(const bs_model *m, const char *meta, unsigned char *buf, size_t cap)
{
    if (!m)
        return 0;
    size_t meta_len = 0;
    while (meta && meta_len < BS_MODEL_META && meta[meta_len])
        meta_len++;
    sink s = {buf, buf ? cap : 0, 0};
    char head[512], feats[128];
    features_text(m->features, feats, sizeof feats);
    int len = snprintf(head, sizeof head,
                       "%s %d\nsize %d\nphases %d\nfeatures %s\nmobility-dirs %u\nlayout %08x\nmeta %zu\n", MAGIC,
                       BS_MODEL_VERSION, m->n, m->phases, feats, m->mobility_dirs, (unsigned)m->layout, meta_len);
    put(&s, head, (size_t)len);
    put(&s, meta ? meta : "", meta_len);
    put(&s, "\nweights\n", 9);
    for (int p = 0; p < m->phases; p++) {
        const int32_t *sc = m->scalar + (size_t)p * (1 + BS_MODEL_SCALARS);
        for (int i = 0; i < 1 + BS_MODEL_SCALARS; i++)
            put_i32(&s, sc[i]);
        const int16_t *w = m->w + (size_t)p * m->per_phase;
        for (size_t i = 0; i < m->per_phase;) {
            if (w[i] == 0) {
                size_t run = 1;
                while (i + run < m->per_phase && w[i + run] == 0 && run < 65535)
                    run++;
                put_u16(&s, 0x8000u);
                put_u16(&s, (unsigned)run);
                i += run;
            } else {
                put_u16(&s, (unsigned)(uint16_t)w[i]);
                i++;
            }
        }
    }
    /* version 2: the checksum covers the whole file before it, header and meta too */
    uint32_t check = s.len <= s.cap ? fnv(2166136261u, s.buf, s.len) : 0;
    put_i32(&s, (int32_t)check);
    return s.len;
}

typedef struct source {
    const unsigned char *p;
    size_t len, at;
} source;

/* The next line (without its newline), or NULL at the end. */
static const char *line(source *s, char *out, size_t cap)
{
    size_t k = 0;
    while (s->at < s->len && s->p[s->at] != '\n') {
        if (k + 1 >= cap)
            return NULL;
        out[k++] = (char)s->p[s->at++];
    }
    if (s->at >= s->len)
        return NULL;
    s->at++;
    out[k] = 0;
    return out;
}

static bool get_u16(source *s, unsigned *v)
{
    if (s->len - s->at < 2)
        return false;
    *v = (unsigned)s->p[s->at] | (unsigned)s->p[s->at + 1] << 8;
    s->at += 2;
    return true;
}

static bool get_i32(source *s, int32_t *v)
{
    if (s->len - s->at < 4)
        return false;
    uint32_t u = (uint32_t)s->p[s->at] | (uint32_t)s->p[s->at + 1] << 8 | (uint32_t)s->p[s->at + 2] << 16 |
                 (uint32_t)s->p[s->at + 3] << 24;
    s->at += 4;
    *v = (int32_t)u;
    return true;
}

/* A header line "key value": the value, or NULL when the key differs. */
static const char *field(source *s, const char *key, char *buf, size_t cap)
{
    if (!line(s, buf, cap))
        return NULL;
    size_t k = strlen(key);
    if (strncmp(buf, key, k) != 0 || buf[k] != ' ')
        return NULL;
    return buf + k + 1;
}

static bool parse_int(const char *text, long lo, long hi, long *out)
{
    if (!text || !*text)
        return false;
    char *end;
    long v = strtol(text, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int bs_model_load(bs_model **out, const unsigned char *buf, size_t len, char *meta, size_t meta_cap,
                  const char **why)
{
    static const char *dummy;
    if (!why)
        why = &dummy;
    *why = "not an evaluation file";
    if (!out || !buf)
        return BS_EINVAL;
    *out = NULL;
    source s = {buf, len, 0};
    char text[512];
    const char *v = line(&s, text, sizeof text);
    size_t magic_len = sizeof MAGIC - 1;
    if (!v || strncmp(v, MAGIC, magic_len) != 0 || v[magic_len] != ' ')
        return BS_EINVAL;
    long version, n, phases, dirs, meta_len;
    if (!parse_int(v + magic_len + 1, 1, 1000, &version))
        return BS_EINVAL;
    if (version != 1 && version != BS_MODEL_VERSION) {
        *why = "an evaluation file of another version (this build reads versions 1 and 2)";
        return BS_EINVAL;
    }
    *why = "a damaged header";
    if (!parse_int(field(&s, "size", text, sizeof text), 3, BS_MAX_N, &n))
        return BS_EINVAL;
    if (!parse_int(field(&s, "phases", text, sizeof text), 1, BS_MODEL_MAX_PHASES, &phases))
        return BS_EINVAL;
    const char *f = field(&s, "features", text, sizeof text);
    if (!f)
        return BS_EINVAL;
    unsigned features = 0;
    {
        static const char *const NAMES[BS_MODEL_SCALARS] = {"mobility", "potential", "parity", "anchored"};
        for (const char *tok = f; *tok;) {
            size_t k = strcspn(tok, ",");
            int known = -1;
            if (k == 8 && strncmp(tok, "patterns", 8) == 0)
                known = BS_MODEL_SCALARS;
            for (int i = 0; i < BS_MODEL_SCALARS; i++)
                if (strlen(NAMES[i]) == k && strncmp(tok, NAMES[i], k) == 0)
                    known = i;
            if (known < 0) {
                *why = "a feature this build does not know";
                return BS_EINVAL;
            }
            if (known < BS_MODEL_SCALARS)
                features |= 1u << known;
            tok += k;
            if (*tok == ',')
                tok++;
        }
    }
    if (!parse_int(field(&s, "mobility-dirs", text, sizeof text), 0, BS_DIRS_ALL, &dirs))
        return BS_EINVAL;
    const char *lay = field(&s, "layout", text, sizeof text);
    if (!lay)
        return BS_EINVAL;
    char *end;
    unsigned long layout = strtoul(lay, &end, 16);
    if (*end || end == lay)
        return BS_EINVAL;
    if (!parse_int(field(&s, "meta", text, sizeof text), 0, BS_MODEL_META, &meta_len))
        return BS_EINVAL;
    if (s.len - s.at < (size_t)meta_len + 9) {
        *why = "a truncated file";
        return BS_EINVAL;
    }
    if (memchr(s.p + s.at, 0, (size_t)meta_len))
        return BS_EINVAL;
    if (meta && meta_cap) {
        size_t k = (size_t)meta_len < meta_cap - 1 ? (size_t)meta_len : meta_cap - 1;
        memcpy(meta, s.p + s.at, k);
        meta[k] = 0;
    }
    s.at += (size_t)meta_len;
    if (memcmp(s.p + s.at, "\nweights\n", 9) != 0)
        return BS_EINVAL;
    s.at += 9;
    size_t body = s.at;
    bs_model *m;
    int st = bs_model_new(&m, (int)n, (int)phases, features, (unsigned)dirs);
    if (st != BS_OK) {
        *why = st == BS_ENOMEM ? "out of memory" : "a damaged header";
        return st;
    }
    if (m->layout != (uint32_t)layout) {
        *why = "patterns made by another version of the generator";
        bs_model_free(m);
        return BS_EINVAL;
    }
    *why = "a truncated or damaged file";
    for (int p = 0; p < m->phases; p++) {
        int32_t *sc = m->scalar + (size_t)p * (1 + BS_MODEL_SCALARS);
        for (int i = 0; i < 1 + BS_MODEL_SCALARS; i++)
            if (!get_i32(&s, &sc[i]) || sc[i] > BS_PAT_MAX_VALUE || sc[i] < -BS_PAT_MAX_VALUE) {
                bs_model_free(m);
                return BS_EINVAL;
            }
        int16_t *w = m->w + (size_t)p * m->per_phase;
        for (size_t i = 0; i < m->per_phase;) {
            unsigned u;
            if (!get_u16(&s, &u)) {
                bs_model_free(m);
                return BS_EINVAL;
            }
            if (u == 0x8000u) {
                unsigned run;
                if (!get_u16(&s, &run) || run == 0 || run > m->per_phase - i) {
                    bs_model_free(m);
                    return BS_EINVAL;
                }
                i += run; /* already zero */
            } else {
                w[i++] = (int16_t)(u >= 0x8000u ? (int)u - 0x10000 : (int)u);
            }
        }
    }
    size_t checked = s.at;
    int32_t check;
    size_t from = version == 1 ? body : 0; /* version 1 checked the weights only */
    if (!get_i32(&s, &check) || (uint32_t)check != fnv(2166136261u, s.p + from, checked - from) || s.at != s.len) {
        bs_model_free(m);
        return BS_EINVAL;
    }
    *why = NULL;
    *out = m;
    return BS_OK;
}

/* ---- fitting ---- */

/* Without libm (the core links nothing else): |x|, rounding, square root. */
static double abs_of(double x)
{
    return x < 0 ? -x : x;
}

static double round_of(double x)
{
    return x < 0 ? -(double)(long long)(-x + 0.5) : (double)(long long)(x + 0.5);
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

/* A position as the fit sees it: phase, target and features. */
typedef struct sample {
    float target;
    uint8_t phase, holdout;
    int8_t x[BS_MODEL_SCALARS];
} sample;

struct bs_trainer {
    bs_model *m;
    size_t count, cap;
    sample *samples;
    uint16_t *idx; /* count * ninst */
};

int bs_trainer_new(bs_trainer **out, bs_model *m)
{
    if (!out || !m)
        return BS_EINVAL;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return BS_ENOMEM;
    (*out)->m = m;
    return BS_OK;
}

void bs_trainer_free(bs_trainer *t)
{
    if (!t)
        return;
    free(t->samples);
    free(t->idx);
    free(t);
}

static int8_t clamp8(int v)
{
    return (int8_t)(v > 127 ? 127 : v < -127 ? -127 : v);
}

int bs_trainer_add(bs_trainer *t, const bs_board *b, int player, double target, int holdout)
{
    if (!t || !b || b->n != t->m->n || !bs_is_player(player) || !bs_board_valid(b) || !(abs_of(target) <= 10000.0))
        return BS_EINVAL;
    const bs_model *m = t->m;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        sample *s = realloc(t->samples, cap * sizeof *s);
        if (!s)
            return BS_ENOMEM;
        t->samples = s;
        uint16_t *idx = realloc(t->idx, cap * (size_t)m->ninst * sizeof *idx);
        if (!idx)
            return BS_ENOMEM;
        t->idx = idx;
        t->cap = cap;
    }
    sample *s = &t->samples[t->count];
    int x[BS_MODEL_SCALARS];
    bs_pat_scalars(m, b, player, x);
    for (int i = 0; i < BS_MODEL_SCALARS; i++)
        s->x[i] = clamp8(x[i]);
    s->target = (float)target;
    s->phase = (uint8_t)bs_model_phase(m, b);
    s->holdout = holdout != 0;
    bs_pat_indices(m, b, player, t->idx + t->count * (size_t)m->ninst);
    t->count++;
    return BS_OK;
}

size_t bs_trainer_count(const bs_trainer *t, int holdout)
{
    size_t k = 0;
    if (!t)
        return 0;
    for (size_t i = 0; i < t->count; i++)
        k += t->samples[i].holdout == (holdout != 0);
    return k;
}

/* The prediction of sample i, in discs, by float weights. */
static double predict(const bs_model *m, const float *w, const float *sc, const sample *s, const uint16_t *idx)
{
    const float *wp = w + (size_t)s->phase * m->per_phase;
    const float *scp = sc + (size_t)s->phase * (1 + BS_MODEL_SCALARS);
    double v = scp[0];
    for (int j = 0; j < BS_MODEL_SCALARS; j++)
        v += scp[1 + j] * s->x[j];
    for (int i = 0; i < m->ninst; i++)
        v += wp[m->shape[m->inst[i].shape].offset + idx[i]];
    return v;
}

static void errors_of(const bs_trainer *t, const float *w, const float *sc, bs_fit_result *res)
{
    double se[2] = {0, 0}, ae = 0;
    size_t k[2] = {0, 0};
    for (size_t i = 0; i < t->count; i++) {
        const sample *s = &t->samples[i];
        double r = s->target - predict(t->m, w, sc, s, t->idx + i * (size_t)t->m->ninst);
        se[s->holdout] += r * r;
        k[s->holdout]++;
        if (s->holdout)
            ae += abs_of(r);
    }
    res->train = k[0];
    res->holdout = k[1];
    res->train_error = k[0] ? root_of(se[0] / (double)k[0]) : 0;
    res->holdout_error = k[1] ? root_of(se[1] / (double)k[1]) : 0;
    res->holdout_abs = k[1] ? ae / (double)k[1] : 0;
}

/* The model's weights as floats (discs); NULL when out of memory. */
static int to_float(const bs_model *m, float **w, float **sc)
{
    size_t nw = (size_t)m->phases * m->per_phase, ns = (size_t)m->phases * (1 + BS_MODEL_SCALARS);
    *w = malloc(nw * sizeof **w);
    *sc = malloc(ns * sizeof **sc);
    if (!*w || !*sc) {
        free(*w);
        free(*sc);
        return BS_ENOMEM;
    }
    for (size_t i = 0; i < nw; i++)
        (*w)[i] = (float)m->w[i] / 100.0f;
    for (size_t i = 0; i < ns; i++)
        (*sc)[i] = (float)m->scalar[i] / 100.0f;
    return BS_OK;
}

int bs_trainer_measure(bs_trainer *t, bs_fit_result *res)
{
    if (!t || !res)
        return BS_EINVAL;
    float *w, *sc;
    if (to_float(t->m, &w, &sc) != BS_OK)
        return BS_ENOMEM;
    errors_of(t, w, sc, res);
    free(w);
    free(sc);
    return BS_OK;
}

/* The weights of sample i: where each of its features' weights sits in the
 * flat vector (pattern entries of every phase, then bias and scalars). */
static inline size_t scalar_base(const bs_model *m, int phase)
{
    return (size_t)m->phases * m->per_phase + (size_t)phase * (1 + BS_MODEL_SCALARS);
}

/* q = A p over the training samples (the holdout skipped: q there is 0). */
static void mul_a(const bs_trainer *t, const double *p, double *q)
{
    const bs_model *m = t->m;
    for (size_t i = 0; i < t->count; i++) {
        const sample *s = &t->samples[i];
        if (s->holdout) {
            q[i] = 0;
            continue;
        }
        const uint16_t *idx = t->idx + i * (size_t)m->ninst;
        size_t base = (size_t)s->phase * m->per_phase, sb = scalar_base(m, s->phase);
        double v = p[sb];
        for (int j = 0; j < BS_MODEL_SCALARS; j++)
            v += p[sb + 1 + (size_t)j] * s->x[j];
        for (int j = 0; j < m->ninst; j++)
            v += p[base + m->shape[m->inst[j].shape].offset + idx[j]];
        q[i] = v;
    }
}

/* g = A^T r over the training samples. */
static void mul_at(const bs_trainer *t, const double *r, double *g, size_t nw)
{
    const bs_model *m = t->m;
    memset(g, 0, nw * sizeof *g);
    for (size_t i = 0; i < t->count; i++) {
        const sample *s = &t->samples[i];
        if (s->holdout)
            continue;
        const uint16_t *idx = t->idx + i * (size_t)m->ninst;
        size_t base = (size_t)s->phase * m->per_phase, sb = scalar_base(m, s->phase);
        double ri = r[i];
        g[sb] += ri;
        for (int j = 0; j < BS_MODEL_SCALARS; j++)
            g[sb + 1 + (size_t)j] += ri * s->x[j];
        for (int j = 0; j < m->ninst; j++)
            g[base + m->shape[m->inst[j].shape].offset + idx[j]] += ri;
    }
}

static int fit_cg(bs_trainer *t, const bs_fit_options *opts, double *x, double *g, double *z, double *p, double *diag,
                  double *r, double *q, bs_fit_result *res);

/*
 * Ridge regression by preconditioned conjugate gradient on the normal
 * equations (A^T A + lambda I) w = A^T y, from the present weights: each
 * iteration is two passes over the positions. The preconditioner is the
 * diagonal (how often a weight is used, plus lambda). lambda (`shrink`)
 * pulls every weight towards zero as much as that many positions with a
 * residual of zero would: entries seen a few times stay near zero.
 */
int bs_trainer_fit(bs_trainer *t, const bs_fit_options *opts, bs_fit_result *res)
{
    if (!t || !res)
        return BS_EINVAL;
    bs_fit_options o = {20, 4.0};
    if (opts) {
        if (opts->iterations > 0)
            o.iterations = opts->iterations;
        if (opts->shrink >= 0)
            o.shrink = opts->shrink;
    }
    if (o.iterations > 100000 || !(o.shrink <= 1e9))
        return BS_EINVAL;
    bs_model *m = t->m;
    size_t np = (size_t)m->phases * m->per_phase, ns = (size_t)m->phases * (1 + BS_MODEL_SCALARS);
    size_t nw = np + ns, n = t->count ? t->count : 1;
    double *x = malloc(nw * sizeof *x), *g = malloc(nw * sizeof *g), *z = malloc(nw * sizeof *z);
    double *p = malloc(nw * sizeof *p), *diag = calloc(nw, sizeof *diag);
    double *r = calloc(n, sizeof *r), *q = calloc(n, sizeof *q);
    int status = BS_ENOMEM;
    if (x && g && z && p && diag && r && q)
        status = fit_cg(t, &o, x, g, z, p, diag, r, q, res);
    free(x);
    free(g);
    free(z);
    free(p);
    free(diag);
    free(r);
    free(q);
    return status;
}

static int fit_cg(bs_trainer *t, const bs_fit_options *opts, double *x, double *g, double *z, double *p, double *diag,
                  double *r, double *q, bs_fit_result *res)
{
    bs_fit_options o = *opts;
    bs_model *m = t->m;
    size_t np = (size_t)m->phases * m->per_phase, ns = (size_t)m->phases * (1 + BS_MODEL_SCALARS);
    size_t nw = np + ns;
    for (size_t i = 0; i < np; i++)
        x[i] = m->w[i] / 100.0;
    for (size_t i = 0; i < ns; i++)
        x[np + i] = m->scalar[i] / 100.0;
    /* the diagonal of A^T A */
    for (size_t i = 0; i < t->count; i++) {
        const sample *s = &t->samples[i];
        if (s->holdout)
            continue;
        const uint16_t *idx = t->idx + i * (size_t)m->ninst;
        size_t base = (size_t)s->phase * m->per_phase, sb = scalar_base(m, s->phase);
        diag[sb] += 1;
        for (int j = 0; j < BS_MODEL_SCALARS; j++)
            diag[sb + 1 + (size_t)j] += (double)s->x[j] * s->x[j];
        for (int j = 0; j < m->ninst; j++)
            diag[base + m->shape[m->inst[j].shape].offset + idx[j]] += 1;
    }
    /* weights no training position uses are zero, and stay so */
    for (size_t i = 0; i < nw; i++)
        if (diag[i] == 0)
            x[i] = 0;
    double lambda = o.shrink;
    mul_a(t, x, q);
    for (size_t i = 0; i < t->count; i++)
        r[i] = t->samples[i].holdout ? 0 : t->samples[i].target - q[i];
    mul_at(t, r, g, nw);
    double gamma = 0;
    for (size_t i = 0; i < nw; i++) {
        g[i] -= lambda * x[i];
        z[i] = diag[i] > 0 ? g[i] / (diag[i] + lambda) : 0;
        p[i] = z[i];
        gamma += g[i] * z[i];
    }
    for (int it = 0; it < o.iterations && gamma > 1e-12; it++) {
        mul_a(t, p, q);
        double delta = 0;
        for (size_t i = 0; i < t->count; i++)
            delta += q[i] * q[i];
        for (size_t i = 0; i < nw; i++)
            delta += lambda * p[i] * p[i];
        if (!(delta > 0))
            break;
        double alpha = gamma / delta;
        for (size_t i = 0; i < nw; i++)
            x[i] += alpha * p[i];
        for (size_t i = 0; i < t->count; i++)
            r[i] -= alpha * q[i];
        mul_at(t, r, g, nw);
        double next = 0;
        for (size_t i = 0; i < nw; i++) {
            g[i] -= lambda * x[i];
            z[i] = diag[i] > 0 ? g[i] / (diag[i] + lambda) : 0;
            next += g[i] * z[i];
        }
        double beta = next / gamma;
        gamma = next;
        for (size_t i = 0; i < nw; i++)
            p[i] = z[i] + beta * p[i];
    }
    m->generation = new_generation();
    for (size_t i = 0; i < np; i++) {
        double v = round_of(x[i] * 100.0);
        m->w[i] = (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
    }
    for (size_t i = 0; i < ns; i++) {
        double v = round_of(x[np + i] * 100.0);
        m->scalar[i] = (int32_t)(v > BS_PAT_MAX_VALUE ? BS_PAT_MAX_VALUE : v < -BS_PAT_MAX_VALUE ? -BS_PAT_MAX_VALUE : v);
    }
    return bs_trainer_measure(t, res);
}
