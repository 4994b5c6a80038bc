/* ldgame_search.h - the described-game searchers' methods of a core.dgame state (ldgame_search.c). */
#ifndef BS_LDGAME_SEARCH_H
#define BS_LDGAME_SEARCH_H

#include <lua.h>

#include "../core/dgame.h"

/* S:search{...} and S:mcts{...}: the methods (S at 1, options at 2). */
int bs_lua_dgame_search(lua_State *L);
int bs_lua_dgame_mcts(lua_State *L);

#endif
