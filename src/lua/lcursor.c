/* lcursor.c - core.cursor: a game walked one move at a time from Lua, the
 * move picked by its number among the legal ones (one call a move). */
#include "../core/cursor.h"
#include "../core/playout.h"
#include "binding.h"

/* The cursor at argument 1: its userdata starts with CURSOR_TAG and has
 * its exact size (bs_lua_checktagged: two loads in the hot path). */
#define CURSOR_TAG 0x62732d637572736fULL /* "bs-curso" */

typedef struct lcursor {
    uint64_t tag;
    bs_cursor c;
} lcursor;

static bs_cursor *check_cursor(lua_State *L)
{
    lcursor *lc = bs_lua_checktagged(L, 1, sizeof(lcursor), offsetof(lcursor, tag), CURSOR_TAG, CURSOR_META);
    return &lc->c;
}

/*
 * core.cursor(board, player [, opts]) -> cursor
 * A copy of the position; opts takes the game description and the state
 * fields of a searcher (passes, piece, turns, unable).
 */
static int cursor_new(lua_State *L)
{
    int opts = bs_lua_opttable(L, 3);
    bs_game g = bs_lua_checkgame(L, opts);
    bs_state s = bs_lua_checkstate(L, 1, 2, opts, &g);
    lcursor *lc = lua_newuserdatauv(L, sizeof *lc, 0);
    lc->tag = CURSOR_TAG;
    if (bs_cursor_init(&lc->c, &g, &s) != BS_OK)
        return luaL_error(L, "malformed position");
    luaL_setmetatable(L, CURSOR_META);
    return 1;
}

/* play(k) -> count: plays legal move k (1..count) and the passes that follow. */
static int cursor_play(lua_State *L)
{
    bs_cursor *c = check_cursor(L);
    int isint;
    lua_Integer k = lua_tointegerx(L, 2, &isint);
    if (!isint || k < 1 || k > c->count) {
        if (c->count == 0)
            return luaL_error(L, "the game is over: no move to play");
        bs_lua_checkrange(L, 2, "move number", 1, c->count);
    }
    lua_pushinteger(L, bs_cursor_play(c, (int)k));
    return 1;
}

static int cursor_count(lua_State *L)
{
    lua_pushinteger(L, check_cursor(L)->count);
    return 1;
}

/* pass() -> count where the rules allow a pass with moves on the board;
 * else nil and a message (as board:play for an illegal move). */
static int cursor_pass(lua_State *L)
{
    bs_cursor *c = check_cursor(L);
    int count = bs_cursor_pass(c);
    if (count < 0) {
        luaL_pushfail(L);
        lua_pushstring(L, c->count == 0 ? "the game is over" : "the rules allow no pass here");
        return 2;
    }
    lua_pushinteger(L, count);
    return 1;
}

/* moves([buffer]) -> count, buffer: cell indices (row - 1) * n + col, as move_list. */
static int cursor_moves(lua_State *L)
{
    bs_cursor *c = check_cursor(L);
    bs_lua_buffer(L, 2, c->count);
    int squares[BS_MAX_N * BS_MAX_N];
    int count = bs_cursor_moves(c, squares), n = c->start.board.n;
    for (int i = 0; i < count; i++) {
        lua_pushinteger(L, (lua_Integer)(squares[i] / BS_MAX_N) * n + squares[i] % BS_MAX_N + 1);
        lua_rawseti(L, 2, i + 1);
    }
    return bs_lua_endlist(L, 2, count);
}

static int cursor_side(lua_State *L)
{
    bs_cursor *c = check_cursor(L);
    bs_lua_pushplayer(L, c->fast ? c->player : c->state.player);
    return 1;
}

static int cursor_plies(lua_State *L)
{
    lua_pushinteger(L, check_cursor(L)->plies);
    return 1;
}

/* result() -> black, white, plies, winner: as core.playout (the winner as
 * the position stands when the walk is not over). */
static int cursor_result(lua_State *L)
{
    bs_cursor *c = check_cursor(L);
    bs_state s;
    bs_cursor_state(c, &s);
    return bs_lua_pushoutcome(L, &c->game, &s, c->plies);
}

/* can_pass() -> whether pass() would pass. */
static int cursor_can_pass(lua_State *L)
{
    lua_pushboolean(L, bs_cursor_can_pass(check_cursor(L)));
    return 1;
}

/* playout(rng [, opts]) -> black, white, plies, winner: core.playout from
 * the position now (opts.limit, default twice the cells, and
 * opts.pass_odds), on a copy: the cursor is unchanged. The plies count
 * from the position now. */
static int cursor_playout(lua_State *L)
{
    bs_cursor *c = check_cursor(L);
    bs_rng *rng = bs_lua_checkrng(L, 2);
    lua_Integer limit = 2 * c->start.board.n * c->start.board.n, pass_odds = 0;
    if (bs_lua_opttable(L, 3)) {
        limit = bs_lua_intfield(L, 3, "limit", 0, 1000000, limit);
        pass_odds = bs_lua_intfield(L, 3, "pass_odds", 0, 1000000, 0);
    }
    bs_state s;
    bs_cursor_state(c, &s);
    int plies = 0;
    if (bs_playout(&c->game, &s, rng, (int)pass_odds, (int)limit, &plies) != BS_OK)
        return luaL_error(L, "malformed position"); /* cannot happen: the cursor checked it */
    return bs_lua_pushoutcome(L, &c->game, &s, plies);
}

static int cursor_reset(lua_State *L)
{
    bs_cursor *c = check_cursor(L);
    bs_cursor_reset(c);
    lua_pushinteger(L, c->count);
    return 1;
}

static int cursor_board(lua_State *L)
{
    bs_state s;
    bs_cursor_state(check_cursor(L), &s);
    bs_lua_pushboard(L, &s.board);
    return 1;
}

static int cursor_tostring(lua_State *L)
{
    bs_cursor *c = check_cursor(L);
    lua_pushfstring(L, "cursor (%p)", (void *)c);
    return 1;
}

void bs_lua_open_cursor(lua_State *L)
{
    static const luaL_Reg methods[] = {{"play", cursor_play},   {"count", cursor_count}, {"pass", cursor_pass},
                                       {"moves", cursor_moves}, {"side", cursor_side},   {"plies", cursor_plies},
                                       {"result", cursor_result}, {"reset", cursor_reset}, {"board", cursor_board},
                                       {"can_pass", cursor_can_pass}, {"playout", cursor_playout}, {NULL, NULL}};
    static const luaL_Reg metamethods[] = {{"__tostring", cursor_tostring}, {NULL, NULL}};
    bs_lua_newmeta(L, CURSOR_META, methods, metamethods);
    lua_pushcfunction(L, cursor_new);
    lua_setfield(L, -2, "cursor");
}
