/* game.h - a capture game as a description (bs_game), a position of it
 * (bs_state), and the rules over a state: what the searcher, the cursor and
 * the playouts play by, and what callers check a rule set's hooks against. */
#ifndef BS_GAME_H
#define BS_GAME_H

#include "capture.h"

/*
 * A capture game is described, not coded: the direction sets of each piece
 * of a turn, when a player may pass and when the game ends. Every built-in
 * capture rule set is one of these (Reversi, blocks, the loose and strict
 * "othello", FlipFlop), and a variant that only changes what a description
 * holds is searched in C too. Values are from the side to move: the disc
 * difference at the end of the game (its negation in a misere game), and
 * the evaluation's estimate of it in between.
 */
enum bs_pass_rule {
    BS_PASS_WHEN_STUCK = 0, /* a pass only without a legal move */
    BS_PASS_ANYTIME = 1     /* a pass is always a choice */
};
enum bs_end_rule {
    BS_END_NO_MOVES = 0,        /* neither side has a legal move (Reversi) */
    BS_END_TWO_PASSES = 1,      /* two passes in a row, or no empty cell (blocks) */
    BS_END_TWO_PASSES_ONLY = 2, /* two passes in a row (the seed's othello) */
    BS_END_TURNS = 3            /* turn_limit turns, or two turns in a row without a first piece (FlipFlop) */
};

typedef struct bs_game {
    unsigned legal_dirs, flip_dirs;   /* a turn's (first) piece; legal 0 = any empty cell */
    unsigned legal2_dirs, flip2_dirs; /* its second piece, when second_after > 0 */
    int second_after;                 /* captures the first piece needs to earn a second; 0 = none */
    int pass_rule, end_rule;
    int turn_limit;                   /* BS_END_TURNS: turns in a game (0: n * n) */
    int misere;                       /* nonzero: the fewest discs win */
    int empties_to_winner;            /* nonzero: a game ending with empty cells gives them to the winner */
} bs_game;

/* Standard Reversi: all/all, pass when stuck, over when neither can move. */
bs_game bs_game_reversi(void);

/* A position: the board and what the rules remember besides it. */
typedef struct bs_state {
    bs_board board;
    int player;  /* BS_BLACK or BS_WHITE, to move */
    int passes;  /* passes in a row */
    int piece;   /* 1, or 2 while a second piece may be placed */
    int turns;   /* turns finished (BS_END_TURNS) */
    int unable;  /* turns in a row without a legal first piece (BS_END_TURNS) */
} bs_state;

/* Rules over a state, the same for the searcher and for callers that check it
 * against a rule set's hooks. A move is a square index r * BS_MAX_N + c, or
 * BS_PASS. */
#define BS_PASS (-1)
int bs_game_check(const bs_game *g);
int bs_state_moves(const bs_game *g, const bs_state *s, bs_set *out);
int bs_state_can_pass(const bs_game *g, const bs_state *s);
int bs_state_finished(const bs_game *g, const bs_state *s);
/* Plays a move or BS_PASS: the number of discs flipped (0 for a pass or a
 * placement that flips none), BS_EILLEGAL (state unchanged) when the rules
 * refuse it, BS_EINVAL for a state or square the game cannot hold. */
int bs_state_play(const bs_game *g, bs_state *s, int move);
/* The final value for the side to move of a finished state. */
int bs_state_final_value(const bs_game *g, const bs_state *s);

#endif
