/* pattern_io.c - the learned evaluation's files, in memory: a versioned text header, the weights
 * zero-run compressed, a whole-file checksum (docs/decisions.md, "Learned evaluations"). */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "pattern_impl.h"

/* ---- files, in memory ---- */

static const char MAGIC[] = "boardscript-eval";

typedef struct sink {
    unsigned char *buf;
    size_t cap, len;
} sink;

static void put(sink *s, const void *data, size_t len)
{
    if (s->len + len <= s->cap)
        memcpy(s->buf + s->len, data, len);
    s->len += len;
}

static void put_u16(sink *s, unsigned v)
{
    unsigned char b[2] = {(unsigned char)(v & 0xff), (unsigned char)(v >> 8 & 0xff)};
    put(s, b, 2);
}

static void put_i32(sink *s, int32_t v)
{
    uint32_t u = (uint32_t)v;
    unsigned char b[4] = {(unsigned char)(u & 0xff), (unsigned char)(u >> 8 & 0xff), (unsigned char)(u >> 16 & 0xff),
                          (unsigned char)(u >> 24)};
    put(s, b, 4);
}

static void features_text(unsigned f, char *out, size_t cap)
{
    static const char *const NAMES[BS_MODEL_SCALARS] = {"mobility", "potential", "parity", "anchored"};
    out[0] = 0;
    size_t at = 0;
    at += (size_t)snprintf(out, cap, "patterns");
    for (int i = 0; i < BS_MODEL_SCALARS; i++)
        if (f & (1u << i))
            at += (size_t)snprintf(out + at, at < cap ? cap - at : 0, ",%s", NAMES[i]);
}

/* The names of a group's maps, in the order of their names, between commas. */
static void group_text(unsigned group, char *out, size_t cap)
{
    const char *names[8];
    int k = 0;
    for (int i = 0; i < 8; i++)
        if (group >> i & 1u)
            names[k++] = bs_sym_name(i);
    for (int i = 1; i < k; i++) /* insertion sort: eight at most */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < k; i++)
        at += (size_t)snprintf(out + at, at < cap ? cap - at : 0, "%s%s", i ? "," : "", names[i]);
}

size_t bs_model_save(const bs_model *m, const char *meta, unsigned char *buf, size_t cap)
{
    if (!m)
        return 0;
    size_t meta_len = 0;
    while (meta && meta_len < BS_MODEL_META && meta[meta_len])
        meta_len++;
    sink s = {buf, buf ? cap : 0, 0};
    char head[512], feats[128];
    features_text(m->features, feats, sizeof feats);
    /* a square "square" model is written as version 2, byte for byte as before;
     * others as version 3, with their shape and group after the size */
    char shape[160] = "";
    bool legacy = m->rows == m->n && m->cols == m->n && m->group == BS_SYM_SQUARE;
    if (!legacy) {
        char names[128];
        group_text(m->group, names, sizeof names);
        snprintf(shape, sizeof shape, "shape %d %d\nsymmetry %s\n", m->rows, m->cols, names);
    }
    int len = snprintf(head, sizeof head,
                       "%s %d\nsize %d\n%sphases %d\nfeatures %s\nmobility-dirs %u\nlayout %08x\nmeta %zu\n", MAGIC,
                       legacy ? 2 : BS_MODEL_VERSION, m->n, shape, m->phases, feats, m->mobility_dirs,
                       (unsigned)m->layout, meta_len);
    put(&s, head, (size_t)len);
    put(&s, meta ? meta : "", meta_len);
    put(&s, "\nweights\n", 9);
    for (int p = 0; p < m->phases; p++) {
        const int32_t *sc = m->scalar + (size_t)p * (1 + BS_MODEL_SCALARS);
        for (int i = 0; i < 1 + BS_MODEL_SCALARS; i++)
            put_i32(&s, sc[i]);
        const int16_t *w = m->w + (size_t)p * m->per_phase;
        for (size_t i = 0; i < m->per_phase;) {
            if (w[i] == 0) {
                size_t run = 1;
                while (i + run < m->per_phase && w[i + run] == 0 && run < 65535)
                    run++;
                put_u16(&s, 0x8000u);
                put_u16(&s, (unsigned)run);
                i += run;
            } else {
                put_u16(&s, (unsigned)(uint16_t)w[i]);
                i++;
            }
        }
    }
    /* version 2: the checksum covers the whole file before it, header and meta too */
    uint32_t check = s.len <= s.cap ? bs_pat_fnv(2166136261u, s.buf, s.len) : 0;
    put_i32(&s, (int32_t)check);
    return s.len;
}

