/* dots_test.c - checks the Dots and Boxes core and its exact solver against the rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots.h"
#include "dots_solve.h"

#define DOTS_CHECK_SEED 0x1234567887654321ULL
#include "dots_check.h"

static int edge(const bs_dots *d, int r1, int c1, int r2, int c2)
{
    int e = -1;
    bs_dots_edge_of_dots(d, r1, c1, r2, c2, &e);
    return e;
}

static void test_sizes_and_indexing(void)
{
    bs_dots d;
    CHECK(bs_dots_init(&d, 0, 3) == BS_EINVAL, "0 rows");
    CHECK(bs_dots_init(&d, 3, 17) == BS_EINVAL, "17 cols");
    CHECK(bs_dots_init(&d, -1, 2) == BS_EINVAL, "negative");
    CHECK(bs_dots_init(NULL, 2, 2) == BS_EINVAL, "NULL");
    CHECK(bs_dots_init(&d, 16, 16) == BS_OK && d.nedges == 544, "16x16 has 544 edges");
    static const int sizes[][2] = {{1, 1}, {2, 3}, {3, 2}, {8, 8}, {16, 16}, {1, 16}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        bs_dots_init(&d, sizes[i][0], sizes[i][1]);
        int ok = 1;
        for (int e = 0; e < d.nedges; e++) {
            int r1, c1, r2, c2, back = -1, back2 = -1;
            ok &= bs_dots_dots_of_edge(&d, e, &r1, &c1, &r2, &c2) == BS_OK;
            ok &= (r1 < r2 || (r1 == r2 && c1 < c2)) && abs(r1 - r2) + abs(c1 - c2) == 1;
            ok &= bs_dots_edge_of_dots(&d, r1, c1, r2, c2, &back) == BS_OK && back == e;
            ok &= bs_dots_edge_of_dots(&d, r2, c2, r1, c1, &back2) == BS_OK && back2 == e;
        }
        CHECK(ok, "edge <-> dots round trip on %dx%d", sizes[i][0], sizes[i][1]);
    }
    bs_dots_init(&d, 2, 3);
    int e, r1, c1, r2, c2;
    CHECK(edge(&d, 0, 0, 0, 1) == 0, "first horizontal edge is 0");
    CHECK(edge(&d, 0, 0, 1, 0) == 9, "first vertical edge follows the (2+1)*3 horizontals");
    CHECK(bs_dots_edge_of_dots(&d, 0, 0, 1, 1, &e) == BS_EINVAL, "diagonal dots");
    CHECK(bs_dots_edge_of_dots(&d, 0, 0, 0, 2, &e) == BS_EINVAL, "dots two apart");
    CHECK(bs_dots_edge_of_dots(&d, 1, 1, 1, 1, &e) == BS_EINVAL, "same dot");
    CHECK(bs_dots_edge_of_dots(&d, 2, 3, 3, 3, &e) == BS_EINVAL, "dot off the board");
    CHECK(bs_dots_edge_of_dots(&d, -1, 0, 0, 0, &e) == BS_EINVAL, "negative dot");
    CHECK(bs_dots_dots_of_edge(&d, d.nedges, &r1, &c1, &r2, &c2) == BS_EINVAL, "edge past end");
    CHECK(bs_dots_dots_of_edge(&d, -1, &r1, &c1, &r2, &c2) == BS_EINVAL, "negative edge");
}

static void test_drawing(void)
{
    bs_dots d;
    int done = -1;
    bs_dots_init(&d, 1, 1);
    CHECK(bs_dots_draw(&d, 0, &done) == BS_OK && done == 0 && d.turn == 1, "no box: turn passes");
    CHECK(bs_dots_draw(&d, 0, &done) == BS_EILLEGAL, "drawing a drawn edge");
    CHECK(bs_dots_draw(&d, 4, &done) == BS_EINVAL && bs_dots_draw(&d, -3, NULL) == BS_EINVAL,
          "edge out of range");
    bs_dots_draw(&d, 1, &done);
    bs_dots_draw(&d, 2, &done);
    int comp = -1, thirds = -1;
    CHECK(bs_dots_edge_effect(&d, 3, &comp, &thirds) == BS_OK && comp == 1 && thirds == 0,
          "the last edge completes one box");
    CHECK(bs_dots_draw(&d, 3, &done) == BS_OK && done == 1, "fourth side completes the box");
    int owner = -5;
    CHECK(bs_dots_box_owner(&d, 0, 0, &owner) == BS_OK && owner == 1 && d.score[1] == 1,
          "the box belongs to whoever drew the fourth side (player 1)");
    CHECK(d.turn == 1, "completing a box keeps the turn");
    CHECK(bs_dots_is_finished(&d) == 1, "all edges drawn: finished");

    /* 1x2: the middle edge is the fourth side of both boxes at once. */
    bs_dots_init(&d, 1, 2);
    int middle = edge(&d, 0, 1, 1, 1);
    for (int e = 0; e < d.nedges; e++)
        if (e != middle)
            bs_dots_draw(&d, e, NULL);
    int mover = d.turn;
    CHECK(bs_dots_edge_effect(&d, middle, &comp, &thirds) == BS_OK && comp == 2, "effect: 2");
    CHECK(bs_dots_draw(&d, middle, &done) == BS_OK && done == 2 && d.score[mover] == 2
              && d.turn == mover,
          "one edge completes two boxes and keeps the turn");

    bs_dots_init(&d, 2, 2);
    CHECK(bs_dots_dot_degree(&d, 0, 0) == 2 && bs_dots_dot_degree(&d, 0, 1) == 3
              && bs_dots_dot_degree(&d, 1, 1) == 4,
          "degrees: corner 2, side 3, centre 4");
    bs_dots_draw(&d, edge(&d, 1, 1, 1, 2), NULL);
    CHECK(bs_dots_dot_degree(&d, 1, 1) == 3 && bs_dots_dot_degree(&d, 1, 2) == 2,
          "drawing an edge lowers both end dots");
    CHECK(bs_dots_dot_degree(&d, 3, 0) == BS_EINVAL && bs_dots_box_sides(&d, 2, 0) == BS_EINVAL,
          "dot and box off the board");
    CHECK(bs_dots_box_sides(&d, 0, 0) == 0 && bs_dots_box_sides(&d, 0, 1) == 1
              && bs_dots_box_sides(&d, 1, 1) == 1, "sides: the edge borders two boxes");
    int open[64];
    CHECK(bs_dots_open_edges(&d, open, 64) == 11 && bs_dots_open_count(&d) == 11, "11 open");
    CHECK(bs_dots_open_edges(&d, open, 5) == BS_EINVAL, "small buffer refused");
    uint64_t set[BS_DOTS_WORDS];
    uint64_t want = 0xfffULL & ~(1ULL << edge(&d, 1, 1, 1, 2));
    CHECK(bs_dots_open_set(&d, set) == BS_OK && set[0] == want,
          "open bitset");
}

