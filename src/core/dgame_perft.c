/* dgame_perft.c - described games: perft, random playouts, move notation. */
#include <stdio.h>
#include <stdlib.h>

#include "dgame_impl.h"

static int64_t perft_rec(const dg_desc *d, dg_state *s, int depth, int bulk, dg_move *buf)
{
    if (s->status != DG_ONGOING)
        return 0;
    if (depth == 1 && !bulk && d->leaf_sets) {
        int k = dg_origin_sets(d, s, buf); /* buf: room for the sets */
        if (k > 0)
            return dg_play_leaf_sets(d, s, buf) ? BS_ENOMEM : k;
    }
    if (depth == 1 && !bulk && d->pick == DG_PICK_COLUMN && d->rules[0].one_cell && (s->empty[0] & d->top)) {
        uint64_t drops[DG_WORDS] = { 0 }; /* the cell each open column's move fills */
        for (uint64_t x = s->empty[0] & d->top; x; x &= x - 1) {
            int c = dg_drop_cell(d, s->empty, __builtin_ctzll(x));
            drops[c >> 6] |= 1ULL << (c & 63);
        }
        if (dg_reserve_log(s, 1))
            return BS_ENOMEM;
        return dg_play_leaf_places(d, s, dg_code((unsigned)d->rules[0].spec->kind - 1, s->player), drops);
    }
    int n = depth == 1 && bulk && d->bulk ? dg_count_moves(d, s) : dg_generate(d, s, buf, DG_MOVES_MAX, 0);
    if (n < 0)
        return n;
    if (n == 0) {
        if (d->spec.no_move != DG_NOMOVE_PASS)
            return 0;
        if (depth == 1 && bulk)
            return 1;
        if (dg_pass(d, s))
            return BS_ENOMEM;
        int64_t r = depth == 1 ? 1 : perft_rec(d, s, depth - 1, bulk, buf);
        dg_undo(d, s);
        return r;
    }
    if (depth == 1 && bulk)
        return n;
    if (depth == 1)
        return dg_play_leaves(d, s, buf, n) ? BS_ENOMEM : n;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (dg_play(d, s, buf[i]))
            return BS_ENOMEM;
        int64_t r = depth == 1 ? 1 : perft_rec(d, s, depth - 1, bulk, buf + n);
        dg_undo(d, s);
        if (r < 0)
            return r;
        total += r;
    }
    return total;
}

/* Perft of a game whose one rule places a piece on any empty cell (Gomoku,
 * Hex, tic-tac-toe: d->pick is DG_PICK_EMPTY, no swap, no convert): every
 * move is played and undone as dg_play and dg_undo do it (cells, sets,
 * counts, hash, side, ply, moved, the log through which the ends look,
 * dg_update_status), with the scalars kept on the stack instead of an undo
 * frame and without decoding a move or generating a list. */
