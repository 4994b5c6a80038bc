/* ldgame_search.c - S:search and S:mcts: the described-game searchers (dgame_search.h) as methods of a core.dgame state. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/dgame_search.h"
#include "binding.h"
#include "ldgame.h"
#include "ldgame_search.h"

/*
 * S:search{ depth =, time =, nodes =, tt_mb =, values =, quiescence =, eval =, forcing =, searcher = }
 *     -> move, value, info
 *   forcing = false: no forced moves in a game decided by lines (default true).
 *   searcher: a core.dgame_searcher{ tt_mb = } whose table is kept between
 *   searches (a player's moves); emptied when the game, the evaluation or
 *   the options change. Without it each search has its own (tt_mb MiB).
 *   info = { depth =, nodes =, exact =, stopped =, seconds = }; value for
 *   the side to move (hundredths of a piece; a result beyond +-1000000).
 * S:mcts{ playouts =, time =, seed =, c =, max_nodes =, eval =, values = } -> move, info
 *   info = { playouts =, value = (0..1, the side to move's), nodes =,
 *   proven =, visits = { [move] = n } }.
 * A finished game gives nil, "game over". A pass is the string "pass".
 * `eval`: a learned evaluation (core.dgame_eval) of this game: the search's
 * horizon value, MCTS's leaf value instead of a random playout.
 */

/* Defaults: the Lua alphabeta's depth without a time, MCTS's playouts. */
#define DEFAULT_DEPTH 6
#define DEFAULT_QUIESCENCE 8
#define DEFAULT_PLAYOUTS 1000
#define DEFAULT_C 0.4
#define DEFAULT_MAX_NODES (1u << 20)

typedef struct clock_budget {
    clockid_t id;
    struct timespec start, deadline;
    int has_deadline;
} clock_budget;

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static void budget_start(clock_budget *b, clockid_t id, double seconds)
{
    memset(b, 0, sizeof *b);
    b->id = id;
    clock_gettime(id, &b->start);
    b->has_deadline = seconds > 0;
    if (b->has_deadline) {
        double whole = floor(seconds);
        b->deadline.tv_sec = b->start.tv_sec + (time_t)whole;
        b->deadline.tv_nsec = b->start.tv_nsec + (long)((seconds - whole) * 1e9);
        if (b->deadline.tv_nsec >= 1000000000L) {
            b->deadline.tv_sec++;
            b->deadline.tv_nsec -= 1000000000L;
        }
    }
}

static double budget_used(const clock_budget *b)
{
    struct timespec t;
    clock_gettime(b->id, &t);
    return seconds_between(&b->start, &t);
}

static int should_stop(void *userdata)
{
    clock_budget *b = userdata;
    if (!b->has_deadline)
        return 0;
    struct timespec t;
    clock_gettime(b->id, &t);
    return t.tv_sec > b->deadline.tv_sec || (t.tv_sec == b->deadline.tv_sec && t.tv_nsec >= b->deadline.tv_nsec);
}

static void push_move(lua_State *L, dg_move m)
{
    if (m == DG_SEARCH_PASS)
        lua_pushliteral(L, "pass");
    else
        lua_pushinteger(L, (lua_Integer)m);
}

/* What the evaluation reads of the game: its size and first line and reach
 * ends (from the compiled spec), the kinds' values (option `values`, a list
 * of numbers, default 1 each). */
