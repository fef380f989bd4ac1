/* test_inject.c -- every kernel run from the largest accumulator its
 *                  invariants allow, against a big-integer reference
 *                  (test builds only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * The kernels' comments claim bounds on h between calls (test/unit/bounds.c
 * recomputes them); all-0xff keys and messages reach them only along one
 * path.  Here each kernel's state gets h set directly, through the
 * test-only injection point (test/kernels/inject.h), to the largest limbs
 * the claims allow, in every form the kernel keeps h in between calls
 * (radix 2^64, radix 2^26, unmerged vector lanes), on a fresh state and
 * on states whose powers of r exist; then blocks of all 0xff in calls of
 * one block, a group, several groups, partial groups, a stream of calls,
 * with and without a padded tail, under the clamped maximum r and s of
 * all 0xff.  The tag is compared with one computed here from the integer
 * the injected limbs represent (not reduced: the kernels take h
 * unreduced), by a small bignum independent of the library.
 *
 * Over the bounds (a limb that wraps its register) the comparison must
 * see a wrong tag: the last test injects such values and expects
 * mismatches, so this test can fail.
 */
#include "../common.h"
#include "util.h"
#include "registry.h"
#include "dispatch.h"
#include "core.h"
#include "../kernels/inject.h"

#ifndef POLYMAC_TEST_KERNELS
#error "test_inject needs a build with -Dtest_kernels=true"
#endif

/* ---- reference arithmetic: 32-bit limbs, values below 2^384 ---- */
#define BN 12
typedef struct {
    uint32_t w[BN];
} bn;

static bn bn_zero(void)
{
    bn a;
    memset(&a, 0, sizeof a);
    return a;
}

/* a += v 2^shift */
static void bn_add_shift(bn *a, uint64_t v, unsigned shift)
{
    unsigned i = shift / 32, s = shift % 32;
    unsigned __int128 t = (unsigned __int128)v << s;
    uint64_t c = 0;
    for (; i < BN; i++) {
        uint64_t x = (uint64_t)a->w[i] + (uint32_t)t + c;
        a->w[i] = (uint32_t)x;
        c = x >> 32;
        t >>= 32;
        if (t == 0 && c == 0)
            break;
    }
    ck_assert_msg(t == 0 && c == 0, "reference overflow");
}

static void bn_add(bn *a, const bn *b)
{
    for (unsigned i = 0; i < BN; i++)
        bn_add_shift(a, b->w[i], 32 * i);
}

/* a mod p, p = 2^130 - 5, fully reduced */
static bn bn_modp(bn a)
{
    for (;;) {
        int high = (a.w[4] >> 2) != 0;
        for (unsigned i = 5; i < BN; i++)
            high |= a.w[i] != 0;
        if (!high)
            break;
        bn hi = bn_zero(), lo = a;           /* a = lo + 2^130 hi == lo + 5 hi */
        for (unsigned i = 0; i + 4 < BN; i++) {
            uint64_t x = ((uint64_t)a.w[i + 4] >> 2)
                         | (i + 5 < BN ? (uint64_t)a.w[i + 5] << 30 : 0);
            hi.w[i] = (uint32_t)x;
        }
        lo.w[4] &= 3;
        for (unsigned i = 5; i < BN; i++)
            lo.w[i] = 0;
        for (unsigned i = 0; i < BN; i++)
            if (hi.w[i])
                bn_add_shift(&lo, (uint64_t)hi.w[i] * 5, 32 * i);
        a = lo;
    }
    /* a < 2^130: subtract p once if a >= p, i.e. if a + 5 reaches 2^130 */
    bn g = a;
    bn_add_shift(&g, 5, 0);
    if (g.w[4] >> 2) {
        g.w[4] &= 3;
        a = g;
    }
    return a;
}

