/* hostlib.c - the preloaded module boardscript.host (see hostlib.h). */
#define _XOPEN_SOURCE 700 /* POSIX 2008 with realpath */
#define _DEFAULT_SOURCE /* syscall(2), for close_range */
#include "hostlib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <lauxlib.h>
#include <lualib.h>

#include "budget.h"

extern char **environ;

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


/* ---- worker processes (boardscript serve runs AI moves in them) ----
 * A worker is a fork of this process: it already holds the game, computes,
 * writes its answer on a pipe and leaves with _exit. These are thin,
 * checked wrappers; the protocol is Lua's (boardscript.serve.worker). */

/* A descriptor argument: an integer from 0 to INT_MAX. */
static int check_fd(lua_State *L, int arg)
{
    lua_Integer fd = luaL_checkinteger(L, arg);
    luaL_argcheck(L, fd >= 0 && fd <= 0x7fffffff, arg, "not a file descriptor");
    return (int)fd;
}

/* A process id argument: above 1 (never a process group, never init). */
static pid_t check_pid(lua_State *L, int arg)
{
    lua_Integer pid = luaL_checkinteger(L, arg);
    luaL_argcheck(L, pid > 1 && pid <= 0x7fffffff, arg, "not a process id");
    return (pid_t)pid;
}

/* nil, "NAME: strerror(errno)", errno. */
static int errno_result(lua_State *L, const char *what)
{
    int err = errno;
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", what, strerror(err));
    lua_pushinteger(L, err);
    return 3;
}

/* host.pipe() -> read_fd, write_fd: both ends close-on-exec, the read end
 * non-blocking (it is polled); or nil and the error. */
static int host_pipe(lua_State *L)
{
    int fds[2];
    if (pipe(fds) != 0)
        return errno_result(L, "pipe");
    for (int i = 0; i < 2; i++) {
        if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0 ||
            (i == 0 && fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK) != 0)) {
            int err = errno;
            close(fds[0]);
            close(fds[1]);
            errno = err;
            return errno_result(L, "pipe");
        }
    }
    lua_pushinteger(L, fds[0]);
    lua_pushinteger(L, fds[1]);
    return 2;
}

/* Closes every descriptor from `low` up to the process's limit. The range
 * is bounded by RLIMIT_NOFILE, never ~0: qemu-user (the cross test) walks
 * a close_range's whole range in user space, and 2^32 steps never end. */
static void close_from(int low)
{
    struct rlimit rl;
    long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? (long)rl.rlim_cur : 65536;
    if (max > 1 << 20)
        max = 1 << 20;
    if (max <= low)
        return;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)low, (unsigned)(max - 1), 0U) == 0)
        return;
#endif
    for (long fd = low; fd < max; fd++)
        close((int)fd);
}

/* host.fork(keep_fd) -> pid in the parent, 0 in the child; or nil and the
 * error. The child keeps only descriptors 0 to 2 and `keep_fd`, which
 * becomes descriptor 3 (so no client connection or listening socket of the
 * parent stays open in it), and is killed when the parent dies. */
static int host_fork(lua_State *L)
{
    int keep = check_fd(L, 1);
    luaL_argcheck(L, keep >= 3 && fcntl(keep, F_GETFD) != -1, 1, "not an open descriptor above 2");
    pid_t parent = getpid();
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0)
        return errno_result(L, "fork");
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
        if (getppid() != parent)
            _exit(EXIT_FAILURE);
        if (keep != 3 && dup2(keep, 3) != 3)
            _exit(EXIT_FAILURE);
        close_from(4);
    }
    lua_pushinteger(L, (lua_Integer)pid);
    return 1;
}

