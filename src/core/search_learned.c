/* search_learned.c - the midgame search with a learned evaluation, on the 8 x 8 word path. */
#include "search_impl.h"
#include "simd64_impl.h"

#include <string.h>

/* Moves and flips inlined where the whole build targets AVX2, else the
 * entry points (which pick the path on each call). */
#if defined(BS_AVX2_BUILD_TIME)
#define MOVES64 moves64_avx2
#define FLIPS64 flips64_avx2
#else
#define MOVES64 bs_moves64
#define FLIPS64 bs_flips64
#endif

/*
 * Standard 8 x 8 rules (blocks allowed) with a learned evaluation: the
 * position is two words and the pattern indices, updated move by move
 * (pattern_impl.h), so a node costs a move generation and a few dozen
 * table reads. Values are the generic searcher's: hundredths of a disc,
 * a finished game +-BS_WIN plus 100 per disc.
 */

typedef struct mid64 {
    bs_searcher *sr;
    const bs_pat64 *pm;
    uint64_t blocks;
    int misere, to_winner;
} mid64;

static int final_value(const mid64 *c, uint64_t P, uint64_t O)
{
    int p = __builtin_popcountll(P), o = __builtin_popcountll(O);
    int diff = c->misere ? o - p : p - o;
    if (c->to_winner) {
        int empty = 64 - p - o - __builtin_popcountll(c->blocks);
        diff += diff > 0 ? empty : diff < 0 ? -empty : 0;
    }
    return terminal_score(diff);
}

static inline uint64_t mid_key(uint64_t P, uint64_t O)
{
    return bs_mix64(P + 0x632be59bd9b4e019ULL) ^ bs_mix64(O ^ 0x9e3779b97f4a7c15ULL) ^ 0xd1b54a32d192ed03ULL;
}

static inline int leaf(const mid64 *c, const uint16_t *idx, uint64_t P, uint64_t O, int white, uint64_t moves)
{
    uint64_t E = ~(P | O | c->blocks);
    int v = bs_pat64_value(c->pm, idx, P, O, white, moves, MOVES64(O, P, E));
    return v >= BS_WIN ? BS_WIN - 1 : v <= -BS_WIN ? -BS_WIN + 1 : v;
}

/* Plies left from which children are ordered by their evaluation (below it,
 * by the opponent's mobility: cheaper, and nearly as good). */
#define EVAL_ORDER_DEPTH 5
/* Plies left from which the transposition table is read and written. */
#define TT_MIN_DEPTH 2

static int negamax64(mid64 *c, uint64_t P, uint64_t O, int white, const uint16_t *idx, int depth, int alpha,
                     int beta, int *best_out);

/* The cheap ordering score of a move to `sq` leaving the opponent
 * `replies`: fewer replies first, fewer corners offered, corners taken. */
static inline int quick_score(int sq, uint64_t replies)
{
    const uint64_t corners = 0x8100000000000081ULL;
    int v = -16 * __builtin_popcountll(replies) - 32 * __builtin_popcountll(replies & corners);
    return (1ULL << sq) & corners ? v + 24 : v;
}

/* A node's children evaluated one after another. Every child has one disc
 * more (one phase) and the opponent to move (one half of the indices). From
 * the second child evaluated on, the patterns' sum is the parent's indices'
 * sum in that phase, as the children's mover sees them, plus the changes in
 * the instances the move touched: `base` holds the parent's entries. */
typedef struct siblings {
    const bs_pat64 *pm;
    const uint16_t *idx, *mine; /* the parent's indices; the children's mover's half */
    const int16_t *w;
    int phase, white, evaluated, sum;
    int16_t base[BS_PAT64_LANES];
} siblings;

static inline void siblings_init(siblings *sib, const bs_pat64 *pm, uint64_t P, uint64_t O, int white,
                                 const uint16_t *idx)
{
    sib->pm = pm;
    sib->idx = idx;
    sib->mine = bs_pat64_side(idx, !white);
    sib->phase = bs_pat_phase(pm->m, __builtin_popcountll(P | O) + 1);
    sib->w = bs_pat64_table(pm, sib->phase);
    sib->white = white;
    sib->evaluated = sib->sum = 0;
}

/* The value of the child for its mover (discs nO) after the parent's move
 * to `sq` flipping `f` (as bs_pat64_value, unclamped to the win range); the
 * child's indices in `child`. */
