/* search.c - alpha-beta search (transposition table, move ordering, negamax) and the search and solve entry points. */
#include "search_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- the searcher ---- */

int bs_searcher_new(bs_searcher **out, const bs_search_config *cfg)
{
    if (!out)
        return BS_EINVAL;
    *out = NULL;
    bs_searcher *s = calloc(1, sizeof *s);
    if (!s)
        return BS_ENOMEM;
    if (cfg)
        s->cfg = *cfg;
    else
        s->cfg.weights = bs_eval_default_weights();
    size_t bytes = s->cfg.tt_bytes ? s->cfg.tt_bytes : (size_t)16 << 20;
    size_t entries = 2; /* the exact solver reads entries in pairs */
    while (entries * 2 * sizeof(tt_entry) <= bytes)
        entries *= 2;
    s->tt = bs_table_alloc(entries * sizeof(tt_entry), 0); /* kept from move to move: huge pages pay */
    if (!s->tt) {
        free(s);
        return BS_ENOMEM;
    }
    s->tt_mask = entries - 1;
    *out = s;
    return BS_OK;
}

void bs_searcher_free(bs_searcher *s)
{
    if (!s)
        return;
    bs_helpers_free(s);
    bs_pat64_release(&s->pat64);
    free(s->tt);
    free(s);
}

void bs_searcher_set_model(bs_searcher *s, const bs_model *m)
{
    if (!s)
        return;
    if (s->model != m || (m && s->model_generation != m->generation)) {
        s->model = m;
        s->model_generation = m ? m->generation : 0;
        bs_searcher_clear(s);
    }
}

void bs_searcher_clear(bs_searcher *s)
{
    if (!s)
        return;
    memset(s->tt, 0, (s->tt_mask + 1) * sizeof(tt_entry));
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
}

void bs_searcher_set_weights(bs_searcher *s, const bs_eval_weights *w)
{
    if (!s || !w)
        return;
    s->cfg.weights = *w;
    bs_searcher_clear(s);
}

bs_eval_weights bs_searcher_weights(const bs_searcher *s)
{
    return s ? s->cfg.weights : bs_eval_default_weights();
}

void bs_searcher_set_eval(bs_searcher *s, bs_eval_fn fn, void *userdata)
{
    if (!s)
        return;
    s->cfg.eval_fn = fn;
    s->cfg.eval_userdata = userdata;
}


/* The key of a state: the board and whatever else the game's rules read. */
static uint64_t state_key(const bs_game *g, const bs_state *s, uint64_t salt)
{
    uint64_t extra = (uint64_t)s->player | (uint64_t)s->piece << 2;
    if (g->end_rule == BS_END_TWO_PASSES || g->end_rule == BS_END_TWO_PASSES_ONLY)
        extra |= (uint64_t)(s->passes > 3 ? 3 : s->passes) << 4;
    if (g->end_rule == BS_END_TURNS)
        extra |= (uint64_t)s->turns << 8 | (uint64_t)(s->unable > 3 ? 3 : s->unable) << 40;
    return bs_board_hash(&s->board) ^ bs_mix64(extra + salt);
}

static int evaluate_node(bs_searcher *sr, const bs_state *s)
{
    if (sr->cfg.eval_fn) {
        int failed = 0;
        int v = sr->cfg.eval_fn(sr->cfg.eval_userdata, s, &failed);
        if (failed)
            sr->stop = 1;
        if (v >= BS_WIN)
            v = BS_WIN - 1;
        if (v <= -BS_WIN)
            v = -BS_WIN + 1;
        return v;
    }
    if (sr->model) {
        int v = bs_model_evaluate(sr->model, &s->board, s->player);
        return v >= BS_WIN ? BS_WIN - 1 : v <= -BS_WIN ? -BS_WIN + 1 : v;
    }
    return bs_evaluate_with(sr->g, s, &sr->cfg.weights, &sr->sh);
}

/* The children of a state: its moves, and a pass when the rules allow one. */
static int children(bs_searcher *sr, const bs_state *s, int *list)
{
    bs_set moves;
    bs_capture_moves(&s->board, s->player, legal_of(sr->g, s), &moves);
    int count = 0;
    for (int index = -1; bs_set_next(&moves, &index);)
        list[count++] = index;
    if (sr->g->pass_rule == BS_PASS_ANYTIME || s->piece == 2 || count == 0)
        list[count++] = BS_PASS;
    return count;
}

