/* ldgame_spec.c - core.dgame: the normalised table (contract section 2) read into a dg_spec. */
#include <stdio.h>

#include "ldgame.h"

/* Raises "bad argument #1 to 'dgame' (field PATH: MESSAGE)". */
static int field_error(lua_State *L, const char *path, const char *fmt, const char *detail)
{
    char msg[200];
    snprintf(msg, sizeof msg, fmt, detail);
    return luaL_argerror(L, 1, lua_pushfstring(L, "field %s: %s", path, msg));
}

/* The value at the top as an integer lo..hi (popped). */
static int pop_int(lua_State *L, const char *path, int lo, int hi)
{
    int isint;
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (!isint) {
        field_error(L, path, "integer expected, got %s", luaL_typename(L, -1));
    }
    if (v < lo || v > hi) {
        char range[64];
        snprintf(range, sizeof range, "%lld out of range %d..%d", (long long)v, lo, hi);
        field_error(L, path, "%s", range);
    }
    lua_pop(L, 1);
    return (int)v;
}

static int int_field(lua_State *L, int t, const char *key, const char *path, int lo, int hi, int def)
{
    char p[160];
    snprintf(p, sizeof p, "%s'%s'", path, key);
    if (lua_getfield(L, t, key) == LUA_TNIL) {
        lua_pop(L, 1);
        if (def == INT_MIN)
            field_error(L, p, "%s expected, got nil", "integer");
        return def;
    }
    return pop_int(L, p, lo, hi);
}

/* A string field among names (index), def when nil (-1: required). */
static int enum_field(lua_State *L, int t, const char *key, const char *path, const char *const names[], int def)
{
    char p[160];
    snprintf(p, sizeof p, "%s'%s'", path, key);
    int ty = lua_getfield(L, t, key);
    if (ty == LUA_TNIL && def >= 0) {
        lua_pop(L, 1);
        return def;
    }
    int i = bs_lua_findname(L, -1, names);
    if (i < 0) {
        char what[80];
        snprintf(what, sizeof what, "unknown %s \"%.40s\"", key, ty == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1));
        field_error(L, p, "%s", what);
    }
    lua_pop(L, 1);
    return i;
}

static int bool_field(lua_State *L, int t, const char *key)
{
    lua_getfield(L, t, key);
    int b = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return b;
}

/* The list of {dr, dc} at the top (not popped). */
static void read_offsets(lua_State *L, const char *path, dg_offsets *o)
{
    if (!lua_istable(L, -1))
        field_error(L, path, "a list of {dr, dc} expected, got %s", luaL_typename(L, -1));
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n > DG_MAX_OFFSETS)
        field_error(L, path, "%s", "too many offsets (at most 32)");
    o->n = (int)n;
    for (int j = 1; j <= n; j++) {
        char p[200];
        snprintf(p, sizeof p, "%s[%d]", path, j);
        if (lua_rawgeti(L, -1, j) != LUA_TTABLE)
            field_error(L, p, "{dr, dc} expected, got %s", luaL_typename(L, -1));
        lua_rawgeti(L, -1, 1);
        o->d[j - 1][0] = (signed char)pop_int(L, p, -25, 25);
        lua_rawgeti(L, -1, 2);
        o->d[j - 1][1] = (signed char)pop_int(L, p, -25, 25);
        lua_pop(L, 1);
    }
}

