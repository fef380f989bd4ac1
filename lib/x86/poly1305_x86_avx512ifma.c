/* poly1305_x86_avx512ifma.c -- x86-64 kernel: radix 2^44 with AVX-512 IFMA, 16 blocks in flight */
/* SPDX-License-Identifier: MIT */
#include <immintrin.h>

#include "../generic/r64.h"
#include "../kernels.h"

/*
 * Technique (after Goll and Gueron's base-2^44 IFMA paper and the comments
 * of OpenSSL's poly1305-x86_64.pl; the code is our own):
 *
 * h and r^e are three limbs of 44, 44 and 42 bits.  vpmadd52luq/huq add the
 * low and the high 52 bits of a 52x52-bit product to an accumulator, so a
 * block costs 9 product pairs instead of the 25 of radix 2^26.  With
 * 2^132 = 4 * 2^130 == 20 (mod p), the wrapped products use s1 = 20 r1 and
 * s2 = 20 r2:
 *
 *     d0 = h0 r0 + h1 s2 + h2 s1
 *     d1 = h0 r1 + h1 r0 + h2 s2
 *     d2 = h0 r2 + h1 r1 + h2 r0
 *
 * Each d_i arrives as a low half l_i (sum of three 52-bit values) and a high
 * half g_i worth g_i 2^52 = (g_i << 8) 2^44 within its limb.
 *
 * Sixteen blocks are in flight: two sets (A, B) of eight 64-bit lanes.  A
 * lane absorbs every 16th block and multiplies by r^16; the last group of a
 * call is multiplied by r^16..r^1 per lane instead, and the lanes are summed.
 * A leading group of k = nblocks mod 16 blocks goes into the first k lanes
 * and is multiplied by r^k (the lanes without a block hold 0), which lines
 * it up with the full groups that follow.
 *
 * Between calls h always lives in radix 2^64 (struct polymac_r64): the
 * vector path ends with a horizontal sum anyway, and folding its three
 * limbs into radix 2^64 costs a few scalar instructions, so there is no
 * radix flag that a later call could misread.  Short calls run the scalar
 * radix-2^64 code of r64.h unchanged.
 *
 * Carry analysis (all bounds hold for all-0xff keys, messages and h):
 *   - powers r^e are stored normalised: r0 < 2^44, r1 < 2^44 + 2^7,
 *     r2 < 2^42, so s1 < 2^48.4 and s2 < 2^46.4: every multiplier < 2^52.
 *   - lanes leave ifma_mulred with h0 < 2^44, h1 < 2^44 + 2^7, h2 < 2^42;
 *     a message adds m0, m1 < 2^44 and m2 < 2^41, so every multiplicand
 *     t_i < 2^45 < 2^52 (vpmadd52 ignores bits 52 and up: they must be 0).
 *   - then d0 < 2^45 (2^44 + 2^46.4 + 2^48.4) < 2^93.8: g0 < 2^41.8 and
 *     l0 < 3 * 2^52; likewise g1 < 2^40.1, g2 < 2^38.3.
 *   - carries: c0 = (l0 >> 44) + (g0 << 8) < 2^49.9, c1 < 2^48.2 and
 *     c2 = (l2 >> 42) + (g2 << 10) < 2^48.4, so 5 c2 < 2^50.7 and
 *     h0 + 5 c2 < 2^50.8; one more carry h0 -> h1 restores the bounds.
 *     No 64-bit intermediate exceeds 2^55.
 *   - the lane sum of 16 lanes stays below 2^49 per limb, well inside what
 *     polymac_r64_from_r44 accepts (63 bits).
 * The initial h from radix 2^64 has limb 2 < 2^43 (h2 <= 4 between calls),
 * inside the t_i < 2^45 assumption.
 */

#define IFMA_M44 0xfffffffffffULL
#define IFMA_M42 0x3ffffffffffULL

/*
 * Break-even, in blocks, between the scalar radix-2^64 loop and the vector
 * path.  Measured on this machine (AVX-512 IFMA, 2 shared cores) with the
 * one-shot call timed per length (tools in /tmp during development; median
 * of many rounds): see IFMA_MIN_BLOCKS_COLD / _WARM below.
 *   COLD: the first vector call for a key also computes r^1..r^16.
 *   WARM: the powers already exist (a later call of a streamed message).
 * The vector path needs at least 16 blocks (one full group) by
 * construction.
 */
#define IFMA_MIN_BLOCKS_COLD 16
#define IFMA_MIN_BLOCKS_WARM 16

