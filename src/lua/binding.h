/* binding.h - shared helpers of the Lua binding and each type's registration. */
#ifndef BS_BINDING_H
#define BS_BINDING_H

#include <lauxlib.h>
#include <lua.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../core/board.h"
#include "../core/rng.h"

#define BS_VERSION "0.1.0"

/* The metatable names of the module's userdata types. */
#define BOARD_META "boardscript.board"
#define RNG_META "boardscript.rng"
#define CURSOR_META "boardscript.cursor"
#define DOTS_META "boardscript.dots"
#define DOTS_SOLVER_META "boardscript.dots_solver"
#define SEARCHER_META "boardscript.searcher"
#define EVALUATOR_META "boardscript.evaluator"
#define TRAINER_META "boardscript.trainer"
#define DGAME_META "boardscript.dgame"
#define DGSTATE_META "boardscript.dgame_state"
#define DGEVAL_META "boardscript.dgame_eval"
#define DGTRAINER_META "boardscript.dgame_trainer"
#define DGSEARCHER_META "boardscript.dgame_searcher"

/* Each userdata type adds its constructor(s) to the module table at the top
 * of the stack and creates its metatable. */
void bs_lua_open_board(lua_State *L);
void bs_lua_open_rng(lua_State *L);
void bs_lua_open_dots(lua_State *L);
void bs_lua_open_search(lua_State *L);
void bs_lua_open_playout(lua_State *L);
void bs_lua_open_cursor(lua_State *L);
void bs_lua_open_eval(lua_State *L);

/* Whether the object (a userdata of the type) is closed: core.type's
 * "closed board" and so on. */
int bs_lua_board_closed(const void *object);
int bs_lua_searcher_closed(const void *object);
int bs_lua_dots_solver_closed(const void *object);
int bs_lua_evaluator_closed(const void *object);
int bs_lua_trainer_closed(const void *object);
int bs_lua_dgame_searcher_closed(const void *object);

/* A closed object of the type `meta` at `arg` was used: raises "bad
 * argument #arg to 'name' (attempt to use a closed board)" (as liolib's
 * "attempt to use a closed file", naming the argument); the message alone
 * is pushed by bs_lua_pushclosed. Every closable type says it so. */
int bs_lua_closederror(lua_State *L, int arg, const char *meta);
const char *bs_lua_pushclosed(lua_State *L, const char *meta);

/* core.type(x): "board", "closed board", ..., or fail (as io.type). */
int bs_lua_type(lua_State *L);

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

/* Options: the table at `arg` (its index), or 0 when the argument is absent
 * or nil; anything else raises "table expected". */
int bs_lua_opttable(lua_State *L, int arg);

/* Field readers of an options table. The `_in` forms read the table at
 * stack index `t`, a table inside argument `arg` named `owner` ("game."):
 * errors name the argument and the field ("field 'game.turn_limit' out of
 * range 0..1000000"); the others read the argument `opts` itself. */
/* An integer lo..hi (a float with an integral value too), `def` when absent. */
lua_Integer bs_lua_intfield_in(lua_State *L, int arg, int t, const char *owner, const char *key, lua_Integer lo,
                               lua_Integer hi, lua_Integer def);
static inline lua_Integer bs_lua_intfield(lua_State *L, int opts, const char *key, lua_Integer lo, lua_Integer hi,
                                          lua_Integer def)
{
    return bs_lua_intfield_in(L, opts, opts, "", key, lo, hi, def);
}
/* A number lo..hi (NaN is out of range), `def` when absent. */
lua_Number bs_lua_numfield(lua_State *L, int opts, const char *key, lua_Number lo, lua_Number hi, lua_Number def);
/* Whether the field is true (any value but nil and false). */
int bs_lua_boolfield(lua_State *L, int t, const char *key);
/* A direction set (see bs_lua_todirs), `def` when absent. */
unsigned bs_lua_dirsfield_in(lua_State *L, int arg, int t, const char *owner, const char *key, unsigned def);
static inline unsigned bs_lua_dirsfield(lua_State *L, int opts, const char *key, unsigned def)
{
    return bs_lua_dirsfield_in(L, opts, opts, "", key, def);
}
/* The index of the field's value in `names` (exactly), `def` when absent. */
int bs_lua_optionfield_in(lua_State *L, int arg, int t, const char *owner, const char *key,
                          const char *const names[], int def);
/* A field that was renamed: raises "field 'old' is now 'now'" when it is
 * set, so an old caller's limit is not silently ignored. */
void bs_lua_renamedfield(lua_State *L, int opts, const char *old, const char *now);

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

/* How a name that matched nothing reads in a message: the string, or its
 * type ("a string with an embedded zero" for one). */
const char *bs_lua_shownname(lua_State *L, int idx);

/* luaL_checkoption, but a string with an embedded zero matches no name. */
int bs_lua_checkoption(lua_State *L, int arg, const char *def, const char *const names[]);

/* A player named at `arg`, "black" or "white": BS_BLACK or BS_WHITE (raises
 * otherwise); and a player's name pushed. The one list of the names. */
int bs_lua_checkplayer(lua_State *L, int arg);
void bs_lua_pushplayer(lua_State *L, int player);

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

/* A generator's userdata: the generator, then RNG_TAG (so a pointer to it
 * is a bs_rng pointer); checked by bs_lua_checktagged, two loads in the hot
 * path (rng:random). */
#define RNG_TAG 0x62732d726e672d31ULL /* "bs-rng-1" */
typedef struct bs_lrng {
    bs_rng g;
    uint64_t tag;
} bs_lrng;

/* The generator of the core.rng at `arg` (raises otherwise). */
static inline bs_rng *bs_lua_checkrng(lua_State *L, int arg)
{
    bs_lrng *r = bs_lua_checktagged(L, arg, sizeof(bs_lrng), offsetof(bs_lrng, tag), RNG_TAG, RNG_META);
    return &r->g;
}

#endif
