/* perft.c - libFuzzer target: perft at small depths on fuzzed boards with
 * blocks and direction masks. bs_perft by the 8 x 8 words (when it applies)
 * and by the wide lanes must agree with bs_perft_reference, bs_perft64 with
 * every implementation, and the count must not change when the board and the
 * masks are transposed. Out-of-range arguments must give BS_EINVAL. */
#include "fuzz_input.h"
#include "perft.h"
#include "simd64.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size, 0};
    unsigned mode = fz_u8(&in);
    bs_board b;
    fz_board(&in, &b, (mode & 1u) ? 8 : 12, 1);
    int player = 1 + (int)(fz_u8(&in) & 1u);
    unsigned legal = fz_dirs(&in), flip = fz_dirs(&in);
    /* depth kept tiny for speed; 8 x 8 with every direction goes a ply deeper */
    int max_depth = b.n <= 6 ? 3 : 2;
    int depth = (int)(fz_u8(&in) % (unsigned)(max_depth + 1));
    if ((mode & 0x80u) && (mode & 0x40u))
        depth = (int)fz_u32(&in); /* any depth: only the argument checks run */
    int good = legal <= BS_DIRS_ALL && flip <= BS_DIRS_ALL && depth >= 0 && depth <= BS_PERFT64_MAX_DEPTH; /* perft.c has the same bound */
    uint64_t fast = 0, wide = 0, ref = 0;
    int s1 = BS_EINVAL, s2 = BS_EINVAL, s3 = BS_EINVAL;
    if (!good || depth <= max_depth) {
        s1 = bs_perft(&b, player, depth, legal, flip, false, &fast);
        s2 = bs_perft(&b, player, depth, legal, flip, true, &wide);
        s3 = bs_perft_reference(&b, player, depth, legal, flip, &ref);
        FZ_CHECK(s1 == s2 && s2 == s3);
        FZ_CHECK(good ? s1 == BS_OK : s1 == BS_EINVAL);
    }
    uint64_t dummy;
    FZ_CHECK(bs_perft(&b, 0, 1, BS_DIRS_ALL, BS_DIRS_ALL, false, &dummy) == BS_EINVAL);
    FZ_CHECK(bs_perft(&b, player, -1, BS_DIRS_ALL, BS_DIRS_ALL, true, &dummy) == BS_EINVAL);
    FZ_CHECK(bs_perft(&b, player, 1, BS_DIRS_ALL, BS_DIRS_ALL, true, NULL) == BS_EINVAL);
    if (s1 != BS_OK)
        return 0;
    if (fast != wide || fast != ref)
        fprintf(stderr, "n %d depth %d legal %u flip %u: fast %llu wide %llu reference %llu\n", b.n, depth, legal, flip,
                (unsigned long long)fast, (unsigned long long)wide, (unsigned long long)ref);
    FZ_CHECK(fast == wide);
    FZ_CHECK(fast == ref);
    bs_board t;
    fz_transpose(&b, &t);
    uint64_t tl;
    FZ_CHECK(bs_perft(&t, player, depth, fz_transpose_dirs(legal), fz_transpose_dirs(flip), false, &tl) ==
             BS_OK);
    FZ_CHECK(tl == wide);
    if (b.n == 8) {
        uint64_t mine = bs_pack64(b.plane[player - 1]), theirs = bs_pack64(b.plane[bs_opponent(player) - 1]);
        uint64_t blocks = bs_pack64(b.plane[2]);
        uint64_t want, got;
        FZ_CHECK(bs_perft(&b, player, depth, BS_DIRS_ALL, BS_DIRS_ALL, true, &want) == BS_OK);
        FZ_CHECK(bs_perft64(mine, theirs, blocks, depth, BS_IMPL64_SCALAR, &got) == BS_OK && got == want);
        FZ_CHECK(bs_perft64(mine, theirs, blocks, depth, BS_IMPL64_AUTO, &got) == BS_OK && got == want);
        if (bs_avx2_available())
            FZ_CHECK(bs_perft64(mine, theirs, blocks, depth, BS_IMPL64_AVX2, &got) == BS_OK && got == want);
        else
            FZ_CHECK(bs_perft64(mine, theirs, blocks, depth, BS_IMPL64_AVX2, &got) == BS_EINVAL);
        FZ_CHECK(bs_perft64(mine, theirs, blocks, depth, 3, &got) == BS_EINVAL);
        if (mine | theirs)
            FZ_CHECK(bs_perft64(mine | theirs, mine | theirs, blocks, depth, BS_IMPL64_SCALAR, &got) ==
                     BS_EINVAL);
    }
    return 0;
}
