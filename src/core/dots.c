/* dots.c - Dots and Boxes position: drawing, undo, queries and chain decomposition. */
#include "dots.h"

#include <stddef.h>
#include <string.h>

static int popcount64(uint64_t x)
{
    return __builtin_popcountll(x);
}

/* Callers may hand us a struct they never initialised or scribbled on, so
 * every entry point checks the geometry before trusting any field. */
static int valid(const bs_dots *d)
{
    return d && d->rows >= 1 && d->rows <= BS_DOTS_MAX_SIDE && d->cols >= 1
        && d->cols <= BS_DOTS_MAX_SIDE && d->nedges == 2 * d->rows * d->cols + d->rows + d->cols
        && d->nboxes == d->rows * d->cols && d->nhistory >= 0 && d->nhistory <= d->nedges
        && (d->turn == 0 || d->turn == 1);
}

static int is_drawn(const bs_dots *d, int e)
{
    return (int)((d->drawn[e >> 6] >> (e & 63)) & 1u);
}

static int n_horizontal(const bs_dots *d)
{
    return (d->rows + 1) * d->cols;
}

static void box_edges(const bs_dots *d, int box, int e[4])
{
    int r = box / d->cols, c = box % d->cols, h = n_horizontal(d);
    e[0] = r * d->cols + c;
    e[1] = (r + 1) * d->cols + c;
    e[2] = h + r * (d->cols + 1) + c;
    e[3] = e[2] + 1;
}

static int sides_of(const bs_dots *d, int box)
{
    int e[4], n = 0;
    box_edges(d, box, e);
    for (int i = 0; i < 4; i++)
        n += is_drawn(d, e[i]);
    return n;
}

static void boxes_of(const bs_dots *d, int e, int b[2])
{
    int h = n_horizontal(d);
    if (e < h) {
        int r = e / d->cols, c = e % d->cols;
        b[0] = r > 0 ? (r - 1) * d->cols + c : -1;
        b[1] = r < d->rows ? r * d->cols + c : -1;
    } else {
        int k = e - h, r = k / (d->cols + 1), c = k % (d->cols + 1);
        b[0] = c > 0 ? r * d->cols + c - 1 : -1;
        b[1] = c < d->cols ? r * d->cols + c : -1;
    }
}

int bs_dots_init(bs_dots *d, int rows, int cols)
{
    if (!d || rows < 1 || rows > BS_DOTS_MAX_SIDE || cols < 1 || cols > BS_DOTS_MAX_SIDE)
        return BS_EINVAL;
    memset(d, 0, sizeof *d);
    d->rows = rows;
    d->cols = cols;
    d->nboxes = rows * cols;
    d->nedges = 2 * rows * cols + rows + cols;
    memset(d->owner, BS_DOTS_NOBODY, sizeof d->owner);
    return BS_OK;
}

int bs_dots_edge_of_dots(const bs_dots *d, int r1, int c1, int r2, int c2, int *edge)
{
    if (!valid(d) || !edge)
        return BS_EINVAL;
    if (r1 < 0 || r1 > d->rows || r2 < 0 || r2 > d->rows || c1 < 0 || c1 > d->cols || c2 < 0
        || c2 > d->cols)
        return BS_EINVAL;
    if (r1 > r2 || (r1 == r2 && c1 > c2)) {
        int t = r1; r1 = r2; r2 = t;
        t = c1; c1 = c2; c2 = t;
    }
    if (r1 == r2 && c2 == c1 + 1)
        *edge = r1 * d->cols + c1;
    else if (c1 == c2 && r2 == r1 + 1)
        *edge = n_horizontal(d) + r1 * (d->cols + 1) + c1;
    else
        return BS_EINVAL;
    return BS_OK;
}

int bs_dots_dots_of_edge(const bs_dots *d, int edge, int *r1, int *c1, int *r2, int *c2)
{
    if (!valid(d) || edge < 0 || edge >= d->nedges || !r1 || !c1 || !r2 || !c2)
        return BS_EINVAL;
    int h = n_horizontal(d);
    if (edge < h) {
        *r1 = *r2 = edge / d->cols;
        *c1 = edge % d->cols;
        *c2 = *c1 + 1;
    } else {
        int k = edge - h;
        *r1 = k / (d->cols + 1);
        *r2 = *r1 + 1;
        *c1 = *c2 = k % (d->cols + 1);
    }
    return BS_OK;
}

int bs_dots_edge_boxes(const bs_dots *d, int edge, int boxes[2])
{
    if (!valid(d) || edge < 0 || edge >= d->nedges || !boxes)
        return BS_EINVAL;
    boxes_of(d, edge, boxes);
    return BS_OK;
}

int bs_dots_is_drawn(const bs_dots *d, int edge)
{
    if (!valid(d) || edge < 0 || edge >= d->nedges)
        return BS_EINVAL;
    return is_drawn(d, edge);
}

