/* wide_avx2.c - the wide path's AVX2 code for boards of at most 16 rows
 * (and 16 x 16 windows of larger ones): moves, flips and perft on one
 * register of sixteen 16-bit rows, chosen at run time by
 * bs_avx2_available(). Builds for the baseline processor alone
 * (-DBS_NO_TARGET_CLONES) and -DBS_NO_SIMD64 leave it out. */
#include "wide_impl.h"

/* One 256-bit register holds sixteen 16-bit rows, row r in lane r. A row
 * shift by 1, 2 or 4 is a lane-crossing permute (zero filled) and an alignr;
 * by 8 it is the permute alone; a column shift is a 16-bit lane shift.
 * Moves: per direction a Kogge-Stone occluded fill with as many doubling
 * steps as the longest possible run needs (shorter than the larger side of
 * the discs' bounding box); the first row shift of the mover's and the opponent's discs is
 * shared by the three directions that go the same way vertically, and the
 * last one-cell shift is made once per vertical way after the column shifts;
 * the eastward direction is an addition (a carry runs through a line of
 * opposing discs and stops on the cell past it).
 * Flips: the four lines through the played square (the row is the lane
 * itself; column and diagonals by masks from sliding tables, compares, byte
 * packs and movemask) go into one 64-bit word per side, all eight
 * directions are resolved there at once (lines_flips), and the flips are
 * spread back into lanes by compares against per-lane bits. No loops, no
 * branches on the board.
 * The children of a node two plies above the leaves are played and counted
 * two at a time, so that two independent chains of work interleave.
 * Boards of 17 to 26 play in 16 x 16 windows of this path (wide_window.c). */
#if defined(BS_WIDE_AVX2)

BS_WIDE_AVX2_BEGIN

/* Lane r is row r - k (k > 0: rows move down; k < 0: up), zeros shifted in. */
BS_INLINE ymm rows16(ymm x, int k)
{
    switch (k) {
    case 1: return _mm256_alignr_epi8(x, _mm256_permute2x128_si256(x, x, 0x08), 14);
    case 2: return _mm256_alignr_epi8(x, _mm256_permute2x128_si256(x, x, 0x08), 12);
    case 4: return _mm256_alignr_epi8(x, _mm256_permute2x128_si256(x, x, 0x08), 8);
    case 8: return _mm256_permute2x128_si256(x, x, 0x08);
    case -1: return _mm256_alignr_epi8(_mm256_permute2x128_si256(x, x, 0x81), x, 2);
    case -2: return _mm256_alignr_epi8(_mm256_permute2x128_si256(x, x, 0x81), x, 4);
    case -4: return _mm256_alignr_epi8(_mm256_permute2x128_si256(x, x, 0x81), x, 8);
    case -8: return _mm256_permute2x128_si256(x, x, 0x81);
    default: return x;
    }
}

/* Column c moves to c + k (bits past the lane are lost). */
BS_INLINE ymm cols16(ymm x, int k)
{
    switch (k) {
    case 1: return _mm256_add_epi16(x, x); /* an adder, not the shift unit */
    case 2: return _mm256_slli_epi16(x, 2);
    case 4: return _mm256_slli_epi16(x, 4);
    case 8: return _mm256_slli_epi16(x, 8);
    case -1: return _mm256_srli_epi16(x, 1);
    case -2: return _mm256_srli_epi16(x, 2);
    case -4: return _mm256_srli_epi16(x, 4);
    case -8: return _mm256_srli_epi16(x, 8);
    default: return x;
    }
}

BS_INLINE ymm step16(ymm x, int dr, int dc, int k)
{
    return cols16(rows16(x, dr * k), dc * k);
}

/* The mover's discs and the opponent's runs next to them in direction
 * (dr, dc), intersected with the opponent's discs and moved dc columns (the
 * caller moves them dr rows): the cells just past are the moves. */
