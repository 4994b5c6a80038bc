/* dgame_moves.c - described games: legal move generation in contract order (section 1.5). */
#include "dgame_impl.h"

typedef struct gen {
    const dg_desc *d;
    const dg_state *s;
    dg_move *out;
    int n, cap, probe;
} gen;

/* Adds a move: 0 to go on, 1 when probing (found one: stop), DG_EOVERFLOW. */
#define EMIT(g, m)                                                                                               \
    do {                                                                                                         \
        if ((g)->probe)                                                                                          \
            return 1;                                                                                            \
        if ((g)->n >= (g)->cap)                                                                                  \
            return DG_EOVERFLOW;                                                                                 \
        (g)->out[(g)->n++] = (m);                                                                                \
    } while (0)

#define FOR_BITS(words, nw, i)                                                                                   \
    for (int w_ = 0; w_ < (nw); w_++)                                                                            \
        for (uint64_t x_ = (words)[w_]; x_ && ((i) = w_ * 64 + __builtin_ctzll(x_), 1); x_ &= x_ - 1)

static inline dg_move mv(int o, int t, int r) { return (dg_move)o | (dg_move)t << 10 | (dg_move)r << 20; }

static int flips_any(const dg_desc *d, const dg_state *s, const dg_rule *ru, int side, int cell)
{
    for (int j = 0; j < ru->nf[side - 1]; j++) {
        int dir = ru->fdir[side - 1][j], c = d->nb[cell * 8 + dir], n = 0;
        while (c >= 0 && dg_side_of(s->cell[c]) == 3 - side) {
            c = d->nb[c * 8 + dir];
            n++;
        }
        if (n && c >= 0 && dg_side_of(s->cell[c]) == side)
            return 1;
    }
    return 0;
}

static int gen_place(gen *g, int r, int side)
{
    const dg_desc *d = g->d;
    const dg_state *s = g->s;
    const dg_rule *ru = &d->rules[r];
    int nw = d->nwords, i;
    if (ru->spec->at == DG_AT_COLUMN) {
        int n = g->n, cap = g->cap, cols = d->cols, flips = ru->spec->has_flips;
        dg_move base = mv((int)DG_NONE_CELL, 0, r);
        for (int col = 0; col < cols; col++) {
            if (s->cell[col] != 0)
                continue;
            /* the landing: above the first occupied cell below the top, or the bottom */
            int c = d->ncells - cols + col;
            if (nw == 1) {
                uint64_t x = ~s->empty[0] & d->colmask[col].w[0];
                c = x ? __builtin_ctzll(x) - cols : c;
            } else {
                for (int w = 0; w < nw; w++) {
                    uint64_t x = ~s->empty[w] & d->colmask[col].w[w];
                    if (x) {
                        c = w * 64 + __builtin_ctzll(x) - cols;
                        break;
                    }
                }
            }
            if (flips && !flips_any(d, s, ru, side, c))
                continue;
            if (n >= cap) {
                g->n = n;
                return g->probe ? 1 : DG_EOVERFLOW;
            }
            g->out[n++] = base | (dg_move)c << 10;
        }
        g->n = n;
        return 0;
    }
    int adjacent = ru->spec->at == DG_AT_ADJACENT, flips = ru->spec->has_flips;
    if (!adjacent && !flips) { /* every empty cell: Gomoku, Hex */
        int n = g->n, cap = g->cap;
        dg_move base = mv((int)DG_NONE_CELL, 0, r), *out = g->out;
        for (int w = 0; w < nw; w++)
            for (uint64_t x = s->empty[w]; x; x &= x - 1) {
                if (n >= cap) {
                    g->n = n;
                    return g->probe ? 1 : DG_EOVERFLOW;
                }
                out[n++] = base | (dg_move)(w * 64 + __builtin_ctzll(x)) << 10;
            }
        g->n = n;
        return 0;
    }
    const uint64_t *mine = s->occ[side - 1];
    FOR_BITS(s->empty, nw, i) {
        if (adjacent) {
            int ok = 0;
            for (int j = 0; j < ru->n[side - 1] && !ok; j++) {
                int t = d->nb[i * 8 + ru->dir[side - 1][j]];
                ok = t >= 0 && dg_bit(mine, t);
            }
            if (!ok)
                continue;
        }
        if (flips && !flips_any(d, s, ru, side, i))
            continue;
        EMIT(g, mv((int)DG_NONE_CELL, i, r));
    }
    return 0;
}