/* A per-side pair { {offsets}, {offsets} } in field key: 1 if present. */
static int perside_offsets(lua_State *L, int t, const char *key, const char *path, dg_offsets o[2], int required)
{
    char p[160];
    snprintf(p, sizeof p, "%s'%s'", path, key);
    int ty = lua_getfield(L, t, key);
    if (ty == LUA_TNIL && !required) {
        lua_pop(L, 1);
        return 0;
    }
    if (ty != LUA_TTABLE)
        field_error(L, p, "a table per side expected, got %s", luaL_typename(L, -1));
    for (int side = 1; side <= 2; side++) {
        char ps[180];
        snprintf(ps, sizeof ps, "%s[%d]", p, side);
        lua_rawgeti(L, -1, side);
        read_offsets(L, ps, &o[side - 1]);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 1;
}

/* A kind set { [k] = true } at the top (not popped). */
static unsigned read_kinds(lua_State *L, const char *path, int nkinds)
{
    if (!lua_istable(L, -1))
        field_error(L, path, "a set of kinds expected, got %s", luaL_typename(L, -1));
    unsigned mask = 0;
    for (int k = 1; k <= nkinds; k++) {
        lua_rawgeti(L, -1, k);
        if (lua_toboolean(L, -1))
            mask |= 1u << (k - 1);
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        int isint;
        lua_Integer k = lua_tointegerx(L, -2, &isint);
        if (!isint || k < 1 || k > nkinds)
            field_error(L, path, "%s", "a kind out of range");
        lua_pop(L, 1);
    }
    return mask;
}

/* A per-side zone { {cells}, {cells} } (0-based cells) in field key. */
static void perside_zone(lua_State *L, int t, const char *key, const char *path, dg_cellset z[2], int ncells)
{
    char p[160];
    snprintf(p, sizeof p, "%s'%s'", path, key);
    if (lua_getfield(L, t, key) != LUA_TTABLE)
        field_error(L, p, "a table per side expected, got %s", luaL_typename(L, -1));
    for (int side = 1; side <= 2; side++) {
        char ps[180];
        snprintf(ps, sizeof ps, "%s[%d]", p, side);
        if (lua_rawgeti(L, -1, side) != LUA_TTABLE)
            field_error(L, ps, "a list of cells expected, got %s", luaL_typename(L, -1));
        memset(&z[side - 1], 0, sizeof z[side - 1]);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            int c = pop_int(L, ps, 0, ncells - 1);
            z[side - 1].w[c >> 6] |= 1ULL << (c & 63);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static const char *const op_names[] = { "place", "step", "slide", "leap", "hop", NULL };
static const char *const at_names[] = { "empty", "adjacent", "column", NULL };
static const char *const to_names[] = { "empty", "enemy", "free", NULL };
static const char *const end_names[] = { "line", "connect", "reach", "no_pieces", "full", "plies", NULL };
static const char *const result_names[] = { "score", "draw", NULL };
static const char *const nomove_names[] = { "lose", "pass", "draw", "score", NULL };
static const char *const score_names[] = { "pieces", "territory", "none", NULL };
static const char *const edge_names[] = { "n", "s", "w", "e", NULL };

static void read_rule(lua_State *L, int t, int r, dg_spec *sp)
{
    char path[64];
    snprintf(path, sizeof path, "'rules'[%d] ", r + 1);
    dg_rule_spec *rs = &sp->rules[r];
    rs->op = enum_field(L, t, "op", path, op_names, -1);
    if (rs->op == DG_OP_PLACE) {
        rs->kind = int_field(L, t, "kind", path, 1, sp->nkinds, 1);
        rs->at = enum_field(L, t, "at", path, at_names, DG_AT_EMPTY);
    } else {
        char p[96];
        snprintf(p, sizeof p, "%s'kinds'", path);
        lua_getfield(L, t, "kinds");
        rs->kinds = read_kinds(L, p, sp->nkinds);
        lua_pop(L, 1);
        if (!rs->kinds)
            field_error(L, p, "%s", "no kind");
    }
    if (!perside_offsets(L, t, "dirs", path, rs->dirs, rs->op != DG_OP_PLACE) && rs->at == DG_AT_ADJACENT) {
        for (int side = 0; side < 2; side++) { /* adjacency defaults to all 8 directions */
            static const signed char all[8][2] = { { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 },
                                                   { 1, 0 },  { 1, -1 }, { 0, -1 }, { -1, -1 } };
            rs->dirs[side].n = 8;
            memcpy(rs->dirs[side].d, all, sizeof all);
        }
    }
    rs->has_flips = perside_offsets(L, t, "flips", path, rs->flips, 0);
    rs->has_convert = perside_offsets(L, t, "convert", path, rs->convert, 0);
    rs->has_arrow = perside_offsets(L, t, "arrow", path, rs->arrow, 0);
    rs->to = enum_field(L, t, "to", path, to_names, DG_TO_FREE);
    rs->leave = bool_field(L, t, "leave");
    rs->chain = bool_field(L, t, "chain");
}

static void read_end(lua_State *L, int t, int e, dg_spec *sp, int ncells)
{
    char path[64];
    snprintf(path, sizeof path, "'ends'[%d] ", e + 1);
    dg_end_spec *es = &sp->ends[e];
    es->op = enum_field(L, t, "op", path, end_names, -1);
    char p[96];
    switch (es->op) {
    case DG_END_LINE:
        es->k = int_field(L, t, "k", path, 1, DG_MAX_SIDE, INT_MIN);
        es->exact = bool_field(L, t, "exact");
        snprintf(p, sizeof p, "%s'axes'", path);
        lua_getfield(L, t, "axes");
        read_offsets(L, p, &es->dirs);
        lua_pop(L, 1);
        break;
    case DG_END_CONNECT:
        snprintf(p, sizeof p, "%s'dirs'", path);
        lua_getfield(L, t, "dirs");
        read_offsets(L, p, &es->dirs);
        lua_pop(L, 1);
        snprintf(p, sizeof p, "%s'edges'", path);
        if (lua_getfield(L, t, "edges") != LUA_TTABLE)
            field_error(L, p, "a table per side expected, got %s", luaL_typename(L, -1));
        for (int side = 1; side <= 2; side++) {
            char ps[120];
            snprintf(ps, sizeof ps, "%s[%d]", p, side);
            if (lua_rawgeti(L, -1, side) != LUA_TTABLE)
                field_error(L, ps, "two edge names expected, got %s", luaL_typename(L, -1));
            for (int k = 1; k <= 2; k++) {
                lua_rawgeti(L, -1, k);
                int i = bs_lua_findname(L, -1, edge_names);
                if (i < 0)
                    field_error(L, ps, "unknown edge \"%.20s\"", lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
                es->edges[side - 1][k - 1] = i;
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        break;
    case DG_END_REACH:
        perside_zone(L, t, "zone", path, es->zone, ncells);
        snprintf(p, sizeof p, "%s'kinds'", path);
        if (lua_getfield(L, t, "kinds") == LUA_TNIL)
            es->kinds = (1u << sp->nkinds) - 1;
        else
            es->kinds = read_kinds(L, p, sp->nkinds);
        lua_pop(L, 1);
        break;
    case DG_END_FULL:
        es->result = enum_field(L, t, "result", path, result_names, DG_RESULT_SCORE);
        break;
    case DG_END_PLIES:
        es->n = int_field(L, t, "n", path, 0, 1000000000, INT_MIN);
        es->result = enum_field(L, t, "result", path, result_names, DG_RESULT_DRAW);
        break;
    default:
        break;
    }
}

/* A list field: its length (checked against max), the table pushed. */
static int list_field(lua_State *L, int t, const char *key, int max, int required)
{
    int ty = lua_getfield(L, t, key);
    if (ty == LUA_TNIL && !required)
        return 0;
    if (ty != LUA_TTABLE)
        luaL_argerror(L, 1, lua_pushfstring(L, "field '%s': a list expected, got %s", key, luaL_typename(L, -1)));
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n > max)
        luaL_argerror(L, 1, lua_pushfstring(L, "field '%s': %d entries (at most %d)", key, (int)n, max));
    return (int)n;
}

void bs_lua_read_dgspec(lua_State *L, int t, dg_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->rows = int_field(L, t, "rows", "", 1, DG_MAX_SIDE, INT_MIN);
    sp->cols = int_field(L, t, "cols", "", 1, DG_MAX_SIDE, INT_MIN);
    int ncells = sp->rows * sp->cols;
    int nk = list_field(L, t, "kinds", DG_MAX_KINDS, 0);
    sp->nkinds = nk ? nk : 1;
    lua_pop(L, 1);
    if (lua_getfield(L, t, "cells") != LUA_TNIL) {
        if (!lua_istable(L, -1))
            luaL_argerror(L, 1, lua_pushfstring(L, "field 'cells': a list expected, got %s", luaL_typename(L, -1)));
        for (int i = 0; i < ncells; i++) {
            char p[32];
            snprintf(p, sizeof p, "'cells'[%d]", i + 1);
            lua_rawgeti(L, -1, i + 1);
            sp->cells[i] = (signed char)(lua_isnil(L, -1) ? (lua_pop(L, 1), 0) : pop_int(L, p, -1, 2 * sp->nkinds));
        }
    }
    lua_pop(L, 1);
    sp->first = int_field(L, t, "first", "", 1, 2, 1);
    sp->nrules = list_field(L, t, "rules", DG_MAX_RULES, 1);
    for (int r = 0; r < sp->nrules; r++) {
        if (lua_rawgeti(L, -1, r + 1) != LUA_TTABLE)
            luaL_argerror(L, 1, lua_pushfstring(L, "field 'rules'[%d]: a table expected, got %s", r + 1, luaL_typename(L, -1)));
        read_rule(L, lua_gettop(L), r, sp);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    sp->must_capture = bool_field(L, t, "must_capture");
    sp->npromote = list_field(L, t, "promote", DG_MAX_PROMOTE, 0);
    for (int p = 0; p < sp->npromote; p++) {
        char path[48];
        snprintf(path, sizeof path, "'promote'[%d] ", p + 1);
        if (lua_rawgeti(L, -1, p + 1) != LUA_TTABLE)
            luaL_argerror(L, 1, lua_pushfstring(L, "field 'promote'[%d]: a table expected", p + 1));
        int pt = lua_gettop(L);
        sp->promote[p].from = int_field(L, pt, "from", path, 1, sp->nkinds, INT_MIN);
        sp->promote[p].to = int_field(L, pt, "to", path, 1, sp->nkinds, INT_MIN);
        perside_zone(L, pt, "zone", path, sp->promote[p].zone, ncells);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    sp->nends = list_field(L, t, "ends", DG_MAX_ENDS, 0);
    for (int e = 0; e < sp->nends; e++) {
        if (lua_rawgeti(L, -1, e + 1) != LUA_TTABLE)
            luaL_argerror(L, 1, lua_pushfstring(L, "field 'ends'[%d]: a table expected, got %s", e + 1, luaL_typename(L, -1)));
        read_end(L, lua_gettop(L), e, sp, ncells);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    sp->no_move = enum_field(L, t, "no_move", "", nomove_names, DG_NOMOVE_LOSE);
    sp->score = enum_field(L, t, "score", "", score_names, DG_SCORE_PIECES);
    sp->swap = bool_field(L, t, "swap");
    int nv = list_field(L, t, "values", DG_MAX_KINDS, 0);
    for (int k = 0; k < sp->nkinds; k++) {
        char p[32];
        snprintf(p, sizeof p, "'values'[%d]", k + 1);
        if (k < nv && lua_rawgeti(L, -1, k + 1) != LUA_TNIL)
            sp->values[k] = pop_int(L, p, -1000000, 1000000);
        else {
            if (k < nv)
                lua_pop(L, 1);
            sp->values[k] = 1;
        }
    }
    lua_pop(L, 1);
}
