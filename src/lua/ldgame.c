/* ldgame.c - core.dgame(normalised) -> G; G:start() -> S: a described game's states. */
#include <stdlib.h>

#include "ldgame.h"
#include "ldgame_search.h"

/*
 * G holds the compiled description and one move buffer (the binding's
 * calls never run into each other on it); its user value is the list of
 * kind names. S holds a state; its user value is its G, which keeps the
 * description alive. Moves are the contract's integers; a nonsense integer
 * is never played: S:play checks it against the legal list.
 */

#define PLAYOUT_PLY_CAP 10000

static int game_gc(lua_State *L)
{
    lgame *g = luaL_checkudata(L, 1, DGAME_META);
    dg_desc_free(g->d);
    free(g->buf);
    free(g->pbuf);
    g->d = NULL;
    g->buf = g->pbuf = NULL;
    g->pdepth = 0;
    return 0;
}

static lgame *check_game(lua_State *L, int arg)
{
    lgame *g = luaL_checkudata(L, arg, DGAME_META);
    if (!g->d)
        luaL_argerror(L, arg, "a released game");
    return g;
}

lstate *bs_lua_checkdgstate(lua_State *L, int arg)
{
    lstate *st = luaL_checkudata(L, arg, DGSTATE_META);
    if (!st->s)
        luaL_argerror(L, arg, "a released state");
    if (!st->g->d) /* its game's __gc was called by hand */
        luaL_argerror(L, arg, "a state of a released game");
    return st;
}

/* core.dgame(normalised) -> G */
static int core_dgame(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    dg_spec *sp = lua_newuserdatauv(L, sizeof *sp, 0); /* scratch, collected */
    bs_lua_read_dgspec(L, 1, sp);
    lgame *g = lua_newuserdatauv(L, sizeof *g, 1);
    g->d = NULL;
    g->buf = g->pbuf = NULL;
    g->pdepth = 0;
    luaL_setmetatable(L, DGAME_META);
    lua_createtable(L, sp->nkinds, 0);
    lua_getfield(L, 1, "kinds");
    for (int k = 1; k <= sp->nkinds; k++) {
        const char *name = NULL;
        if (lua_istable(L, -1) && lua_rawgeti(L, -1, k) == LUA_TSTRING)
            name = lua_tostring(L, -1);
        else if (lua_istable(L, -1))
            lua_pop(L, 1);
        if (!name) {
            lua_pushfstring(L, "kind%d", k);
            name = lua_tostring(L, -1);
        }
        /* the board text's letter: the name's first character, lower case (as the reference) */
        g->letter[k - 1] = (char)(name[0] >= 'A' && name[0] <= 'Z' ? name[0] - 'A' + 'a'
                                  : name[0] > ' ' && name[0] < 127 ? name[0] : 'a' + k - 1);
        lua_rawseti(L, -3, k);
    }
    lua_pop(L, 1);
    lua_setiuservalue(L, -2, 1);
    char why[200];
    int rc = dg_compile(sp, &g->d, why, sizeof why);
    if (rc == BS_ENOMEM)
        return luaL_error(L, "core.dgame: not enough memory");
    if (rc)
        return luaL_argerror(L, 1, why);
    g->buf = malloc(sizeof *g->buf * DG_MOVES_MAX);
    if (!g->buf)
        return luaL_error(L, "core.dgame: not enough memory");
    return 1;
}

static lstate *push_state(lua_State *L, int game_idx, lgame *g, dg_state *s)
{
    lstate *st = lua_newuserdatauv(L, sizeof *st, 1);
    st->s = NULL;
    st->g = g;
    luaL_setmetatable(L, DGSTATE_META);
    lua_pushvalue(L, game_idx);
    lua_setiuservalue(L, -2, 1);
    st->s = s;
    return st;
}

static int game_start(lua_State *L)
{
    lgame *g = check_game(L, 1);
    lstate *st = push_state(L, 1, g, NULL);
    st->s = dg_state_new(g->d);
    if (!st->s)
        return luaL_error(L, "not enough memory");
    return 1;
}

static int state_gc(lua_State *L)
{
    lstate *st = luaL_checkudata(L, 1, DGSTATE_META);
    dg_state_free(st->s);
    st->s = NULL;
    return 0;
}

static int state_clone(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    lua_getiuservalue(L, 1, 1);
    lstate *c = push_state(L, lua_gettop(L), st->g, NULL);
    c->s = dg_state_clone(st->s);
    if (!c->s)
        return luaL_error(L, "not enough memory");
    return 1;
}

