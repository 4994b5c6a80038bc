/* main.c - the boardscript host: a Lua state that runs boardscript.cli. */
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

/* ---- budgets: the limiting allocator and the count hook ----
 *
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

/* The registry key of the message a budget error carries (made once, so
 * raising it allocates nothing). */
static const char BUDGET_MESSAGE_KEY = 0;

static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct budget *b = ud;
    size_t old = ptr != NULL ? osize : 0; /* for a new block osize is a type tag */
    if (nsize == 0) {
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
    void *block = realloc(ptr, nsize);
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

static int luaopen_boardscript_host(lua_State *L)
{
    static const luaL_Reg functions[] = {
        {"memory", host_memory},       {"active", host_active}, {"remaining", host_remaining},
        {"watch", host_watch},         {"call", host_call},     {"read_line", host_read_line},
        {"same_file", host_same_file}, {"pid", host_pid},       {"discard_stdout", host_discard_stdout},
        {NULL, NULL},
    };
    lua_pushliteral(L, "budget exceeded (--max-memory or --max-seconds)");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &BUDGET_MESSAGE_KEY);
    luaL_newlib(L, functions);
    return 1;
}

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

/* Sets package.boardscript_exe to the running binary's absolute path (or to
 * $BOARDSCRIPT_EXE, the program that runs this binary, when that is not the
 * binary itself: a wrapper running it under qemu for another architecture, as
 * scripts/cross-test does) and finds
 * the Lua files: installed relative to the binary (PREFIX/bin ->
 * PREFIX/share/lua/5.4, or a LuaRocks tree's share/lua/5.4), else the source
 * tree of a build-tree binary, else
 * wherever package.path (LUA_PATH, e.g. from `luarocks path`) already leads. */
static void locate(lua_State *L, int package)
{
    char exe[4096];
    const char *wrapper = getenv("BOARDSCRIPT_EXE");
    if (wrapper != NULL && wrapper[0] != '\0') {
        lua_pushstring(L, wrapper);
        lua_setfield(L, package, "boardscript_exe");
    }
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe);
    if (len > 0 && (size_t)len < sizeof exe) {
        exe[len] = '\0';
        if (wrapper == NULL || wrapper[0] == '\0') {
            lua_pushstring(L, exe);
            lua_setfield(L, package, "boardscript_exe");
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
            if (found)
                return;
        }
    }
    use_lua_dir(L, package, BS_SOURCE_LUA_DIR);
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
    lua_pushcfunction(L, luaopen_boardscript_host);
    lua_setfield(L, -2, "boardscript.host");
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
    lua_State *L = lua_newstate(budget_alloc, &budget);
    if (L != NULL) {
        lua_atpanic(L, panic);
        lua_setwarnf(L, warn_off, L);
    }
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
    check_stdout();
    lua_close(L);
    return code;
}
