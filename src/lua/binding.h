/* binding.h - shared helpers of the Lua binding and each type's registration. */
#ifndef BS_BINDING_H
#define BS_BINDING_H

#include <lauxlib.h>
#include <lua.h>

#include "../core/board.h"

#define BS_VERSION "0.1.0"

/* Each userdata type adds its constructor(s) to the module table at the top
 * of the stack and creates its metatable. */
void bs_lua_open_board(lua_State *L);
void bs_lua_open_rng(lua_State *L);
void bs_lua_open_dots(lua_State *L);
void bs_lua_open_search(lua_State *L);

/* The board of the boardscript.board userdata at `arg` (raises otherwise). */
const bs_board *bs_lua_checkboard(lua_State *L, int arg);
/* Pushes a new boardscript.board holding a copy of `b` (no undo history). */
void bs_lua_pushboard(lua_State *L, const bs_board *b);
/* A direction set at stack index `idx` ("all", "orthogonal", "diagonal",
 * "none" or a list of names): NULL and *mask, or what is wrong with it. */
const char *bs_lua_todirs(lua_State *L, int idx, unsigned *mask);

/* Builds a metatable named `name` with methods and metamethods (liolib.c's
 * createmeta). Leaves nothing on the stack. */
void bs_lua_newmeta(lua_State *L, const char *name, const luaL_Reg *methods,
                    const luaL_Reg *metamethods);

/* Raises "bad argument #arg (... out of range lo..hi)" unless lo <= v <= hi. */
lua_Integer bs_lua_checkrange(lua_State *L, int arg, const char *what, lua_Integer lo,
                              lua_Integer hi);

#endif
