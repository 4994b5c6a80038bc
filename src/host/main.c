/* main.c - the boardscript host: a Lua state that runs boardscript.cli. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

int luaopen_boardscript_core(lua_State *L);

/* Both come from CMakeLists.txt; an empty string means "no such place". */
#ifndef BS_SOURCE_LUA_DIR
#define BS_SOURCE_LUA_DIR ""
#endif
#ifndef BS_LUA_DIR_FROM_BIN
#define BS_LUA_DIR_FROM_BIN "../share/lua/5.4"
#endif

#ifdef BS_EMBED_ARGPARSE
#include "argparse_bytecode.h"

/* package.preload.argparse: argparse precompiled at build time (compiling its
 * source took most of a command's start-up). A Lua that cannot load these
 * bytes (another bytecode format) gets the source from package.path. */
static int load_argparse(lua_State *L)
{
    if (luaL_loadbufferx(L, (const char *)bs_argparse_bytecode, sizeof bs_argparse_bytecode, "=argparse",
                         "b") != LUA_OK) {
        lua_pop(L, 1);
        lua_getglobal(L, "package");
        lua_getfield(L, -1, "searchers");
        lua_rawgeti(L, -1, 2); /* the Lua file searcher */
        lua_pushvalue(L, 1);
        lua_call(L, 1, 2);
        if (!lua_isfunction(L, -2))
            return luaL_error(L, "module 'argparse' not found:%s", lua_tostring(L, -1));
        lua_pushvalue(L, 1);
        lua_insert(L, -2); /* loader, name, extra */
        lua_call(L, 2, 1);
        return 1;
    }
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    return 1;
}
#endif

/* lua.c's msghandler: turn any error into a message with a traceback. */
static int msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* If dir holds boardscript/cli.lua, puts it first on package.path, records it
 * as package.boardscript_lua_dir and returns 1; otherwise returns 0. */
static int use_lua_dir(lua_State *L, int package, const char *dir)
{
    if (dir[0] == '\0')
        return 0;
    lua_pushfstring(L, "%s/boardscript/cli.lua", dir);
    FILE *f = fopen(lua_tostring(L, -1), "r");
    lua_pop(L, 1);
    if (f == NULL)
        return 0;
    fclose(f);
    lua_pushstring(L, dir);
    lua_setfield(L, package, "boardscript_lua_dir");
    lua_getfield(L, package, "path");
    lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;%s", dir, dir, lua_tostring(L, -1));
    lua_setfield(L, package, "path");
    lua_pop(L, 1);
    return 1;
}

/* Sets package.boardscript_exe to the running binary's absolute path and finds
 * the Lua files: installed relative to the binary (PREFIX/bin ->
 * PREFIX/share/lua/5.4, or a LuaRocks tree's share/lua/5.4), else the source
 * tree of a build-tree binary, else
 * wherever package.path (LUA_PATH, e.g. from `luarocks path`) already leads. */
static void locate(lua_State *L, int package)
{
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe);
    if (len > 0 && (size_t)len < sizeof exe) {
        exe[len] = '\0';
        lua_pushstring(L, exe);
        lua_setfield(L, package, "boardscript_exe");
        char *slash = strrchr(exe, '/');
        /* With absolute install dirs (a LuaRocks build), try a tree's usual
         * layout: TREE/bin and TREE/share/lua/5.4. */
        const char *from_bin = BS_LUA_DIR_FROM_BIN[0] != '\0' ? BS_LUA_DIR_FROM_BIN : "../share/lua/5.4";
        if (slash != NULL) {
            *slash = '\0';
            lua_pushfstring(L, "%s/%s", exe, from_bin);
            int found = use_lua_dir(L, package, lua_tostring(L, -1));
            lua_pop(L, 1);
            if (found)
                return;
        }
    }
    use_lua_dir(L, package, BS_SOURCE_LUA_DIR);
}

static int pmain(lua_State *L)
{
    int argc = (int)lua_tointeger(L, 1);
    char **argv = lua_touserdata(L, 2);
    luaL_checkversion(L);
    luaL_openlibs(L);

    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_boardscript_core);
    lua_setfield(L, -2, "boardscript.core");
#ifdef BS_EMBED_ARGPARSE
    lua_pushcfunction(L, load_argparse);
    lua_setfield(L, -2, "argparse");
#endif
    lua_pop(L, 1);

    lua_getglobal(L, "package");
    locate(L, lua_gettop(L));
    lua_pop(L, 1);

    lua_createtable(L, argc, 1); /* the global `arg`, as lua.c builds it */
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setglobal(L, "arg");

    lua_getglobal(L, "require");
    lua_pushliteral(L, "boardscript.cli");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "main");
    lua_createtable(L, argc, 0);
    for (int i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_call(L, 1, 1);
    return 1;
}

int main(int argc, char **argv)
{
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        fprintf(stderr, "boardscript: cannot create state: not enough memory\n");
        return EXIT_FAILURE;
    }
    lua_pushcfunction(L, msghandler);
    lua_pushcfunction(L, pmain);
    lua_pushinteger(L, argc);
    lua_pushlightuserdata(L, argv);
    int status = lua_pcall(L, 2, 1, 1);
    int code = EXIT_FAILURE;
    if (status != LUA_OK) {
        fprintf(stderr, "boardscript: %s\n", lua_tostring(L, -1));
    } else if (lua_isinteger(L, -1)) {
        code = (int)lua_tointeger(L, -1);
    } else {
        code = lua_toboolean(L, -1) || lua_isnil(L, -1) ? EXIT_SUCCESS : EXIT_FAILURE;
    }
    fflush(stdout);
    lua_close(L);
    return code;
}
