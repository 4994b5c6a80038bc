/* dgame_ntuple.h - a learned evaluation of described games: n-tuples over the cells (issue 29).
 *
 * Pattern instances come from the board's geometry alone: every window of
 * `length` consecutive cells along a row, a column and both diagonals, and
 * (with `squares`) every 2 x 2 square. Each cell is read from the side to
 * move: 0 empty, 1 block, 2 + 2 (k - 1) its own piece of kind k, 3 + 2 (k - 1)
 * an enemy's (base 2K + 2). Every instance has its own table (at most 65536 entries), except
 * where `symmetry` names maps of the board the game's rules keep: then the images of an
 * instance under them share its table, each reading its cells in the order the map sends them
 * (Gomoku: the eight maps of the square; Breakthrough and Connect Four: the mirror), per phase; a phase is a
 * slice of plies (phase = ply x phases / cells, the last phase open-ended). With `sides` 2 each
 * side to move has tables of its own: "my piece on row 7" means one thing to a side that moves
 * down the board and another to one that moves up (Breakthrough), and a first player's threats
 * differ from a second's (Connect Four); with 1 both sides read the same tables.
 * Besides the tables, per phase: a bias, one weight per kind, times
 * (own pieces of that kind - the enemy's), and one for the search's
 * hand-written evaluation h squashed as h / (|h| + hand_scale) (so an
 * evaluation with its tables still zero orders positions as the
 * hand-written one does: the learned part is a correction). The value is in result units
 * (+1 a win for the side to move, -1 a loss) or whatever the labels were.
 * With `link` DG_NT_LINK_TANH the sum is a logit z: the predicted result is tanh z, the
 * hand-written value is read linearly (h / hand_scale: a large lead is a sure win, not a
 * capped one), and the fit is logistic (cross-entropy on (1 + label) / 2, by Newton steps);
 * the search reads z.
 */
#ifndef BS_DGAME_NTUPLE_H
#define BS_DGAME_NTUPLE_H

#include <stddef.h>
#include <stdint.h>

#include "dgame.h"

#define DG_NT_MAX_LENGTH 6
#define DG_NT_MAX_PHASES 16
#define DG_NT_MAX_WEIGHTS ((size_t)1 << 26) /* 256 MiB of floats: refused beyond */

typedef struct dg_ntuple dg_ntuple;

typedef struct dg_ntuple_shape {
    int rows, cols, kinds;
    int length;  /* cells per line window, 1..DG_NT_MAX_LENGTH */
    int squares; /* nonzero: the 2 x 2 squares too */
    int phases;  /* 1..DG_NT_MAX_PHASES */
    int hand_scale; /* the hand-written value h (hundredths) is read as h / (|h| + hand_scale); 1..1000000 */
    int sides;      /* 1: one set of weights for both sides to move; 2: a set per side to move */
    int link;       /* DG_NT_LINK_IDENTITY (least squares on the labels) or DG_NT_LINK_TANH (logistic) */
    unsigned symmetry; /* the maps whose images share a table: a closed group of enum bs_sym_map bits
                          (pattern.h) with the identity; 0 is read as the identity alone; the transposing
                          maps only where rows == cols */
    int share;         /* DG_NT_SHARE_POSITION: every window reads its own table (shared under the symmetry);
                          DG_NT_SHARE_SHAPE: a table shared by every window of its shape anywhere on the board
                          (its translations, and their images under the symmetry): what a pattern is worth
                          wherever it stands, learned from all of them at once (Gomoku's lines);
                          DG_NT_SHARE_BOTH: both, the shape's table corrected per place by the own one */
} dg_ntuple_shape;

#define DG_NT_SHARE_POSITION 0
#define DG_NT_SHARE_BOTH 1
#define DG_NT_SHARE_SHAPE 2

#define DG_NT_LINK_IDENTITY 0
#define DG_NT_LINK_TANH 1

/* The default window length for a board: 4, less on a board too small or
 * when the tables would be too big (kinds make the base larger). */
int dg_ntuple_default_length(int rows, int cols, int kinds);

