/* capture.c - libFuzzer target: random boards and sequences of capture
 * operations with arbitrary arguments. Checks that the three move generators
 * (8 x 8 words, wide lanes, the cell-by-cell reference) agree, that moves
 * commute with transposing the board, that play counts discs right and that
 * undo restores every plane and the hash. */
#include <string.h>

#include "fuzz_input.h"
#include "perft.h"
#include "simd64.h"

enum { STACK = 64 };

typedef struct played {
    bs_board before;
    int player, r, c;
    bs_set flipped;
} played;

static int player_of(fz_in *in)
{
    unsigned sel = fz_u8(in);
    if ((sel & 15u) == 15u)
        return (int)fz_u32(in); /* out of range now and then */
    return 1 + (int)(sel & 1u);
}

static void check_moves(const bs_board *b, int player, unsigned legal)
{
    bs_set fast, wide, ref;
    int s1 = bs_capture_moves(b, player, legal, &fast);
    int s2 = bs_capture_moves_generic(b, player, legal, &wide);
    int s3 = bs_capture_moves_reference(b, player, legal, &ref);
    int good = bs_is_player(player) && legal <= BS_DIRS_ALL;
    FZ_CHECK(s1 == s2 && s2 == s3);
    FZ_CHECK(good ? s1 == BS_OK : s1 == BS_EINVAL);
    if (!good)
        return;
    FZ_CHECK(fz_set_equal(&fast, &ref));
    FZ_CHECK(fz_set_equal(&wide, &ref));
    /* every move is an empty cell, and bs_capture_legal agrees cell by cell */
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < b->cols; c++) {
            int cell;
            FZ_CHECK(bs_board_get(b, r, c, &cell) == BS_OK);
            int in = (int)(ref.row[r] >> c & 1u);
            FZ_CHECK(!in || cell == BS_EMPTY);
            FZ_CHECK(bs_capture_legal(b, player, r, c, legal) == (bool)in);
        }
    if (b->n == 8 && legal == BS_DIRS_ALL) {
        bs_set empty;
        FZ_CHECK(bs_board_cells(b, BS_EMPTY, &empty) == BS_OK);
        uint64_t mine = bs_pack64(b->plane[player - 1]);
        uint64_t theirs = bs_pack64(b->plane[bs_opponent(player) - 1]);
        uint64_t e = bs_pack64(empty.row);
        uint64_t want = bs_pack64(ref.row);
        FZ_CHECK(bs_moves64(mine, theirs, e) == want);
        FZ_CHECK(bs_moves64_scalar(mine, theirs, e) == want);
        if (bs_avx2_available())
            FZ_CHECK(bs_moves64_avx2(mine, theirs, e) == want);
    }
    bs_board t;
    bs_set tm, back;
    fz_transpose(b, &t);
    FZ_CHECK(bs_capture_moves(&t, player, fz_transpose_dirs(legal), &tm) == BS_OK);
    fz_transpose_set(&tm, &back);
    FZ_CHECK(fz_set_equal(&back, &ref));
}

static void check_counts(const bs_board *b)
{
    int total = 0;
    for (int cell = BS_EMPTY; cell <= BS_BLOCK; cell++) {
        int k = bs_board_count(b, cell);
        FZ_CHECK(k >= 0);
        total += k;
    }
    FZ_CHECK(total == b->rows * b->cols);
    FZ_CHECK(bs_board_count(b, -1) == BS_EINVAL && bs_board_count(b, 4) == BS_EINVAL);
    FZ_CHECK(bs_board_valid(b));
}