static inline int sibling_value(siblings *sib, uint16_t *child, int sq, uint64_t f, uint64_t nO, uint64_t nP,
                                uint64_t replies, uint64_t own)
{
    const bs_pat64 *pm = sib->pm;
    const int16_t *w = sib->w;
    uint64_t touched = bs_pat64_child(pm, child, sib->idx, sib->white ? 2 : 1, sq, f);
    const uint16_t *theirs = bs_pat64_side(child, !sib->white);
    int patterns;
    if (sib->evaluated++ == 0) {
        patterns = bs_pat64_patterns(pm, w, theirs);
    } else {
        if (sib->evaluated == 2)
            for (int i = 0, n = pm->m->ninst; i < n; i++) {
                sib->base[i] = w[pm->off[i] + sib->mine[i]];
                sib->sum += sib->base[i];
            }
        patterns = sib->sum;
        for (; touched; touched &= touched - 1) {
            int i = __builtin_ctzll(touched);
            patterns += w[pm->off[i] + theirs[i]] - sib->base[i];
        }
    }
    return bs_pat64_clamp(bs_pat64_scalars(pm, sib->phase, nO, nP, replies, own) + patterns);
}

/* The frontier's static order of squares: corners, then the edges' middle
 * and the centre, then the second ring, then C squares, then X squares. */
static const uint64_t FRONTIER_CLASS[5] = {
    0x8100000000000081ULL, 0x3C00BDBDBDBD003CULL, 0x003C424242423C00ULL, 0x4281000000008142ULL, 0x0042000000004200ULL,
};

/* A node one ply from the leaves (not the root): its children are
 * evaluated here, as negamax64 would at depth 0 (a child without a move
 * passes to a leaf, or is a finished game); a leaf's value does not depend
 * on the window, so there is no null-window search to repeat. Children in
 * a static order of squares, each made only when it is reached: a cutoff
 * at beta ends the loop. */
static int frontier64(mid64 *c, uint64_t P, uint64_t O, int white, const uint16_t *idx, uint64_t moves, int beta)
{
    bs_searcher *sr = c->sr;
    int best = -INF;
    siblings sib;
    siblings_init(&sib, c->pm, P, O, white, idx);
    for (int k = 0; k < 5; k++) {
        for (uint64_t set = moves & FRONTIER_CLASS[k]; set; set &= set - 1) {
            if (poll_stop(sr)) /* the child's node */
                return best > -INF ? best : 0;
            int sq = __builtin_ctzll(set);
            uint64_t f = FLIPS64(P, O, sq);
            uint64_t nP = P | f | (1ULL << sq), nO = O & ~f;
            uint64_t nE = ~(nP | nO | c->blocks);
            uint64_t replies = MOVES64(nO, nP, nE);
            uint64_t own = MOVES64(nP, nO, nE);
            int v;
            if (!replies && !own) {
                v = -final_value(c, nO, nP);
            } else {
                uint16_t child[2 * BS_PAT64_LANES];
                int e = sibling_value(&sib, child, sq, f, nO, nP, replies, own);
                v = -(e >= BS_WIN ? BS_WIN - 1 : e <= -BS_WIN ? -BS_WIN + 1 : e);
            }
            if (v > best) {
                best = v;
                if (v >= beta)
                    return best;
            }
        }
    }
    return best;
}

/* A node for mpc_probe's shallow searches. */
typedef struct node64 {
    mid64 *c;
    uint64_t P, O;
    int white;
    const uint16_t *idx;
} node64;

static int shallow64(void *ctx, int depth, int alpha, int beta)
{
    node64 *k = ctx;
    return negamax64(k->c, k->P, k->O, k->white, k->idx, depth, alpha, beta, NULL);
}

