/* dgame_bulk.c - described games on boards of at most 64 cells: moves
 * counted by popcounts (perft's last ply) and drawn from the sets of
 * origins that have a move (playouts). */
#include "dgame_impl.h"

static inline dg_move mv(int o, int t, int r) { return (dg_move)o | (dg_move)t << 10 | (dg_move)r << 20; }

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
