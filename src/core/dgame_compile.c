/* dgame_compile.c - described games: the spec checked and compiled (tables, Zobrist keys). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "dgame_impl.h"

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
                    ru->tgt[side][c * o->n + j] = (int16_t)(rr < 0 || rr >= d->rows || cc < 0 || cc >= d->cols
                                                                ? d->ncells
                                                                : rr * d->cols + cc);
                }
        }
    }
    if (d->ncells <= 64 && (rs->op == DG_OP_STEP || rs->op == DG_OP_LEAP))
        for (int side = 0; side < 2; side++)
            for (int j = 0; j < ru->n[side]; j++) {
                ru->delta[side][j] = rs->dirs[side].d[j][0] * d->cols + rs->dirs[side].d[j][1];
                ru->src[side][j] = 0;
                for (int c = 0; c < d->ncells; c++)
                    if (ru->tgt[side][c * ru->n[side] + j] < d->ncells)
                        ru->src[side][j] |= 1ULL << c;
            }
    if (rs->has_arrow && rs->op != DG_OP_SLIDE)
        FAIL("field 'rules'[%d] 'arrow': only a slide has an arrow", R);
    ru->one_cell = rs->op == DG_OP_PLACE && !rs->has_flips && !rs->has_convert;
    ru->two_cells = (rs->op == DG_OP_STEP || rs->op == DG_OP_SLIDE || rs->op == DG_OP_LEAP) &&
                    !rs->has_convert && !rs->has_flips && !rs->leave;
    return BS_OK;
}

/* The one-word form of a line end (at least k, at most 64 cells). */
static void line_bitboard(dg_desc *d, int e)
{
    const dg_end_spec *es = &d->spec.ends[e];
    if (d->ncells > 64 || es->exact)
        return;
    d->line_bb[e] = 1;
    for (int a = 0; a < es->dirs.n; a++) {
        int dr = es->dirs.d[a][0], dc = es->dirs.d[a][1];
        if (dr * d->cols + dc < 0) {
            dr = -dr;
            dc = -dc;
        }
        d->line_shift[e][a] = dr * d->cols + dc;
        uint64_t start = 0;
        for (int c = 0; c < d->ncells; c++) {
            int r = c / d->cols + (es->k - 1) * dr, col = c % d->cols + (es->k - 1) * dc;
            if (r >= 0 && r < d->rows && col >= 0 && col < d->cols)
                start |= 1ULL << c;
        }
        d->line_start[e][a] = start;
    }
}

/* The windows of a line end on a one-word board: per cell (line_woff) the
 * sets of k cells in a row along an axis that contain it (line_win), so a
 * move is checked through the windows of the cells it changed. */