BS_INLINE ymm flank16(ymm mine, ymm theirs, int dr, int dc, int steps)
{
    ymm g = _mm256_or_si256(mine, _mm256_and_si256(theirs, step16(mine, dr, dc, 1)));
    if (steps > 1) {
        ymm p = _mm256_and_si256(theirs, step16(theirs, dr, dc, 1));
        g = _mm256_or_si256(g, _mm256_and_si256(p, step16(g, dr, dc, 2)));
        if (steps > 2) {
            p = _mm256_and_si256(p, step16(p, dr, dc, 2));
            g = _mm256_or_si256(g, _mm256_and_si256(p, step16(g, dr, dc, 4)));
            if (steps > 3) {
                p = _mm256_and_si256(p, step16(p, dr, dc, 4));
                g = _mm256_or_si256(g, _mm256_and_si256(p, step16(g, dr, dc, 8)));
            }
        }
    }
    return cols16(_mm256_and_si256(g, theirs), dc);
}

/* Eastward flank already moved one column: a carry through each run. */
BS_INLINE ymm east16(ymm mine, ymm theirs)
{
    return _mm256_add_epi16(theirs, _mm256_and_si256(_mm256_add_epi16(mine, mine), theirs));
}

BS_INLINE ymm moves16_all(ymm mine, ymm theirs, ymm empty, int steps)
{
    ymm down = _mm256_or_si256(_mm256_or_si256(flank16(mine, theirs, 1, -1, steps), flank16(mine, theirs, 1, 0, steps)),
                               flank16(mine, theirs, 1, 1, steps));
    ymm up = _mm256_or_si256(_mm256_or_si256(flank16(mine, theirs, -1, -1, steps), flank16(mine, theirs, -1, 0, steps)),
                             flank16(mine, theirs, -1, 1, steps));
    ymm side = _mm256_or_si256(flank16(mine, theirs, 0, -1, steps), east16(mine, theirs));
    ymm all = _mm256_or_si256(_mm256_or_si256(rows16(down, 1), rows16(up, -1)), side);
    return _mm256_and_si256(all, empty);
}

/* Legal direction bit d traps from the move in direction d: the fill runs
 * from the mover's discs the other way. */
BS_INLINE ymm moves16_dirs(ymm mine, ymm theirs, ymm empty, unsigned dirs, int steps)
{
    ymm zero = _mm256_setzero_si256(), down = zero, up = zero, side = zero;
    if (dirs & BS_DIR_N)
        down = _mm256_or_si256(down, flank16(mine, theirs, 1, 0, steps));
    if (dirs & BS_DIR_NE)
        down = _mm256_or_si256(down, flank16(mine, theirs, 1, -1, steps));
    if (dirs & BS_DIR_NW)
        down = _mm256_or_si256(down, flank16(mine, theirs, 1, 1, steps));
    if (dirs & BS_DIR_S)
        up = _mm256_or_si256(up, flank16(mine, theirs, -1, 0, steps));
    if (dirs & BS_DIR_SE)
        up = _mm256_or_si256(up, flank16(mine, theirs, -1, -1, steps));
    if (dirs & BS_DIR_SW)
        up = _mm256_or_si256(up, flank16(mine, theirs, -1, 1, steps));
    if (dirs & BS_DIR_E)
        side = _mm256_or_si256(side, flank16(mine, theirs, 0, -1, steps));
    if (dirs & BS_DIR_W)
        side = _mm256_or_si256(side, east16(mine, theirs));
    ymm all = _mm256_or_si256(_mm256_or_si256(rows16(down, 1), rows16(up, -1)), side);
    return _mm256_and_si256(all, empty);
}

/* The same for two positions at once, operation by operation, so that the
 * two dependency chains interleave in the processor's window. */
typedef struct {
    ymm a, b;
} ymm2;

BS_INLINE ymm2 and2(ymm2 x, ymm2 y)
{
    return (ymm2){_mm256_and_si256(x.a, y.a), _mm256_and_si256(x.b, y.b)};
}

