/* budget.h - the host's budgets: a limiting allocator and a count hook for the windows
 * boardscript.host.call opens around calls into a user's file. */
#ifndef BS_HOST_BUDGET_H
#define BS_HOST_BUDGET_H

#include <stddef.h>
#include <time.h>

#include <lua.h>

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
};

/* The allocator main() gives lua_newstate, with its struct budget as ud. */
void *bs_budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Sets the budget functions of boardscript.host (memory, active, remaining,
 * watch, call) in the table on top of the stack. */
void bs_budget_functions(lua_State *L);

#endif
