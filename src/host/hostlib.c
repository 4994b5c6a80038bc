/* hostlib.c - the preloaded module boardscript.host (see hostlib.h). */
#define _XOPEN_SOURCE 700 /* POSIX 2008 with realpath */
#include "hostlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "budget.h"

/* Both come from CMakeLists.txt; an empty string means "no such place". */
#ifndef BS_SOURCE_LUA_DIR
#define BS_SOURCE_LUA_DIR ""
#endif
#ifndef BS_LUA_DIR_FROM_BIN
#define BS_LUA_DIR_FROM_BIN "../share/lua/5.4"
#endif

/* Registry keys of what bs_host_locate found. */
#define EXE_KEY "boardscript.host.executable"
#define LUA_DIR_KEY "boardscript.host.lua_dir"
#define ERROR_FILE_KEY "boardscript.host.error_file"

/* read_line(file, max) -> text | nil: the next line of `file` with its
 * newline, or its first `max` bytes when it is longer (the rest stays in the
 * stream for the next call); nil at the end of input. Like file:read("L")
 * but bounded, so one endless line cannot fill the memory; it returns as
 * soon as a newline arrives, so a terminal or a pipe stays interactive. */
static int host_read_line(lua_State *L)
{
    luaL_Stream *stream = luaL_checkudata(L, 1, LUA_FILEHANDLE);
    lua_Integer max = luaL_checkinteger(L, 2);
    luaL_argcheck(L, max >= 1 && max <= (1 << 26), 2, "max must be in 1..2^26");
    luaL_argcheck(L, stream->closef != NULL, 1, "file is closed");
    FILE *f = stream->f;
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    lua_Integer count = 0;
    int newline = 0, ended = 0;
    while (!newline && !ended && count < max) {
        /* a chunk under the stream's lock, added to the buffer after it:
         * the buffer may raise a memory error, which must not leave the
         * stream locked */
        char chunk[4096];
        size_t k = 0, room = (size_t)(max - count) < sizeof chunk ? (size_t)(max - count) : sizeof chunk;
        flockfile(f);
        while (k < room) {
            int c = getc_unlocked(f);
            if (c == EOF) {
                ended = 1;
                break;
            }
            chunk[k++] = (char)c;
            if (c == '\n') {
                newline = 1;
                break;
            }
        }
        funlockfile(f);
        luaL_addlstring(&buffer, chunk, k);
        count += (lua_Integer)k;
    }
    if (count == 0 && ferror(f))
        return luaL_fileresult(L, 0, NULL);
    if (count == 0) {
        lua_pushnil(L);
        return 1;
    }
    luaL_pushresult(&buffer);
    return 1;
}

/* host.same_file(a, b): whether two paths name one existing file (same
 * device and inode); false when either does not exist. */
static int host_same_file(lua_State *L)
{
    const char *a = luaL_checkstring(L, 1);
    const char *b = luaL_checkstring(L, 2);
    struct stat sa, sb;
    lua_pushboolean(L, stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
                           sa.st_ino == sb.st_ino);
    return 1;
}

/* host.file_kind(path) -> kind, real, mode: what a file to be written
 * replaces. kind is "missing", "file", "directory" or "other" (a device, a
 * FIFO, a socket), following symbolic links; for an existing path, real is
 * its absolute path with every link resolved (the file a rename must
 * replace) and mode its permission bits. boardscript.output writes a
 * "file" or "missing" path through a temporary file renamed over it. */
static int host_file_kind(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    struct stat st;
    if (stat(path, &st) != 0) {
        lua_pushstring(L, "missing");
        return 1;
    }
    lua_pushstring(L, S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "directory" : "other");
    char *real = realpath(path, NULL);
    if (real) {
        lua_pushstring(L, real);
        free(real);
    } else {
        lua_pushnil(L);
    }
    lua_pushinteger(L, (lua_Integer)(st.st_mode & 07777));
    return 3;
}

/* host.chmod(path, mode) -> true | nil, message: sets a file's permission
 * bits (a file written in place of another keeps the other's). */
static int host_chmod(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    lua_Integer mode = luaL_checkinteger(L, 2);
    luaL_argcheck(L, mode >= 0 && mode <= 07777, 2, "mode must be in 0..07777");
    return luaL_fileresult(L, chmod(path, (mode_t)mode) == 0, path);
}