static void eval_game(lua_State *L, int opts, const dg_desc *d, dg_eval_game *eg)
{
    const dg_spec *spec = dg_desc_spec(d);
    memset(eg, 0, sizeof *eg);
    eg->rows = spec->rows;
    eg->cols = spec->cols;
    for (int i = 0; i < spec->nends; i++) {
        const dg_end_spec *e = &spec->ends[i];
        if (e->op == DG_END_LINE && eg->line_k == 0) {
            eg->line_k = e->k;
            for (int a = 0; a < e->dirs.n && a < 4; a++) {
                eg->line_axes[a][0] = e->dirs.d[a][0];
                eg->line_axes[a][1] = e->dirs.d[a][1];
            }
            eg->line_axis_count = e->dirs.n < 4 ? e->dirs.n : 4;
        }
    }
    if (opts && lua_getfield(L, opts, "values") != LUA_TNIL) {
        if (!lua_istable(L, -1))
            luaL_argerror(L, opts, "field 'values': list of numbers expected");
        for (int k = 0; k < DG_EVAL_KINDS; k++) {
            lua_rawgeti(L, -1, k + 1);
            if (!lua_isnil(L, -1)) {
                int isnum;
                lua_Number v = lua_tonumberx(L, -1, &isnum);
                if (!isnum || !(v >= 0 && v <= 1000))
                    luaL_argerror(L, opts, lua_pushfstring(L, "field 'values'[%d]: number 0..1000 expected", k + 1));
                eg->values[k] = (int)lround(v);
                if (eg->values[k] == 0 && v > 0)
                    eg->values[k] = 1;
            }
            lua_pop(L, 1);
        }
    }
    if (opts)
        lua_pop(L, 1);
    if (opts && lua_getfield(L, opts, "eval") != LUA_TNIL) {
        if (!luaL_testudata(L, -1, "boardscript.dgame_eval"))
            luaL_argerror(L, opts, "field 'eval': a core.dgame_eval evaluation expected");
        eg->learned = bs_lua_checkdgeval(L, lua_gettop(L));
        if (!dg_ntuple_fits(eg->learned, d))
            luaL_argerror(L, opts, "field 'eval': an evaluation of another game");
    }
    if (opts)
        lua_pop(L, 1); /* E stays referenced by the options table while the search runs */
}

/* The reach end's zones as cell lists: kept in `zones` (2 x cells). */
static void eval_reach(const dg_desc *d, dg_eval_game *eg, int *zones)
{
    const dg_spec *spec = dg_desc_spec(d);
    int cells = spec->rows * spec->cols;
    for (int i = 0; i < spec->nends; i++) {
        const dg_end_spec *e = &spec->ends[i];
        if (e->op != DG_END_REACH)
            continue;
        for (int side = 0; side < 2; side++) {
            int n = 0;
            for (int c = 0; c < cells; c++)
                if (e->zone[side].w[c >> 6] >> (c & 63) & 1)
                    zones[side * cells + n++] = c;
            eg->reach_zone[side] = zones + side * cells;
            eg->reach_zone_count[side] = n;
        }
        eg->reach_kinds = e->kinds;
        return;
    }
}

/* Frees the searcher a holder keeps. */
static int holder_gc(lua_State *L)
{
    dg_searcher **slot = lua_touserdata(L, 1);
    if (slot && *slot) {
        dg_searcher_free(*slot);
        *slot = NULL;
    }
    return 0;
}

dg_searcher *bs_lua_static_searcher(lua_State *L, int state_arg, int opts, const struct dg_ntuple *nt)
{
    const dg_desc *d;
    d = bs_lua_checkdgstate(L, state_arg)->g->d;
    dg_eval_game eg;
    eval_game(L, opts, d, &eg);
    eg.learned = nt;
    int cells = eg.rows * eg.cols;
    int *zones = lua_newuserdatauv(L, sizeof(int) * 2 * (size_t)cells, 0);
    eval_reach(d, &eg, zones);
    dg_searcher **slot = lua_newuserdatauv(L, sizeof *slot, 0);
    *slot = NULL;
    static const luaL_Reg holder[] = {{"__gc", holder_gc}, {NULL, NULL}};
    if (luaL_newmetatable(L, "boardscript.dgame_static"))
        luaL_setfuncs(L, holder, 0);
    lua_setmetatable(L, -2);
    dg_search_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tt_bytes = 4096;
    if (dg_searcher_new(slot, &cfg) != BS_OK)
        luaL_error(L, "not enough memory for the evaluation");
    int st = dg_search_prepare(*slot, d, &eg);
    if (st == BS_ENOMEM)
        luaL_error(L, "not enough memory for the evaluation");
    if (st != BS_OK)
        luaL_error(L, "an evaluation of another game");
    lua_remove(L, -2); /* the zones: read by prepare only */
    return *slot;
}

