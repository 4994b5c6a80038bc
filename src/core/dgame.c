/* dgame.c - described games: states, play, pass, undo, hash. */
#include <stdlib.h>
#include <string.h>

#include "dgame_impl.h"

const signed char dg_compass[8][2] = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 },
                                       { 1, 0 },  { 1, -1 }, { 0, -1 }, { -1, -1 } };

/* Sets a cell without logging: bitsets, counts and hash follow. */
static inline void put(dg_state *s, int cell, unsigned code)
{
    const dg_desc *d = s->d;
    unsigned old = s->cell[cell], co = d->cls[old], cn = d->cls[code];
    uint64_t bit = 1ULL << (cell & 63);
    int w = cell >> 6;
    const uint64_t *z = d->zob + cell * DG_ZCODES;
    s->hash ^= z[d->zidx[old]] ^ z[d->zidx[code]];
    if (co == DG_CLS_EMPTY) {
        s->empty[w] &= ~bit;
        s->nempty--;
    } else if (co != DG_CLS_BLOCK) {
        s->occ[co >> 2][w] &= ~bit;
        s->count[co >> 2]--;
        if (d->kbits)
            s->kocc[co >> 2][dg_kind_of(old) & (DG_MAX_KINDS - 1)] &= ~bit;
    }
    s->cell[cell] = (uint8_t)code;
    if (cn == DG_CLS_EMPTY) {
        s->empty[w] |= bit;
        s->nempty++;
    } else if (cn != DG_CLS_BLOCK) {
        s->occ[cn >> 2][w] |= bit;
        s->count[cn >> 2]++;
        if (d->kbits)
            s->kocc[cn >> 2][dg_kind_of(code) & (DG_MAX_KINDS - 1)] |= bit;
    }
}

int dg_reserve_log(dg_state *s, int more)
{
    if (s->log_top + more <= s->log_cap)
        return BS_OK;
    int cap = s->log_cap ? s->log_cap : 256;
    while (cap < s->log_top + more)
        cap *= 2;
    dg_undo_cell *n = realloc(s->log, sizeof *n * (size_t)cap);
    if (!n)
        return BS_ENOMEM;
    s->log = n;
    s->log_cap = cap;
    return BS_OK;
}

static inline int set_cell(dg_state *s, int cell, unsigned code)
{
    if (s->log_top == s->log_cap && dg_reserve_log(s, 1))
        return BS_ENOMEM;
    s->log[s->log_top].cell = (uint16_t)cell;
    s->log[s->log_top].old = s->cell[cell];
    s->log_top++;
    put(s, cell, code);
    return BS_OK;
}

int dg_set_cell(dg_state *s, int cell, unsigned code) { return set_cell(s, cell, code); }

dg_state *dg_state_new(const dg_desc *d)
{
    dg_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->d = d;
    s->cell[d->ncells] = DG_BLOCK; /* the sentinel */
    for (int i = 0; i < d->ncells; i++) {
        s->empty[i >> 6] |= 1ULL << (i & 63);
        s->nempty++;
    }
    for (int i = 0; i < d->ncells; i++) {
        int c = d->spec.cells[i];
        if (c)
            put(s, i, c < 0 ? DG_BLOCK : (unsigned)c);
    }
    s->player = d->spec.first;
    if (s->player == 2)
        s->hash ^= d->zside;
    s->nomove = -1;
    return s;
}

int dg_state_copy(dg_state *dst, const dg_state *src)
{
    if (dst->log_cap < src->log_top) {
        dg_undo_cell *n = realloc(dst->log, sizeof *n * (size_t)src->log_top);
        if (!n)
            return BS_ENOMEM;
        dst->log = n;
        dst->log_cap = src->log_top;
    }
    if (dst->frames_cap < src->nframes) {
        dg_frame *n = realloc(dst->frames, sizeof *n * (size_t)src->nframes);
        if (!n)
            return BS_ENOMEM;
        dst->frames = n;
        dst->frames_cap = src->nframes;
    }
    dg_undo_cell *log = dst->log;
    dg_frame *frames = dst->frames;
    int log_cap = dst->log_cap, frames_cap = dst->frames_cap;
    *dst = *src;
    dst->log = log;
    dst->frames = frames;
    dst->log_cap = log_cap;
    dst->frames_cap = frames_cap;
    if (src->log_top)
        memcpy(dst->log, src->log, sizeof *log * (size_t)src->log_top);
    if (src->nframes)
        memcpy(dst->frames, src->frames, sizeof *frames * (size_t)src->nframes);
    return BS_OK;
}

