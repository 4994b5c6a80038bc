/* dgame_test.c - the described-game engine from C: compile checks, perft, copies, overflow, playouts. */
#include <stdlib.h>
#include <string.h>

#include "../../src/core/dgame.h"
#include "check.h"

static void dirs(dg_offsets *o, int n, const int (*d)[2])
{
    o->n = n;
    for (int i = 0; i < n; i++) {
        o->d[i][0] = (signed char)d[i][0];
        o->d[i][1] = (signed char)d[i][1];
    }
}

static const int AXES[4][2] = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 } };

/* Connect Four: 6 x 7, k = 4, a full board drawn. */
static void connect4(dg_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->rows = 6;
    sp->cols = 7;
    sp->nkinds = 1;
    sp->first = 1;
    sp->nrules = 1;
    sp->rules[0].op = DG_OP_PLACE;
    sp->rules[0].kind = 1;
    sp->rules[0].at = DG_AT_COLUMN;
    sp->nends = 2;
    sp->ends[0].op = DG_END_LINE;
    sp->ends[0].k = 4;
    dirs(&sp->ends[0].dirs, 4, AXES);
    sp->ends[1].op = DG_END_FULL;
    sp->ends[1].result = DG_RESULT_DRAW;
}

static void compile_checks(check_tally *t)
{
    dg_spec *sp = malloc(sizeof *sp);
    dg_desc *d = NULL;
    char why[200];
    connect4(sp);
    sp->rows = 27;
    CHECK(t, dg_compile(sp, &d, why, sizeof why) == BS_EINVAL && d == NULL);
    CHECK(t, strcmp(why, "field 'rows': 27 out of range 1..26") == 0);
    connect4(sp);
    sp->rules[0].op = 9;
    CHECK(t, dg_compile(sp, &d, why, sizeof why) == BS_EINVAL);
    CHECK(t, strstr(why, "'rules'[1] 'op'") != NULL);
    connect4(sp);
    sp->ends[0].dirs.d[0][0] = 2;
    CHECK(t, dg_compile(sp, &d, why, sizeof why) == BS_EINVAL);
    CHECK(t, strstr(why, "'ends'[1] 'axes'[1]") != NULL);
    free(sp);
}

static void play_checks(check_tally *t)
{
    dg_spec *sp = malloc(sizeof *sp);
    dg_desc *d = NULL;
    char why[200];
    connect4(sp);
    CHECK(t, dg_compile(sp, &d, why, sizeof why) == BS_OK);
    free(sp);
    dg_state *s = dg_state_new(d), *c = dg_state_new(d);
    CHECK(t, dg_perft(d, s, 5) == 16807);
    dg_move moves[DG_MOVES_MAX];
    CHECK(t, dg_moves(d, s, moves, 3) == DG_EOVERFLOW);
    int n = dg_moves(d, s, moves, DG_MOVES_MAX);
    CHECK(t, n == 7 && (moves[3] >> 10 & 1023) == 38 && (moves[3] & 1023) == DG_NONE_CELL);
    uint64_t h0 = dg_hash(s);
    CHECK(t, dg_play(d, s, moves[3]) == BS_OK && dg_cell(s, 38) == 1 && dg_player(s) == 2);
    char text[64];
    CHECK(t, dg_move_text(d, moves[3], text, sizeof text) == 2 && strcmp(text, "d6") == 0);
    CHECK(t, !dg_move_wellformed(d, moves[3] | (dg_move)1 << 29));
    dg_state_copy_position(c, s);
    CHECK(t, dg_state_equal(c, s) && dg_hash(c) == dg_hash(s) && dg_undo(d, c) == 0);
    CHECK(t, dg_undo(d, s) == 1 && dg_hash(s) == h0 && dg_cell(s, 38) == 0 && dg_ply(s) == 0);
    /* a vertical four for black wins; the status is cached through undo */
    for (int i = 0; i < 7; i++) {
        dg_moves(d, s, moves, DG_MOVES_MAX);
        dg_play(d, s, moves[i % 2 ? 1 : 0]);
    }
    CHECK(t, dg_status(d, s) == DG_WON_BLACK && dg_moves(d, s, moves, DG_MOVES_MAX) == 0);
    int score[2];
    dg_score(d, s, score);
    CHECK(t, score[0] == 1 && score[1] == 0);
    dg_undo(d, s);
    CHECK(t, dg_status(d, s) == DG_ONGOING);
    bs_rng r1, r2;
    int64_t a[4], b[4];
    bs_rng_seed(&r1, 9);
    bs_rng_seed(&r2, 9);
    CHECK(t, dg_playouts(d, s, &r1, 20, 10000, a) == BS_OK && dg_playouts(d, s, &r2, 20, 10000, b) == BS_OK);
    CHECK(t, memcmp(a, b, sizeof a) == 0 && a[0] + a[1] + a[2] == 20 && dg_ply(s) == 6);
    dg_state_free(s);
    dg_state_free(c);
    dg_desc_free(d);
}

int main(void)
{
    check_tally t = { 0, 0 };
    compile_checks(&t);
    play_checks(&t);
    return check_summary(&t);
}
