/* rng.h - the engine's own seeded generator (xoshiro256**), so games replay anywhere. */
#ifndef BS_RNG_H
#define BS_RNG_H

#include <stdint.h>

typedef struct bs_rng {
    uint64_t s[4];
} bs_rng;

void bs_rng_seed(bs_rng *g, uint64_t seed);
uint64_t bs_rng_next(bs_rng *g);
/* Uniform in [0, bound), without modulo bias; bound 0 gives 0. */
uint64_t bs_rng_below(bs_rng *g, uint64_t bound);

#endif