static void test_undo(void)
{
    static bs_dots saved[BS_DOTS_MAX_EDGES + 1];
    bs_dots d;
    int ok = 1;
    for (int game = 0; game < 20; game++) {
        bs_dots_init(&d, 1 + rnd(5), 1 + rnd(5));
        int open[BS_DOTS_MAX_EDGES];
        for (int i = 0; i < d.nedges; i++) {
            saved[i] = d;
            int n = bs_dots_open_edges(&d, open, BS_DOTS_MAX_EDGES);
            ok &= bs_dots_draw(&d, open[rnd(n)], NULL) == BS_OK;
        }
        ok &= d.score[0] + d.score[1] == d.nboxes;
        for (int i = d.nedges - 1; i >= 0; i--) {
            ok &= bs_dots_undo(&d, NULL) == BS_OK;
            ok &= bs_dots_equal(&d, &saved[i]) && bs_dots_hash(&d) == bs_dots_hash(&saved[i]);
            ok &= d.score[0] == saved[i].score[0] && d.score[1] == saved[i].score[1];
        }
        ok &= bs_dots_undo(&d, NULL) == BS_ESTATE;
    }
    CHECK(ok, "random games undone move by move restore every position (equal and hash)");
    bs_dots a, b;
    bs_dots_init(&a, 3, 3);
    bs_dots_clone(&b, &a);
    bs_dots_draw(&b, 5, NULL);
    CHECK(!bs_dots_equal(&a, &b) && bs_dots_hash(&a) != bs_dots_hash(&b), "a clone is separate");
}

