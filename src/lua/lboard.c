/* lboard.c - capture-game boards as Lua userdata (1-based rows and columns). */
#include <stdlib.h>
#include <string.h>

#include "../core/capture.h"
#include "../core/perft.h"
#include "../core/simd64.h"
#include "binding.h"

/* The board plus the core's history `undo` pops, owned by the userdata and
 * freed by __gc/__close; it starts empty so collection is always safe.
 * After __close (or an explicit __gc) the board is closed: using it raises.
 * `tag` is &BOARD_TAG in every board (check_board). */
typedef struct lboard {
    const void *tag;
    bs_board board;
    bs_history history;
    int closed;
} lboard;

static const char BOARD_TAG = 0;

static const char *const CELL_NAMES[] = {"empty", "black", "white", "block", NULL};
static const char *const DIR_NAMES[] = {"n", "ne", "e", "se", "s", "sw", "w", "nw", NULL};

/* A board argument, known by its block: a full userdata (lua_rawlen is 0
 * for a light one) of a board's size whose first word is the address of
 * BOARD_TAG, a constant of this library that no Lua value can name. It
 * costs a few loads where luaL_checkudata (a registry lookup by name, then
 * the metatables compared) cost several API calls, and the hot methods
 * (get, set, code, set_code) take a board on every call. Anything else
 * goes through luaL_checkudata, which raises naming the argument. */
static inline lboard *check_board(lua_State *L, int arg)
{
    lboard *lb = lua_touserdata(L, arg);
    if (lb == NULL || lua_rawlen(L, arg) != sizeof *lb || lb->tag != &BOARD_TAG)
        lb = luaL_checkudata(L, arg, BOARD_META);
    if (lb->closed)
        bs_lua_closederror(L, arg, BOARD_META);
    return lb;
}

int bs_lua_board_closed(const void *object)
{
    return ((const lboard *)object)->closed;
}

/* The methods are closures whose upvalues 1..4 are the cell names
 * (CELL_NAMES, interned): a name is pushed without hashing it, and a short
 * string argument is recognised by its address (Lua interns every short
 * string once). bs_lua_open_board makes every method so. */
#define CELL_UPVALUE(cell) lua_upvalueindex(1 + (cell))

static int check_cell(lua_State *L, int arg)
{
    if (lua_type(L, arg) == LUA_TSTRING) {
        const char *name = lua_tostring(L, arg);
        for (int i = 0; i < 4; i++)
            if (name == lua_tostring(L, CELL_UPVALUE(i)))
                return i;
    }
    return bs_lua_checkoption(L, arg, NULL, CELL_NAMES);
}

static inline void push_cell(lua_State *L, int cell)
{
    lua_pushvalue(L, CELL_UPVALUE(cell));
}

/* Rows and columns are 1-based in Lua; returns them 0-based. */
static inline void check_square(lua_State *L, const lboard *lb, int arg, int *r, int *c)
{
    int rok, cok;
    lua_Integer rr = lua_tointegerx(L, arg, &rok), cc = lua_tointegerx(L, arg + 1, &cok);
    if (rok && cok && (lua_Unsigned)rr - 1u < (lua_Unsigned)lb->board.rows &&
        (lua_Unsigned)cc - 1u < (lua_Unsigned)lb->board.cols) { /* else the checks below raise */
        *r = (int)rr - 1;
        *c = (int)cc - 1;
        return;
    }
    *r = (int)bs_lua_checkrange(L, arg, "row", 1, lb->board.rows) - 1;
    *c = (int)bs_lua_checkrange(L, arg + 1, "column", 1, lb->board.cols) - 1;
}

/* A direction set: "all", "orthogonal", "diagonal", "none" (any empty cell
 * is playable), or a list of names such as {"n", "se"}. Returns NULL and sets
 * *mask, or returns what is wrong with the value at `idx`. */