static void order(bs_searcher *sr, const bs_state *s, int *list, int count, int first, int ply)
{
    int score[MAX_MOVES];
    const int *hist = sr->history[s->player - 1];
    bool killers = !(sr->without & BS_WITHOUT_KILLERS);
    for (int i = 0; i < count; i++) {
        int m = list[i];
        score[i] = m == first ? 1 << 30
                   : killers && ply < MAX_PLY && (m == sr->killers[ply][0] || m == sr->killers[ply][1]) ? 1 << 29
                   : m == BS_PASS ? -1
                   : killers       ? hist[m]
                                   : 0;
    }
    for (int i = 1; i < count; i++) { /* insertion sort, best first */
        int m = list[i], v = score[i], j = i - 1;
        for (; j >= 0 && score[j] < v; j--) {
            list[j + 1] = list[j];
            score[j + 1] = score[j];
        }
        list[j + 1] = m;
        score[j + 1] = v;
    }
}

static int negamax(bs_searcher *sr, const bs_state *s, int depth, int alpha, int beta, int ply, int *best_out);

/* A node's sorted moves for pvs_children, and the current child (a state
 * of the caller's: this struct's address never leaves the node). */
typedef struct node_children {
    bs_searcher *sr;
    const bs_state *s;
    const int *list;
    bs_state *child;
    int depth, ply;
    int refused; /* the rules refused the move: the child has no value */
} node_children;

static inline void node_enter(void *ctx, int i)
{
    node_children *k = ctx;
    *k->child = *k->s;
    k->refused = apply(k->sr->g, k->child, k->list[i]) < 0;
}

/* The current child's key for the busy table (as its own node's table key). */
static inline uint64_t node_key(void *ctx)
{
    node_children *k = ctx;
    if (k->refused || k->depth < BUSY_DEPTH)
        return 0;
    return state_key(k->sr->g, k->child, k->sr->exact ? 0x9e3779b97f4a7c15ULL : 0);
}

/* A child whose mover moves again (a second piece) keeps the sign. */
static inline int node_value(void *ctx, int alpha, int beta)
{
    node_children *k = ctx;
    if (k->refused)
        return -INF;
    if (k->child->player == k->s->player)
        return negamax(k->sr, k->child, k->depth - 1, alpha, beta, k->ply + 1, NULL);
    return -negamax(k->sr, k->child, k->depth - 1, -beta, -alpha, k->ply + 1, NULL);
}

/* The node itself searched `depth` plies deep (mpc_probe's shallow search). */
static int node_shallow(void *ctx, int depth, int alpha, int beta)
{
    node_children *k = ctx;
    return negamax(k->sr, k->s, depth, alpha, beta, k->ply, NULL);
}

/* Negamax with principal-variation search. In exact mode depth is ignored
 * and only finished games are scored. */
static int negamax(bs_searcher *sr, const bs_state *s, int depth, int alpha, int beta, int ply, int *best_out)
{
    if (poll_stop(sr))
        return 0;
    if (ply >= MAX_SOLVE_PLY) {
        /* An exact solve of a game where passing is always allowed and only
         * "no moves" ends it can pass for ever: give up (not exact) rather
         * than exhaust the stack. Searches to a depth never get here. */
        sr->stop = 1;
        return 0;
    }
    if (state_finished(sr->g, s))
        return terminal_score(disc_margin(sr->g, &s->board, s->player));
    if (!sr->exact && depth <= 0)
        return evaluate_node(sr, s);
    int alpha0 = alpha;
    uint64_t key = state_key(sr->g, s, sr->exact ? 0x9e3779b97f4a7c15ULL : 0);
    tt_hit hit;
    const tt_hit *e = tt_find(sr, key, &hit);
    int tt_move = -2;
    int need = sr->exact ? EXACT_DEPTH : depth;
    if (e) {
        tt_move = e->move;
        if (e->depth >= need && best_out == NULL) {
            int bound = tt_bound(e);
            if (bound == TT_EXACT || (bound == TT_LOWER && e->value >= beta) || (bound == TT_UPPER && e->value <= alpha))
                return e->value;
        }
    }
    if (sr->mpc_width && !sr->exact && !best_out) {
        node_children k = {.sr = sr, .s = s, .ply = ply};
        int discs = bs_board_count(&s->board, BS_BLACK) + bs_board_count(&s->board, BS_WHITE);
        int cut = mpc_probe(sr, depth, discs, alpha, beta, node_shallow, &k);
        if (cut)
            return cut > 0 ? beta : alpha;
    }
    int list[MAX_MOVES];
    int count = children(sr, s, list);
    order(sr, s, list, count, tt_move, ply);
    bs_state child;
    node_children k = {.sr = sr, .s = s, .list = list, .child = &child, .depth = depth, .ply = ply};
    int at;
    int best = pvs_children(sr, count, alpha, beta, node_enter, node_value, node_key, &k, &at);
    if (best_out && at >= 0)
        *best_out = list[at];
    if (sr->stop)
        return best;
    if (best == -INF) /* no child could be played: score the position as it is */
        return terminal_score(disc_margin(sr->g, &s->board, s->player));
    int best_move = list[at];
    if (best >= beta && best_move != BS_PASS) { /* a cutoff: the move is a killer */
        if (ply < MAX_PLY && sr->killers[ply][0] != best_move) {
            sr->killers[ply][1] = sr->killers[ply][0];
            sr->killers[ply][0] = best_move;
        }
        int *h = &sr->history[s->player - 1][best_move];
        *h += sr->exact ? 4 : depth * depth;
        if (*h > (1 << 28))
            for (int i = 0; i < BS_MAX_N * BS_MAX_N; i++)
                sr->history[s->player - 1][i] /= 2;
    }
    tt_put(sr, key, need, best, alpha0, beta, best_move);
    return best;
}

