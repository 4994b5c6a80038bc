/* wide_window.c - windows of a bigger board, for perft on the AVX2 path:
 * 8 x 8 windows on the 8 x 8 path (boards of 9 and more), the whole board
 * as one window (8 and less), 16 x 16 windows of boards of 17 to 26, and
 * the escapes of a node whose discs leave its window. */
#include "wide_impl.h"

#if defined(BS_WIDE_AVX2)

BS_WIDE_AVX2_BEGIN

static void w16_init(struct w16 *w, unsigned legal, unsigned flip, int max_run)
{
    memset(w, 0, sizeof *w);
    w->legal = legal;
    w->max_run = max_run;
    /* row: E up, W down; column: S up, N down; diagonal: SE up, NW down;
     * anti-diagonal (column falls as the row rises): SW up, NE down. */
    static const unsigned UP[4] = {BS_DIR_E, BS_DIR_S, BS_DIR_SE, BS_DIR_SW};
    static const unsigned DOWN[4] = {BS_DIR_W, BS_DIR_N, BS_DIR_NW, BS_DIR_NE};
    for (int i = 0; i < 4; i++) {
        w->up |= (flip & UP[i]) ? 0xffffull << 16 * i : 0;
        w->down |= (flip & DOWN[i]) ? 0xffffull << 16 * i : 0;
    }
}

/* ---- an 8 x 8 window: the 8 x 8 path while the discs span about 6 x 6 ----
 * A perft from the start of a big board spends most of its nodes with the
 * discs near the centre: there the 8 x 8 path (bs_perft64_window) counts
 * them at its own speed. A node whose new disc reaches the window's ring is
 * placed again around its discs, or, once they spread too far, goes to the
 * 16 x 16 path (n <= 16) or to the 16 x 16 window and the 32-bit path. */
struct w8_frame {
    const struct w8 *base;
    int r0, c0; /* the window's top-left cell */
};

/* The 8 bits of row r from column c0 as byte i of a window word. */
static inline uint64_t window_bytes(const uint32_t *rows, int r0, int c0)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x |= (uint64_t)((rows[r0 + i] >> c0) & 0xffu) << (8 * i);
    return x;
}

void w8_init(struct w8 *w, int n, unsigned legal, unsigned flip, const uint32_t *playable, const struct w16 *whole, const struct walk *big)
{
    w->n = n;
    w->legal = legal;
    w->flip = flip;
    bs_window64_lanes(legal, flip, w->lanes);
    w->whole = whole;
    w->big = big;
    for (int r0 = 0; r0 + 8 <= n; r0++)
        for (int c0 = 0; c0 + 8 <= n; c0++)
            w->playable[r0 * (n - 7) + c0] = window_bytes(playable, r0, c0);
    for (int r = 0; r < n; r++)
        w->board[r] = playable[r];
}

/* A window for discs spanning rows top..bottom and columns left..right:
 * centred, inside the board, no disc on its ring (its borders that are not
 * the board's edges). False when none holds them. */
static bool w8_place(int n, int top, int bottom, int left, int right, int *r0_out, int *c0_out, uint64_t *ring)
{
    if (bottom - top > 6 || right - left > 6)
        return false;
    int r0 = top - 1 - (6 - (bottom - top + 1)) / 2, c0 = left - 1 - (6 - (right - left + 1)) / 2;
    r0 = r0 < 0 ? 0 : r0 > n - 8 ? n - 8 : r0;
    c0 = c0 < 0 ? 0 : c0 > n - 8 ? n - 8 : c0;
    bool ring_top = r0 > 0, ring_bottom = r0 + 7 < n - 1, ring_left = c0 > 0, ring_right = c0 + 7 < n - 1;
    if (top < r0 + ring_top || bottom > r0 + 7 - ring_bottom || left < c0 + ring_left || right > c0 + 7 - ring_right)
        return false;
    *r0_out = r0;
    *c0_out = c0;
    *ring = (ring_top ? 0xffULL : 0) | (ring_bottom ? 0xffULL << 56 : 0) | (ring_left ? 0x0101010101010101ULL : 0) |
            (ring_right ? 0x8080808080808080ULL : 0);
    return true;
}

static uint64_t w8_escape(void *ctx, uint64_t mine, uint64_t theirs, int depth);

