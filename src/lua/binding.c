/* binding.c - what every binding file shares: options tables and their fields, names, lists; core.type. */
#include <math.h>
#include <string.h>

#include "binding.h"

void bs_lua_newmeta(lua_State *L, const char *name, const luaL_Reg *methods,
                    const luaL_Reg *metamethods)
{
    luaL_newmetatable(L, name);
    luaL_setfuncs(L, metamethods, 0);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1);
}

int bs_lua_findname(lua_State *L, int idx, const char *const names[])
{
    if (lua_type(L, idx) != LUA_TSTRING)
        return -1;
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return i;
    return -1;
}

const char *bs_lua_shownname(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TSTRING)
        return luaL_typename(L, idx);
    size_t len;
    const char *name = lua_tolstring(L, idx, &len);
    return strlen(name) == len ? name : "a string with an embedded zero";
}

int bs_lua_checkoption(lua_State *L, int arg, const char *def, const char *const names[])
{
    if (def && lua_isnoneornil(L, arg)) {
        for (int i = 0; names[i]; i++)
            if (strcmp(names[i], def) == 0)
                return i;
    }
    size_t len;
    const char *name = luaL_checklstring(L, arg, &len); /* a number becomes a string, as in luaL_checkoption */
    int i = bs_lua_findname(L, arg, names);
    if (i >= 0)
        return i;
    if (strlen(name) != len)
        return luaL_argerror(L, arg, "invalid option (a string with an embedded zero)");
    return luaL_argerror(L, arg, lua_pushfstring(L, "invalid option '%s'", name));
}

/* The players' names, BS_BLACK first (a list for bs_lua_checkoption). */
static const char *const PLAYER_NAMES[] = {"black", "white", NULL};

int bs_lua_checkplayer(lua_State *L, int arg)
{
    return bs_lua_checkoption(L, arg, NULL, PLAYER_NAMES) + BS_BLACK;
}

void bs_lua_pushplayer(lua_State *L, int player)
{
    lua_pushstring(L, PLAYER_NAMES[player - BS_BLACK]);
}

lua_Integer bs_lua_checkrange(lua_State *L, int arg, const char *what, lua_Integer lo,
                              lua_Integer hi)
{
    lua_Integer v = luaL_checkinteger(L, arg);
    if (v < lo || v > hi) {
        const char *msg = lua_pushfstring(L, "%s out of range %d..%d", what, (int)lo, (int)hi);
        luaL_argerror(L, arg, msg);
    }
    return v;
}

/* ---- options tables ---- */

int bs_lua_opttable(lua_State *L, int arg)
{
    if (lua_isnoneornil(L, arg))
        return 0;
    luaL_checktype(L, arg, LUA_TTABLE);
    return arg;
}

lua_Integer bs_lua_intfield_in(lua_State *L, int arg, int t, const char *owner, const char *key, lua_Integer lo,
                               lua_Integer hi, lua_Integer def)
{
    lua_Integer v = def;
    if (lua_getfield(L, t, key) != LUA_TNIL) {
        int isnum;
        v = lua_tointegerx(L, -1, &isnum);
        if (!isnum)
            luaL_argerror(L, arg, lua_pushfstring(L, "field '%s%s': integer expected", owner, key));
        if (v < lo || v > hi)
            luaL_argerror(L, arg, lua_pushfstring(L, "field '%s%s' out of range %I..%I", owner, key, lo, hi));
    }
    lua_pop(L, 1);
    return v;
}

/* Pushes `v` as a range's bound reads: 0, 1000000000, 0.5, inf (not 0.0). */
static const char *push_bound(lua_State *L, lua_Number v)
{
    if (v == floor(v) && fabs(v) < 9e15)
        return lua_pushfstring(L, "%I", (lua_Integer)v);
    return lua_pushfstring(L, "%f", v);
}

lua_Number bs_lua_numfield(lua_State *L, int opts, const char *key, lua_Number lo, lua_Number hi, lua_Number def)
{
    lua_Number v = def;
    if (lua_getfield(L, opts, key) != LUA_TNIL) {
        int isnum;
        v = lua_tonumberx(L, -1, &isnum);
        if (!isnum)
            luaL_argerror(L, opts, lua_pushfstring(L, "field '%s': number expected", key));
        if (!(v >= lo && v <= hi)) /* NaN too */
            luaL_argerror(L, opts, lua_pushfstring(L, "field '%s' out of range %s..%s", key, push_bound(L, lo),
                                                   push_bound(L, hi)));
    }
    lua_pop(L, 1);
    return v;
}

