/* search.c - rules of described capture games, the evaluation, alpha-beta search and exact solving. */
#include "search.h"

#include <stdlib.h>
#include <string.h>

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

/* ---- game descriptions and the rules over a state ---- */

bs_game bs_game_reversi(void)
{
    bs_game g;
    memset(&g, 0, sizeof g);
    g.legal_dirs = g.flip_dirs = BS_DIRS_ALL;
    g.pass_rule = BS_PASS_WHEN_STUCK;
    g.end_rule = BS_END_NO_MOVES;
    return g;
}

int bs_game_check(const bs_game *g)
{
    if (!g || g->legal_dirs > BS_DIRS_ALL || g->flip_dirs > BS_DIRS_ALL ||
        g->legal2_dirs > BS_DIRS_ALL || g->flip2_dirs > BS_DIRS_ALL || g->second_after < 0 ||
        g->second_after > BS_MAX_N * BS_MAX_N || g->pass_rule < BS_PASS_WHEN_STUCK ||
        g->pass_rule > BS_PASS_ANYTIME || g->end_rule < BS_END_NO_MOVES || g->end_rule > BS_END_TURNS ||
        g->turn_limit < 0 || g->turn_limit > 1000000)
        return BS_EINVAL;
    return BS_OK;
}

static int state_check(const bs_game *g, const bs_state *s)
{
    if (bs_game_check(g) != BS_OK || !s || !bs_board_valid(&s->board) || !bs_is_player(s->player) ||
        s->passes < 0 || s->turns < 0 || s->unable < 0 || s->piece < 1 || s->piece > 2 ||
        (s->piece == 2 && g->second_after == 0))
        return BS_EINVAL;
    return BS_OK;
}

static unsigned legal_of(const bs_game *g, const bs_state *s)
{
    return s->piece == 2 ? g->legal2_dirs : g->legal_dirs;
}

static unsigned flip_of(const bs_game *g, const bs_state *s)
{
    return s->piece == 2 ? g->flip2_dirs : g->flip_dirs;
}

int bs_state_moves(const bs_game *g, const bs_state *s, bs_set *out)
{
    if (state_check(g, s) != BS_OK || !out)
        return BS_EINVAL;
    return bs_capture_moves(&s->board, s->player, legal_of(g, s), out);
}

static bool has_moves(const bs_game *g, const bs_state *s, int player, int piece)
{
    bs_set m;
    bs_capture_moves(&s->board, player, piece == 2 ? g->legal2_dirs : g->legal_dirs, &m);
    return !bs_set_empty(&m);
}

int bs_state_can_pass(const bs_game *g, const bs_state *s)
{
    if (state_check(g, s) != BS_OK)
        return BS_EINVAL;
    if (g->pass_rule == BS_PASS_ANYTIME || s->piece == 2)
        return 1;
    return !has_moves(g, s, s->player, s->piece);
}

int bs_state_finished(const bs_game *g, const bs_state *s)
{
    if (state_check(g, s) != BS_OK)
        return BS_EINVAL;
    switch (g->end_rule) {
    case BS_END_NO_MOVES:
        return !has_moves(g, s, s->player, 1) && !has_moves(g, s, bs_opponent(s->player), 1);
    case BS_END_TWO_PASSES:
        return s->passes >= 2 || bs_board_count(&s->board, BS_EMPTY) == 0;
    case BS_END_TWO_PASSES_ONLY:
        return s->passes >= 2;
    default: {
        int limit = g->turn_limit ? g->turn_limit : s->board.n * s->board.n;
        return s->turns >= limit || s->unable >= 2;
    }
    }
}

