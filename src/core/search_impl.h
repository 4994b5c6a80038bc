/* search_impl.h - internals shared by the searcher's files (not a public API). */
#ifndef BS_SEARCH_IMPL_H
#define BS_SEARCH_IMPL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "game_impl.h"
#include "pattern_impl.h"
#include "search.h"

/* Values: an evaluation is within +-(BS_WIN - 1); a finished game is worth
 * +-BS_WIN plus 100 per disc of margin, so any certain win beats any estimate
 * and a bigger margin beats a smaller one. */
#define BS_WIN 1000000
#define INF (BS_WIN * 2)
#define MAX_PLY 128
/* Deepest recursion of an exact solve (a few KiB of stack a ply). */
#define MAX_SOLVE_PLY 400
#define MAX_MOVES (BS_MAX_N * BS_MAX_N + 1)
#define STOP_POLL 4095u
#define EXACT_DEPTH 127

static inline int terminal_score(int margin)
{
    return margin > 0 ? BS_WIN + 100 * margin : margin < 0 ? -BS_WIN + 100 * margin : 0;
}

/* ---- the evaluation's shape cache ---- */

/* Cells that can never be flipped, and the cells next to them, for one board
 * shape (size and blocks): cached by the searcher. */
typedef struct shape {
    int n;
    uint32_t blocks[BS_MAX_N];
    uint32_t anchored[BS_MAX_N]; /* on every axis, a wall (edge or block) on one side at least */
    uint32_t near[BS_MAX_N];     /* the non-block cells next to an anchored cell */
} shape;

/* ---- the searcher ---- */

typedef struct bs_helper bs_helper;

/* A table entry as stored: two words, `check` the position's key xor
 * `data` (Hyatt's lockless hashing), each read and written as one atomic
 * word, so threads searching together (bs_search_limits.threads) share the
 * table without locks: an entry torn by two writers fails its check and is
 * a miss, never another position's value. An empty entry is all zero. */
typedef struct tt_entry {
    uint64_t check;
    uint64_t data; /* value (32 bits) | move (16) << 32 | depth (8) << 48 | flag (8) << 56 */
} tt_entry;

/* An entry as read. */
typedef struct tt_hit {
    int value;
    int move;
    int depth;
    unsigned flag; /* bound (1 lower, 2 upper, 3 exact) | age << 2 */
} tt_hit;

enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3 };
#define TT_BOUND 3u /* flag: the bound in bits 0-1, the search's age in bits 2-7 */

struct bs_searcher {
    bs_search_config cfg;
    tt_entry *tt;
    size_t tt_mask;
    shape sh;
    int killers[MAX_PLY][2];
    int history[2][BS_MAX_N * BS_MAX_N];
    const bs_model *model; /* the learned evaluation, or NULL */
    uint32_t model_generation;
    bs_pat64 pat64;        /* its 8 x 8 word-path tables */
    int mid64;             /* the search in progress runs on the word path */
    /* the search in progress */
    const bs_game *g;
    uint64_t nodes, node_limit;
    int stop, allow_stop, exact;
    int wld; /* the solve in progress proves win, loss or draw only (bs_solve64_root) */
    unsigned age; /* 0..63, one more at each search or solve: the table is kept between them */
    int mpc_width; /* Multi-ProbCut in this search: the width in hundredths of a sigma, 0 off */
    unsigned without; /* the search's BS_WITHOUT_* */
    /* Lazy SMP (search_threads.c): the helpers, made on first use, and the
     * iteration the main thread is on */
    struct bs_helper *helpers[BS_MAX_THREADS - 1];
    atomic_int main_depth;
    uint64_t *busy_table; /* the table below, made with the first helper */
    uint64_t *busy; /* while helpers run: the keys of nodes being searched (shared), else NULL */
    size_t busy_mask;
};

static inline uint64_t tt_load(const uint64_t *w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }
static inline void tt_store(uint64_t *w, uint64_t v) { __atomic_store_n(w, v, __ATOMIC_RELAXED); }

