/* table.c - the memory of the searchers' transposition tables (bs_table_alloc). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise */
#endif
#include "common.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

void *bs_table_alloc(size_t bytes, size_t huge_from)
{
    if (bytes < huge_from || bytes < HUGE_PAGE || bytes % HUGE_PAGE)
        return calloc(1, bytes);
    void *t = aligned_alloc(HUGE_PAGE, bytes);
    if (!t)
        return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(t, bytes, MADV_HUGEPAGE); /* only a hint: failing is fine */
#endif
    memset(t, 0, bytes);
    return t;
}
