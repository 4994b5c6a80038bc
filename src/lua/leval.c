/* leval.c - learned evaluations (core.evaluator) and their fitting (core.trainer) as Lua userdata. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binding.h"
#include "leval.h"
#include "../core/capture.h"

/*
 * ev = core.evaluator{size =, rows =, cols =, symmetry =, phases =, features =, mobility =}
 * ev = core.evaluator(PATH) -> ev, meta (every failure raises, naming argument 1 and the file)
 * ev = core.evaluator_load(bytes) -> ev, meta | nil, why
 * ev:evaluate(board, player) -> hundredths of a disc for player to move
 * ev:info() -> {size, rows, cols, symmetry, phases, features, mobility, shapes, instances, weights, nonzero,
 *   layout}
 * ev:instance(i) -> shape, {cells as {row, col}}
 * ev:save([meta]) -> bytes;  ev:copy();  ev:close()
 * ev:set_mpc(params | nil);  ev:mpc() -> params | nil (Multi-ProbCut: params[d] =
 *   {shallow =, slope = {per phase}, offset = {...}, sigma = {...}} for depths d 1..60)
 * tr = core.trainer(ev)
 * tr:add(board or cells, player, target [, holdout]);  tr:count([holdout])
 * tr:fit{iterations, shrink} / tr:measure() -> {train_error, holdout_error, holdout_abs, train, holdout}
 * tr:close(); tostring(tr)
 */

static const char *const FEATURE_NAMES[] = {"mobility", "potential", "parity", "anchored", NULL};

typedef struct ltrainer {
    bs_trainer *trainer; /* NULL after close */
} ltrainer;

bs_levaluator *bs_lua_checkevaluator(lua_State *L, int arg)
{
    bs_levaluator *e = luaL_checkudata(L, arg, EVALUATOR_META);
    if (!e->model)
        bs_lua_closederror(L, arg, EVALUATOR_META);
    return e;
}

int bs_lua_evaluator_closed(const void *object)
{
    return ((const bs_levaluator *)object)->model == NULL;
}

static bs_levaluator *push_evaluator(lua_State *L, bs_model *m)
{
    bs_levaluator *e = lua_newuserdatauv(L, sizeof *e, 0);
    memset(e, 0, sizeof *e);
    e->model = m;
    luaL_setmetatable(L, EVALUATOR_META);
    return e;
}

static unsigned features_opt(lua_State *L, int t)
{
    unsigned f = BS_FEAT_ALL;
    int type = lua_getfield(L, t, "features");
    if (type == LUA_TSTRING) {
        int which = bs_lua_findname(L, -1, (const char *const[]){"all", "none", NULL});
        if (which < 0)
            luaL_argerror(L, t, "field 'features': \"all\", \"none\" or a list of feature names expected");
        f = which == 0 ? BS_FEAT_ALL : 0;
    } else if (type == LUA_TTABLE) {
        f = 0;
        lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer i = 1; i <= len; i++) {
            lua_rawgeti(L, -1, i);
            int k = bs_lua_findname(L, -1, FEATURE_NAMES);
            if (k < 0)
                luaL_argerror(L, t, "field 'features': unknown feature (expected mobility, potential, parity "
                                    "or anchored)");
            f |= 1u << k;
            lua_pop(L, 1);
        }
    } else if (type != LUA_TNIL) {
        luaL_argerror(L, t, "field 'features': \"all\", \"none\" or a list of feature names expected");
    }
    lua_pop(L, 1);
    return f;
}

static int evaluator_load(lua_State *L);

/* The largest evaluation file core.evaluator(PATH) reads. */
#define MAX_FILE_BYTES (64u << 20)
/* The longest path core.evaluator(PATH) takes (PATH_MAX on Linux). */
#define MAX_PATH_BYTES 4096

/* core.evaluator(PATH): the file read whole (at most 64 MiB), then loaded.
 * Every failure is an error naming argument 1 and the file. */
