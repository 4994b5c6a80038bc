/* eval_hand.c - the hand-written evaluation: discs, mobility, potential mobility, corners, stability, parity. */
#include "search_impl.h"

#include <string.h>

/* ---- the evaluation ---- */

bs_eval_weights bs_eval_default_weights(void)
{
    bs_eval_weights w = {.discs = 10, .mobility = 60, .potential = 20, .corners = 400,
                         .corner_adj = -150, .stable = 100, .parity = 50};
    return w;
}

static bool wall(const bs_board *b, int r, int c)
{
    return r < 0 || c < 0 || r >= b->n || c >= b->n || (b->plane[2][r] >> c & 1u);
}

void bs_shape_compute(shape *sh, const bs_board *b)
{
    static const int AXIS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int n = b->n;
    memset(sh, 0, sizeof *sh);
    sh->n = n;
    memcpy(sh->blocks, b->plane[2], sizeof sh->blocks);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            if (wall(b, r, c))
                continue;
            bool anchored = true;
            for (int a = 0; a < 4 && anchored; a++)
                anchored = wall(b, r + AXIS[a][0], c + AXIS[a][1]) || wall(b, r - AXIS[a][0], c - AXIS[a][1]);
            if (anchored)
                sh->anchored[r] |= 1u << c;
        }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (sh->anchored[r] >> c & 1u)
                for (int dr = -1; dr <= 1; dr++)
                    for (int dc = -1; dc <= 1; dc++)
                        if ((dr || dc) && !wall(b, r + dr, c + dc) && !(sh->anchored[r + dr] >> (c + dc) & 1u))
                            sh->near[r + dr] |= 1u << (c + dc);
}

static int popcount_rows(const uint32_t *rows, int n)
{
    int total = 0;
    for (int r = 0; r < n; r++)
        total += __builtin_popcount(rows[r]);
    return total;
}

/* The 8-neighbourhood of a set of cells (the cells themselves excluded unless
 * they neighbour another). */
static void dilate(const uint32_t *in, uint32_t *out, int n)
{
    uint32_t full = bs_row_mask(n);
    memset(out, 0, sizeof(uint32_t) * (size_t)n);
    for (int r = 0; r < n; r++) {
        uint32_t x = in[r], side = ((x << 1) | (x >> 1)) & full;
        out[r] |= side;
        if (r > 0)
            out[r - 1] |= (x | side) & full;
        if (r + 1 < n)
            out[r + 1] |= (x | side) & full;
    }
}

/* Discs of `mine` that can no longer be flipped: on each of the four axes a
 * wall or a stable disc of the same colour on one side (a fixpoint, from none). */
static int stable_discs(const uint32_t *mine, const uint32_t *blocks, int n)
{
    uint32_t stable[BS_MAX_N] = {0}, solid[BS_MAX_N];
    uint32_t full = bs_row_mask(n), first = 1u, last = 1u << (n - 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (int r = 0; r < n; r++)
            solid[r] = stable[r] | blocks[r];
        for (int r = 0; r < n; r++) {
            uint32_t up = r == 0 ? full : solid[r - 1], down = r == n - 1 ? full : solid[r + 1];
            uint32_t horizontal = (solid[r] >> 1) | last | (solid[r] << 1) | first;
            uint32_t vertical = up | down;
            uint32_t diagonal = (r == 0 ? full : ((solid[r - 1] << 1) | first)) |
                                (r == n - 1 ? full : ((solid[r + 1] >> 1) | last));
            uint32_t anti = (r == 0 ? full : ((solid[r - 1] >> 1) | last)) |
                            (r == n - 1 ? full : ((solid[r + 1] << 1) | first));
            uint32_t now = mine[r] & horizontal & vertical & diagonal & anti & full;
            if (now & ~stable[r]) {
                stable[r] |= now;
                changed = true;
            }
        }
    }
    return popcount_rows(stable, n);
}

int bs_evaluate_with(const bs_game *g, const bs_state *s, const bs_eval_weights *w, const shape *sh)
{
    const bs_board *b = &s->board;
    int n = b->n, me = s->player, op = bs_opponent(me);
    const uint32_t *mine = b->plane[me - 1], *theirs = b->plane[op - 1];
    uint32_t empty[BS_MAX_N];
    for (int r = 0; r < n; r++)
        empty[r] = ~(mine[r] | theirs[r] | b->plane[2][r]) & bs_row_mask(n);
    int sign = g->misere ? -1 : 1, value = 0;
    if (w->discs)
        value += sign * w->discs * (popcount_rows(mine, n) - popcount_rows(theirs, n));
    if (w->mobility && g->legal_dirs) {
        bs_set m1, m2;
        bs_capture_moves(b, me, g->legal_dirs, &m1);
        bs_capture_moves(b, op, g->legal_dirs, &m2);
        value += w->mobility * (bs_set_count(&m1) - bs_set_count(&m2));
    }
    if (w->potential) {
        uint32_t near_theirs[BS_MAX_N], near_mine[BS_MAX_N];
        dilate(theirs, near_theirs, n);
        dilate(mine, near_mine, n);
        int own = 0, other = 0;
        for (int r = 0; r < n; r++) {
            own += __builtin_popcount(near_theirs[r] & empty[r]);
            other += __builtin_popcount(near_mine[r] & empty[r]);
        }
        value += w->potential * (own - other);
    }
    if (w->corners || w->corner_adj) {
        int corners = 0, adj = 0;
        uint32_t open_near[BS_MAX_N];
        uint32_t open_anchored[BS_MAX_N];
        for (int r = 0; r < n; r++)
            open_anchored[r] = sh->anchored[r] & empty[r];
        dilate(open_anchored, open_near, n);
        for (int r = 0; r < n; r++) {
            corners += __builtin_popcount(sh->anchored[r] & mine[r]) - __builtin_popcount(sh->anchored[r] & theirs[r]);
            uint32_t risky = open_near[r] & sh->near[r];
            adj += __builtin_popcount(risky & mine[r]) - __builtin_popcount(risky & theirs[r]);
        }
        value += sign * (w->corners * corners + w->corner_adj * adj);
    }
    if (w->stable)
        value += sign * w->stable * (stable_discs(mine, b->plane[2], n) - stable_discs(theirs, b->plane[2], n));
    if (w->parity && (popcount_rows(empty, n) & 1))
        value += w->parity;
    if (value >= BS_WIN)
        value = BS_WIN - 1;
    if (value <= -BS_WIN)
        value = -BS_WIN + 1;
    return value;
}

int bs_evaluate(const bs_game *g, const bs_state *s, const bs_eval_weights *w)
{
    if (state_check(g, s) != BS_OK || !w)
        return 0;
    shape sh;
    bs_shape_compute(&sh, &s->board);
    return bs_evaluate_with(g, s, w, &sh);
}
