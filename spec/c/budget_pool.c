/* budget_pool.c - the host allocator's small-block pool (src/host/budget.c):
 * blocks of every size, grown and shrunk across the size classes and across
 * BS_POOL_MAX, keep their bytes, never overlap, and the heap count returns to
 * zero; a refused growth under a window's limit changes nothing. Then a Lua
 * state on the allocator runs a script that makes and drops many tables and
 * strings. Linked with the host's budget.c and Lua (not a *_test.c: those
 * link the core alone). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "../../src/host/budget.h"
#include "check.h"

#define BLOCKS 3000

static uint32_t next_random(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(seed * 31u + i);
}

static int holds(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(seed * 31u + i))
            return 0;
    return 1;
}

static void blocks_keep_their_bytes(check_tally *t)
{
    struct budget b;
    memset(&b, 0, sizeof b);
    static unsigned char *block[BLOCKS];
    static size_t size[BLOCKS];
    static unsigned seed[BLOCKS];
    uint32_t r = 12345;
    int kept = 1, aligned = 1;
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < BLOCKS; i++) {
            size_t n = 1 + next_random(&r) % (round % 4 == 3 ? 700 : BS_POOL_MAX + 40);
            if (block[i] == NULL) {
                block[i] = bs_budget_alloc(&b, NULL, 5 /* a type tag */, n);
            } else {
                kept &= holds(block[i], size[i] < n ? size[i] : n, seed[i]);
                if (next_random(&r) % 3 == 0) {
                    bs_budget_alloc(&b, block[i], size[i], 0);
                    block[i] = NULL;
                    continue;
                }
                block[i] = bs_budget_alloc(&b, block[i], size[i], n);
            }
            if (block[i] == NULL) {
                kept = 0;
                continue;
            }
            aligned &= (uintptr_t)block[i] % 16 == 0;
            size[i] = n;
            seed[i] = next_random(&r);
            fill(block[i], n, seed[i]);
        }
        for (int i = 0; i < BLOCKS; i++) /* no block wrote over another */
            if (block[i] != NULL)
                kept &= holds(block[i], size[i], seed[i]);
    }
    CHECK(t, kept);
    CHECK(t, aligned);
    size_t total = 0;
    for (int i = 0; i < BLOCKS; i++)
        total += block[i] != NULL ? size[i] : 0;
    CHECK(t, b.in_use == total);
    for (int i = 0; i < BLOCKS; i++)
        if (block[i] != NULL)
            bs_budget_alloc(&b, block[i], size[i], 0);
    CHECK(t, b.in_use == 0);
    bs_budget_close(&b);
    CHECK(t, b.pool.chunks == NULL);
}

static void a_refusal_changes_nothing(check_tally *t)
{
    struct budget b;
    memset(&b, 0, sizeof b);
    unsigned char *p = bs_budget_alloc(&b, NULL, 0, 40);
    CHECK(t, p != NULL);
    fill(p, 40, 7);
    b.active = 1;
    b.has_limit = 1;
    b.limit = b.in_use + 10;
    CHECK(t, bs_budget_alloc(&b, p, 40, 400) == NULL); /* over the limit */
    CHECK(t, holds(p, 40, 7));
    CHECK(t, b.in_use == 40);
    unsigned char *q = bs_budget_alloc(&b, p, 40, 48); /* within it (the same class: in place, with the pool) */
    CHECK(t, q != NULL && holds(q, 40, 7));
    b.active = 0;
    bs_budget_alloc(&b, q, 48, 0);
    CHECK(t, b.in_use == 0);
    bs_budget_close(&b);
}

static void a_lua_state_runs_on_it(check_tally *t)
{
    struct budget b;
    memset(&b, 0, sizeof b);
    lua_State *L = lua_newstate(bs_budget_alloc, &b);
    CHECK(t, L != NULL);
    if (L == NULL)
        return;
    luaL_openlibs(L);
    const char *script =
        "local keep, sum = {}, 0\n"
        "for i = 1, 20000 do\n"
        "  local t = { i, tostring(i), { i * 2 } }\n"
        "  for k = 1, i % 40 do t[#t + 1] = k end\n"
        "  if i % 7 == 0 then keep[#keep + 1] = t end\n"
        "  sum = sum + #t + #(t[2] .. ('x'):rep(i % 300))\n"
        "end\n"
        "for _, t in ipairs(keep) do assert(t[2] == tostring(t[1]) and t[3][1] == t[1] * 2) end\n"
        "return sum\n";
    int ok = luaL_dostring(L, script) == LUA_OK;
    CHECK(t, ok);
    if (ok)
        CHECK(t, lua_tointeger(L, -1) > 0);
    lua_close(L);
    CHECK(t, b.in_use == 0);
    bs_budget_close(&b);
}

int main(void)
{
    check_tally t = {0, 0};
    blocks_keep_their_bytes(&t);
    a_refusal_changes_nothing(&t);
    a_lua_state_runs_on_it(&t);
    return check_summary(&t);
}
