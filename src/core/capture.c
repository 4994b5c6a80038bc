/* capture.c - sandwich capture on any board size, with an 8 x 8 word path. */
#include "capture.h"
#include "simd64.h"
#include "wide.h"

#include <string.h>

static const int DIR_DR[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
static const int DIR_DC[8] = {0, 1, 1, 1, 0, -1, -1, -1};

/* 8 x 8: shift amount (positive = left) and the mask that stops row wrap. */
#define NOT_COL_A 0xfefefefefefefefeULL
#define NOT_COL_H 0x7f7f7f7f7f7f7f7fULL
static const int SHIFT64[8] = {-8, -7, 1, 9, 8, 7, -1, -9};
static const uint64_t MASK64[8] = {~0ULL, NOT_COL_A, NOT_COL_A, NOT_COL_A,
                                   ~0ULL, NOT_COL_H, NOT_COL_H, NOT_COL_H};

static inline uint64_t shift64(uint64_t x, int d)
{
    int s = SHIFT64[d];
    return (s > 0 ? x << s : x >> -s) & MASK64[d];
}

static bool valid_args(const bs_board *b, int player)
{
    return b && bs_board_valid(b) && bs_is_player(player);
}

/* ---- the multi-word path: one uint32_t per row ---- */

static void shift_rows(const uint32_t *in, uint32_t *out, int n, int d)
{
    uint32_t full = bs_row_mask(n);
    for (int r = 0; r < n; r++) {
        int src = r - DIR_DR[d];
        uint32_t x = (src >= 0 && src < n) ? in[src] : 0;
        if (DIR_DC[d] > 0)
            x <<= 1;
        else if (DIR_DC[d] < 0)
            x >>= 1;
        out[r] = x & full;
    }
}

int bs_capture_moves_generic(const bs_board *b, int player, unsigned legal_dirs, bs_set *out)
{
    if (!valid_args(b, player) || !out || legal_dirs > BS_DIRS_ALL)
        return BS_EINVAL;
    bs_set empty;
    bs_board_cells(b, BS_EMPTY, &empty);
    bs_set_init(out, b->n);
    bs_wide_moves(b->n, b->plane[player - 1], b->plane[bs_opponent(player) - 1], empty.row, legal_dirs,
                  out->row);
    return BS_OK;
}

int bs_capture_moves_reference(const bs_board *b, int player, unsigned legal_dirs, bs_set *out)
{
    if (!valid_args(b, player) || !out || legal_dirs > BS_DIRS_ALL)
        return BS_EINVAL;
    int n = b->n;
    const uint32_t *mine = b->plane[player - 1];
    const uint32_t *theirs = b->plane[bs_opponent(player) - 1];
    bs_set empty;
    bs_board_cells(b, BS_EMPTY, &empty);
    bs_set_init(out, n);
    if (legal_dirs == 0) {
        *out = empty;
        return BS_OK;
    }
    for (int d = 0; d < 8; d++) {
        if (!(legal_dirs >> d & 1u))
            continue;
        /* bit d: the move traps along direction d, so the run starts at our
         * piece and grows the other way (d + 4) toward the empty cell */
        int back = (d + 4) & 7;
        uint32_t run[BS_MAX_N], next[BS_MAX_N];
        shift_rows(mine, run, n, back);
        bool any = false;
        for (int r = 0; r < n; r++) {
            run[r] &= theirs[r];
            any |= run[r] != 0;
        }
        while (any) { /* extend runs of opposing pieces until they stop growing */
            shift_rows(run, next, n, back);
            any = false;
            for (int r = 0; r < n; r++) {
                uint32_t grown = run[r] | (next[r] & theirs[r]);
                any |= grown != run[r];
                run[r] = grown;
            }
        }
        shift_rows(run, next, n, back);
        for (int r = 0; r < n; r++)
            out->row[r] |= next[r] & empty.row[r];
    }
    return BS_OK;
}

/* ---- the 8 x 8 word path ---- */

uint64_t bs_moves64_scalar(uint64_t mine, uint64_t theirs, uint64_t empty)
{
    /* Horizontal and diagonal runs may not pass the edge columns. */
    uint64_t inner = theirs & 0x7e7e7e7e7e7e7e7eULL;
    uint64_t moves = 0, x;
#define RUN(OP, S, M)                                                          \
    x = M & (mine OP S);                                                       \
    x |= M & (x OP S);                                                         \
    x |= M & (x OP S);                                                         \
    x |= M & (x OP S);                                                         \
    x |= M & (x OP S);                                                         \
    x |= M & (x OP S);                                                         \
    moves |= x OP S;
    RUN(<<, 1, inner)
    RUN(>>, 1, inner)
    RUN(<<, 8, theirs)
    RUN(>>, 8, theirs)
    RUN(<<, 7, inner)
    RUN(>>, 7, inner)
    RUN(<<, 9, inner)
    RUN(>>, 9, inner)
#undef RUN
    return moves & empty;
}

/* The ray from `square` in each direction, as masks computed from the row,
 * column and the two diagonals through it (no tables). */
static inline uint64_t diagonal_through(int square)
{
    int k = (square >> 3) - (square & 7); /* row - column */
    const uint64_t main = 0x8040201008040201ULL;
    return k >= 0 ? main << (8 * k) : main >> (-8 * k);
}

static inline uint64_t antidiagonal_through(int square)
{
    int k = (square >> 3) + (square & 7) - 7; /* row + column - 7 */
    const uint64_t anti = 0x0102040810204080ULL;
    return k >= 0 ? anti << (8 * k) : anti >> (-8 * k);
}

/* Flips along a ray going to higher bits: the nearest non-opposing square is
 * the lowest set bit of ray & ~theirs; it must be ours. */
static inline uint64_t flips_up(uint64_t ray, uint64_t mine, uint64_t theirs)
{
    uint64_t stop = ray & ~theirs;
    stop &= -stop;
    return (stop & mine) ? (stop - 1) & ray : 0;
}

/* Same toward lower bits: the nearest is the highest set bit. */
static inline uint64_t flips_down(uint64_t ray, uint64_t mine, uint64_t theirs)
{
    uint64_t stop = ray & ~theirs;
    if (!stop)
        return 0;
    stop = 1ULL << (63 - __builtin_clzll(stop));
    return (stop & mine) ? ray & ~((stop << 1) - 1) : 0;
}

uint64_t bs_flips64_scalar(uint64_t mine, uint64_t theirs, int square)
{
    uint64_t above = ~1ULL << square;         /* bits above the square */
    uint64_t below = (1ULL << square) - 1;    /* bits below it */
    uint64_t row = 0xffULL << (square & 56);
    uint64_t column = 0x0101010101010101ULL << (square & 7);
    uint64_t diagonal = diagonal_through(square);
    uint64_t anti = antidiagonal_through(square);
    return flips_up(row & above, mine, theirs) | flips_down(row & below, mine, theirs) |
           flips_up(column & above, mine, theirs) | flips_down(column & below, mine, theirs) |
           flips_up(diagonal & above, mine, theirs) | flips_down(diagonal & below, mine, theirs) |
           flips_up(anti & above, mine, theirs) | flips_down(anti & below, mine, theirs);
}

static uint64_t moves64_dirs(uint64_t mine, uint64_t theirs, uint64_t empty, unsigned dirs)
{
    if (dirs == BS_DIRS_ALL)
        return bs_moves64(mine, theirs, empty);
    uint64_t moves = 0;
    for (int d = 0; d < 8; d++) {
        if (!(dirs >> d & 1u))
            continue;
        int back = (d + 4) & 7; /* as in the multi-word path */
        uint64_t x = shift64(mine, back) & theirs;
        for (int i = 0; i < 5; i++)
            x |= shift64(x, back) & theirs;
        moves |= shift64(x, back);
    }
    return moves & empty;
}

int bs_capture_moves(const bs_board *b, int player, unsigned legal_dirs, bs_set *out)
{
    if (!valid_args(b, player) || !out || legal_dirs > BS_DIRS_ALL)
        return BS_EINVAL;
    if (b->n != 8 || legal_dirs == 0)
        return bs_capture_moves_generic(b, player, legal_dirs, out);
    uint64_t mine = bs_pack64(b->plane[player - 1]);
    uint64_t theirs = bs_pack64(b->plane[bs_opponent(player) - 1]);
    uint64_t empty = ~(mine | theirs | bs_pack64(b->plane[2]));
    bs_set_init(out, 8);
    bs_unpack64(moves64_dirs(mine, theirs, empty, legal_dirs), out->row);
    return BS_OK;
}

/* ---- single moves ---- */

int bs_capture_flips(const bs_board *b, int player, int r, int c, unsigned dirs, bs_set *out)
{
    if (!valid_args(b, player) || !out || dirs > BS_DIRS_ALL || !bs_board_on(b, r, c))
        return BS_EINVAL;
    int n = b->n, cell;
    bs_set_init(out, n);
    bs_board_get(b, r, c, &cell);
    if (cell != BS_EMPTY)
        return 0;
    const uint32_t *mine = b->plane[player - 1];
    const uint32_t *theirs = b->plane[bs_opponent(player) - 1];
    int total = 0;
    for (int d = 0; d < 8; d++) {
        if (!(dirs >> d & 1u))
            continue;
        int rr = r + DIR_DR[d], cc = c + DIR_DC[d], len = 0;
        while (rr >= 0 && cc >= 0 && rr < n && cc < n && (theirs[rr] >> cc & 1u)) {
            rr += DIR_DR[d];
            cc += DIR_DC[d];
            len++;
        }
        if (len == 0 || rr < 0 || cc < 0 || rr >= n || cc >= n || !(mine[rr] >> cc & 1u))
            continue;
        for (int i = 1; i <= len; i++)
            out->row[r + i * DIR_DR[d]] |= 1u << (c + i * DIR_DC[d]);
        total += len;
    }
    return total;
}

bool bs_capture_legal(const bs_board *b, int player, int r, int c, unsigned legal_dirs)
{
    bs_set flips;
    int cell;
    if (bs_board_get(b, r, c, &cell) != BS_OK || cell != BS_EMPTY)
        return false;
    if (legal_dirs == 0)
        return valid_args(b, player);
    return bs_capture_flips(b, player, r, c, legal_dirs, &flips) > 0;
}

int bs_capture_play_unchecked(bs_board *b, int player, int r, int c, unsigned legal_dirs,
                              unsigned flip_dirs, bs_set *flipped)
{
    if (b->n == 8 && legal_dirs == BS_DIRS_ALL && flip_dirs == BS_DIRS_ALL) { /* the 64-bit path */
        uint64_t mine = bs_pack64(b->plane[player - 1]);
        uint64_t theirs = bs_pack64(b->plane[bs_opponent(player) - 1]);
        uint64_t bit = 1ULL << (8 * r + c);
        uint64_t flips = (mine | theirs | bs_pack64(b->plane[2])) & bit ? 0 : bs_flips64(mine, theirs, 8 * r + c);
        if (!flips)
            return BS_EILLEGAL;
        if (flipped) {
            bs_set_init(flipped, 8);
            bs_unpack64(flips, flipped->row);
        }
        bs_unpack64(mine | flips | bit, b->plane[player - 1]);
        bs_unpack64(theirs & ~flips, b->plane[bs_opponent(player) - 1]);
        return __builtin_popcountll(flips);
    }
    bs_set local;
    if (!flipped)
        flipped = &local;
    if (!bs_capture_legal(b, player, r, c, legal_dirs))
        return BS_EILLEGAL;
    int count = bs_capture_flips(b, player, r, c, flip_dirs, flipped);
    uint32_t *mine = b->plane[player - 1];
    uint32_t *theirs = b->plane[bs_opponent(player) - 1];
    for (int i = 0; i < b->n; i++) {
        mine[i] |= flipped->row[i];
        theirs[i] &= ~flipped->row[i];
    }
    mine[r] |= 1u << c;
    return count;
}

int bs_capture_play(bs_board *b, int player, int r, int c, unsigned legal_dirs,
                    unsigned flip_dirs, bs_set *flipped)
{
    if (!valid_args(b, player) || !flipped || legal_dirs > BS_DIRS_ALL ||
        flip_dirs > BS_DIRS_ALL || !bs_board_on(b, r, c))
        return BS_EINVAL;
    return bs_capture_play_unchecked(b, player, r, c, legal_dirs, flip_dirs, flipped);
}

int bs_capture_undo(bs_board *b, int player, int r, int c, const bs_set *flipped)
{
    if (!valid_args(b, player) || !flipped || flipped->n != b->n || !bs_board_on(b, r, c))
        return BS_EINVAL;
    uint32_t *mine = b->plane[player - 1];
    uint32_t *theirs = b->plane[bs_opponent(player) - 1];
    if (!(mine[r] >> c & 1u))
        return BS_ESTATE;
    for (int i = 0; i < b->n; i++) {
        if ((flipped->row[i] & mine[i]) != flipped->row[i])
            return BS_ESTATE;
        if (flipped->row[i] & (1u << c) && i == r)
            return BS_ESTATE;
    }
    for (int i = 0; i < b->n; i++) {
        mine[i] &= ~flipped->row[i];
        theirs[i] |= flipped->row[i];
    }
    mine[r] &= ~(1u << c);
    return BS_OK;
}
