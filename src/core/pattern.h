/* pattern.h - a learned evaluation: pattern tables generated from the board's geometry, fitted by least squares. */
#ifndef BS_PATTERN_H
#define BS_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

/*
 * A model is an n-tuple evaluation in the manner of Logistello and Edax,
 * for any board size (3..26): patterns are short runs of cells (at most
 * BS_MODEL_MAX_CELLS) generated from the geometry alone (edges with their
 * X cells, lines of rows and columns, corner-cutting diagonals, corner
 * regions), each read as a base-3 number (empty or block 0, the side to
 * move's disc 1, the opponent's 2). A model is for rows x cols boards (held
 * as the n x n square, n = max(rows, cols)); its patterns are placed in the
 * rows x cols frame only, never on the margin. The images of a pattern
 * under the maps of the model's declared symmetry group share one weight
 * table, tied so that the value is the same on a position and its image;
 * images no map of the group relates have tables of their own. Each game phase (by the
 * number of discs on the board) has its own tables, a bias and the weights
 * of a few scalar features (own minus opponent's). The value is from the
 * side to move, in hundredths of a disc: the model predicts the final margin
 * the rules would score.
 */
#define BS_MODEL_MAX_CELLS 10
#define BS_MODEL_MAX_PHASES 64
#define BS_MODEL_VERSION 3 /* files of a rectangle or another group; square "square" ones are written as
                              version 2 (byte for byte as before); versions 1 (whose checksum left out the
                              header) and 2 are read as square "square" models */

/* The maps of a board onto itself, as bits of a group mask: bit `which` is
 * the map that transposes when which & 1, then mirrors the columns
 * (c -> cols-1-c) when which & 2 and flips the rows (r -> rows-1-r) when
 * which & 4. Those with which & 1 map a square only. */
enum bs_sym_map {
    BS_SYM_IDENTITY = 0,
    BS_SYM_TRANSPOSE = 1,
    BS_SYM_MIRROR = 2,
    BS_SYM_ROTATE90 = 3, /* clockwise: (r, c) -> (c, n-1-r) */
    BS_SYM_FLIP = 4,
    BS_SYM_ROTATE270 = 5,
    BS_SYM_ROTATE180 = 6,
    BS_SYM_ANTITRANSPOSE = 7
};
#define BS_SYM_SQUARE 0xffu /* every map of a square */
#define BS_SYM_RECT 0x55u   /* every map of a rectangle: identity, mirror, flip, rotate180 */
/* Map `which` (enum bs_sym_map) of a rows x cols board applied to (r, c),
 * 0-based: transpose first (squares only), then mirror the columns, then
 * flip the rows. */
void bs_sym_apply(int rows, int cols, int which, int r, int c, int *out_r, int *out_c);
/* The map of that name ("identity", "mirror", ...), or -1. */
int bs_sym_parse(const char *name, size_t len);
const char *bs_sym_name(int which);
/* The group the maps of `mask` generate (always with the identity). */
unsigned bs_sym_closure(unsigned mask);
/* A group by name: "none", "mirror", "flip", "rotate180", "square" (every
 * map of the shape: BS_SYM_SQUARE or BS_SYM_RECT); 0 if not one. */
unsigned bs_sym_group(const char *name, size_t len, int rows, int cols);

enum bs_model_feature {
    BS_FEAT_MOBILITY = 1 << 0,  /* legal moves (a capture game's legal directions) */
    BS_FEAT_POTENTIAL = 1 << 1, /* empty cells next to the opponent's discs */
    BS_FEAT_PARITY = 1 << 2,    /* 1 when an odd number of cells is empty */
    BS_FEAT_ANCHORED = 1 << 3,  /* discs on cells nothing can flip (corners, cells walled in by blocks) */
    BS_FEAT_ALL = 0xf
};
#define BS_MODEL_SCALARS 4

typedef struct bs_model bs_model;

/* A new model for n x n boards with zero weights, every symmetry of the
 * square shared. mobility_dirs: the legal directions of the game's moves
 * (for BS_FEAT_MOBILITY; ignored without it). */
int bs_model_new(bs_model **out, int n, int phases, unsigned features, unsigned mobility_dirs);
/* A new model for rows x cols boards (3..BS_MAX_N each) whose tables are
 * shared by the maps of `group` (a closed set of maps with the identity,
 * transposing ones only when rows == cols). BS_EINVAL otherwise. */
int bs_model_new_shape(bs_model **out, int rows, int cols, unsigned group, int phases, unsigned features,
                       unsigned mobility_dirs);
void bs_model_free(bs_model *m);
int bs_model_copy(bs_model **out, const bs_model *m);

/* What the model is: size, phases, features, mobility directions, the number
 * of pattern shapes, of their instances on the board and of weights in all. */
