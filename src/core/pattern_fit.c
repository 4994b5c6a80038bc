/* pattern_fit.c - fitting the learned evaluation: ridge least squares by preconditioned conjugate
 * gradient over the positions a trainer holds. */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "pattern_impl.h"

/* ---- fitting ---- */

/* Without libm (the core links nothing else): |x|, rounding, square root. */
static double abs_of(double x)
{
    return x < 0 ? -x : x;
}

static double round_of(double x)
{
    return x < 0 ? -(double)(long long)(-x + 0.5) : (double)(long long)(x + 0.5);
}

static double root_of(double x)
{
    if (!(x > 0))
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            break;
        r = next;
    }
    return r;
}

/* A position as the fit sees it: phase, target and features. */
typedef struct sample {
    float target;
    uint8_t phase, holdout;
    int8_t x[BS_MODEL_SCALARS];
} sample;

struct bs_trainer {
    bs_model *m;
    size_t count, cap;
    sample *samples;
    uint16_t *idx; /* count * ninst */
};

int bs_trainer_new(bs_trainer **out, bs_model *m)
{
    if (!out || !m)
        return BS_EINVAL;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return BS_ENOMEM;
    (*out)->m = m;
    return BS_OK;
}

void bs_trainer_free(bs_trainer *t)
{
    if (!t)
        return;
    free(t->samples);
    free(t->idx);
    free(t);
}

static int8_t clamp8(int v)
{
    return (int8_t)(v > 127 ? 127 : v < -127 ? -127 : v);
}

int bs_trainer_add(bs_trainer *t, const bs_board *b, int player, double target, int holdout)
{
    if (!t || !bs_model_fits(t->m, b) || !bs_is_player(player) || !bs_board_valid(b) || !(abs_of(target) <= 10000.0))
        return BS_EINVAL;
    const bs_model *m = t->m;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        sample *s = realloc(t->samples, cap * sizeof *s);
        if (!s)
            return BS_ENOMEM;
        t->samples = s;
        uint16_t *idx = realloc(t->idx, cap * (size_t)m->ninst * sizeof *idx);
        if (!idx)
            return BS_ENOMEM;
        t->idx = idx;
        t->cap = cap;
    }
    sample *s = &t->samples[t->count];
    int x[BS_MODEL_SCALARS];
    bs_pat_scalars(m, b, player, x);
    for (int i = 0; i < BS_MODEL_SCALARS; i++)
        s->x[i] = clamp8(x[i]);
    s->target = (float)target;
    s->phase = (uint8_t)bs_model_phase(m, b);
    s->holdout = holdout != 0;
    bs_pat_indices(m, b, player, t->idx + t->count * (size_t)m->ninst);
    t->count++;
    return BS_OK;
}

size_t bs_trainer_count(const bs_trainer *t, int holdout)
{
    size_t k = 0;
    if (!t)
        return 0;
    for (size_t i = 0; i < t->count; i++)
        k += t->samples[i].holdout == (holdout != 0);
    return k;
}

/* The prediction of sample i, in discs, by float weights. */
static double predict(const bs_model *m, const float *w, const float *sc, const sample *s, const uint16_t *idx)
{
    const float *wp = w + (size_t)s->phase * m->per_phase;
    const float *scp = sc + (size_t)s->phase * (1 + BS_MODEL_SCALARS);
    double v = scp[0];
    for (int j = 0; j < BS_MODEL_SCALARS; j++)
        v += scp[1 + j] * s->x[j];
    for (int i = 0; i < m->ninst; i++)
        v += wp[m->shape[m->inst[i].shape].offset + idx[i]];
    return v;
}

static void errors_of(const bs_trainer *t, const float *w, const float *sc, bs_fit_result *res)
{
    double se[2] = {0, 0}, ae = 0;
    size_t k[2] = {0, 0};
    for (size_t i = 0; i < t->count; i++) {
        const sample *s = &t->samples[i];
        double r = s->target - predict(t->m, w, sc, s, t->idx + i * (size_t)t->m->ninst);
        se[s->holdout] += r * r;
        k[s->holdout]++;
        if (s->holdout)
            ae += abs_of(r);
    }
    res->train = k[0];
    res->holdout = k[1];
    res->train_error = k[0] ? root_of(se[0] / (double)k[0]) : 0;
    res->holdout_error = k[1] ? root_of(se[1] / (double)k[1]) : 0;
    res->holdout_abs = k[1] ? ae / (double)k[1] : 0;
}

