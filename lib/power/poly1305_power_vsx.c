/* poly1305_power_vsx.c -- POWER8 (ISA 2.07) kernel: radix 2^26, four blocks
 *                         in flight in the 32-bit lanes of vmuleuw/vmulouw */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../generic/lanes4.h"
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
static void vsx_groups(const struct polymac_lanes4 *st, const uint8_t *in,
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

POLYMAC_LANES4_KERNEL(power_vsx, "power-vsx", POLYMAC_CPU_PPC_VSX,
                      VSX_MIN_BLOCKS_COLD, VSX_MIN_BLOCKS_WARM, vsx_groups);
