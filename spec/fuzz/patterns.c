/* patterns.c - libFuzzer target: the learned evaluation's shapes, symmetry
 * groups and files (pattern.h). A first byte with bit 0 clear: the rest is an
 * evaluation file; when bs_model_load takes it, the model's save loads to the
 * same save, and it evaluates a board of its shape. Bit 0 set: a model of
 * fuzzed rows, cols (3..10) and group, which bs_model_new_shape makes exactly
 * when the group is one of that shape: its instances lie on the rows x cols
 * board, with random tied weights the value of a fuzzed board is the same on
 * its image by every map of the group, the 8 x 8 word path agrees with the
 * evaluation, and its file round-trips and is refused (or loads) with a
 * fuzzed byte changed, never crashing. */
#include <string.h>

#include "fuzz_input.h"
#include "pattern.h"
#include "pattern_impl.h"

/* b's image by map `which` (enum bs_sym_map) of its shape. */
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

static unsigned char *save_all(const bs_model *m, size_t *len)
{
    *len = bs_model_save(m, "fuzz", NULL, 0);
    unsigned char *buf = malloc(*len);
    FZ_CHECK(buf != NULL);
    FZ_CHECK(bs_model_save(m, "fuzz", buf, *len) == *len);
    return buf;
}

static void from_file(const uint8_t *data, size_t size)
{
    bs_model *m = NULL;
    const char *why = NULL;
    char meta[64];
    int st = bs_model_load(&m, data, size, meta, sizeof meta, &why);
    if (st != BS_OK) {
        FZ_CHECK(m == NULL && why != NULL);
        return;
    }
    size_t len, len2;
    unsigned char *buf = save_all(m, &len);
    bs_model *back = NULL;
    FZ_CHECK(bs_model_load(&back, buf, len, NULL, 0, NULL) == BS_OK);
    unsigned char *buf2 = save_all(back, &len2);
    FZ_CHECK(len == len2 && memcmp(buf, buf2, len) == 0);
    int rows, cols;
    bs_model_shape(m, &rows, &cols);
    bs_board b;
    FZ_CHECK(bs_board_init_shape(&b, rows, cols) == BS_OK);
    FZ_CHECK(bs_model_evaluate(m, &b, BS_BLACK) == bs_model_evaluate(back, &b, BS_BLACK));
    free(buf);
    free(buf2);
    bs_model_free(back);
    bs_model_free(m);
}