const char *bs_lua_todirs(lua_State *L, int idx, unsigned *mask)
{
    static const char *const sets[] = {"all", "orthogonal", "diagonal", "none", NULL};
    static const unsigned masks[] = {BS_DIRS_ALL, BS_DIRS_ORTHOGONAL, BS_DIRS_DIAGONAL, 0};
    if (lua_type(L, idx) == LUA_TSTRING) {
        int i = bs_lua_findname(L, idx, sets);
        if (i < 0)
            return "unknown direction set (expected all, orthogonal, diagonal, none or a list)";
        *mask = masks[i];
        return NULL;
    }
    if (!lua_istable(L, idx))
        return "direction set expected (a string or a list of directions)";
    *mask = 0;
    for (lua_Integer i = 1;; i++) {
        int type = lua_rawgeti(L, idx, i);
        int found = bs_lua_findname(L, -1, DIR_NAMES);
        lua_pop(L, 1);
        if (type == LUA_TNIL)
            return NULL;
        if (found < 0)
            return "unknown direction (expected n, ne, e, se, s, sw, w or nw)";
        *mask |= 1u << found;
    }
}

static unsigned opt_dirs(lua_State *L, int arg, unsigned def)
{
    unsigned mask = def;
    if (lua_isnoneornil(L, arg))
        return def;
    const char *problem = bs_lua_todirs(L, arg, &mask);
    if (problem)
        luaL_argerror(L, arg, problem);
    return mask;
}

static lboard *push_board(lua_State *L, int rows, int cols);

const bs_board *bs_lua_checkboard(lua_State *L, int arg)
{
    return &check_board(L, arg)->board;
}

void bs_lua_pushboard(lua_State *L, const bs_board *b)
{
    push_board(L, b->rows, b->cols)->board = *b;
}

static lboard *push_board(lua_State *L, int rows, int cols)
{
    lboard *lb = lua_newuserdatauv(L, sizeof *lb, 0);
    lb->tag = &BOARD_TAG;
    bs_history_init(&lb->history);
    lb->closed = 0;
    bs_board_init_shape(&lb->board, rows, cols);
    luaL_setmetatable(L, BOARD_META);
    return lb;
}

static void push_squares(lua_State *L, const bs_set *s)
{
    lua_createtable(L, bs_set_count(s), 0);
    lua_Integer i = 0;
    for (int index = -1; bs_set_next(s, &index);) {
        lua_createtable(L, 2, 0);
        lua_pushinteger(L, index / BS_MAX_N + 1);
        lua_rawseti(L, -2, 1);
        lua_pushinteger(L, index % BS_MAX_N + 1);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, ++i);
    }
}

/* core.board(n) -> an empty n x n board; core.board(rows, cols) an empty
 * rows x cols one (each 1..26). A rectangular board is held as a square one
 * whose margin is blocked (board.h): its moves, searches and evaluations
 * are the capture core's, and its rows and columns are all a caller sees. */
static int board_new(lua_State *L)
{
    int rows = (int)bs_lua_checkrange(L, 1, lua_isnoneornil(L, 2) ? "size" : "rows", 1, BS_MAX_N);
    int cols = lua_isnoneornil(L, 2) ? rows : (int)bs_lua_checkrange(L, 2, "cols", 1, BS_MAX_N);
    push_board(L, rows, cols);
    return 1;
}

/* size() -> the board's size: its rows when square, else max(rows, cols)
 * (the side of the square it is held in; move_list's indices count by it). */
static int board_size(lua_State *L)
{
    lua_pushinteger(L, check_board(L, 1)->board.n);
    return 1;
}

static int board_rows(lua_State *L)
{
    lua_pushinteger(L, check_board(L, 1)->board.rows);
    return 1;
}

static int board_cols(lua_State *L)
{
    lua_pushinteger(L, check_board(L, 1)->board.cols);
    return 1;
}

static int board_get(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    int r, c;
    check_square(L, lb, 2, &r, &c);
    push_cell(L, bs_board_cell(&lb->board, r, c));
    return 1;
}

/* code(row, col) -> the cell as a small integer: 0 empty, 1 black, 2 white,
 * 3 block; -1 for any integer row and column off the board (a rule set's
 * move generator steps off the edge without a bounds check of its own). */
static int board_code(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    lua_Integer r = luaL_checkinteger(L, 2), c = luaL_checkinteger(L, 3);
    int cell = -1;
    if (r >= 1 && r <= lb->board.rows && c >= 1 && c <= lb->board.cols)
        cell = bs_board_cell(&lb->board, (int)r - 1, (int)c - 1);
    lua_pushinteger(L, cell);
    return 1;
}

/* set_code(row, col, code): board:set with the cell as code gives it (0-3);
 * the cell must be on the board. Forgets the history, as set does. */
static int board_set_code(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    int r, c;
    check_square(L, lb, 2, &r, &c);
    bs_board_set(&lb->board, r, c, (int)bs_lua_checkrange(L, 4, "code", 0, 3));
    bs_history_clear(&lb->history);
    return 0;
}

