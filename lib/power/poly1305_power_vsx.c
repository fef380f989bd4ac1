/* poly1305_power_vsx.c -- POWER8 (ISA 2.07) kernel: radix 2^26, four blocks
 *                         in flight in the 32-bit lanes of vmuleuw/vmulouw */
/* SPDX-License-Identifier: MIT */
#include "../generic/r64.h"
#include "../generic/r26.h"
#include "../kernels.h"

#include <altivec.h>
#undef vector
#undef pixel
#undef bool

/* The lane shuffles below assume little-endian element order; meson builds
 * this file for ppc64le only (big-endian POWER keeps the generic kernels). */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "power-vsx is written for little-endian POWER (ppc64le)"
#endif

typedef __vector unsigned int vu32;
typedef __vector unsigned long long vu64;

/* Technique (after the PowerISA 2.07 section of OpenSSL's poly1305-ppc.pl
 * and the four-way layout of Linux's AVX2 code): limb i of four
 * consecutive blocks shares one 128-bit register, one block per 32-bit
 * lane.  vmuleuw multiplies lanes 0 and 2 into two 64-bit products,
 * vmulouw lanes 1 and 3, so 50 multiplies advance four blocks by r^4.
 * Lane j accumulates blocks j, j+4, j+8, ...; the last group multiplies
 * lane j by r^(4-j) instead, and the lanes are summed.  POWER has no
 * vector multiply-add usable here (ARM's vmlal), so products and sums are
 * separate instructions -- the reason OpenSSL measured ~1.43 cycles/byte
 * rather than the sub-1.0 it had projected.
 *
 * Break-even (not measured here: qemu cannot time).  OpenSSL's figures on
 * POWER8 are 2.03 cycles/byte for its scalar base 2^64 code and ~1.43 for
 * this vector method, i.e. ~10 cycles saved per block.  Going vector the
 * first time for a key costs three scalar multiplies for r^2..r^4 plus
 * splitting and splatting them (~150 cycles), later calls only the radix
 * conversions (~40 cycles).  Hence 16 blocks before the powers exist,
 * 8 once they do; below that the scalar radix-2^64 code of r64.h runs. */
#define VSX_MIN_BLOCKS_COLD 16
#define VSX_MIN_BLOCKS_WARM 8

struct vsx_state {
    struct polymac_r64 sc;      /* r always; h while in_r26 != 1 */
    uint32_t in_r26;            /* 1: h lives in h26 */
    uint32_t have_pow;          /* 1: the tables below hold this key's powers */
    uint32_t h26[5];            /* h in radix 2^26 (limbs <= 2^26 + 2^12) */
    /* Tables as plain words, loaded with vec_xl: no alignment is assumed
     * of ks beyond what the contract promises, and the struct has no
     * padding that depends on vector alignment. */
    uint32_t r4[10][4];         /* limbs 0..4 of r^4, then 5x, splatted */
    uint32_t rl[10][4];         /* lanes (r^4, r^3, r^2, r), then 5x */
};
_Static_assert(sizeof(struct vsx_state) <= POLYMAC_KS_BYTES, "state fits");

static void polymac_init_power_vsx(void *ks, const uint8_t r[16])
{
    struct vsx_state *st = ks;
    polymac_r64_init(&st->sc, r);
    st->in_r26 = 0;
    st->have_pow = 0;
}

/* Computes r^1..r^4 once per key, in radix 2^26, the first time a call is
 * long enough for the vector code. */
static void vsx_powers(struct vsx_state *st)
{
    static const uint8_t zero[16];
    struct polymac_r64 t = st->sc;
    uint32_t p[4][5];                    /* p[k] = r^(k+1) */
    uint64_t l[5];

    t.h0 = t.r0;
    t.h1 = t.r1;
    t.h2 = 0;
    for (int k = 0; k < 4; k++) {
        if (k > 0)                       /* h = (h + 0) r: the next power */
            polymac_r64_blocks(&t, zero, 1, 0);
        polymac_r64_to_r26(&t, l);
        polymac_r26_carry(p[k], l);      /* limbs < 2^26 + 2^6 */
    }
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 4; j++) {
            st->r4[i][j] = p[3][i];
            st->r4[5 + i][j] = 5 * p[3][i];
            st->rl[i][j] = p[3 - j][i];
            st->rl[5 + i][j] = 5 * p[3 - j][i];
        }
    }
    polymac_wipe(&t, sizeof t);
    polymac_wipe(p, sizeof p);
    polymac_wipe(l, sizeof l);
    st->have_pow = 1;
}

