/* dots.h - Dots and Boxes position: edges as bitsets, box owners, undo, chains. */
#ifndef BS_DOTS_H
#define BS_DOTS_H

#include <stdint.h>

#include "common.h"

/*
 * Geometry. A board has `rows` x `cols` boxes (1..BS_DOTS_MAX_SIDE each), so
 * (rows+1) x (cols+1) dots. Dots, boxes and everything else are 0-based here;
 * the binding converts to Lua's 1-based rows and columns.
 *
 * Edge indices run 0 .. nedges-1, nedges = 2*rows*cols + rows + cols:
 *   horizontal edges first, H = (rows+1)*cols of them:
 *     index r*cols + c          joins dot (r,c) and dot (r,c+1),  0<=r<=rows, 0<=c<cols
 *   then vertical edges, rows*(cols+1) of them:
 *     index H + r*(cols+1) + c  joins dot (r,c) and dot (r+1,c),  0<=r<rows,  0<=c<=cols
 * Box (r,c) is bounded by horizontals (r,c) top and (r+1,c) bottom and
 * verticals (r,c) left and (r,c+1) right. Boxes are numbered r*cols + c.
 * Bit e of drawn[e/64] is edge e.
 *
 * The struct is fixed-size and holds no pointers: copying it is a clone.
 */
#define BS_DOTS_MAX_SIDE 16
#define BS_DOTS_MAX_BOXES (BS_DOTS_MAX_SIDE * BS_DOTS_MAX_SIDE)
#define BS_DOTS_MAX_EDGES (2 * BS_DOTS_MAX_BOXES + 2 * BS_DOTS_MAX_SIDE)
#define BS_DOTS_WORDS ((BS_DOTS_MAX_EDGES + 63) / 64)

#define BS_DOTS_NOBODY (-1) /* owner of a box nobody has completed */

typedef struct bs_dots {
    int rows, cols;      /* boxes per column / per row */
    int nedges, nboxes;
    int turn;            /* player to move: 0 or 1 */
    int score[2];        /* boxes owned by each player */
    int nhistory;        /* edges drawn so far, also the undo depth */
    uint64_t drawn[BS_DOTS_WORDS];
    int8_t owner[BS_DOTS_MAX_BOXES];     /* BS_DOTS_NOBODY, 0 or 1 */
    uint16_t history[BS_DOTS_MAX_EDGES]; /* drawn edges in order */
} bs_dots;

/* Empty board, player 0 to move. BS_EINVAL unless 1 <= rows, cols <= 16. */
int bs_dots_init(bs_dots *d, int rows, int cols);

/* Edge <-> dots. edge_of_dots accepts the two dots in either order and gives
 * BS_EINVAL unless both are on the board and exactly one edge apart.
 * dots_of_edge gives the smaller dot first (top for vertical, left for
 * horizontal). */
int bs_dots_edge_of_dots(const bs_dots *d, int r1, int c1, int r2, int c2, int *edge);
int bs_dots_dots_of_edge(const bs_dots *d, int edge, int *r1, int *c1, int *r2, int *c2);

/* The boxes either side of an edge (box index or -1 off the board). */
int bs_dots_edge_boxes(const bs_dots *d, int edge, int boxes[2]);

/* Queries returning a count >= 0, a flag 0/1, or BS_EINVAL. */
int bs_dots_is_drawn(const bs_dots *d, int edge);
int bs_dots_box_sides(const bs_dots *d, int r, int c);  /* 0..4 drawn sides */
int bs_dots_dot_degree(const bs_dots *d, int r, int c); /* 0..4 open edges at a dot */
int bs_dots_is_finished(const bs_dots *d);
int bs_dots_open_count(const bs_dots *d);

/* Owner of box (r,c): BS_DOTS_NOBODY, 0 or 1. */
int bs_dots_box_owner(const bs_dots *d, int r, int c, int *owner);

/* What drawing an open edge would do: boxes it completes (0..2) and boxes it
 * gives a third side (0..2). BS_EILLEGAL if the edge is drawn. */
int bs_dots_edge_effect(const bs_dots *d, int edge, int *completes, int *thirds);

/* Draw an open edge for the player to move. *completed (may be NULL) gets
 * 0..2; completing a box keeps the turn. BS_EINVAL out of range,
 * BS_EILLEGAL if already drawn. */
int bs_dots_draw(bs_dots *d, int edge, int *completed);

/* Take back the last drawn edge; *edge (may be NULL) gets it. BS_ESTATE if
 * nothing has been drawn. */
int bs_dots_undo(bs_dots *d, int *edge);

/* Open edges in increasing index order. Returns the count, or BS_EINVAL if
 * cap is too small (cap >= nedges always suffices). */
int bs_dots_open_edges(const bs_dots *d, int *out, int cap);
/* The open-edge bitset, BS_DOTS_WORDS words, bits past nedges zero. */
int bs_dots_open_set(const bs_dots *d, uint64_t out[BS_DOTS_WORDS]);

void bs_dots_clone(bs_dots *dst, const bs_dots *src);
/* Same size, edges, owners and turn (history is not compared). */
int bs_dots_equal(const bs_dots *a, const bs_dots *b);
uint64_t bs_dots_hash(const bs_dots *d);

/*
 * Chains and loops. Think of boxes as coins and open edges as strings (a
 * string on the border runs to the "ground"). A box with exactly two sides
 * drawn has two strings; such boxes linked through shared open edges form a
 * component that is either a loop (a closed cycle of them) or a chain whose
 * two ends run to the ground or to a box with another side count (0, 1 or 3
 * sides drawn). These are what a double-cross is played on.
 */
enum { BS_DOTS_CHAIN = 0, BS_DOTS_LOOP = 1 };

typedef struct bs_dots_chain {
    int kind;        /* BS_DOTS_CHAIN or BS_DOTS_LOOP */
    int length;      /* boxes in it */
    int first_box;   /* the box at end 0 (any box of a loop) */
    int last_box;    /* the box at end 1 (== first_box for length 1) */
    int end_box[2];  /* chain: box beyond each end, -1 for the ground; loop: -1 */
    int end_edge[2]; /* chain: the open edge leaving each end; loop: -1 */
} bs_dots_chain;

/* Fills out[0..*count-1]; box_chain (may be NULL, nboxes entries) gets each
 * box's component index or -1. BS_EINVAL if cap is too small; cap >= nboxes
 * always suffices. */
int bs_dots_chains(const bs_dots *d, bs_dots_chain *out, int cap, int *count, int *box_chain);

#endif