dg_state *dg_state_clone(const dg_state *s)
{
    dg_state *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (dg_state_copy(c, s)) {
        dg_state_free(c);
        return NULL;
    }
    return c;
}

void dg_state_free(dg_state *s)
{
    if (!s)
        return;
    free(s->log);
    free(s->frames);
    free(s);
}

int dg_state_equal(const dg_state *a, const dg_state *b)
{
    return a->d->rows == b->d->rows && a->d->cols == b->d->cols && a->player == b->player && a->passes == b->passes &&
           memcmp(a->cell, b->cell, (size_t)a->d->ncells) == 0;
}

/* What a move changes besides the cells (an undo frame), saved and put back. */
static void frame_save(const dg_state *s, dg_frame *f)
{
    f->log_top = s->log_top;
    f->hash = s->hash;
    f->player = (int8_t)s->player;
    f->passes = (int8_t)s->passes;
    f->status = (int8_t)s->status;
    f->how = (int8_t)s->how;
    f->nomove = (int8_t)s->nomove;
    f->moved = (int8_t)s->moved;
}

static void frame_restore(dg_state *s, const dg_frame *f)
{
    s->hash = f->hash;
    s->player = f->player;
    s->passes = f->passes;
    s->status = f->status;
    s->how = f->how;
    s->nomove = f->nomove;
    s->moved = f->moved;
}

static int push_frame(dg_state *s)
{
    if (s->nframes == s->frames_cap) {
        int cap = s->frames_cap ? 2 * s->frames_cap : 64;
        dg_frame *n = realloc(s->frames, sizeof *n * (size_t)cap);
        if (!n)
            return BS_ENOMEM;
        s->frames = n;
        s->frames_cap = cap;
    }
    frame_save(s, &s->frames[s->nframes++]);
    return BS_OK;
}

/* The promoted code of a piece ending its move on `cell`. */
unsigned dg_promoted(const dg_desc *d, unsigned code, int cell)
{
    unsigned k = dg_kind_of(code);
    if (!(d->promote_kinds >> k & 1))
        return code;
    int side = dg_side_of(code);
    for (int p = 0; p < d->spec.npromote; p++) {
        const dg_promote_spec *ps = &d->spec.promote[p];
        if ((unsigned)ps->from == k + 1 && dg_bit(ps->zone[side - 1].w, cell))
            return dg_code((unsigned)ps->to - 1, side);
    }
    return code;
}

static inline int convert_from(const dg_desc *d, dg_state *s, const dg_rule *ru, int side, int cell)
{
    if (!ru->nc[side - 1])
        return BS_OK;
    for (int j = 0; j < ru->nc[side - 1]; j++) {
        int t = d->nb[cell * 8 + ru->cdir[side - 1][j]];
        if (t >= 0 && dg_side_of(s->cell[t]) == 3 - side && set_cell(s, t, dg_flip(s->cell[t])))
            return BS_ENOMEM;
    }
    return BS_OK;
}

