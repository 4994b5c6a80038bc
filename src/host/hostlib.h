/* hostlib.h - the preloaded module boardscript.host: the budget functions
 * (budget.h), a bounded line reader, file and process helpers, and what the
 * host found out at start: `executable` (its path), `lua_dir` (where its
 * Lua files are) and `error_file` (where a worker reports its error). */
#ifndef BS_HOST_HOSTLIB_H
#define BS_HOST_HOSTLIB_H

#include <lua.h>

/* Finds the Lua files and puts their directory first on package.path, and
 * records the executable, that directory and a worker's error file for
 * bs_host_open. */
void bs_host_locate(lua_State *L);

/* The loader of boardscript.host (package.preload). */
int bs_host_open(lua_State *L);

#endif
