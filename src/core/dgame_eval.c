/* dgame_eval.c - the described-game searcher's horizon evaluation: material, line potential, the lead towards a reach zone. */
#include <stdlib.h>

#include "dgame_search_impl.h"

/* The weights (docs/decisions.md, "Described games: the searchers"). */
#define MATERIAL 100  /* per unit of a kind's value */
#define REACH_LEAD 20 /* per row the most advanced piece is nearer its zone than the opponent's */
static const int LINE_WEIGHT[] = {0, 1, 5, 25, 125, 625, 3125}; /* a window holding c pieces of one side */

void dgs_free_tables(dg_searcher *sr)
{
    free(sr->lines);
    free(sr->windows);
    sr->windows = NULL;
    sr->window_count = 0;
    free(sr->dist[0]);
    free(sr->dist[1]);
    sr->lines = NULL;
    sr->dist[0] = sr->dist[1] = NULL;
    sr->line_count = 0;
}

/* The lines along the line end's axes, and the distances to the reach
 * zone: made once a search. */
int dgs_prepare_eval(dg_searcher *sr, const dg_eval_game *eg)
{
    dgs_free_tables(sr);
    int rows = eg->rows, cols = eg->cols;
    sr->cells = rows * cols;
    sr->k = eg->line_k;
    sr->far = rows > cols ? rows : cols;
    sr->uniform = 1;
    for (int i = 0; i < DG_EVAL_KINDS; i++) {
        sr->values[i] = eg->values[i] ? eg->values[i] : 1;
        if (sr->values[i] != sr->values[0])
            sr->uniform = 0;
    }
    sr->reach_kinds = eg->reach_kinds ? eg->reach_kinds : ~0u;
    sr->learned = eg->learned;
    for (int code = 0; code < 256; code++)
        sr->side_of[code] = (unsigned char)(code == 0 ? 0 : code == DG_BLOCK ? 3 : dg_side_of((unsigned)code));
    if (sr->k >= 2) {
        int cap = 4 * (rows + cols + 1) * 2;
        sr->lines = malloc((size_t)cap * sizeof *sr->lines);
        if (!sr->lines)
            return BS_ENOMEM;
        for (int a = 0; a < eg->line_axis_count && a < 4; a++) {
            int dr = eg->line_axes[a][0], dc = eg->line_axes[a][1];
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < cols; c++) {
                    int pr = r - dr, pc = c - dc;
                    if (pr >= 0 && pr < rows && pc >= 0 && pc < cols)
                        continue; /* not the first cell of its line */
                    int length = 0;
                    for (int lr = r, lc = c; lr >= 0 && lr < rows && lc >= 0 && lc < cols; lr += dr, lc += dc)
                        length++;
                    if (length < sr->k || sr->line_count >= cap || (dr == 0 && dc == 0))
                        continue;
                    sr->lines[sr->line_count++] = (line){r * cols + c, dr * cols + dc, length};
                }
        }
    }
    if (sr->line_count && sr->cells <= 64) {
        int cap = 0;
        for (int l = 0; l < sr->line_count; l++)
            cap += sr->lines[l].length - sr->k + 1;
        sr->windows = malloc((size_t)cap * sizeof *sr->windows);
        if (!sr->windows)
            return BS_ENOMEM;
        for (int l = 0; l < sr->line_count; l++)
            for (int j = 0; j + sr->k <= sr->lines[l].length; j++) {
                uint64_t mask = 0;
                for (int i = 0; i < sr->k; i++)
                    mask |= 1ULL << (sr->lines[l].start + (j + i) * sr->lines[l].step);
                sr->windows[sr->window_count++] = mask;
            }
        sr->board_mask = sr->cells == 64 ? ~0ULL : (1ULL << sr->cells) - 1;
    }
    for (int side = 0; side < 2; side++) {
        if (!eg->reach_zone[side] || eg->reach_zone_count[side] <= 0)
            continue;
        sr->dist[side] = malloc((size_t)sr->cells);
        if (!sr->dist[side])
            return BS_ENOMEM;
        for (int i = 0; i < sr->cells; i++) {
            int best = 255, r = i / cols, c = i % cols;
            for (int z = 0; z < eg->reach_zone_count[side]; z++) {
                int cell = eg->reach_zone[side][z];
                if (cell < 0 || cell >= sr->cells)
                    continue;
                int dr = abs(cell / cols - r), dc = abs(cell % cols - c);
                int dist = dr > dc ? dr : dc;
                if (dist < best)
                    best = dist;
            }
            sr->dist[side][i] = (unsigned char)best;
        }
    }
    return BS_OK;
}

/* Windows of k cells slid along each line: one holding c pieces of one
 * side only is worth LINE_WEIGHT[c] to it. */