BS_INLINE ymm2 or2(ymm2 x, ymm2 y)
{
    return (ymm2){_mm256_or_si256(x.a, y.a), _mm256_or_si256(x.b, y.b)};
}

BS_INLINE ymm2 rows2(ymm2 x, int k)
{
    return (ymm2){rows16(x.a, k), rows16(x.b, k)};
}

BS_INLINE ymm2 cols2(ymm2 x, int k)
{
    return (ymm2){cols16(x.a, k), cols16(x.b, k)};
}

BS_INLINE ymm2 step2(ymm2 x, int dr, int dc, int k)
{
    return cols2(rows2(x, dr * k), dc * k);
}

BS_INLINE ymm2 flank2(ymm2 mine, ymm2 theirs, int dr, int dc, int steps)
{
    ymm2 g = or2(mine, and2(theirs, step2(mine, dr, dc, 1)));
    if (steps > 1) {
        ymm2 p = and2(theirs, step2(theirs, dr, dc, 1));
        g = or2(g, and2(p, step2(g, dr, dc, 2)));
        if (steps > 2) {
            p = and2(p, step2(p, dr, dc, 2));
            g = or2(g, and2(p, step2(g, dr, dc, 4)));
            if (steps > 3) {
                p = and2(p, step2(p, dr, dc, 4));
                g = or2(g, and2(p, step2(g, dr, dc, 8)));
            }
        }
    }
    return cols2(and2(g, theirs), dc);
}

BS_INLINE ymm2 moves2_all(ymm2 mine, ymm2 theirs, ymm2 empty, int steps)
{
    ymm2 down = or2(or2(flank2(mine, theirs, 1, -1, steps), flank2(mine, theirs, 1, 0, steps)),
                    flank2(mine, theirs, 1, 1, steps));
    ymm2 up = or2(or2(flank2(mine, theirs, -1, -1, steps), flank2(mine, theirs, -1, 0, steps)),
                  flank2(mine, theirs, -1, 1, steps));
    ymm2 east = {east16(mine.a, theirs.a), east16(mine.b, theirs.b)};
    ymm2 side = or2(flank2(mine, theirs, 0, -1, steps), east);
    return and2(or2(or2(rows2(down, 1), rows2(up, -1)), side), empty);
}

/* moves2_all with the steps of each line direction: sh along rows, sv
 * along columns, the smaller along diagonals (not constants: a branch a
 * doubling step). */
BS_INLINE ymm2 moves2_axes(ymm2 mine, ymm2 theirs, ymm2 empty, int sh, int sv)
{
    int sd = sh < sv ? sh : sv;
    ymm2 down = or2(or2(flank2(mine, theirs, 1, -1, sd), flank2(mine, theirs, 1, 0, sv)),
                    flank2(mine, theirs, 1, 1, sd));
    ymm2 up = or2(or2(flank2(mine, theirs, -1, -1, sd), flank2(mine, theirs, -1, 0, sv)),
                  flank2(mine, theirs, -1, 1, sd));
    ymm2 east = {east16(mine.a, theirs.a), east16(mine.b, theirs.b)};
    ymm2 side = or2(flank2(mine, theirs, 0, -1, sh), east);
    return and2(or2(or2(rows2(down, 1), rows2(up, -1)), side), empty);
}

BS_INLINE int popcount256(ymm x)
{
    return __builtin_popcountll((uint64_t)_mm256_extract_epi64(x, 0)) +
           __builtin_popcountll((uint64_t)_mm256_extract_epi64(x, 1)) +
           __builtin_popcountll((uint64_t)_mm256_extract_epi64(x, 2)) +
           __builtin_popcountll((uint64_t)_mm256_extract_epi64(x, 3));
}

/* Doubling steps for runs of at most `run` discs. */
BS_INLINE int steps_for_run(int run)
{
    return run <= 1 ? 1 : run <= 3 ? 2 : run <= 7 ? 3 : 4;
}

