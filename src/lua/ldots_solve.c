/* ldots_solve.c - the exact Dots and Boxes solver as Lua userdata, plus d:solve and d:best_move. */
#include <math.h>
#include <time.h>

#include "../core/dots_solve.h"
#include "ldots.h"

/*
 * Values are the core's: the net score of the boxes still unowned, for the
 * player to move, with perfect play (from an empty grid, the first player's
 * margin). Limits are per call: `nodes`, and `time` in seconds of CPU time
 * (the clock of --max-seconds; the searcher's `time` is wall time). The
 * names were `node_limit` and `seconds`: those raise, naming the new ones.
 * The core only polls the stop callback every few thousand nodes, so a limit
 * is met to within that.
 */
typedef struct lsolver {
    bs_dots_solver *solver; /* NULL before creation and after close */
    lua_Integer nodes;      /* the defaults for each call; 0 = none */
    lua_Number time;        /* CPU seconds */
    uint64_t start, limit;  /* the call in progress */
    clock_t deadline;
    int has_deadline;
    lua_Number interval;    /* the default seconds between progress calls */
    lua_State *L;           /* while a call with a progress function runs */
    int progress_idx;       /* its stack index, 0 = none */
    int err_idx;            /* the stack slot for an error it raised */
    int failed;             /* it raised: the search stops, the error is raised again */
    int busy;               /* a call is running (its progress function may call in) */
    clock_t next_report, report_ticks;
} lsolver;

typedef struct solve_opts {
    lua_Integer tt_mb;      /* 0 = the core's default */
    lua_Integer nodes;      /* -1 = not given */
    lua_Number time;        /* -1 = not given */
    lua_Number interval;    /* progress_interval; -1 = not given */
    int progress_arg;       /* stack index of an options table with a progress function, or 0 */
} solve_opts;

/* Calls the progress function with the nodes of this call so far and the
 * bounds on the value proved so far (lo, hi), every `progress_interval`
 * seconds of CPU time (default 1; 0: every poll, a few thousand nodes). An
 * error in it stops the search; the call then raises it again. */
static int report_progress(lsolver *ls)
{
    clock_t now = clock();
    if (now < ls->next_report)
        return 0;
    ls->next_report = now + ls->report_ticks;
    lua_State *L = ls->L;
    lua_pushvalue(L, ls->progress_idx);
    lua_pushinteger(L, (lua_Integer)(bs_dots_solver_nodes(ls->solver) - ls->start));
    int lo = 0, hi = 0;
    bs_dots_solver_bounds(ls->solver, &lo, &hi);
    lua_pushinteger(L, lo);
    lua_pushinteger(L, hi);
    if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
        lua_replace(L, ls->err_idx);
        ls->failed = 1;
        return 1;
    }
    return 0;
}

static int should_stop(void *userdata)
{
    lsolver *ls = userdata;
    if (ls->failed)
        return 1;
    if (ls->limit && bs_dots_solver_nodes(ls->solver) - ls->start >= ls->limit)
        return 1;
    if (ls->progress_idx && report_progress(ls))
        return 1;
    return ls->has_deadline && clock() >= ls->deadline;
}

/* {tt_mb =, nodes =, time =, progress =, progress_interval =} at
 * `arg` (absent or nil: defaults). */
static solve_opts check_opts(lua_State *L, int arg, int allow_tt)
{
    solve_opts o = {0, -1, -1, -1, 0};
    if (!bs_lua_opttable(L, arg))
        return o;
    int type = lua_getfield(L, arg, "progress");
    lua_pop(L, 1);
    if (type == LUA_TFUNCTION)
        o.progress_arg = arg;
    else if (type != LUA_TNIL)
        luaL_argerror(L, arg, "field 'progress': function expected");
    if (allow_tt)
        o.tt_mb = bs_lua_intfield(L, arg, "tt_mb", 1, 1 << 16, 0);
    bs_lua_renamedfield(L, arg, "node_limit", "nodes");
    bs_lua_renamedfield(L, arg, "seconds", "time");
    o.nodes = bs_lua_intfield(L, arg, "nodes", 0, LUA_MAXINTEGER, -1);
    o.time = bs_lua_numfield(L, arg, "time", 0, HUGE_VAL, -1);
    o.interval = bs_lua_numfield(L, arg, "progress_interval", 0, HUGE_VAL, -1);
    return o;
}

/* Pushes a new solver; the userdata exists (and __gc is safe) before the
 * table is allocated. */