/* The arrows after a slide from o to l. */
static int gen_arrows(gen *g, const dg_rule *ru, int r, int side, int o, int l)
{
    const dg_desc *d = g->d;
    const uint8_t *cell = g->s->cell;
    const int16_t *nb = d->nb;
    int vacated = ru->spec->leave ? -1 : o, n = g->n, cap = g->cap;
    dg_move base = mv(o, l, r), *out = g->out;
    for (int j = 0; j < ru->na[side - 1]; j++) {
        int dir = ru->adir[side - 1][j];
        for (int c = nb[l * 8 + dir]; c >= 0 && (cell[c] == 0 || c == vacated); c = nb[c * 8 + dir]) {
            if (n >= cap) {
                g->n = n;
                return g->probe ? 1 : DG_EOVERFLOW;
            }
            out[n++] = base | (dg_move)c << 29;
        }
    }
    g->n = n;
    return 0;
}

/* A step or a leap: one target per offset; the inner loop of most games. */
static int gen_step(gen *g, int r, int side)
{
    const dg_desc *d = g->d;
    const dg_state *s = g->s;
    const dg_rule *ru = &d->rules[r];
    const dg_rule_spec *rs = ru->spec;
    int nw = d->nwords, i, nn = ru->n[side - 1], n = g->n, cap = g->cap;
    unsigned ok = (rs->to != DG_TO_ENEMY ? DG_CLS_EMPTY : 0) | (rs->to != DG_TO_EMPTY ? DG_CLS_SIDE(3 - side) : 0);
    unsigned kinds = rs->kinds, all = kinds == (1u << d->spec.nkinds) - 1;
    const int16_t *tgt = ru->tgt[side - 1];
    const uint8_t *cell = s->cell, *cls = d->cls;
    dg_move *out = g->out, base = (dg_move)r << 20;
    FOR_BITS(s->occ[side - 1], nw, i) {
        if (!all && !(kinds >> dg_kind_of(cell[i]) & 1))
            continue;
        const int16_t *row = tgt + i * nn;
        for (int j = 0; j < nn; j++) {
            int t = row[j];
            if (cls[cell[t]] & ok) {
                if (n >= cap) {
                    g->n = n;
                    return g->probe ? 1 : DG_EOVERFLOW;
                }
                out[n++] = base | (dg_move)i | (dg_move)t << 10;
            }
        }
    }
    g->n = n;
    return 0;
}

static int gen_slide(gen *g, int r, int side)
{
    const dg_desc *d = g->d;
    const dg_state *s = g->s;
    const dg_rule *ru = &d->rules[r];
    const dg_rule_spec *rs = ru->spec;
    int nw = d->nwords, i, n = ru->n[side - 1];
    int to_empty = rs->to != DG_TO_ENEMY, to_enemy = rs->to != DG_TO_EMPTY;
    const int16_t *tgt = ru->tgt[side - 1];
    FOR_BITS(s->occ[side - 1], nw, i) {
        if (!(rs->kinds >> dg_kind_of(s->cell[i]) & 1))
            continue;
        for (int j = 0; j < n; j++) {
            int t = tgt[i * n + j], rc;
            for (; s->cell[t] == 0; t = tgt[t * n + j]) {
                if (!to_empty)
                    continue;
                if (rs->has_arrow) {
                    if ((rc = gen_arrows(g, ru, r, side, i, t)) != 0)
                        return rc;
                } else {
                    EMIT(g, mv(i, t, r));
                }
            }
            if (!to_enemy || !(d->cls[s->cell[t]] & DG_CLS_SIDE(3 - side)))
                continue;
            if (rs->has_arrow) {
                if ((rc = gen_arrows(g, ru, r, side, i, t)) != 0)
                    return rc;
            } else {
                EMIT(g, mv(i, t, r));
            }
        }
    }
    return 0;
}

