/* parsers.c - libFuzzer target: the parsers of outside text, through Lua.
 * fuzz-link: lua (scripts/fuzz links this target with the binding and liblua)
 * The first byte picks a parser (spec/fuzz/parsers.lua: GGF, OBF, records,
 * NBoard and GTP sessions, --opt values, move notations), the rest is its
 * text. A user error is a correct refusal; any other Lua error, a crash or a
 * sanitizer report is a finding. */
#include <stdio.h>
#include <stdlib.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

int luaopen_boardscript_core(lua_State *L);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#ifndef BS_FUZZ_SOURCE_DIR
#error "BS_FUZZ_SOURCE_DIR: the repository (scripts/fuzz defines it)"
#endif

/* libFuzzer calls the target many times in one process: one Lua state for
 * all of them (the driver keeps no state between inputs that changes what
 * an input does, so a reproducer reproduces). */
static lua_State *state;

static void fail(const char *what)
{
    fprintf(stderr, "fuzz: parsers: %s: %s\n", what, lua_tostring(state, -1));
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    state = luaL_newstate();
    if (!state)
        abort();
    luaL_openlibs(state);
    luaL_getsubtable(state, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(state, luaopen_boardscript_core);
    lua_setfield(state, -2, "boardscript.core");
    lua_pop(state, 1);
    const char *setup = "package.path = ... .. '/lua/?.lua;' .. ... .. '/lua/?/init.lua;' .. package.path\n"
                        "return dofile(... .. '/spec/fuzz/parsers.lua')";
    if (luaL_loadstring(state, setup) != LUA_OK)
        fail("setup");
    lua_pushstring(state, BS_FUZZ_SOURCE_DIR);
    if (lua_pcall(state, 1, 1, 0) != LUA_OK)
        fail("loading spec/fuzz/parsers.lua");
    lua_setfield(state, LUA_REGISTRYINDEX, "bs_fuzz_driver");
    return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    int top = lua_gettop(state);
    lua_getfield(state, LUA_REGISTRYINDEX, "bs_fuzz_driver");
    lua_pushinteger(state, data[0]);
    lua_pushlstring(state, (const char *)data + 1, size - 1);
    if (lua_pcall(state, 2, 0, 0) != LUA_OK)
        fail("finding");
    lua_settop(state, top);
    lua_gc(state, LUA_GCSTEP, 0);
    return 0;
}