static lsolver *push_solver(lua_State *L, const solve_opts *o)
{
    lsolver *ls = lua_newuserdatauv(L, sizeof *ls, 1); /* user value: the default progress function */
    ls->solver = NULL;
    ls->nodes = o->nodes > 0 ? o->nodes : 0;
    ls->time = o->time > 0 ? o->time : 0;
    ls->interval = o->interval >= 0 ? o->interval : 1;
    ls->start = ls->limit = 0;
    ls->has_deadline = 0;
    ls->L = NULL;
    ls->progress_idx = ls->err_idx = ls->failed = ls->busy = 0;
    luaL_setmetatable(L, DOTS_SOLVER_META);
    bs_dots_solve_config cfg = {0};
    cfg.tt_bytes = (size_t)o->tt_mb << 20;
    cfg.should_stop = should_stop;
    cfg.userdata = ls;
    bs_dots_solver *s = NULL;
    if (bs_dots_solver_new(&s, &cfg) != BS_OK)
        luaL_error(L, "not enough memory for the solver's table");
    ls->solver = s;
    return ls;
}

static lsolver *check_solver(lua_State *L, int arg)
{
    lsolver *ls = luaL_checkudata(L, arg, DOTS_SOLVER_META);
    if (!ls->solver)
        bs_lua_closederror(L, arg, DOTS_SOLVER_META);
    return ls;
}

int bs_lua_dots_solver_closed(const void *object)
{
    return ((const lsolver *)object)->solver == NULL;
}

/* For value and best: not from the solver's own progress function. */
static lsolver *check_idle_solver(lua_State *L, int arg)
{
    lsolver *ls = check_solver(L, arg);
    if (ls->busy)
        luaL_error(L, "solver is busy (called from its own progress function)");
    return ls;
}

static void close_solver(lsolver *ls)
{
    bs_dots_solver_free(ls->solver);
    ls->solver = NULL;
}

/* Solves `d` with the solver at stack index `solver_arg` and pushes the
 * results: the value (and with want_move, first the edge), then the nodes
 * this call visited. Expected failures push nil and a message: a grid too
 * large, a finished game (no move to give), or a search stopped by a limit
 * (then also the nodes and the bounds lo, hi on the value that it had
 * proved). When the progress function raised, returns -1 with its error on
 * the top of the stack, for the caller to raise. */
static int run(lua_State *L, int solver_arg, const bs_dots *d, const solve_opts *call, int want_move)
{
    lsolver *ls = lua_touserdata(L, solver_arg);
    if (d->nedges > BS_DOTS_SOLVE_MAX_EDGES) {
        luaL_pushfail(L);
        lua_pushfstring(L, "grid too large for the solver (%d edges, at most %d)", d->nedges,
                        BS_DOTS_SOLVE_MAX_EDGES);
        return 2;
    }
    if (want_move && bs_dots_is_finished(d) == 1) {
        luaL_pushfail(L);
        lua_pushliteral(L, "game over");
        return 2;
    }
    lua_Integer limit = call->nodes >= 0 ? call->nodes : ls->nodes;
    lua_Number seconds = call->time >= 0 ? call->time : ls->time;
    ls->start = bs_dots_solver_nodes(ls->solver);
    ls->limit = (uint64_t)limit;
    /* A limit of years is no limit, and must not overflow clock_t. */
    double ticks = seconds * CLOCKS_PER_SEC;
    ls->has_deadline = seconds > 0 && ticks < 1e15;
    if (ls->has_deadline)
        ls->deadline = clock() + (clock_t)ticks;
    if (call->progress_arg)
        lua_getfield(L, call->progress_arg, "progress");
    else
        lua_getiuservalue(L, solver_arg, 1);
    if (lua_isfunction(L, -1)) {
        lua_Number interval = call->interval >= 0 ? call->interval : ls->interval;
        double report = interval * CLOCKS_PER_SEC;
        ls->report_ticks = report < 1e15 ? (clock_t)report : (clock_t)1e15;
        ls->L = L;
        ls->progress_idx = lua_gettop(L);
        lua_pushnil(L);
        ls->err_idx = lua_gettop(L);
        ls->next_report = clock() + ls->report_ticks;
    }
    int edge = -1, value = 0;
    ls->failed = 0;
    ls->busy = 1; /* nothing raises until it is cleared: progress runs in lua_pcall */
    int st = want_move ? bs_dots_solver_best(ls->solver, d, &edge, &value)
                       : bs_dots_solver_value(ls->solver, d, &value);
    ls->busy = 0;
    uint64_t nodes = bs_dots_solver_nodes(ls->solver) - ls->start;
    ls->limit = 0;
    ls->has_deadline = 0;
    ls->progress_idx = 0;
    ls->L = NULL;
    if (ls->failed) {
        ls->failed = 0;
        lua_pushvalue(L, ls->err_idx);
        return -1;
    }
    if (st == BS_ESTATE) {
        luaL_pushfail(L);
        lua_pushliteral(L, "stopped");
        lua_pushinteger(L, (lua_Integer)nodes);
        int lo = 0, hi = 0;
        bs_dots_solver_bounds(ls->solver, &lo, &hi);
        lua_pushinteger(L, lo);
        lua_pushinteger(L, hi);
        return 5;
    }
    if (st != BS_OK)
        return luaL_error(L, "the solver failed (status %d)", st);
    if (want_move)
        bs_lua_pushedge(L, d, edge);
    lua_pushinteger(L, value);
    lua_pushinteger(L, (lua_Integer)nodes);
    return want_move ? 3 : 2;
}

