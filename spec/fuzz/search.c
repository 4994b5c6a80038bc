/* search.c - libFuzzer target: bs_search and bs_solve with small node limits
 * on fuzzed games (direction masks, second pieces, pass and end rules) and
 * positions, valid or not. The move returned must be one the rules allow; an
 * exact solver value must equal a plain negamax over the bs_state rules on
 * small endgames and must not change when the position and the game's masks
 * are transposed. Malformed games and states must give BS_EINVAL. */
#include <string.h>

#include "fuzz_input.h"
#include "search.h"

enum { NAIVE_NODES = 20000 };

/* Exact value for the side to move by plain negamax; *budget < 0 means the
 * answer is unknown (too many nodes, or a state with no way on). */
static int naive(const bs_game *g, const bs_state *s, int *budget)
{
    if (--*budget < 0)
        return 0;
    if (bs_state_finished(g, s))
        return bs_state_final_value(g, s);
    bs_set moves;
    FZ_CHECK(bs_state_moves(g, s, &moves) == BS_OK);
    int best = -1000000, any = 0;
    int idx = -1;
    while (bs_set_next(&moves, &idx)) {
        bs_state child = *s; /* idx is r * BS_MAX_N + c, a move */
        FZ_CHECK(bs_state_play(g, &child, idx) >= 0);
        int v = naive(g, &child, budget);
        v = child.player == s->player ? v : -v;
        best = v > best ? v : best;
        any = 1;
    }
    if (bs_state_can_pass(g, s)) {
        bs_state child = *s;
        FZ_CHECK(bs_state_play(g, &child, BS_PASS) >= 0);
        int v = naive(g, &child, budget);
        v = child.player == s->player ? v : -v;
        best = v > best ? v : best;
        any = 1;
    }
    if (!any)
        *budget = -1;
    return best;
}

static void check_move(const bs_game *g, const bs_state *s, int move)
{
    bs_state after = *s;
    if (move == BS_PASS) {
        bs_set moves;
        FZ_CHECK(bs_state_moves(g, s, &moves) == BS_OK);
        FZ_CHECK(bs_state_can_pass(g, s) || bs_set_empty(&moves));
        return;
    }
    int r = move / BS_MAX_N, c = move % BS_MAX_N;
    FZ_CHECK(move >= 0 && r < s->board.n && c < s->board.n);
    bs_set moves;
    FZ_CHECK(bs_state_moves(g, s, &moves) == BS_OK && bs_set_has(&moves, r, c));
    FZ_CHECK(bs_state_play(g, &after, move) >= 0); /* the number flipped */
}

