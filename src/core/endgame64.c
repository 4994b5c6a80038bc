/* endgame64.c - the exact solver of 8 x 8 standard-rule positions on 64-bit words (blocks allowed). */
#include "search_impl.h"

#include <string.h>

/* ---- the 8 x 8 exact solver (standard rules, blocks allowed) ---- */

typedef struct solve64 {
    bs_searcher *sr;
    uint64_t blocks;
    int misere, to_winner;
    int most; /* the cells that can hold a disc: no margin exceeds it */
    const bs_pat64 *pm; /* a learned evaluation to order moves by far from the end, or NULL */
    int stability;      /* stability cutoffs (not in a misere game, nor BS_WITHOUT_STABILITY) */
    int etc_min;        /* empties from which enhanced transposition cutoffs are tried */
} solve64;

/* Empty cells from which a learned evaluation orders the solver's moves
 * (nearer the end the mobility ordering is cheaper and as good). */
#define EVAL_SORT_EMPTIES 16

#define COL_A 0x0101010101010101ULL
#define COL_H 0x8080808080808080ULL

/* Cells whose line in one diagonal direction (+step / -step on the word,
 * `lo_wrap`/`hi_wrap` the columns a shift by 1, 2 and 4 steps wraps into)
 * holds an empty cell: the empties spread along the line both ways. */
static uint64_t diagonal_open(uint64_t empty, int step, const uint64_t wrap_up[3], const uint64_t wrap_down[3])
{
    uint64_t up = empty, down = empty;
    for (int k = 0; k < 3; k++) {
        up |= (up << (step << k)) & ~wrap_up[k];
        down |= (down >> (step << k)) & ~wrap_down[k];
    }
    return up | down;
}

/* Discs of `O` no move can ever flip (a lower bound): along each of the four
 * axes the line is full, or a neighbour on the axis is the edge, a block or
 * such a disc. Blocks count as filled cells and as walls. */
static int stable64(uint64_t P, uint64_t O, uint64_t blocks)
{
    static const uint64_t LEFT[3] = {COL_A, COL_A | COL_A << 1, 0x0f0f0f0f0f0f0f0fULL};
    static const uint64_t RIGHT[3] = {COL_H, COL_H | COL_H >> 1, 0xf0f0f0f0f0f0f0f0ULL};
    uint64_t empty = ~(P | O | blocks);
    uint64_t x = ~empty & (~empty >> 4);
    x &= x >> 2;
    x &= x >> 1;
    uint64_t full_h = (x & COL_A) * 0xff;
    uint64_t y = ~empty & (~empty >> 32);
    y &= y >> 16;
    y &= y >> 8;
    uint64_t full_v = (y & 0xff) * COL_A;
    uint64_t full_d9 = ~diagonal_open(empty, 9, LEFT, RIGHT);
    uint64_t full_d7 = ~diagonal_open(empty, 7, RIGHT, LEFT);
    const uint64_t rim = 0xff818181818181ffULL;
    uint64_t h0 = full_h | COL_A | COL_H, v0 = full_v | 0xff000000000000ffULL;
    uint64_t d9 = full_d9 | rim, d7 = full_d7 | rim;
    uint64_t stable = 0, wall = blocks;
    for (;;) {
        uint64_t w = wall | stable;
        uint64_t h = h0 | ((w << 1) & ~COL_A) | ((w >> 1) & ~COL_H);
        uint64_t v = v0 | (w << 8) | (w >> 8);
        uint64_t a = d9 | ((w << 9) & ~COL_A) | ((w >> 9) & ~COL_H);
        uint64_t b = d7 | ((w << 7) & ~COL_H) | ((w >> 7) & ~COL_A);
        uint64_t next = stable | (O & h & v & a & b);
        if (next == stable)
            return __builtin_popcountll(stable);
        stable = next;
    }
}

bool bs_fast_solvable(const bs_game *g, const bs_state *s)
{
    return s->board.n == 8 && g->legal_dirs == BS_DIRS_ALL && g->flip_dirs == BS_DIRS_ALL &&
           g->second_after == 0 && g->pass_rule == BS_PASS_WHEN_STUCK && g->end_rule == BS_END_NO_MOVES;
}

static int final64(const solve64 *c, uint64_t P, uint64_t O)
{
    int p = __builtin_popcountll(P), o = __builtin_popcountll(O);
    int diff = c->misere ? o - p : p - o;
    if (c->to_winner) {
        int empty = 64 - p - o - __builtin_popcountll(c->blocks);
        diff += diff > 0 ? empty : diff < 0 ? -empty : 0;
    }
    return diff;
}