struct ifma_state {
    struct polymac_r64 s;       /* h (live between calls) and r, radix 2^64 */
    uint64_t have_powers;       /* nonzero once pw holds the powers of r */
    uint64_t pad[2];            /* pw starts 64 bytes in: whole-line loads */
    /* pw[set][v][lane]: v = r0, r1, r2, s1, s2 of the power by which that
     * lane's last block is multiplied: set A (0) r^16..r^9, set B (1)
     * r^8..r^1, in the lane order ifma_split produces (see ifma_lane). */
    uint64_t pw[2][5][8];
};

_Static_assert(sizeof(struct ifma_state) <= POLYMAC_KS_BYTES, "state fits");

#define IFMA_INLINE static inline __attribute__((always_inline))

/* Loading 4 blocks per register and interleaving two registers with
 * vpunpck{l,h}qdq puts block b of a group of 8 into lane 2b (b < 4) or
 * 2(b - 4) + 1: lanes hold blocks 0 4 1 5 2 6 3 7. */
IFMA_INLINE unsigned ifma_lane(unsigned b)
{
    return b < 4 ? 2 * b : 2 * (b - 4) + 1;
}

/* 20 x = 16 x + 4 x: the factor that folds 2^132 back below 2^130. */
IFMA_INLINE __m512i ifma_times20(__m512i x)
{
    return _mm512_add_epi64(_mm512_slli_epi64(x, 4), _mm512_slli_epi64(x, 2));
}

/*
 * (h0, h1, h2) = (h0, h1, h2) (r0, r1, r2) mod p, per lane, carried back to
 * h0 < 2^44, h1 < 2^44 + 2^7, h2 < 2^42 (see the analysis at the top).
 * The products of h2 come first and those of h1 last, in the order in which
 * the previous call's carry chain settles them, so consecutive
 * multiplications overlap.
 */
IFMA_INLINE void ifma_mulred(__m512i *h0, __m512i *h1, __m512i *h2,
                             __m512i r0, __m512i r1, __m512i r2,
                             __m512i s1, __m512i s2)
{
    const __m512i z = _mm512_setzero_si512();
    const __m512i t0 = *h0, t1 = *h1, t2 = *h2;

    __m512i l0 = _mm512_madd52lo_epu64(z, t2, s1);
    __m512i g0 = _mm512_madd52hi_epu64(z, t2, s1);
    __m512i l1 = _mm512_madd52lo_epu64(z, t2, s2);
    __m512i g1 = _mm512_madd52hi_epu64(z, t2, s2);
    __m512i l2 = _mm512_madd52lo_epu64(z, t2, r0);
    __m512i g2 = _mm512_madd52hi_epu64(z, t2, r0);

    l0 = _mm512_madd52lo_epu64(l0, t0, r0);
    g0 = _mm512_madd52hi_epu64(g0, t0, r0);
    l1 = _mm512_madd52lo_epu64(l1, t0, r1);
    g1 = _mm512_madd52hi_epu64(g1, t0, r1);
    l2 = _mm512_madd52lo_epu64(l2, t0, r2);
    g2 = _mm512_madd52hi_epu64(g2, t0, r2);

    l0 = _mm512_madd52lo_epu64(l0, t1, s2);
    g0 = _mm512_madd52hi_epu64(g0, t1, s2);
    l1 = _mm512_madd52lo_epu64(l1, t1, r0);
    g1 = _mm512_madd52hi_epu64(g1, t1, r0);
    l2 = _mm512_madd52lo_epu64(l2, t1, r1);
    g2 = _mm512_madd52hi_epu64(g2, t1, r1);

    const __m512i m44 = _mm512_set1_epi64(IFMA_M44);
    const __m512i m42 = _mm512_set1_epi64(IFMA_M42);
    /* Sequential carries d0 -> d1 -> d2 -> (times 5) d0 -> d1.  The high
     * halves are shifted and added off the critical path first. */
    l1 = _mm512_add_epi64(l1, _mm512_slli_epi64(g0, 8));
    l2 = _mm512_add_epi64(l2, _mm512_slli_epi64(g1, 8));
    g2 = _mm512_slli_epi64(g2, 10);

    __m512i a0 = _mm512_and_si512(l0, m44);
    l1 = _mm512_add_epi64(l1, _mm512_srli_epi64(l0, 44));
    __m512i a1 = _mm512_and_si512(l1, m44);
    l2 = _mm512_add_epi64(l2, _mm512_srli_epi64(l1, 44));
    __m512i a2 = _mm512_and_si512(l2, m42);
    __m512i c = _mm512_add_epi64(g2, _mm512_srli_epi64(l2, 42));
    /* bits 130 and up: c 2^130 == 5 c */
    a0 = _mm512_add_epi64(_mm512_add_epi64(a0, c), _mm512_slli_epi64(c, 2));
    a1 = _mm512_add_epi64(a1, _mm512_srli_epi64(a0, 44));
    a0 = _mm512_and_si512(a0, m44);

    *h0 = a0;
    *h1 = a1;
    *h2 = a2;
}