static int evaluator_from_file(lua_State *L)
{
    size_t path_len;
    const char *path = luaL_checklstring(L, 1, &path_len);
    if (strlen(path) != path_len)
        return luaL_argerror(L, 1, "a path without a zero byte expected");
    if (path_len == 0 || path_len > MAX_PATH_BYTES)
        return luaL_argerror(L, 1, "a path of 1 to 4096 bytes expected");
    /* Opened without blocking and checked before a byte is read: a FIFO or
     * a device would block for ever (or never end), outside every budget. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return luaL_argerror(L, 1, lua_pushfstring(L, "cannot open %s: %s", path, strerror(errno)));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        return luaL_argerror(L, 1, lua_pushfstring(L, "cannot open %s: %s", path, strerror(err)));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return luaL_argerror(L, 1, lua_pushfstring(L, "cannot load %s: not a regular file (a %s)", path,
                                                   S_ISDIR(st.st_mode) ? "directory"
                                                   : S_ISFIFO(st.st_mode) ? "FIFO"
                                                   : S_ISSOCK(st.st_mode) ? "socket"
                                                                          : "device"));
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int err = errno;
        close(fd);
        return luaL_argerror(L, 1, lua_pushfstring(L, "cannot open %s: %s", path, strerror(err)));
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t total = 0;
    for (;;) {
        char *piece = luaL_prepbuffsize(&b, 65536);
        size_t got = fread(piece, 1, 65536, f);
        luaL_addsize(&b, got);
        total += got;
        if (total > MAX_FILE_BYTES) {
            fclose(f);
            return luaL_argerror(L, 1, lua_pushfstring(L, "cannot load %s: larger than 64 MiB", path));
        }
        if (got < 65536)
            break;
    }
    int failed = ferror(f);
    int err = errno;
    fclose(f);
    if (failed)
        return luaL_argerror(L, 1, lua_pushfstring(L, "cannot read %s: %s", path, strerror(err)));
    luaL_pushresult(&b);
    lua_pushcfunction(L, evaluator_load);
    lua_insert(L, -2);
    lua_call(L, 1, 2);
    if (lua_isnil(L, -2))
        return luaL_argerror(L, 1, lua_pushfstring(L, "cannot load %s: %s", path, lua_tostring(L, -1)));
    return 2;
}

/* field 'symmetry' of the options at t: a group name or a list of map
 * names (the group they generate); `absent` when there is none. */
unsigned bs_lua_symmetry_opt(lua_State *L, int t, int rows, int cols, unsigned absent)
{
    unsigned group = 0;
    int type = lua_getfield(L, t, "symmetry");
    if (type == LUA_TNIL) {
        group = absent;
    } else if (type == LUA_TSTRING) {
        size_t len;
        const char *name = lua_tolstring(L, -1, &len);
        group = bs_sym_group(name, len, rows, cols);
        if (!group)
            luaL_argerror(L, t, lua_pushfstring(L, "field 'symmetry': unknown group '%s' (expected none, mirror, "
                                                   "flip, rotate180, square or a list of maps)", name));
    } else if (type == LUA_TTABLE) {
        unsigned maps = 1u;
        lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer i = 1; i <= len; i++) {
            size_t k = 0;
            const char *name = lua_rawgeti(L, -1, i) == LUA_TSTRING ? lua_tolstring(L, -1, &k) : NULL;
            int map = bs_sym_parse(name, k);
            if (map < 0)
                luaL_argerror(L, t, lua_pushfstring(L, "field 'symmetry': item %I is not a map (identity, mirror, "
                                                       "flip, rotate180, transpose, antitranspose, rotate90, "
                                                       "rotate270)", i));
            if ((map & BS_SYM_TRANSPOSE) && rows != cols)
                luaL_argerror(L, t, lua_pushfstring(L, "field 'symmetry': '%s' maps a square only, not a %d x %d "
                                                       "board", name, rows, cols));
            maps |= 1u << map;
            lua_pop(L, 1);
        }
        group = bs_sym_closure(maps);
    } else {
        luaL_argerror(L, t, "field 'symmetry': a group name or a list of map names expected");
    }
    lua_pop(L, 1);
    return group;
}

/* core.evaluator{size =, rows =, cols =, symmetry =, phases =, features =, mobility =}:
 * zero weights; core.evaluator(PATH): a file's. */