static void from_shape(fz_in *in)
{
    int rows = fz_range(in, 1, 11), cols = (fz_u8(in) & 1u) ? rows : fz_range(in, 1, 11);
    unsigned group = fz_u8(in);
    if (fz_u8(in) & 1u)
        group = bs_sym_closure(group); /* mostly a group, sometimes any set */
    unsigned features = fz_u8(in) & BS_FEAT_ALL, dirs = (fz_u8(in) & 1u) ? BS_DIRS_ALL : fz_u8(in);
    bool good = rows >= 3 && cols >= 3 && (group & 1u) &&
                bs_sym_closure(group) == group && (rows == cols || (group & ~BS_SYM_RECT) == 0);
    bs_model *m = NULL;
    int st = bs_model_new_shape(&m, rows, cols, group, 1, features, dirs);
    FZ_CHECK(good ? st == BS_OK && m != NULL : st == BS_EINVAL && m == NULL);
    if (!m)
        return;
    bs_model_info info;
    bs_model_describe(m, &info);
    FZ_CHECK(info.rows == rows && info.cols == cols && info.group == group && info.instances <= BS_MODEL_MAX_INSTANCES);
    for (int i = 0; i < info.instances; i++) {
        int cells[BS_MODEL_MAX_CELLS], shape;
        int k = bs_model_instance(m, i, &shape, cells);
        FZ_CHECK(k >= 2 && shape >= 0 && shape < info.shapes);
        for (int j = 0; j < k; j++)
            FZ_CHECK(cells[j] / BS_MAX_N < rows && cells[j] % BS_MAX_N < cols);
    }
    bs_board b, g;
    FZ_CHECK(bs_board_init_shape(&b, rows, cols) == BS_OK);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            FZ_CHECK(bs_board_set(&b, r, c, (int)(fz_u8(in) & 3u)) == BS_OK);
    /* random weights from a fuzzed seed, tied: the entries the board and its
     * images read are a hash of their canonical entry (filling every table
     * is too slow to fuzz) */
    uint32_t seed = fz_u32(in);
    for (int s = 0; s < 8; s++) {
        if (!(group >> s & 1u))
            continue;
        map_board(&b, s, &g);
        for (int who = BS_BLACK; who <= BS_WHITE; who++) {
            uint16_t idx[BS_MODEL_MAX_INSTANCES];
            bs_pat_indices(m, &g, who, idx);
            for (int i = 0; i < m->ninst; i++) {
                int shape = m->inst[i].shape;
                uint32_t h = bs_pat_fnv(seed, &shape, sizeof shape);
                int canonical = bs_pat_canonical(m, shape, idx[i]);
                h = bs_pat_fnv(h, &canonical, sizeof canonical);
                m->w[m->shape[shape].offset + idx[i]] = (int16_t)((int)(h % 4001u) - 2000);
            }
        }
    }
    for (int j = 0; j < 1 + BS_MODEL_SCALARS; j++)
        m->scalar[j] = (int32_t)(seed >> (j * 4) & 0xffu) - 128;
    int player = 1 + (int)(fz_u8(in) & 1u);
    int v = bs_model_evaluate(m, &b, player);
    /* invariance needs every scalar symmetric: mobility only with every direction */
    if (!(features & BS_FEAT_MOBILITY) || dirs == BS_DIRS_ALL)
        for (int s = 0; s < 8; s++)
            if (group >> s & 1u) {
                map_board(&b, s, &g);
                if (bs_model_evaluate(m, &g, player) != v)
                    fprintf(stderr, "%d x %d group %02x: map %d changes %d to %d\n", rows, cols, group, s, v,
                            bs_model_evaluate(m, &g, player));
                FZ_CHECK(bs_model_evaluate(m, &g, player) == v);
            }
    /* the 8 x 8 word path (the searcher's when every direction counts) */
    if (m->n == 8 && (!(features & BS_FEAT_MOBILITY) || dirs == BS_DIRS_ALL)) {
        bs_pat64 p;
        memset(&p, 0, sizeof p);
        uint64_t black = bs_pack64(b.plane[0]), white = bs_pack64(b.plane[1]), blocks = bs_pack64(b.plane[2]);
        FZ_CHECK(bs_pat64_prepare(&p, m, blocks) == BS_OK);
        uint16_t idx[BS_MODEL_MAX_INSTANCES];
        bs_pat64_indices(&p, black, white, idx);
        uint64_t P = player == BS_BLACK ? black : white, O = player == BS_BLACK ? white : black;
        uint64_t E = ~(P | O | blocks);
        FZ_CHECK(bs_pat64_value(&p, idx, P, O, player == BS_WHITE, bs_moves64(P, O, E), bs_moves64(O, P, E)) == v);
        bs_pat64_release(&p);
    }
    /* the file: round trip, then a byte changed */
    size_t len;
    unsigned char *buf = save_all(m, &len);
    bs_model *back = NULL;
    FZ_CHECK(bs_model_load(&back, buf, len, NULL, 0, NULL) == BS_OK);
    FZ_CHECK(back->layout == m->layout && back->group == group && bs_model_evaluate(back, &b, player) == v);
    bs_model_free(back);
    size_t at = (size_t)fz_u32(in) % len;
    buf[at] ^= (unsigned char)(fz_u8(in) | 1u);
    back = NULL;
    if (bs_model_load(&back, buf, len, NULL, 0, NULL) == BS_OK)
        bs_model_free(back);
    else
        FZ_CHECK(back == NULL);
    free(buf);
    bs_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    if (!(data[0] & 1u)) {
        from_file(data + 1, size - 1);
        return 0;
    }
    fz_in in = {data + 1, size - 1, 0};
    from_shape(&in);
    return 0;
}
