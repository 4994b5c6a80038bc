/* ldgame_text.c - a described game's state as text: the board, move notation. */
#include "ldgame.h"

int bs_lua_dgstate_tostring(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    const dg_desc *d = st->g->d;
    int rows = dg_rows(d), cols = dg_cols(d);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int code = dg_cell(st->s, r * cols + c);
            char ch = code < 0 ? '#' : code == 0 ? '.' : code <= 2 ? (code == 1 ? 'x' : 'o')
                                                                    : st->g->letter[(code - 1) / 2];
            if (code > 2 && code % 2 == 1)
                ch = (char)(ch - 'a' + 'A');
            luaL_addchar(&b, ch);
        }
        luaL_addchar(&b, '\n');
    }
    luaL_pushresult(&b);
    return 1;
}

int bs_lua_dgstate_move_text(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    int ok;
    dg_move m = bs_lua_todgmove(L, 2, &ok);
    char text[96];
    if (!ok || dg_move_text(st->g->d, m, text, sizeof text) < 0) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushstring(L, text);
    return 1;
}

int bs_lua_dgstate_move_cells(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    int ok, cells[DG_MAX_HOPS + 3];
    dg_move m = bs_lua_todgmove(L, 2, &ok);
    int n = ok ? dg_move_cells(st->g->d, m, cells) : -1;
    if (n < 0) {
        luaL_pushfail(L);
        return 1;
    }
    int cols = dg_cols(st->g->d);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_createtable(L, 2, 0);
        lua_pushinteger(L, cells[i] / cols + 1);
        lua_rawseti(L, -2, 1);
        lua_pushinteger(L, cells[i] % cols + 1);
        lua_rawseti(L, -2, 2);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

int bs_lua_dgstate_parse_move(lua_State *L)
{
    lstate *st = bs_lua_checkdgstate(L, 1);
    size_t len;
    const char *in = luaL_checklstring(L, 2, &len);
    char want[96];
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = in[i];
        if (ch == ' ' || ch == '\t')
            continue;
        if (k + 1 >= sizeof want) {
            luaL_pushfail(L);
            return 1;
        }
        want[k++] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    }
    want[k] = 0;
    const dg_desc *d = st->g->d;
    int n = dg_moves(d, st->s, st->g->buf, DG_MOVES_MAX);
    const dg_spec *sp = dg_desc_spec(d);
    for (int i = 0; i < n; i++) {
        dg_move m = st->g->buf[i];
        char text[96];
        if (dg_move_text(d, m, text, sizeof text) >= 0 && strcmp(text, want) == 0) {
            lua_pushinteger(L, (lua_Integer)m);
            return 1;
        }
        unsigned r = (unsigned)(m >> 20 & 31);
        if (k == 1 && r != DG_SWAP_RULE && sp->rules[r].op == DG_OP_PLACE && sp->rules[r].at == DG_AT_COLUMN &&
            (int)((m >> 10 & 1023) % (unsigned)dg_cols(d)) == want[0] - 'a') {
            lua_pushinteger(L, (lua_Integer)m);
            return 1;
        }
    }
    luaL_pushfail(L);
    return 1;
}

