/* pattern_test.c - the learned evaluation (pattern.h): the patterns every
 * board size generates, files (round trip, every truncation, corrupted
 * bytes), fitting a planted model back, the 8 x 8 incremental indices
 * against the ones made from scratch, and model generations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/board.h"
#include "../../src/core/capture.h"
#include "../../src/core/pattern.h"
#include "../../src/core/pattern_impl.h"
#include "../../src/core/rng.h"
#include "check.h"

static check_tally t = {0, 0};
static bs_rng rng;

static int below(int bound)
{
    return (int)bs_rng_below(&rng, (uint64_t)bound);
}

static int between(int lo, int hi)
{
    return lo + below(hi - lo + 1);
}

/* A board of random cells: blocks with odds 1 in `block_odds` (0: none),
 * the rest empty, black or white alike. */
static void random_board_shape(bs_board *b, int rows, int cols, int block_odds)
{
    bs_board_init_shape(b, rows, cols);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            if (block_odds && below(block_odds) == 0)
                bs_board_set(b, r, c, BS_BLOCK);
            else
                bs_board_set(b, r, c, below(3));
        }
}

static void random_board(bs_board *b, int n, int block_odds)
{
    random_board_shape(b, n, n, block_odds);
}

/* Random weights: every pattern entry of a shape of at most `max_k` cells
 * in -amp..amp (the others zero), the bias and scalars in -scalar..scalar. */
static void randomize(bs_model *m, int amp, int max_k, int scalar)
{
    for (int p = 0; p < m->phases; p++) {
        for (int s = 0; s < m->nshapes; s++) {
            const bs_pat_shape *sh = &m->shape[s];
            for (int i = 0; i < sh->size; i++)
                m->w[(size_t)p * m->per_phase + sh->offset + (size_t)i] =
                    (int16_t)(sh->k <= max_k ? between(-amp, amp) : 0);
        }
        for (int j = 0; j < 1 + BS_MODEL_SCALARS; j++)
            m->scalar[(size_t)p * (1 + BS_MODEL_SCALARS) + (size_t)j] = between(-scalar, scalar);
    }
}

/* ---- (a) the patterns of every size ---- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The cells of instance i, sorted. */
static int sorted_cells(const bs_model *m, int i, int *cells)
{
    int shape, k = bs_model_instance(m, i, &shape, cells);
    qsort(cells, (size_t)k, sizeof *cells, cmp_int);
    return k;
}

/* Whether instance b is instance a under one of the square's 8 symmetries,
 * digit by digit. */
static int is_image(const bs_model *m, int a, int b)
{
    int ca[BS_MODEL_MAX_CELLS], cb[BS_MODEL_MAX_CELLS], sa, sb;
    int k = bs_model_instance(m, a, &sa, ca), kb = bs_model_instance(m, b, &sb, cb);
    if (k != kb || sa != sb)
        return 0;
    int n = m->n;
    for (int s = 0; s < 8; s++) {
        int same = 1;
        for (int j = 0; j < k && same; j++) {
            int r = ca[j] / BS_MAX_N, c = ca[j] % BS_MAX_N;
            if (s & 1) {
                int x = r;
                r = c;
                c = x;
            }
            if (s & 2)
                c = n - 1 - c;
            if (s & 4)
                r = n - 1 - r;
            same = r * BS_MAX_N + c == cb[j];
        }
        if (same)
            return 1;
    }
    return 0;
}

