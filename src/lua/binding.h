/* binding.h - shared helpers of the Lua binding and each type's registration. */
#ifndef BS_BINDING_H
#define BS_BINDING_H

#include <lauxlib.h>
#include <lua.h>
#include <stdint.h>
#include <string.h>

#include "../core/board.h"

#define BS_VERSION "0.1.0"

/* Each userdata type adds its constructor(s) to the module table at the top
 * of the stack and creates its metatable. */
void bs_lua_open_board(lua_State *L);
void bs_lua_open_rng(lua_State *L);
void bs_lua_open_dots(lua_State *L);
void bs_lua_open_search(lua_State *L);
void bs_lua_open_playout(lua_State *L);
void bs_lua_open_cursor(lua_State *L);
void bs_lua_open_eval(lua_State *L);

/* The board of the boardscript.board userdata at `arg` (raises otherwise). */
const bs_board *bs_lua_checkboard(lua_State *L, int arg);
/* Pushes a new boardscript.board holding a copy of `b` (no undo history). */
void bs_lua_pushboard(lua_State *L, const bs_board *b);
/* A direction set at stack index `idx` ("all", "orthogonal", "diagonal",
 * "none" or a list of names): NULL and *mask, or what is wrong with it. */
const char *bs_lua_todirs(lua_State *L, int idx, unsigned *mask);

/* The options of a searcher call (a table at index `opts`, or 0 for none):
 * the game described in field `game` (standard Reversi without one), and the
 * position, board and player at the given indices with the fields passes,
 * piece, turns and unable. Raise errors naming the argument. */
struct bs_game;
struct bs_state;
struct bs_game bs_lua_checkgame(lua_State *L, int opts);
struct bs_state bs_lua_checkstate(lua_State *L, int board_arg, int player_arg, int opts,
                                  const struct bs_game *g);

/* Integer field `key` of the options table at `opts` (`def` when absent),
 * lo..hi; errors name the argument and the field. */
lua_Integer bs_lua_intfield(lua_State *L, int opts, const char *key, lua_Integer lo, lua_Integer hi,
                            lua_Integer def);
/* Pushes a finished playout's black, white, plies and winner (by the game's
 * rules, the position as it stands): core.playout's results. Returns 4. */
int bs_lua_pushoutcome(lua_State *L, const struct bs_game *g, const struct bs_state *s, int plies);

/* Builds a metatable named `name` with methods and metamethods (liolib.c's
 * createmeta). Leaves nothing on the stack. */
void bs_lua_newmeta(lua_State *L, const char *name, const luaL_Reg *methods,
                    const luaL_Reg *metamethods);

/* The index of the string at `idx` in the NULL-terminated `names`, or -1 (for
 * a non-string too). The whole string counts: "black\0x" is not "black". */
int bs_lua_findname(lua_State *L, int idx, const char *const names[]);

/* luaL_checkoption, but a string with an embedded zero matches no name. */
int bs_lua_checkoption(lua_State *L, int arg, const char *def, const char *const names[]);

/* Raises "bad argument #arg (... out of range lo..hi)" unless lo <= v <= hi. */
lua_Integer bs_lua_checkrange(lua_State *L, int arg, const char *what, lua_Integer lo,
                              lua_Integer hi);

/* A list into a caller's buffer (move_list, cursor:moves): the table at
 * `arg` (checked), or a new one when it is absent, left at index `arg` with
 * nothing above it. Fill it with lua_rawseti(L, arg, 1..count), then return
 * bs_lua_endlist(L, arg, count): it clears the entries after count and
 * leaves count and the buffer as the results (returns 2). */
void bs_lua_buffer(lua_State *L, int arg, int size);
int bs_lua_endlist(lua_State *L, int arg, lua_Integer count);

/* The userdata at `arg` when it has exactly `size` bytes and the 64-bit
 * `tag` at byte `tag_at` (two loads: Lua code cannot write a userdata's
 * bytes, and no other userdata of the module has both), else
 * luaL_checkudata's check and message. lua_touserdata gives NULL for
 * anything but a userdata, and lua_rawlen 0 for a light one. Inline: the
 * hot methods (cursor:play, rng:random) start with it. */
static inline void *bs_lua_checktagged(lua_State *L, int arg, size_t size, size_t tag_at, uint64_t tag,
                                       const char *meta)
{
    unsigned char *p = lua_touserdata(L, arg);
    uint64_t t;
    if (p && lua_rawlen(L, arg) == size && (memcpy(&t, p + tag_at, sizeof t), t == tag))
        return p;
    return luaL_checkudata(L, arg, meta);
}

#endif