static uint64_t w8_count(const struct w8 *base, int r0, int c0, uint64_t ring, uint64_t mine, uint64_t theirs,
                         int depth)
{
    struct w8_frame frame = {base, r0, c0};
    struct bs_window64 w = {base->playable[r0 * (base->n - 7) + c0], ring, w8_escape, &frame, base->legal, base->flip,
                            base->lanes};
    return bs_perft64_window(mine, theirs, depth, &w);
}

/* Counts the node in an 8 x 8 window around its discs (a legal direction
 * set, the board at least 9 x 9) when one holds them; false when not. */
bool w8_try(const struct w8 *base, const uint32_t *mine, const uint32_t *theirs, int depth, uint64_t *leaves)
{
    int n = base->n, top = -1, bottom = -1, r0, c0;
    uint32_t cols = 0;
    uint64_t ring;
    for (int r = 0; r < n; r++) {
        uint32_t x = mine[r] | theirs[r];
        if (x) {
            if (top < 0)
                top = r;
            bottom = r;
            cols |= x;
        }
    }
    if (top < 0 || !w8_place(n, top, bottom, __builtin_ctz(cols), 31 - __builtin_clz(cols), &r0, &c0, &ring))
        return false;
    *leaves = w8_count(base, r0, c0, ring, window_bytes(mine, r0, c0), window_bytes(theirs, r0, c0), depth);
    return true;
}

/* Window bits moved to a window dr rows and dc columns further (the discs
 * fit both windows: nothing wraps). */
static inline uint64_t window_shift(uint64_t x, int dr, int dc)
{
    x = dr >= 0 ? x >> (8 * dr) : x << (-8 * dr);
    return dc >= 0 ? x >> dc : x << -dc;
}

/* Window bits as the 16-bit rows of a board of at most 16 x 16, the
 * window's top-left cell at (r0, c0; r0 <= 8): bytes widened to lanes and
 * moved c0 columns, then r0 rows as a shift of the four words, in registers
 * (through a buffer, a 16-byte store read back by a 32-byte load stalls the
 * store forwarding). */
static inline ymm window_rows16(uint64_t x, int r0, int c0)
{
    __m128i lanes = _mm_slli_epi16(_mm_cvtepu8_epi16(_mm_cvtsi64_si128((long long)x)), c0);
    uint64_t lo = (uint64_t)_mm_cvtsi128_si64(lanes), hi = (uint64_t)_mm_extract_epi64(lanes, 1);
    int b = 16 * (r0 & 3);
    uint64_t a0 = lo << b, a1 = b ? hi << b | lo >> (64 - b) : hi, a2 = b ? hi >> (64 - b) : 0;
    switch (r0 >> 2) {
    case 0: return _mm256_set_epi64x(0, (long long)a2, (long long)a1, (long long)a0);
    case 1: return _mm256_set_epi64x((long long)a2, (long long)a1, (long long)a0, 0);
    default: return _mm256_set_epi64x((long long)a1, (long long)a0, 0, 0); /* r0 = 8: a2 is 0 */
    }
}

/* The leaves of a node one ply above them whose new disc d (theirs) reached
 * the ring: every disc is in the window and d is the only one on the ring
 * (flips lie between d and a disc inside), so the moves are the window's
 * and the cells just outside it behind d, each legal when the line from it
 * through d runs over theirs to a disc of mine inside the window. -1 when
 * d is not alone on the ring (never, by the above). */