/* host.write(fd, text) -> true, or nil and the error: all of text. */
static int host_write(lua_State *L)
{
    int fd = check_fd(L, 1);
    size_t len;
    const char *text = luaL_checklstring(L, 2, &len);
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return errno_result(L, "write");
        text += n;
        len -= (size_t)n;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* host.read(fd[, max]) -> the bytes there are (at most max, default
 * 65536), "" at the end, or nil and "again" when none are there yet (a
 * non-blocking descriptor), or nil and the error. */
static int host_read(lua_State *L)
{
    int fd = check_fd(L, 1);
    lua_Integer max = luaL_optinteger(L, 2, 65536);
    luaL_argcheck(L, max >= 1 && max <= (1 << 24), 2, "max must be in 1..2^24");
    luaL_Buffer buffer;
    char *p = luaL_buffinitsize(L, &buffer, (size_t)max);
    ssize_t n;
    do
        n = read(fd, p, (size_t)max);
    while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        lua_pushnil(L);
        lua_pushliteral(L, "again");
        return 2;
    }
    if (n < 0)
        return errno_result(L, "read");
    luaL_pushresultsize(&buffer, (size_t)n);
    return 1;
}

/* host.close(fd) -> true, or nil and the error. */
static int host_close(lua_State *L)
{
    if (close(check_fd(L, 1)) != 0)
        return errno_result(L, "close");
    lua_pushboolean(L, 1);
    return 1;
}

/* host.waitpid(pid[, nohang]) -> "exited", status | "killed", signal; or
 * nil when nohang and the child is still running; or nil and the error. */
static int host_waitpid(lua_State *L)
{
    pid_t pid = check_pid(L, 1);
    int nohang = lua_toboolean(L, 2), status = 0;
    pid_t got;
    do
        got = waitpid(pid, &status, nohang ? WNOHANG : 0);
    while (got < 0 && errno == EINTR);
    if (got < 0)
        return errno_result(L, "waitpid");
    if (got == 0) {
        lua_pushnil(L);
        return 1;
    }
    if (WIFSIGNALED(status)) {
        lua_pushliteral(L, "killed");
        lua_pushinteger(L, WTERMSIG(status));
    } else {
        lua_pushliteral(L, "exited");
        lua_pushinteger(L, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    return 2;
}

/* host.kill(pid) -> true, or nil and the error: SIGKILL to one process. */
static int host_kill(lua_State *L)
{
    if (kill(check_pid(L, 1), SIGKILL) != 0)
        return errno_result(L, "kill");
    lua_pushboolean(L, 1);
    return 1;
}

/* host.exit_now(code): _exit(code): no atexit handler, no flush, no
 * collection (a worker's answer is on its pipe already). */
static int host_exit_now(lua_State *L)
{
    lua_Integer code = luaL_optinteger(L, 1, 0);
    luaL_argcheck(L, code >= 0 && code <= 255, 1, "an exit status from 0 to 255 expected");
    _exit((int)code);
}

/* Closes the FILE of a stream host.spawn made (io's __close and __gc). */
static int spawned_fclose(lua_State *L)
{
    luaL_Stream *stream = luaL_checkudata(L, 1, LUA_FILEHANDLE);
    int ok = fclose(stream->f) == 0;
    return luaL_fileresult(L, ok, NULL);
}

/* The strings of table `arg` (a sequence of at least `min`, at most 4096, or
 * name -> value pairs when `pairs`), copied into `out` (a NULL-terminated
 * array in a userdata left on the stack, so nothing leaks on an error). */
static const char **check_strings(lua_State *L, int arg, int pairs, lua_Integer min)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_Integer n = 0;
    if (pairs) {
        lua_pushnil(L);
        while (lua_next(L, arg) != 0) {
            luaL_argcheck(L, lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING, arg,
                          "names and values must be strings");
            const char *name = lua_tostring(L, -2);
            luaL_argcheck(L, name[0] != '\0' && strchr(name, '=') == NULL, arg, "a name is empty or holds '='");
            n += 2;
            lua_pop(L, 1);
        }
    } else {
        n = (lua_Integer)lua_rawlen(L, arg);
    }
    luaL_argcheck(L, n >= min && n <= 4096, arg, pairs ? "too many names" : "a list of 1 to 4096 words expected");
    const char **out = lua_newuserdatauv(L, sizeof(char *) * (size_t)(n + 1), 0);
    if (pairs) {
        lua_Integer k = 0;
        lua_pushnil(L);
        while (lua_next(L, arg) != 0) {
            out[k++] = lua_tostring(L, -2);
            out[k++] = lua_tostring(L, -1);
            lua_pop(L, 1);
        }
    } else {
        for (lua_Integer i = 1; i <= n; i++) {
            luaL_argcheck(L, lua_rawgeti(L, arg, i) == LUA_TSTRING, arg, "every word must be a string");
            out[i - 1] = lua_tostring(L, -1);
            luaL_argcheck(L, strlen(out[i - 1]) == lua_rawlen(L, -1), arg, "a word holds a zero byte");
            lua_pop(L, 1); /* the table holds the string: the pointer stays valid */
        }
    }
    out[n] = NULL;
    return out;
}

/* Marks every descriptor of this process from 3 up close-on-exec (the
 * descriptors /proc/self/fd lists, else those below RLIMIT_NOFILE), so a
 * spawned program inherits none of them. */
static void cloexec_from_3(void)
{
    DIR *dir = opendir("/proc/self/fd");
    if (dir != NULL) {
        int skip = dirfd(dir);
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            char *end;
            long fd = strtol(entry->d_name, &end, 10);
            if (*end == '\0' && end != entry->d_name && fd >= 3 && fd != skip) {
                int flags = fcntl((int)fd, F_GETFD);
                if (flags >= 0)
                    fcntl((int)fd, F_SETFD, flags | FD_CLOEXEC);
            }
        }
        closedir(dir);
        return;
    }
    struct rlimit rl;
    long max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? (long)rl.rlim_cur : 65536;
    if (max > 1 << 20)
        max = 1 << 20;
    for (long fd = 3; fd < max; fd++) {
        int flags = fcntl((int)fd, F_GETFD);
        if (flags >= 0)
            fcntl((int)fd, F_SETFD, flags | FD_CLOEXEC);
    }
}

