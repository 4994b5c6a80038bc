/* ldots.c - Dots and Boxes positions as Lua userdata (1-based dots, players 1 and 2). */
#include "ldots.h"

/*
 * Lua sees dots as (row, column) from (1, 1) at the top left to
 * (rows + 1, cols + 1), boxes as (row, column) from (1, 1) to (rows, cols),
 * and an edge as its two dots: four integers r1, c1, r2, c2 or one table
 * {r1, c1, r2, c2}, in either order; edges handed back always put the smaller
 * dot first (the left one of a horizontal edge, the top one of a vertical).
 * Players are 1 (moves first) and 2; a box nobody owns has owner nil.
 * The userdata is the core struct itself: it holds no pointers, so it needs
 * no __gc and copying it is a clone.
 */

bs_dots *bs_lua_checkdots(lua_State *L, int arg)
{
    return luaL_checkudata(L, arg, DOTS_META);
}

static bs_dots *push_dots(lua_State *L)
{
    bs_dots *d = lua_newuserdatauv(L, sizeof *d, 0);
    luaL_setmetatable(L, DOTS_META);
    return d;
}

void bs_lua_pushedge(lua_State *L, const bs_dots *d, int edge)
{
    int v[4];
    bs_dots_dots_of_edge(d, edge, &v[0], &v[1], &v[2], &v[3]);
    lua_createtable(L, 4, 0);
    for (int i = 0; i < 4; i++) {
        lua_pushinteger(L, v[i] + 1);
        lua_rawseti(L, -2, i + 1);
    }
}

static void push_pair(lua_State *L, int r, int c)
{
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, r + 1);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, c + 1);
    lua_rawseti(L, -2, 2);
}

static void push_box(lua_State *L, const bs_dots *d, int box)
{
    push_pair(L, box / d->cols, box % d->cols);
}

/* The edge at `arg`: four integers or one table (see the top of the file).
 * Raises, naming the argument, for a dot off the grid or two dots that are
 * not one edge apart. Returns the core's edge index. */
static int check_edge(lua_State *L, const bs_dots *d, int arg)
{
    static const char *const what[] = {"row", "column", "row", "column"};
    int v[4], table = lua_type(L, arg) == LUA_TTABLE;
    for (int i = 0; i < 4; i++) {
        int hi = (i % 2 == 0 ? d->rows : d->cols) + 1;
        if (!table) {
            v[i] = (int)bs_lua_checkrange(L, arg + i, what[i], 1, hi) - 1;
            continue;
        }
        int isnum;
        lua_geti(L, arg, i + 1);
        lua_Integer x = lua_tointegerx(L, -1, &isnum);
        lua_pop(L, 1);
        if (!isnum)
            luaL_argerror(L, arg, lua_pushfstring(L, "edge {r1, c1, r2, c2} expected, "
                                                     "field %d is not an integer", i + 1));
        if (x < 1 || x > hi)
            luaL_argerror(L, arg, lua_pushfstring(L, "field %d: %s out of range 1..%d", i + 1,
                                                  what[i], hi));
        v[i] = (int)x - 1;
    }
    int edge;
    if (bs_dots_edge_of_dots(d, v[0], v[1], v[2], v[3], &edge) != BS_OK)
        luaL_argerror(L, table ? arg : arg + 2, "dots are not one edge apart");
    return edge;
}

static void check_box(lua_State *L, const bs_dots *d, int arg, int *r, int *c)
{
    *r = (int)bs_lua_checkrange(L, arg, "row", 1, d->rows) - 1;
    *c = (int)bs_lua_checkrange(L, arg + 1, "column", 1, d->cols) - 1;
}

static void check_dot(lua_State *L, const bs_dots *d, int arg, int *r, int *c)
{
    *r = (int)bs_lua_checkrange(L, arg, "row", 1, d->rows + 1) - 1;
    *c = (int)bs_lua_checkrange(L, arg + 1, "column", 1, d->cols + 1) - 1;
}

static int already_drawn(lua_State *L)
{
    luaL_pushfail(L);
    lua_pushliteral(L, "edge already drawn");
    return 2;
}

/* core.dots(rows, cols): an empty grid of rows x cols boxes, player 1 to move. */
static int dots_new(lua_State *L)
{
    int rows = (int)bs_lua_checkrange(L, 1, "rows", 1, BS_DOTS_MAX_SIDE);
    int cols = (int)bs_lua_checkrange(L, 2, "columns", 1, BS_DOTS_MAX_SIDE);
    bs_dots_init(push_dots(L), rows, cols);
    return 1;
}