static int64_t perft_place(const dg_desc *d, dg_state *s, int depth, int bulk, dg_move *buf)
{
    if (s->status != DG_ONGOING)
        return 0;
    if (s->nempty == 0 || (depth == 1 && bulk)) /* no move: perft_rec's pass rules */
        return perft_rec(d, s, depth, bulk, buf);
    int side = s->player, from = s->log_top, first = !(s->moved >> (side - 1) & 1);
    unsigned kind0 = (unsigned)d->rules[0].spec->kind - 1, code = dg_code(kind0, side);
    if (depth == 1)
        return dg_play_leaf_places(d, s, code, s->empty);
    uint64_t hash = s->hash, zturn = d->zside ^ d->zpass[s->passes];
    int passes = s->passes, moved = s->moved, nomove = s->nomove, how = s->how;
    const uint64_t *zob = d->zob;
    unsigned zcode = d->zidx[code];
    int64_t total = 0;
    for (int w = 0; w < d->nwords; w++)
        for (uint64_t x = s->empty[w]; x; x &= x - 1) {
            int c = w * 64 + __builtin_ctzll(x);
            uint64_t bit = x & -x;
            s->log[from].cell = (uint16_t)c;
            s->log[from].old = 0;
            s->log_top = from + 1;
            s->cell[c] = (uint8_t)code;
            s->empty[w] &= ~bit;
            s->nempty--;
            s->occ[side - 1][w] |= bit;
            s->count[side - 1]++;
            if (d->kbits)
                s->kocc[side - 1][kind0] |= bit;
            s->hash = hash ^ zob[c * DG_ZCODES + zcode] ^ zturn;
            s->passes = 0;
            s->player = 3 - side;
            s->ply++;
            s->moved = moved | 1 << (side - 1);
            dg_update_status(d, s, side, first ? -1 : from);
            int64_t r = depth == 1 ? 1 : perft_place(d, s, depth - 1, bulk, buf);
            s->cell[c] = 0;
            s->empty[w] |= bit;
            s->nempty++;
            s->occ[side - 1][w] &= ~bit;
            s->count[side - 1]--;
            if (d->kbits)
                s->kocc[side - 1][kind0] &= ~bit;
            s->ply--;
            if (r < 0) {
                total = r;
                break;
            }
            total += r;
        }
    s->log_top = from;
    s->hash = hash;
    s->passes = passes;
    s->player = side;
    s->moved = moved;
    s->status = DG_ONGOING;
    s->how = how;
    s->nomove = nomove;
    return total;
}

/* A node without a move: the quick count hands the tree back. */
#define QUICK_NO_MOVE INT64_MIN

/* Bulk perft of a quick game (d->quick: one placement rule on any empty
 * cell or into a column, ends only lines of at least k, a full board and a
 * ply limit; one word) where no ply limit can come within `depth` plies
 * (the caller's test) and while there is a move: there only a line ends a game,
 * and a line of the mover's on the whole board is one its move made (or
 * one left in the setup, which ends the game at that side's first move, as
 * dg_update_status says), so a game won above the last ply is no leaf and
 * the last ply's moves are counted. b: the two sides' pieces, e the empty
 * cells, p the side to move (0, 1). QUICK_NO_MOVE for a node without a
 * move (a full board, or a column game's cells under blocks): the general
 * rules count the whole tree then (a full board's end, a pass). */
static int64_t quick_perft(const dg_desc *d, uint64_t b[2], uint64_t e, int p, int depth)
{
    int column = d->pick == DG_PICK_COLUMN;
    uint64_t x = column ? e & d->top : e;
    if (!x)
        return QUICK_NO_MOVE;
    if (depth == 1)
        return __builtin_popcountll(x);
    int64_t total = 0;
    uint64_t mine = b[p];
    for (; x; x &= x - 1) {
        int c = __builtin_ctzll(x);
        if (column) { /* the cell a piece dropped into column c comes to (dg_drop_cell) */
            uint64_t y = ~e & d->colmask[c].w[0];
            c = y ? __builtin_ctzll(y) - d->cols : d->ncells - d->cols + c;
        }
        uint64_t bit = 1ULL << c;
        if (dg_quick_line(d, mine | bit))
            continue;
        b[p] = mine | bit;
        int64_t r = quick_perft(d, b, e ^ bit, p ^ 1, depth - 1);
        b[p] = mine;
        if (r == QUICK_NO_MOVE)
            return r;
        total += r;
    }
    return total;
}

int64_t dg_perft_buf(const dg_desc *d, dg_state *s, int depth, int bulk, dg_move *buf)
{
    if (depth <= 0)
        return 1;
    if (bulk && d->quick && depth >= 2 && s->status == DG_ONGOING && s->ply + depth < d->quick_plies) {
        uint64_t b[2] = { s->occ[0][0], s->occ[1][0] };
        int64_t r = quick_perft(d, b, s->empty[0], s->player - 1, depth);
        if (r != QUICK_NO_MOVE)
            return r;
    }
    const dg_rule_spec *rs = d->spec.nrules ? &d->spec.rules[0] : NULL;
    if (d->pick == DG_PICK_EMPTY && !d->spec.swap && !rs->has_convert) {
        if (dg_reserve_log(s, depth + 1))
            return BS_ENOMEM;
        return perft_place(d, s, depth, bulk, buf);
    }
    return perft_rec(d, s, depth, bulk, buf);
}