static inline uint64_t tt_pack(int value, int move, int depth, unsigned flag)
{
    return (uint64_t)(uint32_t)value | (uint64_t)(uint16_t)move << 32 | (uint64_t)(uint8_t)depth << 48 |
           (uint64_t)(uint8_t)flag << 56;
}

static inline void tt_unpack(uint64_t data, tt_hit *h)
{
    h->value = (int32_t)(uint32_t)data;
    h->move = (int16_t)(uint16_t)(data >> 32);
    h->depth = (int8_t)(uint8_t)(data >> 48);
    h->flag = (unsigned)(data >> 56);
}

/* The table is two-way: a key sits in either entry of the pair its low bits
 * name (32 aligned bytes). The first keeps the deepest entry of the
 * current search (depth: plies to go, or the empties of a solve) and takes
 * any store over an entry of an older search; the deep entry it displaces
 * stays in the second one store longer; the second takes every other
 * store. So a search keeps its big subtrees, the small ones churn through
 * the second entry, and what earlier searches left is reused until the
 * current one needs the room. Returns `hit` filled, or NULL on a miss. */
static inline const tt_hit *tt_find(const bs_searcher *sr, uint64_t key, tt_hit *hit)
{
    if (sr->without & BS_WITHOUT_TABLE)
        return NULL;
    const tt_entry *e = &sr->tt[key & sr->tt_mask & ~(size_t)1];
    for (int i = 0; i < 2; i++) {
        uint64_t data = tt_load(&e[i].data);
        if ((tt_load(&e[i].check) ^ data) == key) {
            tt_unpack(data, hit);
            return hit;
        }
    }
    return NULL;
}

static inline int tt_bound(const tt_hit *e) { return e->flag & TT_BOUND; }

static inline void tt_write(tt_entry *e, uint64_t key, uint64_t data)
{
    tt_store(&e->check, key ^ data);
    tt_store(&e->data, data);
}

/* Stores a result (a deeper one of the same key from this search stays). */
static inline void tt_put(bs_searcher *sr, uint64_t key, int depth, int value, int alpha0, int beta, int move)
{
    tt_entry *pair = &sr->tt[key & sr->tt_mask & ~(size_t)1];
    uint64_t d0 = tt_load(&pair[0].data), k0 = tt_load(&pair[0].check) ^ d0;
    int depth0 = (int8_t)(uint8_t)(d0 >> 48);
    int current = (unsigned)(d0 >> 58) == sr->age;
    unsigned flag = (value <= alpha0 ? TT_UPPER : value >= beta ? TT_LOWER : TT_EXACT) | sr->age << 2;
    uint64_t data = tt_pack(value, move, depth, flag);
    if (k0 == key) {
        if (current && depth0 > depth)
            return;
        tt_write(&pair[0], key, data);
    } else if (!current || depth >= depth0) {
        if (k0 && current)
            tt_write(&pair[1], k0, d0);
        else if ((tt_load(&pair[1].check) ^ tt_load(&pair[1].data)) == key)
            tt_write(&pair[1], 0, 0);
        tt_write(&pair[0], key, data);
    } else {
        tt_write(&pair[1], key, data);
    }
}

static inline bool poll_stop(bs_searcher *sr)
{
    sr->nodes++;
    if ((sr->nodes & STOP_POLL) == 0 && sr->allow_stop) {
        if (sr->node_limit && sr->nodes >= sr->node_limit)
            sr->stop = 1;
        else if (sr->cfg.should_stop && sr->cfg.should_stop(sr->cfg.stop_userdata))
            sr->stop = 1;
    }
    return sr->stop;
}

/* ---- threads searching together ---- */

/* Simplified ABDADA (Kerrigan): a thread marks the child it enters (plies
 * to go at least BUSY_DEPTH - 1) in a small shared table, and a thread
 * about to enter a child marked by another searches its other children
 * first, so two threads split a node's children instead of repeating them
 * (the table passes each one's results to the other). A lost mark only
 * costs the split. */
#define BUSY_DEPTH 3 /* search_learned.c computes the child keys it needs from TT_MIN_DEPTH + 1 */

