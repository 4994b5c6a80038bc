/* lplayout.c - core.playout: random games to the end, played in C. */
#include "../core/playout.h"
#include "binding.h"

int bs_lua_pushoutcome(lua_State *L, const bs_game *g, const bs_state *s, int plies)
{
    int value = bs_state_final_value(g, s); /* for the side to move */
    if (s->player == BS_WHITE)
        value = -value;
    lua_pushinteger(L, bs_board_count(&s->board, BS_BLACK));
    lua_pushinteger(L, bs_board_count(&s->board, BS_WHITE));
    lua_pushinteger(L, plies);
    if (value == 0)
        lua_pushliteral(L, "draw");
    else
        bs_lua_pushplayer(L, value > 0 ? BS_BLACK : BS_WHITE);
    return 4;
}

/*
 * core.playout(board, player, rng [, opts]) -> black, white, plies, winner
 * Plays random moves from the position (the board is not changed: the game
 * is played on a copy) until the game is over or opts.limit plies (default
 * twice the cells) have been played. opts: game and the state fields, as for
 * a searcher (default: standard Reversi); pass_odds (see bs_playout). The
 * results: the final disc counts, the plies played and the winner by the
 * described game's rules ("black", "white" or "draw"), the position as it
 * stands when the limit cut the game short.
 */
static int core_playout(lua_State *L)
{
    int opts = bs_lua_opttable(L, 4);
    bs_game g = bs_lua_checkgame(L, opts);
    bs_state s = bs_lua_checkstate(L, 1, 2, opts, &g);
    bs_rng *rng = bs_lua_checkrng(L, 3);
    lua_Integer limit = 2 * s.board.n * s.board.n, pass_odds = 0;
    if (opts) {
        limit = bs_lua_intfield(L, opts, "limit", 0, 1000000, limit);
        pass_odds = bs_lua_intfield(L, opts, "pass_odds", 0, 1000000, 0);
    }
    int plies = 0;
    if (bs_playout(&g, &s, rng, (int)pass_odds, (int)limit, &plies) != BS_OK)
        return luaL_error(L, "malformed position");
    return bs_lua_pushoutcome(L, &g, &s, plies);
}

void bs_lua_open_playout(lua_State *L)
{
    lua_pushcfunction(L, core_playout);
    lua_setfield(L, -2, "playout");
}