/* S:search(opts) */
/* opts.forcing: nil or a boolean (default true); returns no_forcing. */
static int no_forcing(lua_State *L, int opts)
{
    int t = lua_getfield(L, opts, "forcing");
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
        luaL_argerror(L, 2, "field 'forcing': a boolean expected");
    int off = t == LUA_TBOOLEAN && !lua_toboolean(L, -1);
    lua_pop(L, 1);
    return off;
}

/* A searcher kept between searches (core.dgame_searcher): its table, and
 * what the entries in it were found with. Uservalues: 1 the game (G) and
 * 2 the learned evaluation (E or nil) of its last search, held so that
 * neither can be freed and another made at the same address. */
typedef struct lsearcher {
    dg_searcher *sr;
    uint64_t print; /* the last search's evaluation and options */
} lsearcher;

/* core.dgame_searcher{ tt_mb = 16 } */
static int core_dgame_searcher(lua_State *L)
{
    int opts = bs_lua_opttable(L, 1);
    lua_Integer tt_mb = opts ? bs_lua_intfield(L, opts, "tt_mb", 1, 4096, 16) : 16;
    lsearcher *ks = lua_newuserdatauv(L, sizeof *ks, 2);
    memset(ks, 0, sizeof *ks);
    luaL_setmetatable(L, DGSEARCHER_META);
    dg_search_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tt_bytes = (size_t)tt_mb << 20;
    if (dg_searcher_new(&ks->sr, &cfg) != BS_OK)
        return luaL_error(L, "not enough memory for the search's %d MiB table", (int)tt_mb);
    return 1;
}

static int searcher_close(lua_State *L)
{
    lsearcher *ks = luaL_checkudata(L, 1, DGSEARCHER_META);
    dg_searcher_free(ks->sr);
    ks->sr = NULL;
    return 0;
}

static int searcher_tostring(lua_State *L)
{
    lsearcher *ks = luaL_checkudata(L, 1, DGSEARCHER_META);
    if (ks->sr)
        lua_pushfstring(L, "dgame_searcher (%p)", (void *)ks);
    else
        lua_pushliteral(L, "dgame_searcher (closed)");
    return 1;
}

int bs_lua_dgame_searcher_closed(const void *object)
{
    return ((const lsearcher *)object)->sr == NULL;
}

/* A fingerprint of what a search's values depend on besides the position. */
static uint64_t search_print(const dg_eval_game *eg, const dg_search_limits *lim)
{
    uint64_t h = bs_mix64((uint64_t)lim->quiescence * 0x9e3779b97f4a7c15ULL + (uint64_t)lim->no_forcing);
    for (int k = 0; k < DG_EVAL_KINDS; k++)
        h = bs_mix64(h ^ (uint64_t)(unsigned)eg->values[k]);
    return h;
}

/* The searcher given as opts.searcher (NULL: none), made ready for a
 * search of S (at 1) with `eg` and `lim`: its table emptied when the game,
 * the evaluation or the options differ from its last search's. */
static dg_searcher *kept_searcher(lua_State *L, int opts, const dg_eval_game *eg, const dg_search_limits *lim)
{
    if (!opts || lua_getfield(L, opts, "searcher") == LUA_TNIL) {
        if (opts)
            lua_pop(L, 1);
        return NULL;
    }
    lsearcher *ks = luaL_testudata(L, -1, DGSEARCHER_META);
    if (!ks)
        luaL_argerror(L, 2, "field 'searcher': a core.dgame_searcher expected");
    if (!ks->sr)
        luaL_argerror(L, 2, lua_pushfstring(L, "field 'searcher': %s", bs_lua_pushclosed(L, DGSEARCHER_META)));
    int k = lua_gettop(L);
    uint64_t print = search_print(eg, lim);
    lua_getiuservalue(L, 1, 1); /* G */
    lua_getiuservalue(L, k, 1);
    int same = lua_rawequal(L, -1, -2) && print == ks->print;
    lua_pop(L, 1);
    lua_setiuservalue(L, k, 1);
    lua_getfield(L, opts, "eval");
    if (!eg->learned) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
    lua_getiuservalue(L, k, 2);
    same = same && lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
    lua_setiuservalue(L, k, 2);
    lua_pop(L, 1); /* the searcher: opts holds it */
    if (!same)
        dg_searcher_clear(ks->sr);
    ks->print = print;
    return ks->sr;
}