static int evaluator_new(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TSTRING)
        return evaluator_from_file(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    int size = (int)bs_lua_intfield(L, 1, "size", 3, BS_MAX_N, 0);
    int rows = (int)bs_lua_intfield(L, 1, "rows", 3, BS_MAX_N, 0);
    int cols = (int)bs_lua_intfield(L, 1, "cols", 3, BS_MAX_N, 0);
    int side = size ? size : rows > cols ? rows : cols ? cols : 8; /* rows and cols default to size, */
    rows = rows ? rows : side;                                     /* size to the larger of them */
    cols = cols ? cols : side;
    if (size && size != (rows > cols ? rows : cols))
        return luaL_argerror(L, 1, lua_pushfstring(L, "field 'size': %d for %d x %d boards (the larger side, %d, "
                                                      "expected)", size, rows, cols, rows > cols ? rows : cols));
    unsigned group = bs_lua_symmetry_opt(L, 1, rows, cols, bs_sym_group("square", 6, rows, cols));
    int phases = (int)bs_lua_intfield(L, 1, "phases", 0, BS_MODEL_MAX_PHASES, 0);
    unsigned features = features_opt(L, 1);
    unsigned dirs = bs_lua_dirsfield(L, 1, "mobility", BS_DIRS_ALL);
    bs_model *m;
    int st = bs_model_new_shape(&m, rows, cols, group, phases, features, dirs);
    if (st != BS_OK)
        return luaL_error(L, st == BS_ENOMEM ? "not enough memory for the evaluator" : "bad evaluator options");
    push_evaluator(L, m);
    return 1;
}

/* core.evaluator_load(bytes) -> evaluator, meta | nil, why */
static int evaluator_load(lua_State *L)
{
    size_t len;
    const char *bytes = luaL_checklstring(L, 1, &len);
    char *meta = malloc(BS_MODEL_META + 1);
    if (!meta)
        return luaL_error(L, "not enough memory");
    bs_model *m;
    const char *why = NULL;
    int st = bs_model_load(&m, (const unsigned char *)bytes, len, meta, BS_MODEL_META + 1, &why);
    if (st != BS_OK) {
        free(meta);
        luaL_pushfail(L);
        lua_pushstring(L, why ? why : "not an evaluation file");
        return 2;
    }
    lua_pushstring(L, meta);
    free(meta);
    push_evaluator(L, m);
    lua_insert(L, -2);
    return 2;
}

/* Argument `arg`, board b, is not of the model's shape. */
static int shape_error(lua_State *L, int arg, const bs_model *m, const bs_board *b)
{
    int rows, cols;
    bs_model_shape(m, &rows, &cols);
    return luaL_argerror(L, arg, lua_pushfstring(L, "a %d x %d board for an evaluation of %d x %d boards", b->rows,
                                                 b->cols, rows, cols));
}

static const bs_board *check_position(lua_State *L, int arg, const bs_model *m, bs_board *parsed);

static int evaluator_evaluate(lua_State *L)
{
    bs_levaluator *e = bs_lua_checkevaluator(L, 1);
    bs_board parsed;
    const bs_board *b = check_position(L, 2, e->model, &parsed);
    int player = bs_lua_checkplayer(L, 3);
    if (!bs_model_fits(e->model, b))
        return shape_error(L, 2, e->model, b);
    lua_pushinteger(L, bs_model_evaluate(e->model, b, player));
    return 1;
}

static int evaluator_info(lua_State *L)
{
    bs_levaluator *e = bs_lua_checkevaluator(L, 1);
    bs_model_info info;
    bs_model_describe(e->model, &info);
    lua_createtable(L, 0, 12);
    lua_pushinteger(L, info.n);
    lua_setfield(L, -2, "size");
    lua_pushinteger(L, info.rows);
    lua_setfield(L, -2, "rows");
    lua_pushinteger(L, info.cols);
    lua_setfield(L, -2, "cols");
    const char *names[8];
    int maps = 0;
    for (int i = 0; i < 8; i++)
        if (info.group >> i & 1u)
            names[maps++] = bs_sym_name(i);
    for (int i = 1; i < maps; i++) /* by name */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    lua_createtable(L, maps, 0);
    for (int i = 0; i < maps; i++) {
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "symmetry");
    lua_pushinteger(L, info.phases);
    lua_setfield(L, -2, "phases");
    lua_newtable(L);
    int k = 0;
    for (int i = 0; FEATURE_NAMES[i]; i++)
        if (info.features & (1u << i)) {
            lua_pushstring(L, FEATURE_NAMES[i]);
            lua_rawseti(L, -2, ++k);
        }
    lua_setfield(L, -2, "features");
    lua_pushinteger(L, info.mobility_dirs);
    lua_setfield(L, -2, "mobility");
    lua_pushinteger(L, info.shapes);
    lua_setfield(L, -2, "shapes");
    lua_pushinteger(L, info.instances);
    lua_setfield(L, -2, "instances");
    lua_pushinteger(L, (lua_Integer)info.weights);
    lua_setfield(L, -2, "weights");
    lua_pushinteger(L, (lua_Integer)info.nonzero);
    lua_setfield(L, -2, "nonzero");
    char hex[16];
    snprintf(hex, sizeof hex, "%08x", (unsigned)info.layout);
    lua_pushstring(L, hex);
    lua_setfield(L, -2, "layout");
    return 1;
}