static int apply(const dg_desc *d, dg_state *s, dg_move m)
{
    int side = s->player;
    int o = (int)(m & 1023), t = (int)(m >> 10 & 1023), r = (int)(m >> 20 & 31);
    if (r == (int)DG_SWAP_RULE) {
        int first = d->spec.first, p = -1;
        for (int w = 0; w < DG_WORDS && p < 0; w++)
            if (s->occ[first - 1][w])
                p = w * 64 + __builtin_ctzll(s->occ[first - 1][w]);
        unsigned code = s->cell[p];
        int q = (p % d->cols) * d->cols + p / d->cols;
        if (set_cell(s, p, 0) || set_cell(s, q, dg_code(dg_kind_of(code), 3 - first)))
            return BS_ENOMEM;
        return BS_OK;
    }
    const dg_rule *ru = &d->rules[r];
    const dg_rule_spec *rs = ru->spec;
    if (rs->op == DG_OP_PLACE) {
        if (set_cell(s, t, dg_code((unsigned)rs->kind - 1, side)))
            return BS_ENOMEM;
        for (int j = 0; j < ru->nf[side - 1]; j++) {
            int dir = ru->fdir[side - 1][j], c = d->nb[t * 8 + dir], n = 0;
            while (c >= 0 && dg_side_of(s->cell[c]) == 3 - side) {
                c = d->nb[c * 8 + dir];
                n++;
            }
            if (n && c >= 0 && dg_side_of(s->cell[c]) == side)
                for (c = d->nb[t * 8 + dir]; n--; c = d->nb[c * 8 + dir])
                    if (set_cell(s, c, dg_flip(s->cell[c])))
                        return BS_ENOMEM;
        }
        return convert_from(d, s, ru, side, t);
    }
    unsigned code = s->cell[o];
    if (rs->op == DG_OP_HOP) {
        int h = (int)(m >> 25 & 15), c = o;
        if (set_cell(s, o, 0))
            return BS_ENOMEM;
        for (int j = 0; j < h; j++) {
            int dir = (int)(m >> (29 + 3 * j) & 7), over = d->nb[c * 8 + dir];
            if (set_cell(s, over, 0))
                return BS_ENOMEM;
            c = d->nb[over * 8 + dir];
        }
        return set_cell(s, t, dg_promoted(d, code, t));
    }
    if (!rs->leave && set_cell(s, o, 0))
        return BS_ENOMEM;
    if (set_cell(s, t, dg_promoted(d, code, t)))
        return BS_ENOMEM;
    if (rs->has_arrow && set_cell(s, (int)(m >> 29 & 1023), DG_BLOCK))
        return BS_ENOMEM;
    return convert_from(d, s, ru, side, t);
}

static void rollback(dg_state *s, int to)
{
    while (s->log_top > to) {
        s->log_top--;
        put(s, s->log[s->log_top].cell, s->log[s->log_top].old);
    }
}

int dg_play(const dg_desc *d, dg_state *s, dg_move m)
{
    if (!s->nolog && push_frame(s))
        return BS_ENOMEM;
    int from = s->log_top;
    if (apply(d, s, m)) {
        rollback(s, from);
        s->nframes -= !s->nolog;
        return BS_ENOMEM;
    }
    int mover = s->player, first = !(s->moved >> (mover - 1) & 1);
    s->moved |= 1 << (mover - 1);
    s->player = 3 - mover;
    s->hash ^= d->zside ^ d->zpass[s->passes];
    s->passes = 0;
    s->ply++;
    dg_update_status(d, s, mover, first ? -1 : from);
    return BS_OK;
}

/* Perft's played last ply (bulk off, as RBG's perft: every leaf is made
 * and its end looked at, never expanded). Each leaf is played as dg_play
 * plays it: cells, sets, counts, hash, side to move, ply, the cells it
 * changed logged and dg_update_status run on them; then taken back. What
 * is saved is the undo frame: the leaf functions keep the position before
 * the ply in locals and put it back once after the ply. */
typedef struct leaf_ctx {
    dg_frame before; /* the position before the ply, but its cells */
    int side, from, first, ply;
    uint64_t hash, turn; /* turn: the side and pass keys a move changes */
} leaf_ctx;

static void leaf_begin(dg_state *s, leaf_ctx *c)
{
    frame_save(s, &c->before);
    c->side = s->player;
    c->from = s->log_top;
    c->first = !(s->moved >> (c->side - 1) & 1);
    c->ply = s->ply;
    c->hash = s->hash;
    c->turn = s->d->zside ^ s->d->zpass[s->passes];
}