/* Editing cells by hand forgets the history: undo cannot cross an edit. */
static int board_set(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    int r, c;
    check_square(L, lb, 2, &r, &c);
    bs_board_set(&lb->board, r, c, check_cell(L, 4));
    bs_history_clear(&lb->history);
    return 0;
}

static int board_count(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    lua_pushinteger(L, bs_board_count(&lb->board, check_cell(L, 2)));
    return 1;
}

static int board_cells(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    bs_set s;
    bs_board_cells(&lb->board, check_cell(L, 2), &s);
    push_squares(L, &s);
    return 1;
}

static int board_moves(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    bs_set s;
    bs_capture_moves(&lb->board, bs_lua_checkplayer(L, 2), opt_dirs(L, 3, BS_DIRS_ALL), &s);
    push_squares(L, &s);
    return 1;
}

static int board_has_moves(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    bs_set s;
    bs_capture_moves(&lb->board, bs_lua_checkplayer(L, 2), opt_dirs(L, 3, BS_DIRS_ALL), &s);
    lua_pushboolean(L, !bs_set_empty(&s));
    return 1;
}

static int board_legal(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    int player = bs_lua_checkplayer(L, 2), r, c;
    check_square(L, lb, 3, &r, &c);
    lua_pushboolean(L, bs_capture_legal(&lb->board, player, r, c, opt_dirs(L, 5, BS_DIRS_ALL)));
    return 1;
}

/* flips(player, row, col [, dirs]) -> count, list of squares */
static int board_flips(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    int player = bs_lua_checkplayer(L, 2), r, c;
    check_square(L, lb, 3, &r, &c);
    bs_set s;
    int count = bs_capture_flips(&lb->board, player, r, c, opt_dirs(L, 5, BS_DIRS_ALL), &s);
    lua_pushinteger(L, count);
    push_squares(L, &s);
    return 2;
}

static int play_at(lua_State *L, lboard *lb, int player, int r, int c, unsigned legal, unsigned flip);

/* play(player, row, col [, legal_dirs [, flip_dirs]]) -> number flipped, or
 * nil and a message when the move is not legal (the board is unchanged). */
static int board_play(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    int player = bs_lua_checkplayer(L, 2), r, c;
    check_square(L, lb, 3, &r, &c);
    unsigned legal = opt_dirs(L, 5, BS_DIRS_ALL);
    unsigned flip = opt_dirs(L, 6, BS_DIRS_ALL);
    return play_at(L, lb, player, r, c, legal, flip);
}

/* play_index(player, index [, legal_dirs [, flip_dirs]]): play with the cell
 * as one index, (row - 1) * n + col with n = size(), as move_list gives them. */
static int board_play_index(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    int player = bs_lua_checkplayer(L, 2), n = lb->board.n;
    int index = (int)bs_lua_checkrange(L, 3, "index", 1, (lua_Integer)n * n) - 1;
    unsigned legal = opt_dirs(L, 4, BS_DIRS_ALL);
    unsigned flip = opt_dirs(L, 5, BS_DIRS_ALL);
    return play_at(L, lb, player, index / n, index % n, legal, flip);
}

/* move_list(player [, legal_dirs [, buffer [, path]]]) -> count, buffer: the
 * legal moves as cell indices (row - 1) * n + col, row by row, in
 * buffer[1..count] (entries after them are cleared); a new table without a
 * buffer. `path` picks the implementation, all of which must give the same
 * list (`boardscript soak` checks that): "fast" (the default: the 8 x 8 word
 * path where it applies, else the multi-word path), "scalar" (the portable
 * 8 x 8 loop on 8 x 8 with all directions, else as fast), "generic" (the
 * multi-word path) or "reference" (cell runs, one direction at a time). */
