/* dgame_end.c - described games: ends, no_move, status, score (contract section 1.3). */
#include <string.h>

#include "dgame_impl.h"

static int run_through(const dg_desc *d, const dg_state *s, int cell, int dir, int side)
{
    int len = 1;
    unsigned bit = DG_CLS_SIDE(side);
    const int16_t *nb = d->nb;
    for (int c = nb[cell * 8 + dir]; c >= 0 && (d->cls[s->cell[c]] & bit); c = nb[c * 8 + dir])
        len++;
    int back = (dir + 4) & 7;
    for (int c = nb[cell * 8 + back]; c >= 0 && (d->cls[s->cell[c]] & bit); c = nb[c * 8 + back])
        len++;
    return len;
}

/* line: at least k, through the cells the move made the mover's (every
 * cell it holds at its first move: a run left in the setup); exactly k:
 * every run of the mover's pieces (a move can also shorten runs). On one
 * word where only a side's own moves add its pieces (no flips or convert),
 * a run of the mover's anywhere on the board is one this move made (an
 * older one ended the game at the move that made it, or is the setup's, at
 * the first move): the whole board is tested, every axis by dg_runs. */
static int line_fires(const dg_desc *d, const dg_state *s, int e, int mover, int from)
{
    const dg_end_spec *es = &d->spec.ends[e];
    int na = d->nline_dirs[e];
    if (d->line_bb[e] && (from < 0 || d->line_whole)) { /* every run of the mover's, one word */
        uint64_t b = s->occ[mover - 1][0], any = 0;
        for (int a = 0; a < na; a++)
            any |= dg_runs(b, d->line_shift[e][a], es->k) & d->line_start[e][a];
        return any != 0;
    }
    if (d->line_bb[e]) { /* the windows through the cells the move made the mover's */
        uint64_t b = s->occ[mover - 1][0];
        const uint64_t *win = d->line_win[e];
        const uint16_t *off = d->line_woff[e];
        for (int l = from; l < s->log_top; l++) {
            int c = s->log[l].cell;
            if (!(b >> c & 1))
                continue;
            for (int i = off[c]; i < off[c + 1]; i++)
                if ((b & win[i]) == win[i])
                    return 1;
        }
        return 0;
    }
    if (!es->exact && from < 0) { /* the mover's first move: every cell it holds */
        for (int w = 0; w < d->nwords; w++)
            for (uint64_t x = s->occ[mover - 1][w]; x; x &= x - 1)
                for (int a = 0; a < na; a++)
                    if (run_through(d, s, w * 64 + __builtin_ctzll(x), d->line_dirs[e][a], mover) >= es->k)
                        return 1;
        return 0;
    }
    if (!es->exact) {
        for (int l = from; l < s->log_top; l++) {
            int c = s->log[l].cell;
            if (dg_side_of(s->cell[c]) != mover)
                continue;
            for (int a = 0; a < na; a++)
                if (run_through(d, s, c, d->line_dirs[e][a], mover) >= es->k)
                    return 1;
        }
        return 0;
    }
    int nw = d->nwords;
    for (int w = 0; w < nw; w++)
        for (uint64_t x = s->occ[mover - 1][w]; x; x &= x - 1) {
            int c = w * 64 + __builtin_ctzll(x);
            for (int a = 0; a < na; a++) {
                int dir = d->line_dirs[e][a], prev = d->nb[c * 8 + ((dir + 4) & 7)];
                if (prev >= 0 && dg_side_of(s->cell[prev]) == mover)
                    continue;
                int len = 1;
                for (int t = d->nb[c * 8 + dir]; t >= 0 && dg_side_of(s->cell[t]) == mover; t = d->nb[t * 8 + dir])
                    len++;
                if (len == es->k)
                    return 1;
            }
        }
    return 0;
}

/* connect: a group through a cell the move made the mover's touching both
 * edges (a flood fill over the mover's cells, a word of neighbours at a
 * time); at the mover's first move any group (a connection left in the setup). */