static inline bool busy_has(const bs_searcher *sr, uint64_t key)
{
    return __atomic_load_n(&sr->busy[key & sr->busy_mask], __ATOMIC_RELAXED) == key;
}

static inline void busy_set(bs_searcher *sr, uint64_t key)
{
    __atomic_store_n(&sr->busy[key & sr->busy_mask], key, __ATOMIC_RELAXED);
}

static inline void busy_clear(bs_searcher *sr, uint64_t key)
{
    uint64_t expected = key;
    __atomic_compare_exchange_n(&sr->busy[key & sr->busy_mask], &expected, 0, false, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

/* ---- principal variation search over a node's children ---- */

/* The current child's value by PVS: the whole window for the first child,
 * else a null window above alpha, searched again with the whole window
 * when it lands inside it. */
static inline __attribute__((always_inline)) int pvs_value(bs_searcher *sr, int (*value)(void *ctx, int alpha, int beta),
                                                           void *ctx, bool first, int alpha, int beta)
{
    if (first)
        return value(ctx, alpha, beta);
    int v = value(ctx, alpha, alpha + 1);
    if (v > alpha && v < beta && !sr->stop)
        v = value(ctx, alpha, beta);
    return v;
}

/* The children of a node, sorted best first, searched by PVS: the first
 * with the window (alpha, beta), each other with a null window above alpha
 * and again with the whole window when it lands inside it; a cutoff ends
 * the loop. enter(ctx, i) makes child i the current one; value(ctx, a, b)
 * is the current child's value for the side to move, searched in (a, b)
 * (-INF for a child that has none); share_key(ctx), where given, is the
 * current child's key for the busy table while helper threads run (0: not
 * shared): a child (of the first 64, not the first) that another thread
 * is searching is deferred to after the others. Returns the best value,
 * -INF when no child had one (on a stop: the best so far, or 0 before any;
 * the caller then stores nothing); *best_index is the child that gave it,
 * or -1; a best value >= beta is a cutoff at that child. The PVS loop of
 * search.c's negamax and the exact solver endgame64.c (the learned midgame
 * writes its own out, for speed: docs/decisions.md): always inlined with
 * their static callbacks, so each compiles to direct calls, as if written
 * out. */
static inline __attribute__((always_inline)) int pvs_children(bs_searcher *sr, int count, int alpha, int beta,
                                                              void (*enter)(void *ctx, int i),
                                                              int (*value)(void *ctx, int alpha, int beta),
                                                              uint64_t (*share_key)(void *ctx), void *ctx,
                                                              int *best_index)
{
    int best = -INF, searched = 0;
    *best_index = -1;
    if (!share_key || !sr->busy) { /* one thread: the plain loop */
        for (int i = 0; i < count; i++) {
            enter(ctx, i);
            int v = pvs_value(sr, value, ctx, i == 0, alpha, beta);
            if (sr->stop)
                return best > -INF ? best : 0;
            if (v > best) {
                best = v;
                *best_index = i;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        break;
                }
            }
        }
        return best;
    }
    uint64_t deferred = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < count; i++) {
            if (pass == 1 && !(i < 64 && (deferred >> i & 1)))
                continue;
            enter(ctx, i);
            uint64_t key = share_key(ctx);
            if (key) {
                if (pass == 0 && searched > 0 && i < 64 && busy_has(sr, key)) {
                    deferred |= 1ULL << i;
                    continue;
                }
                busy_set(sr, key);
            }
            int v = pvs_value(sr, value, ctx, searched++ == 0, alpha, beta);
            if (key)
                busy_clear(sr, key);
            if (sr->stop)
                return best > -INF ? best : 0;
            if (v > best) {
                best = v;
                *best_index = i;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        return best;
                }
            }
        }
        if (!deferred)
            break;
    }
    return best;
}

/* ---- Multi-ProbCut ---- */

static inline int floor_div(int64_t a, int64_t b) { return (int)(a >= 0 ? a / b : -((-a + b - 1) / b)); }

