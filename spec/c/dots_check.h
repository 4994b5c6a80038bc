/* dots_check.h - what the dots C tests share: a CHECK macro with a printf
 * message and a deterministic generator (define DOTS_CHECK_SEED first), so a
 * failure replays. */
#ifndef BS_DOTS_CHECK_H
#define BS_DOTS_CHECK_H

#include <stdint.h>
#include <stdio.h>

static int passed, failed;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (cond) {                                                       \
            passed++;                                                     \
        } else {                                                          \
            failed++;                                                     \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);        \
            printf(__VA_ARGS__);                                          \
            printf("\n");                                                 \
        }                                                                 \
    } while (0)

static uint64_t rng_state = DOTS_CHECK_SEED;
static int rnd(int n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((rng_state >> 33) % (uint64_t)n);
}

#endif