/* The model's weights as floats (discs); NULL when out of memory. */
static int to_float(const bs_model *m, float **w, float **sc)
{
    size_t nw = (size_t)m->phases * m->per_phase, ns = (size_t)m->phases * (1 + BS_MODEL_SCALARS);
    *w = malloc(nw * sizeof **w);
    *sc = malloc(ns * sizeof **sc);
    if (!*w || !*sc) {
        free(*w);
        free(*sc);
        return BS_ENOMEM;
    }
    for (size_t i = 0; i < nw; i++)
        (*w)[i] = (float)m->w[i] / 100.0f;
    for (size_t i = 0; i < ns; i++)
        (*sc)[i] = (float)m->scalar[i] / 100.0f;
    return BS_OK;
}

int bs_trainer_measure(bs_trainer *t, bs_fit_result *res)
{
    if (!t || !res)
        return BS_EINVAL;
    float *w, *sc;
    if (to_float(t->m, &w, &sc) != BS_OK)
        return BS_ENOMEM;
    errors_of(t, w, sc, res);
    free(w);
    free(sc);
    return BS_OK;
}

/* The weights of sample i: where each of its features' weights sits in the
 * flat vector (pattern entries of every phase, then bias and scalars). */
static inline size_t scalar_base(const bs_model *m, int phase)
{
    return (size_t)m->phases * m->per_phase + (size_t)phase * (1 + BS_MODEL_SCALARS);
}

/* q = A p over the training samples (the holdout skipped: q there is 0). */
static void mul_a(const bs_trainer *t, const double *p, double *q)
{
    const bs_model *m = t->m;
    for (size_t i = 0; i < t->count; i++) {
        const sample *s = &t->samples[i];
        if (s->holdout) {
            q[i] = 0;
            continue;
        }
        const uint16_t *idx = t->idx + i * (size_t)m->ninst;
        size_t base = (size_t)s->phase * m->per_phase, sb = scalar_base(m, s->phase);
        double v = p[sb];
        for (int j = 0; j < BS_MODEL_SCALARS; j++)
            v += p[sb + 1 + (size_t)j] * s->x[j];
        for (int j = 0; j < m->ninst; j++)
            v += p[base + m->shape[m->inst[j].shape].offset + idx[j]];
        q[i] = v;
    }
}

/* g = A^T r over the training samples. */
static void mul_at(const bs_trainer *t, const double *r, double *g, size_t nw)
{
    const bs_model *m = t->m;
    memset(g, 0, nw * sizeof *g);
    for (size_t i = 0; i < t->count; i++) {
        const sample *s = &t->samples[i];
        if (s->holdout)
            continue;
        const uint16_t *idx = t->idx + i * (size_t)m->ninst;
        size_t base = (size_t)s->phase * m->per_phase, sb = scalar_base(m, s->phase);
        double ri = r[i];
        g[sb] += ri;
        for (int j = 0; j < BS_MODEL_SCALARS; j++)
            g[sb + 1 + (size_t)j] += ri * s->x[j];
        for (int j = 0; j < m->ninst; j++)
            g[base + m->shape[m->inst[j].shape].offset + idx[j]] += ri;
    }
}

static int fit_cg(bs_trainer *t, const bs_fit_options *opts, double *x, double *g, double *z, double *p, double *diag,
                  double *r, double *q, bs_fit_result *res);

/*
 * Ridge regression by preconditioned conjugate gradient on the normal
 * equations (A^T A + lambda I) w = A^T y, from the present weights: each
 * iteration is two passes over the positions. The preconditioner is the
 * diagonal (how often a weight is used, plus lambda). lambda (`shrink`)
 * pulls every weight towards zero as much as that many positions with a
 * residual of zero would: entries seen a few times stay near zero.
 */
int bs_trainer_fit(bs_trainer *t, const bs_fit_options *opts, bs_fit_result *res)
{
    if (!t || !res)
        return BS_EINVAL;
    bs_fit_options o = {20, 4.0};
    if (opts) {
        if (opts->iterations > 0)
            o.iterations = opts->iterations;
        if (opts->shrink >= 0)
            o.shrink = opts->shrink;
    }
    if (o.iterations > 100000 || !(o.shrink <= 1e9))
        return BS_EINVAL;
    bs_model *m = t->m;
    size_t np = (size_t)m->phases * m->per_phase, ns = (size_t)m->phases * (1 + BS_MODEL_SCALARS);
    size_t nw = np + ns, n = t->count ? t->count : 1;
    double *x = malloc(nw * sizeof *x), *g = malloc(nw * sizeof *g), *z = malloc(nw * sizeof *z);
    double *p = malloc(nw * sizeof *p), *diag = calloc(nw, sizeof *diag);
    double *r = calloc(n, sizeof *r), *q = calloc(n, sizeof *q);
    int status = BS_ENOMEM;
    if (x && g && z && p && diag && r && q)
        status = fit_cg(t, &o, x, g, z, p, diag, r, q, res);
    free(x);
    free(g);
    free(z);
    free(p);
    free(diag);
    free(r);
    free(q);
    return status;
}