/* Quadrant masks, for parity ordering near the end. */
static const uint64_t QUADRANT[4] = {0x000000000F0F0F0FULL, 0x00000000F0F0F0F0ULL, 0x0F0F0F0F00000000ULL,
                                     0xF0F0F0F000000000ULL};

static int solve_small(solve64 *c, uint64_t P, uint64_t O, int alpha, int beta, bool passed);

static int solve_last(solve64 *c, uint64_t P, uint64_t O, int square)
{
    uint64_t bit = 1ULL << square;
    uint64_t f = bs_flips64(P, O, square);
    if (f)
        return final64(c, P | f | bit, O & ~f);
    f = bs_flips64(O, P, square);
    if (f)
        return final64(c, P & ~f, O | f | bit);
    return final64(c, P, O);
}

/* Two empties, x < y (the order the parity pass gives them): each child
 * is one forced last move, counted as a node as solve_small would. */
static int solve_two(solve64 *c, uint64_t P, uint64_t O, int alpha, int beta, bool passed, int x, int y)
{
    int best = -INF;
    uint64_t f = bs_flips64(P, O, x);
    if (f) {
        if (poll_stop(c->sr))
            return 0;
        best = -solve_last(c, O & ~f, P | f | (1ULL << x), y);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    f = bs_flips64(P, O, y);
    if (f) {
        if (poll_stop(c->sr))
            return 0;
        int v = -solve_last(c, O & ~f, P | f | (1ULL << y), x);
        if (v > best)
            best = v;
    }
    if (best > -INF)
        return best;
    if (passed)
        return final64(c, P, O);
    if (poll_stop(c->sr))
        return 0;
    return -solve_two(c, O, P, -beta, -alpha, true, x, y);
}

static int solve_small(solve64 *c, uint64_t P, uint64_t O, int alpha, int beta, bool passed)
{
    if (poll_stop(c->sr))
        return 0;
    uint64_t E = ~(P | O | c->blocks);
    int empties = __builtin_popcountll(E);
    if (empties == 0)
        return final64(c, P, O);
    if (empties == 1 && !c->misere)
        return solve_last(c, P, O, __builtin_ctzll(E));
    if (empties == 2 && !c->misere)
        return solve_two(c, P, O, alpha, beta, passed, __builtin_ctzll(E), 63 - __builtin_clzll(E));
    uint64_t moves = bs_moves64(P, O, E);
    if (!moves) {
        if (passed || !bs_moves64(O, P, E))
            return final64(c, P, O);
        return -solve_small(c, O, P, -beta, -alpha, true);
    }
    /* odd quadrants first */
    uint64_t odd = 0;
    for (int q = 0; q < 4; q++)
        if (__builtin_popcountll(E & QUADRANT[q]) & 1)
            odd |= QUADRANT[q];
    int best = -INF;
    for (int pass = 0; pass < 2; pass++) {
        uint64_t set = moves & (pass == 0 ? odd : ~odd);
        while (set) {
            int sq = __builtin_ctzll(set);
            set &= set - 1;
            uint64_t f = bs_flips64(P, O, sq);
            int v = -solve_small(c, O & ~f, P | f | (1ULL << sq), -beta, -alpha, false);
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        return best;
                }
            }
        }
    }
    return best;
}

/* The cells next to a set of cells (8 directions), on the 8 x 8 word. */
static inline uint64_t neighbours64(uint64_t x)
{
    uint64_t h = ((x << 1) & 0xfefefefefefefefeULL) | ((x >> 1) & 0x7f7f7f7f7f7f7f7fULL);
    uint64_t row = x | h;
    return h | (row << 8) | (row >> 8);
}

static uint64_t key64(uint64_t P, uint64_t O)
{
    return bs_mix64(P) ^ bs_mix64(O + 0x5851f42d4c957f2dULL) ^ 0x2545F4914F6CDD1DULL;
}

/* The exact solver's table: search_impl.h's two-way table, depth being the
 * position's empties (the costliest to redo stay in the first entry). */
static const tt_hit *probe64(const bs_searcher *sr, uint64_t key, tt_hit *hit) { return tt_find(sr, key, hit); }

static void store64(bs_searcher *sr, uint64_t key, int empties, int value, int alpha0, int beta, int move)
{
    tt_put(sr, key, empties, value, alpha0, beta, move);
}

/* Enhanced transposition cutoffs cost a table probe per child: worth it
 * only where subtrees are big. */