/* Splits four blocks into limb vectors, lane j = block j. */
static inline void vsx_load4(vu32 m[5], const uint8_t *in, vu32 hib)
{
    const vu32 mask = vec_splats(0x3ffffffu);
    /* Byte loads reinterpreted as words: on little-endian word k of a
     * block is its little-endian 32-bit value, with no alignment needed. */
    vu32 a = (vu32)vec_xl(0, in), b = (vu32)vec_xl(16, in);
    vu32 c = (vu32)vec_xl(32, in), d = (vu32)vec_xl(48, in);
    /* 4x4 transpose of 32-bit words */
    vu32 t0 = vec_mergeh(a, c), t1 = vec_mergeh(b, d);
    vu32 t2 = vec_mergel(a, c), t3 = vec_mergel(b, d);
    vu32 w0 = vec_mergeh(t0, t1), w1 = vec_mergel(t0, t1);
    vu32 w2 = vec_mergeh(t2, t3), w3 = vec_mergel(t2, t3);

    m[0] = vec_and(w0, mask);
    m[1] = vec_and(vec_or(vec_sr(w0, vec_splats(26u)), vec_sl(w1, vec_splats(6u))), mask);
    m[2] = vec_and(vec_or(vec_sr(w1, vec_splats(20u)), vec_sl(w2, vec_splats(12u))), mask);
    m[3] = vec_and(vec_or(vec_sr(w2, vec_splats(14u)), vec_sl(w3, vec_splats(18u))), mask);
    m[4] = vec_or(vec_sr(w3, vec_splats(8u)), hib);
}

/* (de, dO) = h * r per lane, before carrying: de holds lanes 0 and 2, dO
 * lanes 1 and 3.  Products that land at 2^130 and above use s = 5 r.
 * Bounds: h < 2^27.01, s < 2^28.33, so five products stay below 2^58. */
static inline void vsx_mul(vu64 de[5], vu64 dO[5], const vu32 h[5],
                           const vu32 r[10])
{
    #pragma GCC unroll 5
    for (int k = 0; k < 5; k++) {
        de[k] = vec_mule(h[0], r[k]);
        dO[k] = vec_mulo(h[0], r[k]);
        #pragma GCC unroll 4
        for (int i = 1; i < 5; i++) {
            vu32 f = i <= k ? r[k - i] : r[10 + k - i];
            de[k] = vec_add(de[k], vec_mule(h[i], f));
            dO[k] = vec_add(dO[k], vec_mulo(h[i], f));
        }
    }
}

/* Lazy carry on 64-bit lanes (the order of OpenSSL's and Linux's vector
 * code: two chains interleaved, one fold of the top times 5).  Afterwards
 * every limb is below 2^26 + 2^10, so it fits the 32-bit lanes again. */
static inline void vsx_carry(vu64 d[5])
{
    const vu64 mask = vec_splats(0x3ffffffull);
    const vu64 s26 = vec_splats(26ull), s2 = vec_splats(2ull);
    vu64 c;
    c = vec_sr(d[0], s26); d[0] = vec_and(d[0], mask); d[1] = vec_add(d[1], c);
    c = vec_sr(d[3], s26); d[3] = vec_and(d[3], mask); d[4] = vec_add(d[4], c);
    c = vec_sr(d[1], s26); d[1] = vec_and(d[1], mask); d[2] = vec_add(d[2], c);
    c = vec_sr(d[4], s26); d[4] = vec_and(d[4], mask);
    d[0] = vec_add(d[0], vec_add(c, vec_sl(c, s2)));
    c = vec_sr(d[2], s26); d[2] = vec_and(d[2], mask); d[3] = vec_add(d[3], c);
    c = vec_sr(d[0], s26); d[0] = vec_and(d[0], mask); d[1] = vec_add(d[1], c);
    c = vec_sr(d[3], s26); d[3] = vec_and(d[3], mask); d[4] = vec_add(d[4], c);
}

/* Absorbs 4 ngroups blocks (ngroups >= 1) into h26 and leaves the sum of
 * the lanes, uncarried (each below 2^61), in out. */
