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

/* The evaluator at `arg` (raises for anything else or a closed one). */
bs_levaluator *bs_lua_checkevaluator(lua_State *L, int arg);

#endif