static bn bn_mulmod(const bn *a, const bn *b)
{
    uint64_t acc[2 * BN + 1];
    memset(acc, 0, sizeof acc);
    bn x = bn_modp(*a), y = bn_modp(*b);
    for (unsigned i = 0; i < 5; i++)
        for (unsigned j = 0; j < 5; j++) {
            uint64_t p = (uint64_t)x.w[i] * y.w[j];
            unsigned k = i + j;
            uint64_t lo = acc[k] + (uint32_t)p;
            acc[k] = (uint32_t)lo;
            uint64_t c = (lo >> 32) + (p >> 32);
            for (k++; c; k++) {
                uint64_t s = acc[k] + c;
                acc[k] = (uint32_t)s;
                c = s >> 32;
            }
        }
    bn o;
    for (unsigned i = 0; i < BN; i++)
        o.w[i] = (uint32_t)acc[i];
    return bn_modp(o);
}

static bn bn_powmod(const bn *r, unsigned e)
{
    bn o = bn_zero();
    o.w[0] = 1;
    while (e--)
        o = bn_mulmod(&o, r);
    return o;
}

static bn bn_bytes(const uint8_t *b, size_t n)
{
    bn a = bn_zero();
    for (size_t i = 0; i < n; i++)
        bn_add_shift(&a, b[i], 8 * (unsigned)i);
    return a;
}

/* ---- the key, the messages ---- */
static const uint8_t RMAX[16] = {0xff, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f,
                                 0xfc, 0xff, 0xff, 0x0f, 0xfc, 0xff, 0xff, 0x0f};
static uint8_t S[16];
static uint8_t FF[16 * 512];
#define TAIL 13                        /* bytes in the padded last block */

/* the value h represents, from limbs of the given form */
static bn value_of(const struct polymac_test_h *h, const char *kname)
{
    bn v = bn_zero();
    bn r = bn_bytes(RMAX, 16);
    if (h->form == POLYMAC_TEST_R64) {
        for (unsigned i = 0; i < 3; i++)
            bn_add_shift(&v, h->v[i], 64 * i);
    } else if (h->form == POLYMAC_TEST_R26) {
        for (unsigned i = 0; i < 5; i++)
            bn_add_shift(&v, h->v[i], 26 * i);
    } else if (strcmp(kname, "x86-avx2") == 0) {
        /* lanes in the loads' order 0, 2, 1, 3: lane j's blocks still to
         * be multiplied by r^4, r^2, r^3, r (lib/x86/r26vec.h, table4) */
        static const unsigned w[4] = {4, 2, 3, 1};
        for (unsigned j = 0; j < 4; j++) {
            bn l = bn_zero();
            for (unsigned i = 0; i < 5; i++)
                bn_add_shift(&l, h->v[i * 4 + j], 26 * i);
            bn pw = bn_powmod(&r, w[j]);
            bn t = bn_mulmod(&l, &pw);
            bn_add(&v, &t);
        }
    } else if (strcmp(kname, "x86-avx512ifma") == 0) {
        /* lane j (set j / 8) by r^(16 - j), the whole by r^t, plus the
         * pending radix-2^64 part (poly1305_x86_avx512ifma.c, pw and v) */
        for (unsigned j = 0; j < 16; j++) {
            bn l = bn_zero();
            for (unsigned i = 0; i < 3; i++)
                bn_add_shift(&l, h->v[i * 16 + j], 44 * i);
            bn pw = bn_powmod(&r, 16 - j + h->t);
            bn t = bn_mulmod(&l, &pw);
            bn_add(&v, &t);
        }
        if (h->pending)
            for (unsigned i = 0; i < 3; i++)
                bn_add_shift(&v, h->x[i], 64 * i);
    } else {
        ck_abort_msg("%s: lanes of unknown shape", kname);
    }
    return v;
}

/* the calls after the injection: block counts, 0 ends */
static const size_t seqs[][8] = {
    {0}, {1}, {3}, {4}, {8}, {15}, {16}, {17}, {23}, {32}, {35}, {64}, {141},
    {16, 16, 1, 16, 3, 48, 0}, {4, 4, 5, 8, 0}, {1, 1, 2, 0},
};
#define NSEQ (sizeof seqs / sizeof seqs[0])