/* Splits two registers of 4 blocks each (x: blocks 0-3, y: 4-7) into the
 * radix-2^44 limbs of 8 lanes (order 0 4 1 5 2 6 3 7); hb is the 2^128 bit
 * of each lane, already shifted to bit 40 of limb 2. */
IFMA_INLINE void ifma_split(__m512i x, __m512i y, __m512i hb,
                            __m512i *m0, __m512i *m1, __m512i *m2)
{
    const __m512i m44 = _mm512_set1_epi64(IFMA_M44);
    __m512i lo = _mm512_unpacklo_epi64(x, y);
    __m512i hi = _mm512_unpackhi_epi64(x, y);
    *m0 = _mm512_and_si512(lo, m44);
    /* (a | b) & c in one vpternlogq: 0xa8 = (0xf0 | 0xcc) & 0xaa */
    *m1 = _mm512_ternarylogic_epi64(_mm512_srli_epi64(lo, 44),
                                    _mm512_slli_epi64(hi, 20), m44, 0xa8);
    *m2 = _mm512_or_si512(_mm512_srli_epi64(hi, 24), hb);
}

/* Adds the 8 blocks at in to the lanes (h0, h1, h2). */
IFMA_INLINE void ifma_absorb(__m512i *h0, __m512i *h1, __m512i *h2,
                             const uint8_t *in, __m512i hb)
{
    __m512i m0, m1, m2;
    ifma_split(_mm512_loadu_si512((const void *)in),
               _mm512_loadu_si512((const void *)(in + 64)), hb, &m0, &m1, &m2);
    *h0 = _mm512_add_epi64(*h0, m0);
    *h1 = _mm512_add_epi64(*h1, m1);
    *h2 = _mm512_add_epi64(*h2, m2);
}

/* Stores the power vectors (r0, r1, r2) of one set, with s1 and s2. */
IFMA_INLINE void ifma_store_set(uint64_t pw[5][8], __m512i r0, __m512i r1,
                                __m512i r2)
{
    _mm512_storeu_si512((void *)pw[0], r0);
    _mm512_storeu_si512((void *)pw[1], r1);
    _mm512_storeu_si512((void *)pw[2], r2);
    _mm512_storeu_si512((void *)pw[3], ifma_times20(r1));
    _mm512_storeu_si512((void *)pw[4], ifma_times20(r2));
}

/*
 * Computes r^1..r^16 in four multiplication rounds, eight lanes wide:
 * r^2; [r, r^2, r, r^2, ...] x [1, 1, r^2, r^2, 1, 1, r^2, r^2] gives
 * r^1..r^4 twice; x [1 x4, r^4 x4] gives r^1..r^8; x r^8 gives r^9..r^16.
 * A factor 1 is the limbs (1, 0, 0) with s = 0: the product is the other
 * factor, normalised.  Called once per key, on the first vector call.
 */
