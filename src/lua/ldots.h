/* ldots.h - what the Dots and Boxes binding's two files share (not a public API). */
#ifndef BS_LDOTS_H
#define BS_LDOTS_H

#include "../core/dots.h"
#include "binding.h"

/* The boardscript.dots userdata at `arg` (raises otherwise). */
bs_dots *bs_lua_checkdots(lua_State *L, int arg);

/* Pushes edge `edge` as {r1, c1, r2, c2}, 1-based, smaller dot first. */
void bs_lua_pushedge(lua_State *L, const bs_dots *d, int edge);

/* Creates the solver metatable and adds core.dots_solver; the solve and
 * best_move methods of dots positions live there too. */
void bs_lua_open_dots_solver(lua_State *L);
int bs_lua_dots_solve(lua_State *L);
int bs_lua_dots_best_move(lua_State *L);

#endif
