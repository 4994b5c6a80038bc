/* common.h - status codes and small helpers shared by every core module. */
#ifndef BS_COMMON_H
#define BS_COMMON_H

#include <stddef.h>
#include <stdint.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

/* Every core function that can fail returns one of these (0 = success).
 * The binding turns a negative code into a Lua error naming the argument. */
enum bs_status {
    BS_OK = 0,
    BS_EINVAL = -1,   /* an argument is out of range or malformed */
    BS_ENOMEM = -2,   /* an allocation failed */
    BS_EILLEGAL = -3, /* a well-formed move that the rules do not allow */
    BS_ESTATE = -4    /* the object is in the wrong state (e.g. nothing to undo) */
};

/* A searcher's table of `bytes`, zeroed (free it with free; NULL: no
 * memory). One of at least `huge_from` bytes that is a whole number of
 * 2 MiB pages is aligned to them and, on Linux, asks for transparent huge
 * pages: a search probes its table at random, and with 4 KiB pages most
 * probes also miss the TLB (a fifth of a dots solve's time went to faults
 * and page walks; Connect Four's search ran at 2.3 M nodes/s with small
 * pages, 3.5 M with huge ones). It is zeroed here, so all of it is
 * resident at once; below `huge_from` it comes from calloc, whose
 * untouched pages cost nothing. table.c. */
void *bs_table_alloc(size_t bytes, size_t huge_from);

/* One step of a 64-bit mixer (splitmix64's finaliser): used for hashes. */
static inline uint64_t bs_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* The k-th (0-based) set bit of m, which has more than k. */
static inline int bs_nth_bit(uint64_t m, int k)
{
#if defined(__BMI2__)
    return (int)__builtin_ctzll(_pdep_u64(1ULL << k, m));
#else
    while (k-- > 0)
        m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

#endif