static int connect_fires(const dg_desc *d, const dg_state *s, int e, int mover, int from)
{
    const dg_end_spec *es = &d->spec.ends[e];
    uint64_t seen[DG_WORDS];
    int16_t stack[DG_MAX_CELLS];
    int nw = d->nwords;
    const uint64_t *mine = s->occ[mover - 1], *m1 = d->edge[es->edges[mover - 1][0]].w,
                   *m2 = d->edge[es->edges[mover - 1][1]].w, *nb = d->connect_nb[e];
    int on1 = 0, on2 = 0;
    for (int w = 0; w < nw; w++) {
        on1 |= (mine[w] & m1[w]) != 0;
        on2 |= (mine[w] & m2[w]) != 0;
    }
    if (!on1 || !on2) /* no stone on one of the edges: no group joins them */
        return 0;
    if (from < 0) { /* the mover's first move: one fill from all its cells on the first edge */
        int sp = 0;
        for (int w = 0; w < nw; w++) {
            seen[w] = mine[w] & m1[w];
            for (uint64_t x = seen[w]; x; x &= x - 1)
                stack[sp++] = (int16_t)(w * 64 + __builtin_ctzll(x));
        }
        while (sp) {
            const uint64_t *n = nb + stack[--sp] * nw;
            for (int w = 0; w < nw; w++) {
                uint64_t x = n[w] & mine[w] & ~seen[w];
                seen[w] |= x;
                for (; x; x &= x - 1)
                    stack[sp++] = (int16_t)(w * 64 + __builtin_ctzll(x));
            }
        }
        for (int w = 0; w < nw; w++)
            if (seen[w] & m2[w])
                return 1;
        return 0;
    }
    for (int l = from; l < s->log_top; l++) {
        int start = s->log[l].cell, sp = 0;
        if (!(d->cls[s->cell[start]] & DG_CLS_SIDE(mover)))
            continue;
        memset(seen, 0, sizeof seen[0] * (size_t)nw);
        seen[start >> 6] |= 1ULL << (start & 63);
        stack[sp++] = (int16_t)start;
        while (sp) {
            const uint64_t *n = nb + stack[--sp] * nw;
            for (int w = 0; w < nw; w++) {
                uint64_t x = n[w] & mine[w] & ~seen[w];
                seen[w] |= x;
                for (; x; x &= x - 1)
                    stack[sp++] = (int16_t)(w * 64 + __builtin_ctzll(x));
            }
        }
        int t1 = 0, t2 = 0;
        for (int w = 0; w < nw; w++) {
            t1 |= (seen[w] & m1[w]) != 0;
            t2 |= (seen[w] & m2[w]) != 0;
        }
        if (t1 && t2)
            return 1;
    }
    return 0;
}

static int reach_fires(const dg_desc *d, const dg_state *s, int e, int mover)
{
    const dg_end_spec *es = &d->spec.ends[e];
    int nw = d->nwords, all = es->kinds == (1u << d->spec.nkinds) - 1;
    for (int w = 0; w < nw; w++) {
        uint64_t x = s->occ[mover - 1][w] & es->zone[mover - 1].w[w];
        if (all && x)
            return 1;
        for (; x; x &= x - 1)
            if (es->kinds >> dg_kind_of(s->cell[w * 64 + __builtin_ctzll(x)]) & 1)
                return 1;
    }
    return 0;
}

static void decide_by_score(const dg_desc *d, dg_state *s)
{
    int sc[2];
    dg_score_raw(d, s, sc);
    s->status = sc[0] > sc[1] ? DG_WON_BLACK : sc[1] > sc[0] ? DG_WON_WHITE : DG_DRAW;
    s->how = DG_HOW_SCORE;
}

static void decide(const dg_desc *d, dg_state *s, int result)
{
    if (result == DG_RESULT_DRAW) {
        s->status = DG_DRAW;
        s->how = DG_HOW_DRAW;
    } else {
        decide_by_score(d, s);
    }
}

