/* check.h - a tiny test harness: CHECK records failures, check_summary prints the tally. */
#ifndef BS_CHECK_H
#define BS_CHECK_H

#include <stdio.h>

typedef struct check_tally {
    int passed, failed;
} check_tally;

#define CHECK(tally, cond)                                                       \
    do {                                                                         \
        if (cond) {                                                              \
            (tally)->passed++;                                                   \
        } else {                                                                 \
            (tally)->failed++;                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

static inline int check_summary(const check_tally *t)
{
    printf("%d passed, %d failed\n", t->passed, t->failed);
    return t->failed ? 1 : 0;
}

#endif
