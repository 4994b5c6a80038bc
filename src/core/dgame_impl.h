/* dgame_impl.h - the described-game engine's own structures (not public). */
#ifndef BS_DGAME_IMPL_H
#define BS_DGAME_IMPL_H

#include "dgame.h"

#define DG_BLOCK 255u /* a block's internal code */
#define DG_ZCODES 18  /* Zobrist codes: 0 unused, 1..16 pieces, 17 block */

/* How a playout draws its move: generate the list; count by popcounts and
 * generate up to the drawn move; or, with one rule placing on any empty
 * cell, take the drawn empty cell (always the move the list has there);
 * with one column rule, the drawn open column (its top cell empty); with
 * only bulk-countable steps and leaps, the drawn move found from the sets
 * of origins that have a move in each direction (dg_nth_move). */
enum { DG_PICK_LIST, DG_PICK_PARTIAL, DG_PICK_EMPTY, DG_PICK_COLUMN, DG_PICK_NTH };

/* Cell classes (dg_desc.cls[code]): one bit each, so a rule's targets are one mask. */
#define DG_CLS_EMPTY 1u
#define DG_CLS_SIDE(side) (1u << (side)) /* 2 black, 4 white */
#define DG_CLS_BLOCK 8u

/* One compiled rule: the spec and, per side, the target table
 * tgt[side][cell * n + j] = the cell at offset j from cell, or the sentinel
 * cell ncells (always a block) off the board. */
typedef struct dg_rule {
    const dg_rule_spec *spec;
    int n[2];
    int16_t *tgt[2];
    int8_t dir[2][DG_MAX_OFFSETS]; /* compass index of each offset (-1: not a unit direction) */
    int nf[2], nc[2], na[2];
    /* one-word boards: per offset the cells whose target is on the board and the index shift */
    uint64_t src[2][DG_MAX_OFFSETS];
    int delta[2][DG_MAX_OFFSETS];
    int8_t fdir[2][8], cdir[2][8], adir[2][8]; /* flips, convert, arrow as compass indices */
    int one_cell;  /* a placement without flips or convert: a move changes its cell only */
    int two_cells; /* a step, slide or leap without convert or leave: a move changes its origin, landing (and arrow) only */
} dg_rule;

struct dg_desc {
    dg_spec spec;
    int rows, cols, ncells;
    int16_t *nb; /* nb[cell * 8 + dir]: neighbour in compass direction dir, or -1 */
    dg_rule rules[DG_MAX_RULES];
    uint64_t *zob; /* zob[cell * DG_ZCODES + code] */
    uint64_t zside, zpass[3];
    int8_t line_dirs[DG_MAX_ENDS][4];    /* line ends: the axes as compass indices */
    int8_t connect_dirs[DG_MAX_ENDS][8]; /* connect ends: compass indices */
    int nline_dirs[DG_MAX_ENDS], nconnect_dirs[DG_MAX_ENDS];
    uint64_t *connect_nb[DG_MAX_ENDS]; /* connect ends: [cell * nwords + w] the cell's neighbours */
    /* line ends (at least k) on boards of at most 64 cells: per axis the
     * shift of one step towards higher indices and the cells a run of k can
     * start from (line_bb[e] set when used) */
    int line_bb[DG_MAX_ENDS];
    int line_whole; /* no rule flips or converts: only a side's own move adds its pieces (dgame_end.c) */
    int line_shift[DG_MAX_ENDS][4];
    uint64_t line_start[DG_MAX_ENDS][4];
    uint64_t *line_win[DG_MAX_ENDS];  /* line_bb: the windows of k cells, cell by cell */
    uint16_t *line_woff[DG_MAX_ENDS]; /* cell c's windows: line_win[woff[c] .. woff[c + 1]) */
    uint8_t cls[256];  /* DG_CLS_* of each code */
    uint8_t zidx[256]; /* the Zobrist code of each code: 0 empty (key 0), 17 block */
    dg_cellset colmask[DG_MAX_SIDE]; /* the cells of each column */
    dg_cellset edge[4];              /* the cells of each edge, DG_EDGE_* */
    uint64_t top;                    /* the top row (cols <= 26: one word) */
    int nwords;     /* words of the cell sets in use */
    int has_column; /* a column placement (parse of a lone letter) */
    int bulk;       /* moves can be counted by popcounts (dg_count_moves) */
    int pick;       /* playouts: DG_PICK_* */
    int leaf_sets;  /* DG_PICK_NTH and every rule two_cells: perft's played last ply from the origin sets */
    int promote_kinds; /* bit k-1: kind k is a promote rule's from */
    /* one-word boards (hop_quick): per compass direction the cells two
     * steps from the edge and the index shift of one step; per side the
     * directions of the hop rules (bits): "is there any hop" by shifts */
    int hop_quick;
    /* playouts by the quick loop (dgame_playout.c): one placement rule on
     * any empty cell or into a column without flips, convert or swap, ends
     * only lines of at least k, a full board and ply limits, one word; the
     * smallest ply limit (INT_MAX: none) and every line end's axes */
    int quick, quick_plies, nquick;
    uint64_t quick_start[DG_MAX_ENDS * 4];
    int quick_shift[DG_MAX_ENDS * 4], quick_k[DG_MAX_ENDS * 4];
    int kbits; /* one-word board with several kinds: dg_state.kocc kept */
    uint64_t hop2[8];
    int hopd[8];
    unsigned hopdirs[2];
};

