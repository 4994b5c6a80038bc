/* dgame_mcts.c - Monte Carlo tree search (UCT, random playouts, proven results) over described games. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dgame_impl.h"
#include "dgame_search.h"
#include "rng.h"

/* A playout that has not ended after this many plies is a draw. */
#define PLAYOUT_LIMIT 1000
#define STOP_EVERY 64u
#define MAX_PATH 4096

/* The core links no maths library: the logarithm and square root of UCT
 * by hand (pure arithmetic, so every machine draws the same tree). */
static double ln(double x)
{
    if (x <= 0)
        return 0;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff) - 1023;
    bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL; /* the mantissa in [1, 2) */
    double m;
    memcpy(&m, &bits, sizeof m);
    double t = (m - 1) / (m + 1), t2 = t * t; /* ln m = 2 atanh t, |t| <= 1/3 */
    double series = t * (1 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 * (1.0 / 7 + t2 * (1.0 / 9 + t2 / 11)))));
    return e * 0.69314718055994530942 + 2 * series;
}

static double root(double x)
{
    if (x <= 0)
        return 0;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits = (bits >> 1) + (0x3ff0000000000000ULL >> 1); /* halves the exponent: within a factor 1.5 */
    double r;
    memcpy(&r, &bits, sizeof r);
    for (int i = 0; i < 5; i++)
        r = 0.5 * (r + x / r);
    return r;
}

/* A node of the tree: the move that led to it and the rewards of the side
 * that made it (`mover`). Its children are `count` consecutive nodes from
 * `first` (first = -1: not expanded). `solved`: the winner with best play
 * (1 black, 2 white), 0 unknown. */
typedef struct mnode {
    dg_move move;
    double wins;
    uint32_t visits;
    int32_t first;
    int32_t count;
    uint8_t mover;
    uint8_t solved;
} mnode;

typedef struct mcts {
    const dg_desc *d;
    dg_state *s;
    const dg_mcts_config *cfg;
    bs_rng rng;
    mnode *nodes;
    size_t used, cap, max;
    dg_move *moves; /* DG_MOVES_MAX */
    dg_playout_buf *pb;
    int32_t path[MAX_PATH];
    int failed;
} mcts;

/* Room for `n` more nodes (the pool grows by doubling up to its bound). */
static int reserve_nodes(mcts *t, size_t n)
{
    if (t->used + n <= t->cap)
        return 1;
    if (t->used + n > t->max)
        return 0;
    size_t cap = t->cap ? t->cap : 1024;
    while (cap < t->used + n)
        cap *= 2;
    if (cap > t->max)
        cap = t->max;
    mnode *nodes = realloc(t->nodes, cap * sizeof *nodes);
    if (!nodes)
        return 0; /* as a full pool: the tree stops growing */
    t->nodes = nodes;
    t->cap = cap;
    return 1;
}

static int play(mcts *t, dg_move m)
{
    int st = m == DG_SEARCH_PASS ? dg_pass(t->d, t->s) : dg_play(t->d, t->s, m);
    if (st != BS_OK)
        t->failed = st;
    return st;
}

/* The children of node `at` (the state stands at it): its moves, or a
 * pass; shuffled, so the untried are taken in a random order. 0 when the
 * pool is full or nothing can be played. */
static int expand(mcts *t, int32_t at)
{
    int count = dg_moves(t->d, t->s, t->moves, DG_MOVES_MAX);
    if (count < 0) {
        t->failed = count;
        return 0;
    }
    if (count == 0) {
        if (!dg_can_pass(t->d, t->s))
            return 0;
        t->moves[0] = DG_SEARCH_PASS;
        count = 1;
    }
    if (!reserve_nodes(t, (size_t)count))
        return 0;
    for (int i = count - 1; i > 0; i--) {
        int j = (int)bs_rng_below(&t->rng, (uint64_t)i + 1);
        dg_move m = t->moves[i];
        t->moves[i] = t->moves[j];
        t->moves[j] = m;
    }
    uint8_t mover = (uint8_t)dg_player(t->s);
    int32_t first = (int32_t)t->used;
    for (int i = 0; i < count; i++) {
        mnode *c = &t->nodes[first + i];
        memset(c, 0, sizeof *c);
        c->move = t->moves[i];
        c->first = -1;
        c->mover = mover;
        /* a move that ends the game by an end (line, reach, ...) is proven
         * at once: the solver then takes a win first and never picks a
         * loss it can avoid (a win by no_move is found on the visit) */
        if (c->move != DG_SEARCH_PASS) {
            if (play(t, c->move) != BS_OK)
                return 0;
            int st = t->s->status; /* by the ends only: no move generation for a no_move */
            dg_undo(t->d, t->s);
            if (st == DG_WON_BLACK || st == DG_WON_WHITE)
                c->solved = (uint8_t)st;
        }
    }
    t->used += (size_t)count;
    t->nodes[at].first = first;
    t->nodes[at].count = count;
    return count;
}

