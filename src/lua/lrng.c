/* lrng.c - the engine's seeded random generator as Lua userdata. */
#include "binding.h"

#include <stdio.h>

/* An integer, or a float with an integral value (lua_numbertointeger alone
 * would truncate 2.5 to 2). */
static uint64_t check_seed(lua_State *L, int arg)
{
    int isint;
    lua_Integer i = lua_tointegerx(L, arg, &isint);
    if (!isint) {
        luaL_checknumber(L, arg);
        luaL_argerror(L, arg, "seed must be an integer");
    }
    return (uint64_t)i;
}

static int rng_new(lua_State *L)
{
    uint64_t seed = lua_isnoneornil(L, 1) ? 0 : check_seed(L, 1);
    bs_lrng *r = lua_newuserdatauv(L, sizeof *r, 0);
    r->tag = RNG_TAG;
    bs_rng_seed(&r->g, seed);
    luaL_setmetatable(L, RNG_META);
    return 1;
}

static int rng_seed(lua_State *L)
{
    bs_rng_seed(bs_lua_checkrng(L, 1), check_seed(L, 2));
    return 0;
}

/* Like math.random: () -> [0,1), (m) -> [1,m], (m, n) -> [m,n]. */
static int rng_random(lua_State *L)
{
    bs_rng *g = bs_lua_checkrng(L, 1);
    int isint;
    lua_Integer lo, hi = lua_tointegerx(L, 2, &isint);
    if (isint && hi >= 1 && lua_gettop(L) == 2) { /* random(m): the call a playout makes */
        lua_pushinteger(L, (lua_Integer)(1 + bs_rng_below_inline(g, (uint64_t)hi)));
        return 1;
    }
    switch (lua_gettop(L)) {
    case 1:
        lua_pushnumber(L, (lua_Number)(bs_rng_next(g) >> 11) * 0x1.0p-53);
        return 1;
    case 2:
        lo = 1;
        hi = luaL_checkinteger(L, 2);
        break;
    case 3:
        lo = luaL_checkinteger(L, 2);
        hi = luaL_checkinteger(L, 3);
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'random'");
    }
    luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    uint64_t x = span == 0 ? bs_rng_next(g) : bs_rng_below(g, span);
    lua_pushinteger(L, (lua_Integer)((uint64_t)lo + x));
    return 1;
}

/* rng:state() -> text: the generator's whole state, for rng:restore (a
 * worker process hands back where its draws left the game's generator). */
static int rng_state(lua_State *L)
{
    const bs_rng *g = bs_lua_checkrng(L, 1);
    char text[4 * 17];
    snprintf(text, sizeof text, "%016llx%016llx%016llx%016llx", (unsigned long long)g->s[0],
             (unsigned long long)g->s[1], (unsigned long long)g->s[2], (unsigned long long)g->s[3]);
    lua_pushstring(L, text);
    return 1;
}

/* rng:restore(text): the state rng:state gave; anything else raises. */
static int rng_restore(lua_State *L)
{
    bs_rng *g = bs_lua_checkrng(L, 1);
    size_t len;
    const char *text = luaL_checklstring(L, 2, &len);
    uint64_t s[4] = {0, 0, 0, 0};
    luaL_argcheck(L, len == 64, 2, "not a generator state (64 hex digits expected)");
    for (size_t i = 0; i < 64; i++) {
        char c = text[i];
        int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        luaL_argcheck(L, digit >= 0, 2, "not a generator state (64 hex digits expected)");
        s[i / 16] = (s[i / 16] << 4) | (uint64_t)digit;
    }
    luaL_argcheck(L, (s[0] | s[1] | s[2] | s[3]) != 0, 2, "not a generator state (all zero)");
    for (int i = 0; i < 4; i++)
        g->s[i] = s[i];
    return 0;
}

static int rng_tostring(lua_State *L)
{
    lua_pushfstring(L, "rng (%p)", (void *)bs_lua_checkrng(L, 1));
    return 1;
}

void bs_lua_open_rng(lua_State *L)
{
    static const luaL_Reg methods[] = {{"seed", rng_seed}, {"random", rng_random},
                                           {"state", rng_state},  {"restore", rng_restore}, {NULL, NULL}};
    static const luaL_Reg metamethods[] = {{"__tostring", rng_tostring}, {NULL, NULL}};
    bs_lua_newmeta(L, RNG_META, methods, metamethods);
    lua_pushcfunction(L, rng_new);
    lua_setfield(L, -2, "rng");
}