static int dots_rows(lua_State *L)
{
    lua_pushinteger(L, bs_lua_checkdots(L, 1)->rows);
    return 1;
}

static int dots_cols(lua_State *L)
{
    lua_pushinteger(L, bs_lua_checkdots(L, 1)->cols);
    return 1;
}

static int dots_edge_count(lua_State *L)
{
    lua_pushinteger(L, bs_lua_checkdots(L, 1)->nedges);
    return 1;
}

static int dots_open_count(lua_State *L)
{
    lua_pushinteger(L, bs_dots_open_count(bs_lua_checkdots(L, 1)));
    return 1;
}

/* draw(edge) -> boxes completed (0..2; the mover keeps the turn when > 0),
 * or nil, "edge already drawn" (the position unchanged). */
static int dots_draw(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    int edge = check_edge(L, d, 2), completed = 0;
    if (bs_dots_draw(d, edge, &completed) == BS_EILLEGAL)
        return already_drawn(L);
    lua_pushinteger(L, completed);
    return 1;
}

/* undo() -> the edge taken back, or false when nothing has been drawn. */
static int dots_undo(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    int edge;
    if (bs_dots_undo(d, &edge) != BS_OK) {
        lua_pushboolean(L, 0);
        return 1;
    }
    bs_lua_pushedge(L, d, edge);
    return 1;
}

