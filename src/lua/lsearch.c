/* lsearch.c - the alpha-beta searcher and exact solver as Lua userdata (core.searcher). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/search.h"
#include "leval.h"
#include "binding.h"

/*
 * s = core.searcher{tt_mb =, weights = {...}}
 * s:search(board, player [, opts]) -> move, value, info
 * s:solve(board, player [, opts])  -> move, margin, info
 * s:evaluate(board, player [, opts]) -> value
 * opts: game = {legal =, flip =, legal2 =, flip2 =, second_after =,
 *   pass = "stuck"|"anytime", ending = "no-moves"|"two-passes"|
 *   "two-passes-only"|"turns", turn_limit =, misere =, empties_to_winner =}
 *   (default: standard Reversi), the state besides the board (passes, piece,
 *   turns, unable), limits (depth, time in seconds, nodes, endgame) and
 *   evaluate = function(board, player) -> hundredths of a disc, evaluator = a
 *   learned evaluation (core.evaluator), mpc = false | true | width (its
 *   Multi-ProbCut, when it has the parameters: off, the default width, or a
 *   width in sigmas), threads = 1..8 (search's midgame: Lazy SMP helpers beside
 *   the main thread, none with `evaluate`), without = a list of techniques
 *   left out ("etc", "stability", "eval_order", "killers", "aspiration",
 *   "table": search.h's BS_WITHOUT_*). With `time`, a search that has
 *   settled stops early (iteration_done below), and wld = N proves win,
 *   loss or draw from N empty cells (search.h; info.wld when it did).
 * A move is {row, col} (1-based) or "pass"; values are for `player`.
 */

typedef struct lsearcher {
    bs_searcher *searcher; /* NULL before creation and after close */
    lua_State *L;          /* while a search with a Lua evaluation or a deadline runs */
    int eval_idx, err_idx; /* stack slots of the evaluation function and its error */
    int failed;
    int busy;              /* a search or solve is running (its callback may call in) */
    struct timespec deadline, start;
    int has_deadline;
    int last_value, has_last; /* the last iteration's value (time management) */
} lsearcher;

static const char *const WEIGHT_NAMES[] = {"discs", "mobility", "potential", "corners",
                                           "corner_adj", "stable", "parity", NULL};

static int *weight_slot(bs_eval_weights *w, int i)
{
    int *slots[] = {&w->discs, &w->mobility, &w->potential, &w->corners, &w->corner_adj, &w->stable, &w->parity};
    return slots[i];
}

static lsearcher *check_searcher(lua_State *L, int arg)
{
    lsearcher *ls = luaL_checkudata(L, arg, SEARCHER_META);
    if (!ls->searcher)
        bs_lua_closederror(L, arg, SEARCHER_META);
    return ls;
}

int bs_lua_searcher_closed(const void *object)
{
    return ((const lsearcher *)object)->searcher == NULL;
}

/* For the methods that change the searcher: not from its own evaluate function. */
static lsearcher *check_idle_searcher(lua_State *L, int arg)
{
    lsearcher *ls = check_searcher(L, arg);
    if (ls->busy)
        luaL_error(L, "searcher is busy (called from its own evaluate function)");
    return ls;
}

