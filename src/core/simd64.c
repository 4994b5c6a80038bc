/* simd64.c - the 8 x 8 word path's entry points: moves and flips on packed
 * words, AVX2 where the CPU has it (simd64_impl.h), else the portable code
 * (capture.c); both give the same results. */
#include "simd64_impl.h"

bool bs_avx2_available(void)
{
    return avx2_usable();
}

bool bs_avx2_build_time(void)
{
#if defined(BS_AVX2_BUILD_TIME)
    return true;
#else
    return false;
#endif
}

uint64_t bs_moves64(uint64_t mine, uint64_t theirs, uint64_t empty)
{
    return avx2_usable() ? moves64_avx2(mine, theirs, empty) : bs_moves64_scalar(mine, theirs, empty);
}

uint64_t bs_flips64(uint64_t mine, uint64_t theirs, int square)
{
    return avx2_usable() ? flips64_avx2(mine, theirs, square) : bs_flips64_scalar(mine, theirs, square);
}