/* The leaf is on the board with its cells logged from c->from: its end,
 * kept in memory (a compiler barrier: as if a caller read the position). */
static inline void leaf_end(const dg_desc *d, dg_state *s, const leaf_ctx *c)
{
    s->player = 3 - c->side;
    s->ply = c->ply + 1;
    dg_update_status(d, s, c->side, c->first ? -1 : c->from);
    __asm__ __volatile__("" ::: "memory");
}

static void leaf_finish(dg_state *s, const leaf_ctx *c)
{
    frame_restore(s, &c->before);
    s->ply = c->ply;
    s->log_top = c->from;
}

/* The piece move of a two_cells rule (a step, slide or leap with no
 * convert or leave: the mover's piece leaves o for t, which was empty or
 * the enemy's), with the side to move and the cells logged; toggled: the
 * sets change by exclusive or, so the second call takes it back. */
typedef struct leaf_move {
    int o, t, took;
    unsigned code, old, nc;
    uint64_t bo, bt, was_empty, was_theirs, dh;
} leaf_move;

static inline void leaf_move_make(const dg_desc *d, const dg_state *s, const leaf_ctx *c, dg_move m, leaf_move *lm)
{
    int o = (int)(m & 1023), t = (int)(m >> 10 & 1023);
    lm->o = o;
    lm->t = t;
    lm->code = s->cell[o];
    lm->old = s->cell[t];
    lm->nc = d->promote_kinds ? dg_promoted(d, lm->code, t) : lm->code;
    lm->took = lm->old != 0;
    lm->bo = 1ULL << (o & 63);
    lm->bt = 1ULL << (t & 63);
    lm->was_empty = lm->took ? 0 : lm->bt;
    lm->was_theirs = lm->bt ^ lm->was_empty;
    const uint64_t *zo = d->zob + o * DG_ZCODES, *zt = d->zob + t * DG_ZCODES;
    lm->dh = zo[d->zidx[lm->code]] ^ zt[d->zidx[lm->old]] ^ zt[d->zidx[lm->nc]] ^ c->turn;
}

static inline void leaf_move_toggle(const dg_desc *d, dg_state *s, const leaf_ctx *c, const leaf_move *lm, int on)
{
    int me = c->side - 1, en = 2 - c->side, wo = lm->o >> 6, wt = lm->t >> 6;
    s->cell[lm->o] = (uint8_t)(on ? 0 : lm->code);
    s->cell[lm->t] = (uint8_t)(on ? lm->nc : lm->old);
    s->occ[me][wo] ^= lm->bo;
    s->occ[me][wt] ^= lm->bt;
    s->empty[wo] ^= lm->bo;
    s->empty[wt] ^= lm->was_empty;
    s->occ[en][wt] ^= lm->was_theirs;
    s->count[en] += on ? -lm->took : lm->took;
    s->hash ^= lm->dh;
    if (d->kbits) {
        uint64_t *km = s->kocc[me], *kt = s->kocc[en];
        km[dg_kind_of(lm->code) & (DG_MAX_KINDS - 1)] ^= lm->bo;
        km[dg_kind_of(lm->nc) & (DG_MAX_KINDS - 1)] ^= lm->bt;
        if (lm->took)
            kt[dg_kind_of(lm->old) & (DG_MAX_KINDS - 1)] ^= lm->bt;
    }
    if (on) {
        dg_undo_cell *log = s->log + c->from;
        log[0].cell = (uint16_t)lm->o;
        log[0].old = (uint8_t)lm->code;
        log[1].cell = (uint16_t)lm->t;
        log[1].old = (uint8_t)lm->old;
        s->log_top = c->from + 2;
    } else {
        s->log_top = c->from;
    }
}

/* An arrow: a block on the empty cell a (perhaps the vacated origin),
 * toggled the same way; logged after the piece move. */