/* The moves of mine against theirs onto empty along dirs (0: any empty
 * cell); no run of theirs between a move and a disc of mine is longer than
 * `run`. */
BS_INLINE ymm moves16_avx2(ymm mine, ymm theirs, ymm empty, unsigned dirs, int run)
{
    int steps = steps_for_run(run);
    if (dirs == BS_DIRS_ALL) {
        switch (steps) {
        case 1: return moves16_all(mine, theirs, empty, 1);
        case 2: return moves16_all(mine, theirs, empty, 2);
        case 3: return moves16_all(mine, theirs, empty, 3);
        default: return moves16_all(mine, theirs, empty, 4);
        }
    }
    if (dirs == 0)
        return empty;
    switch (steps) {
    case 1: return moves16_dirs(mine, theirs, empty, dirs, 1);
    case 2: return moves16_dirs(mine, theirs, empty, dirs, 2);
    case 3: return moves16_dirs(mine, theirs, empty, dirs, 3);
    default: return moves16_dirs(mine, theirs, empty, dirs, 4);
    }
}

/* The rows and columns the discs of `occupied` span (top, bottom, left,
 * right; top > bottom when there is none). A run of theirs and the disc of
 * mine closing it lie on one line, so the run is shorter than the larger
 * span: that bounds the fill steps. */
struct box {
    int top, bottom, left, right;
};

BS_INLINE struct box box16(ymm occupied)
{
    struct box b;
    uint32_t rows = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(occupied, _mm256_setzero_si256()));
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(occupied), _mm256_extracti128_si256(occupied, 1));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0xb1));
    uint32_t cols = (uint32_t)_mm_cvtsi128_si32(x);
    cols = (cols | cols >> 16) & 0xffffu;
    if (!rows) {
        b.top = 16;
        b.bottom = b.left = b.right = -1;
        return b;
    }
    b.top = __builtin_ctz(rows) >> 1;
    b.bottom = (31 - __builtin_clz(rows)) >> 1;
    b.left = __builtin_ctz(cols);
    b.right = 31 - __builtin_clz(cols);
    return b;
}

/* The longest run the box allows once a disc is added at (r, c), at most
 * max_run. */
BS_INLINE int box_run(struct box b, int r, int c, int max_run)
{
    int top = r < b.top ? r : b.top, bottom = r > b.bottom ? r : b.bottom;
    int left = c < b.left ? c : b.left, right = c > b.right ? c : b.right;
    int span = bottom - top > right - left ? bottom - top : right - left; /* larger span - 1 */
    return span < max_run ? span : max_run;
}

/* The doubling steps the box allows along rows (*sh) and columns (*sv)
 * once a disc is added at (r, c): a run of theirs and the disc of mine
 * closing it lie on one line inside the box, so a row's run is shorter than
 * the box's width, a column's than its height and a diagonal's than both. */
BS_INLINE void box_steps(struct box b, int r, int c, int max_run, int *sh, int *sv)
{
    int top = r < b.top ? r : b.top, bottom = r > b.bottom ? r : b.bottom;
    int left = c < b.left ? c : b.left, right = c > b.right ? c : b.right;
    int h = right - left < max_run ? right - left : max_run, v = bottom - top < max_run ? bottom - top : max_run;
    *sh = steps_for_run(h);
    *sv = steps_for_run(v);
}

/* Sliding tables: 16 lanes loaded from DIAG16 + (c - r + 15) have bit
 * c + (i - r) in lane i (the cells of the down-right diagonal through (r, c)),
 * from ANTI16 + (30 - r - c) bit r + c - i (the down-left one), from ROW16 +
 * (15 - r) all ones in lane r alone. Zero where the line leaves the board. */