static int fit_cg(bs_trainer *t, const bs_fit_options *opts, double *x, double *g, double *z, double *p, double *diag,
                  double *r, double *q, bs_fit_result *res)
{
    bs_fit_options o = *opts;
    bs_model *m = t->m;
    size_t np = (size_t)m->phases * m->per_phase, ns = (size_t)m->phases * (1 + BS_MODEL_SCALARS);
    size_t nw = np + ns;
    /* Tied entries are fitted as one, the canonical one: the positions' indices
     * become theirs (the same values once the weights are tied, as they are
     * after a fit; before, measure read the indices as they were). */
    for (size_t i = 0; i < t->count; i++) {
        uint16_t *idx = t->idx + i * (size_t)m->ninst;
        for (int j = 0; j < m->ninst; j++)
            idx[j] = (uint16_t)bs_pat_canonical(m, m->inst[j].shape, idx[j]);
    }
    for (size_t i = 0; i < np; i++)
        x[i] = m->w[i] / 100.0;
    for (size_t i = 0; i < ns; i++)
        x[np + i] = m->scalar[i] / 100.0;
    /* the diagonal of A^T A */
    for (size_t i = 0; i < t->count; i++) {
        const sample *s = &t->samples[i];
        if (s->holdout)
            continue;
        const uint16_t *idx = t->idx + i * (size_t)m->ninst;
        size_t base = (size_t)s->phase * m->per_phase, sb = scalar_base(m, s->phase);
        diag[sb] += 1;
        for (int j = 0; j < BS_MODEL_SCALARS; j++)
            diag[sb + 1 + (size_t)j] += (double)s->x[j] * s->x[j];
        for (int j = 0; j < m->ninst; j++)
            diag[base + m->shape[m->inst[j].shape].offset + idx[j]] += 1;
    }
    /* weights no training position uses are zero, and stay so */
    for (size_t i = 0; i < nw; i++)
        if (diag[i] == 0)
            x[i] = 0;
    double lambda = o.shrink;
    mul_a(t, x, q);
    for (size_t i = 0; i < t->count; i++)
        r[i] = t->samples[i].holdout ? 0 : t->samples[i].target - q[i];
    mul_at(t, r, g, nw);
    double gamma = 0;
    for (size_t i = 0; i < nw; i++) {
        g[i] -= lambda * x[i];
        z[i] = diag[i] > 0 ? g[i] / (diag[i] + lambda) : 0;
        p[i] = z[i];
        gamma += g[i] * z[i];
    }
    for (int it = 0; it < o.iterations && gamma > 1e-12; it++) {
        mul_a(t, p, q);
        double delta = 0;
        for (size_t i = 0; i < t->count; i++)
            delta += q[i] * q[i];
        for (size_t i = 0; i < nw; i++)
            delta += lambda * p[i] * p[i];
        if (!(delta > 0))
            break;
        double alpha = gamma / delta;
        for (size_t i = 0; i < nw; i++)
            x[i] += alpha * p[i];
        for (size_t i = 0; i < t->count; i++)
            r[i] -= alpha * q[i];
        mul_at(t, r, g, nw);
        double next = 0;
        for (size_t i = 0; i < nw; i++) {
            g[i] -= lambda * x[i];
            z[i] = diag[i] > 0 ? g[i] / (diag[i] + lambda) : 0;
            next += g[i] * z[i];
        }
        double beta = next / gamma;
        gamma = next;
        for (size_t i = 0; i < nw; i++)
            p[i] = z[i] + beta * p[i];
    }
    m->generation = bs_pat_new_generation();
    bs_model_set_mpc(m, NULL, NULL); /* fitted for the old weights */
    for (size_t i = 0; i < np; i++) {
        double v = round_of(x[i] * 100.0);
        m->w[i] = (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
    }
    bs_pat_tie(m); /* the entries tied to a canonical one (unused in the fit, so zero) take its value */
    for (size_t i = 0; i < ns; i++) {
        double v = round_of(x[np + i] * 100.0);
        m->scalar[i] = (int32_t)(v > BS_PAT_MAX_VALUE ? BS_PAT_MAX_VALUE : v < -BS_PAT_MAX_VALUE ? -BS_PAT_MAX_VALUE : v);
    }
    return bs_trainer_measure(t, res);
}