static int evaluator_instance(lua_State *L)
{
    bs_levaluator *e = bs_lua_checkevaluator(L, 1);
    bs_model_info info;
    bs_model_describe(e->model, &info);
    lua_Integer i = bs_lua_checkrange(L, 2, "instance", 1, info.instances);
    int cells[BS_MODEL_MAX_CELLS], shape;
    int k = bs_model_instance(e->model, (int)i - 1, &shape, cells);
    lua_pushinteger(L, shape + 1);
    lua_createtable(L, k, 0);
    for (int j = 0; j < k; j++) {
        lua_createtable(L, 2, 0);
        lua_pushinteger(L, cells[j] / BS_MAX_N + 1);
        lua_rawseti(L, -2, 1);
        lua_pushinteger(L, cells[j] % BS_MAX_N + 1);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, j + 1);
    }
    return 2;
}

static int evaluator_save(lua_State *L)
{
    bs_levaluator *e = bs_lua_checkevaluator(L, 1);
    size_t meta_len = 0;
    const char *meta = luaL_optlstring(L, 2, "", &meta_len);
    if (meta_len > BS_MODEL_META || strlen(meta) != meta_len)
        return luaL_argerror(L, 2, lua_pushfstring(L, "meta: at most %d bytes without a zero byte", BS_MODEL_META));
    size_t need = bs_model_save(e->model, meta, NULL, 0);
    unsigned char *buf = malloc(need ? need : 1);
    if (!buf)
        return luaL_error(L, "not enough memory");
    bs_model_save(e->model, meta, buf, need);
    lua_pushlstring(L, (const char *)buf, need);
    free(buf);
    return 1;
}

/* Number t[i] of the table at the top, in lo .. hi, times `scale`, rounded. */
static int32_t mpc_number(lua_State *L, int d, const char *key, int i, double lo, double hi, double scale)
{
    int isnum;
    lua_rawgeti(L, -1, i);
    double x = lua_tonumberx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || !(x >= lo && x <= hi))
        return (int32_t)luaL_error(L, "bad argument #2 to 'set_mpc' (params[%d].%s[%d] must be a number from %f to %f)",
                                   d, key, i, lo, hi);
    return (int32_t)lround(x * scale);
}