/* The game description in field `game` of the options table at `arg`. */
static bs_game check_game(lua_State *L, int arg)
{
    static const char *const PASS[] = {"stuck", "anytime", NULL};
    static const char *const ENDING[] = {"no-moves", "two-passes", "two-passes-only", "turns", NULL};
    bs_game g = bs_game_reversi();
    if (arg == 0 || lua_getfield(L, arg, "game") == LUA_TNIL) {
        if (arg)
            lua_pop(L, 1);
        return g;
    }
    int t = lua_gettop(L);
    if (!lua_istable(L, t))
        luaL_argerror(L, arg, "field 'game': table expected");
    g.legal_dirs = bs_lua_dirsfield_in(L, arg, t, "game.", "legal", BS_DIRS_ALL);
    g.flip_dirs = bs_lua_dirsfield_in(L, arg, t, "game.", "flip", BS_DIRS_ALL);
    g.legal2_dirs = bs_lua_dirsfield_in(L, arg, t, "game.", "legal2", BS_DIRS_DIAGONAL);
    g.flip2_dirs = bs_lua_dirsfield_in(L, arg, t, "game.", "flip2", BS_DIRS_ALL);
    g.second_after = (int)bs_lua_intfield_in(L, arg, t, "game.", "second_after", 0, BS_MAX_N * BS_MAX_N, 0);
    g.pass_rule = bs_lua_optionfield_in(L, arg, t, "game.", "pass", PASS, BS_PASS_WHEN_STUCK);
    g.end_rule = bs_lua_optionfield_in(L, arg, t, "game.", "ending", ENDING, BS_END_NO_MOVES);
    g.turn_limit = (int)bs_lua_intfield_in(L, arg, t, "game.", "turn_limit", 0, 1000000, 0);
    g.misere = bs_lua_boolfield(L, t, "misere");
    g.empties_to_winner = bs_lua_boolfield(L, t, "empties_to_winner");
    lua_pop(L, 1);
    return g;
}

static bs_state check_state(lua_State *L, int board_arg, int player_arg, int opts, const bs_game *g)
{
    bs_state s;
    memset(&s, 0, sizeof s);
    s.board = *bs_lua_checkboard(L, board_arg);
    s.player = bs_lua_checkplayer(L, player_arg);
    s.piece = 1;
    if (opts) {
        s.passes = (int)bs_lua_intfield(L, opts, "passes", 0, 1000000, 0);
        s.piece = (int)bs_lua_intfield(L, opts, "piece", 1, g->second_after > 0 ? 2 : 1, 1);
        s.turns = (int)bs_lua_intfield(L, opts, "turns", 0, 1000000, 0);
        s.unable = (int)bs_lua_intfield(L, opts, "unable", 0, 1000000, 0);
    }
    return s;
}

static void now(struct timespec *t)
{
    clock_gettime(CLOCK_MONOTONIC, t);
}

/* Seconds from a to b. */
static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Time management with a deadline: after an iteration, stop when the next
 * one would likely not finish, or early when the search has settled (the
 * same best move, a value within a disc of the last): a settled search
 * stops once it has used 30 % of the time, an unsettled one goes on
 * to 60 % (an iteration costs a few times the one before). */
static int iteration_done(void *userdata, int depth, int value, int move_changed)
{
    lsearcher *ls = userdata;
    (void)depth;
    int settled = !move_changed && ls->has_last && abs(value - ls->last_value) < 100;
    ls->last_value = value;
    ls->has_last = 1;
    if (!ls->has_deadline)
        return 0;
    struct timespec t;
    now(&t);
    double used = seconds_between(&ls->start, &t), budget = seconds_between(&ls->start, &ls->deadline);
    return used > budget * (settled ? 0.3 : 0.6);
}

static int should_stop(void *userdata)
{
    lsearcher *ls = userdata;
    if (ls->failed)
        return 1;
    if (!ls->has_deadline)
        return 0;
    struct timespec t;
    now(&t);
    return t.tv_sec > ls->deadline.tv_sec ||
           (t.tv_sec == ls->deadline.tv_sec && t.tv_nsec >= ls->deadline.tv_nsec);
}

/* Calls the evaluation function (upvalue 1) on the state at light userdata
 * 1, inside lua_pcall: even a memory error pushing the board cannot jump
 * over the core's frames. */
static int call_eval(lua_State *L)
{
    const bs_state *s = lua_touserdata(L, 1);
    lua_pushvalue(L, 2);
    bs_lua_pushboard(L, &s->board);
    bs_lua_pushplayer(L, s->player);
    lua_call(L, 2, 1);
    return 1;
}