static void test_patterns(void)
{
    uint32_t layouts[BS_MAX_N + 1];
    for (int n = 3; n <= BS_MAX_N; n++) {
        bs_model *m;
        CHECK(&t, bs_model_new(&m, n, 0, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
        bs_model_info info;
        bs_model_describe(m, &info);
        layouts[n] = info.layout;
        CHECK(&t, info.n == n && info.shapes == m->nshapes && info.instances == m->ninst);
        CHECK(&t, info.shapes >= 1 && info.shapes <= BS_MODEL_MAX_SHAPES);
        CHECK(&t, info.instances >= info.shapes && info.instances <= BS_MODEL_MAX_INSTANCES);
        CHECK(&t, info.weights == (m->per_phase + 1 + BS_MODEL_SCALARS) * (size_t)info.phases);
        CHECK(&t, info.nonzero == 0);
        int bad_cells = 0, repeated = 0, same_set = 0, not_image = 0, bad_uses = 0;
        int first_of[BS_MODEL_MAX_SHAPES];
        for (int s = 0; s < BS_MODEL_MAX_SHAPES; s++)
            first_of[s] = -1;
        int uses[BS_MAX_N * BS_MAX_N] = {0};
        for (int i = 0; i < info.instances; i++) {
            int cells[BS_MODEL_MAX_CELLS], shape;
            int k = bs_model_instance(m, i, &shape, cells);
            CHECK(&t, k >= 2 && k <= BS_MODEL_MAX_CELLS && shape >= 0 && shape < info.shapes);
            CHECK(&t, k == m->shape[shape].k);
            for (int j = 0; j < k; j++) {
                int r = cells[j] / BS_MAX_N, c = cells[j] % BS_MAX_N;
                bad_cells += r < 0 || r >= n || c < 0 || c >= n;
                if (r >= 0 && r < n && c >= 0 && c < n)
                    uses[r * n + c]++;
            }
            int a[BS_MODEL_MAX_CELLS];
            sorted_cells(m, i, a);
            for (int j = 1; j < k; j++)
                repeated += a[j] == a[j - 1];
            for (int o = 0; o < i; o++) {
                int b[BS_MODEL_MAX_CELLS];
                if (sorted_cells(m, o, b) == k && memcmp(a, b, sizeof(int) * (size_t)k) == 0)
                    same_set++;
            }
            if (first_of[shape] < 0)
                first_of[shape] = i;
            else
                not_image += !is_image(m, first_of[shape], i);
        }
        /* every shape has instances; the use lists agree with the instances */
        for (int s = 0; s < info.shapes; s++)
            CHECK(&t, first_of[s] >= 0);
        for (int q = 0; q < n * n; q++) {
            bad_uses += m->uses[q] != uses[q];
            for (int j = 0; j < m->uses[q]; j++) {
                const bs_pat_use *u = &m->use_list[m->use_start[q] + (uint32_t)j];
                const bs_pat_inst *in = &m->inst[u->inst];
                int found = 0;
                for (int d = 0, p = 1; d < in->k; d++, p *= 3)
                    found |= in->r[d] * n + in->c[d] == q && p == u->power;
                bad_uses += !found;
            }
        }
        CHECK(&t, bad_cells == 0);
        CHECK(&t, repeated == 0);
        CHECK(&t, same_set == 0);
        CHECK(&t, not_image == 0);
        CHECK(&t, bad_uses == 0);
        if (bad_cells || repeated || same_set || not_image || bad_uses)
            fprintf(stderr, "size %d: %d off the board, %d repeated, %d alike, %d not images, %d uses\n", n,
                    bad_cells, repeated, same_set, not_image, bad_uses);
        CHECK(&t, bs_model_instance(m, -1, NULL, (int[BS_MODEL_MAX_CELLS]){0}) == BS_EINVAL);
        CHECK(&t, bs_model_instance(m, info.instances, NULL, (int[BS_MODEL_MAX_CELLS]){0}) == BS_EINVAL);
        /* the same size makes the same patterns */
        bs_model *again;
        CHECK(&t, bs_model_new(&again, n, 3, 0, 0) == BS_OK);
        CHECK(&t, again->layout == m->layout && again->ninst == m->ninst);
        bs_model_free(again);
        bs_model_free(m);
    }
    for (int a = 3; a <= BS_MAX_N; a++)
        for (int b = 3; b < a; b++)
            CHECK(&t, layouts[a] != layouts[b]);
    bs_model *m;
    CHECK(&t, bs_model_new(&m, 2, 0, 0, 0) == BS_EINVAL && m == NULL);
    CHECK(&t, bs_model_new(&m, BS_MAX_N + 1, 0, 0, 0) == BS_EINVAL);
    CHECK(&t, bs_model_new(&m, 8, BS_MODEL_MAX_PHASES + 1, 0, 0) == BS_EINVAL);
    CHECK(&t, bs_model_new(&m, 8, 0, BS_FEAT_ALL + 1, 0) == BS_EINVAL);
}

/* ---- (b) files ---- */

static unsigned char *save(const bs_model *m, const char *meta, size_t *len)
{
    *len = bs_model_save(m, meta, NULL, 0);
    unsigned char *buf = malloc(*len);
    CHECK(&t, buf != NULL);
    CHECK(&t, bs_model_save(m, meta, buf, *len) == *len);
    return buf;
}

/* Loads bytes that must be refused: no model, and a message. */
static int refused(const unsigned char *buf, size_t len)
{
    bs_model *m = (bs_model *)&t; /* not NULL: the load must clear it */
    const char *why = NULL;
    char meta[64];
    int st = bs_model_load(&m, buf, len, meta, sizeof meta, &why);
    if (st == BS_OK) {
        bs_model_free(m);
        return 0;
    }
    return m == NULL && why != NULL && why[0] != 0;
}

/* Loads a copy of `len` bytes in a buffer of its own (so the sanitizer sees
 * a read past the end). */
static int refused_copy(const unsigned char *buf, size_t len)
{
    unsigned char *copy = malloc(len ? len : 1);
    memcpy(copy, buf, len);
    int r = refused(copy, len);
    free(copy);
    return r;
}

static void same_evaluations(const bs_model *a, const bs_model *b, int boards)
{
    int differ = 0;
    for (int i = 0; i < boards; i++) {
        bs_board board;
        random_board(&board, a->n, i % 3 == 0 ? 8 : 0);
        for (int p = BS_BLACK; p <= BS_WHITE; p++)
            differ += bs_model_evaluate(a, &board, p) != bs_model_evaluate(b, &board, p);
    }
    CHECK(&t, differ == 0);
}

static void test_round_trip(int n, int phases, unsigned features, unsigned dirs, int max_k)
{
    bs_model *m;
    CHECK(&t, bs_model_new(&m, n, phases, features, dirs) == BS_OK);
    randomize(m, 3000, max_k, 50000);
    const char *meta = "rules reversi\nsize 8\ncommand: boardscript train --games 100";
    size_t len;
    unsigned char *buf = save(m, meta, &len);
    bs_model *back = NULL;
    char got_meta[BS_MODEL_META + 1];
    const char *why = "unset";
    CHECK(&t, bs_model_load(&back, buf, len, got_meta, sizeof got_meta, &why) == BS_OK);
    CHECK(&t, back != NULL && why == NULL);
    if (!back) {
        free(buf);
        bs_model_free(m);
        return;
    }
    CHECK(&t, strcmp(got_meta, meta) == 0);
    bs_model_info a, b;
    bs_model_describe(m, &a);
    bs_model_describe(back, &b);
    CHECK(&t, a.n == b.n && a.phases == b.phases && a.features == b.features && a.mobility_dirs == b.mobility_dirs);
    CHECK(&t, a.weights == b.weights && a.nonzero == b.nonzero && a.layout == b.layout);
    CHECK(&t, memcmp(m->w, back->w, sizeof *m->w * (size_t)m->phases * m->per_phase) == 0);
    CHECK(&t, memcmp(m->scalar, back->scalar, sizeof *m->scalar * (size_t)m->phases * (1 + BS_MODEL_SCALARS)) == 0);
    same_evaluations(m, back, 300);
    size_t len2;
    unsigned char *buf2 = save(back, meta, &len2);
    CHECK(&t, len2 == len && memcmp(buf, buf2, len) == 0);
    free(buf2);
    /* a short meta buffer gets the start of the meta text */
    bs_model *short_meta;
    char four[5];
    CHECK(&t, bs_model_load(&short_meta, buf, len, four, sizeof four, NULL) == BS_OK);
    CHECK(&t, strcmp(four, "rule") == 0);
    bs_model_free(short_meta);
    bs_model_free(back);
    bs_model_free(m);
    free(buf);
}

static uint32_t fnv(const unsigned char *p, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

/* Files of version 1 (their checksum covers the weights alone) still load. */
static void test_version1(void)
{
    bs_model *m;
    CHECK(&t, bs_model_new(&m, 5, 2, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    randomize(m, 500, 10, 500);
    size_t len;
    unsigned char *buf = save(m, "old", &len);
    CHECK(&t, memcmp(buf, "boardscript-eval 2\n", 19) == 0);
    buf[17] = '1';
    const unsigned char *weights = (const unsigned char *)strstr((const char *)buf, "\nweights\n") + 9;
    size_t body = (size_t)(weights - buf);
    uint32_t check = fnv(buf + body, len - 4 - body);
    for (int i = 0; i < 4; i++)
        buf[len - 4 + (size_t)i] = (unsigned char)(check >> (8 * i));
    bs_model *back = NULL;
    CHECK(&t, bs_model_load(&back, buf, len, NULL, 0, NULL) == BS_OK);
    if (back)
        same_evaluations(m, back, 100);
    bs_model_free(back);
    /* as version 2, that checksum is wrong */
    buf[17] = '2';
    CHECK(&t, refused(buf, len));
    free(buf);
    bs_model_free(m);
}

/* Every truncation and single-byte corruptions at every offset (for a long
 * file: in the first and last 1000 bytes, and at every 197th between) are
 * refused with a message. */
static void damage(bs_model *m, int n, int max_k);

static void test_damage(int n, int phases, int max_k)
{
    bs_model *m;
    CHECK(&t, bs_model_new(&m, n, phases, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    damage(m, n, max_k);
}

/* A version 3 file (a rectangle, a group) damaged as test_damage's. */
static void test_damage_shape(int rows, int cols, unsigned group)
{
    bs_model *m;
    CHECK(&t, bs_model_new_shape(&m, rows, cols, group, 1, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    damage(m, rows > cols ? rows : cols, 4);
}

static void damage(bs_model *m, int n, int max_k)
{
    randomize(m, 200, max_k, 3000);
    for (size_t i = 0; i < (size_t)m->phases * m->per_phase; i++) /* runs of zeros, and single ones */
        if (below(4) == 0)
            m->w[i] = 0;
    size_t len;
    unsigned char *buf = save(m, "meta text", &len);
    int kept = 0, tried = 0;
    for (size_t cut = 0; cut < len; cut++) {
        if (cut > 1000 && cut + 1000 < len && cut % 197 != 0)
            continue;
        tried++;
        kept += !refused_copy(buf, cut);
    }
    CHECK(&t, tried > 0 && kept == 0);
    if (kept)
        fprintf(stderr, "size %d: %d of %d truncations loaded\n", n, kept, tried);
    /* a byte too many is refused too */
    unsigned char *longer = malloc(len + 1);
    memcpy(longer, buf, len);
    longer[len] = '\n';
    CHECK(&t, refused(longer, len + 1));
    free(longer);
    static const unsigned char XORS[] = {0x01, 0x02, 0x10, 0x80, 0xff, 0x20};
    int accepted = 0;
    tried = 0;
    unsigned char *copy = malloc(len);
    for (size_t at = 0; at < len; at++) {
        if (at > 1000 && at + 1000 < len && at % 197 != 0)
            continue;
        for (size_t x = 0; x < sizeof XORS; x++) {
            memcpy(copy, buf, len);
            copy[at] ^= XORS[x];
            tried++;
            if (!refused(copy, len)) {
                accepted++;
                if (accepted <= 10)
                    fprintf(stderr, "size %d: byte %zu ^ 0x%02x (%02x) loaded\n", n, at, XORS[x], buf[at]);
            }
        }
    }
    CHECK(&t, accepted == 0);
    free(copy);
    /* no bytes, a wrong magic, a version from the future */
    CHECK(&t, refused(buf, 0));
    const char *other = "boardscript-eval 4\nsize 8\n";
    const char *why = NULL;
    bs_model *none;
    CHECK(&t, bs_model_load(&none, (const unsigned char *)other, strlen(other), NULL, 0, &why) == BS_EINVAL);
    CHECK(&t, why && strstr(why, "version"));
    free(buf);
    bs_model_free(m);
}

/* ---- (c) fitting a planted model ---- */

/* Roughly normal with standard deviation 1 (Irwin-Hall). */
static double noise(void)
{
    double s = 0;
    for (int i = 0; i < 12; i++)
        s += (double)(bs_rng_next(&rng) >> 11) / 9007199254740992.0;
    return s - 6;
}

static double root(double x)
{
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 100; i++)
        r = 0.5 * (r + x / r);
    return r;
}

/* A model with random weights labels random boards (with a little noise);
 * a zero model fitted to them must predict held-out boards to within
 * `max_error` discs, and `max_ratio` of the error before the fit. */
static void test_planted(int n, int phases, int train, int holdout, double max_error, double max_ratio)
{
    bs_model *truth, *fitted;
    CHECK(&t, bs_model_new(&truth, n, phases, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    CHECK(&t, bs_model_new(&fitted, n, phases, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    /* the patterns of up to 6 cells (3^6 entries) are planted; the larger ones
     * are zero (too many entries for these positions to pin down) */
    randomize(truth, 300, 6, 150);
    bs_pat_tie(truth); /* a fit ties the entries the square's maps relate: so must the truth */
    bs_trainer *tr;
    CHECK(&t, bs_trainer_new(&tr, fitted) == BS_OK);
    double label_sq = 0;
    for (int i = 0; i < train + holdout; i++) {
        bs_board b;
        random_board(&b, n, i % 5 == 0 ? 10 : 0);
        int player = 1 + below(2);
        double y = bs_model_evaluate(truth, &b, player) / 100.0 + 0.25 * noise();
        label_sq += y * y;
        CHECK(&t, bs_trainer_add(tr, &b, player, y, i >= train) == BS_OK);
    }
    CHECK(&t, bs_trainer_count(tr, 0) == (size_t)train && bs_trainer_count(tr, 1) == (size_t)holdout);
    bs_fit_result before, after;
    CHECK(&t, bs_trainer_measure(tr, &before) == BS_OK);
    CHECK(&t, before.train == (size_t)train && before.holdout == (size_t)holdout);
    bs_fit_options o = {60, 1.0};
    uint32_t generation = fitted->generation;
    CHECK(&t, bs_trainer_fit(tr, &o, &after) == BS_OK);
    CHECK(&t, fitted->generation != generation);
    double labels = root(label_sq / (train + holdout));
    printf("planted %d x %d: label rms %.2f, holdout rms %.3f unfitted, %.3f fitted (train %.3f, mean abs %.3f)\n", n,
           n, labels, before.holdout_error, after.holdout_error, after.train_error, after.holdout_abs);
    CHECK(&t, before.holdout_error > 0.8 * labels);
    CHECK(&t, after.holdout_error < max_error);
    CHECK(&t, after.holdout_error < max_ratio * before.holdout_error);
    CHECK(&t, after.holdout_abs <= after.holdout_error);
    /* measure agrees with fit; the fitted model predicts the truth on new boards */
    bs_fit_result again;
    CHECK(&t, bs_trainer_measure(tr, &again) == BS_OK);
    CHECK(&t, again.holdout_error == after.holdout_error && again.train_error == after.train_error);
    double sq = 0;
    for (int i = 0; i < 500; i++) {
        bs_board b;
        random_board(&b, n, 0);
        double d = (bs_model_evaluate(truth, &b, BS_BLACK) - bs_model_evaluate(fitted, &b, BS_BLACK)) / 100.0;
        sq += d * d;
    }
    CHECK(&t, root(sq / 500) < max_error);
    /* the fit is deterministic: the same positions give the same weights */
    bs_model *twin;
    CHECK(&t, bs_model_new(&twin, n, phases, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    bs_trainer *tt;
    CHECK(&t, bs_trainer_new(&tt, twin) == BS_OK);
    bs_rng keep = rng;
    bs_rng_seed(&rng, 99);
    for (int i = 0; i < 2000; i++) {
        bs_board b;
        random_board(&b, n, 0);
        int player = 1 + below(2);
        double y = bs_model_evaluate(truth, &b, player) / 100.0;
        bs_trainer_add(tt, &b, player, y, 0);
    }
    rng = keep;
    bs_model *copy;
    CHECK(&t, bs_model_copy(&copy, twin) == BS_OK);
    bs_trainer *tc;
    CHECK(&t, bs_trainer_new(&tc, copy) == BS_OK);
    bs_rng_seed(&rng, 99);
    for (int i = 0; i < 2000; i++) {
        bs_board b;
        random_board(&b, n, 0);
        int player = 1 + below(2);
        double y = bs_model_evaluate(truth, &b, player) / 100.0;
        bs_trainer_add(tc, &b, player, y, 0);
    }
    rng = keep;
    bs_fit_result r1, r2;
    CHECK(&t, bs_trainer_fit(tt, &o, &r1) == BS_OK && bs_trainer_fit(tc, &o, &r2) == BS_OK);
    CHECK(&t, memcmp(twin->w, copy->w, sizeof *twin->w * (size_t)twin->phases * twin->per_phase) == 0);
    CHECK(&t, r1.train_error == r2.train_error);
    bs_trainer_free(tc);
    bs_trainer_free(tt);
    bs_model_free(copy);
    bs_model_free(twin);
    /* refusals: another size, a bad player or target */
    bs_board other;
    bs_board_init(&other, n == 8 ? 6 : 8);
    CHECK(&t, bs_trainer_add(tr, &other, BS_BLACK, 1, 0) == BS_EINVAL);
    bs_board same;
    bs_board_init(&same, n);
    CHECK(&t, bs_trainer_add(tr, &same, 3, 1, 0) == BS_EINVAL);
    CHECK(&t, bs_trainer_add(tr, &same, BS_BLACK, 10001, 0) == BS_EINVAL);
    CHECK(&t, bs_trainer_add(tr, &same, BS_BLACK, (double)NAN, 0) == BS_EINVAL);
    CHECK(&t, bs_trainer_count(tr, 0) == (size_t)train);
    bs_trainer_free(tr);
    bs_model_free(fitted);
    bs_model_free(truth);
}

/* A trainer without positions fits to nothing and measures zeros. */
static void test_empty_trainer(void)
{
    bs_model *m;
    CHECK(&t, bs_model_new(&m, 4, 1, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    randomize(m, 100, 10, 100);
    bs_trainer *tr;
    CHECK(&t, bs_trainer_new(&tr, m) == BS_OK);
    bs_fit_result r;
    CHECK(&t, bs_trainer_fit(tr, NULL, &r) == BS_OK);
    CHECK(&t, r.train == 0 && r.holdout == 0 && r.train_error == 0 && r.holdout_error == 0);
    bs_model_info info;
    bs_model_describe(m, &info);
    CHECK(&t, info.nonzero == 0); /* weights no position uses go to zero */
    bs_trainer_free(tr);
    bs_model_free(m);
}

/* ---- (d) the 8 x 8 word path ---- */

static uint64_t bit(int sq)
{
    return 1ULL << sq;
}

/* The 8 x 8 word path of a model of rows x cols (held in 8 x 8: the margin
 * is among the blocks) and `group`. */
/* Returns the model's number of instances. */
static int test_pat64(int rows, int cols, unsigned group, unsigned features, int games)
{
    bs_model *m;
    CHECK(&t, bs_model_new_shape(&m, rows, cols, group, 0, features, BS_DIRS_ALL) == BS_OK);
    uint64_t margin = 0;
    for (int sq = 0; sq < 64; sq++)
        if (sq / 8 >= rows || sq % 8 >= cols)
            margin |= 1ULL << sq;
    int r0 = rows / 2 - 1, c0 = cols / 2 - 1;
    randomize(m, 2000, 10, 3000);
    for (int p = 0; p < m->phases; p++) /* every scalar non-zero */
        for (int j = 0; j < 1 + BS_MODEL_SCALARS; j++)
            if (m->scalar[p * (1 + BS_MODEL_SCALARS) + j] == 0)
                m->scalar[p * (1 + BS_MODEL_SCALARS) + j] = 7;
    bs_pat64 pm;
    memset(&pm, 0, sizeof pm);
    int index_differ = 0, value_differ = 0, positions = 0;
    for (int game = 0; game < games; game++) {
        uint64_t blocks = 0;
        if (game % 3 == 1)
            for (int k = between(1, 6); k > 0; k--)
                blocks |= bit(below(64));
        uint64_t black = bit(r0 * 8 + c0 + 1) | bit((r0 + 1) * 8 + c0);
        uint64_t white = bit(r0 * 8 + c0) | bit((r0 + 1) * 8 + c0 + 1);
        blocks = (blocks & ~(black | white)) | margin;
        CHECK(&t, bs_pat64_prepare(&pm, m, blocks) == BS_OK);
        uint16_t idx[2 * BS_PAT64_LANES], fresh[2 * BS_PAT64_LANES];
        bs_pat64_indices(&pm, black, white, idx);
        int player = BS_BLACK, passes = 0;
        while (passes < 2) {
            uint64_t P = player == BS_BLACK ? black : white, O = player == BS_BLACK ? white : black;
            uint64_t E = ~(P | O | blocks);
            uint64_t moves = bs_moves64(P, O, E), replies = bs_moves64(O, P, E);
            /* the value for the mover, both ways */
            bs_board b;
            bs_board_init_shape(&b, rows, cols);
            bs_unpack64(black, b.plane[0]);
            bs_unpack64(white, b.plane[1]);
            bs_unpack64(blocks, b.plane[2]);
            int v = bs_pat64_value(&pm, idx, P, O, player == BS_WHITE, moves, replies);
            int want = bs_model_evaluate(m, &b, player);
            value_differ += v != want;
            if (v != want && value_differ <= 5)
                fprintf(stderr, "game %d: word path %d, evaluate %d\n", game, v, want);
            positions++;
            if (!moves) {
                passes++;
                player = bs_opponent(player);
                continue;
            }
            passes = 0;
            int k = below(__builtin_popcountll(moves));
            uint64_t set = moves;
            while (k-- > 0)
                set &= set - 1;
            int sq = __builtin_ctzll(set);
            uint64_t flips = bs_flips64(P, O, sq);
            P |= flips | bit(sq);
            O &= ~flips;
            uint16_t next[2 * BS_PAT64_LANES];
            uint64_t touched = bs_pat64_child(&pm, next, idx, player == BS_BLACK ? 1 : 2, sq, flips);
            for (int i = 0; i < m->ninst; i++) /* an instance said untouched is unchanged */
                index_differ += !(touched >> i & 1) && (next[i] != idx[i] || next[48 + i] != idx[48 + i]);
            memcpy(idx, next, sizeof next);
            if (player == BS_BLACK) {
                black = P;
                white = O;
            } else {
                white = P;
                black = O;
            }
            bs_pat64_indices(&pm, black, white, fresh);
            /* both halves, and the lanes past the instances still 0 */
            index_differ += memcmp(idx, fresh, sizeof idx) != 0;
            player = bs_opponent(player);
        }
    }
    CHECK(&t, positions > games * 20);
    CHECK(&t, index_differ == 0);
    CHECK(&t, value_differ == 0);
    /* a fit (a new generation) is seen: the weights read are the new ones */
    uint32_t generation = m->generation;
    bs_trainer *tr;
    CHECK(&t, bs_trainer_new(&tr, m) == BS_OK);
    bs_board b;
    random_board_shape(&b, rows, cols, 0);
    CHECK(&t, bs_trainer_add(tr, &b, BS_WHITE, 30, 0) == BS_OK);
    bs_fit_result r;
    CHECK(&t, bs_trainer_fit(tr, NULL, &r) == BS_OK);
    CHECK(&t, m->generation != generation && pm.generation == generation);
    CHECK(&t, bs_pat64_prepare(&pm, m, margin) == BS_OK);
    CHECK(&t, pm.generation == m->generation);
    uint64_t black = 0, white = 0;
    for (int r8 = 0; r8 < 8; r8++) {
        black |= (uint64_t)(b.plane[0][r8] & 0xff) << (8 * r8);
        white |= (uint64_t)(b.plane[1][r8] & 0xff) << (8 * r8);
    }
    uint16_t idx[2 * BS_PAT64_LANES];
    bs_pat64_indices(&pm, black, white, idx);
    uint64_t E = ~(black | white | margin);
    CHECK(&t, bs_pat64_value(&pm, idx, white, black, 1, bs_moves64(white, black, E), bs_moves64(black, white, E)) ==
                  bs_model_evaluate(m, &b, BS_WHITE));
    bs_trainer_free(tr);
    int ninst = m->ninst;
    bs_pat64_release(&pm);
    bs_model_free(m);
    return ninst;
}

/* ---- generations and extreme weights ---- */

static void test_generations(void)
{
    /* every model, copy, load and fit has a generation no other had, so a
     * searcher cannot take a new model at a freed one's address for it */
    uint32_t seen[64];
    int count = 0, repeats = 0;
    bs_model *m;
    CHECK(&t, bs_model_new(&m, 5, 1, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    seen[count++] = m->generation;
    size_t len;
    unsigned char *buf = save(m, "", &len);
    for (int i = 0; i < 10; i++) {
        bs_model *c, *l, *f;
        CHECK(&t, bs_model_copy(&c, m) == BS_OK);
        CHECK(&t, bs_model_load(&l, buf, len, NULL, 0, NULL) == BS_OK);
        CHECK(&t, bs_model_new(&f, 5, 1, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
        seen[count++] = c->generation;
        seen[count++] = l->generation;
        seen[count++] = f->generation;
        bs_trainer *tr;
        CHECK(&t, bs_trainer_new(&tr, f) == BS_OK);
        bs_fit_result r;
        CHECK(&t, bs_trainer_fit(tr, NULL, &r) == BS_OK);
        seen[count++] = f->generation;
        bs_trainer_free(tr);
        bs_model_free(c);
        bs_model_free(l);
        bs_model_free(f);
    }
    for (int i = 0; i < count; i++)
        for (int j = 0; j < i; j++)
            repeats += seen[i] == seen[j];
    CHECK(&t, repeats == 0);
    free(buf);
    bs_model_free(m);
}

/* The largest weights a file may hold, on the largest board with the most
 * of a feature: the value is clamped, never wrapped around. */
static void test_extremes(void)
{
    bs_model *m;
    CHECK(&t, bs_model_new(&m, BS_MAX_N, 1, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    /* white discs apart from each other until black's potential mobility
     * times the largest weight is past INT_MAX (wrapped: negative) */
    bs_board b;
    bs_board_init(&b, BS_MAX_N);
    int x[BS_MODEL_SCALARS] = {0};
    for (int r = 1; r < BS_MAX_N && (double)x[1] * BS_PAT_MAX_VALUE < 2.3e9; r += 3)
        for (int c = 1; c < BS_MAX_N && (double)x[1] * BS_PAT_MAX_VALUE < 2.3e9; c += 3) {
            bs_board_set(&b, r, c, BS_WHITE);
            bs_pat_scalars(m, &b, BS_BLACK, x);
        }
    CHECK(&t, (double)x[1] * BS_PAT_MAX_VALUE > 2147483647.0);
    CHECK(&t, (double)x[1] * BS_PAT_MAX_VALUE < 4294967296.0);
    m->scalar[2] = BS_PAT_MAX_VALUE; /* potential mobility */
    CHECK(&t, bs_model_evaluate(m, &b, BS_BLACK) == 999999);
    CHECK(&t, bs_model_evaluate(m, &b, BS_WHITE) == -999999);
    /* every weight at its largest, either sign */
    for (int sign = -1; sign <= 1; sign += 2) {
        for (int j = 0; j < 1 + BS_MODEL_SCALARS; j++)
            m->scalar[j] = sign * BS_PAT_MAX_VALUE;
        for (size_t i = 0; i < m->per_phase; i++)
            m->w[i] = (int16_t)(sign * 32767);
        int v = bs_model_evaluate(m, &b, BS_BLACK);
        CHECK(&t, v == sign * 999999);
        /* saved and loaded, it evaluates the same */
        size_t len;
        unsigned char *buf = save(m, NULL, &len);
        bs_model *back = NULL;
        CHECK(&t, bs_model_load(&back, buf, len, NULL, 0, NULL) == BS_OK);
        CHECK(&t, back && bs_model_evaluate(back, &b, BS_BLACK) == v);
        bs_model_free(back);
        free(buf);
    }
    bs_model_free(m);
    /* the 8 x 8 word path clamps alike */
    CHECK(&t, bs_model_new(&m, 8, 1, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    for (int j = 0; j < 1 + BS_MODEL_SCALARS; j++)
        m->scalar[j] = BS_PAT_MAX_VALUE;
    bs_pat64 pm;
    memset(&pm, 0, sizeof pm);
    CHECK(&t, bs_pat64_prepare(&pm, m, 0) == BS_OK);
    uint64_t white = 0x0000240000240000ULL, black = 0; /* black: no disc, four empty rings of white's */
    bs_board w8;
    bs_board_init(&w8, 8);
    bs_unpack64(white, w8.plane[1]);
    uint16_t idx[BS_MODEL_MAX_INSTANCES];
    bs_pat64_indices(&pm, black, white, idx);
    uint64_t E = ~(black | white);
    int v = bs_pat64_value(&pm, idx, black, white, 0, bs_moves64(black, white, E), bs_moves64(white, black, E));
    CHECK(&t, v == bs_model_evaluate(m, &w8, BS_BLACK));
    CHECK(&t, v == 999999);
    bs_pat64_release(&pm);
    bs_model_free(m);
}


/* ---- (e) declared symmetries and rectangles ---- */

/* b's image by map `which` of its rows x cols shape (enum bs_sym_map). */
static void map_board(const bs_board *b, int which, bs_board *out)
{
    bs_board_init_shape(out, b->rows, b->cols);
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < b->cols; c++) {
            int a = r, d = c, cell;
            if (which & 1) {
                a = c;
                d = r;
            }
            if (which & 2)
                d = b->cols - 1 - d;
            if (which & 4)
                a = b->rows - 1 - a;
            bs_board_get(b, r, c, &cell);
            bs_board_set(out, a, d, cell);
        }
}

/* A model of rows x cols and `group`: its patterns on the board (never the
 * margin), with random tied weights its value the same on a position and
 * its image by each map of the group, not by the others (`other`: a map of
 * the shape outside the group, -1 for none). */
static void check_group(int rows, int cols, unsigned group, int other, bs_model_info *out)
{
    bs_model *m;
    CHECK(&t, bs_model_new_shape(&m, rows, cols, group, 0, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    if (!m)
        return;
    bs_model_describe(m, out);
    CHECK(&t, out->rows == rows && out->cols == cols && out->group == group);
    CHECK(&t, out->n == (rows > cols ? rows : cols) && bs_model_size(m) == out->n);
    CHECK(&t, out->shapes >= 1 && out->shapes <= BS_MODEL_MAX_SHAPES && out->instances <= BS_MODEL_MAX_INSTANCES);
    int margin = 0, same_set = 0;
    for (int i = 0; i < out->instances; i++) {
        int cells[BS_MODEL_MAX_CELLS], shape;
        int k = bs_model_instance(m, i, &shape, cells);
        for (int j = 0; j < k; j++)
            margin += cells[j] / BS_MAX_N >= rows || cells[j] % BS_MAX_N >= cols;
        int a[BS_MODEL_MAX_CELLS], b[BS_MODEL_MAX_CELLS];
        for (int o = 0; o < i; o++)
            if (sorted_cells(m, i, a) == sorted_cells(m, o, b) && memcmp(a, b, sizeof(int) * (size_t)k) == 0)
                same_set++;
    }
    CHECK(&t, margin == 0 && same_set == 0);
    randomize(m, 2000, 10, 300);
    bs_pat_tie(m);
    int differ[8] = {0};
    for (int i = 0; i < 60; i++) {
        bs_board b, g;
        random_board_shape(&b, rows, cols, i % 4 == 0 ? 9 : 0);
        int player = 1 + below(2), v = bs_model_evaluate(m, &b, player);
        for (int x = 0; x < 8; x++) {
            if ((x & 1) && rows != cols)
                continue;
            map_board(&b, x, &g);
            differ[x] += bs_model_evaluate(m, &g, player) != v;
        }
    }
    for (int x = 0; x < 8; x++)
        if (group >> x & 1u) {
            CHECK(&t, differ[x] == 0);
            if (differ[x])
                fprintf(stderr, "%d x %d, group %02x: map %d changes %d values\n", rows, cols, group, x, differ[x]);
        }
    if (other >= 0)
        CHECK(&t, differ[other] > 30);
    /* another shape's board is refused */
    bs_board wrong;
    bs_board_init_shape(&wrong, rows == cols ? rows - 1 : cols, rows == cols ? cols : rows);
    if (wrong.n == m->n)
        CHECK(&t, bs_model_evaluate(m, &wrong, BS_BLACK) == 0 && !bs_model_fits(m, &wrong));
    bs_model_free(m);
}

static void test_symmetry(void)
{
    /* the maps and groups by name */
    CHECK(&t, bs_sym_parse("rotate90", 8) == BS_SYM_ROTATE90 && bs_sym_parse("mirrors", 7) == -1);
    CHECK(&t, bs_sym_parse("mirror", 6) == BS_SYM_MIRROR && strcmp(bs_sym_name(BS_SYM_FLIP), "flip") == 0);
    CHECK(&t, bs_sym_closure(1u << BS_SYM_ROTATE90) == (1u | 1u << 3 | 1u << 6 | 1u << 5));
    CHECK(&t, bs_sym_closure(1u << BS_SYM_MIRROR | 1u << BS_SYM_TRANSPOSE) == BS_SYM_SQUARE);
    CHECK(&t, bs_sym_closure(1u << BS_SYM_MIRROR | 1u << BS_SYM_FLIP) == BS_SYM_RECT);
    CHECK(&t, bs_sym_group("square", 6, 8, 8) == BS_SYM_SQUARE && bs_sym_group("square", 6, 6, 8) == BS_SYM_RECT);
    CHECK(&t, bs_sym_group("none", 4, 8, 8) == 1u && bs_sym_group("all", 3, 8, 8) == 0);
    /* refusals: a transposing map on a rectangle, a set that is not a group, no identity, sizes */
    bs_model *m = NULL;
    CHECK(&t, bs_model_new_shape(&m, 6, 8, BS_SYM_SQUARE, 0, 0, 0) == BS_EINVAL && m == NULL);
    CHECK(&t, bs_model_new_shape(&m, 6, 8, 1u | 1u << BS_SYM_TRANSPOSE, 0, 0, 0) == BS_EINVAL);
    CHECK(&t, bs_model_new_shape(&m, 8, 8, 1u | 1u << BS_SYM_ROTATE90, 0, 0, 0) == BS_EINVAL);
    CHECK(&t, bs_model_new_shape(&m, 8, 8, 1u << BS_SYM_MIRROR, 0, 0, 0) == BS_EINVAL);
    CHECK(&t, bs_model_new_shape(&m, 8, 8, 0, 0, 0, 0) == BS_EINVAL);
    CHECK(&t, bs_model_new_shape(&m, 2, 8, 1u, 0, 0, 0) == BS_EINVAL);
    CHECK(&t, bs_model_new_shape(&m, 8, BS_MAX_N + 1, 1u, 0, 0, 0) == BS_EINVAL);
    /* 8 x 8: the same cells in every group, fewer tables the larger the group */
    bs_model_info none, mirror, rot, square, legacy;
    check_group(8, 8, 1u, BS_SYM_MIRROR, &none);
    check_group(8, 8, 1u | 1u << BS_SYM_MIRROR, BS_SYM_TRANSPOSE, &mirror);
    check_group(8, 8, bs_sym_closure(1u << BS_SYM_ROTATE90), BS_SYM_MIRROR, &rot);
    check_group(8, 8, BS_SYM_SQUARE, -1, &square);
    CHECK(&t, none.instances == square.instances && mirror.instances == square.instances);
    CHECK(&t, none.shapes == none.instances && none.shapes > mirror.shapes && mirror.shapes > rot.shapes &&
                  rot.shapes > square.shapes);
    CHECK(&t, none.weights > mirror.weights && mirror.weights > rot.weights && rot.weights > square.weights);
    printf("8 x 8 tables (weights a phase): none %d (%zu), mirror %d (%zu), rotations %d (%zu), square %d (%zu); "
           "%d instances\n", none.shapes, none.weights / (size_t)none.phases, mirror.shapes,
           mirror.weights / (size_t)mirror.phases, rot.shapes, rot.weights / (size_t)rot.phases, square.shapes,
           square.weights / (size_t)square.phases, square.instances);
    /* a square "square" model is the one bs_model_new makes, as it always was */
    CHECK(&t, bs_model_new(&m, 8, 0, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    bs_model_describe(m, &legacy);
    bs_model_free(m);
    CHECK(&t, legacy.layout == square.layout && legacy.layout == 0x09eb30e1u && legacy.shapes == 11 &&
                  legacy.instances == 46);
    CHECK(&t, none.layout != mirror.layout && mirror.layout != square.layout && rot.layout != square.layout);
    /* rectangles: every group of the shape; rows and columns apart */
    bs_model_info r_none, r_mirror, r_flip, r_half, r_all, wide, tall;
    check_group(6, 8, 1u, BS_SYM_ROTATE180, &r_none);
    check_group(6, 8, 1u | 1u << BS_SYM_MIRROR, BS_SYM_FLIP, &r_mirror);
    check_group(6, 8, 1u | 1u << BS_SYM_FLIP, BS_SYM_MIRROR, &r_flip);
    check_group(6, 8, 1u | 1u << BS_SYM_ROTATE180, BS_SYM_MIRROR, &r_half);
    check_group(6, 8, BS_SYM_RECT, -1, &r_all);
    CHECK(&t, r_none.shapes > r_mirror.shapes && r_mirror.shapes > r_all.shapes && r_flip.shapes > r_all.shapes &&
                  r_half.shapes > r_all.shapes);
    CHECK(&t, r_none.instances == r_all.instances && r_all.layout != square.layout);
    check_group(8, 6, BS_SYM_RECT, -1, &tall);
    check_group(3, 26, BS_SYM_RECT, -1, &wide);
    check_group(9, 5, 1u | 1u << BS_SYM_FLIP, BS_SYM_MIRROR, &wide);
    check_group(26, 25, 1u, BS_SYM_ROTATE180, &wide);
    check_group(3, 3, 1u | 1u << BS_SYM_TRANSPOSE, BS_SYM_MIRROR, &wide);
    CHECK(&t, tall.instances == r_all.instances && tall.shapes == r_all.shapes && tall.layout != r_all.layout);
    printf("6 x 8 tables (weights a phase): none %d (%zu), mirror %d (%zu), flip %d (%zu), rotate180 %d (%zu), "
           "square %d (%zu); %d instances\n", r_none.shapes, r_none.weights / (size_t)r_none.phases, r_mirror.shapes,
           r_mirror.weights / (size_t)r_mirror.phases, r_flip.shapes, r_flip.weights / (size_t)r_flip.phases,
           r_half.shapes, r_half.weights / (size_t)r_half.phases, r_all.shapes,
           r_all.weights / (size_t)r_all.phases, r_all.instances);
    /* the corners of a 6 x 8 board's last row have their corner patterns */
    CHECK(&t, bs_model_new_shape(&m, 6, 8, BS_SYM_RECT, 0, 0, 0) == BS_OK);
    int corners = 0;
    for (int i = 0; i < m->ninst; i++)
        if (m->inst[i].k == 9)
            for (int j = 0; j < 9; j++)
                corners += (m->inst[i].r[j] == 5 && (m->inst[i].c[j] == 0 || m->inst[i].c[j] == 7));
    CHECK(&t, corners == 2);
    bs_model_free(m);
}

/* A rectangle's file (version 3) round-trips; its shape and group are in
 * the header and its layout, so a header naming another group is refused. */
static void test_shape_file(int rows, int cols, unsigned group)
{
    bs_model *m;
    CHECK(&t, bs_model_new_shape(&m, rows, cols, group, 2, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
    randomize(m, 3000, 10, 50000);
    size_t len;
    unsigned char *buf = save(m, "meta", &len);
    CHECK(&t, memcmp(buf, "boardscript-eval 3\n", 19) == 0);
    bs_model *back = NULL;
    const char *why = "unset";
    CHECK(&t, bs_model_load(&back, buf, len, NULL, 0, &why) == BS_OK && why == NULL);
    if (back) {
        bs_model_info a, b;
        bs_model_describe(m, &a);
        bs_model_describe(back, &b);
        CHECK(&t, a.rows == b.rows && a.cols == b.cols && a.group == b.group && a.layout == b.layout);
        CHECK(&t, memcmp(m->w, back->w, sizeof *m->w * (size_t)m->phases * m->per_phase) == 0);
        int differ = 0;
        for (int i = 0; i < 100; i++) {
            bs_board board;
            random_board_shape(&board, rows, cols, 0);
            differ += bs_model_evaluate(m, &board, BS_WHITE) != bs_model_evaluate(back, &board, BS_WHITE);
        }
        CHECK(&t, differ == 0);
        size_t len2;
        unsigned char *buf2 = save(back, "meta", &len2);
        CHECK(&t, len2 == len && memcmp(buf, buf2, len) == 0);
        free(buf2);
        bs_model *copy;
        CHECK(&t, bs_model_copy(&copy, back) == BS_OK && copy->layout == back->layout && copy->group == group);
        bs_model_free(copy);
    }
    bs_model_free(back);
    /* the header says another group, checksum made right: the layout differs */
    char *sym = strstr((char *)buf, "symmetry ");
    CHECK(&t, sym != NULL);
    if (sym) {
        unsigned char *edited = malloc(len);
        memcpy(edited, buf, len);
        char *at = (char *)edited + (sym - (char *)buf) + 9;
        size_t k = strcspn(at, "\n");
        memset(at, ' ', k); /* "identity" padded: a name list with spaces is damaged, */
        CHECK(&t, refused(edited, len));
        memcpy(at, "identity", 8); /* and fits only the group of the identity alone */
        at[8] = '\n';
        bs_model *other = NULL;
        if (k > 8) { /* a shorter header: rebuild the file around it */
            size_t cut = k - 8;
            memmove(at + 9, at + k + 1, len - (size_t)(at + k + 1 - (char *)edited));
            size_t n2 = len - cut;
            uint32_t check = fnv(edited, n2 - 4);
            for (int i = 0; i < 4; i++)
                edited[n2 - 4 + (size_t)i] = (unsigned char)(check >> (8 * i));
            why = NULL;
            CHECK(&t, bs_model_load(&other, edited, n2, NULL, 0, &why) == BS_EINVAL && other == NULL);
            CHECK(&t, why && strstr(why, "patterns"));
        }
        free(edited);
    }
    free(buf);
    bs_model_free(m);
}

int main(void)
{
    bs_rng_seed(&rng, 20261207);
    test_patterns();
    test_round_trip(8, 0, BS_FEAT_ALL, BS_DIRS_ALL, 10);
    test_round_trip(3, 1, 0, 0, 10);
    test_round_trip(6, 5, BS_FEAT_MOBILITY | BS_FEAT_PARITY, 0x55, 10);
    test_round_trip(13, 2, BS_FEAT_ANCHORED, BS_DIRS_ALL, 6);
    test_round_trip(26, 1, BS_FEAT_ALL, BS_DIRS_ALL, 5);
    test_version1();
    test_damage(4, 1, 4);
    test_damage(6, 2, 5);
    test_damage(3, 1, 10);
    test_planted(6, 2, 60000, 3000, 1.2, 0.15);
    test_planted(8, 1, 60000, 3000, 0.6, 0.1);
    test_empty_trainer();
    CHECK(&t, test_pat64(8, 8, BS_SYM_SQUARE, BS_FEAT_ALL, 300) == 46);
    /* the word path takes every model of a board up to 8 x 8: its indices fit the lanes */
    for (int rows = 3; rows <= 8; rows++)
        for (int cols = 3; cols <= 8; cols++) {
            bs_model *m;
            CHECK(&t, bs_model_new_shape(&m, rows, cols, 1u, 0, BS_FEAT_ALL, BS_DIRS_ALL) == BS_OK);
            CHECK(&t, m && m->ninst <= BS_PAT64_LANES);
            bs_model_free(m);
        }
    test_pat64(8, 8, BS_SYM_SQUARE, BS_FEAT_MOBILITY | BS_FEAT_ANCHORED, 100);
    test_pat64(8, 8, BS_SYM_SQUARE, 0, 50);
    test_pat64(8, 8, 1u, BS_FEAT_ALL, 60);
    test_pat64(8, 8, 1u | 1u << BS_SYM_MIRROR, BS_FEAT_ALL, 60);
    test_pat64(6, 8, BS_SYM_RECT, BS_FEAT_ALL, 100);
    test_pat64(8, 6, 1u | 1u << BS_SYM_FLIP, BS_FEAT_ALL, 60);
    test_pat64(4, 8, 1u, BS_FEAT_ALL, 60);
    test_generations();
    test_extremes();
    test_symmetry();
    test_shape_file(6, 8, 1u | 1u << BS_SYM_MIRROR);
    test_shape_file(8, 8, 1u | 1u << BS_SYM_ROTATE180);
    test_shape_file(5, 3, BS_SYM_RECT);
    test_damage_shape(6, 8, 1u | 1u << BS_SYM_MIRROR);
    return check_summary(&t);
}
