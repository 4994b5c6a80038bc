/* ldgame_search.h - the described-game searchers' methods of a core.dgame state (ldgame_search.c). */
#ifndef BS_LDGAME_SEARCH_H
#define BS_LDGAME_SEARCH_H

#include <lua.h>

#include "../core/dgame.h"

/* S:search{...} and S:mcts{...}: the methods (S at 1, options at 2). */
int bs_lua_dgame_search(lua_State *L);
int bs_lua_dgame_mcts(lua_State *L);
/* core.dgame_searcher{ tt_mb = } (a table kept between S:search calls). */
void bs_lua_open_dgame_searcher(lua_State *L);

/* The learned evaluation (core.dgame_eval, ldgame_ntuple.c) at `arg`. */
struct dg_ntuple;
struct dg_ntuple *bs_lua_checkdgeval(lua_State *L, int arg);
/* A searcher made ready (dg_search_prepare) for the game of the state at
 * state_arg, the options at opts (`values`; 0: none) and learned evaluation
 * nt (or NULL): pushed as a holder userdata that frees it when collected
 * (keep it on the stack while it is used). Raises on failure. */
struct dg_searcher;
struct dg_searcher *bs_lua_static_searcher(lua_State *L, int state_arg, int opts, const struct dg_ntuple *nt);
/* core.dgame_eval, core.dgame_eval_load and their metatables, into the table on top. */
void bs_lua_open_dgame_eval(lua_State *L);

#endif