typedef struct dg_undo_cell {
    uint16_t cell;
    uint8_t old;
} dg_undo_cell;

typedef struct dg_frame {
    int log_top;
    uint64_t hash;
    int8_t player, passes, status, how, nomove, moved;
} dg_frame;

/* How a finished game was decided (for the score hook). */
enum { DG_HOW_NONE, DG_HOW_WIN, DG_HOW_DRAW, DG_HOW_SCORE };

struct dg_state {
    const dg_desc *d;
    uint8_t cell[DG_MAX_CELLS + 1]; /* + the sentinel cell ncells: a block */
    uint64_t occ[2][DG_WORDS];
    uint64_t empty[DG_WORDS];
    uint64_t kocc[2][DG_MAX_KINDS]; /* d->kbits: per side and kind (0-based) the one-word set */
    int count[2], nempty;
    int player, ply, passes;
    int moved; /* bit side-1: that side has made a move (passes do not count); ends checked in full before */
    uint64_t hash;
    int status; /* by an end or by no_move: DG_* */
    int how;    /* DG_HOW_* */
    int nomove; /* -1 unknown, 0 the side to move has a move, 1 it has none */
    dg_undo_cell *log;
    int log_top, log_cap;
    dg_frame *frames;
    int nframes, frames_cap;
    int nolog; /* playouts: no frames (no undo), the log only of the last move */
};

static inline int dg_side_of(unsigned code) { return code == 0 || code == DG_BLOCK ? 0 : ((code - 1) & 1) + 1; }
static inline unsigned dg_kind_of(unsigned code) { return (code - 1) >> 1; } /* 0-based */
static inline unsigned dg_code(unsigned kind0, int side) { return 2 * kind0 + (unsigned)side; }
static inline unsigned dg_flip(unsigned code) { return ((code - 1) ^ 1) + 1; }
static inline int dg_bit(const uint64_t *w, int i) { return (int)((w[i >> 6] >> (i & 63)) & 1); }

/* The cells from which b holds a run of k, `shift` apart in the index (a
 * one-word board): runs of h by doubling, then a run of k as two runs of h
 * (h the largest power of two not above k) k - h apart. Runs that leave
 * the board wrap in the index: a caller masks them off (line_start). */