static inline void leaf_arrow_toggle(const dg_desc *d, dg_state *s, const leaf_ctx *c, int a, int on)
{
    s->cell[a] = (uint8_t)(on ? DG_BLOCK : 0);
    s->empty[a >> 6] ^= 1ULL << (a & 63);
    s->nempty += on ? -1 : 1;
    s->hash ^= d->zob[a * DG_ZCODES] ^ d->zob[a * DG_ZCODES + d->zidx[DG_BLOCK]];
    s->log[c->from + 2].cell = (uint16_t)a;
    s->log[c->from + 2].old = 0;
    s->log_top = c->from + 2 + on;
}

/* A placement of a one_cell rule (no flips or convert): a piece on the
 * empty cell t, toggled as above. */
static inline void leaf_place_toggle(const dg_desc *d, dg_state *s, const leaf_ctx *c, int t, unsigned code,
                                     int on)
{
    int me = c->side - 1, w = t >> 6;
    uint64_t bt = 1ULL << (t & 63);
    s->cell[t] = (uint8_t)(on ? code : 0);
    s->empty[w] ^= bt;
    s->occ[me][w] ^= bt;
    s->nempty += on ? -1 : 1;
    s->count[me] += on ? 1 : -1;
    s->hash = on ? c->hash ^ d->zob[t * DG_ZCODES + d->zidx[code]] ^ c->turn : c->hash;
    if (d->kbits)
        s->kocc[me][dg_kind_of(code) & (DG_MAX_KINDS - 1)] ^= bt;
    s->log[c->from].cell = (uint16_t)t;
    s->log[c->from].old = 0;
    s->log_top = c->from + on;
}

/* Each move of the list played and taken back; consecutive moves of a
 * two_cells rule with the same piece move (Amazons' arrows after one
 * slide) share it: it is made once, each arrow put and taken back on it. */
int dg_play_leaves(const dg_desc *d, dg_state *s, const dg_move *m, int n)
{
    leaf_ctx c;
    if (dg_reserve_log(s, 3))
        return BS_ENOMEM;
    leaf_begin(s, &c);
    leaf_move lm;
    dg_move on = 0; /* the piece move made: its origin, landing and rule bits; 0 none */
    const dg_move piece_bits = ((dg_move)1 << 25) - 1;
    for (int i = 0; i < n; i++) {
        unsigned r = (unsigned)(m[i] >> 20 & 31);
        if (r != DG_SWAP_RULE && d->rules[r].two_cells) {
            if ((m[i] & piece_bits) != on) {
                if (on)
                    leaf_move_toggle(d, s, &c, &lm, 0);
                leaf_move_make(d, s, &c, m[i], &lm);
                leaf_move_toggle(d, s, &c, &lm, 1);
                on = m[i] & piece_bits;
            }
            int a = d->rules[r].spec->has_arrow ? (int)(m[i] >> 29 & 1023) : -1;
            if (a >= 0)
                leaf_arrow_toggle(d, s, &c, a, 1);
            leaf_end(d, s, &c);
            if (a >= 0)
                leaf_arrow_toggle(d, s, &c, a, 0);
            continue;
        }
        if (on) {
            leaf_move_toggle(d, s, &c, &lm, 0);
            on = 0;
        }
        if (r != DG_SWAP_RULE && d->rules[r].one_cell) {
            int t = (int)(m[i] >> 10 & 1023);
            unsigned code = dg_code((unsigned)d->rules[r].spec->kind - 1, c.side);
            leaf_place_toggle(d, s, &c, t, code, 1);
            leaf_end(d, s, &c);
            leaf_place_toggle(d, s, &c, t, code, 0);
            continue;
        }
        int rc = apply(d, s, m[i]);
        if (rc == BS_OK) {
            s->hash ^= d->zside ^ d->zpass[s->passes];
            leaf_end(d, s, &c);
        }
        rollback(s, c.from);
        s->hash = c.hash;
        if (rc) {
            leaf_finish(s, &c);
            return BS_ENOMEM;
        }
    }
    if (on)
        leaf_move_toggle(d, s, &c, &lm, 0);
    leaf_finish(s, &c);
    return BS_OK;
}