#define ETC_MIN_EMPTIES 12

static int solve_deep(solve64 *c, uint64_t P, uint64_t O, int alpha, int beta, bool passed, int *best_sq);

/* A node's sorted children for pvs_children, and the current one. */
typedef struct deep_children {
    solve64 *c;
    uint64_t P, O;
    const int *sq;
    const uint64_t *flips;
    uint64_t nP, nO;
} deep_children;

static inline void deep_enter(void *ctx, int i)
{
    deep_children *k = ctx;
    uint64_t f = k->flips[i];
    k->nP = k->P | f | (1ULL << k->sq[i]);
    k->nO = k->O & ~f;
}

/* Empties from which a solve shares its nodes with helper threads. */
#define SHARE_EMPTIES 12

static inline uint64_t deep_key(void *ctx)
{
    deep_children *k = ctx;
    return key64(k->nO, k->nP);
}

static inline int deep_value(void *ctx, int alpha, int beta)
{
    deep_children *k = ctx;
    return -solve_deep(k->c, k->nO, k->nP, -beta, -alpha, false, NULL);
}

static int solve_deep(solve64 *c, uint64_t P, uint64_t O, int alpha, int beta, bool passed, int *best_sq)
{
    uint64_t E = ~(P | O | c->blocks);
    int empties = __builtin_popcountll(E);
    if (empties <= 7 && !best_sq)
        return solve_small(c, P, O, alpha, beta, passed);
    if (poll_stop(c->sr))
        return 0;
    uint64_t moves = bs_moves64(P, O, E);
    if (!moves) {
        if (passed || !bs_moves64(O, P, E))
            return final64(c, P, O);
        return -solve_deep(c, O, P, -beta, -alpha, true, NULL);
    }
    /* stability cutoff: O's stable discs cap what P can win */
    if (c->stability && !best_sq && alpha >= c->most - 2 * __builtin_popcountll(O)) {
        int most = c->most - 2 * stable64(P, O, c->blocks);
        if (most <= alpha)
            return most;
    }
    bs_searcher *sr = c->sr;
    uint64_t key = key64(P, O);
    tt_hit hit;
    const tt_hit *e = probe64(sr, key, &hit);
    int tt_move = -1, alpha0 = alpha;
    if (e) {
        tt_move = e->move;
        if (!best_sq) {
            int lo = e->flag & TT_LOWER ? e->value : -INF, hi = e->flag & TT_UPPER ? e->value : INF;
            if (tt_bound(e) == TT_EXACT)
                return e->value;
            if (lo >= beta)
                return lo;
            if (hi <= alpha)
                return hi;
        }
    }
    int sq_list[64], score[64], count = 0;
    uint64_t flip_list[64];
    uint64_t odd = 0;
    if (empties <= 14)
        for (int q = 0; q < 4; q++)
            if (__builtin_popcountll(E & QUADRANT[q]) & 1)
                odd |= QUADRANT[q];
    /* the pattern indices with P as "black": each child's are a few updates away */
    uint16_t idx[2 * BS_PAT64_LANES];
    bool by_eval = c->pm && empties >= EVAL_SORT_EMPTIES;
    if (by_eval)
        bs_pat64_indices(c->pm, P, O, idx);
    for (uint64_t set = moves; set; set &= set - 1) {
        int sq = __builtin_ctzll(set);
        uint64_t f = bs_flips64(P, O, sq);
        uint64_t nP = P | f | (1ULL << sq), nO = O & ~f;
        uint64_t reply_set = bs_moves64(nO, nP, ~(nP | nO | c->blocks));
        if (by_eval) {
            uint16_t child[2 * BS_PAT64_LANES];
            bs_pat64_child(c->pm, child, idx, 1, sq, f);
            int v = -bs_pat64_value(c->pm, child, nO, nP, 1, reply_set, bs_moves64(nP, nO, ~(nP | nO | c->blocks)));
            v = v / 8 - 16 * __builtin_popcountll(reply_set); /* hundredths of a disc, and mobility */
            if (sq == tt_move)
                v += 1 << 24;
            if (empties >= c->etc_min && !best_sq) {
                tt_hit child_hit;
                const tt_hit *ce = probe64(sr, key64(nO, nP), &child_hit);
                if (ce && (ce->flag & TT_UPPER) && -ce->value >= beta)
                    return -ce->value;
            }
            int j = count++;
            for (; j > 0 && score[j - 1] < v; j--) {
                score[j] = score[j - 1];
                sq_list[j] = sq_list[j - 1];
                flip_list[j] = flip_list[j - 1];
            }
            score[j] = v;
            sq_list[j] = sq;
            flip_list[j] = f;
            continue;
        }
        /* enhanced transposition cutoff: a child already known to be bad
         * enough for the opponent refutes this node at once */
        if (empties >= c->etc_min && !best_sq) {
            tt_hit child_hit;
            const tt_hit *ce = probe64(sr, key64(nO, nP), &child_hit);
            if (ce && (ce->flag & TT_UPPER) && -ce->value >= beta)
                return -ce->value;
        }
        /* fastest first: fewest replies for the opponent, corners for them
         * last, its own corners and odd regions first */
        int replies = __builtin_popcountll(reply_set);
        int v = -replies * 16 - 32 * __builtin_popcountll(reply_set & 0x8100000000000081ULL);
        if (empties > 12) /* the opponent's potential mobility: empty cells next to our discs */
            v -= 4 * __builtin_popcountll(neighbours64(nP) & ~(nP | nO | c->blocks));
        if ((1ULL << sq) & 0x8100000000000081ULL)
            v += 24;
        if ((1ULL << sq) & odd)
            v += 6;
        if (sq == tt_move)
            v += 1 << 20;
        int j = count++;
        for (; j > 0 && score[j - 1] < v; j--) {
            score[j] = score[j - 1];
            sq_list[j] = sq_list[j - 1];
            flip_list[j] = flip_list[j - 1];
        }
        score[j] = v;
        sq_list[j] = sq;
        flip_list[j] = f;
    }
    deep_children k = {.c = c, .P = P, .O = O, .sq = sq_list, .flips = flip_list};
    int at;
    int best = pvs_children(sr, count, alpha, beta, deep_enter, deep_value, empties > SHARE_EMPTIES ? deep_key : NULL,
                            &k, &at);
    if (best_sq && at >= 0)
        *best_sq = sq_list[at];
    if (sr->stop)
        return best;
    store64(sr, key, empties, best, alpha0, beta, sq_list[at >= 0 ? at : 0]);
    return best;
}