/* A Lua evaluation: function(board, player) -> number, for the side to move. */
static int lua_eval(void *userdata, const bs_state *s, int *failed)
{
    lsearcher *ls = userdata;
    lua_State *L = ls->L;
    if (ls->failed) {
        *failed = 1;
        return 0;
    }
    lua_pushcfunction(L, call_eval);
    lua_pushlightuserdata(L, (void *)s);
    lua_pushvalue(L, ls->eval_idx);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        lua_replace(L, ls->err_idx);
        ls->failed = *failed = 1;
        return 0;
    }
    int isnum;
    lua_Number v = lua_tonumberx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || v != v) {
        lua_pushliteral(L, "evaluate must return a number");
        lua_replace(L, ls->err_idx);
        ls->failed = *failed = 1;
        return 0;
    }
    if (v > 1e8)
        v = 1e8;
    if (v < -1e8)
        v = -1e8;
    return (int)lround(v);
}

static void push_move(lua_State *L, int move)
{
    if (move == BS_PASS) {
        lua_pushliteral(L, "pass");
        return;
    }
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, move / BS_MAX_N + 1);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, move % BS_MAX_N + 1);
    lua_rawseti(L, -2, 2);
}

/* The techniques a search goes without: field `without` of the options at
 * `opts`, a list of names (nil: none). */
static unsigned check_without(lua_State *L, int opts)
{
    static const char *const NAMES[] = {"etc", "stability", "eval_order", "killers", "aspiration", "table", NULL};
    static const unsigned BITS[] = {BS_WITHOUT_ETC,     BS_WITHOUT_STABILITY,  BS_WITHOUT_EVAL_ORDER,
                                    BS_WITHOUT_KILLERS, BS_WITHOUT_ASPIRATION, BS_WITHOUT_TABLE};
    unsigned without = 0;
    int type = lua_getfield(L, opts, "without");
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    if (type != LUA_TTABLE)
        luaL_argerror(L, opts, "field 'without': a list of technique names expected");
    lua_Integer n = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        const char *name = lua_tostring(L, -1);
        int k = 0;
        while (NAMES[k] && (!name || lua_type(L, -1) != LUA_TSTRING || strcmp(NAMES[k], name) != 0))
            k++;
        if (!NAMES[k])
            luaL_argerror(L, opts,
                          lua_pushfstring(L, "field 'without': item %d is not etc, stability, eval_order, killers, "
                                             "aspiration or table", (int)i));
        without |= BITS[k];
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return without;
}