int bs_lua_dgame_search(lua_State *L)
{
    lstate *ls = bs_lua_checkdgstate(L, 1);
    const dg_desc *d = ls->g->d;
    dg_state *s = ls->s;
    int opts = bs_lua_opttable(L, 2);
    dg_search_limits lim = {0, 0, DEFAULT_QUIESCENCE, 0};
    double seconds = 0;
    lua_Integer tt_mb = 16;
    if (opts) {
        lim.depth = (int)bs_lua_intfield(L, opts, "depth", 1, 100, 0);
        lim.nodes = (uint64_t)bs_lua_intfield(L, opts, "nodes", 1, LUA_MAXINTEGER, 0);
        seconds = bs_lua_numfield(L, opts, "time", 0, 1e7, 0);
        tt_mb = bs_lua_intfield(L, opts, "tt_mb", 1, 4096, 16);
        lim.quiescence = (int)bs_lua_intfield(L, opts, "quiescence", 0, 32, DEFAULT_QUIESCENCE);
        lim.no_forcing = no_forcing(L, opts);
    }
    if (lim.depth == 0 && seconds == 0 && lim.nodes == 0)
        lim.depth = DEFAULT_DEPTH;
    dg_eval_game eg;
    eval_game(L, opts, d, &eg);
    if (dg_status(d, s) != DG_ONGOING) {
        luaL_pushfail(L);
        lua_pushliteral(L, "game over");
        return 2;
    }
    int cells = eg.rows * eg.cols;
    int *zones = lua_newuserdatauv(L, sizeof(int) * 2 * (size_t)cells, 0);
    eval_reach(d, &eg, zones);
    clock_budget budget;
    budget_start(&budget, CLOCK_MONOTONIC, seconds);
    /* the whole time is used: an iteration cut short still counts (its
     * first move is the last iteration's best, any that beat it is kept) */
    dg_search_config cfg = {(size_t)tt_mb << 20, should_stop, &budget, NULL};
    dg_searcher *kept = kept_searcher(L, opts, &eg, &lim), *sr = kept;
    if (kept)
        dg_searcher_set_stop(kept, should_stop, &budget);
    else if (dg_searcher_new(&sr, &cfg) != BS_OK)
        return luaL_error(L, "not enough memory for the search's %d MiB table", (int)tt_mb);
    dg_search_result res;
    int st = dg_search(sr, d, s, &eg, &lim, &res); /* raises nothing: s is restored */
    if (kept)
        dg_searcher_set_stop(kept, NULL, NULL);
    else
        dg_searcher_free(sr);
    if (st == BS_ENOMEM)
        return luaL_error(L, "not enough memory for the search");
    if (st != BS_OK)
        return luaL_error(L, "the search failed (status %d)", st);
    push_move(L, res.move);
    lua_pushinteger(L, res.value);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, res.depth);
    lua_setfield(L, -2, "depth");
    lua_pushinteger(L, (lua_Integer)res.nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushboolean(L, res.exact);
    lua_setfield(L, -2, "exact");
    lua_pushboolean(L, res.stopped);
    lua_setfield(L, -2, "stopped");
    lua_pushnumber(L, budget_used(&budget));
    lua_setfield(L, -2, "seconds");
    return 3;
}

/* Frees a finished search's children (a to-be-closed slot holding their
 * pointer: a memory error building the results cannot leak them; it is
 * closed after the function returns, so it holds nothing of its frame). */
static int free_children(lua_State *L)
{
    dg_mcts_child **slot = lua_touserdata(L, 1);
    if (slot && *slot) {
        free(*slot);
        *slot = NULL;
    }
    return 0;
}

