/* leval.h - the evaluator userdata, for the searcher binding that takes one. */
#ifndef BS_LEVAL_H
#define BS_LEVAL_H

#include <lua.h>

#include "../core/pattern.h"

typedef struct bs_levaluator {
    bs_model *model;     /* NULL after close */
    int users;           /* trainers fitting it: it cannot close under them */
    unsigned generation; /* counts fits: a searcher's table holds values of one generation */
} bs_levaluator;

/* Field 'symmetry' of the options table at `t`: a group name ("none",
 * "mirror", "flip", "rotate180", "square") or a list of map names, as a
 * closed group mask (pattern.h); `absent` when the field is nil. Raises
 * naming the argument for anything else, or a transposing map on a
 * rows x cols board that is not square. */
unsigned bs_lua_symmetry_opt(lua_State *L, int t, int rows, int cols, unsigned absent);

/* The evaluator at `arg` (raises for anything else or a closed one). */
bs_levaluator *bs_lua_checkevaluator(lua_State *L, int arg);

#endif