static int64_t w8_last_ply(const struct w8_frame *f, uint64_t mine, uint64_t theirs)
{
    const struct w8 *base = f->base;
    int n = base->n, r0 = f->r0, c0 = f->c0;
    uint64_t ring = (r0 > 0 ? 0xffULL : 0) | (r0 + 7 < n - 1 ? 0xffULL << 56 : 0) |
                    (c0 > 0 ? 0x0101010101010101ULL : 0) | (c0 + 7 < n - 1 ? 0x8080808080808080ULL : 0);
    uint64_t d = theirs & ring;
    if (!d || (d & (d - 1)))
        return -1;
    struct bs_window64 w = {base->playable[r0 * (n - 7) + c0], 0, NULL, NULL, base->legal, base->flip, base->lanes};
    int64_t count = __builtin_popcountll(bs_moves64_window(mine, theirs, &w));
    int i = __builtin_ctzll(d) >> 3, j = __builtin_ctzll(d) & 7;
    /* the directions from a cell past the ring towards d: into the window */
    unsigned dirs = (i == 0 && r0 > 0 ? BS_DIR_S | BS_DIR_SE | BS_DIR_SW : 0u) |
                    (i == 7 && r0 + 7 < n - 1 ? BS_DIR_N | BS_DIR_NE | BS_DIR_NW : 0u) |
                    (j == 0 && c0 > 0 ? BS_DIR_E | BS_DIR_NE | BS_DIR_SE : 0u) |
                    (j == 7 && c0 + 7 < n - 1 ? BS_DIR_W | BS_DIR_NW | BS_DIR_SW : 0u);
    for (dirs &= base->legal; dirs; dirs &= dirs - 1) {
        int k = __builtin_ctz(dirs), xi = i - DR[k], xj = j - DC[k], r = r0 + xi, c = c0 + xj;
        if (((unsigned)xi < 8 && (unsigned)xj < 8) || r < 0 || r >= n || c < 0 || c >= n || !(base->board[r] >> c & 1))
            continue;
        int a = i + DR[k], b = j + DC[k];
        while ((unsigned)a < 8 && (unsigned)b < 8 && (theirs >> (8 * a + b) & 1)) {
            a += DR[k];
            b += DC[k];
        }
        count += (unsigned)a < 8 && (unsigned)b < 8 && (mine >> (8 * a + b) & 1);
    }
    return count ? count : 1;
}

/* A node whose new disc reached the ring: one ply above the leaves, its
 * moves counted in place; else a window around its discs, moved on the
 * words, or else the wider paths. */
static uint64_t w8_escape(void *ctx, uint64_t mine, uint64_t theirs, int depth)
{
    const struct w8_frame *f = ctx;
    const struct w8 *base = f->base;
    if (depth == 1) {
        int64_t leaves = w8_last_ply(f, mine, theirs);
        if (leaves >= 0)
            return (uint64_t)leaves;
    }
    uint64_t occupied = mine | theirs, cols = occupied | occupied >> 32;
    cols |= cols >> 16;
    cols |= cols >> 8;
    cols &= 0xff;
    int top = f->r0 + (__builtin_ctzll(occupied) >> 3), bottom = f->r0 + ((63 - __builtin_clzll(occupied)) >> 3);
    int left = f->c0 + __builtin_ctzll(cols), right = f->c0 + 63 - __builtin_clzll(cols), r0, c0;
    uint64_t ring;
    if (w8_place(base->n, top, bottom, left, right, &r0, &c0, &ring))
        return w8_count(base, r0, c0, ring, window_shift(mine, r0 - f->r0, c0 - f->c0),
                        window_shift(theirs, r0 - f->r0, c0 - f->c0), depth);
    if (base->whole)
        return perft16_avx2(base->whole, window_rows16(mine, f->r0, f->c0), window_rows16(theirs, f->r0, f->c0),
                            depth);
    plane m, t;
    memset(&m, 0, sizeof m);
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 8; i++) {
        m.row[f->r0 + i] = (uint32_t)((mine >> (8 * i)) & 0xffu) << f->c0;
        t.row[f->r0 + i] = (uint32_t)((theirs >> (8 * i)) & 0xffu) << f->c0;
    }
    return perft32_entry(base->big, &m, &t, depth, false);
}

uint64_t perft16_whole(const bs_board *b, int player, int depth, unsigned legal, unsigned flip)
{
    struct w16 w;
    int n = b->n;
    w16_init(&w, legal, flip, n - 2 > 0 ? n - 2 : 0);
    uint32_t playable[BS_MAX_N] = {0};
    for (int r = 0; r < n; r++)
        playable[r] = bs_row_mask(n) & ~b->plane[2][r];
    w.playable = load16(playable, 0, n, 0);
    const uint32_t *mine = b->plane[player - 1], *theirs = b->plane[bs_opponent(player) - 1];
    if (legal != 0 && n <= 8) {
        /* the whole board is an 8 x 8 window without a ring (a smaller
         * board in its corner, the cells past the edge not playable): the
         * 8 x 8 generator and flips with the direction sets as lane masks */
        uint64_t lanes[16];
        bs_window64_lanes(legal, flip, lanes);
        struct bs_window64 whole = {window_bytes(playable, 0, 0), 0, NULL, NULL, legal, flip, lanes};
        return bs_perft64_window(window_bytes(mine, 0, 0), window_bytes(theirs, 0, 0), depth, &whole);
    }
    if (legal != 0 && n >= 9) {
        struct w8 w8;
        uint64_t leaves;
        w8_init(&w8, n, legal, flip, playable, &w, NULL);
        if (w8_try(&w8, mine, theirs, depth, &leaves))
            return leaves;
    }
    return perft16_avx2(&w, load16(mine, 0, n, 0), load16(theirs, 0, n, 0), depth);
}