/* Runs a search or a solve and pushes move, value, info. */
static int run(lua_State *L, int exact)
{
    lsearcher *ls = check_idle_searcher(L, 1);
    int opts = bs_lua_opttable(L, 4);
    bs_game g = check_game(L, opts);
    bs_state s = check_state(L, 2, 3, opts, &g);
    bs_search_limits lim = {0};
    double seconds = 0;
    int has_eval = 0;
    if (opts) {
        lim.depth = (int)bs_lua_intfield(L, opts, "depth", 0, 60, 0);
        lim.endgame = (int)bs_lua_intfield(L, opts, "endgame", 0, BS_MAX_N * BS_MAX_N, 0);
        lim.wld = (int)bs_lua_intfield(L, opts, "wld", 0, BS_MAX_N * BS_MAX_N, 0);
        lim.nodes = (uint64_t)bs_lua_intfield(L, opts, "nodes", 0, LUA_MAXINTEGER, 0);
        seconds = bs_lua_numfield(L, opts, "time", 0, 1e7, 0);
        lim.threads = (int)bs_lua_intfield(L, opts, "threads", 1, BS_MAX_THREADS, 1);
        lim.without = check_without(L, opts);
        /* mpc: false off, true or nil the default width, a number the width in sigmas */
        int mt = lua_getfield(L, opts, "mpc");
        if (mt == LUA_TBOOLEAN) {
            lim.mpc = lua_toboolean(L, -1) ? 0 : -1;
        } else if (mt != LUA_TNIL) {
            lua_pop(L, 1);
            double w = bs_lua_numfield(L, opts, "mpc", 0.01, 100, 1.5);
            lua_pushnil(L);
            lim.mpc = (int)lround(w * 100);
        }
        lua_pop(L, 1);
        int type = lua_getfield(L, opts, "evaluate");
        if (type != LUA_TNIL && type != LUA_TFUNCTION)
            luaL_argerror(L, opts, "field 'evaluate': function expected");
        has_eval = type == LUA_TFUNCTION;
        if (!has_eval)
            lua_pop(L, 1);
    }
    if (!exact && lim.depth == 0 && seconds == 0 && lim.nodes == 0)
        lim.depth = 6;
    lim.midgame_first = seconds > 0; /* on a clock a stopped solve must leave a searched move */
    /* a learned evaluation: user value 2 keeps it alive while it is set */
    const bs_model *model = NULL;
    if (opts && lua_getfield(L, opts, "evaluator") != LUA_TNIL) {
        if (!luaL_testudata(L, -1, EVALUATOR_META))
            luaL_argerror(L, opts, "field 'evaluator': evaluator expected (core.evaluator)");
        bs_levaluator *e = lua_touserdata(L, -1);
        if (!e->model)
            luaL_argerror(L, opts,
                          lua_pushfstring(L, "field 'evaluator': %s", bs_lua_pushclosed(L, EVALUATOR_META)));
        if (!bs_model_fits(e->model, &s.board)) {
            int rows, cols;
            bs_model_shape(e->model, &rows, &cols);
            luaL_argerror(L, opts,
                          lua_pushfstring(L, "field 'evaluator': an evaluation of %d x %d boards for a %d x %d board",
                                          rows, cols, s.board.rows, s.board.cols));
        }
        model = e->model;
    }
    if (opts) {
        lua_setiuservalue(L, 1, 2);
    } else {
        lua_pushnil(L);
        lua_setiuservalue(L, 1, 2);
    }
    bs_searcher_set_model(ls->searcher, model);
    if (has_eval) {
        ls->eval_idx = lua_gettop(L);
        lua_pushnil(L);
        ls->err_idx = lua_gettop(L);
    }
    /* The table holds values of the last call's evaluation (user value 1: its
     * function, nil for the weights): another one empties it first. */
    lua_getiuservalue(L, 1, 1);
    if (has_eval ? !lua_rawequal(L, -1, ls->eval_idx) : !lua_isnil(L, -1)) {
        bs_searcher_clear(ls->searcher);
        if (has_eval)
            lua_pushvalue(L, ls->eval_idx);
        else
            lua_pushnil(L);
        lua_setiuservalue(L, 1, 1);
    }
    lua_pop(L, 1);
    ls->L = L;
    ls->failed = 0;
    ls->has_deadline = seconds > 0;
    struct timespec start;
    now(&start);
    ls->start = start;
    ls->has_last = 0;
    if (ls->has_deadline) {
        double whole = floor(seconds);
        ls->deadline.tv_sec = start.tv_sec + (time_t)whole;
        ls->deadline.tv_nsec = start.tv_nsec + (long)((seconds - whole) * 1e9);
        if (ls->deadline.tv_nsec >= 1000000000L) {
            ls->deadline.tv_sec++;
            ls->deadline.tv_nsec -= 1000000000L;
        }
    }
    bs_searcher_set_eval(ls->searcher, has_eval ? lua_eval : NULL, ls);
    bs_search_result res;
    ls->busy = 1; /* nothing raises until it is cleared: lua_eval calls Lua in lua_pcall */
    int st = exact ? bs_solve(ls->searcher, &g, &s, &lim, &res) : bs_search(ls->searcher, &g, &s, &lim, &res);
    ls->busy = 0;
    bs_searcher_set_eval(ls->searcher, NULL, NULL);
    ls->L = NULL;
    ls->has_deadline = 0;
    if (ls->failed) {
        lua_pushvalue(L, ls->err_idx);
        return lua_error(L);
    }
    if (st == BS_ESTATE) {
        luaL_pushfail(L);
        lua_pushliteral(L, "game over");
        return 2;
    }
    if (st != BS_OK)
        return luaL_error(L, "the search failed (status %d)", st);
    struct timespec end;
    now(&end);
    push_move(L, res.move);
    lua_pushinteger(L, res.value);
    lua_createtable(L, 0, 7);
    lua_pushinteger(L, res.depth);
    lua_setfield(L, -2, "depth");
    lua_pushinteger(L, (lua_Integer)res.nodes);
    lua_setfield(L, -2, "nodes");
    lua_pushboolean(L, res.exact);
    lua_setfield(L, -2, "exact");
    lua_pushboolean(L, res.stopped);
    lua_setfield(L, -2, "stopped");
    lua_pushboolean(L, res.wld);
    lua_setfield(L, -2, "wld");
    lua_pushinteger(L, res.threads);
    lua_setfield(L, -2, "threads");
    lua_pushnumber(L, (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
    lua_setfield(L, -2, "seconds");
    return 3;
}

static int searcher_search(lua_State *L)
{
    return run(L, 0);
}

static int searcher_solve(lua_State *L)
{
    return run(L, 1);
}

static int searcher_evaluate(lua_State *L)
{
    lsearcher *ls = check_searcher(L, 1);
    int opts = bs_lua_opttable(L, 4);
    bs_game g = check_game(L, opts);
    bs_state s = check_state(L, 2, 3, opts, &g);
    bs_eval_weights w = bs_searcher_weights(ls->searcher);
    lua_pushinteger(L, bs_evaluate(&g, &s, &w));
    return 1;
}

/* s:position(board, player [, opts]) -> {moves =, can_pass =, finished =, value =}:
 * what the described game's rules say of the position (value: the final
 * margin for `player` when finished), to check a rule set's hooks against. */
static int searcher_position(lua_State *L)
{
    check_searcher(L, 1);
    int opts = bs_lua_opttable(L, 4);
    bs_game g = check_game(L, opts);
    bs_state s = check_state(L, 2, 3, opts, &g);
    bs_set moves;
    if (bs_state_moves(&g, &s, &moves) != BS_OK)
        return luaL_error(L, "malformed position");
    lua_createtable(L, 0, 4);
    lua_createtable(L, bs_set_count(&moves), 0);
    lua_Integer i = 0;
    for (int index = -1; bs_set_next(&moves, &index);) {
        push_move(L, index);
        lua_rawseti(L, -2, ++i);
    }
    lua_setfield(L, -2, "moves");
    lua_pushboolean(L, bs_state_can_pass(&g, &s) == 1);
    lua_setfield(L, -2, "can_pass");
    int finished = bs_state_finished(&g, &s) == 1;
    lua_pushboolean(L, finished);
    lua_setfield(L, -2, "finished");
    if (finished) {
        lua_pushinteger(L, bs_state_final_value(&g, &s));
        lua_setfield(L, -2, "value");
    }
    return 1;
}

static void push_weights(lua_State *L, const bs_eval_weights *w)
{
    bs_eval_weights copy = *w;
    lua_createtable(L, 0, 7);
    for (int i = 0; WEIGHT_NAMES[i]; i++) {
        lua_pushinteger(L, *weight_slot(&copy, i));
        lua_setfield(L, -2, WEIGHT_NAMES[i]);
    }
}

/* The weights in the table at `arg` over `w`: unknown names and non-integers raise. */
static void check_weights(lua_State *L, int arg, bs_eval_weights *w)
{
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, arg)) {
        int found = bs_lua_findname(L, -2, WEIGHT_NAMES);
        if (found < 0)
            luaL_argerror(L, arg, lua_pushfstring(L, "unknown weight '%s' (expected discs, mobility, potential, "
                                                     "corners, corner_adj, stable or parity)",
                                                  bs_lua_shownname(L, -2)));
        const char *key = WEIGHT_NAMES[found];
        int isnum;
        lua_Integer v = lua_tointegerx(L, -1, &isnum);
        if (!isnum || v < -1000000 || v > 1000000)
            luaL_argerror(L, arg, lua_pushfstring(L, "weight '%s': integer from -1000000 to 1000000 expected", key));
        *weight_slot(w, found) = (int)v;
        lua_pop(L, 1);
    }
}

