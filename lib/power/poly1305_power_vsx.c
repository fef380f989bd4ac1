/* poly1305_power_vsx.c -- POWER8 (ISA 2.07) kernel: radix 2^26, four blocks
 *                         in flight in the 32-bit lanes of vmuleuw/vmulouw */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../simd/r26x4.h"
#include "../registry.h"

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

/* Technique (after the PowerISA 2.07 section of OpenSSL's poly1305-ppc.pl):
 * limb i of four consecutive blocks shares one 128-bit register, two
 * blocks per 64-bit lane (r26x4.h): vmulouw multiplies the low words,
 * h plus blocks 0 and 1, by r^4, vmuleuw the high words, blocks 2 and 3,
 * by r^2, and both products go into the same five 64-bit sums, so 50
 * multiplies advance four blocks, one carry chain follows and the carried
 * sums are the next step's h as they stand.  POWER has no vector
 * multiply-add usable here (ARM's vmlal), so products and sums are
 * separate instructions -- the reason OpenSSL's measured speed for this
 * method falls short of what it had projected.
 *
 * Break-even (not measured here: qemu cannot time), from OpenSSL's
 * published figures on POWER8 for its scalar base 2^64 code and for this
 * vector method, and an estimate of the set-up (the figures and the
 * arithmetic: docs/log.md, Figures moved out of lib/ comments): going
 * vector the first time for a key costs three scalar multiplies for
 * r^2..r^4 plus splitting and splatting them, later calls only the radix
 * conversions, each repaid by the cycles every vector block saves.
 * Hence 16 blocks before the powers exist, 8 once they do; below that
 * the scalar radix-2^64 code of r64.h runs.  A build may set either
 * (lab/tune measures them where it can time). */
#ifndef POLYMAC_VSX_COLD
#define POLYMAC_VSX_COLD 16
#endif
#ifndef POLYMAC_VSX_WARM
#define POLYMAC_VSX_WARM 8
#endif

/* 16 bytes from p with lxvd2x alone: on little-endian it yields the two
 * doublewords swapped, which vsx_load4 undoes for free in its merges
 * (vec_xl would add an xxpermdi per load on POWER8). */
static inline vu32 vsx_load_swapped(const uint8_t *p)
{
    vu32 v;
    __asm__("lxvd2x %x0,0,%1" : "=wa"(v) : "r"(p), "m"(*(const uint8_t(*)[16])p));
    return v;
}

/* Splits four blocks into limb vectors: 64-bit lane j holds block j in its
 * low word and block j + 2 in its high word (element order a, c, b, d). */
static inline void vsx_load4(vu32 m[5], const uint8_t *in, vu32 hib)
{
    const vu32 mask = vec_splats(0x3ffffffu);
    /* words (2, 3, 0, 1) of each block: lxvd2x's doubleword order */
    vu32 a = vsx_load_swapped(in), b = vsx_load_swapped(in + 16);
    vu32 c = vsx_load_swapped(in + 32), d = vsx_load_swapped(in + 48);
    vu32 t0 = vec_mergel(a, c), t1 = vec_mergel(b, d);   /* a0 c0 a1 c1, b0 d0 b1 d1 */
    vu32 t2 = vec_mergeh(a, c), t3 = vec_mergeh(b, d);   /* a2 c2 a3 c3, b2 d2 b3 d3 */
    vu32 w0 = (vu32)vec_mergeh((vu64)t0, (vu64)t1), w1 = (vu32)vec_mergel((vu64)t0, (vu64)t1);
    vu32 w2 = (vu32)vec_mergeh((vu64)t2, (vu64)t3), w3 = (vu32)vec_mergel((vu64)t2, (vu64)t3);

    /* Word shifts use the low five bits of the count: -6, -12 and -14
     * are 26, 20 and 18, each one vspltisw (GCC builds 26 from two). */
    const vu32 s26 = vec_splats((unsigned)-6), s20 = vec_splats((unsigned)-12);
    const vu32 s18 = vec_splats((unsigned)-14);
    m[0] = vec_and(w0, mask);
    m[1] = vec_and(vec_or(vec_sr(w0, s26), vec_sl(w1, vec_splats(6u))), mask);
    m[2] = vec_and(vec_or(vec_sr(w1, s20), vec_sl(w2, vec_splats(12u))), mask);
    m[3] = vec_and(vec_or(vec_sr(w2, vec_splats(14u)), vec_sl(w3, s18)), mask);
    m[4] = vec_or(vec_sr(w3, vec_splats(8u)), hib);
}