/* Places a piece with the 8 x 8 word path when it applies. */
static int place(bs_board *b, int player, int r, int c, unsigned legal, unsigned flip)
{
    if (b->n == 8 && legal == BS_DIRS_ALL && flip == BS_DIRS_ALL) {
        uint64_t mine = bs_pack64(b->plane[player - 1]);
        uint64_t theirs = bs_pack64(b->plane[bs_opponent(player) - 1]);
        uint64_t bit = 1ULL << (8 * r + c);
        if ((mine | theirs | bs_pack64(b->plane[2])) & bit)
            return BS_EILLEGAL;
        uint64_t flips = bs_flips64(mine, theirs, 8 * r + c);
        if (!flips)
            return BS_EILLEGAL;
        bs_unpack64(mine | flips | bit, b->plane[player - 1]);
        bs_unpack64(theirs & ~flips, b->plane[bs_opponent(player) - 1]);
        return __builtin_popcountll(flips);
    }
    bs_set flipped;
    return bs_capture_play(b, player, r, c, legal, flip, &flipped);
}

static void end_turn(bs_state *s, bool unable)
{
    s->turns++;
    s->unable = unable ? s->unable + 1 : 0;
    s->player = bs_opponent(s->player);
    s->piece = 1;
}

/* The rules' play and pass, trusting the caller (the state was checked once). */
static int apply(const bs_game *g, bs_state *s, int move)
{
    if (move == BS_PASS) {
        bool unable = s->piece == 1 && !has_moves(g, s, s->player, 1);
        s->passes++;
        end_turn(s, unable);
        return 0;
    }
    int count = place(&s->board, s->player, move / BS_MAX_N, move % BS_MAX_N, legal_of(g, s), flip_of(g, s));
    if (count < 0)
        return count;
    s->passes = 0;
    if (s->piece == 1 && g->second_after > 0 && count >= g->second_after)
        s->piece = 2;
    else
        end_turn(s, false);
    return count;
}

int bs_state_play(const bs_game *g, bs_state *s, int move)
{
    if (state_check(g, s) != BS_OK)
        return BS_EINVAL;
    if (move == BS_PASS) {
        if (!bs_state_can_pass(g, s))
            return BS_EILLEGAL;
        return apply(g, s, move);
    }
    int r = move / BS_MAX_N, c = move % BS_MAX_N;
    if (move < 0 || r >= s->board.n || c >= s->board.n)
        return BS_EINVAL;
    bs_state next = *s;
    int count = apply(g, &next, move);
    if (count < 0)
        return BS_EILLEGAL;
    *s = next;
    return count;
}

static int disc_margin(const bs_game *g, const bs_board *b, int player)
{
    int mine = bs_board_count(b, player), theirs = bs_board_count(b, bs_opponent(player));
    int diff = g->misere ? theirs - mine : mine - theirs;
    if (g->empties_to_winner) {
        int empty = bs_board_count(b, BS_EMPTY);
        diff += diff > 0 ? empty : diff < 0 ? -empty : 0;
    }
    return diff;
}

int bs_state_final_value(const bs_game *g, const bs_state *s)
{
    return disc_margin(g, &s->board, s->player);
}

static int terminal_score(int margin)
{
    return margin > 0 ? BS_WIN + 100 * margin : margin < 0 ? -BS_WIN + 100 * margin : 0;
}

/* ---- the evaluation ---- */

bs_eval_weights bs_eval_default_weights(void)
{
    bs_eval_weights w = {.discs = 10, .mobility = 60, .potential = 20, .corners = 400,
                         .corner_adj = -150, .stable = 100, .parity = 50};
    return w;
}

/* Cells that can never be flipped, and the cells next to them, for one board
 * shape (size and blocks): cached by the searcher. */
typedef struct shape {
    int n;
    uint32_t blocks[BS_MAX_N];
    uint32_t anchored[BS_MAX_N]; /* on every axis, a wall (edge or block) on one side at least */
    uint32_t near[BS_MAX_N];     /* the non-block cells next to an anchored cell */
} shape;

static bool wall(const bs_board *b, int r, int c)
{
    return r < 0 || c < 0 || r >= b->n || c >= b->n || (b->plane[2][r] >> c & 1u);
}

