/* dgame.c - described games: compile, states, play, pass, undo, hash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgame_impl.h"

const signed char dg_compass[8][2] = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 },
                                       { 1, 0 },  { 1, -1 }, { 0, -1 }, { -1, -1 } };

static int compass_index(int dr, int dc)
{
    for (int i = 0; i < 8; i++)
        if (dg_compass[i][0] == dr && dg_compass[i][1] == dc)
            return i;
    return -1;
}

#define FAIL(...) do { snprintf(why, why_len, __VA_ARGS__); return BS_EINVAL; } while (0)

/* Offsets that must be compass directions, into idx (at most 8). */
static int unit_dirs(const dg_offsets *o, int8_t *idx, int *n, int rule, const char *field, char *why,
                     size_t why_len)
{
    if (o->n < 0 || o->n > 8)
        FAIL("field 'rules'[%d] '%s': %d directions (at most 8)", rule, field, o->n);
    for (int j = 0; j < o->n; j++) {
        int c = compass_index(o->d[j][0], o->d[j][1]);
        if (c < 0)
            FAIL("field 'rules'[%d] '%s'[%d]: {%d, %d} is not a direction", rule, field, j + 1, o->d[j][0],
                 o->d[j][1]);
        idx[j] = (int8_t)c;
    }
    *n = o->n;
    return BS_OK;
}

static int check_rule(dg_desc *d, int r, char *why, size_t why_len)
{
    const dg_rule_spec *rs = &d->spec.rules[r];
    dg_rule *ru = &d->rules[r];
    int K = d->spec.nkinds, R = r + 1;
    ru->spec = rs;
    if (rs->op < DG_OP_PLACE || rs->op > DG_OP_HOP)
        FAIL("field 'rules'[%d] 'op': unknown op", R);
    if (rs->op == DG_OP_PLACE) {
        if (rs->kind < 1 || rs->kind > K)
            FAIL("field 'rules'[%d] 'kind': %d is not a kind 1..%d", R, rs->kind, K);
        if (rs->at < DG_AT_EMPTY || rs->at > DG_AT_COLUMN)
            FAIL("field 'rules'[%d] 'at': unknown placement", R);
        if (rs->at == DG_AT_COLUMN)
            d->has_column = 1;
    } else if (rs->kinds == 0 || rs->kinds >= (1u << K)) {
        FAIL("field 'rules'[%d] 'kinds': no kind or a kind beyond %d", R, K);
    }
    if (rs->to < DG_TO_EMPTY || rs->to > DG_TO_FREE)
        FAIL("field 'rules'[%d] 'to': unknown target", R);
    for (int side = 0; side < 2; side++) {
        const dg_offsets *o = &rs->dirs[side];
        if (o->n < 0 || o->n > DG_MAX_OFFSETS)
            FAIL("field 'rules'[%d] 'dirs'[%d]: %d offsets (at most %d)", R, side + 1, o->n, DG_MAX_OFFSETS);
        for (int j = 0; j < o->n; j++) {
            int dr = o->d[j][0], dc = o->d[j][1];
            if ((dr == 0 && dc == 0) || dr < -25 || dr > 25 || dc < -25 || dc > 25)
                FAIL("field 'rules'[%d] 'dirs'[%d][%d]: bad offset {%d, %d}", R, side + 1, j + 1, dr, dc);
            ru->dir[side][j] = (int8_t)compass_index(dr, dc);
            if ((rs->op == DG_OP_HOP || (rs->op == DG_OP_PLACE && rs->at == DG_AT_ADJACENT)) && ru->dir[side][j] < 0)
                FAIL("field 'rules'[%d] 'dirs'[%d][%d]: {%d, %d} is not a direction", R, side + 1, j + 1, dr, dc);
        }
        ru->n[side] = o->n;
        ru->nf[side] = ru->nc[side] = ru->na[side] = 0;
        if (rs->has_flips && unit_dirs(&rs->flips[side], ru->fdir[side], &ru->nf[side], R, "flips", why, why_len))
            return BS_EINVAL;
        if (rs->has_convert &&
            unit_dirs(&rs->convert[side], ru->cdir[side], &ru->nc[side], R, "convert", why, why_len))
            return BS_EINVAL;
        if (rs->has_arrow && unit_dirs(&rs->arrow[side], ru->adir[side], &ru->na[side], R, "arrow", why, why_len))
            return BS_EINVAL;
        if (rs->op != DG_OP_PLACE) {
            ru->tgt[side] = malloc(sizeof(int16_t) * (size_t)d->ncells * (size_t)(o->n ? o->n : 1));
            if (!ru->tgt[side])
                return BS_ENOMEM;
            for (int c = 0; c < d->ncells; c++)
                for (int j = 0; j < o->n; j++) {
                    int rr = c / d->cols + o->d[j][0], cc = c % d->cols + o->d[j][1];
                    ru->tgt[side][c * o->n + j] =
                        (int16_t)(rr < 0 || rr >= d->rows || cc < 0 || cc >= d->cols ? -1 : rr * d->cols + cc);
                }
        }
    }
    if (rs->has_arrow && rs->op != DG_OP_SLIDE)
        FAIL("field 'rules'[%d] 'arrow': only a slide has an arrow", R);
    return BS_OK;
}

