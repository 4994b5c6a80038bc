/* board.c - cell access, counts, equality and hashing for bitset-plane boards. */
#include "board.h"

#include <string.h>

static int plane_of(int cell) { return cell - 1; }

int bs_board_init(bs_board *b, int n)
{
    return bs_board_init_shape(b, n, n);
}

int bs_board_init_shape(bs_board *b, int rows, int cols)
{
    if (!b || rows < 1 || rows > BS_MAX_N || cols < 1 || cols > BS_MAX_N)
        return BS_EINVAL;
    memset(b, 0, sizeof *b);
    b->n = rows > cols ? rows : cols;
    b->rows = rows;
    b->cols = cols;
    for (int r = 0; r < b->n; r++)
        b->plane[2][r] = bs_board_margin(b, r);
    return BS_OK;
}

int bs_board_get(const bs_board *b, int r, int c, int *cell)
{
    if (!b || !cell || !bs_board_on(b, r, c))
        return BS_EINVAL;
    *cell = bs_board_cell(b, r, c);
    return BS_OK;
}

int bs_board_set(bs_board *b, int r, int c, int cell)
{
    if (!b || !bs_board_on(b, r, c) || cell < BS_EMPTY || cell > BS_BLOCK)
        return BS_EINVAL;
    for (int p = 0; p < 3; p++)
        b->plane[p][r] &= ~(1u << c);
    if (cell != BS_EMPTY)
        b->plane[plane_of(cell)][r] |= 1u << c;
    return BS_OK;
}

int bs_board_cells(const bs_board *b, int cell, bs_set *out)
{
    if (!b || !out || cell < BS_EMPTY || cell > BS_BLOCK)
        return BS_EINVAL;
    bs_set_init(out, b->n);
    uint32_t full = bs_row_mask(b->n);
    for (int r = 0; r < b->n; r++) {
        if (cell == BS_EMPTY)
            out->row[r] = full & ~(b->plane[0][r] | b->plane[1][r] | b->plane[2][r]);
        else if (cell == BS_BLOCK)
            out->row[r] = b->plane[2][r] & ~bs_board_margin(b, r);
        else
            out->row[r] = b->plane[plane_of(cell)][r];
    }
    return BS_OK;
}

int bs_board_count(const bs_board *b, int cell)
{
    bs_set s;
    int status = bs_board_cells(b, cell, &s);
    return status < 0 ? status : bs_set_count(&s);
}

bool bs_board_equal(const bs_board *a, const bs_board *b)
{
    if (a->n != b->n || a->rows != b->rows || a->cols != b->cols)
        return false;
    for (int p = 0; p < 3; p++)
        if (memcmp(a->plane[p], b->plane[p], sizeof(uint32_t) * (size_t)a->n) != 0)
            return false;
    return true;
}

uint64_t bs_board_hash(const bs_board *b)
{
    uint64_t h = bs_mix64((uint64_t)b->n);
    for (int p = 0; p < 3; p++)
        for (int r = 0; r < b->n; r++)
            h = bs_mix64(h ^ ((uint64_t)b->plane[p][r] << 8 | (uint64_t)(p * BS_MAX_N + r)));
    return h;
}

bool bs_board_valid(const bs_board *b)
{
    if (!b || b->rows < 1 || b->rows > BS_MAX_N || b->cols < 1 || b->cols > BS_MAX_N ||
        b->n != (b->rows > b->cols ? b->rows : b->cols))
        return false;
    uint32_t full = bs_row_mask(b->n);
    for (int r = 0; r < BS_MAX_N; r++) {
        uint32_t x = b->plane[0][r], y = b->plane[1][r], z = b->plane[2][r];
        uint32_t allowed = r < b->n ? full : 0, margin = r < b->n ? bs_board_margin(b, r) : 0;
        if ((x | y | z) & ~allowed || (x & y) || (x & z) || (y & z) || (z & margin) != margin)
            return false;
    }
    return true;
}

void bs_set_init(bs_set *s, int n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
}

bool bs_set_has(const bs_set *s, int r, int c)
{
    return r >= 0 && c >= 0 && r < s->n && c < s->n && (s->row[r] >> c & 1u);
}

void bs_set_add(bs_set *s, int r, int c)
{
    if (r >= 0 && c >= 0 && r < s->n && c < s->n)
        s->row[r] |= 1u << c;
}

int bs_set_count(const bs_set *s)
{
    int total = 0;
    for (int r = 0; r < s->n; r++)
        total += __builtin_popcount(s->row[r]);
    return total;
}

bool bs_set_empty(const bs_set *s)
{
    for (int r = 0; r < s->n; r++)
        if (s->row[r])
            return false;
    return true;
}

bool bs_set_next(const bs_set *s, int *index)
{
    int start = *index + 1;
    for (int r = start / BS_MAX_N; r < s->n; r++) {
        uint32_t bits = s->row[r];
        if (r == start / BS_MAX_N)
            bits &= ~bs_row_mask(start % BS_MAX_N);
        if (bits) {
            *index = r * BS_MAX_N + __builtin_ctz(bits);
            return true;
        }
    }
    return false;
}

uint64_t bs_pack64(const uint32_t rows[BS_MAX_N])
{
    uint64_t bits = 0;
    for (int r = 0; r < 8; r++)
        bits |= (uint64_t)(rows[r] & 0xffu) << (8 * r);
    return bits;
}

void bs_unpack64(uint64_t bits, uint32_t rows[BS_MAX_N])
{
    for (int r = 0; r < 8; r++)
        rows[r] = (uint32_t)(bits >> (8 * r)) & 0xffu;
}
