/* search_threads.c - helper threads searching beside the main one (Lazy SMP). */
#define _POSIX_C_SOURCE 200809L
#include "search_impl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The shared table of nodes being searched (search_impl.h's busy_*). */
#define BUSY_ENTRIES ((size_t)1 << 14)

/*
 * Lazy SMP: each helper runs its own iterative deepening of the same
 * position on a copy of the searcher (its own killers, history and node
 * count) that shares the table, never behind the main thread's iteration
 * (the first helper on it, a second one ply ahead, ...), and up to the
 * search's depth; a thread entering a child another is in takes its other
 * children first (search_impl.h's busy table), and what each stores
 * (lockless entries) cuts the others' trees. An exact solve runs the same null-window tests
 * in every thread. The helpers stop when the main thread's deepening
 * ends; a helper's iteration deeper than the main thread's last finished
 * one is the search's result (a search on a clock often stops with the
 * helper a ply ahead). A helper never calls back into the caller:
 * its stop is the main thread's flag, and a search with an evaluation
 * function (a Lua function, say) runs no helper.
 */

struct bs_helper {
    bs_searcher sr; /* the copy: its table and word-path tables are the main searcher's */
    bs_state state; /* the position, copied */
    atomic_int stop;
    const atomic_int *main_depth;
    int lead;      /* plies ahead of the main thread's iteration (at least on it) */
    int max_depth; /* the search's deepest iteration */
    int solving, guess; /* an exact solve (from that first guess) rather than a deepening */
    int done, move, value; /* its deepest finished iteration (done 0: none), read after the join */
    pthread_t thread;
    int running;
};

static int helper_should_stop(void *userdata)
{
    bs_helper *hp = userdata;
    return atomic_load_explicit(&hp->stop, memory_order_relaxed);
}

static void *helper_main(void *arg)
{
    bs_helper *hp = arg;
    bs_searcher *h = &hp->sr;
    if (hp->solving) {
        int best;
        bs_solve64_root(h, &hp->state, hp->guess, &best);
        return NULL;
    }
    int value = 0, have = 0;
    for (int depth = 1; depth <= hp->max_depth && !h->stop; depth++) {
        int ahead = atomic_load_explicit(hp->main_depth, memory_order_relaxed) + hp->lead;
        if (depth < ahead)
            depth = ahead > hp->max_depth ? hp->max_depth : ahead;
        int move = -2;
        int v = bs_iteration(h, &hp->state, depth, have ? &value : NULL, &move);
        if (h->stop)
            break;
        value = v;
        have = 1;
        if (move != -2) {
            hp->done = depth;
            hp->move = move;
            hp->value = v;
        }
    }
    return NULL;
}

int bs_helpers_start(bs_searcher *sr, const bs_state *s, int threads, int max_depth, const int *solve_guess)
{
    int want = threads > BS_MAX_THREADS ? BS_MAX_THREADS - 1 : threads - 1, started = 0;
    if (want <= 0 || sr->cfg.eval_fn)
        return 0;
    atomic_store_explicit(&sr->main_depth, 0, memory_order_relaxed);
    if (!sr->busy_table) {
        sr->busy_table = calloc(BUSY_ENTRIES, sizeof *sr->busy_table);
        if (!sr->busy_table)
            return 0; /* one thread */
    }
    for (int i = 0; i < want; i++) {
        bs_helper *hp = sr->helpers[i];
        if (!hp) {
            hp = calloc(1, sizeof *hp);
            if (!hp)
                break; /* fewer helpers: the search goes on */
            sr->helpers[i] = hp;
        }
        bs_searcher *h = &hp->sr;
        *h = *sr; /* shares tt and pat64 (read-only while it runs); never frees them */
        memset(h->helpers, 0, sizeof h->helpers);
        h->busy_table = NULL;
        h->busy = sr->busy_table;
        h->busy_mask = BUSY_ENTRIES - 1;
        h->cfg.should_stop = helper_should_stop;
        h->cfg.stop_userdata = hp;
        h->cfg.iteration_done = NULL;
        h->nodes = 0;
        h->node_limit = 0;
        h->stop = 0;
        h->allow_stop = 1;
        hp->state = *s;
        hp->main_depth = &sr->main_depth;
        hp->lead = i & 1;
        hp->max_depth = max_depth;
        hp->solving = solve_guess != NULL;
        hp->guess = solve_guess ? *solve_guess : 0;
        hp->done = 0;
        atomic_store_explicit(&hp->stop, 0, memory_order_relaxed);
        if (pthread_create(&hp->thread, NULL, helper_main, hp) != 0)
            break;
        hp->running = 1;
        started++;
        sr->busy = sr->busy_table;
        sr->busy_mask = BUSY_ENTRIES - 1;
    }
    return started;
}

void bs_helpers_depth(bs_searcher *sr, int depth)
{
    atomic_store_explicit(&sr->main_depth, depth, memory_order_relaxed);
}

uint64_t bs_helpers_stop(bs_searcher *sr, bs_helper_best *best)
{
    uint64_t nodes = 0;
    sr->busy = NULL;
    for (int i = 0; i < BS_MAX_THREADS - 1 && sr->helpers[i]; i++) {
        bs_helper *hp = sr->helpers[i];
        if (!hp->running)
            continue;
        atomic_store_explicit(&hp->stop, 1, memory_order_relaxed);
        pthread_join(hp->thread, NULL);
        hp->running = 0;
        nodes += hp->sr.nodes;
        if (best && hp->done > best->depth) {
            best->depth = hp->done;
            best->move = hp->move;
            best->value = hp->value;
        }
    }
    return nodes;
}

void bs_helpers_free(bs_searcher *sr)
{
    bs_helpers_stop(sr, NULL);
    for (int i = 0; i < BS_MAX_THREADS - 1; i++) {
        free(sr->helpers[i]);
        sr->helpers[i] = NULL;
    }
    free(sr->busy_table);
    sr->busy_table = NULL;
}
