/* budget.h - the host's budgets: a limiting allocator and a count hook for the windows
 * boardscript.host.call opens around calls into a user's file. */
#ifndef BS_HOST_BUDGET_H
#define BS_HOST_BUDGET_H

#include <stddef.h>
#include <time.h>

#include <lua.h>

/*
 * Small blocks: the Lua heap's blocks of at most BS_POOL_MAX bytes (tables,
 * their array parts, closures, short strings: most of what a rule set's hooks
 * allocate) come from free lists by size class, 16 bytes apart, carved from
 * chunks the pool mallocs and frees only in bs_budget_close. A block's class
 * is a function of its size alone (Lua passes the old size back), so a block
 * changing class is copied. Under AddressSanitizer (the sanitize build)
 * every block is malloc's own, so that a misuse of a freed Lua block is
 * still caught there.
 */
#define BS_POOL_GRAIN 16
#define BS_POOL_MAX 256
#define BS_POOL_CHUNK (64 * 1024)
struct bs_pool {
    void *free[BS_POOL_MAX / BS_POOL_GRAIN + 1]; /* by class: size rounded up to the grain, / grain */
    char *next, *end;                           /* the rest of the newest chunk */
    void *chunks;                               /* every chunk, linked by its first word */
};

/*
 * main() owns one struct budget and hands it to the allocator. Lua code
 * opens a window around a call into a user's file (boardscript.host.call,
 * used by boardscript.limits): during the window the Lua heap may grow to
 * `limit` bytes (what it held when the window opened plus the budget) and
 * the processor clock may reach `deadline`. A refused allocation makes Lua
 * run an emergency collection and ask again with the same request; only a
 * second refusal of it counts (`refused`), or a refusal that the call
 * failed after: garbage never fails a call. A count hook, set on the
 * calling thread for the window and inherited by every coroutine created
 * in one, raises once the window is over budget and then fires at every
 * instruction, so a user's own pcall cannot keep the call alive. */
struct budget {
    size_t in_use;    /* bytes of the Lua heap */
    size_t limit;     /* heap limit during the window (has_limit) */
    int has_limit;
    clock_t deadline; /* processor clock limit during the window (has_deadline) */
    int has_deadline;
    int active;       /* a window is open */
    int refused;      /* the window's heap limit refused a request twice */
    int expired;      /* the window's deadline passed */
    const void *pending_ptr; /* the last refused request, to spot Lua's retry */
    size_t pending_size;
    int count;        /* instructions between two hook calls */
    struct bs_pool pool; /* the small blocks (below) */
};

/* The allocator main() gives lua_newstate, with its struct budget as ud. */
void *bs_budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Frees the pool's chunks; after lua_close. */
void bs_budget_close(struct budget *b);

/* Sets the budget functions of boardscript.host (memory, active, remaining,
 * watch, call) in the table on top of the stack. */
void bs_budget_functions(lua_State *L);

#endif