int dg_play_leaf_sets(const dg_desc *d, dg_state *s, const uint64_t *sets)
{
    leaf_ctx c;
    if (dg_reserve_log(s, 3))
        return BS_ENOMEM;
    leaf_begin(s, &c);
    int me = c.side - 1, en = 2 - c.side;
    if (d->kbits) { /* several kinds: their sets too */
        for (int r = 0; r < d->spec.nrules; r++) {
            const dg_rule *ru = &d->rules[r];
            for (int j = 0; j < ru->n[me]; j++, sets++)
                for (uint64_t x = *sets; x; x &= x - 1) {
                    int o = __builtin_ctzll(x);
                    leaf_move lm;
                    leaf_move_make(d, s, &c, (dg_move)o | (dg_move)(o + ru->delta[me][j]) << 10 | (dg_move)r << 20,
                                   &lm);
                    leaf_move_toggle(d, s, &c, &lm, 1);
                    leaf_end(d, s, &c);
                    leaf_move_toggle(d, s, &c, &lm, 0);
                }
        }
        leaf_finish(s, &c);
        return BS_OK;
    }
    /* one word and one kind (so no promotion): each position after a move
     * is written whole from the one before the ply (the sets in
     * registers), the cells put back after it */
    uint64_t mine = s->occ[me][0], theirs = s->occ[en][0], empty = s->empty[0];
    uint64_t turn = d->zside ^ d->zpass[s->passes];
    int count = s->count[en];
    const uint64_t *zob = d->zob;
    const uint8_t *zidx = d->zidx;
    uint8_t *cell = s->cell;
    dg_undo_cell *log = s->log + c.from;
    s->log_top = c.from + 2;
    for (int r = 0; r < d->spec.nrules; r++) {
        const dg_rule *ru = &d->rules[r];
        for (int j = 0; j < ru->n[me]; j++, sets++) {
            int delta = ru->delta[me][j];
            for (uint64_t x = *sets; x; x &= x - 1) {
                int o = __builtin_ctzll(x), t = o + delta;
                unsigned code = cell[o], old = cell[t];
                uint64_t bo = 1ULL << o, bt = 1ULL << t, was_empty = old ? 0 : bt;
                s->occ[me][0] = mine ^ bo ^ bt;
                s->occ[en][0] = theirs ^ (bt ^ was_empty);
                s->empty[0] = empty ^ bo ^ was_empty;
                s->count[en] = count - (old != 0);
                s->hash = c.hash ^ zob[o * DG_ZCODES + zidx[code]] ^ zob[t * DG_ZCODES + zidx[old]] ^
                          zob[t * DG_ZCODES + zidx[code]] ^ turn;
                cell[o] = 0;
                cell[t] = (uint8_t)code;
                log[0].cell = (uint16_t)o;
                log[0].old = (uint8_t)code;
                log[1].cell = (uint16_t)t;
                log[1].old = (uint8_t)old;
                leaf_end(d, s, &c);
                cell[t] = (uint8_t)old;
                cell[o] = (uint8_t)code;
            }
        }
    }
    s->occ[me][0] = mine;
    s->occ[en][0] = theirs;
    s->empty[0] = empty;
    s->count[en] = count;
    leaf_finish(s, &c);
    return BS_OK;
}