/* Draws the listed edges, given as dot pairs. */
static void draw_all(bs_dots *d, const int (*dots)[4], int n)
{
    for (int i = 0; i < n; i++)
        bs_dots_draw(d, edge(d, dots[i][0], dots[i][1], dots[i][2], dots[i][3]), NULL);
}

static void test_chains(void)
{
    bs_dots d;
    bs_dots_chain ch[16];
    int n = -1, of[16];

    /* 1x3, tops and bottoms drawn: a chain of three open to the ground at both ends. */
    bs_dots_init(&d, 1, 3);
    static const int tb[][4] = {{0, 0, 0, 1}, {0, 1, 0, 2}, {0, 2, 0, 3},
                                {1, 0, 1, 1}, {1, 1, 1, 2}, {1, 2, 1, 3}};
    draw_all(&d, tb, 6);
    CHECK(bs_dots_chains(&d, ch, 16, &n, of) == BS_OK && n == 1 && ch[0].kind == BS_DOTS_CHAIN
              && ch[0].length == 3 && ch[0].end_box[0] == -1 && ch[0].end_box[1] == -1,
          "a 3-chain to the ground at both ends (n=%d len=%d)", n, n > 0 ? ch[0].length : -1);
    CHECK(of[0] == 0 && of[1] == 0 && of[2] == 0, "every box maps to chain 0");
    CHECK(bs_dots_chains(&d, ch, 0, &n, NULL) == BS_EINVAL, "no room for the chain");

    /* 2x2 with the whole border drawn: one loop of four. */
    bs_dots_init(&d, 2, 2);
    static const int border[][4] = {{0, 0, 0, 1}, {0, 1, 0, 2}, {2, 0, 2, 1}, {2, 1, 2, 2},
                                    {0, 0, 1, 0}, {1, 0, 2, 0}, {0, 2, 1, 2}, {1, 2, 2, 2}};
    draw_all(&d, border, 8);
    CHECK(bs_dots_chains(&d, ch, 16, &n, NULL) == BS_OK && n == 1 && ch[0].kind == BS_DOTS_LOOP
              && ch[0].length == 4,
          "the 2x2 border makes a loop of four");

    /* 1x3 with boxes 0 and 1 two-sided and box 2 empty: a 2-chain ending at box 2. */
    bs_dots_init(&d, 1, 3);
    draw_all(&d, tb, 2);
    draw_all(&d, tb + 3, 2);
    int mid = edge(&d, 0, 2, 1, 2);
    CHECK(bs_dots_chains(&d, ch, 16, &n, of) == BS_OK && n == 1 && ch[0].length == 2
              && ((ch[0].end_box[0] == -1 && ch[0].end_box[1] == 2 && ch[0].end_edge[1] == mid)
                  || (ch[0].end_box[1] == -1 && ch[0].end_box[0] == 2 && ch[0].end_edge[0] == mid))
              && of[2] == -1,
          "a 2-chain from the ground to a box with no sides");

    /* 2x3: the top row is a 3-chain hanging between boxes (1,0) and (1,2);
     * box (1,1) is a 1-chain from box (1,0) to the ground. */
    bs_dots_init(&d, 2, 3);
    static const int mix[][4] = {{0, 0, 0, 1}, {0, 1, 0, 2}, {0, 2, 0, 3}, {0, 0, 1, 0},
                                 {0, 3, 1, 3}, {1, 1, 1, 2}, {1, 2, 2, 2}};
    draw_all(&d, mix, 7);
    CHECK(bs_dots_chains(&d, ch, 16, &n, of) == BS_OK && n == 2, "two components (n=%d)", n);
    int top = of[0], single = of[4];
    CHECK(n == 2 && top >= 0 && single >= 0 && top != single && of[1] == top && of[2] == top
              && of[3] == -1 && of[5] == -1,
          "boxes map to their components");
    if (n == 2 && top >= 0 && single >= 0) {
        bs_dots_chain *a = &ch[top], *b = &ch[single];
        int ea = a->end_box[0] + a->end_box[1], eb = b->end_box[0] + b->end_box[1];
        CHECK(a->kind == BS_DOTS_CHAIN && a->length == 3 && ea == 3 + 5
                  && (a->end_box[0] == 3 || a->end_box[0] == 5),
              "the top row: a 3-chain between boxes (1,0) and (1,2)");
        CHECK(b->kind == BS_DOTS_CHAIN && b->length == 1 && eb == 3 - 1
                  && b->first_box == 4 && b->last_box == 4,
              "box (1,1): a 1-chain from box (1,0) to the ground");
    }
}

