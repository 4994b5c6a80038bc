/* dgame_search.c - alpha-beta over described games: iterative deepening PVS, a transposition table, move ordering, quiescence. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dgame_search_impl.h"

void dg_searcher_set_stop(dg_searcher *sr, int (*should_stop)(void *userdata), void *userdata)
{
    sr->cfg.should_stop = should_stop;
    sr->cfg.stop_userdata = userdata;
}

void dg_searcher_clear(dg_searcher *sr)
{
    memset(sr->tt, 0, (sr->tt_mask + 1) * sizeof(tt_entry));
}

int dg_searcher_new(dg_searcher **out, const dg_search_config *cfg)
{
    if (!out)
        return BS_EINVAL;
    *out = NULL;
    dg_searcher *sr = calloc(1, sizeof *sr);
    if (!sr)
        return BS_ENOMEM;
    if (cfg)
        sr->cfg = *cfg;
    size_t bytes = sr->cfg.tt_bytes ? sr->cfg.tt_bytes : (size_t)16 << 20;
    size_t entries = 1;
    while (entries * 2 * sizeof(tt_entry) <= bytes)
        entries *= 2;
    sr->tt = bs_table_alloc(entries * sizeof(tt_entry), 0); /* kept between moves: huge pages pay */
    sr->move_cap = (size_t)DG_MOVES_MAX * 4;
    sr->moves = malloc(sr->move_cap * sizeof *sr->moves);
    sr->scores = malloc(sr->move_cap * sizeof *sr->scores);
    if (!sr->tt || !sr->moves || !sr->scores) {
        dg_searcher_free(sr);
        return BS_ENOMEM;
    }
    sr->tt_mask = entries - 1;
    *out = sr;
    return BS_OK;
}

void dg_searcher_free(dg_searcher *sr)
{
    if (!sr)
        return;
    dgs_free_tables(sr);
    free(sr->tt);
    free(sr->moves);
    free(sr->scores);
    free(sr);
}

static int terminal_value(dg_searcher *sr, int status, int ply)
{
    if (status == DG_DRAW)
        return 0;
    int score[2];
    dg_score(sr->d, sr->s, score);
    int margin = abs(score[0] - score[1]);
    margin = margin < 1 ? 1 : margin > 1000 ? 1000 : margin;
    int v = DG_SEARCH_WIN + 256 * margin - ply;
    return status == dg_player(sr->s) ? v : -v;
}

/* ---- the transposition table ---- */

static uint64_t state_key(const dg_state *s)
{
    return dg_hash(s) ^ bs_mix64((uint64_t)dg_ply(s) + 0x9e3779b97f4a7c15ULL);
}

/* Results are stored as plies from the node, not from the root. */
static int to_tt(int v, int ply)
{
    return v > RESULT_BOUND ? v + ply : v < -RESULT_BOUND ? v - ply : v;
}

static int from_tt(int v, int ply)
{
    return v > RESULT_BOUND ? v - ply : v < -RESULT_BOUND ? v + ply : v;
}

static void tt_store(dg_searcher *sr, uint64_t key, int depth, int value, int alpha, int beta, dg_move move,
                     int complete)
{
    tt_entry *e = &sr->tt[key & sr->tt_mask];
    if (e->key == key && e->depth > depth)
        return;
    e->key = key;
    e->move = move;
    e->value = value;
    e->depth = (int8_t)depth;
    e->flag = value <= alpha ? TT_UPPER : value >= beta ? TT_LOWER : TT_EXACT;
    e->complete = (uint8_t)complete;
}

/* ---- ordering ---- */

static int history_index(dg_move m)
{
    return (int)((m * 0x9e3779b97f4a7c15ULL) >> 52);
}

/* Captures first (the worth of what is taken), then killers, then history. */
static int move_score(dg_searcher *sr, dg_move m, dg_move tt_move, int ply, int side)
{
    if (m == tt_move)
        return 1 << 30;
    if (m == DG_SEARCH_PASS)
        return -1;
    int hops = (int)(m >> 25 & 15), origin = (int)(m & 1023), target = (int)(m >> 10 & 1023);
    int rule = (int)(m >> 20 & 31);
    if (hops)
        return (1 << 28) + hops * 1024;
    if (origin != NO_CELL && rule != SWAP_RULE && target < sr->cells) {
        unsigned code = sr->s->cell[target];
        if (sr->side_of[code] == 3 - side)
            return (1 << 28) + sr->values[dg_kind_of(code) & 7] * 16;
    }
    if (ply < MAX_PLY && (m == sr->killers[ply][0] || m == sr->killers[ply][1]))
        return 1 << 27;
    return sr->history[side - 1][history_index(m)];
}

