/* rng.c - xoshiro256** seeded through splitmix64 (Blackman and Vigna). */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void bs_rng_seed(bs_rng *g, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        g->s[i] = splitmix64(&seed);
}

uint64_t bs_rng_below(bs_rng *g, uint64_t bound) { return bs_rng_below_inline(g, bound); }
