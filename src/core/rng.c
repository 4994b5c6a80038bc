/* rng.c - xoshiro256** seeded through splitmix64 (Blackman and Vigna). */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void bs_rng_seed(bs_rng *g, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        g->s[i] = splitmix64(&seed);
}

uint64_t bs_rng_next(bs_rng *g)
{
    uint64_t *s = g->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t bs_rng_below(bs_rng *g, uint64_t bound)
{
    if (bound == 0)
        return 0;
    for (;;) {
        uint64_t x = bs_rng_next(g);
        /* values below 2^64 mod bound would bias; that remainder is below
         * bound, so it needs working out only for the rare x < bound */
        if (x >= bound || x >= -bound % bound)
            return x % bound;
    }
}
