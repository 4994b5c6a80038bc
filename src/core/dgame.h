/* dgame.h - described games: a compiled game description played in C (issue 29).
 *
 * The binding fills a dg_spec from the normalised table (contract section 2,
 * docs/decisions.md "Described games: the C engine"); dg_compile checks it
 * and precomputes the neighbour tables; states are positions with an undo
 * log. Cells are 0-based indices (row - 1) * cols + (col - 1); sides are 1
 * (black) and 2 (white); a piece code is 2 * (kind - 1) + side (kind 1..8),
 * 0 empty, -1 block. Moves are the integers of contract section 1.5.
 */
#ifndef BS_DGAME_H
#define BS_DGAME_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "rng.h"

#define DG_MAX_SIDE 26
#define DG_MAX_CELLS (DG_MAX_SIDE * DG_MAX_SIDE)
#define DG_WORDS ((DG_MAX_CELLS + 63) / 64) /* 11 */
#define DG_MAX_KINDS 8
#define DG_MAX_RULES 31
#define DG_MAX_HOPS 11
#define DG_MAX_OFFSETS 32 /* offsets (directions) of one rule for one side */
#define DG_MAX_ENDS 16
#define DG_MAX_PROMOTE 8
#define DG_MOVES_MAX 8192 /* enough for every shipped game */
#define DG_EOVERFLOW (-5) /* dg_moves: more moves than the caller's room */

#define DG_NONE_CELL 1023u /* a placement's origin */
#define DG_SWAP_RULE 31u

enum { DG_ONGOING = 0, DG_WON_BLACK = 1, DG_WON_WHITE = 2, DG_DRAW = 3 };
enum { DG_OP_PLACE, DG_OP_STEP, DG_OP_SLIDE, DG_OP_LEAP, DG_OP_HOP };
enum { DG_AT_EMPTY, DG_AT_ADJACENT, DG_AT_COLUMN };
enum { DG_TO_EMPTY, DG_TO_ENEMY, DG_TO_FREE };
enum { DG_END_LINE, DG_END_CONNECT, DG_END_REACH, DG_END_NO_PIECES, DG_END_FULL, DG_END_PLIES };
enum { DG_RESULT_SCORE, DG_RESULT_DRAW };
enum { DG_NOMOVE_LOSE, DG_NOMOVE_PASS, DG_NOMOVE_DRAW, DG_NOMOVE_SCORE };
enum { DG_SCORE_PIECES, DG_SCORE_TERRITORY, DG_SCORE_NONE };
enum { DG_EDGE_N, DG_EDGE_S, DG_EDGE_W, DG_EDGE_E };

/* A list of (dr, dc) offsets, in the order they are tried. */
typedef struct dg_offsets {
    int n;
    signed char d[DG_MAX_OFFSETS][2];
} dg_offsets;

/* A set of cells (bit i = cell i). */
typedef struct dg_cellset {
    uint64_t w[DG_WORDS];
} dg_cellset;

typedef struct dg_rule_spec {
    int op;         /* DG_OP_* */
    unsigned kinds; /* bit k-1: kind k moves by this rule (place: unused) */
    int kind;       /* place: the kind placed, 1..K */
    int at;         /* place: DG_AT_* */
    dg_offsets dirs[2];                  /* per side: directions, adjacency or leap offsets */
    int has_flips, has_convert, has_arrow;
    dg_offsets flips[2], convert[2], arrow[2];
    int to;         /* DG_TO_* */
    int leave, chain;
} dg_rule_spec;

typedef struct dg_promote_spec {
    int from, to; /* kinds 1..K */
    dg_cellset zone[2];
} dg_promote_spec;

typedef struct dg_end_spec {
    int op;          /* DG_END_* */
    int k, exact;    /* line */
    dg_offsets dirs; /* line: one direction per axis; connect: neighbour directions */
    int edges[2][2]; /* connect: per side two DG_EDGE_* */
    dg_cellset zone[2]; /* reach */
    unsigned kinds;  /* reach: bit k-1 */
    int result;      /* full, plies: DG_RESULT_* */
    int n;           /* plies */
} dg_end_spec;

typedef struct dg_spec {
    int rows, cols, nkinds;
    signed char cells[DG_MAX_CELLS]; /* setup: code, 0 empty, -1 block */
    int first;                       /* 1 or 2 */
    int nrules;
    dg_rule_spec rules[DG_MAX_RULES];
    int must_capture;
    int npromote;
    dg_promote_spec promote[DG_MAX_PROMOTE];
    int nends;
    dg_end_spec ends[DG_MAX_ENDS];
    int no_move; /* DG_NOMOVE_* */
    int score;   /* DG_SCORE_* */
    int swap;
    int values[DG_MAX_KINDS]; /* each kind's worth for a material evaluation (not used by the rules) */
} dg_spec;

typedef uint64_t dg_move;
typedef struct dg_desc dg_desc;   /* compiled, immutable, shareable */
typedef struct dg_state dg_state; /* a position + undo log */

