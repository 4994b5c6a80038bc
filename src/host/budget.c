/* budget.c - the host's budgets (see budget.h). */
#include "budget.h"

#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>


/* The registry key of the message a budget error carries (made once, so
 * raising it allocates nothing). */
static const char BUDGET_MESSAGE_KEY = 0;

#if defined(__SANITIZE_ADDRESS__)
#define BS_POOL_ON 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BS_POOL_ON 0
#endif
#endif
#ifndef BS_POOL_ON
#define BS_POOL_ON 1
#endif

/* The class of a block of `size` bytes, 0 when it is malloc's. */
static inline size_t pool_class(size_t size)
{
    return BS_POOL_ON && size <= BS_POOL_MAX ? (size + BS_POOL_GRAIN - 1) / BS_POOL_GRAIN : 0;
}

static void *pool_get(struct bs_pool *p, size_t cls)
{
    void *block = p->free[cls];
    if (block != NULL) {
        memcpy(&p->free[cls], block, sizeof block);
        return block;
    }
    size_t bytes = cls * BS_POOL_GRAIN;
    if ((size_t)(p->end - p->next) < bytes) {
        /* a new chunk; what is left of the old one goes to its free lists */
        while ((size_t)(p->end - p->next) >= BS_POOL_GRAIN) {
            size_t rest = (size_t)(p->end - p->next) / BS_POOL_GRAIN;
            if (rest > BS_POOL_MAX / BS_POOL_GRAIN)
                rest = BS_POOL_MAX / BS_POOL_GRAIN;
            memcpy(p->next, &p->free[rest], sizeof(void *));
            p->free[rest] = p->next;
            p->next += rest * BS_POOL_GRAIN;
        }
        char *chunk = malloc(BS_POOL_CHUNK);
        if (chunk == NULL)
            return NULL;
        memcpy(chunk, &p->chunks, sizeof(void *));
        p->chunks = chunk;
        p->next = chunk + BS_POOL_GRAIN; /* the link's grain */
        p->end = chunk + BS_POOL_CHUNK;
    }
    block = p->next;
    p->next += bytes;
    return block;
}

static inline void pool_put(struct bs_pool *p, size_t cls, void *block)
{
    memcpy(block, &p->free[cls], sizeof(void *));
    p->free[cls] = block;
}

void bs_budget_close(struct budget *b)
{
    void *chunk = b->pool.chunks;
    while (chunk != NULL) {
        void *next;
        memcpy(&next, chunk, sizeof next);
        free(chunk);
        chunk = next;
    }
    memset(&b->pool, 0, sizeof b->pool);
}

/* realloc, with the blocks of at most BS_POOL_MAX bytes from the pool. */
static void *pool_realloc(struct bs_pool *p, void *ptr, size_t old, size_t nsize)
{
    size_t from = ptr != NULL ? pool_class(old) : 0, to = pool_class(nsize);
    if (from == 0 && to == 0)
        return realloc(ptr, nsize);
    if (ptr != NULL && from == to)
        return ptr;
    void *block = to ? pool_get(p, to) : malloc(nsize);
    if (block == NULL)
        return NULL;
    if (ptr != NULL) {
        memcpy(block, ptr, old < nsize ? old : nsize);
        if (from)
            pool_put(p, from, ptr);
        else
            free(ptr);
    }
    return block;
}

void *bs_budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct budget *b = ud;
    size_t old = ptr != NULL ? osize : 0; /* for a new block osize is a type tag */
    if (nsize == 0) {
        size_t cls = ptr != NULL ? pool_class(old) : 0;
        if (cls)
            pool_put(&b->pool, cls, ptr);
        else
            free(ptr);
        b->in_use -= old;
        return NULL;
    }
    if (nsize > old && b->active && b->has_limit &&
        (b->in_use >= b->limit || nsize - old > b->limit - b->in_use)) {
        if (b->pending_ptr == ptr && b->pending_size == nsize)
            b->refused = 1; /* refused again after the emergency collection */
        b->pending_ptr = ptr;
        b->pending_size = nsize;
        return NULL;
    }
    void *block = pool_realloc(&b->pool, ptr, old, nsize);
    if (block == NULL)
        return NULL;
    b->in_use = b->in_use - old + nsize;
    if (nsize > old)
        b->pending_ptr = NULL, b->pending_size = 0;
    return block;
}

static struct budget *budget_of(lua_State *L)
{
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return ud;
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    struct budget *b = budget_of(L);
    if (!b->active) {
        if (lua_gethookcount(L) != b->count) /* back to the usual pace */
            lua_sethook(L, budget_hook, LUA_MASKCOUNT, b->count);
        return;
    }
    if (b->has_deadline && !b->expired && clock() >= b->deadline)
        b->expired = 1;
    if (b->refused || b->expired) {
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
        lua_rawgetp(L, LUA_REGISTRYINDEX, &BUDGET_MESSAGE_KEY);
        lua_error(L);
    }
}

