/* binding.h - shared helpers of the Lua binding and each type's registration. */
#ifndef BS_BINDING_H
#define BS_BINDING_H

#include <lauxlib.h>
#include <lua.h>

#define BS_VERSION "0.1.0"

/* Each userdata type adds its constructor(s) to the module table at the top
 * of the stack and creates its metatable. */
void bs_lua_open_board(lua_State *L);
void bs_lua_open_rng(lua_State *L);
void bs_lua_open_dots(lua_State *L);

/* Builds a metatable named `name` with methods and metamethods (liolib.c's
 * createmeta). Leaves nothing on the stack. */
void bs_lua_newmeta(lua_State *L, const char *name, const luaL_Reg *methods,
                    const luaL_Reg *metamethods);

/* Raises "bad argument #arg (... out of range lo..hi)" unless lo <= v <= hi. */
lua_Integer bs_lua_checkrange(lua_State *L, int arg, const char *what, lua_Integer lo,
                              lua_Integer hi);

#endif