static int state_moves(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    int n = dg_moves(st->g->d, st->s, st->g->buf, DG_MOVES_MAX);
    if (n < 0)
        return luaL_error(L, "more than %d moves", DG_MOVES_MAX);
    if (lua_isnoneornil(L, 2)) {
        lua_settop(L, 1);
        lua_createtable(L, n, 0);
    } else {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_settop(L, 2);
    }
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, (lua_Integer)st->g->buf[i]);
        lua_rawseti(L, 2, i + 1);
    }
    for (lua_Integer i = n + 1; lua_rawgeti(L, 2, i) != LUA_TNIL; i++) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, 2, i);
    }
    lua_pop(L, 1);
    lua_pushinteger(L, n);
    return 2;
}

/* The move at arg as a dg_move, or 0 with *ok = 0 when it cannot be one. */
dg_move bs_lua_todgmove(lua_State *L, int arg, int *ok)
{
    int isint;
    lua_Integer v = lua_tointegerx(L, arg, &isint);
    if (!isint && lua_type(L, arg) != LUA_TNUMBER)
        luaL_checkinteger(L, arg); /* raises: not a number */
    *ok = isint && v >= 0;
    return *ok ? (dg_move)v : 0;
}

static int state_play(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    int ok;
    dg_move m = bs_lua_todgmove(L, 2, &ok);
    const dg_desc *d = st->g->d;
    if (ok && dg_move_wellformed(d, m)) {
        int n = dg_moves(d, st->s, st->g->buf, DG_MOVES_MAX);
        for (int i = 0; i < n; i++)
            if (st->g->buf[i] == m) {
                if (dg_play(d, st->s, m))
                    return luaL_error(L, "not enough memory");
                lua_pushboolean(L, 1);
                return 1;
            }
    }
    luaL_pushfail(L);
    lua_pushliteral(L, "illegal");
    return 2;
}

static int state_pass(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    const dg_desc *d = st->g->d;
    if (!dg_can_pass(d, st->s)) {
        luaL_pushfail(L);
        lua_pushstring(L, dg_status(d, st->s) != DG_ONGOING ? "the game is over" : "a pass is not allowed here");
        return 2;
    }
    if (dg_pass(d, st->s))
        return luaL_error(L, "not enough memory");
    lua_pushboolean(L, 1);
    return 1;
}

static int state_can_pass(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    lua_pushboolean(L, dg_can_pass(st->g->d, st->s));
    return 1;
}

static int state_undo(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    lua_pushboolean(L, dg_undo(st->g->d, st->s));
    return 1;
}

static int state_status(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    static const char *const names[] = { NULL, "black", "white", "draw" };
    int s = dg_status(st->g->d, st->s);
    if (s == DG_ONGOING)
        lua_pushnil(L);
    else
        lua_pushstring(L, names[s]);
    return 1;
}

static int state_finished(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    lua_pushboolean(L, dg_status(st->g->d, st->s) != DG_ONGOING);
    return 1;
}

static int state_score(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    int sc[2];
    dg_score(st->g->d, st->s, sc);
    lua_pushinteger(L, sc[0]);
    lua_pushinteger(L, sc[1]);
    return 2;
}

static int state_player(lua_State *L)
{
    lua_pushstring(L, dg_player(bs_lua_checkdgstate(L, 1)->s) == 1 ? "black" : "white");
    return 1;
}

static int state_ply(lua_State *L)
{
    lua_pushinteger(L, dg_ply(bs_lua_checkdgstate(L, 1)->s));
    return 1;
}

static int state_hash(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)dg_hash(bs_lua_checkdgstate(L, 1)->s));
    return 1;
}

/* The cell index of (r, c) at args 2, 3 (checked). */
static int check_cell(lua_State *L, const lstate *st)
{
    int rows = dg_rows(st->g->d), cols = dg_cols(st->g->d);
    lua_Integer r = bs_lua_checkrange(L, 2, "row", 1, rows);
    lua_Integer c = bs_lua_checkrange(L, 3, "column", 1, cols);
    return (int)((r - 1) * cols + (c - 1));
}

static int state_get(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    int code = dg_cell(st->s, check_cell(L, st));
    if (code <= 0) {
        lua_pushstring(L, code < 0 ? "blocked" : "empty");
        return 1;
    }
    lua_pushstring(L, (code - 1) % 2 == 0 ? "black" : "white");
    lua_getiuservalue(L, 1, 1); /* G */
    lua_getiuservalue(L, -1, 1); /* kinds */
    lua_rawgeti(L, -1, (code - 1) / 2 + 1);
    lua_replace(L, -3);
    lua_pop(L, 1);
    return 2;
}

static int state_code(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    lua_pushinteger(L, dg_cell(st->s, check_cell(L, st)));
    return 1;
}

static int state_rows(lua_State *L)
{
    lua_pushinteger(L, dg_rows(bs_lua_checkdgstate(L, 1)->g->d));
    return 1;
}

static int state_cols(lua_State *L)
{
    lua_pushinteger(L, dg_cols(bs_lua_checkdgstate(L, 1)->g->d));
    return 1;
}

