/* dots_solve_test.c - the exact Dots and Boxes solver's pruning (captures,
 * chain representatives, board symmetries, corner-edge symmetries,
 * enhanced transposition cutoffs, moves the table bounds below alpha, the
 * loony-endgame valuation) against a plain exhaustive minimax, and
 * symmetric positions against each other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots.h"
#include "dots_solve.h"

#define DOTS_CHECK_SEED 0x9e3779b97f4a7c15ULL
#include "dots_check.h"

/*
 * The reference: negamax over every open edge, no pruning and no chain
 * rules, memoised on which of the root's open edges are drawn (so it takes
 * any board with at most 24 open edges; the tests keep to 18 or fewer). Boxes are counted from the edges
 * alone, as the rules say.
 */
struct brute {
    const bs_dots *root;
    int nopen, open[64];
    signed char *memo; /* 127 = not yet known */
};

static int box_full(const bs_dots *d, uint64_t edges, int box)
{
    int r = box / d->cols, c = box % d->cols, h = (d->rows + 1) * d->cols;
    int top = r * d->cols + c, bottom = top + d->cols, left = h + r * (d->cols + 1) + c;
    return (edges >> top & 1) && (edges >> bottom & 1) && (edges >> left & 1)
        && (edges >> (left + 1) & 1);
}

static int brute_value(struct brute *br, uint32_t mask)
{
    if (br->memo[mask] != 127)
        return br->memo[mask];
    const bs_dots *d = br->root;
    uint64_t edges = d->drawn[0];
    for (int i = 0; i < br->nopen; i++)
        if (mask >> i & 1)
            edges |= (uint64_t)1 << br->open[i];
    int best = -100, any = 0;
    for (int i = 0; i < br->nopen; i++) {
        if (mask >> i & 1)
            continue;
        any = 1;
        int b[2], k = 0, e = br->open[i];
        bs_dots_edge_boxes(d, e, b);
        for (int j = 0; j < 2; j++)
            k += b[j] >= 0 && box_full(d, edges | (uint64_t)1 << e, b[j]);
        int child = brute_value(br, mask | 1u << i);
        int v = k ? k + child : -child;
        if (v > best)
            best = v;
    }
    br->memo[mask] = (signed char)(any ? best : 0);
    return br->memo[mask];
}

/* The exhaustive value of `d` (at most 24 open edges), or 99 on no memory. */
static int brute(const bs_dots *d)
{
    struct brute br = {.root = d};
    br.nopen = bs_dots_open_edges(d, br.open, 64);
    if (br.nopen < 0 || br.nopen > 24)
        return 99;
    br.memo = malloc((size_t)1 << br.nopen);
    if (!br.memo)
        return 99;
    memset(br.memo, 127, (size_t)1 << br.nopen);
    int v = brute_value(&br, 0);
    free(br.memo);
    return v;
}

/* A position reached by `drawn` random edges from the empty grid (boxes
 * completed on the way go to whoever drew them, as in a game). */
static void random_position(bs_dots *d, int rows, int cols, int drawn)
{
    int open[64];
    bs_dots_init(d, rows, cols);
    for (int i = 0; i < drawn; i++) {
        int n = bs_dots_open_edges(d, open, 64);
        bs_dots_draw(d, open[rnd(n)], NULL);
    }
}

/* The same position with edge e drawn iff map[e] is drawn in `src`. Only
 * the edges matter to the solver, so owners are left out. */
static void remap(bs_dots *dst, const bs_dots *src, const int *map)
{
    bs_dots_init(dst, src->rows, src->cols);
    for (int e = 0; e < src->nedges; e++)
        if (bs_dots_is_drawn(src, map[e]) == 1)
            dst->drawn[e >> 6] |= (uint64_t)1 << (e & 63);
    dst->turn = src->turn;
}