static int searcher_weights(lua_State *L)
{
    bs_eval_weights w = bs_searcher_weights(check_searcher(L, 1)->searcher);
    push_weights(L, &w);
    return 1;
}

static int searcher_set_weights(lua_State *L)
{
    lsearcher *ls = check_idle_searcher(L, 1);
    bs_eval_weights w = bs_searcher_weights(ls->searcher);
    check_weights(L, 2, &w);
    bs_searcher_set_weights(ls->searcher, &w);
    return 0;
}

static int searcher_clear(lua_State *L)
{
    bs_searcher_clear(check_idle_searcher(L, 1)->searcher);
    return 0;
}

/* close, __close and __gc (safe twice). The collector cannot run it during a
 * search (the searcher is an argument of the running call); its own
 * evaluate function calling it explicitly raises. */
static int searcher_gc(lua_State *L)
{
    lsearcher *ls = luaL_checkudata(L, 1, SEARCHER_META);
    if (ls->busy)
        return luaL_error(L, "cannot close a searcher while it is searching");
    bs_searcher_free(ls->searcher);
    ls->searcher = NULL;
    return 0;
}

static int searcher_tostring(lua_State *L)
{
    lsearcher *ls = luaL_checkudata(L, 1, SEARCHER_META);
    if (ls->searcher)
        lua_pushfstring(L, "searcher (%p)", (void *)ls);
    else
        lua_pushliteral(L, "searcher (closed)");
    return 1;
}

