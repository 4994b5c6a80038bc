/* dots_solve_tt.c - solver geometry, board symmetries and the transposition table. */
#include "dots_solve_impl.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_TT_BYTES ((size_t)16 << 20)

/* Edge index of the edge between two adjacent dots (same layout as dots.h). */
static int edge_between(int rows, int cols, int r1, int c1, int r2, int c2)
{
    if (r1 > r2 || (r1 == r2 && c1 > c2)) {
        int t = r1; r1 = r2; r2 = t;
        t = c1; c1 = c2; c2 = t;
    }
    if (r1 == r2)
        return r1 * cols + c1;
    return (rows + 1) * cols + r1 * (cols + 1) + c1;
}

/* Map dot (r,c) under symmetry k: bit 0 flips rows, bit 1 flips columns,
 * bit 2 transposes (square boards only). */
static void map_dot(int k, int rows, int cols, int *r, int *c)
{
    if (k & 1)
        *r = rows - *r;
    if (k & 2)
        *c = cols - *c;
    if (k & 4) {
        int t = *r;
        *r = *c;
        *c = t;
    }
}

void geometry_build(struct geometry *g, int rows, int cols)
{
    memset(g, 0, sizeof *g);
    g->rows = rows;
    g->cols = cols;
    g->nedges = 2 * rows * cols + rows + cols;
    g->nboxes = rows * cols;
    g->nbytes = (g->nedges + 7) / 8;
    g->nsym = rows == cols ? 8 : 4;
    int h = (rows + 1) * cols;
    for (int e = 0; e < g->nedges; e++) {
        int r1, c1, r2, c2;
        if (e < h) {
            r1 = r2 = e / cols;
            c1 = e % cols;
            c2 = c1 + 1;
            g->edge_box[e][0] = (int8_t)(r1 > 0 ? (r1 - 1) * cols + c1 : -1);
            g->edge_box[e][1] = (int8_t)(r1 < rows ? r1 * cols + c1 : -1);
        } else {
            r1 = (e - h) / (cols + 1);
            r2 = r1 + 1;
            c1 = c2 = (e - h) % (cols + 1);
            g->edge_box[e][0] = (int8_t)(c1 > 0 ? r1 * cols + c1 - 1 : -1);
            g->edge_box[e][1] = (int8_t)(c1 < cols ? r1 * cols + c1 : -1);
        }
        /* Twice the midpoint, measured from twice the centre. */
        int dy = r1 + r2 - rows, dx = c1 + c2 - cols;
        g->centrality[e] = (uint8_t)(255 - (dx * dx + dy * dy));
        for (int i = 0; i < 2; i++)
            if (g->edge_box[e][i] >= 0)
                g->box_mask[g->edge_box[e][i]] |= (uint64_t)1 << e;
        for (int k = 0; k < g->nsym; k++) {
            int a = r1, b = c1, x = r2, y = c2;
            map_dot(k, rows, cols, &a, &b);
            map_dot(k, rows, cols, &x, &y);
            int to = edge_between(rows, cols, a, b, x, y);
            g->perm[k][e] = (uint8_t)to;
            g->inv[k][to] = (uint8_t)e;
        }
    }
    for (int b = 0; b < g->nboxes; b++)
        for (int i = 0, n = 0; i < g->nedges; i++)
            if (g->box_mask[b] >> i & 1)
                g->box_edge[b][n++] = (uint8_t)i;
    for (int b = 0; b < g->nboxes; b++) {
        uint64_t gm = 0;
        for (int i = 0; i < 4; i++) {
            int e = g->box_edge[b][i];
            if (g->edge_box[e][0] < 0 || g->edge_box[e][1] < 0)
                gm |= (uint64_t)1 << e;
        }
        if ((gm & (gm - 1)) == 0)
            continue; /* at most one border edge: nothing to swap */
        g->multi_mask[g->nmulti++] = gm;
        for (uint64_t m = gm; m; m &= m - 1)
            g->ground_of_edge[__builtin_ctzll(m)] = gm;
    }
    /* The two-edge groups first (a one-wide board has groups of three). */
    for (int i = 0; i < g->nmulti; i++) {
        uint64_t gm = g->multi_mask[i];
        if (__builtin_popcountll(gm) != 2)
            continue;
        g->multi_mask[i] = g->multi_mask[g->npairs];
        g->multi_mask[g->npairs] = gm;
        g->pair_lo[g->npairs] = (uint8_t)__builtin_ctzll(gm);
        g->pair_hi[g->npairs] = (uint8_t)(63 - __builtin_clzll(gm));
        g->npairs++;
    }
    for (int k = 0; k < g->nsym; k++)
        for (int byte = 0; byte < g->nbytes; byte++)
            for (int v = 0; v < 256; v++) {
                uint64_t img = 0;
                for (int bit = 0; bit < 8; bit++) {
                    int e = byte * 8 + bit;
                    if ((v >> bit & 1) && e < g->nedges)
                        img |= (uint64_t)1 << g->perm[k][e];
                }
                g->image[k][byte][v] = img;
            }
}

void tt_images(const bs_dots_solver *s, uint64_t edges, uint64_t *img)
{
    const struct geometry *g = &s->g;
    img[0] = edges;
    for (int k = 1; k < g->nsym; k++) {
        uint64_t x = 0;
        for (int byte = 0; byte < g->nbytes; byte++)
            x |= g->image[k][byte][(edges >> (8 * byte)) & 0xff];
        img[k] = x;
    }
}