int dg_play_leaf_places(const dg_desc *d, dg_state *s, unsigned code, const uint64_t *targets)
{
    leaf_ctx c;
    if (dg_reserve_log(s, 1))
        return BS_ENOMEM;
    leaf_begin(s, &c);
    int me = c.side - 1, n = 0, nempty = s->nempty, count = s->count[me];
    unsigned zcode = d->zidx[code];
    uint64_t *kocc = d->kbits ? &s->kocc[me][dg_kind_of(code) & (DG_MAX_KINDS - 1)] : NULL;
    dg_undo_cell *log = s->log + c.from;
    s->log_top = c.from + 1;
    log[0].old = 0;
    for (int w = 0; w < d->nwords; w++) {
        uint64_t mine = s->occ[me][w], empty = s->empty[w], k = kocc ? *kocc : 0;
        for (uint64_t x = targets[w]; x; x &= x - 1, n++) {
            int cl = w * 64 + __builtin_ctzll(x);
            uint64_t bit = x & -x;
            s->cell[cl] = (uint8_t)code;
            s->empty[w] = empty ^ bit;
            s->occ[me][w] = mine | bit;
            s->nempty = nempty - 1;
            s->count[me] = count + 1;
            if (kocc)
                *kocc = k | bit;
            s->hash = c.hash ^ d->zob[cl * DG_ZCODES + zcode] ^ c.turn;
            log[0].cell = (uint16_t)cl;
            leaf_end(d, s, &c);
            s->cell[cl] = 0;
        }
        s->empty[w] = empty;
        s->occ[me][w] = mine;
        if (kocc)
            *kocc = k;
    }
    s->nempty = nempty;
    s->count[me] = count;
    leaf_finish(s, &c);
    return n;
}

int dg_pass(const dg_desc *d, dg_state *s)
{
    if (!s->nolog && push_frame(s))
        return BS_ENOMEM;
    int mover = s->player;
    s->player = 3 - mover;
    s->hash ^= d->zside ^ d->zpass[s->passes];
    s->passes = s->passes < 2 ? s->passes + 1 : 2;
    s->hash ^= d->zpass[s->passes];
    s->ply++;
    dg_update_status(d, s, mover, s->moved >> (mover - 1) & 1 ? s->log_top : -1);
    if (s->status == DG_ONGOING && s->passes >= 2) {
        int sc[2];
        dg_score_raw(d, s, sc);
        s->status = sc[0] > sc[1] ? DG_WON_BLACK : sc[1] > sc[0] ? DG_WON_WHITE : DG_DRAW;
        s->how = DG_HOW_SCORE;
    }
    return BS_OK;
}

int dg_undo(const dg_desc *d, dg_state *s)
{
    (void)d;
    if (s->nframes == 0)
        return 0;
    dg_frame *f = &s->frames[--s->nframes];
    rollback(s, f->log_top);
    frame_restore(s, f);
    s->ply--;
    return 1;
}

int dg_can_pass(const dg_desc *d, const dg_state *s)
{
    return d->spec.no_move == DG_NOMOVE_PASS && dg_status(d, s) == DG_ONGOING &&
           dg_resolve_nomove(d, (dg_state *)s) == 1;
}

int dg_status(const dg_desc *d, const dg_state *s)
{
    if (s->status != DG_ONGOING)
        return s->status;
    dg_resolve_nomove(d, (dg_state *)s); /* a cache in the state: the caller's object */
    return s->status;
}

int dg_player(const dg_state *s) { return s->player; }
int dg_ply(const dg_state *s) { return s->ply; }
int dg_passes(const dg_state *s) { return s->passes; }
uint64_t dg_hash(const dg_state *s) { return s->hash; }

int dg_cell(const dg_state *s, int cell)
{
    if (cell < 0 || cell >= s->d->ncells || s->cell[cell] == DG_BLOCK)
        return -1;
    return s->cell[cell];
}

int dg_count(const dg_state *s, int side)
{
    return side == 1 || side == 2 ? s->count[side - 1] : s->nempty;
}

void dg_copy_position(dg_state *dst, const dg_state *src)
{
    dg_undo_cell *log = dst->log;
    dg_frame *frames = dst->frames;
    int log_cap = dst->log_cap, frames_cap = dst->frames_cap;
    *dst = *src;
    dst->log = log;
    dst->frames = frames;
    dst->log_cap = log_cap;
    dst->frames_cap = frames_cap;
    dst->log_top = dst->nframes = 0;
}

void dg_state_copy_position(dg_state *dst, const dg_state *src)
{
    dg_copy_position(dst, src);
    dst->nolog = 0;
}