static bs_game transpose_game(const bs_game *g)
{
    bs_game t = *g;
    t.legal_dirs = fz_transpose_dirs(g->legal_dirs);
    t.flip_dirs = fz_transpose_dirs(g->flip_dirs);
    t.legal2_dirs = fz_transpose_dirs(g->legal2_dirs);
    t.flip2_dirs = fz_transpose_dirs(g->flip2_dirs);
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size, 0};
    unsigned mode = fz_u8(&in);
    bs_game g = bs_game_reversi();
    if (mode & 1u) {
        g.legal_dirs = fz_dirs(&in);
        g.flip_dirs = fz_dirs(&in);
        if (mode & 2u) {
            g.legal2_dirs = fz_dirs(&in);
            g.flip2_dirs = fz_dirs(&in);
            g.second_after = fz_arg(&in, 0, 4);
        }
        g.pass_rule = fz_arg(&in, 0, 1);
        g.end_rule = fz_arg(&in, 0, 3);
        g.turn_limit = fz_arg(&in, 0, 40);
        g.misere = (int)(fz_u8(&in) & 1u);
        g.empties_to_winner = (int)(fz_u8(&in) & 1u);
    }
    bs_state s;
    memset(&s, 0, sizeof s);
    fz_board(&in, &s.board, (mode & 4u) ? 8 : 7, 1);
    s.player = 1 + (int)(fz_u8(&in) & 1u);
    s.piece = 1;
    if (mode & 8u) { /* the rest of the state, possibly out of range */
        s.player = fz_arg(&in, 1, 2);
        s.passes = fz_arg(&in, 0, 2);
        s.piece = fz_arg(&in, 1, 2);
        s.turns = fz_arg(&in, 0, 30);
        s.unable = fz_arg(&in, 0, 2);
    }
    int game_ok = bs_game_check(&g) == BS_OK;
    int state_ok = game_ok && bs_is_player(s.player) && s.passes >= 0 && s.turns >= 0 && s.unable >= 0 &&
                   s.piece >= 1 && s.piece <= 2 && !(s.piece == 2 && g.second_after == 0);
    if (getenv("FZ_VERBOSE")) /* what a reproducer runs: scripts/fuzz prints it with --verbose */
        fprintf(stderr,
                "game: legal %u flip %u legal2 %u flip2 %u second_after %d pass %d end %d turn_limit %d misere %d "
                "empties_to_winner %d; state: n %d player %d passes %d piece %d turns %d unable %d\n",
                g.legal_dirs, g.flip_dirs, g.legal2_dirs, g.flip2_dirs, g.second_after, g.pass_rule, g.end_rule,
                g.turn_limit, g.misere, g.empties_to_winner, s.board.n, s.player, s.passes, s.piece, s.turns,
                s.unable);
    bs_search_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tt_bytes = (size_t)1 << 16;
    cfg.weights = bs_eval_default_weights();
    bs_searcher *sr = NULL;
    FZ_CHECK(bs_searcher_new(&sr, &cfg) == BS_OK && sr);
    bs_search_limits lim = {.depth = fz_arg(&in, 1, 4), .endgame = fz_arg(&in, 0, 10),
                            .nodes = (uint64_t)(1 + fz_range(&in, 0, 3000)), .midgame_first = fz_arg(&in, 0, 1),
                            .mpc = fz_arg(&in, -1, 300)};
    lim.threads = fz_arg(&in, 0, 3); /* helper threads on the same table */
    bs_search_result res;
    int st = bs_search(sr, &g, &s, &lim, &res);
    if (!state_ok) {
        FZ_CHECK(st == BS_EINVAL);
    } else if (lim.depth < 0) {
        FZ_CHECK(st == BS_EINVAL || st == BS_OK || st == BS_ESTATE);
    } else {
        int finished = bs_state_finished(&g, &s);
        if (finished ? st != BS_ESTATE : st != BS_OK)
            fprintf(stderr, "bs_search gave %d (finished %d, depth %d, endgame %d, nodes %llu)\n", st, finished,
                    lim.depth, lim.endgame, (unsigned long long)lim.nodes);
        FZ_CHECK(finished ? st == BS_ESTATE : st == BS_OK);
        if (st == BS_OK) {
            check_move(&g, &s, res.move);
        }
    }
    int empties = bs_board_count(&s.board, BS_EMPTY);
    /* where a pass is always allowed and only "no moves" ends the game the
     * tree is infinite: the solver gives up at its ply limit (not exact) */
    if (state_ok && empties <= 8 && !bs_state_finished(&g, &s)) {
        bs_search_limits solve_lim = {.nodes = 200000};
        bs_search_result a, b;
        FZ_CHECK(bs_solve(sr, &g, &s, &solve_lim, &a) == BS_OK);
        check_move(&g, &s, a.move);
        bs_state t = s;
        fz_transpose(&s.board, &t.board);
        bs_game tg = transpose_game(&g);
        bs_searcher_clear(sr);
        FZ_CHECK(bs_solve(sr, &tg, &t, &solve_lim, &b) == BS_OK);
        if (a.exact && b.exact)
            FZ_CHECK(a.value == b.value);
        int budget = NAIVE_NODES;
        if (a.exact && empties <= 6 && g.pass_rule == BS_PASS_WHEN_STUCK) {
            int v = naive(&g, &s, &budget);
            if (budget >= 0) {
                if (v != a.value)
                    fprintf(stderr, "solver %d, negamax %d\n", a.value, v);
                FZ_CHECK(v == a.value);
            }
        }
    }
    bs_searcher_free(sr);
    return 0;
}