/* Checks the spec and compiles it: BS_OK, BS_EINVAL (why says what is wrong,
 * naming the field as the normalised table does) or BS_ENOMEM. */
int dg_compile(const dg_spec *spec, dg_desc **out, char *why, size_t why_len);
void dg_desc_free(dg_desc *d);
int dg_rows(const dg_desc *d);
int dg_cols(const dg_desc *d);
/* The compiled spec (read only). */
const dg_spec *dg_desc_spec(const dg_desc *d);

dg_state *dg_state_new(const dg_desc *d); /* the setup position; NULL: no memory */
dg_state *dg_state_clone(const dg_state *s);
int dg_state_copy(dg_state *dst, const dg_state *src); /* same desc; BS_OK / BS_ENOMEM */
void dg_state_free(dg_state *s);
/* dst holds src's position without its history (nothing to undo): the
 * cheap copy for a search's playouts. Same desc. */
void dg_state_copy_position(dg_state *dst, const dg_state *src);
/* Whether two states hold the same position (board size, cells, player, passes). */
int dg_state_equal(const dg_state *a, const dg_state *b);

/* The legal moves in contract order: their count (0 when finished or when
 * the side to move has none), or DG_EOVERFLOW when cap is too small. */
int dg_moves(const dg_desc *d, const dg_state *s, dg_move *out, int cap);
/* Whether a legal move m removes an enemy piece (a hop; a step, slide or
 * leap onto an enemy): what must-capture keeps. */
int dg_move_captures(const dg_desc *d, const dg_state *s, dg_move m);
/* Whether a move is legal here (generates the list). */
int dg_is_legal(const dg_desc *d, const dg_state *s, dg_move m);
/* Trusted: m from dg_moves. BS_OK or BS_ENOMEM (then nothing changed). */
int dg_play(const dg_desc *d, dg_state *s, dg_move m);
/* Trusted: only when dg_can_pass. BS_OK or BS_ENOMEM. */
int dg_pass(const dg_desc *d, dg_state *s);
int dg_can_pass(const dg_desc *d, const dg_state *s);
int dg_undo(const dg_desc *d, dg_state *s); /* 1 undone, 0 nothing to undo */
int dg_status(const dg_desc *d, const dg_state *s); /* DG_ONGOING, DG_WON_BLACK, DG_WON_WHITE, DG_DRAW */
void dg_score(const dg_desc *d, const dg_state *s, int out[2]);
int dg_player(const dg_state *s);
int dg_cell(const dg_state *s, int cell); /* code (block = -1); -1 outside too */
int dg_ply(const dg_state *s);
int dg_passes(const dg_state *s);
int dg_count(const dg_state *s, int side); /* pieces of side 1 or 2; 0: empty cells */
uint64_t dg_hash(const dg_state *s);       /* Zobrist of cells, side to move, passes */

/* Whether m is a well-formed move of this game (not necessarily legal). */
int dg_move_wellformed(const dg_desc *d, dg_move m);
/* The cells of a well-formed move: origin (if any), hop landings, the arrow
 * cell, the landing cell last. Returns their number (at most DG_MAX_HOPS + 3),
 * 0 for swap, -1 when not well-formed. */
int dg_move_cells(const dg_desc *d, dg_move m, int cells[DG_MAX_HOPS + 3]);
/* The notation of section 1.5 into buf (at least 64 bytes): its length, or -1. */
int dg_move_text(const dg_desc *d, dg_move m, char *buf, size_t len);

/* Move sequences of length depth (a forced pass is a ply); BS_ENOMEM or
 * DG_EOVERFLOW (negative) on failure. s is unchanged afterwards. */
int64_t dg_perft(const dg_desc *d, dg_state *s, int depth);
/* The same with the caller's buffer of depth * DG_MOVES_MAX moves; bulk 0:
 * every move of the last ply is played (and undone) as RBG's perft does,
 * else the last ply may be counted without playing it. */
int64_t dg_perft_buf(const dg_desc *d, dg_state *s, int depth, int bulk, dg_move *buf);

/* n random playouts from s (s unchanged): each move drawn uniformly with
 * bs_rng_below among dg_moves's list; a forced pass is played. A game still
 * on after ply_cap plies (from s) is counted as a draw. out: black wins,
 * white wins, draws, total plies. BS_OK, BS_ENOMEM or DG_EOVERFLOW. */
int dg_playouts(const dg_desc *d, const dg_state *s, bs_rng *rng, int n, int ply_cap, int64_t out[4]);
/* The same in a caller's workspace (for many calls: MCTS's playouts), made
 * by dg_playout_buf_new (NULL: no memory) and freed by dg_playout_buf_free. */
typedef struct dg_playout_buf dg_playout_buf;
dg_playout_buf *dg_playout_buf_new(void);
void dg_playout_buf_free(dg_playout_buf *pb);
int dg_playouts_in(dg_playout_buf *pb, const dg_desc *d, const dg_state *s, bs_rng *rng, int n, int ply_cap,
                   int64_t out[4]);

#endif