/* expected tag after h = v, the calls of seq, and a tail if tail */
static void reference(uint8_t tag[16], bn h, const size_t *seq, int tail)
{
    bn r = bn_bytes(RMAX, 16), m = bn_zero();
    bn_add_shift(&m, UINT64_MAX, 0);
    bn_add_shift(&m, UINT64_MAX, 64);
    bn_add_shift(&m, 1, 128);                 /* a block of 0xff, hibit */
    for (; *seq; seq++)
        for (size_t b = 0; b < *seq; b++) {
            bn_add(&h, &m);
            h = bn_mulmod(&h, &r);
        }
    if (tail) {
        uint8_t last[16];
        memset(last, 0, 16);
        memset(last, 0xff, TAIL);
        last[TAIL] = 1;
        bn l = bn_bytes(last, 16);
        bn_add(&h, &l);
        h = bn_mulmod(&h, &r);
    }
    h = bn_modp(h);
    bn s = bn_bytes(S, 16);
    bn_add(&h, &s);
    for (unsigned i = 0; i < 4; i++)
        polymac_store32le(tag + 4 * i, h.w[i]);
}

/* ---- the states: how the kernel is warmed before the injection ---- */
static const size_t warmups[][3] = {
    {0},           /* fresh: no powers */
    {256, 0},      /* a long call: every power a kernel makes */
    /* scalar blocks, then a short vector call (AVX2: r^4 only): 20 blocks
     * reach every break-even row's AVX2 warm value (lib/x86/tuning.c) and
     * stay below its R8, and 32 + 20 its cold one */
    {32, 20, 0},
    /* and a warm call of whole groups (live lanes): a multiple of 16
     * (IFMA's groups) at least every row's warm values */
    {256, 32, 0},
};
#define NWARM (sizeof warmups / sizeof warmups[0])

/* runs one case; returns 1 if the kernel took the injection, and sets
 * *match to whether the tag was the reference's */
static int run_case(const struct polymac_kernel *k, unsigned warm,
                    const struct polymac_test_h *h, unsigned seq, int tail, int *match)
{
    _Alignas(POLYMAC_KS_ALIGN) unsigned char ks[POLYMAC_KS_BYTES];
    uint8_t tag[16], want[16];
    k->init(ks, RMAX);
    for (const size_t *w = warmups[warm]; *w; w++)
        k->blocks(ks, FF, *w, 1);
    if (polymac_test_set_h(k, ks, h) != 0) {
        k->emit(ks, tag, S);
        return 0;
    }
    for (const size_t *n = seqs[seq]; *n; n++)
        k->blocks(ks, FF, *n, 1);
    if (tail) {
        uint8_t last[16];
        polymac_pad_last(last, FF, TAIL);
        k->blocks(ks, last, 1, 0);
    }
    k->emit(ks, tag, S);
    reference(want, value_of(h, k->name), seqs[seq], tail);
    *match = memcmp(tag, want, 16) == 0;
    return 1;
}

/* ---- the largest h each form allows (the claims, with their sources) ---- */
#define M64 UINT64_MAX
#define P2(k) ((uint64_t)1 << (k))

static struct polymac_test_h r64_max(uint64_t h2)
{
    /* r64.h: h0, h1 any 64-bit value, h2 < 2^63 between blocks */
    struct polymac_test_h h = {.form = POLYMAC_TEST_R64, .v = {M64, M64, h2}};
    return h;
}