static int line_windows(dg_desc *d, int e)
{
    const dg_end_spec *es = &d->spec.ends[e];
    int total = 0;
    uint16_t *off = calloc((size_t)d->ncells + 1, sizeof *off);
    if (!off)
        return BS_ENOMEM;
    d->line_woff[e] = off;
    for (int pass = 0; pass < 2; pass++) {
        int fill[64] = { 0 };
        for (int a = 0; a < es->dirs.n; a++) {
            int shift = d->line_shift[e][a];
            for (uint64_t x = d->line_start[e][a]; x; x &= x - 1) {
                int c0 = __builtin_ctzll(x);
                uint64_t w = 0;
                for (int t = 0; t < es->k; t++)
                    w |= 1ULL << (c0 + t * shift);
                for (int t = 0; t < es->k; t++) {
                    int c = c0 + t * shift;
                    if (pass == 0)
                        total++, off[c + 1]++;
                    else
                        d->line_win[e][off[c] + fill[c]++] = w;
                }
            }
        }
        if (pass == 0) {
            for (int c = 0; c < d->ncells; c++)
                off[c + 1] = (uint16_t)(off[c + 1] + off[c]);
            d->line_win[e] = malloc(sizeof(uint64_t) * (size_t)(total ? total : 1));
            if (!d->line_win[e])
                return BS_ENOMEM;
        }
    }
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
            line_bitboard(d, e);
            if (d->line_bb[e] && line_windows(d, e))
                return BS_ENOMEM;
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
            d->connect_nb[e] = calloc((size_t)d->ncells * (size_t)d->nwords, sizeof(uint64_t));
            if (!d->connect_nb[e])
                return BS_ENOMEM;
            for (int c = 0; c < d->ncells; c++)
                for (int j = 0; j < es->dirs.n; j++) {
                    int t = d->nb[c * 8 + d->connect_dirs[e][j]];
                    if (t >= 0)
                        d->connect_nb[e][c * d->nwords + (t >> 6)] |= 1ULL << (t & 63);
                }
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

/* Can playouts take the quick loop (dgame_impl.h, d->quick)? */
static void quick_playouts(dg_desc *d)
{
    const dg_spec *sp = &d->spec;
    d->quick_plies = INT_MAX;
    d->nquick = 0;
    int ok = d->ncells <= 64 && !sp->swap && (d->pick == DG_PICK_EMPTY || d->pick == DG_PICK_COLUMN) &&
             d->rules[0].one_cell;
    for (int e = 0; e < sp->nends && ok; e++) {
        const dg_end_spec *es = &sp->ends[e];
        if (es->op == DG_END_PLIES && es->n < d->quick_plies)
            d->quick_plies = es->n;
        ok = es->op == DG_END_FULL || es->op == DG_END_PLIES || (es->op == DG_END_LINE && d->line_bb[e]);
        for (int a = 0; ok && es->op == DG_END_LINE && a < d->nline_dirs[e]; a++) {
            d->quick_start[d->nquick] = d->line_start[e][a];
            d->quick_shift[d->nquick] = d->line_shift[e][a];
            d->quick_k[d->nquick++] = es->k;
        }
    }
    d->quick = ok;
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
    d->nwords = (d->ncells + 63) >> 6;
    for (int code = 0; code < 256; code++)
        d->cls[code] = (uint8_t)(code == 0 ? DG_CLS_EMPTY : code == DG_BLOCK ? DG_CLS_BLOCK : DG_CLS_SIDE(dg_side_of((unsigned)code)));
    for (int code = 0; code < 256; code++)
        d->zidx[code] = (uint8_t)(code == DG_BLOCK ? 17 : code <= 2 * DG_MAX_KINDS ? code : 0);
    for (int c = 0; c < d->ncells; c++) {
        uint64_t bit = 1ULL << (c & 63);
        d->colmask[c % d->cols].w[c >> 6] |= bit;
        if (c < d->cols) {
            d->edge[DG_EDGE_N].w[c >> 6] |= bit;
            d->top |= bit;
        }
        if (c >= d->ncells - d->cols)
            d->edge[DG_EDGE_S].w[c >> 6] |= bit;
        if (c % d->cols == 0)
            d->edge[DG_EDGE_W].w[c >> 6] |= bit;
        if (c % d->cols == d->cols - 1)
            d->edge[DG_EDGE_E].w[c >> 6] |= bit;
    }
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
        d->zob[i] = i % DG_ZCODES ? bs_mix64(x += 0x9e3779b97f4a7c15ULL) : 0; /* empty: no key */
    d->zside = bs_mix64(x += 0x9e3779b97f4a7c15ULL);
    for (int i = 0; i < 3; i++)
        d->zpass[i] = i ? bs_mix64(x += 0x9e3779b97f4a7c15ULL) : 0;
    for (int r = 0; r < sp->nrules; r++) {
        int rc = check_rule(d, r, why, why_len);
        if (rc)
            return rc;
    }
    int rc = check_ends(d, why, why_len);
    d->hop_quick = rc == BS_OK && d->ncells <= 64;
    d->kbits = d->ncells <= 64 && sp->nkinds > 1;
    for (int dir = 0; dir < 8 && d->hop_quick; dir++) {
        d->hopd[dir] = dg_compass[dir][0] * d->cols + dg_compass[dir][1];
        for (int c = 0; c < d->ncells; c++) {
            int t = d->nb[c * 8 + dir];
            if (t >= 0 && d->nb[t * 8 + dir] >= 0)
                d->hop2[dir] |= 1ULL << c;
        }
    }
    for (int r = 0; r < sp->nrules && d->hop_quick; r++)
        if (sp->rules[r].op == DG_OP_HOP)
            for (int side = 0; side < 2; side++)
                for (int j = 0; j < d->rules[r].n[side]; j++)
                    d->hopdirs[side] |= 1u << d->rules[r].dir[side][j];
    d->bulk = rc == BS_OK && d->ncells <= 64 && !sp->must_capture && !sp->swap;
    int moving = 0, placing = 0;
    for (int r = 0; r < sp->nrules && d->bulk; r++) {
        const dg_rule_spec *rs = &sp->rules[r];
        if (rs->op == DG_OP_PLACE)
            d->bulk = rs->at != DG_AT_ADJACENT && !rs->has_flips;
        else
            d->bulk = (rs->op == DG_OP_STEP || rs->op == DG_OP_LEAP) && rs->kinds == (1u << sp->nkinds) - 1;
        moving |= rs->op != DG_OP_PLACE;
        placing |= rs->op == DG_OP_PLACE;
    }
    d->pick = d->bulk && moving ? (placing ? DG_PICK_PARTIAL : DG_PICK_NTH) : DG_PICK_LIST;
    d->leaf_sets = d->pick == DG_PICK_NTH;
    for (int r = 0; r < sp->nrules && d->leaf_sets; r++)
        d->leaf_sets = d->rules[r].two_cells;
    if (rc == BS_OK && sp->nrules == 1 && sp->rules[0].op == DG_OP_PLACE && sp->rules[0].at == DG_AT_EMPTY &&
        !sp->rules[0].has_flips && !sp->must_capture)
        d->pick = DG_PICK_EMPTY;
    if (rc == BS_OK && sp->nrules == 1 && sp->rules[0].op == DG_OP_PLACE && sp->rules[0].at == DG_AT_COLUMN &&
        !sp->rules[0].has_flips && !sp->must_capture && !sp->swap)
        d->pick = DG_PICK_COLUMN;
    d->line_whole = 1; /* only a side's own move adds its pieces (line ends, dgame_end.c) */
    for (int r = 0; r < sp->nrules && rc == BS_OK; r++)
        d->line_whole &= !sp->rules[r].has_flips && !sp->rules[r].has_convert;
    if (rc == BS_OK)
        quick_playouts(d);
    return rc;
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
    for (int e = 0; e < DG_MAX_ENDS; e++) {
        free(d->connect_nb[e]);
        free(d->line_win[e]);
        free(d->line_woff[e]);
    }
    free(d);
}

int dg_rows(const dg_desc *d) { return d->rows; }
int dg_cols(const dg_desc *d) { return d->cols; }
const dg_spec *dg_desc_spec(const dg_desc *d) { return &d->spec; }