static void shape_compute(shape *sh, const bs_board *b)
{
    static const int AXIS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int n = b->n;
    memset(sh, 0, sizeof *sh);
    sh->n = n;
    memcpy(sh->blocks, b->plane[2], sizeof sh->blocks);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            if (wall(b, r, c))
                continue;
            bool anchored = true;
            for (int a = 0; a < 4 && anchored; a++)
                anchored = wall(b, r + AXIS[a][0], c + AXIS[a][1]) || wall(b, r - AXIS[a][0], c - AXIS[a][1]);
            if (anchored)
                sh->anchored[r] |= 1u << c;
        }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (sh->anchored[r] >> c & 1u)
                for (int dr = -1; dr <= 1; dr++)
                    for (int dc = -1; dc <= 1; dc++)
                        if ((dr || dc) && !wall(b, r + dr, c + dc) && !(sh->anchored[r + dr] >> (c + dc) & 1u))
                            sh->near[r + dr] |= 1u << (c + dc);
}

static int popcount_rows(const uint32_t *rows, int n)
{
    int total = 0;
    for (int r = 0; r < n; r++)
        total += __builtin_popcount(rows[r]);
    return total;
}

/* The 8-neighbourhood of a set of cells (the cells themselves excluded unless
 * they neighbour another). */
static void dilate(const uint32_t *in, uint32_t *out, int n)
{
    uint32_t full = bs_row_mask(n);
    memset(out, 0, sizeof(uint32_t) * (size_t)n);
    for (int r = 0; r < n; r++) {
        uint32_t x = in[r], side = ((x << 1) | (x >> 1)) & full;
        out[r] |= side;
        if (r > 0)
            out[r - 1] |= (x | side) & full;
        if (r + 1 < n)
            out[r + 1] |= (x | side) & full;
    }
}

/* Discs of `mine` that can no longer be flipped: on each of the four axes a
 * wall or a stable disc of the same colour on one side (a fixpoint, from none). */
static int stable_discs(const uint32_t *mine, const uint32_t *blocks, int n)
{
    uint32_t stable[BS_MAX_N] = {0}, solid[BS_MAX_N];
    uint32_t full = bs_row_mask(n), first = 1u, last = 1u << (n - 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (int r = 0; r < n; r++)
            solid[r] = stable[r] | blocks[r];
        for (int r = 0; r < n; r++) {
            uint32_t up = r == 0 ? full : solid[r - 1], down = r == n - 1 ? full : solid[r + 1];
            uint32_t horizontal = (solid[r] >> 1) | last | (solid[r] << 1) | first;
            uint32_t vertical = up | down;
            uint32_t diagonal = (r == 0 ? full : ((solid[r - 1] << 1) | first)) |
                                (r == n - 1 ? full : ((solid[r + 1] >> 1) | last));
            uint32_t anti = (r == 0 ? full : ((solid[r - 1] >> 1) | last)) |
                            (r == n - 1 ? full : ((solid[r + 1] << 1) | first));
            uint32_t now = mine[r] & horizontal & vertical & diagonal & anti & full;
            if (now & ~stable[r]) {
                stable[r] |= now;
                changed = true;
            }
        }
    }
    return popcount_rows(stable, n);
}