/* host.spawn(argv[, env]) -> pid, file; or nil and the error: runs program
 * argv[1] (a path: no PATH search, no shell) with the words argv[1..], its
 * standard output a pipe this process reads as `file` (an io file), its
 * standard input and error this process's, with the names of `env` set
 * (name -> value) in its environment. It holds no other descriptor of this
 * process (all are close-on-exec). A program that cannot be run is an error
 * here ("exec PATH: reason"). Through posix_spawn (a vfork): a plain fork
 * of an emulated process hangs under qemu-user, where the cross test runs;
 * the host of a worker asks to die with its parent itself
 * (BOARDSCRIPT_PARENT_PID, main.c). */
static int host_spawn(lua_State *L)
{
    int has_env = !lua_isnoneornil(L, 2);
    lua_settop(L, 2);
    const char **argv = check_strings(L, 1, 0, 1);
    const char **env = has_env ? check_strings(L, 2, 1, 0) : NULL;
    /* the environment: this process's, with the names of `env` replaced */
    size_t n_environ = 0;
    while (environ[n_environ] != NULL)
        n_environ++;
    size_t n_env = 0;
    while (env != NULL && env[n_env] != NULL)
        n_env += 2;
    const char **envp = lua_newuserdatauv(L, sizeof(char *) * (n_environ + n_env / 2 + 1), 0);
    size_t k = 0;
    for (size_t i = 0; i < n_environ; i++) {
        int replaced = 0;
        for (size_t j = 0; j < n_env && !replaced; j += 2) {
            size_t len = strlen(env[j]);
            replaced = strncmp(environ[i], env[j], len) == 0 && environ[i][len] == '=';
        }
        if (!replaced)
            envp[k++] = environ[i];
    }
    lua_createtable(L, (int)(n_env / 2), 0); /* keeps the NAME=VALUE strings */
    for (size_t j = 0; j < n_env; j += 2) {
        envp[k++] = lua_pushfstring(L, "%s=%s", env[j], env[j + 1]);
        lua_rawseti(L, -2, (lua_Integer)(j / 2 + 1));
    }
    envp[k] = NULL;
    luaL_Stream *stream = lua_newuserdatauv(L, sizeof(luaL_Stream), 0);
    stream->closef = NULL; /* a closed file until it is one */
    if (luaL_getmetatable(L, LUA_FILEHANDLE) == LUA_TNIL)
        return luaL_error(L, "spawn: the io library is not loaded");
    lua_setmetatable(L, -2);
    /* a program that cannot be run, asked first: where posix_spawn is a
     * fork (qemu-user) its exec error is the child's exit status 127 */
    if (access(argv[0], X_OK) != 0) {
        int e = errno;
        lua_pushnil(L);
        lua_pushfstring(L, "exec %s: %s", argv[0], strerror(e));
        lua_pushinteger(L, e);
        return 3;
    }
    int out[2];
    if (pipe(out) != 0)
        return errno_result(L, "pipe");
    cloexec_from_3();
    posix_spawn_file_actions_t actions;
    int err = posix_spawn_file_actions_init(&actions);
    if (err == 0)
        err = posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    pid_t pid = -1;
    fflush(NULL); /* nothing buffered is written twice */
    if (err == 0)
        err = posix_spawn(&pid, argv[0], &actions, NULL, (char *const *)argv, (char *const *)envp);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (err != 0) {
        close(out[0]);
        lua_pushnil(L);
        lua_pushfstring(L, "exec %s: %s", argv[0], strerror(err));
        lua_pushinteger(L, err);
        return 3;
    }
    stream->f = fdopen(out[0], "r");
    if (stream->f == NULL) {
        int e = errno;
        close(out[0]);
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        errno = e;
        return errno_result(L, "fdopen");
    }
    stream->closef = spawned_fclose;
    lua_pushinteger(L, (lua_Integer)pid);
    lua_insert(L, -2);
    return 2;
}