/* The child of `at` to walk to: a proven win, else an untried one (in
 * their shuffled order), else the best upper confidence bound among those
 * not proven lost. */
static int32_t select_child(mcts *t, int32_t at)
{
    const mnode *n = &t->nodes[at];
    const mnode *kids = &t->nodes[n->first];
    int side = kids[0].mover;
    double log_n = ln((double)(n->visits > 0 ? n->visits : 1));
    int32_t best = -1, fallback = 0;
    double best_ucb = -1;
    for (int32_t i = 0; i < n->count; i++) {
        const mnode *c = &kids[i];
        if (c->solved == side)
            return n->first + i;
        if (c->solved) {
            fallback = i;
            continue;
        }
        if (c->visits == 0)
            return n->first + i;
        double ucb = c->wins / c->visits + t->cfg->c * root(log_n / c->visits);
        if (ucb > best_ucb) {
            best_ucb = ucb;
            best = i;
        }
    }
    return n->first + (best >= 0 ? best : fallback);
}

/* Whether node `at`'s result is settled by its children's: a child won for
 * the side to move, or every child won for the other side. */
static void settle(mcts *t, int32_t at)
{
    mnode *n = &t->nodes[at];
    if (n->solved || n->first < 0)
        return;
    const mnode *kids = &t->nodes[n->first];
    int side = kids[0].mover, other = 3 - side;
    int all_lost = 1;
    for (int32_t i = 0; i < n->count; i++) {
        if (kids[i].solved == side) {
            n->solved = (uint8_t)side;
            return;
        }
        if (kids[i].solved != other)
            all_lost = 0;
    }
    if (all_lost)
        n->solved = (uint8_t)other;
}

/* A random game from the state to its end (or PLAYOUT_LIMIT plies: then
 * a draw), by the engine's own playout (dg_playouts_in, the state unchanged):
 * black's reward. */
static double playout(mcts *t)
{
    int64_t out[4];
    int rc = dg_playouts_in(t->pb, t->d, t->s, &t->rng, 1, PLAYOUT_LIMIT, out);
    if (rc != BS_OK) {
        t->failed = rc;
        return 0.5;
    }
    return out[0] ? 1 : out[1] ? 0 : 0.5;
}

/* One iteration: down the tree, one expansion, a playout or a leaf value,
 * the reward counted back up; the state restored. */
static void iterate(mcts *t)
{
    int depth = 0;
    int32_t at = 0;
    t->path[0] = 0;
    while (t->nodes[at].first >= 0 && t->nodes[at].count > 0 && !t->nodes[at].solved && depth < MAX_PATH - 2) {
        at = select_child(t, at);
        if (play(t, t->nodes[at].move) != BS_OK)
            break;
        t->path[++depth] = at;
    }
    double black = 0.5;
    int status = t->failed ? DG_ONGOING : dg_status(t->d, t->s);
    mnode *n = &t->nodes[at];
    if (n->solved) {
        black = n->solved == 1 ? 1 : 0;
    } else if (status != DG_ONGOING) {
        black = status == DG_WON_BLACK ? 1 : status == DG_WON_WHITE ? 0 : 0.5;
        if (status != DG_DRAW)
            n->solved = (uint8_t)status;
    } else if (!t->failed) {
        if (n->first < 0 && depth < MAX_PATH - 2 && expand(t, at) > 0) {
            at = select_child(t, at);
            if (play(t, t->nodes[at].move) == BS_OK) {
                t->path[++depth] = at;
                status = dg_status(t->d, t->s);
                if (status != DG_ONGOING && status != DG_DRAW)
                    t->nodes[at].solved = (uint8_t)status;
            }
        }
        if (t->failed) {
            /* nothing counted */
        } else if (status != DG_ONGOING) {
            black = status == DG_WON_BLACK ? 1 : status == DG_WON_WHITE ? 0 : 0.5;
        } else if (t->cfg->leaf) {
            int failed = 0;
            double p = t->cfg->leaf(t->cfg->leaf_userdata, t->d, t->s, &failed);
            if (failed)
                t->failed = BS_EINVAL;
            p = p < 0 ? 0 : p > 1 ? 1 : p;
            black = dg_player(t->s) == 1 ? p : 1 - p;
        } else {
            black = playout(t);
        }
    }
    for (int i = 0; i < depth; i++)
        dg_undo(t->d, t->s);
    if (t->failed)
        return;
    for (int i = depth; i >= 0; i--) {
        mnode *p = &t->nodes[t->path[i]];
        p->visits++;
        p->wins += p->mover == 1 ? black : p->mover == 2 ? 1 - black : 0;
        settle(t, t->path[i]);
    }
}

