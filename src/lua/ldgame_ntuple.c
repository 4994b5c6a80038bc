/* ldgame_ntuple.c - core.dgame_eval: the n-tuple evaluation of described games (dgame_ntuple.h) and its trainer. */
#include <stdlib.h>
#include <string.h>

#include "../core/dgame_ntuple.h"
#include "../core/dgame_search.h"
#include "binding.h"
#include "ldgame.h"
#include "ldgame_search.h"
#include "leval.h"

/*
 * core.dgame_eval(S[, { length =, squares =, phases =, hand_scale =, sides =, logistic =, symmetry =,
 *   share = }]) -> E, every weight 0, shaped for S's game (rows, cols, kinds); logistic: the tanh link
 *   (dgame_ntuple.h); symmetry: the maps whose images share a table (a group name or a list of maps, as
 *   core.evaluator's; default none); share: "position" (a table per window, the default), "shape" (one
 *   per window shape anywhere on the board) or "both" (dgame_ntuple.h, DG_NT_SHARE_);
 * core.dgame_eval_load(bytes) -> E, or nil and why;
 * E:value(S[, { values = }]) -> number (for S's side to move; values: the
 *   kinds' worth for the hand-written evaluation it reads, as S:search's);
 * E:fits(S); E:save() -> bytes;
 * E:info() -> { rows, cols, kinds, length, squares, phases, hand_scale, sides, logistic, share, symmetry (the
 *   maps' names), instances, tables, weights, nonzero };
 * E:trainer([{ values = }]) -> T; T:add(S, target[, holdout[, slot]]) (slot: replaces the
 *   slot-th position, 1..count, instead of adding one); T:count([holdout]);
 * T:fit{ iterations =, ridge = } -> { train_rms =, holdout_rms = (nil without held-out), iterations = }.
 */


typedef struct leval {
    dg_ntuple *nt;
} leval;

typedef struct ltrainer {
    dg_nt_trainer *t;
    leval *e;
    dg_searcher *hand; /* NULL until the first position: the hand-written values */
} ltrainer;

struct dg_ntuple *bs_lua_checkdgeval(lua_State *L, int arg)
{
    leval *e = luaL_checkudata(L, arg, DGEVAL_META);
    if (!e->nt)
        luaL_argerror(L, arg, "a released evaluation");
    return e->nt;
}

static int eval_gc(lua_State *L)
{
    leval *e = luaL_checkudata(L, 1, DGEVAL_META);
    dg_ntuple_free(e->nt);
    e->nt = NULL;
    return 0;
}

static leval *push_eval(lua_State *L)
{
    leval *e = lua_newuserdatauv(L, sizeof *e, 0);
    e->nt = NULL;
    luaL_setmetatable(L, DGEVAL_META);
    return e;
}

static const char *const SHARE_NAMES[] = {"position", "both", "shape", NULL}; /* DG_NT_SHARE_ order */

/* opts.share: "position" (the default), "shape" or "both". */
static int share_opt(lua_State *L, int opts)
{
    lua_getfield(L, opts, "share");
    int share = DG_NT_SHARE_POSITION;
    if (!lua_isnil(L, -1)) {
        const char *name = lua_tostring(L, -1);
        share = -1;
        for (int i = 0; SHARE_NAMES[i] && name && lua_type(L, -1) == LUA_TSTRING; i++)
            if (strcmp(name, SHARE_NAMES[i]) == 0)
                share = i;
        if (share < 0)
            return luaL_argerror(L, 2, "field 'share': expected \"position\", \"shape\" or \"both\"");
    }
    lua_pop(L, 1);
    return share;
}

/* core.dgame_eval(S, opts) */
static int core_dgame_eval(lua_State *L)
{
    const dg_desc *d;
    d = bs_lua_checkdgstate(L, 1)->g->d;
    int opts = bs_lua_opttable(L, 2);
    const dg_spec *sp = dg_desc_spec(d);
    dg_ntuple_shape sh = {sp->rows, sp->cols, sp->nkinds, 0, 0, 1, 100, 1, DG_NT_LINK_IDENTITY, 1u, 0};
    sh.length = dg_ntuple_default_length(sp->rows, sp->cols, sp->nkinds);
    if (opts) {
        sh.length = (int)bs_lua_intfield(L, opts, "length", 1, DG_NT_MAX_LENGTH, sh.length);
        sh.phases = (int)bs_lua_intfield(L, opts, "phases", 1, DG_NT_MAX_PHASES, 1);
        sh.squares = bs_lua_boolfield(L, opts, "squares");
        sh.hand_scale = (int)bs_lua_intfield(L, opts, "hand_scale", 1, 1000000, 100);
        sh.sides = (int)bs_lua_intfield(L, opts, "sides", 1, 2, 1);
        sh.link = bs_lua_boolfield(L, opts, "logistic") ? DG_NT_LINK_TANH : DG_NT_LINK_IDENTITY;
        sh.symmetry = bs_lua_symmetry_opt(L, opts, sp->rows, sp->cols, 1u);
        sh.share = share_opt(L, opts);
    }
    leval *e = push_eval(L);
    int st = dg_ntuple_new(&e->nt, &sh);
    if (st == BS_ENOMEM)
        return luaL_error(L, "not enough memory for the evaluation");
    if (st != BS_OK)
        return luaL_argerror(L, 2, "no evaluation of that shape for this game (too many weights, or no window fits)");
    return 1;
}