uint64_t tt_pick(const bs_dots_solver *s, const uint64_t *img, int *sym, unsigned *stab)
{
    const struct geometry *g = &s->g;
    uint64_t x0 = g_normalize(g, img[0]), best = x0;
    *sym = 0;
    *stab = 1;
    for (int k = 1; k < g->nsym; k++) {
        uint64_t x = g_normalize(g, img[k]);
        if (x == x0)
            *stab |= 1u << k;
        if (x < best) {
            best = x;
            *sym = k;
        }
    }
    return best;
}

uint64_t tt_canonical(const bs_dots_solver *s, uint64_t edges, int *sym, unsigned *stab)
{
    uint64_t img[BS_DOTS_SOLVE_MAX_SYMS];
    tt_images(s, edges, img);
    return tt_pick(s, img, sym, stab);
}

/* A bijection of the key's nedges bits (xorshifts and odd multipliers,
 * all modulo 2^nedges): the low bits pick the bucket, the high ones are
 * the tag, and together they are the key. */
static uint64_t key_mix(const bs_dots_solver *s, uint64_t key)
{
    uint64_t m = s->key_mask, x = key;
    int a = s->key_shift, b = a - a / 3;
    x ^= x >> a;
    x = (x * 0xbf58476d1ce4e5b9ULL) & m;
    x ^= x >> b;
    x = (x * 0x94d049bb133111ebULL) & m;
    x ^= x >> a;
    return x;
}

static uint64_t *bucket_of(const bs_dots_solver *s, uint64_t h)
{
    return &s->tt[(size_t)(h & (s->tt_buckets - 1)) * TT_WAYS];
}

static uint64_t tag_of(const bs_dots_solver *s, uint64_t h)
{
    return (h >> s->tt_bucket_bits) << TT_TAG_SHIFT;
}

void tt_prefetch(const bs_dots_solver *s, uint64_t key)
{
    __builtin_prefetch(bucket_of(s, key_mix(s, key)));
}

#define TT_TAG_MASK (~(uint64_t)0 << TT_TAG_SHIFT)

int tt_probe(const bs_dots_solver *s, uint64_t key, int rem, struct tt_hit *hit)
{
    uint64_t h = key_mix(s, key), tag = tag_of(s, h), *b = bucket_of(s, h);
    for (int i = 0; i < TT_WAYS; i++) {
        uint64_t x = b[i];
        if ((x & TT_TAG_MASK) != tag || !(x >> 17 & 63))
            continue;
        hit->lo = 2 * (int)(x >> 11 & 63) - rem;
        hit->hi = 2 * ((int)(x >> 17 & 63) - 1) - rem;
        hit->move = (int)(x >> 5 & 63);
        return 1;
    }
    return 0;
}

static uint64_t log2_work(uint64_t n)
{
    uint64_t l = n ? (uint64_t)(64 - __builtin_clzll(n)) : 0;
    return l > 31 ? 31 : l;
}

/* Keep the entries that cost the most to compute: those save the most work. */
void tt_store(bs_dots_solver *s, uint64_t key, int rem, int lo, int hi, int move,
              uint64_t work)
{
    uint64_t h = key_mix(s, key), tag = tag_of(s, h), *b = bucket_of(s, h), *victim = &b[0];
    for (int i = 0; i < TT_WAYS; i++) {
        if ((b[i] & TT_TAG_MASK) == tag && (b[i] >> 17 & 63)) {
            victim = &b[i];
            break;
        }
        if ((b[i] & 31) < (*victim & 31))
            victim = &b[i];
    }
    /* Every value lies in [-rem, rem]: clamping keeps a bound true and
     * its code in 6 bits. */
    lo = lo < -rem ? -rem : lo > rem ? rem : lo;
    hi = hi > rem ? rem : hi < -rem ? -rem : hi;
    s->tt_dirty = 1;
    *victim = tag | (uint64_t)((hi + rem) / 2 + 1) << 17 | (uint64_t)((lo + rem) / 2) << 11
              | (uint64_t)(move < 0 ? 0 : move) << 5 | log2_work(work);
}

void tt_clear(bs_dots_solver *s)
{
    if (!s->tt_dirty)
        return;
    s->tt_dirty = 0;
    memset(s->tt, 0, s->tt_buckets * TT_WAYS * sizeof *s->tt);
}

int bs_dots_solver_new(bs_dots_solver **out, const bs_dots_solve_config *cfg)
{
    if (!out)
        return BS_EINVAL;
    *out = NULL;
    bs_dots_solver *s = calloc(1, sizeof *s);
    if (!s)
        return BS_ENOMEM;
    if (cfg)
        s->cfg = *cfg;
    size_t bytes = s->cfg.tt_bytes ? s->cfg.tt_bytes : DEFAULT_TT_BYTES;
    size_t buckets = 1, per = TT_WAYS * sizeof(uint64_t);
    while (buckets <= bytes / per / 2 && buckets < ((size_t)1 << 40))
        buckets <<= 1;
    /* huge pages from 64 MiB: a player's small tables stay lazy */
    s->tt = bs_table_alloc(buckets * TT_WAYS * sizeof *s->tt, (size_t)64 << 20);
    if (!s->tt) {
        free(s);
        return BS_ENOMEM;
    }
    s->tt_buckets = buckets;
    s->tt_bucket_bits = __builtin_ctzll((unsigned long long)buckets);
    *out = s;
    return BS_OK;
}

void bs_dots_solver_free(bs_dots_solver *s)
{
    if (!s)
        return;
    free(s->tt);
    free(s);
}