/* host.discard_stdout(): after a write error on standard output has been
 * reported, the rest goes to /dev/null, so that the check at exit does not
 * report it again. */
static int host_discard_stdout(lua_State *L)
{
    lua_pushboolean(L, freopen("/dev/null", "w", stdout) != NULL);
    return 1;
}

/* host.pid(): this process's id (workers are told it, to die with it). */
static int host_pid(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)getpid());
    return 1;
}

/* If dir holds boardscript/cli.lua, puts it first on package.path, records it
 * as the host's lua_dir and returns 1; otherwise returns 0. */
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
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_DIR_KEY);
    lua_getfield(L, package, "path");
    lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;%s", dir, dir, lua_tostring(L, -1));
    lua_setfield(L, package, "path");
    lua_pop(L, 1);
    return 1;
}

/* Records the running binary's absolute path as the host's executable (or
 * $BOARDSCRIPT_EXE, the program that runs this binary, when that is not the
 * binary itself: a wrapper running it under qemu for another architecture, as
 * scripts/cross-test does) and finds
 * the Lua files: installed relative to the binary (PREFIX/bin ->
 * PREFIX/share/lua/5.4, or a LuaRocks tree's share/lua/5.4), else the source
 * tree of a build-tree binary, else
 * wherever package.path (LUA_PATH, e.g. from `luarocks path`) already leads.
 * Also records $BOARDSCRIPT_ERROR_FILE (a worker's error report) as
 * `error_file` and removes it from the environment. */
void bs_host_locate(lua_State *L)
{
    /* A worker's error report file (boardscript.workers): this process's
     * only, so taken out of the environment its own children inherit. */
    const char *report = getenv("BOARDSCRIPT_ERROR_FILE");
    if (report != NULL && report[0] != '\0') {
        lua_pushstring(L, report);
        lua_setfield(L, LUA_REGISTRYINDEX, ERROR_FILE_KEY);
    }
    unsetenv("BOARDSCRIPT_ERROR_FILE");
    lua_getglobal(L, "package");
    int package = lua_gettop(L);
    char exe[4096];
    const char *wrapper = getenv("BOARDSCRIPT_EXE");
    if (wrapper != NULL && wrapper[0] != '\0') {
        lua_pushstring(L, wrapper);
        lua_setfield(L, LUA_REGISTRYINDEX, EXE_KEY);
    }
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe);
    if (len > 0 && (size_t)len < sizeof exe) {
        exe[len] = '\0';
        if (wrapper == NULL || wrapper[0] == '\0') {
            lua_pushstring(L, exe);
            lua_setfield(L, LUA_REGISTRYINDEX, EXE_KEY);
        }
        char *slash = strrchr(exe, '/');
        /* With absolute install dirs (a LuaRocks build), try a tree's usual
         * layout: TREE/bin and TREE/share/lua/5.4. */
        const char *from_bin = BS_LUA_DIR_FROM_BIN[0] != '\0' ? BS_LUA_DIR_FROM_BIN : "../share/lua/5.4";
        if (slash != NULL) {
            *slash = '\0';
            lua_pushfstring(L, "%s/%s", exe, from_bin);
            int found = use_lua_dir(L, package, lua_tostring(L, -1));
            lua_pop(L, 1);
            if (found) {
                lua_pop(L, 1);
                return;
            }
        }
    }
    use_lua_dir(L, package, BS_SOURCE_LUA_DIR);
    lua_pop(L, 1);
}

int bs_host_open(lua_State *L)
{
    static const luaL_Reg functions[] = {
        {"read_line", host_read_line}, {"same_file", host_same_file}, {"pid", host_pid},
        {"discard_stdout", host_discard_stdout}, {"file_kind", host_file_kind}, {"chmod", host_chmod},
        {NULL, NULL},
    };
    luaL_newlib(L, functions);
    bs_budget_functions(L);
    lua_getfield(L, LUA_REGISTRYINDEX, EXE_KEY);
    lua_setfield(L, -2, "executable");
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_DIR_KEY);
    lua_setfield(L, -2, "lua_dir");
    lua_getfield(L, LUA_REGISTRYINDEX, ERROR_FILE_KEY);
    lua_setfield(L, -2, "error_file");
    return 1;
}