/* ---- iterative deepening and exact solving ---- */

/* Starts a search: BS_OK, or BS_ENOMEM when the learned evaluation's tables
 * for the word path cannot be made. */
static int begin(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim)
{
    sr->g = g;
    sr->nodes = 0;
    sr->node_limit = lim ? lim->nodes : 0;
    sr->stop = 0;
    if (sr->sh.n != s->board.n || memcmp(sr->sh.blocks, s->board.plane[2], sizeof sr->sh.blocks) != 0)
        bs_shape_compute(&sr->sh, &s->board);
    sr->mid64 = 0;
    int width = lim && lim->mpc ? lim->mpc : BS_MPC_WIDTH;
    sr->mpc_width = width > 0 && sr->model && sr->model->mpc && !sr->cfg.eval_fn ? width : 0;
    sr->without = lim ? lim->without : 0;
    if (bs_mid64_applies(sr, g, s)) {
        if (sr->model_generation != sr->model->generation) { /* fitted since it was set */
            sr->model_generation = sr->model->generation;
            bs_searcher_clear(sr);
        }
        int st = bs_pat64_prepare(&sr->pat64, sr->model, bs_pack64(s->board.plane[2]));
        if (st != BS_OK)
            return st;
        sr->mid64 = 1;
    }
    return BS_OK;
}

/* A search `depth` plies deep of the root, by the word path when it applies. */
static int root_search(bs_searcher *sr, const bs_state *s, int depth, int alpha, int beta, int *best)
{
    return sr->mid64 ? bs_mid64_search(sr, s, depth, alpha, beta, best) : negamax(sr, s, depth, alpha, beta, 0, best);
}

static int margin_of(int value)
{
    if (value >= BS_WIN)
        return (value - BS_WIN) / 100;
    if (value <= -BS_WIN)
        return (value + BS_WIN) / 100;
    return 0;
}

/* What bs_solve and bs_search check first: their arguments (the result
 * cleared) and that the game is not over. */
static int entry_check(const bs_searcher *sr, const bs_game *g, const bs_state *s, bs_search_result *res)
{
    if (!sr || !res || state_check(g, s) != BS_OK || (sr->model && sr->model->n != s->board.n))
        return BS_EINVAL;
    memset(res, 0, sizeof *res);
    return bs_state_finished(g, s) ? BS_ESTATE : BS_OK;
}

/* Half the aspiration window, in hundredths of a disc. */
#define ASPIRATION 300

/* A new search or solve: what the table holds is from older ones. */
static void next_age(bs_searcher *sr) { sr->age = (sr->age + 1) & 63; }

static int solve(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
                 bs_search_result *res, int wld);

int bs_solve(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
             bs_search_result *res)
{
    if (sr)
        next_age(sr);
    return solve(sr, g, s, lim, res, 0);
}

/* The exact solve; with wld (8 x 8 word path only) it proves win, loss or
 * draw only: res->value -1, 0 or 1, and res->move BS_PASS for a loss. */