static int board_move_list(lua_State *L)
{
    static const char *const PATHS[] = {"fast", "scalar", "generic", "reference", NULL};
    lboard *lb = check_board(L, 1);
    int player = bs_lua_checkplayer(L, 2), n = lb->board.n;
    unsigned legal = opt_dirs(L, 3, BS_DIRS_ALL);
    int path = bs_lua_checkoption(L, 5, "fast", PATHS);
    bs_lua_buffer(L, 4, 16);
    lua_Integer count = 0;
    if (n == 8 && legal == BS_DIRS_ALL && path <= 1) { /* the 64-bit path: bit 8 * r + c is index 8 * r + c + 1 */
        const bs_board *b = &lb->board;
        uint64_t mine = bs_pack64(b->plane[player - 1]), theirs = bs_pack64(b->plane[bs_opponent(player) - 1]);
        uint64_t empty = ~(mine | theirs | bs_pack64(b->plane[2]));
        uint64_t m = path == 1 ? bs_moves64_scalar(mine, theirs, empty) : bs_moves64(mine, theirs, empty);
        for (; m; m &= m - 1) {
            lua_pushinteger(L, __builtin_ctzll(m) + 1);
            lua_rawseti(L, 4, ++count);
        }
    } else {
        bs_set s;
        if (path == 2)
            bs_capture_moves_generic(&lb->board, player, legal, &s);
        else if (path == 3)
            bs_capture_moves_reference(&lb->board, player, legal, &s);
        else
            bs_capture_moves(&lb->board, player, legal, &s);
        for (int index = -1; bs_set_next(&s, &index);) {
            lua_pushinteger(L, (lua_Integer)(index / BS_MAX_N) * n + index % BS_MAX_N + 1);
            lua_rawseti(L, 4, ++count);
        }
    }
    return bs_lua_endlist(L, 4, count);
}

/* Plays for board_play and board_play_index: the count, or fail and a message. */
static int play_at(lua_State *L, lboard *lb, int player, int r, int c, unsigned legal, unsigned flip)
{
    /* (the core takes the 64-bit path on 8 x 8 Reversi itself) */
    int count = bs_history_play(&lb->history, &lb->board, player, r, c, legal, flip);
    if (count == BS_ENOMEM)
        return luaL_error(L, "not enough memory");
    if (count < 0) {
        luaL_pushfail(L);
        lua_pushliteral(L, "illegal move");
        return 2;
    }
    lua_pushinteger(L, count);
    return 1;
}

/* undo() takes back the last play; returns false when there is none. */
static int board_undo(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    lua_pushboolean(L, bs_history_undo(&lb->history, &lb->board) == BS_OK);
    return 1;
}

static int board_clone(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    lboard *copy = push_board(L, lb->board.rows, lb->board.cols);
    copy->board = lb->board;
    if (bs_history_copy(&copy->history, &lb->history) != BS_OK)
        return luaL_error(L, "not enough memory");
    return 1;
}

static int board_hash(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)bs_board_hash(&check_board(L, 1)->board));
    return 1;
}

/* perft(player, depth [, {legal=, flip=, generic=, reference=, scalar=}]) -> leaves.
 * scalar (or BOARDSCRIPT_NO_SIMD set to anything but "" and "0" in the
 * environment) takes the portable 8 x 8 loop even where AVX2 is available. */
static int board_perft(lua_State *L)
{
    lboard *lb = check_board(L, 1);
    int player = bs_lua_checkplayer(L, 2);
    int depth = (int)bs_lua_checkrange(L, 3, "depth", 0, 64);
    unsigned legal = BS_DIRS_ALL, flip = BS_DIRS_ALL;
    int generic = 0, reference = 0, scalar = 0;
    if (bs_lua_opttable(L, 4)) {
        /* a misspelt option (legal_dirs for legal) would count another game */
        static const char *const known[] = {"legal", "flip", "generic", "reference", "scalar", NULL};
        for (lua_pushnil(L); lua_next(L, 4); lua_pop(L, 1)) {
            int i = 0;
            if (lua_type(L, -2) == LUA_TSTRING)
                while (known[i] && strcmp(known[i], lua_tostring(L, -2)) != 0)
                    i++;
            if (lua_type(L, -2) != LUA_TSTRING || !known[i])
                return luaL_argerror(L, 4, lua_pushfstring(L, "unknown option %s (expected legal, flip, generic, "
                                                              "reference or scalar)",
                                                           lua_type(L, -2) == LUA_TSTRING
                                                               ? lua_pushfstring(L, "'%s'", lua_tostring(L, -2))
                                                               : luaL_typename(L, -2)));
        }
        legal = bs_lua_dirsfield(L, 4, "legal", BS_DIRS_ALL);
        flip = bs_lua_dirsfield(L, 4, "flip", BS_DIRS_ALL);
        generic = bs_lua_boolfield(L, 4, "generic");
        reference = bs_lua_boolfield(L, 4, "reference");
        scalar = bs_lua_boolfield(L, 4, "scalar");
    }
    const char *no_simd = getenv("BOARDSCRIPT_NO_SIMD");
    if (no_simd && *no_simd && strcmp(no_simd, "0") != 0)
        scalar = 1;
    const bs_board *b = &lb->board;
    uint64_t leaves = 0;
    if (reference)
        bs_perft_reference(b, player, depth, legal, flip, &leaves);
    else if (scalar && !generic && b->n == 8 && legal == BS_DIRS_ALL && flip == BS_DIRS_ALL)
        bs_perft64(bs_pack64(b->plane[player - 1]), bs_pack64(b->plane[bs_opponent(player) - 1]),
                   bs_pack64(b->plane[2]), depth, BS_IMPL64_SCALAR, &leaves);
    else
        bs_perft(&lb->board, player, depth, legal, flip, generic, &leaves);
    lua_pushinteger(L, (lua_Integer)leaves);
    return 1;
}