static const uint16_t DIAG16[46] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x0001, 0x0002, 0x0004, 0x0008, 0x0010, 0x0020, 0x0040, 0x0080,
    0x0100, 0x0200, 0x0400, 0x0800, 0x1000, 0x2000, 0x4000, 0x8000,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const uint16_t ANTI16[46] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0x8000, 0x4000, 0x2000, 0x1000, 0x0800, 0x0400, 0x0200, 0x0100,
    0x0080, 0x0040, 0x0020, 0x0010, 0x0008, 0x0004, 0x0002, 0x0001,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const uint16_t ROW16[31] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xffff,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

/* Flips along four lines at once: bits 16k..16k+15 of m and t hold line k
 * (cell i at bit 16k + i), P has the played cell's bit in every line; `up`
 * and `down` are all ones in the lines where flipping toward higher and
 * lower bits is on. No carry or borrow crosses from one line to the next.
 * Toward higher bits: one added at the cell above p runs through the
 * opponent's discs (bit 15 left out, so the carry stops there) onto the
 * first other cell, which closes the line when it is ours. Toward lower
 * bits: the highest cell under p that is not the opponent's, found by
 * smearing downward (masked to the cells under p) and keeping the top bit. */
#define LINES_ONES 0x0001000100010001ull
#define LINES_LOW15 0x7fff7fff7fff7fffull
#define LINES_TOP 0x8000800080008000ull

BS_INLINE uint64_t lines_flips(uint64_t m, uint64_t t, uint64_t P, uint64_t up, uint64_t down)
{
    uint64_t above = (P << 1) & ~LINES_ONES; /* none when p is 15 */
    uint64_t hi = ((t & LINES_LOW15) + above) & m;
    uint64_t closed = (hi + LINES_LOW15) & LINES_TOP; /* top bit of the lines where hi is set */
    uint64_t f = ((hi | LINES_TOP) - above) & (closed - (closed >> 15)) & LINES_LOW15;
    uint64_t below = P - LINES_ONES;
    uint64_t x = ~t & below;
    x |= (x >> 1) & below & 0x7fff7fff7fff7fffull;
    x |= (x >> 2) & below & 0x3fff3fff3fff3fffull;
    x |= (x >> 4) & below & 0x0fff0fff0fff0fffull;
    x |= (x >> 8) & below & 0x00ff00ff00ff00ffull;
    uint64_t lo = x & ~(x >> 1) & m;
    uint64_t g = (P - (lo << 1)) & ~P;
    return (f & up) | (g & down);
}

/* Two 16-lane masks (all ones or zero per lane) as one 32-bit word: lane i
 * of a at bit i, of b at bit 16 + i. */
BS_INLINE uint32_t two_lines(ymm a, ymm b)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xd8));
}

/* Lanes all ones where bit i of line k of f is set (k = 1, 2, 3). */
BS_INLINE ymm spread_line(ymm f, int k)
{
    const ymm bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 0x4000, -32768);
    ymm x = _mm256_shuffle_epi8(f, _mm256_set1_epi16((short)(2 * k | (2 * k + 1) << 8)));
    return _mm256_cmpeq_epi16(_mm256_and_si256(x, bit), bit);
}

/* The mover at (r, c) on mine/theirs (rows also in mrow/trow): the new
 * planes of the mover (*m2) and the opponent (*t2). The four lines through
 * the cell go into one 64-bit word per side (row, column, diagonal,
 * anti-diagonal; see lines_flips) and the flips come back into lanes. */
