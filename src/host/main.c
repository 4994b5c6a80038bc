/* main.c - the boardscript host: a Lua state that runs boardscript.cli, with
 * boardscript.core and boardscript.host (hostlib.c, budget.c) preloaded. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

int luaopen_boardscript_core(lua_State *L);

#include "budget.h"
#include "hostlib.h"

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

/* lua.c's msghandler: turn any error into a message with a traceback. Unlike
 * lua.c's it calls no metamethod of the error (a user's __tostring could run
 * for ever here, outside every budget): a table's own string field `message`
 * (boardscript's user errors) is read raw, anything else is named by type. */
static int msghandler(lua_State *L)
{
    const char *msg = lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER ? lua_tostring(L, 1) : NULL;
    if (msg == NULL) {
        if (lua_type(L, 1) == LUA_TTABLE) {
            lua_pushliteral(L, "message");
            if (lua_rawget(L, 1) == LUA_TSTRING)
                return 1;
            lua_pop(L, 1);
        }
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Warnings as lauxlib's luaL_newstate sets them up: off until "@on". */
static void warn_off(void *ud, const char *message, int tocont);
static void warn_on(void *ud, const char *message, int tocont);

static void warn_continue(void *ud, const char *message, int tocont)
{
    fputs(message, stderr);
    if (!tocont) {
        fputs("\n", stderr);
        lua_setwarnf((lua_State *)ud, warn_on, ud);
    } else {
        lua_setwarnf((lua_State *)ud, warn_continue, ud);
    }
}

/* A control message ("@on", "@off") switches warnings; true if it was one. */
static int warn_control(void *ud, const char *message, int tocont)
{
    if (tocont || message[0] != '@')
        return 0;
    if (strcmp(message, "@off") == 0)
        lua_setwarnf((lua_State *)ud, warn_off, ud);
    else if (strcmp(message, "@on") == 0)
        lua_setwarnf((lua_State *)ud, warn_on, ud);
    return 1;
}

static void warn_off(void *ud, const char *message, int tocont)
{
    warn_control(ud, message, tocont);
}

static void warn_on(void *ud, const char *message, int tocont)
{
    if (warn_control(ud, message, tocont))
        return;
    fputs("Lua warning: ", stderr);
    warn_continue(ud, message, tocont);
}

/* lauxlib's panic function (luaL_newstate sets it; lua_newstate does not). */
static int panic(lua_State *L)
{
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "boardscript: unprotected error: %s\n", msg != NULL ? msg : "(not a string)");
    return 0;
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
    lua_pushcfunction(L, bs_host_open);
    lua_setfield(L, -2, "boardscript.host");
#ifdef BS_EMBED_ARGPARSE
    lua_pushcfunction(L, load_argparse);
    lua_setfield(L, -2, "argparse");
#endif
    lua_pop(L, 1);

    bs_host_locate(L);

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

/* A closed standard descriptor gets /dev/null in its place, so that the
 * first file the program opens cannot become standard output (a record would
 * receive the dialogue). Standard output and error get it read-only: writing
 * there still fails, and the check at exit reports it. */
static void fill_closed_descriptors(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int got = open("/dev/null", O_RDONLY);
        if (got != fd && got >= 0) {
            dup2(got, fd);
            close(got);
        }
    }
}

/* Run at exit (a return from main or os.exit): what was written to standard
 * output must have reached it; else one line on stderr and status 1. */
static void check_stdout(void)
{
    errno = 0;
    int failed = fflush(stdout) != 0;
    int err = errno;
    if (failed || ferror(stdout)) {
        if (err == 0)
            err = EIO;
        fprintf(stderr, "boardscript: cannot write standard output: %s\n", strerror(err));
        _exit(EXIT_FAILURE);
    }
}

/* A worker (BOARDSCRIPT_PARENT_PID set by the command that started it) dies
 * with that process: killing a match or a solve leaves no worker running. */
static void die_with_parent(void)
{
    const char *text = getenv("BOARDSCRIPT_PARENT_PID");
    if (text == NULL)
        return;
    char *end = NULL;
    long parent = strtol(text, &end, 10);
    int valid = end != text && *end == '\0' && parent > 1;
    unsetenv("BOARDSCRIPT_PARENT_PID");
    if (!valid)
        return;
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
    if ((long)getppid() != parent)
        _exit(EXIT_FAILURE); /* the parent died before we asked */
}

int main(int argc, char **argv)
{
    fill_closed_descriptors();
    /* A broken pipe is a write error reported like any other, not a silent death. */
    signal(SIGPIPE, SIG_IGN);
    die_with_parent();
    if (atexit(check_stdout) != 0) {
        fprintf(stderr, "boardscript: cannot register the output check\n");
        return EXIT_FAILURE;
    }
    struct budget budget = {0};
    lua_State *L = lua_newstate(bs_budget_alloc, &budget);
    if (L != NULL) {
        lua_atpanic(L, panic);
        lua_setwarnf(L, warn_off, L);
    }
    if (L == NULL) {
        bs_budget_close(&budget);
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
    check_stdout();
    lua_close(L);
    bs_budget_close(&budget);
    return code;
}