/* core.dgame_eval_load(bytes) */
static int core_dgame_eval_load(lua_State *L)
{
    size_t len;
    const char *bytes = luaL_checklstring(L, 1, &len);
    leval *e = push_eval(L);
    char why[120];
    int st = dg_ntuple_load(&e->nt, (const unsigned char *)bytes, len, why, sizeof why);
    if (st == BS_ENOMEM)
        return luaL_error(L, "not enough memory for the evaluation");
    if (st != BS_OK) {
        luaL_pushfail(L);
        lua_pushstring(L, why);
        return 2;
    }
    return 1;
}

/* The state at `arg`, of a game E fits (raises otherwise). */
static dg_state *check_fitting(lua_State *L, const dg_ntuple *nt, int arg)
{
    const dg_desc *d;
    lstate *ls = bs_lua_checkdgstate(L, arg);
    dg_state *s = ls->s;
    d = ls->g->d;
    if (!dg_ntuple_fits(nt, d)) {
        const dg_ntuple_shape *sh = dg_ntuple_shape_of(nt);
        luaL_argerror(L, arg, lua_pushfstring(L, "a state of another game (the evaluation is for %d x %d, %d kinds)",
                                              sh->rows, sh->cols, sh->kinds));
    }
    return s;
}

static int eval_value(lua_State *L)
{
    dg_ntuple *nt = bs_lua_checkdgeval(L, 1);
    dg_state *s = check_fitting(L, nt, 2);
    int opts = bs_lua_opttable(L, 3);
    dg_searcher *sr = bs_lua_static_searcher(L, 2, opts, NULL);
    int hand = 0;
    dg_search_static(sr, s, NULL, &hand);
    lua_pushnumber(L, dg_ntuple_value_hand(nt, s, hand));
    return 1;
}

static int eval_fits(lua_State *L)
{
    dg_ntuple *nt = bs_lua_checkdgeval(L, 1);
    const dg_desc *d;
    d = bs_lua_checkdgstate(L, 2)->g->d;
    lua_pushboolean(L, dg_ntuple_fits(nt, d));
    return 1;
}

static int eval_save(lua_State *L)
{
    dg_ntuple *nt = bs_lua_checkdgeval(L, 1);
    size_t len = dg_ntuple_saved_size(nt);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, len);
    dg_ntuple_save(nt, (unsigned char *)p);
    luaL_pushresultsize(&b, len);
    return 1;
}

static void set_int(lua_State *L, const char *key, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, key);
}

static int eval_info(lua_State *L)
{
    dg_ntuple *nt = bs_lua_checkdgeval(L, 1);
    const dg_ntuple_shape *sh = dg_ntuple_shape_of(nt);
    lua_createtable(L, 0, 12);
    set_int(L, "rows", sh->rows);
    set_int(L, "cols", sh->cols);
    set_int(L, "kinds", sh->kinds);
    set_int(L, "length", sh->length);
    lua_pushboolean(L, sh->squares);
    lua_setfield(L, -2, "squares");
    set_int(L, "phases", sh->phases);
    set_int(L, "hand_scale", sh->hand_scale);
    set_int(L, "sides", sh->sides);
    lua_pushboolean(L, sh->link == DG_NT_LINK_TANH);
    lua_setfield(L, -2, "logistic");
    lua_pushstring(L, SHARE_NAMES[sh->share]);
    lua_setfield(L, -2, "share");
    unsigned group = sh->symmetry ? sh->symmetry : 1u;
    lua_createtable(L, 8, 0);
    lua_Integer k = 0;
    for (int which = 0; which < 8; which++)
        if (group >> which & 1u) {
            lua_pushstring(L, bs_sym_name(which));
            lua_rawseti(L, -2, ++k);
        }
    lua_setfield(L, -2, "symmetry");
    set_int(L, "instances", dg_ntuple_instances(nt));
    set_int(L, "tables", dg_ntuple_tables(nt));
    set_int(L, "weights", (lua_Integer)dg_ntuple_weight_count(nt));
    set_int(L, "nonzero", (lua_Integer)dg_ntuple_nonzero(nt));
    return 1;
}

/* ---- the trainer ---- */

static int trainer_gc(lua_State *L)
{
    ltrainer *t = luaL_checkudata(L, 1, DGTRAINER_META);
    dg_nt_trainer_free(t->t);
    t->t = NULL;
    return 0;
}