typedef struct hop_path {
    int o, r, side, chain;
    unsigned code;
    int caps[DG_MAX_HOPS];
} hop_path;

static int hop_dfs(gen *g, const dg_rule *ru, hop_path *p, int cur, int depth, uint64_t dirbits)
{
    const dg_desc *d = g->d;
    const dg_state *s = g->s;
    int side = p->side, any = 0;
    if (depth < DG_MAX_HOPS && (depth == 0 || p->chain)) {
        for (int j = 0; j < ru->n[side - 1]; j++) {
            int dir = ru->dir[side - 1][j], over = d->nb[cur * 8 + dir];
            if (over < 0 || dg_side_of(s->cell[over]) != 3 - side)
                continue;
            int land = d->nb[over * 8 + dir], seen = 0;
            if (land < 0 || (s->cell[land] != 0 && land != p->o))
                continue;
            for (int k = 0; k < depth && !seen; k++)
                seen = p->caps[k] == over;
            if (seen)
                continue;
            any = 1;
            p->caps[depth] = over;
            uint64_t bits = dirbits | (uint64_t)dir << (3 * depth);
            int rc;
            if (p->chain && dg_promoted(d, p->code, land) != p->code) {
                EMIT(g, mv(p->o, land, p->r) | (dg_move)(depth + 1) << 25 | bits << 29);
                continue;
            }
            rc = hop_dfs(g, ru, p, land, depth + 1, bits);
            if (rc)
                return rc;
        }
    }
    if (!any && depth > 0)
        EMIT(g, mv(p->o, cur, p->r) | (dg_move)depth << 25 | dirbits << 29);
    return 0;
}

static int gen_hop(gen *g, int r, int side)
{
    const dg_desc *d = g->d;
    const dg_state *s = g->s;
    const dg_rule *ru = &d->rules[r];
    int nw = d->nwords, i;
    hop_path p;
    p.r = r;
    p.side = side;
    p.chain = ru->spec->chain;
    FOR_BITS(s->occ[side - 1], nw, i) {
        if (!(ru->spec->kinds >> dg_kind_of(s->cell[i]) & 1))
            continue;
        p.o = i;
        p.code = s->cell[i];
        int rc = hop_dfs(g, ru, &p, i, 0, 0);
        if (rc)
            return rc;
    }
    return 0;
}

int dg_is_capture(const dg_desc *d, const dg_state *s, dg_move m)
{
    unsigned r = (unsigned)(m >> 20 & 31);
    if (r == DG_SWAP_RULE)
        return 0;
    int op = d->rules[r].spec->op;
    if (op == DG_OP_HOP)
        return 1;
    return op != DG_OP_PLACE && dg_side_of(s->cell[m >> 10 & 1023]) == 3 - s->player;
}

int dg_move_captures(const dg_desc *d, const dg_state *s, dg_move m)
{
    return dg_is_capture(d, s, m);
}

static int swap_open(const dg_desc *d, const dg_state *s)
{
    return d->spec.swap && s->ply == 1 && s->passes == 0 && s->player != d->spec.first &&
           s->count[d->spec.first - 1] == 1;
}

int dg_generate(const dg_desc *d, const dg_state *s, dg_move *out, int cap, int probe)
{
    gen g = { d, s, out, 0, cap, probe };
    int side = s->player;
    for (int r = 0; r < d->spec.nrules; r++) {
        int op = d->rules[r].spec->op, rc;
        rc = op == DG_OP_PLACE ? gen_place(&g, r, side)
             : op == DG_OP_HOP ? gen_hop(&g, r, side)
             : op == DG_OP_SLIDE ? gen_slide(&g, r, side)
                                 : gen_step(&g, r, side);
        if (rc)
            return rc;
    }
    if (d->spec.must_capture && g.n) {
        int k = 0;
        for (int i = 0; i < g.n; i++)
            if (dg_is_capture(d, s, out[i]))
                out[k++] = out[i];
        if (k)
            g.n = k;
    }
    if (swap_open(d, s))
        EMIT(&g, mv((int)DG_NONE_CELL, (int)DG_NONE_CELL, (int)DG_SWAP_RULE));
    return g.n;
}