/* the forms and values to inject into kernel k (up to 8) */
static unsigned injections(const struct polymac_kernel *k, struct polymac_test_h out[8])
{
    unsigned n = 0;
    out[n++] = r64_max(P2(63) - 1);
    out[n++] = r64_max(4);                 /* h2 as a fold leaves it */
    if (strncmp(k->name, "generic-r26", 11) == 0) {
        /* r26.h, polymac_r26_carry: limbs below 2^26 except h[1], up to
         * 2^26 + 2^6 */
        struct polymac_test_h h = {.form = POLYMAC_TEST_R26,
                                   .v = {P2(26) - 1, P2(26) + P2(6), P2(26) - 1,
                                         P2(26) - 1, P2(26) - 1}};
        out[n++] = h;
    } else {
        /* r26vec.h, polymac_r26vec_carry_out: limbs below 2^26 except
         * limb 1, below 2^26 + 2^12 */
        struct polymac_test_h h = {.form = POLYMAC_TEST_R26,
                                   .v = {P2(26) - 1, P2(26) + P2(12) - 1, P2(26) - 1,
                                         P2(26) - 1, P2(26) - 1}};
        out[n++] = h;
    }
    if (strcmp(k->name, "x86-avx2") == 0) {
        /* r26vec.h, core4: lanes are stored as they enter a product, h + m:
         * h below 2^26 + 2^10 after a vector chain (two-group loop), message
         * limbs below 2^26 (the top one below 2^25 with hibit); lane 0 may
         * instead be h26 + m with h26 from carry_out (limb 1 below
         * 2^26 + 2^12) or from to26 (top limb below 5 2^24) */
        struct polymac_test_h h = {.form = POLYMAC_TEST_LANES};
        for (unsigned j = 0; j < 4; j++)
            for (unsigned i = 0; i < 5; i++)
                h.v[i * 4 + j] = (P2(26) + P2(10) - 1) + (i < 4 ? P2(26) - 1 : P2(25) - 1);
        h.v[1 * 4 + 0] = (P2(26) + P2(12) - 1) + (P2(26) - 1);
        out[n++] = h;
    }
    if (strcmp(k->name, "x86-avx512ifma") == 0) {
        /* poly1305_x86_avx512ifma.c, carry analysis: lanes leave
         * ifma_mulred below 2^44, 2^44 + 2^6, 2^42; */
        struct polymac_test_h a = {.form = POLYMAC_TEST_LANES};
        for (unsigned j = 0; j < 16; j++) {
            a.v[0 * 16 + j] = P2(44) - 1;
            a.v[1 * 16 + j] = P2(44) + P2(6) - 1;
            a.v[2 * 16 + j] = P2(42) - 1;
        }
        out[n++] = a;
        /* ... with t up to 15 and a pending radix-2^64 part (ifma_short) */
        a.t = 15;
        a.pending = 1;
        a.x[0] = M64;
        a.x[1] = M64;
        a.x[2] = P2(63) - 1;
        out[n++] = a;
        a.t = 1;
        out[n++] = a;
        /* ... or, before any product (one group, no loop), lane 0 is h
         * from radix 2^64 (below 2^44, 2^44, 2^43) plus a message (below
         * 2^44, 2^44, 2^41), the other lanes messages */
        struct polymac_test_h b = {.form = POLYMAC_TEST_LANES};
        for (unsigned j = 0; j < 16; j++) {
            b.v[0 * 16 + j] = P2(44) - 1;
            b.v[1 * 16 + j] = P2(44) - 1;
            b.v[2 * 16 + j] = P2(41) - 1;
        }
        b.v[0 * 16] = 2 * (P2(44) - 1);
        b.v[1 * 16] = 2 * (P2(44) - 1);
        b.v[2 * 16] = (P2(43) - 1) + (P2(41) - 1);
        out[n++] = b;
    }
    return n;
}

/* the kernels this build has: the library's registry, less its
 * deliberately broken test kernels (a wrong tag is their point) and those
 * this CPU cannot run, which are reported as skipped (NULL) */
static const struct polymac_kernel *kernel_under_test(int i)
{
    const struct polymac_kernel *k = polymac_registry[i];
    if (strncmp(k->name, "test-", 5) == 0) {
        printf("SKIP %s: a deliberately broken kernel\n", k->name);
        return NULL;
    }
    if (!polymac_kernel_at((unsigned)i)) {
        printf("SKIP %s: this CPU cannot run it\n", k->name);
        return NULL;
    }
    return k;
}

/* the forms a kernel must take, by the state it is in: a kernel that
 * keeps h in a form must accept it, so that a broken injection point
 * cannot pass by refusing everything */
static int must_take(const struct polymac_kernel *k, unsigned warm, int form)
{
    const char *n = k->name;
    int r26 = strncmp(n, "generic-r26", 11) == 0;
    int x86 = strcmp(n, "x86-avx2") == 0 || strcmp(n, "x86-avx512") == 0
              || strcmp(n, "x86-avx512ifma") == 0;
    /* the kernels with an injection point; the others (NEON, POWER,
     * s390x) have none yet and are reported as skipped */
    if (!r26 && !x86 && strcmp(n, "generic-r64") != 0)
        return 0;
    if (form == POLYMAC_TEST_R64)
        return !r26;
    if (form == POLYMAC_TEST_R26)
        return r26 || strcmp(n, "x86-avx2") == 0 || strcmp(n, "x86-avx512") == 0;
    return x86 && warm > 0 && strcmp(n, "x86-avx512") != 0;
}