static void ifma_powers(struct ifma_state *st)
{
    const uint64_t lo = st->s.r0, hi = st->s.r1;
    const __m512i z = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i r0 = _mm512_set1_epi64((long long)(lo & IFMA_M44));
    const __m512i r1 = _mm512_set1_epi64((long long)(((lo >> 44) | (hi << 20)) & IFMA_M44));
    const __m512i r2 = _mm512_set1_epi64((long long)(hi >> 24));   /* < 2^36 */

    /* every lane r^2 */
    __m512i q0 = r0, q1 = r1, q2 = r2;
    ifma_mulred(&q0, &q1, &q2, r0, r1, r2, ifma_times20(r1), ifma_times20(r2));

    /* odd lanes r^2, even lanes r; times 1 or r^2 in lane pairs */
    __m512i y0 = _mm512_mask_blend_epi64(0xaa, r0, q0);
    __m512i y1 = _mm512_mask_blend_epi64(0xaa, r1, q1);
    __m512i y2 = _mm512_mask_blend_epi64(0xaa, r2, q2);
    __m512i f0 = _mm512_mask_blend_epi64(0xcc, one, q0);
    __m512i f1 = _mm512_mask_blend_epi64(0xcc, z, q1);
    __m512i f2 = _mm512_mask_blend_epi64(0xcc, z, q2);
    ifma_mulred(&y0, &y1, &y2, f0, f1, f2, ifma_times20(f1), ifma_times20(f2));

    /* y = r^1..r^4, r^1..r^4; times [1 x4, r^4 x4] */
    const __m512i i3 = _mm512_set1_epi64(3);
    f0 = _mm512_mask_blend_epi64(0xf0, one, _mm512_permutexvar_epi64(i3, y0));
    f1 = _mm512_maskz_permutexvar_epi64(0xf0, i3, y1);
    f2 = _mm512_maskz_permutexvar_epi64(0xf0, i3, y2);
    ifma_mulred(&y0, &y1, &y2, f0, f1, f2, ifma_times20(f1), ifma_times20(f2));

    /* y = r^1..r^8 (lane e - 1 holds r^e); x = y r^8 = r^9..r^16 */
    const __m512i i7 = _mm512_set1_epi64(7);
    f0 = _mm512_permutexvar_epi64(i7, y0);
    f1 = _mm512_permutexvar_epi64(i7, y1);
    f2 = _mm512_permutexvar_epi64(i7, y2);
    __m512i x0 = y0, x1 = y1, x2 = y2;
    ifma_mulred(&x0, &x1, &x2, f0, f1, f2, ifma_times20(f1), ifma_times20(f2));

    /* Lane L of set B takes r^(8 - b), b the block it holds (ifma_lane):
     * natural index 7 - b, i.e. 7 3 6 2 5 1 4 0; set A the same of r^9..16. */
    const __m512i perm = _mm512_set_epi64(0, 4, 1, 5, 2, 6, 3, 7);
    ifma_store_set(st->pw[0], _mm512_permutexvar_epi64(perm, x0),
                   _mm512_permutexvar_epi64(perm, x1),
                   _mm512_permutexvar_epi64(perm, x2));
    ifma_store_set(st->pw[1], _mm512_permutexvar_epi64(perm, y0),
                   _mm512_permutexvar_epi64(perm, y1),
                   _mm512_permutexvar_epi64(perm, y2));
}

/* Loads power vector v (0..4) of set (0, 1). */
IFMA_INLINE __m512i ifma_pw(const struct ifma_state *st, unsigned set, unsigned v)
{
    return _mm512_loadu_si512((const void *)st->pw[set][v]);
}

/* Broadcasts r^e, 1 <= e <= 16, from the lane tables (e comes from the
 * caller's block count, never from the state). */
IFMA_INLINE void ifma_bcast_power(const struct ifma_state *st, unsigned e,
                                  __m512i p[5])
{
    unsigned set = e <= 8 ? 1 : 0;
    unsigned lane = ifma_lane(set ? 8 - e : 16 - e);
    for (unsigned v = 0; v < 5; v++)
        p[v] = _mm512_set1_epi64((long long)st->pw[set][v][lane]);
}

/* A qword mask for the first nb (0..4) of the 4 blocks of one register. */
IFMA_INLINE __mmask8 ifma_qmask(size_t nb)
{
    return (__mmask8)((1u << (2 * nb)) - 1);
}

