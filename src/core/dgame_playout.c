/* dgame_playout.c - described games: random playouts (the general loop over
 * any description, and the quick loop of placement games on one word). */
#include <stdlib.h>

#include "dgame_impl.h"

struct dg_playout_buf {
    dg_move *moves;  /* DG_MOVES_MAX */
    uint64_t *sets;  /* DG_MAX_RULES * DG_MAX_OFFSETS */
    dg_state *w;     /* the playout's position */
};

dg_playout_buf *dg_playout_buf_new(void)
{
    dg_playout_buf *pb = calloc(1, sizeof *pb);
    if (!pb)
        return NULL;
    pb->moves = malloc(sizeof *pb->moves * DG_MOVES_MAX);
    pb->sets = malloc(sizeof *pb->sets * DG_MAX_RULES * DG_MAX_OFFSETS);
    pb->w = calloc(1, sizeof *pb->w);
    if (!pb->moves || !pb->sets || !pb->w || dg_reserve_log(pb->w, 4 * DG_MAX_HOPS + 64)) {
        dg_playout_buf_free(pb);
        return NULL;
    }
    return pb;
}

void dg_playout_buf_free(dg_playout_buf *pb)
{
    if (!pb)
        return;
    free(pb->moves);
    free(pb->sets);
    dg_state_free(pb->w);
    free(pb);
}

/* The index of the n-th (0-based) empty cell. */
static dg_move nth_empty(const dg_state *s, int n)
{
    for (int w = 0;; w++) {
        uint64_t x = s->empty[w];
        int c = __builtin_popcountll(x);
        if (n < c) {
            while (n--)
                x &= x - 1;
            return (dg_move)(w * 64 + __builtin_ctzll(x));
        }
        n -= c;
    }
}

/* The move into the n-th (0-based) open column. */
static dg_move column_drop(const dg_desc *d, const dg_state *s, int n)
{
    int col = bs_nth_bit(s->empty[0] & d->top, n);
    return (dg_move)dg_drop_cell(d, s->empty, col) << 10 | (dg_move)DG_NONE_CELL;
}

/* The quick loop (d->quick: one placement rule on any empty cell or into a
 * column, no flips, convert or swap; ends only lines of at least k, a full
 * board and a ply limit; at most 64 cells). The moves are drawn exactly as
 * the general loop draws them (the same draws give the same cells), played
 * on two words of pieces and one of empty cells. While the board is not
 * full and no ply limit is reached, only a line can end the game, and a
 * line of the mover's on the whole board is one the move made (or one left
 * in the setup, which ends the game at the mover's first move, as
 * dg_update_status says); so such a game is decided here. Anything else
 * (a full board, a ply limit, no move) is left to the general rules: the
 * moves made are played on w by dg_play, which sets the status, and the
 * general loop goes on from there. On a win here only w's status and how
 * are set (the position is not). *plies: the plies played. */
static int quick_playout(const dg_desc *d, dg_state *w, bs_rng *rng, int ply_cap, int *plies)
{
    uint64_t b[2] = { w->occ[0][0], w->occ[1][0] }, e = w->empty[0];
    int p = w->player - 1, ply = w->ply, n = 0, column = d->pick == DG_PICK_COLUMN;
    int8_t drop[64]; /* column: the cell a piece dropped there comes to */
    uint8_t cells[64];
    for (int col = 0; column && col < d->cols; col++)
        drop[col] = (int8_t)dg_drop_cell(d, &e, col);
    while (n < ply_cap && n < 64) {
        uint64_t x = column ? e & d->top : e;
        int k = __builtin_popcountll(x);
        if (k == 0)
            break;
        int c = bs_nth_bit(x, (int)bs_rng_below_inline(rng, (uint64_t)k));
        if (column) {
            int col = c;
            c = drop[col];
            drop[col] = (int8_t)(c - d->cols);
        }
        uint64_t bit = 1ULL << c;
        b[p] |= bit;
        e ^= bit;
        cells[n++] = (uint8_t)c;
        if (e == 0 || ++ply >= d->quick_plies)
            break;
        if (dg_quick_line(d, b[p])) {
            w->status = p + 1;
            w->how = DG_HOW_WIN;
            *plies = n;
            return BS_OK;
        }
        p ^= 1;
    }
    for (int i = 0; i < n; i++) {
        int rc = dg_play(d, w, (dg_move)cells[i] << 10 | (dg_move)DG_NONE_CELL);
        w->log_top = w->nframes = 0;
        if (rc)
            return rc;
    }
    *plies = n;
    return BS_OK;
}

int dg_playouts_in(dg_playout_buf *pb, const dg_desc *d, const dg_state *s, bs_rng *rng, int n, int ply_cap,
                   int64_t out[4])
{
    out[0] = out[1] = out[2] = out[3] = 0;
    dg_move *buf = pb->moves;
    uint64_t *sets = pb->sets;
    dg_state *w = pb->w;
    int rc = BS_OK;
    for (int p = 0; p < n && rc == BS_OK; p++) {
        dg_copy_position(w, s); /* no log, no frames */
        w->nolog = 1;
        int plies = 0;
        if (d->quick && w->status == DG_ONGOING)
            rc = quick_playout(d, w, rng, ply_cap, &plies);
        while (rc == BS_OK && w->status == DG_ONGOING && plies < ply_cap) {
            /* the drawn move is always moves[pick] of the whole list */
            int mode = d->pick == DG_PICK_EMPTY && d->spec.swap && w->ply == 1 ? DG_PICK_LIST : d->pick;
            int k = mode == DG_PICK_EMPTY     ? w->nempty
                    : mode == DG_PICK_COLUMN  ? __builtin_popcountll(w->empty[0] & d->top)
                    : mode == DG_PICK_NTH     ? dg_origin_sets(d, w, sets)
                    : mode == DG_PICK_PARTIAL ? dg_count_moves(d, w)
                                              : dg_generate(d, w, buf, DG_MOVES_MAX, 0);
            if (k < 0) {
                rc = k;
                break;
            }
            if (k == 0) {
                dg_set_nomove(d, w, 1);
                if (w->status != DG_ONGOING)
                    break;
                rc = dg_pass(d, w);
            } else {
                int pick = (int)bs_rng_below_inline(rng, (uint64_t)k);
                if (mode == DG_PICK_PARTIAL)
                    dg_generate(d, w, buf, pick + 1, 0); /* pick + 1 moves, or DG_EOVERFLOW after them */
                else if (mode == DG_PICK_EMPTY)
                    buf[pick] = nth_empty(w, pick) << 10 | (dg_move)DG_NONE_CELL;
                else if (mode == DG_PICK_COLUMN)
                    buf[pick] = column_drop(d, w, pick);
                else if (mode == DG_PICK_NTH)
                    buf[pick] = dg_nth_move(d, w, sets, pick);
                rc = dg_play(d, w, buf[pick]);
            }
            w->log_top = w->nframes = 0; /* no undo in a playout */
            plies++;
        }
        out[w->status == DG_WON_BLACK ? 0 : w->status == DG_WON_WHITE ? 1 : 2]++;
        out[3] += plies;
    }
    return rc;
}

int dg_playouts(const dg_desc *d, const dg_state *s, bs_rng *rng, int n, int ply_cap, int64_t out[4])
{
    dg_playout_buf *pb = dg_playout_buf_new();
    if (!pb) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return BS_ENOMEM;
    }
    int rc = dg_playouts_in(pb, d, s, rng, n, ply_cap, out);
    dg_playout_buf_free(pb);
    return rc;
}
