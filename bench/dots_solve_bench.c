/* dots_solve_bench.c - times the exact solver on an empty R x C board. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dots.h"
#include "dots_solve.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The solver polls this; `ud` points at the deadline (0: none). */
static int past_deadline(void *ud)
{
    double deadline = *(const double *)ud;
    return deadline > 0 && now() > deadline;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s ROWS COLS [TT_MIB] [SECONDS]\n", argv[0]);
        return 2;
    }
    int rows = atoi(argv[1]), cols = atoi(argv[2]);
    size_t mib = argc > 3 ? (size_t)strtoull(argv[3], NULL, 10) : 256;
    bs_dots_solve_config cfg = {0};
    cfg.tt_bytes = mib << 20;
    double deadline = 0;
    cfg.should_stop = past_deadline;
    cfg.userdata = &deadline;
    bs_dots pos;
    bs_dots_solver *s;
    if (bs_dots_init(&pos, rows, cols) != BS_OK || bs_dots_solver_new(&s, &cfg) != BS_OK) {
        fprintf(stderr, "bad size or out of memory\n");
        return 2;
    }
    int value = 0, lo = 0, hi = 0;
    double t0 = now();
    if (argc > 4)
        deadline = t0 + atof(argv[4]);
    int st = bs_dots_solver_value(s, &pos, &value);
    double t1 = now();
    if (st == BS_OK)
        printf("%dx%d value %+d nodes %llu time %.3f s\n", rows, cols, value,
               (unsigned long long)bs_dots_solver_nodes(s), t1 - t0);
    else if (bs_dots_solver_bounds(s, &lo, &hi) == BS_OK)
        printf("%dx%d stopped (status %d) after %llu nodes, %.3f s: value in [%+d, %+d]\n", rows,
               cols, st, (unsigned long long)bs_dots_solver_nodes(s), t1 - t0, lo, hi);
    bs_dots_solver_free(s);
    return st == BS_OK ? 0 : 1;
}