BS_INLINE void play16(const struct w16 *w, ymm mine, ymm theirs, const uint16_t *mrow, const uint16_t *trow,
                      int r, int c, ymm *m2, ymm *t2)
{
    const ymm zero = _mm256_setzero_si256();
    ymm col = _mm256_set1_epi16((short)(1u << c));
    ymm diag = _mm256_loadu_si256((const ymm *)(DIAG16 + (c - r + 15)));
    ymm anti = _mm256_loadu_si256((const ymm *)(ANTI16 + (30 - r - c)));
    ymm row = _mm256_loadu_si256((const ymm *)(ROW16 + (15 - r)));
    /* lanes all ones where the line's cell is not the side's */
    uint32_t mcd = ~two_lines(_mm256_cmpeq_epi16(_mm256_and_si256(mine, col), zero),
                              _mm256_cmpeq_epi16(_mm256_and_si256(mine, diag), zero));
    uint32_t tcd = ~two_lines(_mm256_cmpeq_epi16(_mm256_and_si256(theirs, col), zero),
                              _mm256_cmpeq_epi16(_mm256_and_si256(theirs, diag), zero));
    uint32_t anti2 = ~two_lines(_mm256_cmpeq_epi16(_mm256_and_si256(mine, anti), zero),
                                _mm256_cmpeq_epi16(_mm256_and_si256(theirs, anti), zero));
    uint64_t m = mrow[r] | (uint64_t)mcd << 16 | (uint64_t)(anti2 & 0xffffu) << 48;
    uint64_t t = trow[r] | (uint64_t)tcd << 16 | (uint64_t)(anti2 >> 16) << 48;
    uint64_t P = (uint64_t)(1u << c) | (uint64_t)(1u << r) * 0x0001000100010000ull;
    ymm f = _mm256_set1_epi64x((long long)lines_flips(m, t, P, w->up, w->down));
    ymm flips = _mm256_or_si256(
        _mm256_or_si256(_mm256_and_si256(spread_line(f, 1), col), _mm256_and_si256(spread_line(f, 2), diag)),
        _mm256_or_si256(_mm256_and_si256(spread_line(f, 3), anti),
                        _mm256_and_si256(row, _mm256_shuffle_epi8(f, _mm256_set1_epi16(0x0100)))));
    *m2 = _mm256_or_si256(_mm256_or_si256(mine, flips), _mm256_and_si256(row, col));
    *t2 = _mm256_andnot_si256(flips, theirs);
}

BS_INLINE uint64_t count_or_pass(ymm moves)
{
    uint64_t count = (uint64_t)popcount256(moves);
    return count + (count == 0);
}

union rows16 {
    ymm v;
    uint16_t row[16];
    uint64_t word[4];
};

/* The leaves below a node two plies above them, every direction legal:
 * children played and counted two at a time (see ymm2). */
static uint64_t leaf_pairs16(const struct w16 *w, ymm mine, ymm theirs, const union rows16 *m,
                             const union rows16 *t, const union rows16 *mv, struct box box)
{
    int list[256], count = 0;
    for (int k = 0; k < 4; k++)
        for (uint64_t bits = mv->word[k]; bits; bits &= bits - 1)
            list[count++] = 64 * k + __builtin_ctzll(bits);
    uint64_t leaves = 0;
    int i = 0;
    for (; i + 1 < count; i += 2) {
        int r1 = list[i] >> 4, c1 = list[i] & 15, r2 = list[i + 1] >> 4, c2 = list[i + 1] & 15;
        ymm2 m2, t2;
        play16(w, mine, theirs, m->row, t->row, r1, c1, &m2.a, &t2.a);
        play16(w, mine, theirs, m->row, t->row, r2, c2, &m2.b, &t2.b);
        ymm2 occupied = or2(m2, t2);
        if (!_mm256_testz_si256(_mm256_or_si256(occupied.a, occupied.b), w->ring)) {
            leaves += perft16_avx2(w, t2.a, m2.a, 1) + perft16_avx2(w, t2.b, m2.b, 1);
            continue;
        }
        ymm2 empty = {_mm256_andnot_si256(occupied.a, w->playable), _mm256_andnot_si256(occupied.b, w->playable)};
        int sh1, sv1, sh2, sv2;
        box_steps(box, r1, c1, w->max_run, &sh1, &sv1);
        box_steps(box, r2, c2, w->max_run, &sh2, &sv2);
        int sh = sh1 > sh2 ? sh1 : sh2, sv = sv1 > sv2 ? sv1 : sv2;
        ymm2 moves;
        if (sh != sv) {
            moves = moves2_axes(t2, m2, empty, sh, sv);
        } else {
            switch (sh) {
            case 1: moves = moves2_all(t2, m2, empty, 1); break;
            case 2: moves = moves2_all(t2, m2, empty, 2); break;
            case 3: moves = moves2_all(t2, m2, empty, 3); break;
            default: moves = moves2_all(t2, m2, empty, 4); break;
            }
        }
        leaves += count_or_pass(moves.a) + count_or_pass(moves.b);
    }
    if (i < count) {
        int r = list[i] >> 4, c = list[i] & 15;
        ymm m2, t2;
        play16(w, mine, theirs, m->row, t->row, r, c, &m2, &t2);
        ymm occupied = _mm256_or_si256(m2, t2);
        if (!_mm256_testz_si256(occupied, w->ring))
            return leaves + perft16_avx2(w, t2, m2, 1);
        ymm empty = _mm256_andnot_si256(occupied, w->playable);
        leaves += count_or_pass(moves16_avx2(t2, m2, empty, BS_DIRS_ALL, box_run(box, r, c, w->max_run)));
    }
    return leaves;
}