typedef struct source {
    const unsigned char *p;
    size_t len, at;
} source;

/* The next line (without its newline), or NULL at the end. */
static const char *line(source *s, char *out, size_t cap)
{
    size_t k = 0;
    while (s->at < s->len && s->p[s->at] != '\n') {
        if (k + 1 >= cap)
            return NULL;
        out[k++] = (char)s->p[s->at++];
    }
    if (s->at >= s->len)
        return NULL;
    s->at++;
    out[k] = 0;
    return out;
}

static bool get_u16(source *s, unsigned *v)
{
    if (s->len - s->at < 2)
        return false;
    *v = (unsigned)s->p[s->at] | (unsigned)s->p[s->at + 1] << 8;
    s->at += 2;
    return true;
}

static bool get_i32(source *s, int32_t *v)
{
    if (s->len - s->at < 4)
        return false;
    uint32_t u = (uint32_t)s->p[s->at] | (uint32_t)s->p[s->at + 1] << 8 | (uint32_t)s->p[s->at + 2] << 16 |
                 (uint32_t)s->p[s->at + 3] << 24;
    s->at += 4;
    *v = (int32_t)u;
    return true;
}

/* A header line "key value": the value, or NULL when the key differs. */
static const char *field(source *s, const char *key, char *buf, size_t cap)
{
    if (!line(s, buf, cap))
        return NULL;
    size_t k = strlen(key);
    if (strncmp(buf, key, k) != 0 || buf[k] != ' ')
        return NULL;
    return buf + k + 1;
}