/* Fills shallow[d] and param[d * phases + p] from params[d] (at index t). */
static void mpc_depth(lua_State *L, int t, int d, int phases, int8_t *shallow, bs_mpc_param *param)
{
    int type = lua_rawgeti(L, t, d);
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (type != LUA_TTABLE)
        luaL_error(L, "bad argument #2 to 'set_mpc' (params[%d] must be a table)", d);
    int isnum;
    lua_getfield(L, -1, "shallow");
    lua_Integer sd = lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || sd < 0 || sd >= d)
        luaL_error(L, "bad argument #2 to 'set_mpc' (params[%d].shallow must be an integer from 0 to %d)", d, d - 1);
    shallow[d] = (int8_t)sd;
    static const char *const keys[] = {"slope", "offset", "sigma"};
    static const double lo[] = {0.001, -10000, 0.01}, hi[] = {100, 10000, 10000}, scale[] = {1000, 1, 1};
    for (int k = 0; k < 3; k++) {
        if (lua_getfield(L, -1, keys[k]) != LUA_TTABLE)
            luaL_error(L, "bad argument #2 to 'set_mpc' (params[%d].%s must be a table of %d numbers)", d, keys[k],
                       phases);
        if (lua_rawlen(L, -1) != (size_t)phases)
            luaL_error(L, "bad argument #2 to 'set_mpc' (params[%d].%s must be a table of %d numbers)", d, keys[k],
                       phases);
        for (int p = 0; p < phases; p++) {
            int32_t v = mpc_number(L, d, keys[k], p + 1, lo[k], hi[k], scale[k]);
            bs_mpc_param *q = &param[d * phases + p];
            if (k == 0)
                q->slope = v;
            else if (k == 1)
                q->offset = v;
            else
                q->sigma = v < 1 ? 1 : v;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* ev:set_mpc(params | nil) */
static int evaluator_set_mpc(lua_State *L)
{
    bs_levaluator *e = bs_lua_checkevaluator(L, 1);
    if (lua_isnoneornil(L, 2)) {
        bs_model_set_mpc(e->model, NULL, NULL);
        return 0;
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    bs_model_info info;
    bs_model_describe(e->model, &info);
    int phases = info.phases;
    /* the scratch is a userdata: an error while reading the table frees it */
    bs_mpc_param *param = lua_newuserdatauv(L, sizeof *param * (size_t)BS_MPC_DEPTHS * (size_t)phases, 0);
    memset(param, 0, sizeof *param * (size_t)BS_MPC_DEPTHS * (size_t)phases);
    int8_t shallow[BS_MPC_DEPTHS];
    memset(shallow, -1, sizeof shallow);
    lua_pushvalue(L, 2);
    int t = lua_gettop(L);
    int any = 0;
    for (int d = 1; d < BS_MPC_DEPTHS; d++) {
        mpc_depth(L, t, d, phases, shallow, param);
        any |= shallow[d] >= 0;
    }
    int st = bs_model_set_mpc(e->model, any ? shallow : NULL, param);
    if (st == BS_ENOMEM)
        return luaL_error(L, "not enough memory");
    if (st != BS_OK)
        return luaL_argerror(L, 2, "parameters out of range");
    return 0;
}

static void mpc_list(lua_State *L, const bs_mpc_param *q, int phases, int field, double scale)
{
    lua_createtable(L, phases, 0);
    for (int p = 0; p < phases; p++) {
        int32_t v = field == 0 ? q[p].slope : field == 1 ? q[p].offset : q[p].sigma;
        if (scale == 1)
            lua_pushinteger(L, v);
        else
            lua_pushnumber(L, v / scale);
        lua_rawseti(L, -2, p + 1);
    }
}

static int evaluator_mpc(lua_State *L)
{
    bs_levaluator *e = bs_lua_checkevaluator(L, 1);
    bs_model_info info;
    bs_model_describe(e->model, &info);
    int phases = info.phases;
    int8_t shallow[BS_MPC_DEPTHS];
    bs_mpc_param *param = lua_newuserdatauv(L, sizeof *param * (size_t)BS_MPC_DEPTHS * (size_t)phases, 0);
    if (!bs_model_mpc(e->model, shallow, param)) {
        lua_pushnil(L);
        return 1;
    }
    lua_newtable(L);
    for (int d = 1; d < BS_MPC_DEPTHS; d++) {
        if (shallow[d] < 0)
            continue;
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, shallow[d]);
        lua_setfield(L, -2, "shallow");
        mpc_list(L, param + d * phases, phases, 0, 1000);
        lua_setfield(L, -2, "slope");
        mpc_list(L, param + d * phases, phases, 1, 1);
        lua_setfield(L, -2, "offset");
        mpc_list(L, param + d * phases, phases, 2, 1);
        lua_setfield(L, -2, "sigma");
        lua_rawseti(L, -2, d);
    }
    return 1;
}

static int evaluator_copy(lua_State *L)
{
    bs_levaluator *e = bs_lua_checkevaluator(L, 1);
    bs_model *m;
    if (bs_model_copy(&m, e->model) != BS_OK)
        return luaL_error(L, "not enough memory for the evaluator");
    push_evaluator(L, m);
    return 1;
}

static int evaluator_gc(lua_State *L)
{
    bs_levaluator *e = luaL_checkudata(L, 1, EVALUATOR_META);
    if (e->users > 0)
        return luaL_error(L, "cannot close an evaluator a trainer is fitting");
    bs_model_free(e->model);
    e->model = NULL;
    return 0;
}

static int evaluator_tostring(lua_State *L)
{
    bs_levaluator *e = luaL_checkudata(L, 1, EVALUATOR_META);
    if (!e->model) {
        lua_pushliteral(L, "evaluator (closed)");
        return 1;
    }
    int rows, cols;
    bs_model_shape(e->model, &rows, &cols);
    lua_pushfstring(L, "evaluator %d x %d (%p)", rows, cols, (void *)e);
    return 1;
}

/* ---- trainers ---- */

static ltrainer *check_trainer(lua_State *L, int arg)
{
    ltrainer *t = luaL_checkudata(L, arg, TRAINER_META);
    if (!t->trainer)
        bs_lua_closederror(L, arg, TRAINER_META);
    return t;
}

int bs_lua_trainer_closed(const void *object)
{
    return ((const ltrainer *)object)->trainer == NULL;
}

/* core.trainer(ev): user value 1 holds the evaluator, which cannot close while it lives. */
static int trainer_new(lua_State *L)
{
    bs_levaluator *e = bs_lua_checkevaluator(L, 1);
    ltrainer *t = lua_newuserdatauv(L, sizeof *t, 1);
    memset(t, 0, sizeof *t);
    luaL_setmetatable(L, TRAINER_META);
    if (bs_trainer_new(&t->trainer, e->model) != BS_OK)
        return luaL_error(L, "not enough memory for the trainer");
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    e->users++;
    return 1;
}

static bs_levaluator *trainer_evaluator(lua_State *L, int arg)
{
    lua_getiuservalue(L, arg, 1);
    bs_levaluator *e = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return e;
}

/* The cells of a data-file line ('.' empty, 'x' black, 'o' white, '#' a
 * block; n * n of them, row by row) into `b`; false if they are not that. */
static bool cells_board(const char *text, size_t len, int n, bs_board *b)
{
    if (len != (size_t)n * (size_t)n || bs_board_init(b, n) != BS_OK)
        return false;
    for (size_t k = 0; k < len; k++) {
        int cell = text[k] == '.' ? BS_EMPTY : text[k] == 'x' ? BS_BLACK : text[k] == 'o' ? BS_WHITE
                 : text[k] == '#' ? BS_BLOCK : -1;
        if (cell < 0)
            return false;
        if (cell != BS_EMPTY && bs_board_set(b, (int)(k / (size_t)n), (int)(k % (size_t)n), cell) != BS_OK)
            return false;
    }
    return true;
}

/* Argument `arg`: a board, or a data file's cells as a string (x black;
 * ten times quicker than a board's set calls), parsed into *parsed for
 * model m's shape: a rectangle's cells are its square's, the margin '#'. */
static const bs_board *check_position(lua_State *L, int arg, const bs_model *m, bs_board *parsed)
{
    if (lua_type(L, arg) != LUA_TSTRING)
        return bs_lua_checkboard(L, arg);
    int n = bs_model_size(m), rows, cols;
    bs_model_shape(m, &rows, &cols);
    size_t len;
    const char *text = lua_tolstring(L, arg, &len);
    if (!cells_board(text, len, n, parsed))
        luaL_argerror(L, arg, lua_pushfstring(L, "cells: %d characters of . x o # expected", n * n));
    parsed->rows = rows;
    parsed->cols = cols;
    if (!bs_board_valid(parsed))
        luaL_argerror(L, arg, lua_pushfstring(L, "cells: the cells past %d x %d must be '#'", rows, cols));
    return parsed;
}

static int trainer_add(lua_State *L)
{
    ltrainer *t = check_trainer(L, 1);
    const bs_model *m = trainer_evaluator(L, 1)->model;
    bs_board parsed;
    const bs_board *b = check_position(L, 2, m, &parsed);
    int player = bs_lua_checkplayer(L, 3);
    lua_Number target = luaL_checknumber(L, 4);
    int holdout = lua_toboolean(L, 5);
    if (!bs_model_fits(m, b))
        return shape_error(L, 2, m, b);
    if (!(target >= -10000 && target <= 10000))
        return luaL_argerror(L, 4, "target: a margin in discs from -10000 to 10000 expected");
    int st = bs_trainer_add(t->trainer, b, player, target, holdout);
    if (st == BS_ENOMEM)
        return luaL_error(L, "not enough memory for another position");
    if (st != BS_OK)
        return luaL_argerror(L, 2, "malformed board");
    return 0;
}

static int trainer_count(lua_State *L)
{
    ltrainer *t = check_trainer(L, 1);
    if (lua_isnoneornil(L, 2))
        lua_pushinteger(L, (lua_Integer)(bs_trainer_count(t->trainer, 0) + bs_trainer_count(t->trainer, 1)));
    else
        lua_pushinteger(L, (lua_Integer)bs_trainer_count(t->trainer, lua_toboolean(L, 2)));
    return 1;
}

static void push_fit(lua_State *L, const bs_fit_result *r)
{
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, r->train_error);
    lua_setfield(L, -2, "train_error");
    lua_pushnumber(L, r->holdout_error);
    lua_setfield(L, -2, "holdout_error");
    lua_pushnumber(L, r->holdout_abs);
    lua_setfield(L, -2, "holdout_abs");
    lua_pushinteger(L, (lua_Integer)r->train);
    lua_setfield(L, -2, "train");
    lua_pushinteger(L, (lua_Integer)r->holdout);
    lua_setfield(L, -2, "holdout");
}

static int trainer_fit(lua_State *L)
{
    ltrainer *t = check_trainer(L, 1);
    bs_fit_options o = {20, 4.0};
    if (bs_lua_opttable(L, 2)) {
        o.iterations = (int)bs_lua_intfield(L, 2, "iterations", 1, 100000, 20);
        o.shrink = bs_lua_numfield(L, 2, "shrink", 0, 1e9, 4.0);
    }
    bs_fit_result r;
    int st = bs_trainer_fit(t->trainer, &o, &r);
    if (st != BS_OK)
        return luaL_error(L, st == BS_ENOMEM ? "not enough memory to fit" : "the fit failed");
    trainer_evaluator(L, 1)->generation++;
    push_fit(L, &r);
    return 1;
}

static int trainer_measure(lua_State *L)
{
    ltrainer *t = check_trainer(L, 1);
    bs_fit_result r;
    if (bs_trainer_measure(t->trainer, &r) != BS_OK)
        return luaL_error(L, "not enough memory to measure");
    push_fit(L, &r);
    return 1;
}

static int trainer_gc(lua_State *L)
{
    ltrainer *t = luaL_checkudata(L, 1, TRAINER_META);
    if (!t->trainer)
        return 0;
    bs_trainer_free(t->trainer);
    t->trainer = NULL;
    bs_levaluator *e = trainer_evaluator(L, 1);
    if (e && e->users > 0)
        e->users--;
    return 0;
}

static int trainer_tostring(lua_State *L)
{
    ltrainer *t = luaL_checkudata(L, 1, TRAINER_META);
    if (!t->trainer) {
        lua_pushliteral(L, "trainer (closed)");
        return 1;
    }
    lua_pushfstring(L, "trainer of %I positions (%p)",
                    (lua_Integer)(bs_trainer_count(t->trainer, 0) + bs_trainer_count(t->trainer, 1)), (void *)t);
    return 1;
}

void bs_lua_open_eval(lua_State *L)
{
    static const luaL_Reg ev_methods[] = {{"evaluate", evaluator_evaluate}, {"info", evaluator_info},
                                          {"instance", evaluator_instance}, {"save", evaluator_save},
                                          {"copy", evaluator_copy},         {"close", evaluator_gc},
                                          {"set_mpc", evaluator_set_mpc},   {"mpc", evaluator_mpc},
                                          {NULL, NULL}};
    static const luaL_Reg ev_meta[] = {{"__gc", evaluator_gc},
                                       {"__close", evaluator_gc},
                                       {"__tostring", evaluator_tostring},
                                       {NULL, NULL}};
    static const luaL_Reg tr_methods[] = {{"add", trainer_add}, {"count", trainer_count}, {"fit", trainer_fit},
                                          {"measure", trainer_measure}, {"close", trainer_gc}, {NULL, NULL}};
    static const luaL_Reg tr_meta[] = {
        {"__gc", trainer_gc}, {"__close", trainer_gc}, {"__tostring", trainer_tostring}, {NULL, NULL}};
    bs_lua_newmeta(L, EVALUATOR_META, ev_methods, ev_meta);
    bs_lua_newmeta(L, TRAINER_META, tr_methods, tr_meta);
    lua_pushcfunction(L, evaluator_new);
    lua_setfield(L, -2, "evaluator");
    lua_pushcfunction(L, evaluator_load);
    lua_setfield(L, -2, "evaluator_load");
    lua_pushcfunction(L, trainer_new);
    lua_setfield(L, -2, "trainer");
}
