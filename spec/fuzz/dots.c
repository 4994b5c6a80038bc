/* dots.c - libFuzzer target: Dots and Boxes positions driven by random
 * edges, undos and queries with arbitrary arguments. Checks the bookkeeping
 * (scores, owners, side counts, open edges, history) against a recount, that
 * undo restores the position and its hash, that edges and dots convert both
 * ways, and that chains and loops cover exactly the two-sided boxes. */
#include <string.h>

#include "dots.h"
#include "fuzz_input.h"

static int box_sides_recount(const bs_dots *d, int r, int c)
{
    int H = (d->rows + 1) * d->cols;
    int e[4] = {r * d->cols + c, (r + 1) * d->cols + c, H + r * (d->cols + 1) + c,
                H + r * (d->cols + 1) + c + 1};
    int k = 0;
    for (int i = 0; i < 4; i++)
        k += (int)(d->drawn[e[i] / 64] >> (e[i] % 64) & 1u);
    return k;
}

static void check(const bs_dots *d)
{
    FZ_CHECK(d->nedges == 2 * d->rows * d->cols + d->rows + d->cols && d->nboxes == d->rows * d->cols);
    int drawn = 0;
    for (int e = 0; e < d->nedges; e++) {
        int is = bs_dots_is_drawn(d, e);
        FZ_CHECK(is == 0 || is == 1);
        drawn += is;
        int r1, c1, r2, c2, back;
        FZ_CHECK(bs_dots_dots_of_edge(d, e, &r1, &c1, &r2, &c2) == BS_OK);
        FZ_CHECK(bs_dots_edge_of_dots(d, r1, c1, r2, c2, &back) == BS_OK && back == e);
        FZ_CHECK(bs_dots_edge_of_dots(d, r2, c2, r1, c1, &back) == BS_OK && back == e);
        int boxes[2];
        FZ_CHECK(bs_dots_edge_boxes(d, e, boxes) == BS_OK);
        FZ_CHECK(boxes[0] >= -1 && boxes[0] < d->nboxes && boxes[1] >= -1 && boxes[1] < d->nboxes);
    }
    for (int w = 0; w < BS_DOTS_WORDS; w++) /* bits past nedges stay clear */
        for (int bit = 0; bit < 64; bit++)
            if (w * 64 + bit >= d->nedges)
                FZ_CHECK(!(d->drawn[w] >> bit & 1u));
    FZ_CHECK(drawn == d->nhistory);
    FZ_CHECK(bs_dots_open_count(d) == d->nedges - drawn);
    int owned[2] = {0, 0}, two_sided = 0;
    for (int r = 0; r < d->rows; r++)
        for (int c = 0; c < d->cols; c++) {
            int sides = bs_dots_box_sides(d, r, c), owner;
            FZ_CHECK(sides == box_sides_recount(d, r, c));
            FZ_CHECK(bs_dots_box_owner(d, r, c, &owner) == BS_OK);
            FZ_CHECK((owner != BS_DOTS_NOBODY) == (sides == 4));
            if (owner != BS_DOTS_NOBODY)
                owned[owner]++;
            two_sided += sides == 2;
        }
    FZ_CHECK(owned[0] == d->score[0] && owned[1] == d->score[1]);
    FZ_CHECK(bs_dots_is_finished(d) == (drawn == d->nedges));
    int open[BS_DOTS_MAX_EDGES];
    int k = bs_dots_open_edges(d, open, BS_DOTS_MAX_EDGES);
    FZ_CHECK(k == d->nedges - drawn);
    for (int i = 0; i < k; i++)
        FZ_CHECK(bs_dots_is_drawn(d, open[i]) == 0 && (i == 0 || open[i] > open[i - 1]));
    if (k > 0)
        FZ_CHECK(bs_dots_open_edges(d, open, k - 1) == BS_EINVAL || k - 1 >= d->nedges);
    bs_dots_chain chains[BS_DOTS_MAX_BOXES];
    int box_chain[BS_DOTS_MAX_BOXES], count, covered = 0;
    FZ_CHECK(bs_dots_chains(d, chains, d->nboxes, &count, box_chain) == BS_OK);
    for (int i = 0; i < count; i++) {
        FZ_CHECK(chains[i].length >= 1 && (chains[i].kind == BS_DOTS_CHAIN || chains[i].kind == BS_DOTS_LOOP));
        covered += chains[i].length;
    }
    FZ_CHECK(covered == two_sided);
    for (int bx = 0; bx < d->nboxes; bx++) {
        int sides = bs_dots_box_sides(d, bx / d->cols, bx % d->cols);
        FZ_CHECK((box_chain[bx] >= 0) == (sides == 2) && box_chain[bx] < count);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size, 0};
    bs_dots d;
    int rows = fz_arg(&in, 1, BS_DOTS_MAX_SIDE), cols = fz_arg(&in, 1, BS_DOTS_MAX_SIDE);
    int st = bs_dots_init(&d, rows, cols);
    int good = rows >= 1 && cols >= 1 && rows <= BS_DOTS_MAX_SIDE && cols <= BS_DOTS_MAX_SIDE;
    FZ_CHECK(good ? st == BS_OK : st == BS_EINVAL);
    if (!good)
        return 0;
    check(&d);
    for (int steps = 0; fz_more(&in) && steps < 300; steps++) {
        unsigned op = fz_u8(&in) % 8u;
        if (op <= 3) { /* draw, and check that an undo would put everything back */
            int e = fz_arg(&in, 0, d.nedges - 1);
            int drawn = e >= 0 && e < d.nedges ? bs_dots_is_drawn(&d, e) : -1;
            bs_dots before;
            bs_dots_clone(&before, &d);
            uint64_t hash = bs_dots_hash(&d);
            int completes = -1, thirds = -1, completed = -1;
            int eff = bs_dots_edge_effect(&d, e, &completes, &thirds);
            int st2 = bs_dots_draw(&d, e, &completed);
            if (drawn < 0) {
                FZ_CHECK(st2 == BS_EINVAL && eff == BS_EINVAL);
            } else if (drawn == 1) {
                FZ_CHECK(st2 == BS_EILLEGAL && eff == BS_EILLEGAL);
            } else {
                FZ_CHECK(st2 == BS_OK && eff == BS_OK && completed == completes);
                FZ_CHECK(completed >= 0 && completed <= 2 && thirds >= 0 && thirds <= 2);
                FZ_CHECK(d.score[before.turn] == before.score[before.turn] + completed);
                FZ_CHECK(d.turn == (completed ? before.turn : 1 - before.turn));
                FZ_CHECK(d.nhistory == before.nhistory + 1 && bs_dots_hash(&d) != hash);
                if (op == 3) {
                    int back;
                    FZ_CHECK(bs_dots_undo(&d, &back) == BS_OK && back == e);
                    FZ_CHECK(bs_dots_equal(&d, &before) && bs_dots_hash(&d) == hash);
                    FZ_CHECK(memcmp(d.history, before.history, sizeof(uint16_t) * (size_t)d.nhistory) == 0);
                }
            }
            if (st2 != BS_OK)
                FZ_CHECK(bs_dots_equal(&d, &before) && bs_dots_hash(&d) == hash);
        } else if (op == 4) {
            int e;
            int n = d.nhistory;
            int st2 = bs_dots_undo(&d, (fz_u8(&in) & 1u) ? &e : NULL);
            FZ_CHECK(n == 0 ? st2 == BS_ESTATE : st2 == BS_OK && d.nhistory == n - 1);
        } else if (op == 5) { /* queries with arbitrary arguments */
            int r = fz_arg(&in, 0, d.rows), c = fz_arg(&in, 0, d.cols), owner;
            int in_boxes = r >= 0 && c >= 0 && r < d.rows && c < d.cols;
            int in_dots = r >= 0 && c >= 0 && r <= d.rows && c <= d.cols;
            int sides = bs_dots_box_sides(&d, r, c);
            FZ_CHECK(in_boxes ? sides >= 0 && sides <= 4 : sides == BS_EINVAL);
            FZ_CHECK((bs_dots_box_owner(&d, r, c, &owner) == BS_OK) == in_boxes);
            int deg = bs_dots_dot_degree(&d, r, c);
            FZ_CHECK(in_dots ? deg >= 0 && deg <= 4 : deg == BS_EINVAL);
            int r2 = fz_arg(&in, 0, d.rows), c2 = fz_arg(&in, 0, d.cols), e;
            int adjacent = in_dots && r2 >= 0 && c2 >= 0 && r2 <= d.rows && c2 <= d.cols &&
                           ((r == r2 && (c - c2 == 1 || c2 - c == 1)) || (c == c2 && (r - r2 == 1 || r2 - r == 1)));
            FZ_CHECK((bs_dots_edge_of_dots(&d, r, c, r2, c2, &e) == BS_OK) == adjacent);
            int q = fz_arg(&in, 0, d.nedges - 1), boxes[2], a, b2, x, y;
            int in_edges = q >= 0 && q < d.nedges;
            FZ_CHECK((bs_dots_edge_boxes(&d, q, boxes) == BS_OK) == in_edges);
            FZ_CHECK((bs_dots_dots_of_edge(&d, q, &a, &b2, &x, &y) == BS_OK) == in_edges);
            FZ_CHECK(in_edges ? bs_dots_is_drawn(&d, q) >= 0 : bs_dots_is_drawn(&d, q) == BS_EINVAL);
        } else if (op == 6) { /* too small a buffer for the chains */
            bs_dots_chain chains[BS_DOTS_MAX_BOXES];
            int count, cap = fz_range(&in, 0, d.nboxes);
            int st2 = bs_dots_chains(&d, chains, cap, &count, NULL);
            FZ_CHECK(st2 == BS_OK || st2 == BS_EINVAL);
            if (st2 == BS_OK)
                FZ_CHECK(count <= cap);
        } else {
            check(&d);
        }
    }
    check(&d);
    return 0;
}