/* Plain memoised negamax over every move: the reference the pruned solver
 * must agree with. Only for boards of up to 24 edges. */
static signed char *memo;
static int brute(const bs_dots *d0, uint32_t edges)
{
    if (memo[edges] != 127)
        return memo[edges];
    int best = -100, any = 0;
    for (int e = 0; e < d0->nedges; e++) {
        if (edges >> e & 1)
            continue;
        any = 1;
        int k = 0, b[2], v;
        bs_dots_edge_boxes(d0, e, b);
        uint32_t next = edges | 1u << e;
        for (int i = 0; i < 2; i++) {
            if (b[i] < 0)
                continue;
            int r = b[i] / d0->cols, c = b[i] % d0->cols, h = (d0->rows + 1) * d0->cols;
            int t = r * d0->cols + c, bo = t + d0->cols, l = h + r * (d0->cols + 1) + c;
            k += (next >> t & 1) && (next >> bo & 1) && (next >> l & 1) && (next >> (l + 1) & 1);
        }
        v = k ? k + brute(d0, next) : -brute(d0, next);
        if (v > best)
            best = v;
    }
    memo[edges] = (signed char)(any ? best : 0);
    return memo[edges];
}

static void test_solver_against_brute(int rows, int cols, int positions, int min_drawn)
{
    bs_dots d;
    bs_dots_init(&d, rows, cols);
    memo = malloc((size_t)1 << d.nedges);
    memset(memo, 127, (size_t)1 << d.nedges);
    bs_dots_solver *s;
    bs_dots_solve_config cfg = {0};
    cfg.tt_bytes = 1 << 20;
    bs_dots_solver_new(&s, &cfg);
    int agree = 0, moves_ok = 0;
    for (int p = 0; p < positions; p++) {
        bs_dots_init(&d, rows, cols);
        int drawn = min_drawn + rnd(d.nedges - min_drawn);
        int open[64];
        for (int i = 0; i < drawn; i++) {
            int n = bs_dots_open_edges(&d, open, 64);
            bs_dots_draw(&d, open[rnd(n)], NULL);
        }
        int v = 99, want = brute(&d, (uint32_t)d.drawn[0]), e = -1, bv = 99;
        bs_dots_solver_value(s, &d, &v);
        agree += v == want;
        if (v != want && positions - agree < 5)
            printf("  %dx%d drawn %llx: solver %d, brute force %d\n", rows, cols,
                   (unsigned long long)d.drawn[0], v, want);
        if (drawn < d.nedges && bs_dots_solver_best(s, &d, &e, &bv) == BS_OK) {
            int k = 0, turn = d.turn;
            bs_dots_draw(&d, e, &k);
            int after = brute(&d, (uint32_t)d.drawn[0]);
            moves_ok += bv == want && (k ? k + after : -after) == want && turn >= 0;
        } else {
            moves_ok += drawn == d.nedges;
        }
    }
    CHECK(agree == positions, "%dx%d: solver agrees with brute force on %d/%d positions", rows,
          cols, agree, positions);
    CHECK(moves_ok == positions, "%dx%d: best move achieves the value on %d/%d positions", rows,
          cols, moves_ok, positions);
    bs_dots_solver_free(s);
    free(memo);
}

