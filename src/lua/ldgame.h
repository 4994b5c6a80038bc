/* ldgame.h - core.dgame: described games (issue 29) as Lua userdata. */
#ifndef BS_LDGAME_H
#define BS_LDGAME_H

#include <limits.h>

#include "../core/dgame.h"
#include "binding.h"

#define DGAME_META "boardscript.dgame"
#define DGSTATE_META "boardscript.dgame_state"

/* Reads the normalised table at index t into sp (zeroed first); raises
 * "core.dgame: field ...: ..." naming the field. */
void bs_lua_read_dgspec(lua_State *L, int t, dg_spec *sp);

void bs_lua_open_dgame(lua_State *L);

#endif