static int board_tostring(lua_State *L)
{
    lboard *lb = luaL_checkudata(L, 1, BOARD_META);
    if (lb->closed) {
        lua_pushliteral(L, "board (closed)");
        return 1;
    }
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    for (int r = 0; r < lb->board.rows; r++) {
        for (int c = 0; c < lb->board.cols; c++) {
            int cell;
            bs_board_get(&lb->board, r, c, &cell);
            luaL_addchar(&buf, ".XO#"[cell]);
        }
        luaL_addchar(&buf, '\n');
    }
    luaL_pushresult(&buf);
    return 1;
}

static int board_eq(lua_State *L)
{
    lboard *a = luaL_testudata(L, 1, BOARD_META), *b = luaL_testudata(L, 2, BOARD_META);
    lua_pushboolean(L, a && b && bs_board_equal(&a->board, &b->board));
    return 1;
}

/* __gc and __close: frees the undo history and closes the board (safe twice). */
static int board_gc(lua_State *L)
{
    lboard *lb = luaL_checkudata(L, 1, BOARD_META);
    bs_history_clear(&lb->history);
    lb->closed = 1;
    return 0;
}

/* core.directions(set) -> the list of direction names in a direction set
 * (e.g. {"n", "e", "s", "w"} for "orthogonal"), or nil and what is wrong
 * with it. Lets rule sets be checked when they load, before any board. */
static int board_directions(lua_State *L)
{
    unsigned mask = 0;
    const char *problem = bs_lua_todirs(L, 1, &mask);
    if (problem) {
        luaL_pushfail(L);
        lua_pushstring(L, problem);
        return 2;
    }
    lua_createtable(L, 8, 0);
    lua_Integer i = 0;
    for (int d = 0; DIR_NAMES[d]; d++)
        if (mask & (1u << d)) {
            lua_pushstring(L, DIR_NAMES[d]);
            lua_rawseti(L, -2, ++i);
        }
    return 1;
}

void bs_lua_open_board(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"size", board_size},   {"rows", board_rows},   {"cols", board_cols},
        {"get", board_get},     {"set", board_set},
        {"code", board_code},   {"set_code", board_set_code},
        {"count", board_count}, {"cells", board_cells}, {"moves", board_moves},
        {"has_moves", board_has_moves}, {"legal", board_legal}, {"flips", board_flips},
        {"play", board_play},   {"undo", board_undo},   {"clone", board_clone},
        {"hash", board_hash},   {"perft", board_perft}, {"move_list", board_move_list},
        {"play_index", board_play_index}, {NULL, NULL}};
    static const luaL_Reg metamethods[] = {{"__tostring", board_tostring},
                                           {"__eq", board_eq},
                                           {"__gc", board_gc},
                                           {"__close", board_gc},
                                           {NULL, NULL}};
    static const luaL_Reg none[] = {{NULL, NULL}};
    bs_lua_newmeta(L, BOARD_META, none, metamethods);
    /* the methods, as closures over the cell names (CELL_UPVALUE) */
    luaL_getmetatable(L, BOARD_META);
    lua_getfield(L, -1, "__index");
    for (int i = 0; i < 4; i++)
        lua_pushstring(L, CELL_NAMES[i]);
    luaL_setfuncs(L, methods, 4);
    lua_pop(L, 2);
    lua_pushcfunction(L, board_new);
    lua_setfield(L, -2, "board");
    lua_pushcfunction(L, board_directions);
    lua_setfield(L, -2, "directions");
}