/* The vector path: nblocks >= 16, powers present. */
static void ifma_vector(struct ifma_state *st, const uint8_t *in,
                        size_t nblocks, uint32_t hibit)
{
    const __m512i hb = _mm512_set1_epi64((long long)((uint64_t)hibit << 40));
    size_t k = nblocks % 16, groups = nblocks / 16;
    uint64_t l[3];

    polymac_r64_to_r44(&st->s, l);
    __m512i a0 = _mm512_maskz_set1_epi64(1, (long long)l[0]);
    __m512i a1 = _mm512_maskz_set1_epi64(1, (long long)l[1]);
    __m512i a2 = _mm512_maskz_set1_epi64(1, (long long)l[2]);
    __m512i b0 = _mm512_setzero_si512(), b1 = b0, b2 = b0;
    __m512i p[5];

    if (k) {
        /* Leading partial group: block b < k in the lane of block b, the
         * other lanes (and their 2^128 bits) zero; then times r^k. */
        const __m512i blk = _mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0);
        const __m512i kv = _mm512_set1_epi64((long long)k);
        __m512i m0, m1, m2;
        ifma_bcast_power(st, (unsigned)k, p);

        __m512i x = _mm512_maskz_loadu_epi64(ifma_qmask(k < 4 ? k : 4), in);
        __m512i y = k > 4 ? _mm512_maskz_loadu_epi64(ifma_qmask(k < 8 ? k - 4 : 4), in + 64)
                          : _mm512_setzero_si512();
        ifma_split(x, y, _mm512_maskz_mov_epi64(_mm512_cmplt_epu64_mask(blk, kv), hb),
                   &m0, &m1, &m2);
        a0 = _mm512_add_epi64(a0, m0);
        a1 = _mm512_add_epi64(a1, m1);
        a2 = _mm512_add_epi64(a2, m2);
        ifma_mulred(&a0, &a1, &a2, p[0], p[1], p[2], p[3], p[4]);
        if (k > 8) {
            const size_t kb = k - 8;
            const __m512i kbv = _mm512_set1_epi64((long long)kb);
            x = _mm512_maskz_loadu_epi64(ifma_qmask(kb < 4 ? kb : 4), in + 128);
            y = kb > 4 ? _mm512_maskz_loadu_epi64(ifma_qmask(kb - 4), in + 192)
                       : _mm512_setzero_si512();
            ifma_split(x, y, _mm512_maskz_mov_epi64(_mm512_cmplt_epu64_mask(blk, kbv), hb),
                       &b0, &b1, &b2);
            ifma_mulred(&b0, &b1, &b2, p[0], p[1], p[2], p[3], p[4]);
        }
        in += 16 * k;
    }

    /* Full groups but the last: every lane times r^16. */
    ifma_bcast_power(st, 16, p);
    for (size_t g = 1; g < groups; g++) {
        ifma_absorb(&a0, &a1, &a2, in, hb);
        ifma_absorb(&b0, &b1, &b2, in + 128, hb);
        ifma_mulred(&a0, &a1, &a2, p[0], p[1], p[2], p[3], p[4]);
        ifma_mulred(&b0, &b1, &b2, p[0], p[1], p[2], p[3], p[4]);
        in += 256;
    }

    /* Last group: each lane times the power that brings its block to the
     * end of the message, then the lanes are summed. */
    ifma_absorb(&a0, &a1, &a2, in, hb);
    ifma_absorb(&b0, &b1, &b2, in + 128, hb);
    ifma_mulred(&a0, &a1, &a2, ifma_pw(st, 0, 0), ifma_pw(st, 0, 1),
                ifma_pw(st, 0, 2), ifma_pw(st, 0, 3), ifma_pw(st, 0, 4));
    ifma_mulred(&b0, &b1, &b2, ifma_pw(st, 1, 0), ifma_pw(st, 1, 1),
                ifma_pw(st, 1, 2), ifma_pw(st, 1, 3), ifma_pw(st, 1, 4));
    l[0] = (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(a0, b0));
    l[1] = (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(a1, b1));
    l[2] = (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(a2, b2));
    polymac_r64_from_r44(&st->s, l);
}

static void polymac_init_x86_avx512ifma(void *ks, const uint8_t r[16])
{
    struct ifma_state *st = ks;
    polymac_r64_init(&st->s, r);
    st->have_powers = 0;
}

static void polymac_blocks_x86_avx512ifma(void *ks, const uint8_t *in,
                                          size_t nblocks, uint32_t hibit)
{
    struct ifma_state *st = ks;
    /* have_powers is tested for zero only: a forged value can select a
     * path, never an address or a trip count. */
    const int warm = st->have_powers != 0;

    if (nblocks < (warm ? IFMA_MIN_BLOCKS_WARM : IFMA_MIN_BLOCKS_COLD)) {
        polymac_r64_blocks(&st->s, in, nblocks, hibit);
        return;
    }
    if (!warm) {
        ifma_powers(st);
        st->have_powers = 1;
    }
    ifma_vector(st, in, nblocks, hibit);
}

static void polymac_emit_x86_avx512ifma(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct ifma_state *st = ks;
    uint64_t lo, hi;

    polymac_r64_reduce(st->s.h0, st->s.h1, st->s.h2, &lo, &hi);
    polymac_add_s_store(tag, lo, hi, s);
    /* The powers are secret too, but exist only if a vector call ran. */
    if (st->have_powers != 0)
        polymac_wipe(st->pw, sizeof st->pw);
    polymac_wipe(st, offsetof(struct ifma_state, pw));
}

const struct polymac_kernel polymac_kernel_x86_avx512ifma = {
    .name = "x86-avx512ifma",
    .cpu_required = POLYMAC_CPU_X86_AVX512IFMA | POLYMAC_CPU_X86_AVX512F,
    .cpu_avoid = POLYMAC_CPU_X86_ZMM_DOWNCLOCK,
    .init = polymac_init_x86_avx512ifma,
    .blocks = polymac_blocks_x86_avx512ifma,
    .emit = polymac_emit_x86_avx512ifma,
};