/* Boards of 17 to 26: when every disc lies inside a 16 x 16 window, none of
 * them on a window border that is not a board edge, every legal move, run
 * and flip lies in that window (moves are next to opposing discs), so the
 * position is played in the window; a node with a disc on such a border goes
 * back to the 32-bit planes (which choose a new window). Only when any
 * direction must trap (legal_dirs != 0): otherwise every empty cell is a
 * move. */

/* Plays the node in a 16 x 16 window when its discs allow (see above);
 * returns false (nothing done) when they do not. */
bool try_window(const struct walk *big, const plane *mine, const plane *theirs, int depth, uint64_t *leaves)
{
    int n = big->n, top = -1, bottom = -1;
    uint32_t cols = 0;
    for (int r = 0; r < n; r++) {
        uint32_t x = mine->row[r] | theirs->row[r];
        if (x) {
            if (top < 0)
                top = r;
            bottom = r;
            cols |= x;
        }
    }
    if (top < 0)
        return false;
    int left = __builtin_ctz(cols), right = 31 - __builtin_clz(cols);
    /* centred on the discs, so that play can spread every way before a
     * disc reaches a border */
    int r0 = top - 1 - (14 - (bottom - top + 1)) / 2, c0 = left - 1 - (14 - (right - left + 1)) / 2;
    r0 = r0 > 0 ? r0 : 0;
    c0 = c0 > 0 ? c0 : 0;
    if (r0 > n - 16)
        r0 = n - 16;
    if (c0 > n - 16)
        c0 = n - 16;
    /* the last row/column in the window that may hold a disc */
    int r_last = r0 + 15 == n - 1 ? r0 + 15 : r0 + 14, c_last = c0 + 15 == n - 1 ? c0 + 15 : c0 + 14;
    if (bottom > r_last || right > c_last || top < r0 + (r0 > 0) || left < c0 + (c0 > 0))
        return false;
    struct w16 w;
    w16_init(&w, big->legal, big->flip, 14);
    w.big = big;
    w.r0 = r0;
    w.c0 = c0;
    uint32_t playable[BS_MAX_N], ring[BS_MAX_N];
    uint32_t lane_mask = 0xffffu << c0;
    for (int r = 0; r < n; r++) {
        playable[r] = big->full.row[r] & ~big->blocks.row[r];
        ring[r] = 0;
        if ((r == r0 && r0 > 0) || (r == r0 + 15 && r0 + 15 < n - 1))
            ring[r] = lane_mask;
        if (c0 > 0)
            ring[r] |= 1u << c0;
        if (c0 + 15 < n - 1)
            ring[r] |= 1u << (c0 + 15);
    }
    w.playable = load16(playable, r0, 16, c0);
    w.ring = load16(ring, r0, 16, c0);
    *leaves = perft16_avx2(&w, load16(mine->row, r0, 16, c0), load16(theirs->row, r0, 16, c0), depth);
    return true;
}

uint64_t window_escape(const struct w16 *w, ymm mine, ymm theirs, int depth)
{
    union {
        ymm v;
        uint16_t row[16];
    } m, t;
    m.v = mine;
    t.v = theirs;
    plane pm, pt;
    memset(&pm, 0, sizeof pm);
    memset(&pt, 0, sizeof pt);
    for (int i = 0; i < 16; i++) {
        pm.row[w->r0 + i] = (uint32_t)m.row[i] << w->c0;
        pt.row[w->r0 + i] = (uint32_t)t.row[i] << w->c0;
    }
    return perft32_entry(w->big, &pm, &pt, depth, false);
}

BS_WIDE_AVX2_END

#endif /* BS_WIDE_AVX2 */
