/* dots_solve_moves.c - the solver's move list: chain reductions, symmetry, ordering. */
#include "dots_solve_impl.h"

#include <string.h>

/* A component of two-sided boxes and the open edges ("strings") touching it. */
struct component {
    uint64_t strings;
    int length, nends, ends[2], internal;
};

static int lowest(uint64_t m)
{
    return __builtin_ctzll(m);
}

static void collect(const struct geometry *g, uint64_t open, const int8_t *sides, int start,
                    int8_t *seen, struct component *c)
{
    int stack[BS_DOTS_SOLVE_MAX_BOXES], top = 0;
    c->strings = 0;
    c->length = c->nends = 0;
    c->internal = -1;
    seen[start] = 1;
    stack[top++] = start;
    while (top) {
        int b = stack[--top];
        uint64_t m = g->box_mask[b] & open;
        c->length++;
        c->strings |= m;
        for (; m; m &= m - 1) {
            int e = lowest(m), o = g_across(g, b, e);
            if (o >= 0 && sides[o] == 2) {
                c->internal = e;
                if (!seen[o]) {
                    seen[o] = 1;
                    stack[top++] = o;
                }
            } else if (c->nends < 2) {
                c->ends[c->nends++] = o;
            }
        }
    }
}

/* Which strings of a component need trying. Cutting any string of a chain of
 * three or more gives the opponent the same choice (take all, or all but
 * two), and any string of a loop is like any other; in a chain of two the
 * middle string (the hard-hearted handout) leaves the opponent no decline
 * and so is never worse than an end. These hold when the two ends are
 * different boxes; when both ends are the same box, cutting one end changes
 * that box, so every string is kept. */
static uint64_t representatives(const struct component *c)
{
    if (c->nends == 0)
        return c->strings & -c->strings;
    int x = c->ends[0], y = c->ends[1];
    int distinct = x != y || x < 0;
    if (distinct && c->length >= 3)
        return c->strings & -c->strings;
    if (distinct && c->length == 2 && c->internal >= 0)
        return (uint64_t)1 << c->internal;
    if (c->length == 1 && x < 0 && y < 0)
        return c->strings & -c->strings;
    return c->strings;
}

int gen_moves(const bs_dots_solver *s, uint64_t edges, const int8_t *sides, unsigned stab,
              int *moves)
{
    const struct geometry *g = &s->g;
    uint64_t all = g->nedges == 64 ? ~(uint64_t)0 : ((uint64_t)1 << g->nedges) - 1;
    uint64_t open = ~edges & all, chained = 0, keep = 0;
    int8_t seen[BS_DOTS_SOLVE_MAX_BOXES] = {0};
    struct component comps[BS_DOTS_SOLVE_MAX_BOXES];
    int ncomp = 0;

    for (int b = 0; b < g->nboxes; b++) {
        if (sides[b] != 2 || seen[b])
            continue;
        collect(g, open, sides, b, seen, &comps[ncomp]);
        chained |= comps[ncomp].strings;
        keep |= representatives(&comps[ncomp]);
        ncomp++;
    }
    uint64_t safe = open & ~chained;
    keep |= safe;
    /* Interchangeable border edges of one box give the same position up to
     * ground-string swaps: the lowest open one stands for them all. */
    for (int i = 0; i < g->nmulti; i++) {
        uint64_t m = g->multi_mask[i] & open;
        if (keep & m)
            keep = (keep & ~m) | (m & -m);
    }

    /* In a position its own mirror image, a move and its image are the same
     * move; keep the smallest kept one of each orbit. The mirror image may
     * differ by ground-string swaps, so a border edge's image stands for the
     * lowest open border edge of its box. */
    if (stab != 1) {
        uint64_t drop = 0;
        for (uint64_t m = keep; m; m &= m - 1) {
            int e = lowest(m);
            for (int k = 1; k < g->nsym; k++) {
                if (!(stab >> k & 1))
                    continue;
                /* The image's box has as many open border edges here as
                 * the box of e has, so at least one. */
                int to = g->perm[k][e];
                if (g->ground_of_edge[to])
                    to = lowest(g->ground_of_edge[to] & open);
                if (to < e && (keep >> to & 1)) {
                    drop |= (uint64_t)1 << e;
                    break;
                }
            }
        }
        keep &= ~drop;
    }

    /* Safe moves first, central ones before border ones (measured: a third
     * of the nodes on 3x4), then those turning one-sided boxes into
     * two-sided ones, which use up the safe moves fastest. Sacrifices come
     * last, smallest first, since handing over little is the usual way to
     * keep control. */
    int n = 0;
    uint64_t score[BS_DOTS_SOLVE_MAX_EDGES];
    for (uint64_t m = keep & safe; m; m &= m - 1) {
        int e = lowest(m);
        uint64_t t = 0;
        for (int i = 0; i < 2; i++)
            t += g->edge_box[e][i] >= 0 && sides[g->edge_box[e][i]] == 1;
        uint64_t sc = (uint64_t)g->centrality[e] << 2 | (uint64_t)t;
        int j = n++;
        for (; j > 0 && score[j - 1] < sc; j--) {
            score[j] = score[j - 1];
            moves[j] = moves[j - 1];
        }
        score[j] = sc;
        moves[j] = e;
    }
    for (int len = 1; len <= g->nboxes; len++)
        for (int i = 0; i < ncomp; i++)
            if (comps[i].length == len)
                for (uint64_t m = keep & comps[i].strings; m; m &= m - 1)
                    moves[n++] = lowest(m);
    return n;
}