static int evaluate_with(const bs_game *g, const bs_state *s, const bs_eval_weights *w, const shape *sh)
{
    const bs_board *b = &s->board;
    int n = b->n, me = s->player, op = bs_opponent(me);
    const uint32_t *mine = b->plane[me - 1], *theirs = b->plane[op - 1];
    uint32_t empty[BS_MAX_N];
    for (int r = 0; r < n; r++)
        empty[r] = ~(mine[r] | theirs[r] | b->plane[2][r]) & bs_row_mask(n);
    int sign = g->misere ? -1 : 1, value = 0;
    if (w->discs)
        value += sign * w->discs * (popcount_rows(mine, n) - popcount_rows(theirs, n));
    if (w->mobility && g->legal_dirs) {
        bs_set m1, m2;
        bs_capture_moves(b, me, g->legal_dirs, &m1);
        bs_capture_moves(b, op, g->legal_dirs, &m2);
        value += w->mobility * (bs_set_count(&m1) - bs_set_count(&m2));
    }
    if (w->potential) {
        uint32_t near_theirs[BS_MAX_N], near_mine[BS_MAX_N];
        dilate(theirs, near_theirs, n);
        dilate(mine, near_mine, n);
        int own = 0, other = 0;
        for (int r = 0; r < n; r++) {
            own += __builtin_popcount(near_theirs[r] & empty[r]);
            other += __builtin_popcount(near_mine[r] & empty[r]);
        }
        value += w->potential * (own - other);
    }
    if (w->corners || w->corner_adj) {
        int corners = 0, adj = 0;
        uint32_t open_near[BS_MAX_N];
        uint32_t open_anchored[BS_MAX_N];
        for (int r = 0; r < n; r++)
            open_anchored[r] = sh->anchored[r] & empty[r];
        dilate(open_anchored, open_near, n);
        for (int r = 0; r < n; r++) {
            corners += __builtin_popcount(sh->anchored[r] & mine[r]) - __builtin_popcount(sh->anchored[r] & theirs[r]);
            uint32_t risky = open_near[r] & sh->near[r];
            adj += __builtin_popcount(risky & mine[r]) - __builtin_popcount(risky & theirs[r]);
        }
        value += sign * (w->corners * corners + w->corner_adj * adj);
    }
    if (w->stable)
        value += sign * w->stable * (stable_discs(mine, b->plane[2], n) - stable_discs(theirs, b->plane[2], n));
    if (w->parity && (popcount_rows(empty, n) & 1))
        value += w->parity;
    if (value >= BS_WIN)
        value = BS_WIN - 1;
    if (value <= -BS_WIN)
        value = -BS_WIN + 1;
    return value;
}

int bs_evaluate(const bs_game *g, const bs_state *s, const bs_eval_weights *w)
{
    if (state_check(g, s) != BS_OK || !w)
        return 0;
    shape sh;
    shape_compute(&sh, &s->board);
    return evaluate_with(g, s, w, &sh);
}

/* ---- the searcher ---- */

typedef struct tt_entry {
    uint64_t key;
    int32_t value;
    int16_t move;
    int8_t depth;
    uint8_t flag; /* 1 lower bound, 2 upper bound, 3 exact */
} tt_entry;

enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3 };

struct bs_searcher {
    bs_search_config cfg;
    tt_entry *tt;
    size_t tt_mask;
    shape sh;
    int killers[MAX_PLY][2];
    int history[2][BS_MAX_N * BS_MAX_N];
    /* the search in progress */
    const bs_game *g;
    uint64_t nodes, node_limit;
    int stop, allow_stop, exact;
};

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
    s->tt = calloc(entries, sizeof(tt_entry));
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
    free(s->tt);
    free(s);
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

static bool poll_stop(bs_searcher *sr)
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

static tt_entry *tt_slot(bs_searcher *sr, uint64_t key)
{
    return &sr->tt[key & sr->tt_mask];
}