static int eval_trainer(lua_State *L)
{
    leval *e = luaL_checkudata(L, 1, DGEVAL_META);
    bs_lua_checkdgeval(L, 1);
    int opts = bs_lua_opttable(L, 2);
    ltrainer *t = lua_newuserdatauv(L, sizeof *t, 3);
    t->t = NULL;
    t->e = e;
    t->hand = NULL;
    luaL_setmetatable(L, DGTRAINER_META);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1); /* keeps E alive */
    if (opts) {
        lua_pushvalue(L, opts);
        lua_setiuservalue(L, -2, 2); /* the options of the hand-written values */
    }
    if (dg_nt_trainer_new(&t->t, e->nt) != BS_OK)
        return luaL_error(L, "not enough memory for the trainer");
    return 1;
}

static ltrainer *check_trainer(lua_State *L, int arg)
{
    ltrainer *t = luaL_checkudata(L, arg, DGTRAINER_META);
    if (!t->t || !t->e->nt)
        luaL_argerror(L, arg, "a released trainer");
    return t;
}

static int trainer_add(lua_State *L)
{
    ltrainer *t = check_trainer(L, 1);
    dg_state *s = check_fitting(L, t->e->nt, 2);
    lua_Number target = luaL_checknumber(L, 3);
    if (!(target >= -1e6 && target <= 1e6))
        luaL_argerror(L, 3, "a number from -1e6 to 1e6 expected");
    int holdout = lua_toboolean(L, 4);
    if (!t->hand) { /* made at the first position (it needs the game): kept as user value 3 */
        lua_getiuservalue(L, 1, 2);
        int opts = lua_istable(L, -1) ? lua_gettop(L) : 0;
        t->hand = bs_lua_static_searcher(L, 2, opts, NULL);
        lua_setiuservalue(L, 1, 3);
        lua_pop(L, 1);
    }
    int hand = 0;
    dg_search_static(t->hand, s, NULL, &hand);
    if (!lua_isnoneornil(L, 5)) {
        lua_Integer slot = luaL_checkinteger(L, 5);
        lua_Integer count = (lua_Integer)dg_nt_trainer_size(t->t);
        if (slot < 1 || slot > count)
            luaL_argerror(L, 5, "a position 1..count expected");
        dg_nt_trainer_set(t->t, (size_t)(slot - 1), s, hand, target, holdout);
        return 0;
    }
    if (dg_nt_trainer_add(t->t, s, hand, target, holdout) != BS_OK)
        return luaL_error(L, "not enough memory for the trainer's positions");
    return 0;
}

static int trainer_count(lua_State *L)
{
    ltrainer *t = check_trainer(L, 1);
    if (lua_isnoneornil(L, 2))
        lua_pushinteger(L, (lua_Integer)dg_nt_trainer_size(t->t));
    else
        lua_pushinteger(L, (lua_Integer)dg_nt_trainer_count(t->t, lua_toboolean(L, 2)));
    return 1;
}

static int trainer_fit(lua_State *L)
{
    ltrainer *t = check_trainer(L, 1);
    int opts = bs_lua_opttable(L, 2);
    int iterations = 30;
    double ridge = 2;
    if (opts) {
        iterations = (int)bs_lua_intfield(L, opts, "iterations", 0, 100000, iterations);
        ridge = bs_lua_numfield(L, opts, "ridge", 0, 1e9, ridge);
    }
    dg_nt_fit_result res;
    int st = dg_nt_trainer_fit(t->t, t->e->nt, iterations, ridge, &res);
    if (st == BS_ENOMEM)
        return luaL_error(L, "not enough memory for the fit");
    if (st != BS_OK)
        return luaL_error(L, "the fit failed (status %d)", st);
    lua_createtable(L, 0, 3);
    if (res.train_rms >= 0) {
        lua_pushnumber(L, res.train_rms);
        lua_setfield(L, -2, "train_rms");
    }
    if (res.holdout_rms >= 0) {
        lua_pushnumber(L, res.holdout_rms);
        lua_setfield(L, -2, "holdout_rms");
    }
    set_int(L, "iterations", res.iterations);
    return 1;
}

void bs_lua_open_dgame_eval(lua_State *L)
{
    static const luaL_Reg eval_methods[] = {{"value", eval_value}, {"fits", eval_fits},     {"save", eval_save},
                                            {"info", eval_info},   {"trainer", eval_trainer}, {NULL, NULL}};
    static const luaL_Reg eval_meta[] = {{"__gc", eval_gc}, {NULL, NULL}};
    static const luaL_Reg trainer_methods[] = {
        {"add", trainer_add}, {"count", trainer_count}, {"fit", trainer_fit}, {NULL, NULL}};
    static const luaL_Reg trainer_meta[] = {{"__gc", trainer_gc}, {NULL, NULL}};
    bs_lua_newmeta(L, DGEVAL_META, eval_methods, eval_meta);
    bs_lua_newmeta(L, DGTRAINER_META, trainer_methods, trainer_meta);
    lua_pushcfunction(L, core_dgame_eval);
    lua_setfield(L, -2, "dgame_eval");
    lua_pushcfunction(L, core_dgame_eval_load);
    lua_setfield(L, -2, "dgame_eval_load");
}