static int solve(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
                 bs_search_result *res, int wld)
{
    int status = entry_check(sr, g, s, res);
    if (status != BS_OK)
        return status;
    status = begin(sr, g, s, lim);
    if (status != BS_OK)
        return status;
    sr->exact = bs_fast_solvable(g, s) ? 0 : 1;
    sr->allow_stop = 1;
    int best = BS_PASS, margin, helpers = 0;
    if (bs_fast_solvable(g, s)) {
        /* a shallow search's estimate is the first guess of the null-window tests */
        int guess = 0;
        if (bs_board_count(&s->board, BS_EMPTY) > 12) {
            int ignored = -2;
            int estimate = root_search(sr, s, 4, -INF, INF, &ignored);
            guess = estimate >= BS_WIN || estimate <= -BS_WIN ? margin_of(estimate) : estimate / 100;
            guess = guess > 64 ? 64 : guess < -64 ? -64 : guess;
        }
        sr->exact = 1;
        sr->wld = wld;
        helpers = lim && lim->threads > 1 ? bs_helpers_start(sr, s, lim->threads, 0, &guess) : 0;
        margin = bs_solve64_root(sr, s, guess, &best);
        sr->nodes += bs_helpers_stop(sr, NULL);
        sr->wld = 0;
    } else {
        best = -2;
        margin = margin_of(negamax(sr, s, 0, -INF, INF, 0, &best));
        if (best == -2) {
            int list[MAX_MOVES];
            children(sr, s, list);
            best = list[0];
        }
    }
    sr->exact = 0;
    res->move = best;
    res->value = margin;
    res->exact = !sr->stop;
    res->stopped = sr->stop;
    res->depth = bs_board_count(&s->board, BS_EMPTY);
    res->nodes = sr->nodes;
    res->threads = 1 + helpers;
    return BS_OK;
}

static int midgame(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
                   bs_search_result *res);

/* The deepest search before a solve on a clock (bs_search_limits.midgame_first). */
#define FALLBACK_DEPTH 8
/* Before a win/loss/draw proof (bs_search_limits.wld) the deepening stops
 * this many plies short of the end, as Ntest's midgame stops 8 short and
 * its solver takes over. */
#define WLD_GAP 8

/* The deepening before a solve or a proof on a clock, at most `cap` plies
 * (the limits' depth when it is less): the move to fall back on. */
static int search_first(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim, int cap,
                        bs_search_result *first)
{
    bs_search_limits shallow = *lim;
    if (shallow.depth == 0 || shallow.depth > cap)
        shallow.depth = cap;
    return midgame(sr, g, s, &shallow, first);
}

/* An exact solve's result as the search's: the margin in the search's
 * hundredths of a disc, the nodes of the work before it (`before`) added. */
static void take_exact(bs_search_result *res, const bs_search_result *exact, uint64_t before)
{
    *res = *exact;
    res->value = exact->value * 100;
    res->nodes += before;
}

/* bs_search_limits.wld: the deepening, then the proof with the time left. */
static int search_then_prove(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
                             bs_search_result *res)
{
    int empties = bs_board_count(&s->board, BS_EMPTY);
    bs_search_result first = {0};
    int status = search_first(sr, g, s, lim, empties - WLD_GAP > 1 ? empties - WLD_GAP : 1, &first);
    if (status != BS_OK || sr->stop) {
        *res = first;
        return status;
    }
    bs_search_result proof;
    status = solve(sr, g, s, lim, &proof, 1);
    if (status != BS_OK)
        return status;
    *res = first;
    res->nodes += proof.nodes;
    if (!proof.exact) {
        res->stopped = 1;
        return BS_OK;
    }
    res->wld = 1;
    if (proof.value >= 0 && proof.move != BS_PASS)
        res->move = proof.move;
    if (proof.value > 0)
        res->value = first.value < 100 ? 100 : first.value;
    else if (proof.value < 0)
        res->value = first.value > -100 ? -100 : first.value;
    else
        res->value = 0;
    /* Proven early, the exact solve follows, as Ntest's does: the move that
     * wins by the most or loses by the least (a proof alone plays any move
     * of the outcome, and a lost game shed discs). The time manager says
     * whether there is time for it, as for another iteration; out of time,
     * the proof's move stands. */
    if (sr->cfg.iteration_done && !sr->cfg.iteration_done(sr->cfg.stop_userdata, empties, first.value, 0)) {
        bs_search_result exact;
        status = solve(sr, g, s, lim, &exact, 0);
        if (status != BS_OK)
            return status;
        if (exact.exact) {
            take_exact(res, &exact, res->nodes);
            res->wld = 1;
        } else {
            res->stopped = 1;
            res->nodes += exact.nodes;
        }
    }
    return BS_OK;
}