static void tt_store(bs_searcher *sr, uint64_t key, int depth, int value, int alpha, int beta, int move)
{
    tt_entry *e = tt_slot(sr, key);
    if (e->key == key && e->depth > depth)
        return;
    e->key = key;
    e->value = value;
    e->move = (int16_t)move;
    e->depth = (int8_t)depth;
    e->flag = value <= alpha ? TT_UPPER : value >= beta ? TT_LOWER : TT_EXACT;
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
    return evaluate_with(sr->g, s, &sr->cfg.weights, &sr->sh);
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
    for (int i = 0; i < count; i++) {
        int m = list[i];
        score[i] = m == first ? 1 << 30
                   : (ply < MAX_PLY && (m == sr->killers[ply][0] || m == sr->killers[ply][1])) ? 1 << 29
                   : m == BS_PASS ? -1
                                  : hist[m];
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
    if (bs_state_finished(sr->g, s))
        return terminal_score(bs_state_final_value(sr->g, s));
    if (!sr->exact && depth <= 0)
        return evaluate_node(sr, s);
    int alpha0 = alpha;
    uint64_t key = state_key(sr->g, s, sr->exact ? 0x9e3779b97f4a7c15ULL : 0);
    tt_entry *e = tt_slot(sr, key);
    int tt_move = -2;
    int need = sr->exact ? EXACT_DEPTH : depth;
    if (e->key == key) {
        tt_move = e->move;
        if (e->depth >= need && best_out == NULL) {
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && e->value >= beta) ||
                (e->flag == TT_UPPER && e->value <= alpha))
                return e->value;
        }
    }
    int list[MAX_MOVES];
    int count = children(sr, s, list);
    order(sr, s, list, count, tt_move, ply);
    int best = -INF, best_move = list[0];
    for (int i = 0; i < count; i++) {
        bs_state child = *s;
        if (apply(sr->g, &child, list[i]) < 0)
            continue;
        bool same = child.player == s->player;
        int v;
        if (i == 0) {
            v = same ? negamax(sr, &child, depth - 1, alpha, beta, ply + 1, NULL)
                     : -negamax(sr, &child, depth - 1, -beta, -alpha, ply + 1, NULL);
        } else {
            v = same ? negamax(sr, &child, depth - 1, alpha, alpha + 1, ply + 1, NULL)
                     : -negamax(sr, &child, depth - 1, -alpha - 1, -alpha, ply + 1, NULL);
            if (v > alpha && v < beta && !sr->stop)
                v = same ? negamax(sr, &child, depth - 1, alpha, beta, ply + 1, NULL)
                         : -negamax(sr, &child, depth - 1, -beta, -alpha, ply + 1, NULL);
        }
        if (sr->stop)
            return best > -INF ? best : 0;
        if (v > best) {
            best = v;
            best_move = list[i];
            if (best_out)
                *best_out = best_move;
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta) {
            if (list[i] != BS_PASS) {
                if (ply < MAX_PLY && sr->killers[ply][0] != list[i]) {
                    sr->killers[ply][1] = sr->killers[ply][0];
                    sr->killers[ply][0] = list[i];
                }
                int *h = &sr->history[s->player - 1][list[i]];
                *h += sr->exact ? 4 : depth * depth;
                if (*h > (1 << 28))
                    for (int k = 0; k < BS_MAX_N * BS_MAX_N; k++)
                        sr->history[s->player - 1][k] /= 2;
            }
            break;
        }
    }
    if (best == -INF) /* no child could be played: score the position as it is */
        return terminal_score(bs_state_final_value(sr->g, s));
    tt_store(sr, key, need, best, alpha0, beta, best_move);
    return best;
}

/* ---- the 8 x 8 exact solver (standard rules, blocks allowed) ---- */

typedef struct solve64 {
    bs_searcher *sr;
    uint64_t blocks;
    int misere, to_winner;
    int most; /* the cells that can hold a disc: no margin exceeds it */
} solve64;

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

static bool fast_solvable(const bs_game *g, const bs_state *s)
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

/* The exact solver's table is two-way: a key may sit in either entry of the
 * pair its low bits name (32 aligned bytes). The first keeps the position
 * with the most empties (the costliest to redo), the second takes every
 * other store, so a long search keeps its big subtrees while the small ones
 * churn through the second entry. */
static tt_entry *pair64(bs_searcher *sr, uint64_t key)
{
    return &sr->tt[key & sr->tt_mask & ~(size_t)1];
}

static tt_entry *probe64(bs_searcher *sr, uint64_t key)
{
    tt_entry *e = pair64(sr, key);
    return e[0].key == key ? &e[0] : e[1].key == key ? &e[1] : NULL;
}

static void store64(bs_searcher *sr, uint64_t key, int empties, int value, int alpha0, int beta, int move)
{
    tt_entry *pair = pair64(sr, key), *e;
    if (pair[0].key == key || empties >= pair[0].depth) {
        e = &pair[0];
        if (pair[0].key != key && pair[0].key != 0)
            pair[1] = pair[0]; /* the deep entry it displaces stays one store longer */
    } else {
        e = &pair[1];
    }
    e->key = key;
    e->value = value;
    e->move = (int16_t)move;
    e->depth = (int8_t)empties;
    e->flag = value <= alpha0 ? TT_UPPER : value >= beta ? TT_LOWER : TT_EXACT;
}