static int stop_at_once(void *ud)
{
    (void)ud;
    return 1;
}

static void test_solver(void)
{
    static const int known[][3] = {{1, 1, -1}, {1, 2, 0}, {2, 2, 2}, {2, 3, -2}, {3, 2, -2},
                                   {3, 3, -3}};
    bs_dots d;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        int v = 99;
        uint64_t nodes = 0;
        bs_dots_init(&d, known[i][0], known[i][1]);
        int st = bs_dots_solve(&d, 4 << 20, &v, &nodes);
        CHECK(st == BS_OK && v == known[i][2], "%dx%d is %+d for the first player (got %d)",
              known[i][0], known[i][1], known[i][2], v);
    }
    test_solver_against_brute(2, 2, 300, 0);
    test_solver_against_brute(1, 4, 300, 0);
    test_solver_against_brute(2, 3, 400, 0);
    test_solver_against_brute(3, 3, 300, 8);

    int e = -1, v = 0;
    bs_dots_init(&d, 2, 2);
    CHECK(bs_dots_best_move(&d, 1 << 20, &e, &v) == BS_OK && e >= 0 && v == 2, "2x2 best move");
    bs_dots_init(&d, 5, 6);
    CHECK(bs_dots_solve(&d, 1 << 20, &v, NULL) == BS_EINVAL, "5x6 (71 edges) is too big");
    CHECK(bs_dots_solve(NULL, 1 << 20, &v, NULL) == BS_EINVAL, "NULL position");

    bs_dots_solver *s;
    bs_dots_solve_config cfg = {0};
    cfg.tt_bytes = 1 << 20;
    cfg.node_limit = 1000;
    bs_dots_init(&d, 3, 3);
    CHECK(bs_dots_solver_new(&s, &cfg) == BS_OK, "solver with a node limit");
    CHECK(bs_dots_solver_value(s, &d, &v) == BS_ESTATE, "node limit stops the search");
    bs_dots_solver_free(s);
    cfg.node_limit = 0;
    cfg.should_stop = stop_at_once;
    bs_dots_solver_new(&s, &cfg);
    CHECK(bs_dots_solver_value(s, &d, &v) == BS_ESTATE, "the stop callback stops the search");
    bs_dots_solver_free(s);
    bs_dots_init(&d, 1, 1);
    for (int i = 0; i < 4; i++)
        bs_dots_draw(&d, i, NULL);
    CHECK(bs_dots_best_move(&d, 1 << 20, &e, &v) == BS_ESTATE, "no move in a finished game");
}

static void test_garbage(void)
{
    bs_dots d;
    memset(&d, 0xff, sizeof d);
    int e, v, n;
    bs_dots_chain ch[4];
    CHECK(bs_dots_draw(&d, 0, NULL) == BS_EINVAL && bs_dots_undo(&d, NULL) == BS_EINVAL
              && bs_dots_box_sides(&d, 0, 0) == BS_EINVAL && bs_dots_open_count(&d) == BS_EINVAL
              && bs_dots_chains(&d, ch, 4, &n, NULL) == BS_EINVAL
              && bs_dots_solve(&d, 1 << 20, &v, NULL) == BS_EINVAL
              && bs_dots_edge_of_dots(&d, 0, 0, 0, 1, &e) == BS_EINVAL,
          "a scribbled struct is refused, not trusted");
    CHECK(bs_dots_draw(NULL, 0, NULL) == BS_EINVAL && bs_dots_hash(NULL) == 0
              && !bs_dots_equal(NULL, NULL),
          "NULL is refused");
}

int main(void)
{
    test_sizes_and_indexing();
    test_drawing();
    test_undo();
    test_chains();
    test_solver();
    test_garbage();
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