static void note_cutoff(dg_searcher *sr, dg_move m, int ply, int depth, int side)
{
    if (m == DG_SEARCH_PASS)
        return;
    if (ply < MAX_PLY && sr->killers[ply][0] != m) {
        sr->killers[ply][1] = sr->killers[ply][0];
        sr->killers[ply][0] = m;
    }
    int *h = &sr->history[side - 1][history_index(m)];
    *h += depth * depth;
    if (*h > (1 << 26))
        for (int i = 0; i < HISTORY_SIZE; i++)
            sr->history[side - 1][i] /= 2;
}

/* ---- the search ---- */

static int stop_now(dg_searcher *sr)
{
    if (sr->stop)
        return 1;
    if (sr->node_limit && sr->nodes >= sr->node_limit) {
        sr->stop = 1;
        return 1;
    }
    sr->nodes++;
    if ((sr->nodes & STOP_POLL) == 0 && sr->allow_stop && sr->cfg.should_stop &&
        sr->cfg.should_stop(sr->cfg.stop_userdata))
        sr->stop = 1;
    return sr->stop;
}

/* Room for one more list of moves on the stack. */
static int reserve_moves(dg_searcher *sr)
{
    if (sr->move_used + DG_MOVES_MAX <= sr->move_cap)
        return BS_OK;
    size_t cap = sr->move_cap * 2;
    dg_move *moves = realloc(sr->moves, cap * sizeof *moves);
    if (!moves)
        return BS_ENOMEM;
    sr->moves = moves;
    int *scores = realloc(sr->scores, cap * sizeof *scores);
    if (!scores)
        return BS_ENOMEM;
    sr->scores = scores;
    sr->move_cap = cap;
    return BS_OK;
}

static int negamax(dg_searcher *sr, int depth, int alpha, int beta, int ply);
static int quiesce(dg_searcher *sr, int alpha, int beta, int ply, int left);

/* The value of the child just played, for the side that played it. */
static int child_value(dg_searcher *sr, int mover, int depth, int alpha, int beta, int ply)
{
    if (dg_player(sr->s) == mover)
        return negamax(sr, depth - 1, alpha, beta, ply + 1);
    return -negamax(sr, depth - 1, -beta, -alpha, ply + 1);
}

static int play(dg_searcher *sr, dg_move m)
{
    int st = m == DG_SEARCH_PASS ? dg_pass(sr->d, sr->s) : dg_play(sr->d, sr->s, m);
    if (st != BS_OK) {
        sr->failed = st;
        sr->stop = 1;
    }
    return st;
}

/* At the horizon, captures only (a hop, or a piece taken by replacement),
 * `left` plies more: the side to move may stand on the evaluation, except
 * where capturing is a must and it has a capture. Sorted by what is taken. */