/* host.memory() -> bytes the Lua heap holds now. */
static int host_memory(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)budget_of(L)->in_use);
    return 1;
}

/* host.active() -> whether a window is open, and "memory" or "time" when
 * it is over its budget already. */
static int host_active(lua_State *L)
{
    struct budget *b = budget_of(L);
    lua_pushboolean(L, b->active);
    if (b->active && (b->refused || b->expired)) {
        lua_pushstring(L, b->refused ? "memory" : "time");
        return 2;
    }
    return 1;
}

/* host.remaining() -> processor seconds left in the open window, or nil. */
static int host_remaining(lua_State *L)
{
    struct budget *b = budget_of(L);
    if (!b->active || !b->has_deadline)
        return 0;
    double left = (double)(b->deadline - clock()) / CLOCKS_PER_SEC;
    lua_pushnumber(L, left > 0 ? left : 0);
    return 1;
}

/* host.watch([count]): instructions between two checks of the count hook
 * in the windows host.call opens (default 1000). */
static int host_watch(lua_State *L)
{
    struct budget *b = budget_of(L);
    lua_Integer count = luaL_optinteger(L, 1, 1000);
    luaL_argcheck(L, count >= 1 && count <= 1000000000, 1, "a count from 1 expected");
    b->count = (int)count;
    return 0;
}

/* host.call(bytes, seconds, handler, f, ...): calls f(...) in a window
 * where the heap may grow by `bytes` and the processor clock may run
 * `seconds` (nil: no such limit), through lua_pcall with message handler
 * `handler` (nil: none). Returns true, nil, f's results; or false, reason,
 * error, where reason is "memory" or "time" when the call went over its
 * budget (also when it then returned normally) and nil otherwise. */
static int host_call(lua_State *L)
{
    struct budget *b = budget_of(L);
    luaL_argcheck(L, !b->active, 1, "a window is already open");
    lua_Integer bytes = luaL_opt(L, luaL_checkinteger, 1, -1);
    double seconds = luaL_opt(L, luaL_checknumber, 2, -1);
    if (!lua_isnil(L, 3))
        luaL_checktype(L, 3, LUA_TFUNCTION);
    luaL_checkany(L, 4);
    int nargs = lua_gettop(L) - 4;
    int handler = lua_isnil(L, 3) ? 0 : 3;
    if (b->count == 0)
        b->count = 1000;
    /* The hook is on the calling thread during the window only (a count
     * hook slows every instruction down); coroutines made in the window
     * inherit it and keep it. */
    lua_Hook saved_hook = lua_gethook(L);
    int saved_mask = lua_gethookmask(L), saved_count = lua_gethookcount(L);
    if (saved_hook == budget_hook)
        saved_hook = NULL, saved_mask = 0, saved_count = 0;
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, b->count);
    if (bytes > ((lua_Integer)1 << 50))
        bytes = (lua_Integer)1 << 50;
    if (seconds > 1e7)
        seconds = 1e7;
    b->has_limit = bytes >= 0;
    b->limit = b->in_use + (bytes > 0 ? (size_t)bytes : 0);
    b->has_deadline = seconds >= 0;
    b->deadline = clock() + (clock_t)(seconds > 0 ? seconds * CLOCKS_PER_SEC : 0);
    b->refused = b->expired = 0;
    b->pending_ptr = NULL;
    b->pending_size = 0;
    b->active = 1;
    int status = lua_pcall(L, nargs, LUA_MULTRET, handler);
    b->active = 0;
    lua_sethook(L, saved_hook, saved_mask, saved_count);
    /* A refusal nobody retried (lauxlib's buffers ask the allocator
     * directly) counts when the call failed after it. */
    int refused = b->refused || (status != LUA_OK && b->pending_size != 0);
    const char *reason = refused ? "memory" : (b->expired ? "time" : NULL);
    int nresults = lua_gettop(L) - 3;
    luaL_checkstack(L, 3, "host.call results");
    if (status == LUA_OK && reason == NULL) {
        lua_pushboolean(L, 1);
        lua_pushnil(L);
        lua_rotate(L, 4, 2);
        return nresults + 2;
    }
    lua_pushboolean(L, 0);
    if (reason != NULL)
        lua_pushstring(L, reason);
    else
        lua_pushnil(L);
    if (status == LUA_OK)
        lua_pushnil(L);
    else
        lua_pushvalue(L, 4); /* the error object */
    return 3;
}

void bs_budget_functions(lua_State *L)
{
    static const luaL_Reg functions[] = {
        {"memory", host_memory}, {"active", host_active}, {"remaining", host_remaining},
        {"watch", host_watch},   {"call", host_call},     {NULL, NULL},
    };
    lua_pushliteral(L, "budget exceeded (--max-memory or --max-seconds)");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &BUDGET_MESSAGE_KEY);
    luaL_setfuncs(L, functions, 0);
}
