/* capture_history.c - a capture board's moves in order, so they can be taken
 * back: the undo history of a board as the dots position keeps its own. */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "capture.h"

struct bs_capture_step {
    int player, r, c;
    bs_set flipped;
};

void bs_history_init(bs_history *h)
{
    h->steps = NULL;
    h->depth = h->capacity = 0;
}

void bs_history_clear(bs_history *h)
{
    free(h->steps);
    bs_history_init(h);
}

int bs_history_play(bs_history *h, bs_board *b, int player, int r, int c, unsigned legal_dirs,
                    unsigned flip_dirs)
{
    if (!h || !b)
        return BS_EINVAL;
    if (h->depth == h->capacity) { /* grow first, so a failure changes nothing */
        size_t capacity = h->capacity ? h->capacity * 2 : 16;
        if (capacity > SIZE_MAX / sizeof *h->steps)
            return BS_ENOMEM;
        bs_capture_step *grown = realloc(h->steps, capacity * sizeof *grown);
        if (!grown)
            return BS_ENOMEM;
        h->steps = grown;
        h->capacity = capacity;
    }
    bs_capture_step *s = &h->steps[h->depth];
    int count = bs_capture_play(b, player, r, c, legal_dirs, flip_dirs, &s->flipped);
    if (count < 0)
        return count;
    s->player = player;
    s->r = r;
    s->c = c;
    h->depth++;
    return count;
}

int bs_history_undo(bs_history *h, bs_board *b)
{
    if (!h || !b)
        return BS_EINVAL;
    if (h->depth == 0)
        return BS_ESTATE;
    const bs_capture_step *s = &h->steps[--h->depth];
    return bs_capture_undo(b, s->player, s->r, s->c, &s->flipped);
}

int bs_history_copy(bs_history *dst, const bs_history *src)
{
    bs_history_init(dst);
    if (src->depth == 0)
        return BS_OK;
    dst->steps = malloc(src->depth * sizeof *dst->steps);
    if (!dst->steps)
        return BS_ENOMEM;
    memcpy(dst->steps, src->steps, src->depth * sizeof *dst->steps);
    dst->depth = dst->capacity = src->depth;
    return BS_OK;
}