/* host.isatty(fd) -> whether descriptor fd is a terminal. */
static int host_isatty(lua_State *L)
{
    lua_pushboolean(L, isatty(check_fd(L, 1)) == 1);
    return 1;
}

/* The bytes this process's address space spans now (/proc/self/statm), or 0. */
static size_t address_space(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f == NULL)
        return 0;
    if (fscanf(f, "%lu", &pages) != 1)
        pages = 0;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)pages * (size_t)page : 0;
}

/* host.limit_process(cpu_seconds, extra_bytes) -> true, or nil and the
 * error: this process may use `cpu_seconds` of processor time (then
 * SIGXCPU, and SIGKILL a second later) and its address space may grow by
 * `extra_bytes` from what it spans now (nil: no such limit). For workers. */
static int host_limit_process(lua_State *L)
{
    if (!lua_isnil(L, 1)) {
        lua_Integer seconds = luaL_checkinteger(L, 1);
        luaL_argcheck(L, seconds >= 1 && seconds <= 10000000, 1, "seconds must be in 1..1e7");
        struct rlimit rl = {(rlim_t)seconds, (rlim_t)seconds + 1};
        if (setrlimit(RLIMIT_CPU, &rl) != 0)
            return errno_result(L, "setrlimit");
    }
    if (!lua_isnoneornil(L, 2)) {
        lua_Integer extra = luaL_checkinteger(L, 2);
        luaL_argcheck(L, extra >= 0 && extra <= ((lua_Integer)1 << 46), 2, "bytes must be in 0..2^46");
#if defined(__SANITIZE_ADDRESS__)
        /* AddressSanitizer maps shadow memory as it goes: a cap on the
         * address space would stop it, not the worker. */
        lua_pushboolean(L, 1);
        return 1;
#endif
        size_t now = address_space();
        if (now == 0)
            return errno_result(L, "/proc/self/statm");
        struct rlimit rl = {(rlim_t)(now + (size_t)extra), (rlim_t)(now + (size_t)extra)};
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            return errno_result(L, "setrlimit");
    }
    lua_pushboolean(L, 1);
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
        {"pipe", host_pipe}, {"fork", host_fork}, {"write", host_write}, {"read", host_read},
        {"close", host_close}, {"waitpid", host_waitpid}, {"kill", host_kill}, {"exit_now", host_exit_now},
        {"limit_process", host_limit_process}, {"spawn", host_spawn}, {"isatty", host_isatty},
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