/* Edge index of the edge between two adjacent dots. */
static int edge_at(const bs_dots *d, int r1, int c1, int r2, int c2)
{
    int e = -1;
    bs_dots_edge_of_dots(d, r1, c1, r2, c2, &e);
    return e;
}

/* map[e] under symmetry k of the grid: bit 0 turns it upside down, bit 1
 * left to right, bit 2 transposes (square grids only). Worked out from the
 * dots, independently of the solver's tables. */
static void symmetry_map(const bs_dots *d, int k, int *map)
{
    for (int e = 0; e < d->nedges; e++) {
        int p[4];
        bs_dots_dots_of_edge(d, e, &p[0], &p[1], &p[2], &p[3]);
        for (int i = 0; i < 4; i += 2) {
            if (k & 1)
                p[i] = d->rows - p[i];
            if (k & 2)
                p[i + 1] = d->cols - p[i + 1];
            if (k & 4) {
                int t = p[i];
                p[i] = p[i + 1];
                p[i + 1] = t;
            }
        }
        map[e] = edge_at(d, p[0], p[1], p[2], p[3]);
    }
}

/* A random permutation of each box's border edges among themselves: those
 * are interchangeable strings to the ground (corner-edge symmetry). */
static void ground_swap_map(const bs_dots *d, int *map)
{
    for (int e = 0; e < d->nedges; e++)
        map[e] = e;
    for (int b = 0; b < d->nboxes; b++) {
        int r = b / d->cols, c = b % d->cols, side[4], n = 0;
        int e4[4] = {edge_at(d, r, c, r, c + 1), edge_at(d, r + 1, c, r + 1, c + 1),
                     edge_at(d, r, c, r + 1, c), edge_at(d, r, c + 1, r + 1, c + 1)};
        for (int i = 0; i < 4; i++) {
            int bx[2];
            bs_dots_edge_boxes(d, e4[i], bx);
            if (bx[0] < 0 || bx[1] < 0)
                side[n++] = e4[i];
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd(i + 1), t = map[side[i]];
            map[side[i]] = map[side[j]];
            map[side[j]] = t;
        }
    }
}

static int solve(bs_dots_solver *s, const bs_dots *d)
{
    int v = 99;
    if (bs_dots_solver_value(s, d, &v) != BS_OK)
        return 98;
    return v;
}

/* Whether every box not yet taken has exactly two sides: a loony endgame,
 * which the solver values from its chain and loop lengths alone. */
static int all_two_sided(const bs_dots *d)
{
    for (int b = 0; b < d->nboxes; b++) {
        int r = b / d->cols, c = b % d->cols, h = (d->rows + 1) * d->cols;
        int e4[4] = {r * d->cols + c, (r + 1) * d->cols + c, h + r * (d->cols + 1) + c,
                     h + r * (d->cols + 1) + c + 1};
        int n = 0;
        for (int i = 0; i < 4; i++)
            n += bs_dots_is_drawn(d, e4[i]) == 1;
        if (n != 2 && n != 4)
            return 0;
    }
    return 1;
}

/* A position from random safe moves (none gives a box a third side) until
 * none is left, then `extra` random moves with the captures they allow
 * taken at random: mostly loony endgames of chains and loops, and the
 * positions just after one is opened. */
static void random_loony_position(bs_dots *d, int rows, int cols, int extra)
{
    int open[64], safe[64];
    bs_dots_init(d, rows, cols);
    for (;;) {
        int n = bs_dots_open_edges(d, open, 64), ns = 0;
        for (int i = 0; i < n; i++) {
            int b[2], ok = 1;
            bs_dots_edge_boxes(d, open[i], b);
            for (int j = 0; j < 2 && ok; j++) {
                if (b[j] < 0)
                    continue;
                int r = b[j] / d->cols, c = b[j] % d->cols, h = (d->rows + 1) * d->cols, k = 0;
                int e4[4] = {r * d->cols + c, (r + 1) * d->cols + c, h + r * (d->cols + 1) + c,
                             h + r * (d->cols + 1) + c + 1};
                for (int x = 0; x < 4; x++)
                    k += bs_dots_is_drawn(d, e4[x]) == 1;
                ok = k < 2;
            }
            if (ok)
                safe[ns++] = open[i];
        }
        if (ns == 0)
            break;
        bs_dots_draw(d, safe[rnd(ns)], NULL);
    }
    for (int i = 0; i < extra; i++) {
        int n = bs_dots_open_edges(d, open, 64);
        if (n > 0)
            bs_dots_draw(d, open[rnd(n)], NULL);
    }
}