START_TEST(test_largest_h)
{
    const struct polymac_kernel *k = kernel_under_test(_i);
    if (!k)
        return;
    struct polymac_test_h inj[8];
    unsigned ninj = injections(k, inj), cases = 0;
    for (unsigned warm = 0; warm < NWARM; warm++)
        for (unsigned f = 0; f < ninj; f++) {
            int took_any = 0;
            for (unsigned s = 0; s < NSEQ; s++)
                for (int tail = 0; tail < 2; tail++) {
                    int match = 0;
                    if (!run_case(k, warm, &inj[f], s, tail, &match))
                        continue;
                    took_any = 1;
                    cases++;
                    ck_assert_msg(match, "%s: wrong tag from injected h (warm-up %u, "
                                  "form %d, value %u, calls %u, tail %d)",
                                  k->name, warm, inj[f].form, f, s, tail);
                }
            if (!took_any && must_take(k, warm, inj[f].form))
                ck_abort_msg("%s: no injection of form %d after warm-up %u", k->name,
                             inj[f].form, warm);
        }
    if (cases == 0)
        printf("SKIP %s: no injection point\n", k->name);
    else
        printf("ok %s: %u cases from the largest h\n", k->name, cases);
}
END_TEST

/* Over the bounds, the comparison sees it: a limb that wraps its register
 * (h2 + carry + hibit past 2^64 in radix 2^64, a radix-2^26 limb past
 * 2^32, an AVX2 lane limb past vpmuludq's 32 bits, an IFMA lane limb past
 * vpmadd52's 52) gives a tag other than the reference's. */
START_TEST(test_over_bounds_fail)
{
    const struct polymac_kernel *k = kernel_under_test(_i);
    if (!k)
        return;
    struct polymac_test_h over[3];
    unsigned n = 0;
    over[n++] = r64_max(M64);
    struct polymac_test_h r26 = {.form = POLYMAC_TEST_R26,
                                 .v = {P2(26) - 1, P2(26) - 1, P2(32) - 1, P2(26) - 1,
                                       P2(26) - 1}};
    if (strncmp(k->name, "generic-r26", 11) != 0)
        r26.v[2] = P2(33);       /* the vector kernels' h26 is 64-bit */
    over[n++] = r26;
    struct polymac_test_h lanes = {.form = POLYMAC_TEST_LANES};
    if (strcmp(k->name, "x86-avx2") == 0)
        lanes.v[2 * 4 + 1] = P2(32) + 7;
    else
        lanes.v[1 * 16 + 3] = P2(52) + 7;
    over[n++] = lanes;
    /* on a state with powers, so that 32 blocks (above every break-even
     * row's warm values, lib/x86/tuning.c) run the vector code (on a fresh
     * one the scalar code would take h26 through polymac_r64_from_r26,
     * which accepts limbs of 63 bits) */
    unsigned cases = 0, wrong = 0;
    for (unsigned f = 0; f < n; f++) {
        int match = 1;
        if (run_case(k, 1, &over[f], 9, 1, &match)) {   /* 32 blocks and a tail */
            cases++;
            wrong += !match;
        }
    }
    if (cases == 0) {
        printf("SKIP %s: no injection point\n", k->name);
        return;
    }
    ck_assert_msg(wrong == cases, "%s: %u of %u over-bound injections gave the "
                  "reference's tag", k->name, cases - wrong, cases);
    printf("ok %s: %u over-bound injections, every tag wrong\n", k->name, cases);
}
END_TEST

int main(void)
{
    memset(FF, 0xff, sizeof FF);
    memset(S, 0xff, sizeof S);
    Suite *s = suite_create("inject");
    TCase *tc = tcase_create("largest h");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_largest_h, 0, (int)polymac_registry_size);
    tcase_add_loop_test(tc, test_over_bounds_fail, 0, (int)polymac_registry_size);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_VERBOSE);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