int64_t dg_perft(const dg_desc *d, dg_state *s, int depth)
{
    if (depth <= 0)
        return 1;
    dg_move *buf = malloc(sizeof *buf * DG_MOVES_MAX * (size_t)depth);
    if (!buf)
        return BS_ENOMEM;
    int64_t r = dg_perft_buf(d, s, depth, 1, buf);
    free(buf);
    return r;
}

/* Decodes a move and checks its shape: the cells it touches, as dg_move_cells. */
int dg_move_cells(const dg_desc *d, dg_move m, int cells[DG_MAX_HOPS + 3])
{
    unsigned o = (unsigned)(m & 1023), t = (unsigned)(m >> 10 & 1023), r = (unsigned)(m >> 20 & 31);
    unsigned h = (unsigned)(m >> 25 & 15);
    uint64_t extra = m >> 29;
    unsigned nc = (unsigned)d->ncells;
    if (m >> 63)
        return -1;
    if (r == DG_SWAP_RULE)
        return o == DG_NONE_CELL && t == DG_NONE_CELL && h == 0 && extra == 0 && d->spec.swap ? 0 : -1;
    if ((int)r >= d->spec.nrules || t >= nc)
        return -1;
    const dg_rule *ru = &d->rules[r];
    int op = ru->spec->op, n = 0;
    if (op == DG_OP_PLACE) {
        if (o != DG_NONE_CELL || h || extra)
            return -1;
        cells[n++] = (int)t;
        return n;
    }
    if (o >= nc)
        return -1;
    cells[n++] = (int)o;
    if (op == DG_OP_HOP) {
        if (h < 1 || h > DG_MAX_HOPS || extra >> (3 * h))
            return -1;
        int c = (int)o;
        for (unsigned j = 0; j < h; j++) {
            int dir = (int)(extra >> (3 * j) & 7), over = d->nb[c * 8 + dir];
            c = over < 0 ? -1 : d->nb[over * 8 + dir];
            if (c < 0)
                return -1;
            if (j + 1 < h)
                cells[n++] = c;
        }
        if (c != (int)t)
            return -1;
        cells[n++] = c;
        return n;
    }
    if (h)
        return -1;
    if (ru->spec->has_arrow) {
        if (extra >= nc)
            return -1;
        cells[n++] = (int)extra;
    } else if (extra) {
        return -1;
    }
    cells[n++] = (int)t;
    return n;
}

int dg_move_wellformed(const dg_desc *d, dg_move m)
{
    int cells[DG_MAX_HOPS + 3];
    return dg_move_cells(d, m, cells) >= 0;
}

static int cell_name(const dg_desc *d, int c, char *p)
{
    return sprintf(p, "%c%d", 'a' + c % d->cols, c / d->cols + 1);
}

int dg_move_text(const dg_desc *d, dg_move m, char *buf, size_t len)
{
    int cells[DG_MAX_HOPS + 3];
    int n = dg_move_cells(d, m, cells);
    char text[DG_MAX_HOPS * 5 + 32];
    int k = 0;
    if (n < 0 || len < 1)
        return -1;
    if (n == 0) {
        k = sprintf(text, "swap");
    } else {
        int arrow = (m >> 20 & 31) != DG_SWAP_RULE && d->rules[m >> 20 & 31].spec->has_arrow;
        if (arrow) { /* origin, arrow, landing: written origin-landing/arrow */
            k += cell_name(d, cells[0], text + k);
            text[k++] = '-';
            k += cell_name(d, cells[2], text + k);
            text[k++] = '/';
            k += cell_name(d, cells[1], text + k);
        } else {
            for (int i = 0; i < n; i++) {
                if (i)
                    text[k++] = '-';
                k += cell_name(d, cells[i], text + k);
            }
        }
    }
    if ((size_t)k >= len)
        return -1;
    for (int i = 0; i <= k; i++)
        buf[i] = text[i];
    return k;
}