static int state_size(lua_State *L)
{
    const dg_desc *d = bs_lua_checkdgstate(L, 1)->g->d;
    lua_pushinteger(L, dg_rows(d) > dg_cols(d) ? dg_rows(d) : dg_cols(d));
    return 1;
}

static int state_count(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    static const char *const names[] = { "empty", "black", "white", NULL };
    lua_pushinteger(L, dg_count(st->s, bs_lua_checkoption(L, 2, NULL, names)));
    return 1;
}

static int state_eq(lua_State *L)
{
    lstate *a = luaL_testudata(L, 1, DGSTATE_META), *b = luaL_testudata(L, 2, DGSTATE_META);
    lua_pushboolean(L, a && b && a->s && b->s && a->g->d && b->g->d && dg_state_equal(a->s, b->s));
    return 1;
}

static int state_perft(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    int depth = (int)bs_lua_checkrange(L, 2, "depth", 0, 64), bulk = 1;
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_getfield(L, 3, "bulk");
        if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
            luaL_argerror(L, 3, "field 'bulk': expected a boolean");
        bulk = lua_isnil(L, -1) || lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    lgame *g = st->g;
    if (depth > g->pdepth) { /* the buffer is kept: repeated perfts pay no allocation */
        dg_move *n = realloc(g->pbuf, sizeof *n * DG_MOVES_MAX * (size_t)depth);
        if (!n)
            return luaL_error(L, "not enough memory");
        g->pbuf = n;
        g->pdepth = depth;
    }
    int64_t r = dg_perft_buf(g->d, st->s, depth, bulk, g->pbuf);
    if (r == BS_ENOMEM)
        return luaL_error(L, "not enough memory");
    if (r < 0)
        return luaL_error(L, "more than %d moves in a position", DG_MOVES_MAX);
    lua_pushinteger(L, (lua_Integer)r);
    return 1;
}

static int state_playout(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    bs_rng local, *rng;
    if (lua_type(L, 2) == LUA_TNUMBER) {
        int isint;
        lua_Integer seed = lua_tointegerx(L, 2, &isint);
        if (!isint)
            luaL_argerror(L, 2, "seed must be an integer");
        bs_rng_seed(&local, (uint64_t)seed);
        rng = &local;
    } else {
        rng = bs_lua_checkrng(L, 2);
    }
    int n = (int)(lua_isnoneornil(L, 3) ? 1 : bs_lua_checkrange(L, 3, "playouts", 0, 100000000));
    int64_t out[4];
    int rc = dg_playouts(st->g->d, st->s, rng, n, PLAYOUT_PLY_CAP, out);
    if (rc == BS_ENOMEM)
        return luaL_error(L, "not enough memory");
    if (rc)
        return luaL_error(L, "more than %d moves in a position", DG_MOVES_MAX);
    lua_createtable(L, 0, 4);
    static const char *const keys[] = { "black", "white", "draw", "plies" };
    for (int i = 0; i < 4; i++) {
        lua_pushinteger(L, (lua_Integer)out[i]);
        lua_setfield(L, -2, keys[i]);
    }
    return 1;
}

void bs_lua_open_dgame(lua_State *L)
{
    static const luaL_Reg game_methods[] = { { "start", game_start }, { NULL, NULL } };
    static const luaL_Reg game_meta[] = { { "__gc", game_gc }, { NULL, NULL } };
    static const luaL_Reg state_methods[] = {
        { "moves", state_moves },         { "play", state_play },
        { "pass", state_pass },           { "can_pass", state_can_pass },
        { "undo", state_undo },           { "status", state_status },
        { "finished", state_finished },   { "score", state_score },
        { "player", state_player },       { "ply", state_ply },
        { "hash", state_hash },           { "get", state_get },
        { "code", state_code },           { "rows", state_rows },
        { "cols", state_cols },           { "size", state_size },
        { "count", state_count },         { "clone", state_clone },
        { "move_text", bs_lua_dgstate_move_text }, { "parse_move", bs_lua_dgstate_parse_move },
        { "move_cells", bs_lua_dgstate_move_cells }, { "perft", state_perft },
        { "playout", state_playout },     { "search", bs_lua_dgame_search },
        { "mcts", bs_lua_dgame_mcts },    { NULL, NULL }
    };
    static const luaL_Reg state_meta[] = {
        { "__gc", state_gc }, { "__eq", state_eq }, { "__tostring", bs_lua_dgstate_tostring }, { NULL, NULL }
    };
    bs_lua_newmeta(L, DGAME_META, game_methods, game_meta);
    bs_lua_newmeta(L, DGSTATE_META, state_methods, state_meta);
    lua_pushcfunction(L, core_dgame);
    lua_setfield(L, -2, "dgame");
    bs_lua_open_dgame_eval(L);
    bs_lua_open_dgame_searcher(L);
}