int bs_dots_box_sides(const bs_dots *d, int r, int c)
{
    if (!valid(d) || r < 0 || r >= d->rows || c < 0 || c >= d->cols)
        return BS_EINVAL;
    return sides_of(d, r * d->cols + c);
}

int bs_dots_dot_degree(const bs_dots *d, int r, int c)
{
    if (!valid(d) || r < 0 || r > d->rows || c < 0 || c > d->cols)
        return BS_EINVAL;
    int h = n_horizontal(d), n = 0;
    if (c < d->cols)
        n += !is_drawn(d, r * d->cols + c);
    if (c > 0)
        n += !is_drawn(d, r * d->cols + c - 1);
    if (r < d->rows)
        n += !is_drawn(d, h + r * (d->cols + 1) + c);
    if (r > 0)
        n += !is_drawn(d, h + (r - 1) * (d->cols + 1) + c);
    return n;
}

int bs_dots_open_count(const bs_dots *d)
{
    if (!valid(d))
        return BS_EINVAL;
    int n = 0;
    for (int w = 0; w < BS_DOTS_WORDS; w++)
        n += popcount64(d->drawn[w]);
    return d->nedges - n;
}

int bs_dots_is_finished(const bs_dots *d)
{
    int open = bs_dots_open_count(d);
    return open < 0 ? open : open == 0;
}

int bs_dots_box_owner(const bs_dots *d, int r, int c, int *owner)
{
    if (!valid(d) || r < 0 || r >= d->rows || c < 0 || c >= d->cols || !owner)
        return BS_EINVAL;
    *owner = d->owner[r * d->cols + c];
    return BS_OK;
}

int bs_dots_edge_effect(const bs_dots *d, int edge, int *completes, int *thirds)
{
    if (!valid(d) || edge < 0 || edge >= d->nedges)
        return BS_EINVAL;
    if (is_drawn(d, edge))
        return BS_EILLEGAL;
    int b[2], done = 0, third = 0;
    boxes_of(d, edge, b);
    for (int i = 0; i < 2; i++) {
        if (b[i] < 0)
            continue;
        int s = sides_of(d, b[i]);
        done += s == 3;
        third += s == 2;
    }
    if (completes)
        *completes = done;
    if (thirds)
        *thirds = third;
    return BS_OK;
}

int bs_dots_draw(bs_dots *d, int edge, int *completed)
{
    if (!valid(d) || edge < 0 || edge >= d->nedges)
        return BS_EINVAL;
    if (is_drawn(d, edge))
        return BS_EILLEGAL;
    int b[2], done = 0;
    d->drawn[edge >> 6] |= (uint64_t)1 << (edge & 63);
    boxes_of(d, edge, b);
    for (int i = 0; i < 2; i++) {
        if (b[i] >= 0 && sides_of(d, b[i]) == 4) {
            d->owner[b[i]] = (int8_t)d->turn;
            d->score[d->turn]++;
            done++;
        }
    }
    d->history[d->nhistory++] = (uint16_t)edge;
    if (done == 0)
        d->turn ^= 1;
    if (completed)
        *completed = done;
    return BS_OK;
}

int bs_dots_undo(bs_dots *d, int *edge)
{
    if (!valid(d))
        return BS_EINVAL;
    if (d->nhistory == 0)
        return BS_ESTATE;
    int e = d->history[d->nhistory - 1];
    if (e >= d->nedges || !is_drawn(d, e))
        return BS_ESTATE;
    int b[2], done = 0;
    boxes_of(d, e, b);
    /* The boxes this edge completed are exactly its full neighbours, and they
     * belong to whoever drew it: that fixes the previous turn too. */
    for (int i = 0; i < 2; i++)
        done += b[i] >= 0 && sides_of(d, b[i]) == 4;
    int mover = done ? d->turn : d->turn ^ 1;
    for (int i = 0; i < 2; i++) {
        if (b[i] >= 0 && sides_of(d, b[i]) == 4 && d->owner[b[i]] == mover) {
            d->owner[b[i]] = BS_DOTS_NOBODY;
            d->score[mover]--;
        }
    }
    d->drawn[e >> 6] &= ~((uint64_t)1 << (e & 63));
    d->turn = mover;
    d->nhistory--;
    if (edge)
        *edge = e;
    return BS_OK;
}

int bs_dots_open_edges(const bs_dots *d, int *out, int cap)
{
    if (!valid(d) || !out)
        return BS_EINVAL;
    int n = bs_dots_open_count(d);
    if (cap < n)
        return BS_EINVAL;
    n = 0;
    for (int e = 0; e < d->nedges; e++)
        if (!is_drawn(d, e))
            out[n++] = e;
    return n;
}

