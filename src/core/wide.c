/* wide.c - moves on N x N boards (N <= 26; see wide.h): the AVX2 path
 * (wide_avx2.c) for boards up to 16 x 16 where the processor has it, else
 * the every-size generator (wide_impl.h), compiled twice (AVX2 and
 * baseline). */
#include "wide_impl.h"

BS_CLONES
void bs_wide_moves(int n, const uint32_t *mine, const uint32_t *theirs, const uint32_t *empty,
                   unsigned legal_dirs, uint32_t *moves)
{
#if defined(BS_WIDE_AVX2)
    if (n <= 16 && bs_avx2_available()) {
        moves16_rows(n, mine, theirs, empty, legal_dirs, moves);
        return;
    }
#endif
    if (n <= 16) {
        v16 m = {0}, t = {0}, e = {0};
        for (int i = 0; i < n; i++) {
            m[i] = (uint16_t)mine[i];
            t[i] = (uint16_t)theirs[i];
            e[i] = (uint16_t)empty[i];
        }
        v16 out = moves16(n, m, t, e, legal_dirs);
        for (int i = 0; i < n; i++)
            moves[i] = out[i];
        return;
    }
    v8 m[4], t[4], e[4], out[4];
    memset(m, 0, sizeof m);
    memset(t, 0, sizeof t);
    memset(e, 0, sizeof e);
    memcpy(m, mine, sizeof(uint32_t) * (size_t)n);
    memcpy(t, theirs, sizeof(uint32_t) * (size_t)n);
    memcpy(e, empty, sizeof(uint32_t) * (size_t)n);
    moves_planes(4, n, m, t, e, legal_dirs, out);
    memcpy(moves, out, sizeof(uint32_t) * (size_t)n);
}
