/* module.c - luaopen_boardscript_core: the module table. */
#include "binding.h"
#include "../core/simd64.h"
#include "ldgame.h"

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
    bs_lua_open_dgame(L);
    lua_pushcfunction(L, bs_lua_type);
    lua_setfield(L, -2, "type");
    return 1;
}