void dg_update_status(const dg_desc *d, dg_state *s, int mover, int from)
{
    s->status = DG_ONGOING;
    s->how = DG_HOW_NONE;
    s->nomove = -1;
    if (d->quick && s->nempty > 0 && s->ply < d->quick_plies) {
        /* only lines can end it here (the quick playout loop's reasoning):
         * the whole board at once, whatever the ends' order */
        if (dg_quick_line(d, s->occ[mover - 1][0])) {
            s->status = mover;
            s->how = DG_HOW_WIN;
        }
        return;
    }
    for (int e = 0; e < d->spec.nends; e++) {
        const dg_end_spec *es = &d->spec.ends[e];
        int win = 0;
        switch (es->op) {
        case DG_END_LINE: win = line_fires(d, s, e, mover, from); break;
        case DG_END_CONNECT: win = connect_fires(d, s, e, mover, from); break;
        case DG_END_REACH: win = reach_fires(d, s, e, mover); break;
        case DG_END_NO_PIECES: win = s->count[2 - mover] == 0; break;
        case DG_END_FULL:
            if (s->nempty == 0) {
                decide(d, s, es->result);
                return;
            }
            break;
        default:
            if (s->ply >= es->n) {
                decide(d, s, es->result);
                return;
            }
            break;
        }
        if (win) {
            s->status = mover;
            s->how = DG_HOW_WIN;
            return;
        }
    }
}

void dg_set_nomove(const dg_desc *d, dg_state *s, int none)
{
    s->nomove = none;
    if (!none || s->status != DG_ONGOING)
        return;
    switch (d->spec.no_move) {
    case DG_NOMOVE_LOSE:
        s->status = 3 - s->player;
        s->how = DG_HOW_WIN;
        break;
    case DG_NOMOVE_DRAW:
        s->status = DG_DRAW;
        s->how = DG_HOW_DRAW;
        break;
    case DG_NOMOVE_SCORE: decide_by_score(d, s); break;
    default: break; /* pass: the side must pass */
    }
}

int dg_resolve_nomove(const dg_desc *d, dg_state *s)
{
    if (s->status != DG_ONGOING)
        return s->nomove > 0;
    if (s->nomove < 0)
        dg_set_nomove(d, s, !dg_has_move(d, s));
    return s->nomove;
}

static void territory(const dg_desc *d, const dg_state *s, int out[2])
{
    uint64_t seen[DG_WORDS];
    int16_t stack[DG_MAX_CELLS];
    static const int orth[4] = { 0, 2, 4, 6 };
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < d->ncells; i++) {
        if (s->cell[i] != 0 || dg_bit(seen, i))
            continue;
        int sp = 0, size = 0, border = 0;
        seen[i >> 6] |= 1ULL << (i & 63);
        stack[sp++] = (int16_t)i;
        while (sp) {
            int c = stack[--sp];
            size++;
            for (int j = 0; j < 4; j++) {
                int t = d->nb[c * 8 + orth[j]];
                if (t < 0)
                    continue;
                if (s->cell[t] == 0) {
                    if (!dg_bit(seen, t)) {
                        seen[t >> 6] |= 1ULL << (t & 63);
                        stack[sp++] = (int16_t)t;
                    }
                } else {
                    border |= dg_side_of(s->cell[t]);
                }
            }
        }
        if (border == 1 || border == 2)
            out[border - 1] += size;
    }
}

void dg_score_raw(const dg_desc *d, const dg_state *s, int out[2])
{
    out[0] = out[1] = 0;
    if (d->spec.score == DG_SCORE_NONE)
        return;
    out[0] = s->count[0];
    out[1] = s->count[1];
    if (d->spec.score == DG_SCORE_TERRITORY)
        territory(d, s, out);
}

void dg_score(const dg_desc *d, const dg_state *s, int out[2])
{
    int st = dg_status(d, s);
    if (s->how == DG_HOW_WIN) {
        out[0] = st == DG_WON_BLACK;
        out[1] = st == DG_WON_WHITE;
    } else if (s->how == DG_HOW_DRAW) {
        out[0] = out[1] = 0;
    } else {
        dg_score_raw(d, s, out);
    }
}