/* The loony-endgame valuation and the skipping of moves the table bounds
 * below alpha, against the exhaustive minimax: positions where no safe
 * move is left, solved with a table of `tt_bytes` kept across them. */
static void loony_against_brute(int rows, int cols, int positions, size_t tt_bytes)
{
    bs_dots d;
    bs_dots_solver *s;
    bs_dots_solve_config cfg = {0};
    cfg.tt_bytes = tt_bytes;
    if (bs_dots_solver_new(&s, &cfg) != BS_OK) {
        CHECK(0, "no memory for a solver");
        return;
    }
    int agree = 0, tried = 0, loony = 0;
    /* Solved positions are counted in `tried`; `loony` of them are loony
     * endgames with a box left. */
    for (int p = 0; p < positions * 4 && tried < positions; p++) {
        random_loony_position(&d, rows, cols, rnd(4) ? 0 : 1 + rnd(2));
        if (bs_dots_open_count(&d) > 20)
            continue; /* too many for the exhaustive minimax */
        tried++;
        loony += all_two_sided(&d) && bs_dots_is_finished(&d) != 1;
        int want = brute(&d), v = solve(s, &d);
        agree += v == want;
        if (v != want && tried - agree < 4)
            printf("  %dx%d drawn %llx: solver %d, exhaustive %d\n", rows, cols,
                   (unsigned long long)d.drawn[0], v, want);
    }
    CHECK(agree == tried && tried == positions,
          "%dx%d: %d/%d/%d loony values equal the exhaustive minimax's", rows, cols, agree, tried,
          positions);
    /* The generator must really make loony endgames, or this proves little. */
    CHECK(loony * 5 >= tried, "%dx%d: %d/%d positions are loony endgames", rows, cols, loony,
          tried);
    bs_dots_solver_free(s);
}

/* Random positions with `min_drawn` or more edges drawn: the solver's value
 * (with a small table kept across positions, so entries are reused and
 * replaced) equals the exhaustive one, and so does the value a best move
 * leads to. */
static void against_brute_tt(int rows, int cols, int positions, int min_drawn, size_t tt_bytes)
{
    bs_dots d;
    bs_dots_solver *s;
    bs_dots_solve_config cfg = {0};
    cfg.tt_bytes = tt_bytes;
    if (bs_dots_solver_new(&s, &cfg) != BS_OK) {
        CHECK(0, "no memory for a solver");
        return;
    }
    int agree = 0, moves_ok = 0;
    for (int p = 0; p < positions; p++) {
        bs_dots_init(&d, rows, cols);
        random_position(&d, rows, cols, min_drawn + rnd(d.nedges - min_drawn + 1));
        int want = brute(&d), v = solve(s, &d);
        agree += v == want;
        if (v != want && positions - agree < 4)
            printf("  %dx%d drawn %llx: solver %d, exhaustive %d\n", rows, cols,
                   (unsigned long long)d.drawn[0], v, want);
        int e = -1, bv = 99;
        if (bs_dots_is_finished(&d) == 1) {
            moves_ok++;
        } else if (bs_dots_solver_best(s, &d, &e, &bv) == BS_OK) {
            int k = 0;
            bs_dots_draw(&d, e, &k);
            int after = brute(&d);
            moves_ok += bv == want && (k ? k + after : -after) == want;
        }
    }
    CHECK(agree == positions, "%dx%d: %d/%d values equal the exhaustive minimax's", rows, cols,
          agree, positions);
    CHECK(moves_ok == positions, "%dx%d: %d/%d best moves keep the value", rows, cols, moves_ok,
          positions);
    bs_dots_solver_free(s);
}