static void vsx_groups(const struct vsx_state *st, const uint8_t *in,
                       size_t ngroups, uint32_t hibit, uint64_t out[5])
{
    vu32 r4[10], rl[10], h[5], m[5];
    vu64 de[5], dO[5];
    const vu32 hib = vec_splats(hibit << 24);

    /* Every small loop is unrolled fully so that GCC keeps these arrays
     * in registers; otherwise GCC 12 runs the loops through the stack. */
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) {
        r4[i] = vec_xl(0, st->r4[i]);
        rl[i] = vec_xl(0, st->rl[i]);
    }
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        h[i] = (vu32){st->h26[i], 0, 0, 0};   /* h joins lane 0's block */

    for (; ngroups > 1; ngroups--, in += 64) {
        vsx_load4(m, in, hib);
        #pragma GCC unroll 5
        for (int i = 0; i < 5; i++)
            h[i] = vec_add(h[i], m[i]);
        vsx_mul(de, dO, h, r4);
        vsx_carry(de);
        vsx_carry(dO);
        /* back to four 32-bit lanes: the low word of each 64-bit product
         * is the even word on little-endian */
        #pragma GCC unroll 5
        for (int i = 0; i < 5; i++)
            h[i] = vec_mergee((vu32)de[i], (vu32)dO[i]);
    }
    vsx_load4(m, in, hib);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        h[i] = vec_add(h[i], m[i]);
    vsx_mul(de, dO, h, rl);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        vu64 t = vec_add(de[i], dO[i]);
        out[i] = t[0] + t[1];
    }
}

static void polymac_blocks_power_vsx(void *ks, const uint8_t *in, size_t nblocks,
                                     uint32_t hibit)
{
    struct vsx_state *st = ks;
    size_t min = st->have_pow == 1 ? VSX_MIN_BLOCKS_WARM : VSX_MIN_BLOCKS_COLD;

    if (nblocks >= min) {
        uint64_t l[5];
        size_t tail = nblocks & 3;
        if (st->have_pow != 1)
            vsx_powers(st);
        if (st->in_r26 != 1) {
            polymac_r64_to_r26(&st->sc, l);
            for (int i = 0; i < 5; i++)
                st->h26[i] = (uint32_t)l[i];  /* h2 <= 4: limb 4 < 2^27 */
            st->in_r26 = 1;
        }
        vsx_groups(st, in, nblocks >> 2, hibit, l);
        in += 16 * (nblocks - tail);
        nblocks = tail;
        if (!tail) {
            /* h stays in radix 2^26 for the next long call */
            polymac_r26_carry(st->h26, l);
            return;
        }
        polymac_r64_from_r26(&st->sc, l);
        st->in_r26 = 0;
    } else if (st->in_r26 == 1) {
        /* a short call after a long one: back to radix 2^64, once */
        uint64_t l[5];
        for (int i = 0; i < 5; i++)
            l[i] = st->h26[i];
        polymac_r64_from_r26(&st->sc, l);
        st->in_r26 = 0;
    }
    polymac_r64_blocks(&st->sc, in, nblocks, hibit);
}

static void polymac_emit_power_vsx(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct vsx_state *st = ks;
    uint64_t lo, hi;
    if (st->in_r26 == 1) {
        uint64_t l[5];
        for (int i = 0; i < 5; i++)
            l[i] = st->h26[i];
        polymac_r64_from_r26(&st->sc, l);
    }
    polymac_r64_reduce(st->sc.h0, st->sc.h1, st->sc.h2, &lo, &hi);
    polymac_add_s_store(tag, lo, hi, s);
    /* the power tables exist only if a long call made them */
    polymac_wipe(st, st->have_pow == 1 ? sizeof *st
                                       : offsetof(struct vsx_state, r4));
}

const struct polymac_kernel polymac_kernel_power_vsx = {
    .name = "power-vsx",
    .cpu_required = POLYMAC_CPU_PPC_VSX,
    .init = polymac_init_power_vsx,
    .blocks = polymac_blocks_power_vsx,
    .emit = polymac_emit_power_vsx,
    /* one-shot messages this short never reach the vector code */
    .scalar_max = VSX_MIN_BLOCKS_COLD * 16 - 1,
};