/* S:mcts(opts) */
int bs_lua_dgame_mcts(lua_State *L)
{
    lstate *ls = bs_lua_checkdgstate(L, 1);
    const dg_desc *d = ls->g->d;
    dg_state *s = ls->s;
    int opts = bs_lua_opttable(L, 2);
    dg_mcts_config cfg;
    memset(&cfg, 0, sizeof cfg);
    double seconds = 0;
    cfg.c = DEFAULT_C;
    cfg.max_nodes = DEFAULT_MAX_NODES;
    cfg.seed = 1;
    if (opts) {
        cfg.playouts = (uint64_t)bs_lua_intfield(L, opts, "playouts", 1, LUA_MAXINTEGER, 0);
        seconds = bs_lua_numfield(L, opts, "time", 0, 1e7, 0);
        cfg.seed = (uint64_t)bs_lua_intfield(L, opts, "seed", LUA_MININTEGER, LUA_MAXINTEGER, 1);
        cfg.c = bs_lua_numfield(L, opts, "c", 0, 100, DEFAULT_C);
        cfg.max_nodes = (size_t)bs_lua_intfield(L, opts, "max_nodes", 16, (lua_Integer)1 << 30, DEFAULT_MAX_NODES);
        if (lua_getfield(L, opts, "eval") != LUA_TNIL) {
            if (!luaL_testudata(L, -1, "boardscript.dgame_eval"))
                luaL_argerror(L, opts, "field 'eval': a core.dgame_eval evaluation expected");
            const dg_ntuple *nt = bs_lua_checkdgeval(L, lua_gettop(L));
            if (!dg_ntuple_fits(nt, d))
                luaL_argerror(L, opts, "field 'eval': an evaluation of another game");
            cfg.leaf = dg_ntuple_leaf;
            cfg.leaf_userdata = bs_lua_static_searcher(L, 1, opts, nt); /* its holder stays on the stack */
            lua_insert(L, -2);
        }
        lua_pop(L, 1);
    }
    if (cfg.playouts == 0 && seconds == 0)
        cfg.playouts = DEFAULT_PLAYOUTS;
    if (dg_status(d, s) != DG_ONGOING) {
        luaL_pushfail(L);
        lua_pushliteral(L, "game over");
        return 2;
    }
    clock_budget budget; /* processor time, as the Lua mcts's os.clock */
    budget_start(&budget, CLOCK_PROCESS_CPUTIME_ID, seconds);
    cfg.should_stop = should_stop;
    cfg.stop_userdata = &budget;
    dg_mcts_result res;
    dg_mcts_child **slot = lua_newuserdatauv(L, sizeof *slot, 0);
    *slot = NULL;
    static const luaL_Reg closer[] = {{"__close", free_children}, {NULL, NULL}};
    if (luaL_newmetatable(L, "boardscript.dgame_mcts_children"))
        luaL_setfuncs(L, closer, 0);
    lua_setmetatable(L, -2);
    lua_toclose(L, -1);
    int st = dg_mcts(d, s, &cfg, &res);
    if (st == BS_ENOMEM)
        return luaL_error(L, "not enough memory for the search");
    if (st != BS_OK)
        return luaL_error(L, "the search failed (status %d)", st);
    *slot = res.children;
    push_move(L, res.move);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, (lua_Integer)res.playouts);
    lua_setfield(L, -2, "playouts");
    lua_pushnumber(L, res.value);
    lua_setfield(L, -2, "value");
    lua_pushinteger(L, (lua_Integer)res.nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushinteger(L, res.proven);
    lua_setfield(L, -2, "proven");
    lua_pushnumber(L, budget_used(&budget));
    lua_setfield(L, -2, "seconds");
    lua_createtable(L, 0, res.child_count);
    for (int i = 0; i < res.child_count; i++) {
        push_move(L, res.children[i].move);
        lua_pushinteger(L, res.children[i].visits);
        lua_settable(L, -3);
    }
    lua_setfield(L, -2, "visits");
    return 2;
}

void bs_lua_open_dgame_searcher(lua_State *L)
{
    static const luaL_Reg methods[] = {{"close", searcher_close}, {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__gc", searcher_close}, {"__close", searcher_close},
                                        {"__tostring", searcher_tostring}, {NULL, NULL}};
    bs_lua_newmeta(L, DGSEARCHER_META, methods, meta);
    lua_pushcfunction(L, core_dgame_searcher);
    lua_setfield(L, -2, "dgame_searcher");
}