int bs_dots_open_set(const bs_dots *d, uint64_t out[BS_DOTS_WORDS])
{
    if (!valid(d) || !out)
        return BS_EINVAL;
    for (int w = 0; w < BS_DOTS_WORDS; w++) {
        int lo = w * 64, n = d->nedges - lo;
        uint64_t all = n >= 64 ? ~(uint64_t)0 : n <= 0 ? 0 : ((uint64_t)1 << n) - 1;
        out[w] = ~d->drawn[w] & all;
    }
    return BS_OK;
}

void bs_dots_clone(bs_dots *dst, const bs_dots *src)
{
    if (dst && src && dst != src)
        *dst = *src;
}

int bs_dots_equal(const bs_dots *a, const bs_dots *b)
{
    if (!valid(a) || !valid(b))
        return 0;
    if (a->rows != b->rows || a->cols != b->cols || a->turn != b->turn)
        return 0;
    return memcmp(a->drawn, b->drawn, sizeof a->drawn) == 0
        && memcmp(a->owner, b->owner, (size_t)a->nboxes) == 0;
}

uint64_t bs_dots_hash(const bs_dots *d)
{
    if (!valid(d))
        return 0;
    uint64_t h = bs_mix64(((uint64_t)d->rows << 8 | (uint64_t)d->cols) << 1 | (uint64_t)d->turn);
    for (int w = 0; w < BS_DOTS_WORDS; w++)
        h = bs_mix64(h ^ d->drawn[w]);
    /* Two bits per owner, so 32 boxes per word. */
    for (int b0 = 0; b0 < d->nboxes; b0 += 32) {
        uint64_t word = 0;
        for (int b = b0; b < d->nboxes && b < b0 + 32; b++)
            word |= (uint64_t)(d->owner[b] + 1) << (2 * (b - b0));
        h = bs_mix64(h ^ word);
    }
    return h;
}

/* The box across `e` from `box`, or -1 for the ground. */
static int across(const bs_dots *d, int box, int e)
{
    int b[2];
    boxes_of(d, e, b);
    return b[0] == box ? b[1] : b[0];
}

/* The open edge of a two-sided box other than `not`. */
static int other_open(const bs_dots *d, int box, int not_edge)
{
    int e[4];
    box_edges(d, box, e);
    for (int i = 0; i < 4; i++)
        if (e[i] != not_edge && !is_drawn(d, e[i]))
            return e[i];
    return -1;
}

/* Walk from `box` out through open edge `e` along two-sided boxes, marking
 * them; stops at the ground, another kind of box, or back at `start`. */
static int walk(const bs_dots *d, const int8_t *sides, int *mark, int id, int start, int box,
                int e, int *end_box, int *end_edge, int *last)
{
    int n = 0;
    for (;;) {
        int next = across(d, box, e);
        if (next == start) {
            *end_box = start;
            *end_edge = e;
            *last = box;
            return n;
        }
        if (next < 0 || sides[next] != 2) {
            *end_box = next;
            *end_edge = e;
            *last = box;
            return n;
        }
        mark[next] = id;
        n++;
        e = other_open(d, next, e);
        box = next;
    }
}

int bs_dots_chains(const bs_dots *d, bs_dots_chain *out, int cap, int *count, int *box_chain)
{
    if (!valid(d) || !out || !count || cap < 0)
        return BS_EINVAL;
    int8_t sides[BS_DOTS_MAX_BOXES];
    int mark[BS_DOTS_MAX_BOXES];
    for (int b = 0; b < d->nboxes; b++) {
        sides[b] = (int8_t)sides_of(d, b);
        mark[b] = -1;
    }
    int n = 0;
    for (int b = 0; b < d->nboxes; b++) {
        if (sides[b] != 2 || mark[b] >= 0)
            continue;
        if (n >= cap)
            return BS_EINVAL;
        bs_dots_chain *ch = &out[n];
        int e0 = other_open(d, b, -1), e1 = other_open(d, b, e0);
        int eb0, ee0, last0, eb1, ee1, last1;
        mark[b] = n;
        int len = 1 + walk(d, sides, mark, n, b, b, e0, &eb0, &ee0, &last0);
        if (eb0 == b) {
            ch->kind = BS_DOTS_LOOP;
            ch->length = len;
            ch->first_box = ch->last_box = b;
            ch->end_box[0] = ch->end_box[1] = -1;
            ch->end_edge[0] = ch->end_edge[1] = -1;
        } else {
            len += walk(d, sides, mark, n, b, b, e1, &eb1, &ee1, &last1);
            ch->kind = BS_DOTS_CHAIN;
            ch->length = len;
            ch->first_box = last0;
            ch->last_box = last1;
            ch->end_box[0] = eb0;
            ch->end_edge[0] = ee0;
            ch->end_box[1] = eb1;
            ch->end_edge[1] = ee1;
        }
        n++;
    }
    *count = n;
    if (box_chain)
        for (int b = 0; b < d->nboxes; b++)
            box_chain[b] = mark[b];
    return BS_OK;
}