/* The loony endgame: every box left has two sides, so whatever is drawn
 * opens a chain or a loop. Its value depends only on the lengths of the
 * chains and loops, and follows from the chain theory: the opener of a
 * chain of n >= 3 boxes lets the opponent choose between taking all (n,
 * then the opponent moves on in the rest) and taking all but two (n - 2,
 * then handing two back: n - 4 and the opener moves on); for a loop all
 * but four (n - 8). A chain of one or two gives the opponent no choice
 * that pays (of a chain of two the middle is cut, the hard-hearted
 * handout). V(rest) comes from a recursion over subsets of the
 * components, memoised by bitmask; equal components are tried once. */
#define LOONY_MAX_COMPONENTS 12

struct loony {
    int n, len[LOONY_MAX_COMPONENTS];
    uint8_t loop[LOONY_MAX_COMPONENTS];
    int8_t memo[1 << LOONY_MAX_COMPONENTS];
};

static int loony_rec(struct loony *l, unsigned mask)
{
    if (mask == 0)
        return 0;
    if (l->memo[mask] != INT8_MIN)
        return l->memo[mask];
    int best = -128;
    for (int i = 0; i < l->n; i++) {
        if (!(mask >> i & 1))
            continue;
        if (i > 0 && (mask >> (i - 1) & 1) && l->len[i - 1] == l->len[i]
            && l->loop[i - 1] == l->loop[i])
            continue;
        int r = loony_rec(l, mask & ~(1u << i)), n = l->len[i], opp = n + r;
        int keep = l->loop[i] ? n - 8 - r : n >= 3 ? n - 4 - r : opp;
        if (keep > opp)
            opp = keep;
        if (-opp > best)
            best = -opp;
    }
    l->memo[mask] = (int8_t)best;
    return best;
}

int loony_value(const bs_dots_solver *s, uint64_t edges, const int8_t *sides, int *value)
{
    const struct geometry *g = &s->g;
    for (int b = 0; b < g->nboxes; b++)
        if (sides[b] != 2 && sides[b] != 4)
            return 0;
    uint64_t all = g->nedges == 64 ? ~(uint64_t)0 : ((uint64_t)1 << g->nedges) - 1;
    uint64_t open = ~edges & all;
    int8_t seen[BS_DOTS_SOLVE_MAX_BOXES] = {0};
    struct loony l;
    l.n = 0;
    for (int b = 0; b < g->nboxes; b++) {
        if (sides[b] != 2 || seen[b])
            continue;
        if (l.n == LOONY_MAX_COMPONENTS)
            return 0;
        struct component c;
        collect(g, open, sides, b, seen, &c);
        /* Sorted insert, so equal components sit side by side. */
        int j = l.n++, loop = c.nends == 0;
        for (; j > 0 && (l.len[j - 1] > c.length
                         || (l.len[j - 1] == c.length && l.loop[j - 1] > loop)); j--) {
            l.len[j] = l.len[j - 1];
            l.loop[j] = l.loop[j - 1];
        }
        l.len[j] = c.length;
        l.loop[j] = (uint8_t)loop;
    }
    memset(l.memo, INT8_MIN, (size_t)1 << l.n);
    *value = loony_rec(&l, (1u << l.n) - 1);
    return 1;
}