uint64_t perft16_avx2(const struct w16 *w, ymm mine, ymm theirs, int depth)
{
    ymm occupied = _mm256_or_si256(mine, theirs);
    if (!_mm256_testz_si256(occupied, w->ring))
        return window_escape(w, mine, theirs, depth);
    struct box box = box16(occupied);
    int run = box.bottom - box.top > box.right - box.left ? box.bottom - box.top : box.right - box.left;
    run = run < w->max_run ? run : w->max_run;
    ymm empty = _mm256_andnot_si256(occupied, w->playable);
    ymm moves = moves16_avx2(mine, theirs, empty, w->legal, run);
    if (_mm256_testz_si256(moves, moves)) {
        if (depth == 1)
            return 1;
        ymm reply = moves16_avx2(theirs, mine, empty, w->legal, run);
        return _mm256_testz_si256(reply, reply) ? 1 : perft16_avx2(w, theirs, mine, depth - 1);
    }
    if (depth == 1)
        return (uint64_t)popcount256(moves);
    union rows16 m, t, mv;
    m.v = mine;
    t.v = theirs;
    mv.v = moves;
    uint64_t leaves = 0;
    if (depth == 2 && w->legal == BS_DIRS_ALL)
        return leaf_pairs16(w, mine, theirs, &m, &t, &mv, box);
    for (int k = 0; k < 4; k++) {
        for (uint64_t bits = mv.word[k]; bits; bits &= bits - 1) {
            int index = 64 * k + __builtin_ctzll(bits), r = index >> 4, c = index & 15;
            ymm m2, t2;
            play16(w, mine, theirs, m.row, t.row, r, c, &m2, &t2);
            if (depth == 2 && _mm256_testz_si256(_mm256_or_si256(m2, t2), w->ring)) {
                ymm e2 = _mm256_andnot_si256(_mm256_or_si256(m2, t2), w->playable);
                leaves += count_or_pass(moves16_avx2(t2, m2, e2, w->legal, box_run(box, r, c, w->max_run)));
            } else {
                leaves += perft16_avx2(w, t2, m2, depth - 1);
            }
        }
    }
    return leaves;
}

void moves16_rows(int n, const uint32_t *mine, const uint32_t *theirs, const uint32_t *empty, unsigned dirs,
                  uint32_t *moves)
{
    union {
        ymm v;
        uint16_t row[16];
    } out;
    out.v = moves16_avx2(load16(mine, 0, n, 0), load16(theirs, 0, n, 0), load16(empty, 0, n, 0), dirs, n - 2);
    for (int i = 0; i < n; i++)
        moves[i] = out.row[i];
}

BS_WIDE_AVX2_END

#endif /* BS_WIDE_AVX2 */