/* core.dots_solver([{tt_mb =, nodes =, time =}]): a solver whose
 * table is kept from call to call, so asking move after move reuses work. */
static int solver_new(lua_State *L)
{
    solve_opts o = check_opts(L, 1, 1);
    push_solver(L, &o);
    if (o.progress_arg) {
        lua_getfield(L, o.progress_arg, "progress");
        lua_setiuservalue(L, -2, 1);
    }
    return 1;
}

/* s:value(d [, {nodes =, time =}]) -> value, nodes */
static int solver_value(lua_State *L)
{
    check_idle_solver(L, 1);
    const bs_dots *d = bs_lua_checkdots(L, 2);
    solve_opts o = check_opts(L, 3, 0);
    int n = run(L, 1, d, &o, 0);
    return n < 0 ? lua_error(L) : n;
}

/* s:best(d [, opts]) -> {r1, c1, r2, c2}, value, nodes */
static int solver_best(lua_State *L)
{
    check_idle_solver(L, 1);
    const bs_dots *d = bs_lua_checkdots(L, 2);
    solve_opts o = check_opts(L, 3, 0);
    int n = run(L, 1, d, &o, 1);
    return n < 0 ? lua_error(L) : n;
}

static int solver_nodes(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)bs_dots_solver_nodes(check_solver(L, 1)->solver));
    return 1;
}

/* close, __close and __gc (safe twice). The collector cannot run it during
 * a call (the solver is its argument); the progress function calling it
 * explicitly raises. */
static int solver_gc(lua_State *L)
{
    lsolver *ls = luaL_checkudata(L, 1, DOTS_SOLVER_META);
    if (ls->busy)
        return luaL_error(L, "cannot close a solver while it is solving");
    close_solver(ls);
    return 0;
}

static int solver_tostring(lua_State *L)
{
    lsolver *ls = luaL_checkudata(L, 1, DOTS_SOLVER_META);
    if (ls->solver)
        lua_pushfstring(L, "dots_solver (%p)", (void *)ls);
    else
        lua_pushliteral(L, "dots_solver (closed)");
    return 1;
}

/* A solver used once and freed at once, rather than at the next collection. */
static int solve_once(lua_State *L, int want_move)
{
    const bs_dots *d = bs_lua_checkdots(L, 1);
    solve_opts o = check_opts(L, 2, 1);
    lsolver *ls = push_solver(L, &o);
    int n = run(L, lua_gettop(L), d, &o, want_move);
    close_solver(ls);
    return n < 0 ? lua_error(L) : n;
}

/* d:solve([{tt_mb =, nodes =, time =}]) -> value, nodes */
int bs_lua_dots_solve(lua_State *L)
{
    return solve_once(L, 0);
}

/* d:best_move([opts]) -> {r1, c1, r2, c2}, value, nodes */
int bs_lua_dots_best_move(lua_State *L)
{
    return solve_once(L, 1);
}

void bs_lua_open_dots_solver(lua_State *L)
{
    static const luaL_Reg methods[] = {{"value", solver_value}, {"best", solver_best},
                                       {"nodes", solver_nodes}, {"close", solver_gc},
                                       {NULL, NULL}};
    static const luaL_Reg metamethods[] = {{"__gc", solver_gc},
                                           {"__close", solver_gc},
                                           {"__tostring", solver_tostring},
                                           {NULL, NULL}};
    bs_lua_newmeta(L, DOTS_SOLVER_META, methods, metamethods);
    lua_pushcfunction(L, solver_new);
    lua_setfield(L, -2, "dots_solver");
    lua_pushinteger(L, BS_DOTS_SOLVE_MAX_EDGES);
    lua_setfield(L, -2, "dots_solver_max_edges");
}