int dg_has_move(const dg_desc *d, const dg_state *s)
{
    return dg_generate(d, s, NULL, 0, 1) != 0;
}

int dg_moves(const dg_desc *d, const dg_state *s, dg_move *out, int cap)
{
    if (s->status != DG_ONGOING)
        return 0;
    int n = dg_generate(d, s, out, cap, 0);
    if (n >= 0)
        dg_set_nomove(d, (dg_state *)s, n == 0); /* the state's cache */
    return s->status != DG_ONGOING ? 0 : n;
}

int dg_is_legal(const dg_desc *d, const dg_state *s, dg_move m)
{
    if (s->status != DG_ONGOING)
        return 0;
    dg_move buf[DG_MOVES_MAX];
    int n = dg_generate(d, s, buf, DG_MOVES_MAX, 0);
    for (int i = 0; i < n; i++)
        if (buf[i] == m)
            return 1;
    return 0;
}

int dg_count_moves(const dg_desc *d, const dg_state *s)
{
    int side = s->player, count = 0;
    uint64_t mine = s->occ[side - 1][0], empty = s->empty[0], enemy = s->occ[2 - side][0];
    for (int r = 0; r < d->spec.nrules; r++) {
        const dg_rule *ru = &d->rules[r];
        const dg_rule_spec *rs = ru->spec;
        if (rs->op == DG_OP_PLACE) {
            if (rs->at == DG_AT_EMPTY) {
                count += __builtin_popcountll(empty);
            } else {
                for (int col = 0; col < d->cols; col++)
                    count += s->cell[col] == 0;
            }
            continue;
        }
        uint64_t ok = (rs->to != DG_TO_ENEMY ? empty : 0) | (rs->to != DG_TO_EMPTY ? enemy : 0);
        for (int j = 0; j < ru->n[side - 1]; j++) {
            uint64_t from = mine & ru->src[side - 1][j];
            int delta = ru->delta[side - 1][j]; /* |delta| < 64 whenever from is not 0 */
            if (!from)
                continue;
            count += __builtin_popcountll((delta > 0 ? from << delta : from >> -delta) & ok);
        }
    }
    return count;
}

int dg_origin_sets(const dg_desc *d, const dg_state *s, uint64_t *sets)
{
    int side = s->player, count = 0;
    uint64_t mine = s->occ[side - 1][0], empty = s->empty[0], enemy = s->occ[2 - side][0];
    for (int r = 0; r < d->spec.nrules; r++) {
        const dg_rule *ru = &d->rules[r];
        const dg_rule_spec *rs = ru->spec;
        uint64_t ok = (rs->to != DG_TO_ENEMY ? empty : 0) | (rs->to != DG_TO_EMPTY ? enemy : 0);
        for (int j = 0; j < ru->n[side - 1]; j++, sets++) {
            uint64_t from = mine & ru->src[side - 1][j];
            int delta = ru->delta[side - 1][j]; /* |delta| < 64 whenever from is not 0 */
            *sets = from ? from & (delta > 0 ? ok >> delta : ok << -delta) : 0;
            count += __builtin_popcountll(*sets);
        }
    }
    return count;
}

dg_move dg_nth_move(const dg_desc *d, const dg_state *s, const uint64_t *sets, int k)
{
    int side = s->player;
    for (int r = 0; r < d->spec.nrules; r++) {
        const dg_rule *ru = &d->rules[r];
        int nn = ru->n[side - 1], count = 0;
        uint64_t any = 0;
        for (int j = 0; j < nn; j++) {
            count += __builtin_popcountll(sets[j]);
            any |= sets[j];
        }
        if (k >= count) {
            k -= count;
            sets += nn;
            continue;
        }
        for (; any; any &= any - 1) {
            int i = __builtin_ctzll(any);
            for (int j = 0; j < nn; j++)
                if ((sets[j] >> i & 1) && k-- == 0)
                    return mv(i, i + ru->delta[side - 1][j], r);
        }
    }
    return 0; /* k beyond the count: not reached */
}