/* The root's move: a proven win, else the most visited child not proven
 * lost (more wins break a tie), else the most visited. */
static int32_t best_root_child(const mcts *t)
{
    const mnode *root = &t->nodes[0];
    int32_t best = -1;
    for (int pass = 0; pass < 2 && best < 0; pass++)
        for (int32_t i = 0; i < root->count; i++) {
            const mnode *c = &t->nodes[root->first + i];
            if (c->solved == c->mover)
                return i;
            if (pass == 0 && c->solved)
                continue;
            const mnode *b = best >= 0 ? &t->nodes[root->first + best] : NULL;
            if (!b || c->visits > b->visits || (c->visits == b->visits && c->wins > b->wins))
                best = i;
        }
    return best;
}

int dg_mcts(const dg_desc *d, dg_state *s, const dg_mcts_config *cfg, dg_mcts_result *res)
{
    if (!d || !s || !cfg || !res || !(cfg->c >= 0) || cfg->max_nodes < 2)
        return BS_EINVAL;
    memset(res, 0, sizeof *res);
    if (dg_status(d, s) != DG_ONGOING)
        return BS_ESTATE;
    mcts *t = calloc(1, sizeof *t);
    if (!t)
        return BS_ENOMEM;
    t->d = d;
    t->s = s;
    t->cfg = cfg;
    t->max = cfg->max_nodes;
    bs_rng_seed(&t->rng, cfg->seed);
    t->moves = malloc(DG_MOVES_MAX * sizeof *t->moves);
    t->pb = dg_playout_buf_new();
    int st = BS_OK;
    if (!t->moves || !t->pb || !reserve_nodes(t, 1)) {
        st = BS_ENOMEM;
        goto done;
    }
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    t->nodes[0].first = -1;
    t->used = 1;
    t->max = (size_t)-1; /* the root's children always fit (a realloc failure aside) */
    int root_count = expand(t, 0);
    t->max = cfg->max_nodes;
    if (root_count == 0) {
        st = t->failed ? t->failed : BS_ENOMEM; /* a game on has a move or a pass: no room for them */
        goto done;
    }
    uint64_t count = 0;
    while (root_count > 1 && !t->nodes[0].solved && (cfg->playouts == 0 || count < cfg->playouts)) {
        if (count % STOP_EVERY == 0 && count > 0 && cfg->should_stop && cfg->should_stop(cfg->stop_userdata))
            break;
        iterate(t);
        if (t->failed)
            break;
        count++;
    }
    if (t->failed) {
        st = t->failed == BS_ENOMEM ? BS_ENOMEM : BS_EINVAL;
        goto done;
    }
    const mnode *root = &t->nodes[0];
    int32_t best = best_root_child(t);
    res->move = t->nodes[root->first + (best >= 0 ? best : 0)].move;
    res->playouts = count;
    res->nodes = t->used;
    int side = dg_player(s);
    res->proven = root->solved ? (root->solved == side ? 1 : -1) : 0;
    double wins = 0;
    uint32_t visits = 0;
    res->children = malloc((size_t)root->count * sizeof *res->children);
    if (!res->children) {
        st = BS_ENOMEM;
        goto done;
    }
    res->child_count = root->count;
    for (int32_t i = 0; i < root->count; i++) {
        const mnode *c = &t->nodes[root->first + i];
        res->children[i].move = c->move;
        res->children[i].visits = c->visits;
        res->children[i].value = c->visits ? c->wins / c->visits : 0;
        wins += c->wins;
        visits += c->visits;
    }
    res->value = res->proven ? (res->proven > 0 ? 1 : 0) : visits ? wins / visits : 0.5;
done:
    free(t->moves);
    dg_playout_buf_free(t->pb);
    free(t->nodes);
    free(t);
    return st;
}