static int check_ends(dg_desc *d, char *why, size_t why_len)
{
    const dg_spec *sp = &d->spec;
    if (sp->nends < 0 || sp->nends > DG_MAX_ENDS)
        FAIL("field 'ends': %d ends (at most %d)", sp->nends, DG_MAX_ENDS);
    for (int e = 0; e < sp->nends; e++) {
        const dg_end_spec *es = &sp->ends[e];
        int E = e + 1;
        switch (es->op) {
        case DG_END_LINE:
            if (es->k < 1 || es->k > DG_MAX_SIDE)
                FAIL("field 'ends'[%d] 'k': %d out of range 1..%d", E, es->k, DG_MAX_SIDE);
            if (es->dirs.n < 1 || es->dirs.n > 4)
                FAIL("field 'ends'[%d] 'axes': 1..4 axes expected", E);
            for (int j = 0; j < es->dirs.n; j++) {
                int c = compass_index(es->dirs.d[j][0], es->dirs.d[j][1]);
                if (c < 0)
                    FAIL("field 'ends'[%d] 'axes'[%d]: not a direction", E, j + 1);
                d->line_dirs[e][j] = (int8_t)c;
            }
            d->nline_dirs[e] = es->dirs.n;
            break;
        case DG_END_CONNECT:
            if (es->dirs.n < 1 || es->dirs.n > 8)
                FAIL("field 'ends'[%d] 'dirs': 1..8 directions expected", E);
            for (int j = 0; j < es->dirs.n; j++) {
                int c = compass_index(es->dirs.d[j][0], es->dirs.d[j][1]);
                if (c < 0)
                    FAIL("field 'ends'[%d] 'dirs'[%d]: not a direction", E, j + 1);
                d->connect_dirs[e][j] = (int8_t)c;
            }
            d->nconnect_dirs[e] = es->dirs.n;
            for (int s = 0; s < 2; s++)
                for (int k = 0; k < 2; k++)
                    if (es->edges[s][k] < DG_EDGE_N || es->edges[s][k] > DG_EDGE_E)
                        FAIL("field 'ends'[%d] 'edges'[%d]: unknown edge", E, s + 1);
            break;
        case DG_END_REACH:
            if (es->kinds == 0 || es->kinds >= (1u << sp->nkinds))
                FAIL("field 'ends'[%d] 'kinds': no kind or a kind beyond %d", E, sp->nkinds);
            break;
        case DG_END_NO_PIECES:
            break;
        case DG_END_FULL:
        case DG_END_PLIES:
            if (es->result != DG_RESULT_SCORE && es->result != DG_RESULT_DRAW)
                FAIL("field 'ends'[%d] 'result': unknown result", E);
            if (es->op == DG_END_PLIES && es->n < 0)
                FAIL("field 'ends'[%d] 'n': negative", E);
            break;
        default:
            FAIL("field 'ends'[%d] 'op': unknown end", E);
        }
    }
    return BS_OK;
}