/* core.searcher([{tt_mb =, weights =}]) */
static int searcher_new(lua_State *L)
{
    int opts = bs_lua_opttable(L, 1);
    bs_search_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.weights = bs_eval_default_weights();
    lua_Integer tt_mb = opts ? bs_lua_intfield(L, opts, "tt_mb", 1, 1 << 16, 16) : 16;
    if (opts && lua_getfield(L, opts, "weights") != LUA_TNIL) {
        check_weights(L, lua_gettop(L), &cfg.weights);
    }
    if (opts)
        lua_pop(L, 1);
    cfg.tt_bytes = (size_t)tt_mb << 20;
    lsearcher *ls = lua_newuserdatauv(L, sizeof *ls, 2);
    memset(ls, 0, sizeof *ls);
    luaL_setmetatable(L, SEARCHER_META);
    cfg.should_stop = should_stop;
    cfg.iteration_done = iteration_done;
    cfg.stop_userdata = ls;
    if (bs_searcher_new(&ls->searcher, &cfg) != BS_OK)
        return luaL_error(L, "not enough memory for the searcher's %d MiB table", (int)tt_mb);
    return 1;
}

/* core.clock() -> seconds of a monotonic wall clock (for time budgets in Lua). */
static int core_clock(lua_State *L)
{
    struct timespec t;
    now(&t);
    lua_pushnumber(L, (double)t.tv_sec + t.tv_nsec / 1e9);
    return 1;
}

bs_game bs_lua_checkgame(lua_State *L, int opts)
{
    return check_game(L, opts);
}

bs_state bs_lua_checkstate(lua_State *L, int board_arg, int player_arg, int opts, const bs_game *g)
{
    return check_state(L, board_arg, player_arg, opts, g);
}

void bs_lua_open_search(lua_State *L)
{
    static const luaL_Reg methods[] = {{"search", searcher_search},     {"solve", searcher_solve},
                                       {"evaluate", searcher_evaluate}, {"weights", searcher_weights},
                                       {"position", searcher_position},
                                       {"set_weights", searcher_set_weights}, {"clear", searcher_clear},
                                       {"close", searcher_gc},          {NULL, NULL}};
    static const luaL_Reg metamethods[] = {{"__gc", searcher_gc},
                                           {"__close", searcher_gc},
                                           {"__tostring", searcher_tostring},
                                           {NULL, NULL}};
    bs_lua_newmeta(L, SEARCHER_META, methods, metamethods);
    lua_pushcfunction(L, searcher_new);
    lua_setfield(L, -2, "searcher");
    lua_pushcfunction(L, core_clock);
    lua_setfield(L, -2, "clock");
}