/* d = h r per lane, before carrying: the low words of x (h plus the
 * blocks) times the low words of r, the high words of m (the blocks two
 * later) times the high words of r.  x has the same high words as m, and
 * passing x for m is what the loop does: a separate m would spare half
 * the products the wait for h, but the extra five live registers make
 * GCC spill.  Products that land at 2^130 and above
 * use s = 5 r.  On little-endian vec_mule takes the low word of each
 * doubleword (vmulouw), vec_mulo the high one (vmuleuw).  Sums as trees
 * that add last the products of the limbs vsx_carry finishes last (x1,
 * x4), so the chain from h to d runs through two adds after them (faster
 * under the pwr10 model: docs/log.md, Figures moved out of lib/
 * comments).  Bounds: x < 2^27.01,
 * s < 2^28.33, so ten products stay below 2^58.2. */
static inline void vsx_mul(vu64 d[5], const vu32 x[5], const vu32 m[5], const vu32 r[10])
{
    #pragma GCC unroll 5
    for (int k = 0; k < 5; k++) {
        vu64 lo[5], hi[5];
        #pragma GCC unroll 5
        for (int i = 0; i < 5; i++) {
            vu32 f = i <= k ? r[k - i] : r[10 + k - i];
            lo[i] = vec_mule(x[i], f);
            hi[i] = vec_mulo(m[i], f);
        }
        vu64 e = vec_add(vec_add(vec_add(lo[2], hi[2]), vec_add(lo[0], hi[0])),
                         vec_add(lo[3], hi[3]));
        d[k] = vec_add(e, vec_add(vec_add(lo[1], hi[1]), vec_add(lo[4], hi[4])));
    }
}

/* Lazy carry on 64-bit lanes (the order of OpenSSL's and Linux's vector
 * code: two chains interleaved, one fold of the top times 5).  Afterwards
 * every limb is below 2^26 + 2^10 with a zero high word: h for the next
 * step. */
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
 * the lanes, uncarried (each below 2^60), in out. */
static void vsx_groups(const struct polymac_r26x4 *st, const uint8_t *in,
                       size_t ngroups, uint32_t hibit, uint64_t out[5])
{
    vu32 r4[10], rl[10], m[5], x[5];
    vu64 d[5];
    const vu32 hib = vec_splats(hibit << 24);

    /* Every small loop is unrolled fully so that GCC keeps these arrays
     * in registers; otherwise GCC 12 runs the loops through the stack. */
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++)
        r4[i] = vec_xl(0, st->r4[i]);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        d[i] = (vu64){st->c.h26[i], 0};       /* h joins lane 0's low block */

    /* The group written out twice, not through a helper: GCC 12 then
     * schedules the loop better (pwr9 model, lab/kernel-cost; the
     * figures: docs/log.md, Figures moved out of lib/ comments). */
    for (; ngroups > 1; ngroups--, in += 64) {
        vsx_load4(m, in, hib);
        #pragma GCC unroll 5
        for (int i = 0; i < 5; i++)
            x[i] = vec_add((vu32)d[i], m[i]);
        vsx_mul(d, x, x, r4);
        vsx_carry(d);
    }
    /* rl only now: loaded before the loop, its ten vectors stay live
     * through it and GCC rebuilds or reloads more constants per group
     * (slower under the pwr10 model, lab/kernel-cost; the figures:
     * docs/log.md, Figures moved out of lib/ comments) */
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++)
        rl[i] = vec_xl(0, st->rl[i]);
    vsx_load4(m, in, hib);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        x[i] = vec_add((vu32)d[i], m[i]);
    vsx_mul(d, x, x, rl);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        out[i] = d[i][0] + d[i][1];
}

#ifdef POLYMAC_PAIRS_PPC64
/* the batch entry: two messages at a time in scalar radix 2^64
 * (generic/r64_pairs.h) */
#include "../generic/r64_pairs.h"
#define VSX_LANES .lanes = &polymac_pairs_lanes
#else
#define VSX_LANES .lanes = NULL
#endif

POLYMAC_R26X4_KERNEL(power_vsx, "power-vsx", POLYMAC_CPU_PPC_VSX,
                      POLYMAC_VSX_COLD, POLYMAC_VSX_WARM, vsx_groups,
                      VSX_LANES);