static int compile(dg_desc *d, char *why, size_t why_len)
{
    const dg_spec *sp = &d->spec;
    if (sp->rows < 1 || sp->rows > DG_MAX_SIDE)
        FAIL("field 'rows': %d out of range 1..%d", sp->rows, DG_MAX_SIDE);
    if (sp->cols < 1 || sp->cols > DG_MAX_SIDE)
        FAIL("field 'cols': %d out of range 1..%d", sp->cols, DG_MAX_SIDE);
    if (sp->nkinds < 1 || sp->nkinds > DG_MAX_KINDS)
        FAIL("field 'kinds': %d kinds (1..%d)", sp->nkinds, DG_MAX_KINDS);
    d->rows = sp->rows;
    d->cols = sp->cols;
    d->ncells = sp->rows * sp->cols;
    for (int i = 0; i < d->ncells; i++)
        if (sp->cells[i] < -1 || sp->cells[i] > 2 * sp->nkinds)
            FAIL("field 'cells'[%d]: bad code %d", i + 1, sp->cells[i]);
    if (sp->first != 1 && sp->first != 2)
        FAIL("field 'first': %d is not 1 or 2", sp->first);
    if (sp->nrules < 0 || sp->nrules > DG_MAX_RULES)
        FAIL("field 'rules': %d rules (at most %d)", sp->nrules, DG_MAX_RULES);
    if (sp->no_move < DG_NOMOVE_LOSE || sp->no_move > DG_NOMOVE_SCORE)
        FAIL("field 'no_move': unknown value");
    if (sp->score < DG_SCORE_PIECES || sp->score > DG_SCORE_NONE)
        FAIL("field 'score': unknown value");
    if (sp->swap && sp->rows != sp->cols)
        FAIL("field 'swap': the pie rule needs a square board");
    if (sp->npromote < 0 || sp->npromote > DG_MAX_PROMOTE)
        FAIL("field 'promote': %d entries (at most %d)", sp->npromote, DG_MAX_PROMOTE);
    for (int p = 0; p < sp->npromote; p++) {
        if (sp->promote[p].from < 1 || sp->promote[p].from > sp->nkinds || sp->promote[p].to < 1 ||
            sp->promote[p].to > sp->nkinds)
            FAIL("field 'promote'[%d]: a kind out of range 1..%d", p + 1, sp->nkinds);
        d->promote_kinds |= 1u << (sp->promote[p].from - 1);
    }
    d->nb = malloc(sizeof(int16_t) * 8 * (size_t)d->ncells);
    d->zob = malloc(sizeof(uint64_t) * DG_ZCODES * (size_t)d->ncells);
    if (!d->nb || !d->zob)
        return BS_ENOMEM;
    for (int c = 0; c < d->ncells; c++)
        for (int k = 0; k < 8; k++) {
            int rr = c / d->cols + dg_compass[k][0], cc = c % d->cols + dg_compass[k][1];
            d->nb[c * 8 + k] = (int16_t)(rr < 0 || rr >= d->rows || cc < 0 || cc >= d->cols ? -1 : rr * d->cols + cc);
        }
    uint64_t x = 0x6467616d65ULL; /* "dgame" */
    for (int i = 0; i < DG_ZCODES * d->ncells; i++)
        d->zob[i] = bs_mix64(x += 0x9e3779b97f4a7c15ULL);
    d->zside = bs_mix64(x += 0x9e3779b97f4a7c15ULL);
    for (int i = 0; i < 3; i++)
        d->zpass[i] = i ? bs_mix64(x += 0x9e3779b97f4a7c15ULL) : 0;
    for (int r = 0; r < sp->nrules; r++) {
        int rc = check_rule(d, r, why, why_len);
        if (rc)
            return rc;
    }
    return check_ends(d, why, why_len);
}

int dg_compile(const dg_spec *spec, dg_desc **out, char *why, size_t why_len)
{
    *out = NULL;
    if (why_len)
        why[0] = 0;
    dg_desc *d = calloc(1, sizeof *d);
    if (!d)
        return BS_ENOMEM;
    d->spec = *spec;
    int rc = compile(d, why, why_len);
    if (rc) {
        dg_desc_free(d);
        return rc;
    }
    *out = d;
    return BS_OK;
}

void dg_desc_free(dg_desc *d)
{
    if (!d)
        return;
    for (int r = 0; r < DG_MAX_RULES; r++) {
        free(d->rules[r].tgt[0]);
        free(d->rules[r].tgt[1]);
    }
    free(d->nb);
    free(d->zob);
    free(d);
}

int dg_rows(const dg_desc *d) { return d->rows; }
int dg_cols(const dg_desc *d) { return d->cols; }
const dg_spec *dg_desc_spec(const dg_desc *d) { return &d->spec; }

/* Sets a cell without logging: bitsets, counts and hash follow. */
static inline void put(dg_state *s, int cell, unsigned code)
{
    const dg_desc *d = s->d;
    unsigned old = s->cell[cell];
    uint64_t bit = 1ULL << (cell & 63);
    int w = cell >> 6;
    if (old == 0) {
        s->empty[w] &= ~bit;
        s->nempty--;
    } else if (old != DG_BLOCK) {
        int side = dg_side_of(old);
        s->occ[side - 1][w] &= ~bit;
        s->count[side - 1]--;
    }
    if (old)
        s->hash ^= d->zob[cell * DG_ZCODES + (old == DG_BLOCK ? 17 : old)];
    s->cell[cell] = (uint8_t)code;
    if (code == 0) {
        s->empty[w] |= bit;
        s->nempty++;
    } else if (code != DG_BLOCK) {
        int side = dg_side_of(code);
        s->occ[side - 1][w] |= bit;
        s->count[side - 1]++;
    }
    if (code)
        s->hash ^= d->zob[cell * DG_ZCODES + (code == DG_BLOCK ? 17 : code)];
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

static int convert_from(const dg_desc *d, dg_state *s, const dg_rule *ru, int side, int cell)
{
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
    if (dg_reserve_log(s, 2 * DG_MAX_HOPS + 20) || push_frame(s))
        return BS_ENOMEM;
    int from = s->log_top;
    if (apply(d, s, m)) {
        rollback(s, from);
        s->nframes--;
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
    if (push_frame(s))
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