/* A new evaluation of this shape, every weight 0. BS_OK, BS_EINVAL (a bad
 * shape, or more than DG_NT_MAX_WEIGHTS weights), BS_ENOMEM. */
int dg_ntuple_new(dg_ntuple **out, const dg_ntuple_shape *shape);
void dg_ntuple_free(dg_ntuple *nt);
const dg_ntuple_shape *dg_ntuple_shape_of(const dg_ntuple *nt);
/* The windows and squares (each counted once, with DG_NT_SHARE_BOTH too). */
int dg_ntuple_instances(const dg_ntuple *nt);
/* The tables (instances related by the symmetry share one). */
int dg_ntuple_tables(const dg_ntuple *nt);
/* Every weight (phases x sides blocks of per_phase floats: the tables, then a bias, a weight per kind, the
 * hand weight; block phase x sides + side to move - 1 when sides is 2, else phase). */
size_t dg_ntuple_weight_count(const dg_ntuple *nt);
float *dg_ntuple_weights(dg_ntuple *nt);
size_t dg_ntuple_nonzero(const dg_ntuple *nt);
/* Whether the evaluation fits the game (rows, cols, kinds). */
int dg_ntuple_fits(const dg_ntuple *nt, const dg_desc *d);

/* The phase of a state. */
int dg_ntuple_phase(const dg_ntuple *nt, const dg_state *s);
/* The value of s for its side to move (trusted: s of a game it fits),
 * `hand` the hand-written evaluation of s (dgame_search.c) for its side to move. */
double dg_ntuple_value_hand(const dg_ntuple *nt, const dg_state *s, int hand);
/* The hand-written value as the evaluation reads it. */
double dg_ntuple_hand_feature(const dg_ntuple *nt, int hand);
/* tanh z (the result the tanh link predicts from z), without the maths library. */
double dg_ntuple_tanh(double z);

/* Serialised (little-endian, with an FNV-1a checksum): dg_ntuple_saved_size
 * bytes written into out. */
size_t dg_ntuple_saved_size(const dg_ntuple *nt);
void dg_ntuple_save(const dg_ntuple *nt, unsigned char *out);
/* Reads what dg_ntuple_save wrote: BS_OK, BS_EINVAL (why filled), BS_ENOMEM. */
int dg_ntuple_load(dg_ntuple **out, const unsigned char *bytes, size_t len, char *why, size_t why_len);

/* ---- fitting: ridge least squares by preconditioned conjugate gradient ---- */

typedef struct dg_nt_trainer dg_nt_trainer;

int dg_nt_trainer_new(dg_nt_trainer **out, const dg_ntuple *nt); /* nt is read (its shape) while the trainer lives */
void dg_nt_trainer_free(dg_nt_trainer *t);
/* Adds state s (of a game nt fits) with its label; holdout: kept out of the fit, measured. */
int dg_nt_trainer_add(dg_nt_trainer *t, const dg_state *s, int hand, double target, int holdout);
/* Replaces position `slot` (0-based, below the count) with s: a bounded sample. */
int dg_nt_trainer_set(dg_nt_trainer *t, size_t slot, const dg_state *s, int hand, double target, int holdout);
size_t dg_nt_trainer_count(const dg_nt_trainer *t, int holdout); /* O(positions) */
size_t dg_nt_trainer_size(const dg_nt_trainer *t);                 /* every position */

typedef struct dg_nt_fit_result {
    double train_rms, holdout_rms; /* holdout_rms < 0: no held-out position */
    int iterations;
} dg_nt_fit_result;

/* Fits nt's weights (starting from them) to the training positions:
 * minimises sum (value - target)^2 + ridge x |the tables' weights|^2
 * + min(ridge, 1) x |the scalars (bias, material, hand)|^2; with the tanh link the
 * cross-entropy of tanh(value) against the target instead of the squares (Newton steps, each a
 * weighted least squares by conjugate gradient: `iterations` in all). The rms are of
 * tanh(value) - target then. BS_OK, BS_EINVAL, BS_ENOMEM. */
int dg_nt_trainer_fit(dg_nt_trainer *t, dg_ntuple *nt, int iterations, double ridge, dg_nt_fit_result *res);

#endif
