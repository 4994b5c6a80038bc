/* board.h - R x C grid boards (R, C <= 26) held as bitset planes, and cell sets. */
#ifndef BS_BOARD_H
#define BS_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "common.h"

#define BS_MAX_N 26

/* Cell contents. BS_BLACK and BS_WHITE double as the two players. */
enum bs_cell { BS_EMPTY = 0, BS_BLACK = 1, BS_WHITE = 2, BS_BLOCK = 3 };

/* A set of cells: bit c of row[r] is cell (r, c), 0-based. Bits at or past
 * column n are always zero, as are rows at or past n. */
typedef struct bs_set {
    int n;
    uint32_t row[BS_MAX_N];
} bs_set;

/* Three planes (black, white, block) of the same shape as a bs_set. A cell is
 * in at most one plane; empty cells are in none. Plain data: copy to clone.
 * A rows x cols board is held as an n x n one, n = max(rows, cols), whose
 * cells past the last row or column (the margin) are in the block plane:
 * every capture path, search and evaluation treats them as the walls they
 * are, and only cell access, counts of blocks and shape checks know them
 * apart (bs_board_margin). On a square board rows = cols = n. */
typedef struct bs_board {
    int n;
    int rows, cols;
    uint32_t plane[3][BS_MAX_N];
} bs_board;

static inline bool bs_is_player(int p) { return p == BS_BLACK || p == BS_WHITE; }
static inline int bs_opponent(int p) { return BS_BLACK + BS_WHITE - p; }
static inline uint32_t bs_row_mask(int n) { return (uint32_t)((1ULL << n) - 1); }

int bs_board_init(bs_board *b, int n);
/* An empty rows x cols board (1..BS_MAX_N each), its margin blocked. */
int bs_board_init_shape(bs_board *b, int rows, int cols);
/* Row r's cells that are past the board's last column, or the whole row past its last row. */
static inline uint32_t bs_board_margin(const bs_board *b, int r)
{
    return r >= b->rows ? bs_row_mask(b->n) : bs_row_mask(b->n) & ~bs_row_mask(b->cols);
}
/* Whether (r, c), 0-based, is a cell of the board (not of its margin). */
static inline bool bs_board_on(const bs_board *b, int r, int c)
{
    return r >= 0 && c >= 0 && r < b->rows && c < b->cols;
}
int bs_board_get(const bs_board *b, int r, int c, int *cell);
/* The cell at (r, c), which must be on the board (bs_board_get checks
 * that first): a block over a white over a black disc, should planes overlap. */
static inline int bs_board_cell(const bs_board *b, int r, int c)
{
    uint32_t bit = 1u << c;
    return b->plane[2][r] & bit ? BS_BLOCK : b->plane[1][r] & bit ? BS_WHITE : b->plane[0][r] & bit ? BS_BLACK : BS_EMPTY;
}
int bs_board_set(bs_board *b, int r, int c, int cell);
/* Number of cells holding `cell`, or a negative status. */
int bs_board_count(const bs_board *b, int cell);
/* The cells holding `cell` (BS_EMPTY gives the empty cells). */
int bs_board_cells(const bs_board *b, int cell, bs_set *out);
bool bs_board_equal(const bs_board *a, const bs_board *b);
uint64_t bs_board_hash(const bs_board *b);
/* Sanity check for boards that came from outside: shape and disjoint planes. */
bool bs_board_valid(const bs_board *b);

void bs_set_init(bs_set *s, int n);
bool bs_set_has(const bs_set *s, int r, int c);
void bs_set_add(bs_set *s, int r, int c);
int bs_set_count(const bs_set *s);
bool bs_set_empty(const bs_set *s);
/* Iterates in row-major order: start with *index = -1; returns false at the end. */
bool bs_set_next(const bs_set *s, int *index);

/* The 8 x 8 fast path packs a plane into one word: bit 8*r + c is cell (r, c). */
uint64_t bs_pack64(const uint32_t rows[BS_MAX_N]);
void bs_unpack64(uint64_t bits, uint32_t rows[BS_MAX_N]);

#endif