static int negamax64(mid64 *c, uint64_t P, uint64_t O, int white, const uint16_t *idx, int depth, int alpha,
                     int beta, int *best_out)
{
    bs_searcher *sr = c->sr;
    if (poll_stop(sr))
        return 0;
    uint64_t E = ~(P | O | c->blocks);
    uint64_t moves = MOVES64(P, O, E);
    if (!moves) {
        if (!MOVES64(O, P, E))
            return final_value(c, P, O);
        if (depth <= 0)
            return leaf(c, idx, P, O, white, 0);
        if (best_out)
            *best_out = BS_PASS;
        return -negamax64(c, O, P, !white, idx, depth - 1, -beta, -alpha, NULL);
    }
    if (depth <= 0)
        return leaf(c, idx, P, O, white, moves);
    if (depth == 1 && !best_out)
        return frontier64(c, P, O, white, idx, moves, beta);
    /* one ply from the leaves the table costs more (a cache miss) than
     * searching again */
    bool use_tt = depth >= TT_MIN_DEPTH;
    uint64_t key = use_tt ? mid_key(P, O) : 0;
    tt_hit hit;
    const tt_hit *e = use_tt ? tt_find(sr, key, &hit) : NULL;
    int tt_move = -1;
    if (e) {
        tt_move = e->move;
        if (e->depth >= depth && !best_out) {
            int bound = tt_bound(e);
            if (bound == TT_EXACT || (bound == TT_LOWER && e->value >= beta) || (bound == TT_UPPER && e->value <= alpha))
                return e->value;
        }
    }
    if (!best_out && sr->mpc_width) {
        node64 k = {c, P, O, white, idx};
        int cut = mpc_probe(sr, depth, __builtin_popcountll(P | O), alpha, beta, shallow64, &k);
        if (cut)
            return cut > 0 ? beta : alpha;
    }
    bool child_tt = depth - 1 >= TT_MIN_DEPTH; /* BUSY_DEPTH too */
    /* with helper threads (simplified ABDADA): a child another thread is
     * searching waits until the others are done */
    bool share = sr->busy && depth >= BUSY_DEPTH;
    int alpha0 = alpha, best = -INF, best_move = -1;
    /* The table's move first, before the others are ordered: where it cuts
     * (most cut nodes), their ordering is never paid for. It would head the
     * order anyway, so the search is the same node for node. */
    bool first_done = false;
    /* (a move of the generic path's encoding, 64 or more, from a key that
     * collided, is no square here: no shift by it) */
    if (tt_move >= 0 && tt_move < 64 && ((moves >> tt_move) & 1)) {
        int sq = tt_move;
        uint64_t f = FLIPS64(P, O, sq);
        uint64_t nP = P | f | (1ULL << sq), nO = O & ~f;
        uint64_t child_key = child_tt ? mid_key(nO, nP) : 0;
        if (share)
            busy_set(sr, child_key);
        uint16_t child[2 * BS_PAT64_LANES];
        bs_pat64_child(c->pm, child, idx, white ? 2 : 1, sq, f);
        int v = -negamax64(c, nO, nP, !white, child, depth - 1, -beta, -alpha, NULL);
        if (share)
            busy_clear(sr, child_key);
        if (sr->stop)
            return 0;
        best = v;
        best_move = sq;
        if (best_out)
            *best_out = (sq >> 3) * BS_MAX_N + (sq & 7);
        if (v > alpha)
            alpha = v;
        if (alpha >= beta) {
            if (use_tt)
                tt_put(sr, key, depth, best, alpha0, beta, best_move);
            return best;
        }
        moves &= ~(1ULL << sq);
        first_done = true;
    }
    /* the other children as keys, best first: score x 64 + 63 - square (a
     * tie: the lower square first); their flips and table keys by square */
    int64_t order[64];
    int count = 0;
    uint64_t flip_of[64], key_of[64];
    /* ordered by the evaluation far enough from the leaves */
    siblings by_eval_sib, *sib = NULL;
    if (moves && depth >= EVAL_ORDER_DEPTH && !(sr->without & BS_WITHOUT_EVAL_ORDER)) {
        siblings_init(&by_eval_sib, c->pm, P, O, white, idx);
        sib = &by_eval_sib;
    }
    for (uint64_t set = moves; set; set &= set - 1) {
        int sq = __builtin_ctzll(set);
        uint64_t f = FLIPS64(P, O, sq);
        flip_of[sq] = f;
        uint64_t nP = P | f | (1ULL << sq), nO = O & ~f;
        /* the child's table entry is on its way while the others are ordered */
        key_of[sq] = child_tt ? mid_key(nO, nP) : 0;
        if (child_tt)
            __builtin_prefetch(&sr->tt[key_of[sq] & sr->tt_mask & ~(size_t)1]);
        int v;
        if (sib) {
            uint16_t child[2 * BS_PAT64_LANES];
            uint64_t nE = ~(nP | nO | c->blocks);
            v = -sibling_value(sib, child, sq, f, nO, nP, MOVES64(nO, nP, nE), MOVES64(nP, nO, nE));
        } else {
            uint64_t replies = MOVES64(nO, nP, ~(nP | nO | c->blocks));
            v = quick_score(sq, replies);
        }
        int64_t key = (int64_t)v * 64 + (63 - sq);
        int j = count++;
        for (; j > 0 && order[j - 1] < key; j--)
            order[j] = order[j - 1];
        order[j] = key;
    }
    /* The PVS loop written out, not search_impl.h's pvs_children: through
     * its callbacks the child's position lived on the stack across the
     * recursive call, and this search ran 3-5 % slower in the native build
     * (the same instruction count: docs/decisions.md). */
    int deferred[64], ndeferred = 0;
    for (int n = 0; n < count + ndeferred; n++) {
        int i = n < count ? n : deferred[n - count];
        int sq = 63 - (int)(order[i] & 63);
        uint64_t f = flip_of[sq];
        uint64_t nP = P | f | (1ULL << sq), nO = O & ~f;
        uint64_t child_key = key_of[sq];
        bool first = n == 0 && !first_done;
        if (share) {
            if (!first && n < count && busy_has(sr, child_key)) {
                deferred[ndeferred++] = i;
                continue;
            }
            busy_set(sr, child_key);
        }
        /* again, as the earlier children's subtrees may have pushed it out */
        if (child_tt)
            __builtin_prefetch(&sr->tt[child_key & sr->tt_mask & ~(size_t)1]);
        uint16_t child[2 * BS_PAT64_LANES];
        bs_pat64_child(c->pm, child, idx, white ? 2 : 1, sq, f);
        int v;
        if (first) {
            v = -negamax64(c, nO, nP, !white, child, depth - 1, -beta, -alpha, NULL);
        } else {
            v = -negamax64(c, nO, nP, !white, child, depth - 1, -alpha - 1, -alpha, NULL);
            if (v > alpha && v < beta && !sr->stop)
                v = -negamax64(c, nO, nP, !white, child, depth - 1, -beta, -alpha, NULL);
        }
        if (share)
            busy_clear(sr, child_key);
        if (sr->stop)
            return best > -INF ? best : 0;
        if (v > best) {
            best = v;
            best_move = sq;
            if (best_out)
                *best_out = (sq >> 3) * BS_MAX_N + (sq & 7);
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (use_tt)
        tt_put(sr, key, depth, best, alpha0, beta, best_move);
    return best;
}

bool bs_mid64_applies(const bs_searcher *sr, const bs_game *g, const bs_state *s)
{
    const bs_model *m = sr->model;
    return m && !sr->cfg.eval_fn && m->n == 8 && m->ninst <= BS_PAT64_LANES && bs_fast_solvable(g, s) &&
           (!(m->features & BS_FEAT_MOBILITY) || m->mobility_dirs == BS_DIRS_ALL);
}

int bs_mid64_search(bs_searcher *sr, const bs_state *s, int depth, int alpha, int beta, int *best)
{
    mid64 c = {sr, &sr->pat64, bs_pack64(s->board.plane[2]), sr->g->misere, sr->g->empties_to_winner};
    uint64_t black = bs_pack64(s->board.plane[0]), white = bs_pack64(s->board.plane[1]);
    uint16_t idx[2 * BS_PAT64_LANES];
    bs_pat64_indices(&sr->pat64, black, white, idx);
    int is_white = s->player == BS_WHITE;
    return negamax64(&c, is_white ? white : black, is_white ? black : white, is_white, idx, depth, alpha, beta,
                     best);
}

int bs_mid64_evaluate(bs_searcher *sr, const bs_state *s)
{
    mid64 c = {sr, &sr->pat64, bs_pack64(s->board.plane[2]), sr->g->misere, sr->g->empties_to_winner};
    uint64_t black = bs_pack64(s->board.plane[0]), white = bs_pack64(s->board.plane[1]);
    uint16_t idx[2 * BS_PAT64_LANES];
    bs_pat64_indices(&sr->pat64, black, white, idx);
    int is_white = s->player == BS_WHITE;
    uint64_t P = is_white ? white : black, O = is_white ? black : white;
    return leaf(&c, idx, P, O, is_white, MOVES64(P, O, ~(P | O | c.blocks)));
}