/* The exact margin of an 8 x 8 standard state; *best gets the best square
 * index (r * BS_MAX_N + c), or BS_PASS when the side to move must pass. */
int bs_solve64_root(bs_searcher *sr, const bs_state *s, int guess, int *best)
{
    solve64 c = {sr, bs_pack64(s->board.plane[2]), sr->g->misere, sr->g->empties_to_winner, 0,
                 sr->mid64 && !(sr->without & BS_WITHOUT_EVAL_ORDER) ? &sr->pat64 : NULL,
                 !sr->g->misere && !(sr->without & BS_WITHOUT_STABILITY),
                 sr->without & BS_WITHOUT_ETC ? 99 : ETC_MIN_EMPTIES};
    c.most = 64 - __builtin_popcountll(c.blocks);
    uint64_t P = bs_pack64(s->board.plane[s->player - 1]);
    uint64_t O = bs_pack64(s->board.plane[bs_opponent(s->player) - 1]);
    /* MTD(f): null-window tests from a guess of 0 close in on the value; the
     * table keeps each test's bounds for the next. The move comes from the
     * last test that failed high (it achieves the value), else from one last
     * narrow search. */
    int most = 64 - __builtin_popcountll(c.blocks); /* no margin can exceed the cells */
    /* win/loss/draw only: the value is known once it is placed against 0,
     * -1 standing for any loss and 1 for any win (at most two tests) */
    int bound = sr->wld ? 1 : most;
    int lower = -bound, upper = bound, sq = -1, proven = -1;
    guess = guess > bound ? bound : guess < -bound ? -bound : guess;
    while (lower < upper && !sr->stop) {
        int beta = guess == lower ? guess + 1 : guess;
        int at = -1;
        guess = solve_deep(&c, P, O, beta - 1, beta, false, &at);
        if (guess < beta) {
            upper = guess;
        } else {
            lower = guess;
            proven = at;
        }
    }
    int margin = lower;
    /* a proven loss (win/loss/draw only) has no move better than another */
    if (proven < 0 && !sr->stop && !(sr->wld && margin < 0))
        solve_deep(&c, P, O, margin - 1 < -most ? -most - 1 : margin - 1, margin + 1, false, &proven);
    sq = proven;
    *best = sq < 0 ? BS_PASS : (sq >> 3) * BS_MAX_N + (sq & 7);
    return margin > bound ? bound : margin;
}