static void against_brute(int rows, int cols, int positions, int min_drawn)
{
    against_brute_tt(rows, cols, positions, min_drawn, 1 << 16);
}

/* Every image of a random position under the grid's symmetries, and under
 * swaps of interchangeable border edges, has the value of the position,
 * each solved by a fresh solver (nothing shared through a table). */
static void symmetric_positions(int rows, int cols, int positions, int min_drawn, int exhaustive)
{
    bs_dots d, img, swapped;
    int map[64], nsym = rows == cols ? 8 : 4, agree = 0, checks = 0;
    for (int p = 0; p < positions; p++) {
        bs_dots_init(&d, rows, cols);
        random_position(&d, rows, cols, min_drawn + rnd(d.nedges - min_drawn + 1));
        int v0 = 99, want;
        if (bs_dots_solve(&d, 1 << 16, &v0, NULL) != BS_OK)
            v0 = 98;
        want = exhaustive ? brute(&d) : v0;
        for (int k = 0; k < nsym; k++) {
            symmetry_map(&d, k, map);
            remap(&img, &d, map);
            ground_swap_map(&img, map);
            remap(&swapped, &img, map);
            int v1 = 97, v2 = 97;
            bs_dots_solve(&img, 1 << 16, &v1, NULL);
            bs_dots_solve(&swapped, 1 << 16, &v2, NULL);
            checks++;
            agree += v0 == want && v1 == want && v2 == want;
            if (!(v0 == want && v1 == want && v2 == want) && checks - agree < 4)
                printf("  %dx%d drawn %llx sym %d: %d, image %d, swapped %d, want %d\n", rows,
                       cols, (unsigned long long)d.drawn[0], k, v0, v1, v2, want);
        }
    }
    CHECK(agree == checks, "%dx%d: %d/%d symmetric images have equal values", rows, cols, agree,
          checks);
}

int main(void)
{
    /* Mid-game positions of small grids, corners everywhere (2x2, 1x3,
     * 1x4: every box of a one-wide grid has 2 or 3 border edges). */
    against_brute(1, 1, 40, 0);
    against_brute(1, 3, 200, 0);
    against_brute(1, 4, 200, 0);
    against_brute(2, 2, 300, 0);
    against_brute(2, 3, 300, 0);
    against_brute(3, 2, 300, 0);
    against_brute(2, 4, 150, 4);
    against_brute(3, 3, 150, 6);
    /* 4x4 and 3x5 late middle games (at most 18 edges open). */
    against_brute(4, 4, 60, 22);
    against_brute(3, 5, 40, 20);
    /* A table of 64 buckets: entries replaced all the time, and table
     * bounds (cutoffs, skipped moves) from positions long gone. */
    against_brute_tt(3, 3, 150, 6, 1 << 12);
    against_brute_tt(4, 4, 40, 22, 1 << 12);
    /* Loony endgames (every box two-sided) and just after. */
    loony_against_brute(2, 3, 150, 1 << 16);
    loony_against_brute(3, 3, 150, 1 << 16);
    loony_against_brute(3, 4, 60, 1 << 16);
    loony_against_brute(4, 4, 30, 1 << 12);

    symmetric_positions(2, 2, 60, 0, 1);
    symmetric_positions(2, 3, 60, 0, 1);
    symmetric_positions(3, 3, 40, 6, 1);
    symmetric_positions(4, 4, 30, 22, 1);
    symmetric_positions(4, 4, 20, 16, 0);
    symmetric_positions(3, 4, 20, 8, 0);

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