static int quiesce(dg_searcher *sr, int alpha, int beta, int ply, int left)
{
    if (stop_now(sr))
        return 0;
    int status = dg_status(sr->d, sr->s);
    if (status != DG_ONGOING)
        return terminal_value(sr, status, ply);
    int stand = dgs_evaluate(sr);
    if (left <= 0 || ply >= MAX_PLY)
        return stand;
    if (reserve_moves(sr) != BS_OK) {
        sr->failed = BS_ENOMEM;
        sr->stop = 1;
        return 0;
    }
    size_t base = sr->move_used;
    int count = dg_moves(sr->d, sr->s, sr->moves + base, DG_MOVES_MAX);
    if (count < 0) {
        sr->failed = count;
        sr->stop = 1;
        return 0;
    }
    int side = sr->s->player, captures = 0;
    for (int i = 0; i < count; i++) {
        dg_move m = sr->moves[base + (size_t)i];
        int score = move_score(sr, m, DG_SEARCH_PASS - 1, MAX_PLY, side);
        if (score >= 1 << 28) {
            sr->moves[base + (size_t)captures] = m;
            sr->scores[base + (size_t)captures] = score;
            captures++;
        }
    }
    int forced = captures > 0 && sr->d->spec.must_capture;
    int best = forced ? -INF : stand;
    if (best >= beta || captures == 0)
        return best;
    if (best > alpha)
        alpha = best;
    sr->move_used = base + (size_t)captures;
    for (int i = 0; i < captures; i++) {
        size_t at = base + (size_t)i, pick = at;
        for (size_t j = at + 1; j < base + (size_t)captures; j++)
            if (sr->scores[j] > sr->scores[pick])
                pick = j;
        dg_move m = sr->moves[pick];
        sr->moves[pick] = sr->moves[at];
        sr->scores[pick] = sr->scores[at];
        if (play(sr, m) != BS_OK)
            break;
        int v = sr->s->player == side ? quiesce(sr, alpha, beta, ply + 1, left - 1)
                                       : -quiesce(sr, -beta, -alpha, ply + 1, left - 1);
        dg_undo(sr->d, sr->s);
        if (sr->stop)
            break;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    sr->move_used = base;
    return best;
}

int dg_decided_by_lines(const dg_desc *d)
{
    if (!d->quick)
        return 0;
    for (int e = 0; e < d->spec.nends; e++) {
        const dg_end_spec *es = &d->spec.ends[e];
        if (es->op == DG_END_LINE ? es->exact : es->result != DG_RESULT_DRAW)
            return 0;
    }
    return 1;
}

int dg_forced(const dg_desc *d, const dg_state *s, dg_move *mv, int *count)
{
    if (s->moved != 3 || s->ply + 2 >= d->quick_plies)
        return 0;
    int me = dg_player(s) - 1;
    uint64_t mine = s->occ[me][0], theirs = s->occ[1 - me][0], threats = 0;
    int n = *count, wins = 0;
    for (int i = 0; i < n; i++) {
        if (mv[i] == DG_SEARCH_PASS)
            return 0;
        uint64_t bit = 1ULL << (mv[i] >> 10 & 63);
        if (dg_quick_line(d, mine | bit))
            mv[wins++] = mv[i]; /* (over a move already passed) */
        else if (!wins && dg_quick_line(d, theirs | bit))
            threats |= bit;
    }
    if (wins) {
        *count = wins;
        return 1;
    }
    if (__builtin_popcountll(threats) >= 2)
        return 2;
    if (!threats)
        return 0;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if ((1ULL << (mv[i] >> 10 & 63)) == threats)
            mv[kept++] = mv[i];
    *count = kept;
    return 1;
}

static int negamax(dg_searcher *sr, int depth, int alpha, int beta, int ply)
{
    if (stop_now(sr))
        return 0;
    int status = dg_status(sr->d, sr->s);
    if (status != DG_ONGOING)
        return terminal_value(sr, status, ply);
    if (depth <= 0 || ply >= MAX_PLY) {
        sr->horizon = 1;
        return sr->qdepth > 0 ? quiesce(sr, alpha, beta, ply, sr->qdepth) : dgs_evaluate(sr);
    }
    uint64_t key = state_key(sr->s);
    tt_entry *e = &sr->tt[key & sr->tt_mask];
    dg_move tt_move = DG_SEARCH_PASS - 1;
    if (e->key == key) {
        tt_move = e->move;
        if (ply > 0 && e->depth >= depth) {
            int v = from_tt(e->value, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && v >= beta) || (e->flag == TT_UPPER && v <= alpha)) {
                if (!e->complete)
                    sr->horizon = 1;
                return v;
            }
        }
    }
    if (ply == 0 && sr->root_best_set)
        tt_move = sr->root_best; /* the last iteration's best move first */
    if (reserve_moves(sr) != BS_OK) {
        sr->failed = BS_ENOMEM;
        sr->stop = 1;
        return 0;
    }
    size_t base = sr->move_used;
    int count = dg_moves(sr->d, sr->s, sr->moves + base, DG_MOVES_MAX);
    if (count < 0) {
        sr->failed = count;
        sr->stop = 1;
        return 0;
    }
    if (count == 0) {
        if (!dg_can_pass(sr->d, sr->s)) { /* nothing can happen: score it as it stands */
            sr->horizon = 1;
            return dgs_evaluate(sr);
        }
        sr->moves[base] = DG_SEARCH_PASS;
        count = 1;
    }
    /* the reply completes a line at one of two cells: the value of that line */
    if (sr->forcing && dg_forced(sr->d, sr->s, sr->moves + base, &count) == 2)
        return -(DG_SEARCH_WIN + 256 - (ply + 2));
    int side = dg_player(sr->s);
    for (int i = 0; i < count; i++)
        sr->scores[base + (size_t)i] = move_score(sr, sr->moves[base + (size_t)i], tt_move, ply, side);
    sr->move_used = base + (size_t)count;
    int outer_horizon = sr->horizon;
    sr->horizon = 0;
    int alpha0 = alpha, best = -INF;
    dg_move best_move = sr->moves[base];
    if (ply == 0)
        sr->root_best_set = 0;
    for (int i = 0; i < count; i++) {
        /* the best remaining move to position i (most nodes cut off early) */
        size_t at = base + (size_t)i, pick = at;
        for (size_t j = at + 1; j < base + (size_t)count; j++)
            if (sr->scores[j] > sr->scores[pick])
                pick = j;
        if (pick != at) {
            dg_move tm = sr->moves[at];
            int ts = sr->scores[at];
            sr->moves[at] = sr->moves[pick];
            sr->scores[at] = sr->scores[pick];
            sr->moves[pick] = tm;
            sr->scores[pick] = ts;
        }
        dg_move m = sr->moves[at];
        if (play(sr, m) != BS_OK)
            break;
        int v;
        if (i == 0) {
            v = child_value(sr, side, depth, alpha, beta, ply);
        } else {
            v = child_value(sr, side, depth, alpha, alpha + 1, ply);
            if (v > alpha && v < beta && !sr->stop)
                v = child_value(sr, side, depth, alpha, beta, ply);
        }
        dg_undo(sr->d, sr->s);
        if (sr->stop)
            break;
        if (v > best) {
            best = v;
            best_move = m;
            if (ply == 0) {
                sr->root_best = m;
                sr->root_best_set = 1;
            }
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) {
                    note_cutoff(sr, m, ply, depth, side);
                    break;
                }
            }
        }
    }
    sr->move_used = base;
    int below = sr->horizon;
    sr->horizon = outer_horizon | below;
    if (sr->stop)
        return best > -INF ? best : 0;
    tt_store(sr, key, depth, to_tt(best, ply), alpha0, beta, best_move, !below);
    return best;
}