static bool parse_int(const char *text, long lo, long hi, long *out)
{
    if (!text || !*text)
        return false;
    char *end;
    long v = strtol(text, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int bs_model_load(bs_model **out, const unsigned char *buf, size_t len, char *meta, size_t meta_cap,
                  const char **why)
{
    static const char *dummy;
    if (!why)
        why = &dummy;
    *why = "not an evaluation file";
    if (!out || !buf)
        return BS_EINVAL;
    *out = NULL;
    source s = {buf, len, 0};
    char text[512];
    const char *v = line(&s, text, sizeof text);
    size_t magic_len = sizeof MAGIC - 1;
    if (!v || strncmp(v, MAGIC, magic_len) != 0 || v[magic_len] != ' ')
        return BS_EINVAL;
    long version, n, phases, dirs, meta_len;
    if (!parse_int(v + magic_len + 1, 1, 1000, &version))
        return BS_EINVAL;
    if (version < 1 || version > BS_MODEL_VERSION) {
        *why = "an evaluation file of another version (this build reads versions 1 to 3)";
        return BS_EINVAL;
    }
    *why = "a damaged header";
    if (!parse_int(field(&s, "size", text, sizeof text), 3, BS_MAX_N, &n))
        return BS_EINVAL;
    long rows = n, cols = n;
    unsigned group = BS_SYM_SQUARE;
    if (version >= 3) {
        const char *shape = field(&s, "shape", text, sizeof text);
        if (!shape)
            return BS_EINVAL;
        char *sep;
        rows = strtol(shape, &sep, 10);
        if (sep == shape || *sep != ' ' || rows < 3 || rows > BS_MAX_N || !parse_int(sep + 1, 3, BS_MAX_N, &cols) ||
            (rows > cols ? rows : cols) != n)
            return BS_EINVAL;
        const char *names = field(&s, "symmetry", text, sizeof text);
        if (!names || !*names)
            return BS_EINVAL;
        group = 0;
        for (const char *tok = names;;) {
            size_t k = strcspn(tok, ",");
            int map = bs_sym_parse(tok, k);
            if (map < 0 || (group >> map & 1u))
                return BS_EINVAL;
            group |= 1u << map;
            tok += k;
            if (!*tok)
                break;
            tok++;
        }
        /* bs_model_new_shape refuses a set that is not a group of this shape */
    }
    if (!parse_int(field(&s, "phases", text, sizeof text), 1, BS_MODEL_MAX_PHASES, &phases))
        return BS_EINVAL;
    const char *f = field(&s, "features", text, sizeof text);
    if (!f)
        return BS_EINVAL;
    unsigned features = 0;
    {
        static const char *const NAMES[BS_MODEL_SCALARS] = {"mobility", "potential", "parity", "anchored"};
        for (const char *tok = f; *tok;) {
            size_t k = strcspn(tok, ",");
            int known = -1;
            if (k == 8 && strncmp(tok, "patterns", 8) == 0)
                known = BS_MODEL_SCALARS;
            for (int i = 0; i < BS_MODEL_SCALARS; i++)
                if (strlen(NAMES[i]) == k && strncmp(tok, NAMES[i], k) == 0)
                    known = i;
            if (known < 0) {
                *why = "a feature this build does not know";
                return BS_EINVAL;
            }
            if (known < BS_MODEL_SCALARS)
                features |= 1u << known;
            tok += k;
            if (*tok == ',')
                tok++;
        }
    }
    if (!parse_int(field(&s, "mobility-dirs", text, sizeof text), 0, BS_DIRS_ALL, &dirs))
        return BS_EINVAL;
    const char *lay = field(&s, "layout", text, sizeof text);
    if (!lay)
        return BS_EINVAL;
    char *end;
    unsigned long layout = strtoul(lay, &end, 16);
    if (*end || end == lay)
        return BS_EINVAL;
    if (!parse_int(field(&s, "meta", text, sizeof text), 0, BS_MODEL_META, &meta_len))
        return BS_EINVAL;
    if (s.len - s.at < (size_t)meta_len + 9) {
        *why = "a truncated file";
        return BS_EINVAL;
    }
    if (memchr(s.p + s.at, 0, (size_t)meta_len))
        return BS_EINVAL;
    if (meta && meta_cap) {
        size_t k = (size_t)meta_len < meta_cap - 1 ? (size_t)meta_len : meta_cap - 1;
        memcpy(meta, s.p + s.at, k);
        meta[k] = 0;
    }
    s.at += (size_t)meta_len;
    if (memcmp(s.p + s.at, "\nweights\n", 9) != 0)
        return BS_EINVAL;
    s.at += 9;
    size_t body = s.at;
    bs_model *m;
    int st = bs_model_new_shape(&m, (int)rows, (int)cols, group, (int)phases, features, (unsigned)dirs);
    if (st != BS_OK) {
        *why = st == BS_ENOMEM ? "out of memory" : "a damaged header";
        return st;
    }
    if (m->layout != (uint32_t)layout) {
        *why = "patterns made by another version of the generator";
        bs_model_free(m);
        return BS_EINVAL;
    }
    *why = "a truncated or damaged file";
    for (int p = 0; p < m->phases; p++) {
        int32_t *sc = m->scalar + (size_t)p * (1 + BS_MODEL_SCALARS);
        for (int i = 0; i < 1 + BS_MODEL_SCALARS; i++)
            if (!get_i32(&s, &sc[i]) || sc[i] > BS_PAT_MAX_VALUE || sc[i] < -BS_PAT_MAX_VALUE) {
                bs_model_free(m);
                return BS_EINVAL;
            }
        int16_t *w = m->w + (size_t)p * m->per_phase;
        for (size_t i = 0; i < m->per_phase;) {
            unsigned u;
            if (!get_u16(&s, &u)) {
                bs_model_free(m);
                return BS_EINVAL;
            }
            if (u == 0x8000u) {
                unsigned run;
                if (!get_u16(&s, &run) || run == 0 || run > m->per_phase - i) {
                    bs_model_free(m);
                    return BS_EINVAL;
                }
                i += run; /* already zero */
            } else {
                w[i++] = (int16_t)(u >= 0x8000u ? (int)u - 0x10000 : (int)u);
            }
        }
    }
    size_t checked = s.at;
    int32_t check;
    size_t from = version == 1 ? body : 0; /* version 1 checked the weights only */
    if (!get_i32(&s, &check) || (uint32_t)check != bs_pat_fnv(2166136261u, s.p + from, checked - from) || s.at != s.len) {
        bs_model_free(m);
        return BS_EINVAL;
    }
    *why = NULL;
    *out = m;
    return BS_OK;
}