static void line_potential(const dg_searcher *sr, const uint8_t *cell, int v[2])
{
    int k = sr->k, top = (int)(sizeof LINE_WEIGHT / sizeof LINE_WEIGHT[0]) - 1;
    for (int l = 0; l < sr->line_count; l++) {
        const line *ln = &sr->lines[l];
        int count[4] = {0, 0, 0, 0};
        int step = ln->step, in = ln->start, out = ln->start;
        for (int j = 0; j < k - 1; j++, in += step)
            count[sr->side_of[cell[in]]]++;
        for (int j = k - 1; j < ln->length; j++, in += step, out += step) {
            count[sr->side_of[cell[in]]]++;
            if (!count[3]) {
                if (count[1] && !count[2])
                    v[0] += LINE_WEIGHT[count[1] < top ? count[1] : top];
                else if (count[2] && !count[1])
                    v[1] += LINE_WEIGHT[count[2] < top ? count[2] : top];
            }
            count[sr->side_of[cell[out]]]--;
        }
    }
}

/* The same on a board of one word: each window's pieces counted by masks. */
static void line_potential64(const dg_searcher *sr, const dg_state *s, int v[2])
{
    int top = (int)(sizeof LINE_WEIGHT / sizeof LINE_WEIGHT[0]) - 1;
    uint64_t black = s->occ[0][0], white = s->occ[1][0];
    uint64_t blocks = ~(black | white | s->empty[0]) & sr->board_mask;
    for (int w = 0; w < sr->window_count; w++) {
        uint64_t m = sr->windows[w];
        if (m & blocks)
            continue;
        int b = __builtin_popcountll(black & m), o = __builtin_popcountll(white & m);
        if (b && !o)
            v[0] += LINE_WEIGHT[b < top ? b : top];
        else if (o && !b)
            v[1] += LINE_WEIGHT[o < top ? o : top];
    }
}

/* The position for the side to move, in hundredths of a piece: material,
 * line potential, the lead towards the reach zone. */
static int hand_evaluate(dg_searcher *sr)
{
    const dg_state *s = sr->s;
    int v[2];
    for (int side = 0; side < 2; side++) {
        int material = 0, nearest = 255;
        if (sr->uniform && !sr->dist[side]) {
            material = s->count[side] * sr->values[0];
        } else {
            for (int w = 0; w < DG_WORDS; w++)
                for (uint64_t bits = s->occ[side][w]; bits; bits &= bits - 1) {
                    int i = w * 64 + __builtin_ctzll(bits);
                    unsigned kind = dg_kind_of(s->cell[i]);
                    material += sr->values[kind & 7];
                    if (sr->dist[side] && (sr->reach_kinds >> kind & 1u) && sr->dist[side][i] < nearest)
                        nearest = sr->dist[side][i];
                }
        }
        v[side] = material * MATERIAL;
        if (sr->dist[side])
            v[side] -= REACH_LEAD * (nearest < sr->far ? nearest : sr->far);
    }
    if (sr->window_count)
        line_potential64(sr, s, v);
    else if (sr->line_count)
        line_potential(sr, s->cell, v);
    int me = s->player - 1;
    int value = v[me] - v[1 - me];
    return value > EVAL_BOUND ? EVAL_BOUND : value < -EVAL_BOUND ? -EVAL_BOUND : value;
}

/* A finished game for the side to move, `ply` plies from the root. */

/* The learned value (which reads the hand-written one) in hundredths. */
static int learned_value(const dg_searcher *sr, const dg_state *s, int hand)
{
    double x = dg_ntuple_value_hand(sr->learned, s, hand) * DG_NT_SEARCH_SCALE;
    double bound = DG_SEARCH_WIN / 4;
    return x > bound ? (int)bound : x < -bound ? -(int)bound : (int)x;
}

/* The horizon's value: the hand-written evaluation, or the learned one. */
int dgs_evaluate(dg_searcher *sr)
{
    int hand = hand_evaluate(sr);
    return sr->learned ? learned_value(sr, sr->s, hand) : hand;
}

int dg_search_prepare(dg_searcher *sr, const dg_desc *d, const dg_eval_game *eg)
{
    if (!sr || !d || !eg || eg->rows != dg_rows(d) || eg->cols != dg_cols(d) || eg->line_k < 0 ||
        (eg->learned && !dg_ntuple_fits(eg->learned, d)))
        return BS_EINVAL;
    sr->d = d;
    return dgs_prepare_eval(sr, eg);
}

int dg_search_static(dg_searcher *sr, const dg_state *s, int *value, int *hand)
{
    if (!sr || !s || !sr->d)
        return BS_EINVAL;
    sr->s = (dg_state *)(uintptr_t)s; /* read only: the evaluation plays nothing */
    int h = hand_evaluate(sr);
    if (hand)
        *hand = h;
    if (value)
        *value = sr->learned ? learned_value(sr, s, h) : h;
    sr->s = NULL;
    return BS_OK;
}