static void play(fz_in *in, bs_board *b, played *stack, int *depth)
{
    int player = player_of(in);
    int r = fz_arg(in, 0, b->n - 1), c = fz_arg(in, 0, b->n - 1);
    unsigned legal = fz_dirs(in), flip = fz_dirs(in);
    int good = bs_is_player(player) && legal <= BS_DIRS_ALL && flip <= BS_DIRS_ALL && r >= 0 &&
               c >= 0 && r < b->rows && c < b->cols;
    bs_board before = *b;
    uint64_t hash = bs_board_hash(b);
    bs_set expect, flipped;
    int nexpect = 0, legal_move = 0;
    if (good) {
        nexpect = bs_capture_flips(b, player, r, c, flip, &expect);
        FZ_CHECK(nexpect >= 0 && nexpect == bs_set_count(&expect));
        legal_move = bs_capture_legal(b, player, r, c, legal);
    }
    int own = good ? bs_board_count(b, player) : 0;
    int opp = good ? bs_board_count(b, bs_opponent(player)) : 0;
    int k = bs_capture_play(b, player, r, c, legal, flip, &flipped);
    if (!good) {
        FZ_CHECK(k == BS_EINVAL);
        FZ_CHECK(bs_board_equal(b, &before));
        return;
    }
    if (!legal_move) {
        FZ_CHECK(k == BS_EILLEGAL);
        FZ_CHECK(bs_board_equal(b, &before) && bs_board_hash(b) == hash);
        return;
    }
    FZ_CHECK(k == nexpect && fz_set_equal(&flipped, &expect));
    FZ_CHECK(bs_board_count(b, player) == own + 1 + k);
    FZ_CHECK(bs_board_count(b, bs_opponent(player)) == opp - k);
    check_counts(b);
    if (b->n == 8 && flip == BS_DIRS_ALL) {
        uint64_t mine = bs_pack64(before.plane[player - 1]);
        uint64_t theirs = bs_pack64(before.plane[bs_opponent(player) - 1]);
        uint64_t want = bs_pack64(expect.row);
        FZ_CHECK(bs_flips64(mine, theirs, 8 * r + c) == want);
        FZ_CHECK(bs_flips64_scalar(mine, theirs, 8 * r + c) == want);
        if (bs_avx2_available())
            FZ_CHECK(bs_flips64_avx2(mine, theirs, 8 * r + c) == want);
    }
    if (*depth < STACK && (fz_u8(in) & 1u)) {
        played *p = &stack[(*depth)++];
        p->before = before;
        p->player = player;
        p->r = r;
        p->c = c;
        p->flipped = flipped;
        return;
    }
    FZ_CHECK(bs_capture_undo(b, player, r, c, &flipped) == BS_OK);
    FZ_CHECK(bs_board_equal(b, &before) && bs_board_hash(b) == hash);
    FZ_CHECK(memcmp(b->plane, before.plane, sizeof b->plane) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size, 0};
    bs_board b;
    if (fz_u8(&in) == 0xffu) {
        /* Raw bytes as a board: the core must refuse what bs_board_valid refuses. */
        memset(&b, 0, sizeof b);
        b.n = (int)fz_u32(&in);
        b.rows = (int)fz_u8(&in) - 1;
        b.cols = (int)fz_u8(&in) - 1;
        for (int p = 0; p < 3; p++)
            for (int r = 0; r < BS_MAX_N; r++)
                b.plane[p][r] = fz_u8(&in) ? fz_u32(&in) : 0u;
        bs_set out;
        uint64_t leaves;
        int st = bs_capture_moves(&b, BS_BLACK, BS_DIRS_ALL, &out);
        if (!bs_board_valid(&b)) {
            FZ_CHECK(st == BS_EINVAL);
            FZ_CHECK(bs_capture_moves_generic(&b, BS_WHITE, 0, &out) == BS_EINVAL);
            FZ_CHECK(bs_capture_moves_reference(&b, BS_WHITE, 0, &out) == BS_EINVAL);
            FZ_CHECK(bs_capture_flips(&b, BS_BLACK, 0, 0, BS_DIRS_ALL, &out) == BS_EINVAL);
            FZ_CHECK(bs_perft(&b, BS_BLACK, 1, BS_DIRS_ALL, BS_DIRS_ALL, false, &leaves) == BS_EINVAL);
            FZ_CHECK(!bs_capture_legal(&b, BS_BLACK, 0, 0, 0));
        } else {
            check_moves(&b, BS_BLACK, BS_DIRS_ALL);
        }
        return 0;
    }
    FZ_CHECK(bs_board_init(&b, 0) == BS_EINVAL && bs_board_init(&b, BS_MAX_N + 1) == BS_EINVAL);
    FZ_CHECK(bs_board_init_shape(&b, 3, 0) == BS_EINVAL && bs_board_init_shape(&b, BS_MAX_N + 1, 3) == BS_EINVAL);
    fz_board(&in, &b, BS_MAX_N, 1);
    check_counts(&b);
    played stack[STACK];
    int depth = 0;
    for (int steps = 0; fz_more(&in) && steps < 200; steps++) {
        switch (fz_u8(&in) % 6u) {
        case 0:
            check_moves(&b, player_of(&in), fz_dirs(&in));
            break;
        case 1:
        case 2:
            play(&in, &b, stack, &depth);
            break;
        case 3: /* take back the latest kept move */
            if (depth > 0) {
                played *p = &stack[--depth];
                FZ_CHECK(bs_capture_undo(&b, p->player, p->r, p->c, &p->flipped) == BS_OK);
                FZ_CHECK(bs_board_equal(&b, &p->before));
                FZ_CHECK(bs_board_hash(&b) == bs_board_hash(&p->before));
            } else {
                bs_set none;
                bs_set_init(&none, b.n);
                FZ_CHECK(bs_capture_undo(&b, BS_BLACK, b.n, 0, &none) == BS_EINVAL);
            }
            break;
        case 4: { /* set a cell with arbitrary arguments; the undo stack no longer applies */
            int r = fz_arg(&in, 0, b.n - 1), c = fz_arg(&in, 0, b.n - 1);
            int cell = fz_arg(&in, 0, 3);
            int good = r >= 0 && c >= 0 && r < b.rows && c < b.cols && cell >= 0 && cell <= 3;
            int st = bs_board_set(&b, r, c, cell);
            FZ_CHECK(good ? st == BS_OK : st == BS_EINVAL);
            if (good) {
                int got;
                FZ_CHECK(bs_board_get(&b, r, c, &got) == BS_OK && got == cell);
                depth = 0;
            }
            check_counts(&b);
            break;
        }
        default: { /* flips with arbitrary arguments */
            int player = player_of(&in);
            int r = fz_arg(&in, 0, b.n - 1), c = fz_arg(&in, 0, b.n - 1);
            unsigned dirs = fz_dirs(&in);
            bs_set out;
            int st = bs_capture_flips(&b, player, r, c, dirs, &out);
            int good = bs_is_player(player) && dirs <= BS_DIRS_ALL && r >= 0 && c >= 0 && r < b.rows &&
                       c < b.cols;
            FZ_CHECK(good ? st >= 0 : st == BS_EINVAL);
            break;
        }
        }
    }
    return 0;
}
