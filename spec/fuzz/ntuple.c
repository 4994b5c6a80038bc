/* ntuple.c - libFuzzer target: the n-tuple evaluation of described games
 * (dgame_ntuple.h), its shapes and its file. A first byte with bit 0 clear:
 * the rest is a file; when dg_ntuple_load takes it, its save loads again to
 * the same save (a load makes the entries of a window's turned patterns
 * equal, once). Bit 0 set: a fuzzed shape (tables by position, by shape or
 * both, under a fuzzed set of maps), which dg_ntuple_new makes or refuses;
 * a made one, with fuzzed weights, saves, loads and saves the same, and
 * with a fuzzed byte changed is refused or loads, never crashing. */
#include <string.h>

#include "dgame_ntuple.h"
#include "fuzz_input.h"
#include "pattern.h"

static unsigned char *save_all(const dg_ntuple *nt, size_t *len)
{
    *len = dg_ntuple_saved_size(nt);
    unsigned char *buf = malloc(*len);
    FZ_CHECK(buf != NULL);
    dg_ntuple_save(nt, buf);
    return buf;
}

/* nt (loaded: its turned entries already equal) saves, loads and saves the same. */
static void round_trip(const dg_ntuple *nt)
{
    size_t len, len2;
    unsigned char *buf = save_all(nt, &len);
    dg_ntuple *back = NULL;
    char why[120];
    FZ_CHECK(dg_ntuple_load(&back, buf, len, why, sizeof why) == BS_OK);
    unsigned char *buf2 = save_all(back, &len2);
    FZ_CHECK(len == len2 && memcmp(buf, buf2, len) == 0);
    FZ_CHECK(dg_ntuple_instances(back) == dg_ntuple_instances(nt) && dg_ntuple_tables(back) == dg_ntuple_tables(nt));
    FZ_CHECK(dg_ntuple_tables(nt) >= 1 && dg_ntuple_tables(nt) <= 2 * dg_ntuple_instances(nt));
    free(buf);
    free(buf2);
    dg_ntuple_free(back);
}

static void from_file(const uint8_t *data, size_t size)
{
    dg_ntuple *nt = NULL;
    char why[120] = "";
    int st = dg_ntuple_load(&nt, data, size, why, sizeof why);
    if (st != BS_OK) {
        FZ_CHECK(nt == NULL && (st == BS_ENOMEM || why[0] != '\0'));
        return;
    }
    round_trip(nt);
    dg_ntuple_free(nt);
}

static void from_shape(fz_in *in)
{
    dg_ntuple_shape sh;
    sh.rows = fz_range(in, 0, 9);
    sh.cols = (fz_u8(in) & 1u) ? sh.rows : fz_range(in, 0, 9);
    sh.kinds = fz_range(in, 0, 3);
    sh.length = fz_range(in, 0, 7);
    sh.squares = fz_range(in, 0, 2);
    sh.phases = fz_range(in, 0, 3);
    sh.hand_scale = fz_range(in, 0, 1000);
    sh.sides = fz_range(in, 0, 3);
    sh.link = fz_range(in, 0, 2);
    sh.symmetry = fz_u8(in);
    if (fz_u8(in) & 1u)
        sh.symmetry = bs_sym_closure(sh.symmetry); /* mostly a group, sometimes any set */
    sh.share = fz_range(in, 0, 3);
    dg_ntuple *nt = NULL;
    int st = dg_ntuple_new(&nt, &sh);
    if (st != BS_OK) {
        FZ_CHECK(nt == NULL);
        return;
    }
    float *w = dg_ntuple_weights(nt);
    size_t count = dg_ntuple_weight_count(nt);
    for (size_t i = 0; fz_more(in) && i < count; i++)
        w[i] = (float)((int)fz_u8(in) - 128) / 16.0f;
    size_t len;
    unsigned char *buf = save_all(nt, &len);
    dg_ntuple *loaded = NULL;
    char why[120];
    FZ_CHECK(dg_ntuple_load(&loaded, buf, len, why, sizeof why) == BS_OK);
    round_trip(loaded);
    size_t at = fz_u32(in) % len;
    buf[at] ^= (unsigned char)(fz_u8(in) | 1u);
    dg_ntuple *changed = NULL;
    if (dg_ntuple_load(&changed, buf, len, why, sizeof why) == BS_OK)
        dg_ntuple_free(changed);
    free(buf);
    dg_ntuple_free(loaded);
    dg_ntuple_free(nt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
