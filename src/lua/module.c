/* module.c - luaopen_boardscript_core: the module table, shared binding helpers. */
#include <string.h>

#include "binding.h"
#include "../core/simd64.h"

void bs_lua_newmeta(lua_State *L, const char *name, const luaL_Reg *methods,
                    const luaL_Reg *metamethods)
{
    luaL_newmetatable(L, name);
    luaL_setfuncs(L, metamethods, 0);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1);
}

int bs_lua_findname(lua_State *L, int idx, const char *const names[])
{
    if (lua_type(L, idx) != LUA_TSTRING)
        return -1;
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return i;
    return -1;
}

int bs_lua_checkoption(lua_State *L, int arg, const char *def, const char *const names[])
{
    if (def && lua_isnoneornil(L, arg)) {
        for (int i = 0; names[i]; i++)
            if (strcmp(names[i], def) == 0)
                return i;
    }
    size_t len;
    const char *name = luaL_checklstring(L, arg, &len); /* a number becomes a string, as in luaL_checkoption */
    int i = bs_lua_findname(L, arg, names);
    if (i >= 0)
        return i;
    if (strlen(name) != len)
        return luaL_argerror(L, arg, "invalid option (a string with an embedded zero)");
    return luaL_argerror(L, arg, lua_pushfstring(L, "invalid option '%s'", name));
}

lua_Integer bs_lua_checkrange(lua_State *L, int arg, const char *what, lua_Integer lo,
                              lua_Integer hi)
{
    lua_Integer v = luaL_checkinteger(L, arg);
    if (v < lo || v > hi) {
        const char *msg = lua_pushfstring(L, "%s out of range %d..%d", what, (int)lo, (int)hi);
        luaL_argerror(L, arg, msg);
    }
    return v;
}

/* core.build: what this copy of the engine was compiled for and which
 * version of the 8 x 8 path it runs (a fresh table each time it is opened). */
static void push_build(lua_State *L)
{
    lua_createtable(L, 0, 4);
#ifdef BS_ARCH_FLAGS
    lua_pushstring(L, BS_ARCH_FLAGS);
#else
    lua_pushliteral(L, "");
#endif
    lua_setfield(L, -2, "flags");
#if defined(__AVX512F__)
    lua_pushboolean(L, 1);
#else
    lua_pushboolean(L, 0);
#endif
    lua_setfield(L, -2, "avx512");
    lua_pushstring(L, bs_avx2_available() ? "avx2" : "portable");
    lua_setfield(L, -2, "vector");
    lua_pushstring(L, bs_avx2_build_time() ? "build" : "run");
    lua_setfield(L, -2, "chosen");
}

int luaopen_boardscript_core(lua_State *L);

int luaopen_boardscript_core(lua_State *L)
{
    lua_newtable(L);
    lua_pushliteral(L, BS_VERSION);
    lua_setfield(L, -2, "version");
    push_build(L);
    lua_setfield(L, -2, "build");
    bs_lua_open_board(L);
    bs_lua_open_rng(L);
    bs_lua_open_dots(L);
    bs_lua_open_search(L);
    bs_lua_open_playout(L);
    bs_lua_open_cursor(L);
    bs_lua_open_eval(L);
    return 1;
}

void bs_lua_buffer(lua_State *L, int arg, int size)
{
    if (lua_isnoneornil(L, arg)) {
        lua_settop(L, arg - 1);
        lua_createtable(L, size, 0);
    } else {
        luaL_checktype(L, arg, LUA_TTABLE);
        lua_settop(L, arg);
    }
}

int bs_lua_endlist(lua_State *L, int arg, lua_Integer count)
{
    for (lua_Integer i = count + 1; lua_rawgeti(L, arg, i) != LUA_TNIL; i++) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, arg, i);
    }
    lua_pop(L, 1);
    lua_pushinteger(L, count);
    lua_insert(L, arg);
    return 2;
}