/* The first move of `s`, or the pass: what is played when nothing was searched. */
static int first_move(dg_searcher *sr, dg_move *out)
{
    if (reserve_moves(sr) != BS_OK)
        return BS_ENOMEM;
    int count = dg_moves(sr->d, sr->s, sr->moves, DG_MOVES_MAX);
    if (count < 0)
        return count;
    *out = count > 0 ? sr->moves[0] : DG_SEARCH_PASS;
    return BS_OK;
}

/* Whether a move of the game can take a piece (a hop, or a step, slide or
 * leap onto an enemy): else the quiescence search has nothing to search. */
static int can_capture(const dg_desc *d)
{
    for (int r = 0; r < d->spec.nrules; r++) {
        const dg_rule_spec *rule = &d->spec.rules[r];
        if (rule->op == DG_OP_HOP || (rule->op != DG_OP_PLACE && rule->to != DG_TO_EMPTY))
            return 1;
    }
    return 0;
}

int dg_search(dg_searcher *sr, const dg_desc *d, dg_state *s, const dg_eval_game *eg, const dg_search_limits *lim,
              dg_search_result *res)
{
    if (!sr || !d || !s || !eg || !res || eg->rows < 1 || eg->cols < 1 || eg->rows * eg->cols > NO_CELL ||
        eg->line_k < 0 || (eg->learned && !dg_ntuple_fits(eg->learned, d)))
        return BS_EINVAL;
    memset(res, 0, sizeof *res);
    if (dg_status(d, s) != DG_ONGOING)
        return BS_ESTATE;
    sr->d = d;
    sr->s = s;
    sr->nodes = 0;
    sr->node_limit = lim ? lim->nodes : 0;
    sr->stop = sr->failed = sr->horizon = 0;
    sr->move_used = 0;
    sr->root_best_set = 0;
    sr->qdepth = lim && can_capture(d) ? lim->quiescence : 0;
    sr->forcing = dg_decided_by_lines(d) && !(lim && lim->no_forcing);
    int st = dgs_prepare_eval(sr, eg);
    if (st != BS_OK)
        return st;
    memset(sr->killers, 0, sizeof sr->killers);
    memset(sr->history, 0, sizeof sr->history);
    dg_move best_move;
    if ((st = first_move(sr, &best_move)) != BS_OK)
        return st;
    int max_depth = lim && lim->depth > 0 ? lim->depth : MAX_DEPTH;
    if (max_depth > MAX_DEPTH)
        max_depth = MAX_DEPTH;
    int best_value = 0, done = 0, exact = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        sr->allow_stop = depth > 1;
        sr->horizon = 0;
        int value = negamax(sr, depth, -INF, INF, 0);
        if (sr->stop) {
            /* a move that beat the last iteration's best (searched first) in this one is kept */
            if (sr->root_best_set)
                best_move = sr->root_best;
            break;
        }
        int changed = sr->root_best_set && sr->root_best != best_move;
        if (sr->root_best_set)
            best_move = sr->root_best;
        best_value = value;
        done = depth;
        if (!sr->horizon || value > RESULT_BOUND || value < -RESULT_BOUND) {
            exact = 1; /* the whole tree was searched, or a result is forced */
            break;
        }
        if (depth > 1 && depth < max_depth && sr->cfg.iteration_done &&
            sr->cfg.iteration_done(sr->cfg.stop_userdata, depth, value, changed))
            break;
    }
    if (sr->failed)
        return sr->failed == BS_ENOMEM ? BS_ENOMEM : BS_EINVAL;
    res->move = best_move;
    res->value = best_value;
    res->depth = done;
    res->exact = exact;
    res->stopped = sr->stop;
    res->nodes = sr->nodes;
    return BS_OK;
}