int bs_lua_boolfield(lua_State *L, int t, const char *key)
{
    lua_getfield(L, t, key);
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

unsigned bs_lua_dirsfield_in(lua_State *L, int arg, int t, const char *owner, const char *key, unsigned def)
{
    unsigned mask = def;
    if (lua_getfield(L, t, key) != LUA_TNIL) {
        const char *problem = bs_lua_todirs(L, lua_gettop(L), &mask);
        if (problem)
            luaL_argerror(L, arg, lua_pushfstring(L, "field '%s%s': %s", owner, key, problem));
    }
    lua_pop(L, 1);
    return mask;
}

int bs_lua_optionfield_in(lua_State *L, int arg, int t, const char *owner, const char *key,
                          const char *const names[], int def)
{
    int v = def;
    if (lua_getfield(L, t, key) != LUA_TNIL) {
        v = bs_lua_findname(L, -1, names);
        if (v < 0)
            luaL_argerror(L, arg, lua_pushfstring(L, "field '%s%s': unknown value '%s'", owner, key,
                                                  bs_lua_shownname(L, -1)));
    }
    lua_pop(L, 1);
    return v;
}

void bs_lua_renamedfield(lua_State *L, int opts, const char *old, const char *now)
{
    if (lua_getfield(L, opts, old) != LUA_TNIL)
        luaL_argerror(L, opts, lua_pushfstring(L, "field '%s' is now '%s'", old, now));
    lua_pop(L, 1);
}

/* ---- list buffers ---- */

void bs_lua_buffer(lua_State *L, int arg, int size)
{
    if (lua_isnoneornil(L, arg)) {
        lua_settop(L, arg - 1);
        lua_createtable(L, size, 0);
    } else {
        luaL_checktype(L, arg, LUA_TTABLE);
        lua_settop(L, arg);
    }
}

int bs_lua_endlist(lua_State *L, int arg, lua_Integer count)
{
    for (lua_Integer i = count + 1; lua_rawgeti(L, arg, i) != LUA_TNIL; i++) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, arg, i);
    }
    lua_pop(L, 1);
    lua_pushinteger(L, count);
    lua_insert(L, arg);
    return 2;
}

/* ---- closed objects and core.type ---- */

/* The type name of a metatable name: "boardscript.board" -> "board". */
static const char *type_name(const char *meta)
{
    const char *dot = strrchr(meta, '.');
    return dot ? dot + 1 : meta;
}

const char *bs_lua_pushclosed(lua_State *L, const char *meta)
{
    return lua_pushfstring(L, "attempt to use a closed %s", type_name(meta));
}

int bs_lua_closederror(lua_State *L, int arg, const char *meta)
{
    return luaL_argerror(L, arg, bs_lua_pushclosed(L, meta));
}

/* Every userdata type of the module, by metatable name, with the test of a
 * closed one (NULL: the type cannot be closed). */
static const struct {
    const char *meta;
    int (*closed)(const void *object);
} TYPES[] = {
    {BOARD_META, bs_lua_board_closed},
    {RNG_META, NULL},
    {CURSOR_META, NULL},
    {DOTS_META, NULL},
    {DOTS_SOLVER_META, bs_lua_dots_solver_closed},
    {SEARCHER_META, bs_lua_searcher_closed},
    {EVALUATOR_META, bs_lua_evaluator_closed},
    {TRAINER_META, bs_lua_trainer_closed},
    {DGAME_META, NULL},
    {DGSTATE_META, NULL},
    {DGEVAL_META, NULL},
    {DGTRAINER_META, NULL},
    {DGSEARCHER_META, bs_lua_dgame_searcher_closed},
};

/* core.type(x) -> "board", "closed board", ... (as io.type), or fail for
 * anything that is not an object of the module: the metatable must be the
 * registry's own, not one with the same __name. */
int bs_lua_type(lua_State *L)
{
    luaL_checkany(L, 1);
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++) {
        const void *p = luaL_testudata(L, 1, TYPES[i].meta);
        if (!p)
            continue;
        if (TYPES[i].closed && TYPES[i].closed(p))
            lua_pushfstring(L, "closed %s", type_name(TYPES[i].meta));
        else
            lua_pushstring(L, type_name(TYPES[i].meta));
        return 1;
    }
    luaL_pushfail(L);
    return 1;
}