/* At a node `depth` plies from the leaves with `discs` on the board (not
 * the root), whether shallow searches predict the node's value with
 * confidence: 1 when it is >= beta, -1 when <= alpha, 0 when they cannot
 * tell (the node is then searched). shallow(ctx, d, a, b) is the node
 * searched d plies deep in the window (a, b). A deep value v is predicted
 * as slope * s + offset from the shallow one s, error sigma: it is >= beta
 * when s >= (beta + w sigma - offset) / slope, w the width (Buro's
 * Multi-ProbCut; the parameters of each depth and phase fitted by train). */
static inline __attribute__((always_inline)) int mpc_probe(bs_searcher *sr, int depth, int discs, int alpha, int beta,
                                                           int (*shallow)(void *ctx, int depth, int alpha, int beta),
                                                           void *ctx)
{
    if (!sr->mpc_width || depth >= BS_MPC_DEPTHS)
        return 0;
    const bs_model *m = sr->model;
    int d = m->mpc_shallow[depth];
    if (d < 0 || alpha <= -BS_WIN || beta >= BS_WIN)
        return 0;
    const bs_mpc_param *p = &m->mpc[depth * m->phases + bs_pat_phase(m, discs)];
    int64_t margin = (int64_t)sr->mpc_width * p->sigma / 100;
    int64_t hi = -(int64_t)floor_div(-((int64_t)beta + margin - p->offset) * 1000, p->slope); /* ceiling */
    if (hi < BS_WIN) {
        int v = shallow(ctx, d, (int)hi - 1, (int)hi);
        if (sr->stop)
            return 0;
        if (v >= hi)
            return 1;
    }
    int64_t lo = floor_div(((int64_t)alpha - margin - p->offset) * 1000, p->slope);
    if (lo > -BS_WIN) {
        int v = shallow(ctx, d, (int)lo, (int)lo + 1);
        if (!sr->stop && v <= lo)
            return -1;
    }
    return 0;
}

/* ---- across files ---- */

/* eval_hand.c */
void bs_shape_compute(shape *sh, const bs_board *b);
int bs_evaluate_with(const bs_game *g, const bs_state *s, const bs_eval_weights *w, const shape *sh);

/* search.c: one iteration of the deepening, `depth` plies, with an
 * aspiration window round *last (the previous iteration's value) where
 * given; *move gets the best move found (-2: none finished) */
int bs_iteration(bs_searcher *sr, const bs_state *s, int depth, const int *last, int *move);

/* search_threads.c: up to threads - 1 helpers started on `s` after the
 * main thread's begin (none with an evaluation function; fewer when memory
 * or threads run short: the search goes on), how many returned; each
 * deepening up to max_depth, or with solve_guess the 8 x 8 exact solve
 * from that guess; the main thread's iteration
 * made known to them; stopped and joined (their node count returned,
 * *best raised to the deepest iteration a helper finished past it);
 * freed with the searcher. */
typedef struct bs_helper_best {
    int depth, move, value; /* the deepest finished iteration of a helper (depth 0: none) */
} bs_helper_best;
int bs_helpers_start(bs_searcher *sr, const bs_state *s, int threads, int max_depth, const int *solve_guess);
void bs_helpers_depth(bs_searcher *sr, int depth);
uint64_t bs_helpers_stop(bs_searcher *sr, bs_helper_best *best);
void bs_helpers_free(bs_searcher *sr);

/* endgame64.c */
bool bs_fast_solvable(const bs_game *g, const bs_state *s);
int bs_solve64_root(bs_searcher *sr, const bs_state *s, int guess, int *best);

/* search_learned.c: the midgame search on the 8 x 8 word path with a learned
 * evaluation (when bs_mid64_applies; bs_pat64_prepare done by the caller) */
bool bs_mid64_applies(const bs_searcher *sr, const bs_game *g, const bs_state *s);
int bs_mid64_search(bs_searcher *sr, const bs_state *s, int depth, int alpha, int beta, int *best);
int bs_mid64_evaluate(bs_searcher *sr, const bs_state *s);

#endif
