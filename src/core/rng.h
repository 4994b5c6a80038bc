/* rng.h - the engine's own seeded generator (xoshiro256**), so games replay anywhere. */
#ifndef BS_RNG_H
#define BS_RNG_H

#include <stdint.h>

typedef struct bs_rng {
    uint64_t s[4];
} bs_rng;

void bs_rng_seed(bs_rng *g, uint64_t seed);

/* The next draw is inline: it is made once a move by playouts and by
 * rng:random, where a call costs as much as the work. */
static inline uint64_t bs_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t bs_rng_next(bs_rng *g)
{
    uint64_t *s = g->s;
    uint64_t result = bs_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = bs_rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, bound), without modulo bias; bound 0 gives 0. */
uint64_t bs_rng_below(bs_rng *g, uint64_t bound);

/* The same, inline: for rng:random, where the call costs as much as the
 * draw (inlined into the C playout loop it made that loop ~3 % slower). */
static inline uint64_t bs_rng_below_inline(bs_rng *g, uint64_t bound)
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

#endif