/* open_edges() -> list of edges: horizontal ones row by row, then vertical. */
static int dots_open_edges(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    int edges[BS_DOTS_MAX_EDGES];
    int n = bs_dots_open_edges(d, edges, BS_DOTS_MAX_EDGES);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        bs_lua_pushedge(L, d, edges[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* history() -> the drawn edges in the order they were drawn. */
static int dots_history(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    lua_createtable(L, d->nhistory, 0);
    for (int i = 0; i < d->nhistory; i++) {
        bs_lua_pushedge(L, d, d->history[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int dots_is_drawn(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    lua_pushboolean(L, bs_dots_is_drawn(d, check_edge(L, d, 2)) == 1);
    return 1;
}

static int dots_box_sides(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    int r, c;
    check_box(L, d, 2, &r, &c);
    lua_pushinteger(L, bs_dots_box_sides(d, r, c));
    return 1;
}

/* box_owner(r, c) -> 1, 2, or nil for a box nobody has completed. */
static int dots_box_owner(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    int r, c, owner;
    check_box(L, d, 2, &r, &c);
    bs_dots_box_owner(d, r, c, &owner);
    if (owner == BS_DOTS_NOBODY)
        luaL_pushfail(L);
    else
        lua_pushinteger(L, owner + 1);
    return 1;
}

/* degree(r, c) -> open edges at dot (r, c), 0..4. */
static int dots_degree(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    int r, c;
    check_dot(L, d, 2, &r, &c);
    lua_pushinteger(L, bs_dots_dot_degree(d, r, c));
    return 1;
}

static int dots_turn(lua_State *L)
{
    lua_pushinteger(L, bs_lua_checkdots(L, 1)->turn + 1);
    return 1;
}

/* score() -> boxes of player 1, boxes of player 2. */
static int dots_score(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    lua_pushinteger(L, d->score[0]);
    lua_pushinteger(L, d->score[1]);
    return 2;
}

static int dots_finished(lua_State *L)
{
    lua_pushboolean(L, bs_dots_is_finished(bs_lua_checkdots(L, 1)) == 1);
    return 1;
}

/* effect(edge) -> boxes drawing it would complete, boxes it would give a
 * third side; or nil, "edge already drawn". */
static int dots_effect(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    int completes, thirds;
    if (bs_dots_edge_effect(d, check_edge(L, d, 2), &completes, &thirds) == BS_EILLEGAL)
        return already_drawn(L);
    lua_pushinteger(L, completes);
    lua_pushinteger(L, thirds);
    return 2;
}

static void push_chain_end(lua_State *L, const bs_dots *d, const bs_dots_chain *ch, int i)
{
    lua_createtable(L, 0, 2);
    bs_lua_pushedge(L, d, ch->end_edge[i]);
    lua_setfield(L, -2, "edge");
    if (ch->end_box[i] < 0) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "ground");
    } else {
        push_box(L, d, ch->end_box[i]);
        lua_setfield(L, -2, "box");
    }
}

/* chains() -> list of {kind = "chain"|"loop", length, boxes = {{r, c}, ...}
 * (row by row), first, last (the boxes at the two ends), ends = {{edge =,
 * box = | ground = true}, x2} (a loop has no ends)}: the components of
 * boxes with exactly two sides drawn. */
static int dots_chains(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    bs_dots_chain chains[BS_DOTS_MAX_BOXES];
    int box_chain[BS_DOTS_MAX_BOXES], n = 0;
    bs_dots_chains(d, chains, BS_DOTS_MAX_BOXES, &n, box_chain);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const bs_dots_chain *ch = &chains[i];
        lua_createtable(L, 0, 6);
        lua_pushstring(L, ch->kind == BS_DOTS_LOOP ? "loop" : "chain");
        lua_setfield(L, -2, "kind");
        lua_pushinteger(L, ch->length);
        lua_setfield(L, -2, "length");
        lua_createtable(L, ch->length, 0);
        for (int b = 0, k = 0; b < d->nboxes; b++) {
            if (box_chain[b] == i) {
                push_box(L, d, b);
                lua_rawseti(L, -2, ++k);
            }
        }
        lua_setfield(L, -2, "boxes");
        push_box(L, d, ch->first_box);
        lua_setfield(L, -2, "first");
        push_box(L, d, ch->last_box);
        lua_setfield(L, -2, "last");
        lua_createtable(L, 2, 0);
        for (int e = 0; ch->kind == BS_DOTS_CHAIN && e < 2; e++) {
            push_chain_end(L, d, ch, e);
            lua_rawseti(L, -2, e + 1);
        }
        lua_setfield(L, -2, "ends");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int dots_clone(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    bs_dots_clone(push_dots(L), d);
    return 1;
}

static int dots_hash(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)bs_dots_hash(bs_lua_checkdots(L, 1)));
    return 1;
}

/* The grid without index characters: `+` dots, `-` and `|` drawn edges, and
 * the owner's number (1 or 2) in each completed box. */
static int dots_tostring(lua_State *L)
{
    bs_dots *d = bs_lua_checkdots(L, 1);
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    for (int r = 0; r <= d->rows; r++) {
        for (int c = 0; c <= d->cols; c++) {
            luaL_addchar(&buf, '+');
            if (c < d->cols)
                luaL_addchar(&buf, bs_dots_is_drawn(d, r * d->cols + c) == 1 ? '-' : ' ');
        }
        luaL_addchar(&buf, '\n');
        if (r == d->rows)
            break;
        for (int c = 0; c <= d->cols; c++) {
            int vertical = (d->rows + 1) * d->cols + r * (d->cols + 1) + c;
            luaL_addchar(&buf, bs_dots_is_drawn(d, vertical) == 1 ? '|' : ' ');
            if (c < d->cols) {
                int owner;
                bs_dots_box_owner(d, r, c, &owner);
                luaL_addchar(&buf, owner == BS_DOTS_NOBODY ? ' ' : (char)('1' + owner));
            }
        }
        luaL_addchar(&buf, '\n');
    }
    luaL_pushresult(&buf);
    return 1;
}

/* Same size, drawn edges, owners and player to move (not the drawing order). */
static int dots_eq(lua_State *L)
{
    bs_dots *a = luaL_testudata(L, 1, DOTS_META), *b = luaL_testudata(L, 2, DOTS_META);
    lua_pushboolean(L, a && b && bs_dots_equal(a, b));
    return 1;
}

void bs_lua_open_dots(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"rows", dots_rows},           {"cols", dots_cols},
        {"edge_count", dots_edge_count}, {"open_count", dots_open_count},
        {"draw", dots_draw},           {"undo", dots_undo},
        {"open_edges", dots_open_edges}, {"history", dots_history},
        {"is_drawn", dots_is_drawn},   {"box_sides", dots_box_sides},
        {"box_owner", dots_box_owner}, {"degree", dots_degree},
        {"turn", dots_turn},           {"score", dots_score},
        {"finished", dots_finished},   {"effect", dots_effect},
        {"chains", dots_chains},       {"clone", dots_clone},
        {"hash", dots_hash},           {"solve", bs_lua_dots_solve},
        {"best_move", bs_lua_dots_best_move}, {NULL, NULL}};
    static const luaL_Reg metamethods[] = {
        {"__tostring", dots_tostring}, {"__eq", dots_eq}, {NULL, NULL}};
    bs_lua_newmeta(L, DOTS_META, methods, metamethods);
    lua_pushcfunction(L, dots_new);
    lua_setfield(L, -2, "dots");
    bs_lua_open_dots_solver(L);
}