int bs_search(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
              bs_search_result *res)
{
    int status = entry_check(sr, g, s, res);
    if (status != BS_OK)
        return status;
    next_age(sr);
    int empties = bs_board_count(&s->board, BS_EMPTY);
    /* Exact solving: up to `endgame` empties on the 8 x 8 word path; the
     * generic path is slower, and a game where a pass is always a choice has
     * a tree far too large for it, so those solve from fewer or never. */
    int solve_from = lim ? lim->endgame : 0;
    if (!bs_fast_solvable(g, s))
        solve_from = g->pass_rule == BS_PASS_ANYTIME ? 0 : (solve_from < 10 ? solve_from : 10);
    if (solve_from > 0 && empties <= solve_from) {
        bs_search_result first = {0};
        if (lim->midgame_first) {
            /* a move to fall back on before the solve takes the rest of the
             * time: a few plies (milliseconds), so the solve keeps most of it */
            status = search_first(sr, g, s, lim, FALLBACK_DEPTH, &first);
            if (status != BS_OK || sr->stop) {
                *res = first;
                return status;
            }
        }
        bs_search_result exact;
        status = solve(sr, g, s, lim, &exact, 0);
        if (status != BS_OK)
            return status;
        if (exact.exact) {
            take_exact(res, &exact, first.nodes);
            return BS_OK;
        }
        if (lim->midgame_first) {
            *res = first;
            res->stopped = 1;
            res->nodes += exact.nodes;
            return BS_OK;
        }
        /* out of time: fall through to a shallow search */
    }
    if (lim && lim->midgame_first && lim->wld > solve_from && empties <= lim->wld && bs_fast_solvable(g, s))
        return search_then_prove(sr, g, s, lim, res);
    return midgame(sr, g, s, lim, res);
}

int bs_iteration(bs_searcher *sr, const bs_state *s, int depth, const int *last, int *move)
{
    if (!sr->mid64 || depth < 4 || !last || *last >= BS_WIN || *last <= -BS_WIN ||
        (sr->without & BS_WITHOUT_ASPIRATION))
        return root_search(sr, s, depth, -INF, INF, move);
    /* aspiration: a narrow window round the last value, widened when it fails */
    int lo = *last - ASPIRATION, hi = *last + ASPIRATION;
    int value = root_search(sr, s, depth, lo, hi, move);
    if (!sr->stop && (value <= lo || value >= hi)) {
        if (value <= lo)
            *move = -2;
        value = root_search(sr, s, depth, -INF, INF, move);
    }
    return value;
}

/* The search by iterative deepening, without solving. */
static int midgame(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
                   bs_search_result *res)
{
    int empties = bs_board_count(&s->board, BS_EMPTY);
    int status = begin(sr, g, s, lim);
    if (status != BS_OK)
        return status;
    int max_depth = lim && lim->depth > 0 ? lim->depth : 60;
    if (max_depth > 60)
        max_depth = 60;
    int list[MAX_MOVES];
    children(sr, s, list);
    int best_move = list[0], best_value = 0, done = 0;
    uint64_t nodes = 0;
    int helpers =
        lim && lim->threads > 1 && max_depth > 1 ? bs_helpers_start(sr, s, lim->threads, max_depth, NULL) : 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        sr->allow_stop = depth > 1;
        bs_helpers_depth(sr, depth);
        int move = -2;
        int value = bs_iteration(sr, s, depth, done > 0 ? &best_value : NULL, &move);
        if (sr->stop) {
            /* a move found better than the previous iteration's in this one is kept */
            if (move != -2 && value > best_value && move != best_move && done > 0)
                best_move = move;
            break;
        }
        int changed = move != -2 && move != best_move;
        best_move = move == -2 ? best_move : move;
        best_value = value;
        done = depth;
        if (depth > 1 && depth < max_depth && sr->cfg.iteration_done &&
            sr->cfg.iteration_done(sr->cfg.stop_userdata, depth, value, changed))
            break;
        if (value >= BS_WIN || value <= -BS_WIN) {
            /* a finished game is certain along the whole tree only if deep enough */
            if (depth >= empties * 2 + 2)
                break;
        }
    }
    bs_helper_best ahead = {done, best_move, best_value};
    nodes = sr->nodes + bs_helpers_stop(sr, &ahead);
    if (ahead.depth > done) {
        done = ahead.depth;
        best_move = ahead.move;
        best_value = ahead.value;
    }
    res->move = best_move;
    /* a finished game found along the line: its margin, in the same hundredths */
    res->value = best_value >= BS_WIN || best_value <= -BS_WIN ? margin_of(best_value) * 100 : best_value;
    res->depth = done;
    res->exact = 0;
    res->stopped = sr->stop;
    res->nodes = nodes;
    res->threads = 1 + helpers;
    return BS_OK;
}
