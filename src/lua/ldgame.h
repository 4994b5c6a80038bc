/* ldgame.h - core.dgame: described games (issue 29) as Lua userdata. */
#ifndef BS_LDGAME_H
#define BS_LDGAME_H

#include <limits.h>

#include "../core/dgame.h"
#include "binding.h"


/* G: the compiled description, one move buffer (DG_MOVES_MAX) and each kind's
 * letter for tostring; its user value is the list of kind names. S: a state
 * and its G (its user value, which keeps the description alive). */
typedef struct lgame {
    dg_desc *d;
    dg_move *buf; /* DG_MOVES_MAX */
    char letter[DG_MAX_KINDS];
} lgame;

typedef struct lstate {
    dg_state *s;
    lgame *g;
} lstate;

/* The state at arg (raises unless a live S). */
lstate *bs_lua_checkdgstate(lua_State *L, int arg);
/* S's __tostring, move_text, move_cells and parse_move (ldgame_text.c). */
int bs_lua_dgstate_tostring(lua_State *L);
int bs_lua_dgstate_move_text(lua_State *L);
int bs_lua_dgstate_move_cells(lua_State *L);
int bs_lua_dgstate_parse_move(lua_State *L);
/* The move at arg as a dg_move; *ok = 0 when it cannot be one (raises for a non-number). */
dg_move bs_lua_todgmove(lua_State *L, int arg, int *ok);

/* Reads the normalised table at index t into sp (zeroed first); raises
 * "core.dgame: field ...: ..." naming the field. */
void bs_lua_read_dgspec(lua_State *L, int t, dg_spec *sp);

void bs_lua_open_dgame(lua_State *L);

#endif