/* Enhanced transposition cutoffs cost a table probe per child: worth it
 * only where subtrees are big. */
#define ETC_MIN_EMPTIES 12

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
    if (!c->misere && !best_sq && alpha >= c->most - 2 * __builtin_popcountll(O)) {
        int most = c->most - 2 * stable64(P, O, c->blocks);
        if (most <= alpha)
            return most;
    }
    bs_searcher *sr = c->sr;
    uint64_t key = key64(P, O);
    tt_entry *e = probe64(sr, key);
    int tt_move = -1, alpha0 = alpha;
    if (e) {
        tt_move = e->move;
        if (!best_sq) {
            int lo = e->flag & TT_LOWER ? e->value : -INF, hi = e->flag & TT_UPPER ? e->value : INF;
            if (e->flag == TT_EXACT)
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
    for (uint64_t set = moves; set; set &= set - 1) {
        int sq = __builtin_ctzll(set);
        uint64_t f = bs_flips64(P, O, sq);
        uint64_t nP = P | f | (1ULL << sq), nO = O & ~f;
        uint64_t reply_set = bs_moves64(nO, nP, ~(nP | nO | c->blocks));
        /* enhanced transposition cutoff: a child already known to be bad
         * enough for the opponent refutes this node at once */
        if (empties >= ETC_MIN_EMPTIES && !best_sq) {
            tt_entry *ce = probe64(sr, key64(nO, nP));
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
    int best = -INF, best_move = sq_list[0];
    for (int i = 0; i < count; i++) {
        int sq = sq_list[i];
        uint64_t f = flip_list[i];
        uint64_t nP = P | f | (1ULL << sq), nO = O & ~f;
        int v;
        if (i == 0) {
            v = -solve_deep(c, nO, nP, -beta, -alpha, false, NULL);
        } else {
            v = -solve_deep(c, nO, nP, -alpha - 1, -alpha, false, NULL);
            if (v > alpha && v < beta && !sr->stop)
                v = -solve_deep(c, nO, nP, -beta, -alpha, false, NULL);
        }
        if (sr->stop)
            return best > -INF ? best : 0;
        if (v > best) {
            best = v;
            best_move = sq;
            if (best_sq)
                *best_sq = sq;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    store64(sr, key, empties, best, alpha0, beta, best_move);
    return best;
}

/* The exact margin of an 8 x 8 standard state; *best gets the best square
 * index (r * BS_MAX_N + c), or BS_PASS when the side to move must pass. */
static int solve64_root(bs_searcher *sr, const bs_state *s, int guess, int *best)
{
    solve64 c = {sr, bs_pack64(s->board.plane[2]), sr->g->misere, sr->g->empties_to_winner, 0};
    c.most = 64 - __builtin_popcountll(c.blocks);
    uint64_t P = bs_pack64(s->board.plane[s->player - 1]);
    uint64_t O = bs_pack64(s->board.plane[bs_opponent(s->player) - 1]);
    /* MTD(f): null-window tests from a guess of 0 close in on the value; the
     * table keeps each test's bounds for the next. The move comes from the
     * last test that failed high (it achieves the value), else from one last
     * narrow search. */
    int most = 64 - __builtin_popcountll(c.blocks); /* no margin can exceed the cells */
    int lower = -most, upper = most, sq = -1, proven = -1;
    guess = guess > most ? most : guess < -most ? -most : guess;
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
    if (proven < 0 && !sr->stop)
        solve_deep(&c, P, O, margin - 1 < -most ? -most - 1 : margin - 1, margin + 1, false, &proven);
    sq = proven;
    *best = sq < 0 ? BS_PASS : (sq >> 3) * BS_MAX_N + (sq & 7);
    return margin;
}

/* ---- iterative deepening and exact solving ---- */

static void begin(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim)
{
    sr->g = g;
    sr->nodes = 0;
    sr->node_limit = lim ? lim->nodes : 0;
    sr->stop = 0;
    if (sr->sh.n != s->board.n || memcmp(sr->sh.blocks, s->board.plane[2], sizeof sr->sh.blocks) != 0)
        shape_compute(&sr->sh, &s->board);
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
    if (!sr || !res || state_check(g, s) != BS_OK)
        return BS_EINVAL;
    memset(res, 0, sizeof *res);
    return bs_state_finished(g, s) ? BS_ESTATE : BS_OK;
}

int bs_solve(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
             bs_search_result *res)
{
    int status = entry_check(sr, g, s, res);
    if (status != BS_OK)
        return status;
    begin(sr, g, s, lim);
    sr->exact = fast_solvable(g, s) ? 0 : 1;
    sr->allow_stop = 1;
    int best = BS_PASS, margin;
    if (fast_solvable(g, s)) {
        /* a shallow search's estimate is the first guess of the null-window tests */
        int guess = 0;
        if (bs_board_count(&s->board, BS_EMPTY) > 12) {
            int ignored = -2;
            int estimate = negamax(sr, s, 4, -INF, INF, 0, &ignored);
            guess = estimate >= BS_WIN || estimate <= -BS_WIN ? margin_of(estimate) : estimate / 100;
            guess = guess > 64 ? 64 : guess < -64 ? -64 : guess;
        }
        sr->exact = 1;
        margin = solve64_root(sr, s, guess, &best);
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
    return BS_OK;
}

int bs_search(bs_searcher *sr, const bs_game *g, const bs_state *s, const bs_search_limits *lim,
              bs_search_result *res)
{
    int status = entry_check(sr, g, s, res);
    if (status != BS_OK)
        return status;
    int empties = bs_board_count(&s->board, BS_EMPTY);
    /* Exact solving: up to `endgame` empties on the 8 x 8 word path; the
     * generic path is slower, and a game where a pass is always a choice has
     * a tree far too large for it, so those solve from fewer or never. */
    int solve_from = lim ? lim->endgame : 0;
    if (!fast_solvable(g, s))
        solve_from = g->pass_rule == BS_PASS_ANYTIME ? 0 : (solve_from < 10 ? solve_from : 10);
    if (solve_from > 0 && empties <= solve_from) {
        bs_search_result exact;
        bs_solve(sr, g, s, lim, &exact);
        if (exact.exact) {
            *res = exact;
            res->value = exact.value * 100;
            return BS_OK;
        }
        /* out of time: fall through to a shallow search */
    }
    begin(sr, g, s, lim);
    int max_depth = lim && lim->depth > 0 ? lim->depth : 60;
    if (max_depth > 60)
        max_depth = 60;
    int list[MAX_MOVES];
    children(sr, s, list);
    int best_move = list[0], best_value = 0, done = 0;
    uint64_t nodes = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        sr->allow_stop = depth > 1;
        int move = -2;
        int value = negamax(sr, s, depth, -INF, INF, 0, &move);
        if (sr->stop) {
            /* a move found better than the previous iteration's in this one is kept */
            if (move != -2 && value > best_value && move != best_move && done > 0)
                best_move = move;
            break;
        }
        best_move = move == -2 ? best_move : move;
        best_value = value;
        done = depth;
        if (value >= BS_WIN || value <= -BS_WIN) {
            /* a finished game is certain along the whole tree only if deep enough */
            if (depth >= empties * 2 + 2)
                break;
        }
    }
    nodes = sr->nodes;
    res->move = best_move;
    /* a finished game found along the line: its margin, in the same hundredths */
    res->value = best_value >= BS_WIN || best_value <= -BS_WIN ? margin_of(best_value) * 100 : best_value;
    res->depth = done;
    res->exact = 0;
    res->stopped = sr->stop;
    res->nodes = nodes;
    return BS_OK;
}