static inline uint64_t dg_runs(uint64_t b, int shift, int k)
{
    uint64_t two = b & b >> shift;
    switch (k) { /* the usual lengths unrolled */
    case 3: return two & b >> 2 * shift;
    case 4: return two & two >> 2 * shift;
    case 5: return two & two >> 2 * shift & b >> 4 * shift;
    default: break;
    }
    int h = 1;
    for (; 2 * h <= k; h *= 2)
        b &= b >> (shift * h);
    if (h < k)
        b &= b >> (shift * (k - h));
    return b;
}

/* The cell a piece dropped into column col comes to rest on: above the
 * highest piece or block of the column, else on the bottom row. */
static inline int dg_drop_cell(const dg_desc *d, const uint64_t *empty, int col)
{
    for (int w = 0; w < d->nwords; w++) {
        uint64_t y = ~empty[w] & d->colmask[col].w[w];
        if (y)
            return w * 64 + __builtin_ctzll(y) - d->cols;
    }
    return d->ncells - d->cols + col;
}

/* d->quick: has the side whose pieces are b a run of k along a line end's axis? */
static inline int dg_quick_line(const dg_desc *d, uint64_t b)
{
    uint64_t any = 0;
    for (int i = 0; i < d->nquick; i++)
        any |= dg_runs(b, d->quick_shift[i], d->quick_k[i]) & d->quick_start[i];
    return any != 0;
}

/* Compass order n ne e se s sw w nw. */
extern const signed char dg_compass[8][2];

/* dgame.c */
int dg_set_cell(dg_state *s, int cell, unsigned code); /* logged; BS_OK / BS_ENOMEM */
int dg_reserve_log(dg_state *s, int more);
unsigned dg_promoted(const dg_desc *d, unsigned code, int cell);
/* A copy of the position only (no undo history). */
void dg_copy_position(dg_state *dst, const dg_state *src);
/* Perft's played last ply (dgame.c): each move played as dg_play plays it
 * (its end looked at) and taken back, without an undo frame; s unchanged
 * afterwards. BS_OK or BS_ENOMEM; the places form returns the number of
 * leaves: a piece `code` put on each empty cell in turn (perft_place). */
int dg_play_leaves(const dg_desc *d, dg_state *s, const dg_move *m, int n);
int dg_play_leaf_sets(const dg_desc *d, dg_state *s, const uint64_t *sets); /* dg_origin_sets's sets, d->leaf_sets */
int dg_play_leaf_places(const dg_desc *d, dg_state *s, unsigned code, const uint64_t *targets); /* empty cells */

/* dgame_moves.c: generation. cap 0 with probe: stops at the first move (returns 1). */
int dg_generate(const dg_desc *d, const dg_state *s, dg_move *out, int cap, int probe);
int dg_has_move(const dg_desc *d, const dg_state *s);
int dg_is_capture(const dg_desc *d, const dg_state *s, dg_move m);
/* The number of legal moves by popcounts when d->bulk (perft's last ply). */
int dg_count_moves(const dg_desc *d, const dg_state *s);
/* When every rule is a bulk-countable step or leap: the sets of origins
 * with a move, per rule and offset (DG_MAX_RULES * DG_MAX_OFFSETS words at
 * most), and the number of moves; then the k-th (0-based, k below the
 * count) legal move, moves[k] of dg_moves's list. */
int dg_origin_sets(const dg_desc *d, const dg_state *s, uint64_t *sets);
dg_move dg_nth_move(const dg_desc *d, const dg_state *s, const uint64_t *sets, int k);

/* dgame_end.c: the status after a move or pass by `mover` (s->player is
 * already the next side); line and connect look through the cells logged
 * from `changed_from` on, or at the whole board when it is negative (the
 * mover's first move: a line or connection left in the setup counts). */
void dg_update_status(const dg_desc *d, dg_state *s, int mover, int changed_from);
int dg_resolve_nomove(const dg_desc *d, dg_state *s); /* fills nomove and the status it implies */
void dg_set_nomove(const dg_desc *d, dg_state *s, int none);
void dg_score_raw(const dg_desc *d, const dg_state *s, int out[2]);

#endif
