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
    }
    s->cell[cell] = (uint8_t)code;
    if (cn == DG_CLS_EMPTY) {
        s->empty[w] |= bit;
        s->nempty++;
    } else if (cn != DG_CLS_BLOCK) {
        s->occ[cn >> 2][w] |= bit;
        s->count[cn >> 2]++;
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

int dg_set_cell(dg_state *s, int cell, unsigned code)
{
    if (s->log_top == s->log_cap && dg_reserve_log(s, 1))
        return BS_ENOMEM;
    s->log[s->log_top].cell = (uint16_t)cell;
    s->log[s->log_top].old = s->cell[cell];
    s->log_top++;
    put(s, cell, code);
    return BS_OK;
}

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
    dg_frame *f = &s->frames[s->nframes++];
    f->log_top = s->log_top;
    f->hash = s->hash;
    f->player = (int8_t)s->player;
    f->passes = (int8_t)s->passes;
    f->status = (int8_t)s->status;
    f->how = (int8_t)s->how;
    f->nomove = (int8_t)s->nomove;
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
        if (t >= 0 && dg_side_of(s->cell[t]) == 3 - side && dg_set_cell(s, t, dg_flip(s->cell[t])))
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
        if (dg_set_cell(s, p, 0) || dg_set_cell(s, q, dg_code(dg_kind_of(code), 3 - first)))
            return BS_ENOMEM;
        return BS_OK;
    }
    const dg_rule *ru = &d->rules[r];
    const dg_rule_spec *rs = ru->spec;
    if (rs->op == DG_OP_PLACE) {
        if (dg_set_cell(s, t, dg_code((unsigned)rs->kind - 1, side)))
            return BS_ENOMEM;
        for (int j = 0; j < ru->nf[side - 1]; j++) {
            int dir = ru->fdir[side - 1][j], c = d->nb[t * 8 + dir], n = 0;
            while (c >= 0 && dg_side_of(s->cell[c]) == 3 - side) {
                c = d->nb[c * 8 + dir];
                n++;
            }
            if (n && c >= 0 && dg_side_of(s->cell[c]) == side)
                for (c = d->nb[t * 8 + dir]; n--; c = d->nb[c * 8 + dir])
                    if (dg_set_cell(s, c, dg_flip(s->cell[c])))
                        return BS_ENOMEM;
        }
        return convert_from(d, s, ru, side, t);
    }
    unsigned code = s->cell[o];
    if (rs->op == DG_OP_HOP) {
        int h = (int)(m >> 25 & 15), c = o;
        if (dg_set_cell(s, o, 0))
            return BS_ENOMEM;
        for (int j = 0; j < h; j++) {
            int dir = (int)(m >> (29 + 3 * j) & 7), over = d->nb[c * 8 + dir];
            if (dg_set_cell(s, over, 0))
                return BS_ENOMEM;
            c = d->nb[over * 8 + dir];
        }
        return dg_set_cell(s, t, dg_promoted(d, code, t));
    }
    if (!rs->leave && dg_set_cell(s, o, 0))
        return BS_ENOMEM;
    if (dg_set_cell(s, t, dg_promoted(d, code, t)))
        return BS_ENOMEM;
    if (rs->has_arrow && dg_set_cell(s, (int)(m >> 29 & 1023), DG_BLOCK))
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
    int mover = s->player;
    s->player = 3 - mover;
    s->hash ^= d->zside ^ d->zpass[s->passes];
    s->passes = 0;
    s->ply++;
    dg_update_status(d, s, mover, from);
    return BS_OK;
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
    dg_update_status(d, s, mover, s->log_top);
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
    s->hash = f->hash;
    s->player = f->player;
    s->passes = f->passes;
    s->status = f->status;
    s->how = f->how;
    s->nomove = f->nomove;
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