typedef struct bs_model_info {
    int n, phases;
    int rows, cols;
    unsigned group; /* the maps sharing tables (bits of enum bs_sym_map) */
    unsigned features, mobility_dirs;
    int shapes, instances;
    size_t weights;  /* every weight of every phase */
    size_t nonzero;  /* the ones that are not zero */
    uint32_t layout; /* a checksum of the generated patterns: files record it */
} bs_model_info;
void bs_model_describe(const bs_model *m, bs_model_info *info);
/* The board size the model is for (0 for NULL): cheap, unlike describe's count. */
int bs_model_size(const bs_model *m);
/* The shape of the boards the model is for. */
void bs_model_shape(const bs_model *m, int *rows, int *cols);
/* Whether the model is for boards of b's shape (rows and cols). */
bool bs_model_fits(const bs_model *m, const bs_board *b);
/* The cells of pattern instance i (0 <= i < instances): count, and square
 * indices r * BS_MAX_N + c in the pattern's digit order; the shape it is one
 * of in *shape. BS_EINVAL for a bad index. */
int bs_model_instance(const bs_model *m, int i, int *shape, int cells[BS_MODEL_MAX_CELLS]);

/* The phase of a board (0 .. phases - 1), by the discs on it. */
int bs_model_phase(const bs_model *m, const bs_board *b);

/* The value of board `b` for `player` to move, in hundredths of a disc
 * (within +-999999). The board must be the model's shape (0 otherwise). */
int bs_model_evaluate(const bs_model *m, const bs_board *b, int player);

/* Serialisation to and from memory (the callers read and write files):
 * bs_model_save returns the bytes it needs, writing them only when they fit
 * in `cap`. `meta` is free text (at most BS_MODEL_META bytes, no zero byte)
 * kept in the header: the rule set, options and command it was trained for. */
#define BS_MODEL_META 16384
size_t bs_model_save(const bs_model *m, const char *meta, unsigned char *buf, size_t cap);
/* Loads a model; on failure NULL and a message in `why` (a static string). */
int bs_model_load(bs_model **out, const unsigned char *buf, size_t len, char *meta, size_t meta_cap,
                  const char **why);

/* ---- Multi-ProbCut (search.c) ----
 * A search `depth` plies deep is predicted by one `shallow` plies deep as
 * v_deep = slope / 1000 * v_shallow + offset, with an error of deviation
 * sigma (offset and sigma in hundredths of a disc), per depth and phase:
 * fitted by `train`, kept in the file's meta (boardscript.evalfile). */
#define BS_MPC_DEPTHS 61 /* depths 0 .. 60 */
typedef struct bs_mpc_param {
    int32_t slope, offset, sigma;
} bs_mpc_param;
/* Sets the parameters: shallow[d] is the shallow depth of depth d (-1: no
 * cut at that depth; otherwise 0 <= shallow[d] < d), param[d * phases + p]
 * its parameters in phase p (slope 1 .. 100000, |offset| <= 1000000, sigma
 * 1 .. 1000000). NULL shallow clears them. BS_EINVAL (nothing changed) for
 * values out of range, BS_ENOMEM. */
int bs_model_set_mpc(bs_model *m, const int8_t shallow[BS_MPC_DEPTHS], const bs_mpc_param *param);
/* The parameters: 1 and copies into shallow and param (BS_MPC_DEPTHS *
 * phases entries) when the model has them, else 0. */
int bs_model_mpc(const bs_model *m, int8_t shallow[BS_MPC_DEPTHS], bs_mpc_param *param);

/* ---- fitting ---- */

typedef struct bs_trainer bs_trainer;

/* A trainer fits the weights of `m` (which it does not own; it must outlive
 * the trainer) to positions added to it. */
int bs_trainer_new(bs_trainer **out, bs_model *m);
void bs_trainer_free(bs_trainer *t);
/* Adds a position: board, side to move, and its target (final margin for
 * `player`, in discs). `holdout` nonzero keeps it out of the fit, to measure. */
int bs_trainer_add(bs_trainer *t, const bs_board *b, int player, double target, int holdout);
size_t bs_trainer_count(const bs_trainer *t, int holdout);

typedef struct bs_fit_options {
    int iterations; /* conjugate-gradient iterations (default 20), each two passes over the data */
    double shrink;  /* ridge: each weight is pulled to zero as by this many positions (default 4),
                       so entries seen a few times stay near zero */
} bs_fit_options;

typedef struct bs_fit_result {
    double train_error, holdout_error; /* root mean square error, in discs */
    double holdout_abs;                /* mean absolute error on the held-out positions */
    size_t train, holdout;             /* positions */
} bs_fit_result;

/* Fits the model's weights, from their present values, to the positions:
 * ridge least squares by preconditioned conjugate gradient. Deterministic
 * for the same positions in the same order. The model's Multi-ProbCut
 * parameters are dropped (they were the old weights'). */
int bs_trainer_fit(bs_trainer *t, const bs_fit_options *opts, bs_fit_result *res);
/* The errors of the model as it is on the trainer's positions. */
int bs_trainer_measure(bs_trainer *t, bs_fit_result *res);

#endif
