/* poly1305_s390x_vx.c -- z13 vector-facility kernel: radix 2^26, four blocks
 *                        in flight with vector multiply-and-add */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../simd/lanes4.h"
#include "../kernels.h"

#include <vecintrin.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned int vu32;
typedef __vector unsigned long long vu64;

/* Technique (after the vector section of OpenSSL's poly1305-s390x.pl):
 * limb i of four consecutive blocks shares one register, two blocks per
 * 64-bit lane (lanes4.h).  VMALOF multiplies the low words (h plus blocks
 * 0 and 1) by r^4 and VMALEF the high words (blocks 2 and 3) by r^2, each
 * adding into the same five 64-bit accumulators in one instruction, so
 * advancing four blocks is 50 multiply-adds, one carry chain and nothing
 * else: the carried accumulators are the next step's h as they stand.
 *
 * s390x is big-endian: message words are byte-reversed by the same VPERM
 * that gathers them into lanes, and every scalar load goes through
 * polymac_load*le.
 *
 * z14's VMSLG (64x64 multiply-sum, like POWER9's vmsumudm) would allow a
 * radix-2^44 kernel; we do not use it.  It would need a runtime bit for the
 * vector-enhancements facility (HWCAP_S390_VXE) and a second kernel that no emulator here can
 * time, and nobody has published a figure showing it beats this loop.
 *
 * Break-even (not measured here: qemu cannot time).  OpenSSL reports
 * ~2.3 cycles/byte for its scalar base 2^64 code on z196 and later, and
 * "sub-cycle" for this vector method on z13+; its vector path starts at
 * 128 bytes, computing the powers on first use as we do.  Hence 8 blocks
 * before the powers exist and 4 once they do; below that the scalar
 * radix-2^64 code of r64.h runs.  A build may set either (tools/tune
 * measures them where it can time). */
#ifndef POLYMAC_VX_COLD_BLOCKS
#define POLYMAC_VX_COLD_BLOCKS 8
#endif
#ifndef POLYMAC_VX_WARM_BLOCKS
#define POLYMAC_VX_WARM_BLOCKS 4
#endif

/* VL has no alignment requirement, and vec_xl claims none: one VL with a
 * displacement per load (memcpy here made GCC add address arithmetic and
 * prefetches to the loop). */
static inline vu8 vx_load(const void *p)
{
    return vec_xl(0, (const unsigned char *)p);
}

/* The VERIM masks of vx_load4: the bits a limb takes from the next word. */
#define VX_INS1 0x3ffffc0u
#define VX_INS2 0x3fff000u
#define VX_INS3 0x3fc0000u

/* Splits four blocks a, b, c, d into limb vectors: 64-bit lane 0 holds
 * block a in its low word and c in its high word, lane 1 b and d (big-
 * endian element order c, a, d, b).  mask (26 bits) and ins1..ins3 (the
 * VERIM masks) are made once by the caller. */
static inline void vx_load4(vu32 m[5], const uint8_t *in, vu32 hib, vu32 mask, vu32 ins1,
                            vu32 ins2, vu32 ins3)
{
    /* words 0 and 1 (2 and 3) of two blocks x, y as y0 x0 y1 x1, each
     * with its bytes reversed: big-endian lanes holding little-endian
     * values */
    const vu8 lo01 = {19, 18, 17, 16, 3, 2, 1, 0, 23, 22, 21, 20, 7, 6, 5, 4};
    const vu8 hi23 = {27, 26, 25, 24, 11, 10, 9, 8, 31, 30, 29, 28, 15, 14, 13, 12};
    vu8 a = vx_load(in), b = vx_load(in + 16);
    vu8 c = vx_load(in + 32), d = vx_load(in + 48);
    vu64 ac01 = (vu64)vec_perm(a, c, lo01), bd01 = (vu64)vec_perm(b, d, lo01);
    vu64 ac23 = (vu64)vec_perm(a, c, hi23), bd23 = (vu64)vec_perm(b, d, hi23);
    vu32 w0 = (vu32)vec_mergeh(ac01, bd01), w1 = (vu32)vec_mergel(ac01, bd01);
    vu32 w2 = (vu32)vec_mergeh(ac23, bd23), w3 = (vu32)vec_mergel(ac23, bd23);

    /* VERIM (t & ~mask) | (rotl(s, n) & mask) inserts the next word's
     * bits above the shifted ones: two instructions a limb */
    m[0] = w0 & mask;
    m[1] = __builtin_s390_verimf(w0 >> 26, w1, ins1, 6);
    m[2] = __builtin_s390_verimf(w1 >> 20, w2, ins2, 12);
    m[3] = __builtin_s390_verimf(w2 >> 14, w3, ins3, 18);
    m[4] = (w3 >> 8) | hib;
}

/* d = h r per lane, before carrying: the low words of x (h plus the
 * blocks) times the low words of r, the high words of m (the blocks two
 * later; x has the same high words) times the high words, the latter
 * first since they do not wait for h.  Products that land at 2^130 and
 * above use s = 5 r.  Bounds: x < 2^27.01, s < 2^28.33, so ten products
 * stay below 2^58.2. */
static inline void vx_mul(vu64 d[5], const vu32 x[5], const vu32 m[5], const vu32 r[10])
{
    #pragma GCC unroll 5
    for (int k = 0; k < 5; k++) {
        d[k] = vec_mule(m[0], r[k]);
        #pragma GCC unroll 4
        for (int i = 1; i < 5; i++)
            d[k] = vec_meadd(m[i], i <= k ? r[k - i] : r[10 + k - i], d[k]);
        #pragma GCC unroll 5
        for (int i = 0; i < 5; i++)
            d[k] = vec_moadd(x[i], i <= k ? r[k - i] : r[10 + k - i], d[k]);
    }
}

/* Lazy carry on 64-bit lanes (two chains interleaved, one fold of the top
 * times 5).  Afterwards every limb is below 2^26 + 2^10 with a zero high
 * word: h for the next step. */
static inline void vx_carry(vu64 d[5])
{
    const vu64 mask = {0x3ffffff, 0x3ffffff};
    vu64 c;
    c = d[0] >> 26; d[0] &= mask; d[1] += c;
    c = d[3] >> 26; d[3] &= mask; d[4] += c;
    c = d[1] >> 26; d[1] &= mask; d[2] += c;
    c = d[4] >> 26; d[4] &= mask; d[0] += c + (c << 2);
    c = d[2] >> 26; d[2] &= mask; d[3] += c;
    c = d[0] >> 26; d[0] &= mask; d[1] += c;
    c = d[3] >> 26; d[3] &= mask; d[4] += c;
}

/* GCC's -O3 on s390x adds prefetches for the message to this loop (three
 * PFD per iteration, on top of the loads that follow at once). */
#if defined(__GNUC__) && !defined(__clang__)
#  define VX_NO_PREFETCH __attribute__((optimize("no-prefetch-loop-arrays")))
#else
#  define VX_NO_PREFETCH
#endif

/* One group: d = (h + the four blocks at in) r, per lane, not carried. */
static inline void vx_group(vu64 d[5], const uint8_t *in, vu32 hib, vu32 mask, vu32 ins1,
                            vu32 ins2, vu32 ins3, const vu32 r[10])
{
    vu32 m[5], x[5];
    vx_load4(m, in, hib, mask, ins1, ins2, ins3);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        x[i] = (vu32)d[i] + m[i];
    vx_mul(d, x, m, r);
}

/* Absorbs 4 ngroups blocks (ngroups >= 1) into h26 and leaves the sum of
 * the lanes, uncarried (each below 2^60), in out. */
VX_NO_PREFETCH static void vx_groups(const struct polymac_lanes4 *st, const uint8_t *in,
                      size_t ngroups, uint32_t hibit, uint64_t out[5])
{
    vu32 r4[10], rl[10];
    vu64 d[5];
    const vu32 hib = vec_splats(hibit << 24);
    vu32 mask = vec_splats(0x3ffffffu);
    vu32 ins1 = vec_splats(VX_INS1), ins2 = vec_splats(VX_INS2), ins3 = vec_splats(VX_INS3);

    /* GCC rebuilds constants it can make in one instruction (VGMF) inside
     * the loop rather than keep them in registers: an empty asm that may
     * have changed them makes them values it must keep. */
    __asm__("" : "+v"(mask), "+v"(ins1), "+v"(ins2), "+v"(ins3));

    /* Every small loop is unrolled fully so that GCC keeps these arrays
     * in registers; otherwise GCC 12 runs the loops through the stack. */
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) {
        r4[i] = (vu32)vx_load(st->r4[i]);
        rl[i] = (vu32)vx_load(st->rl[i]);
    }
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        d[i] = (vu64){st->c.h26[i], 0};       /* h joins lane 0's low block */

    for (; ngroups > 1; ngroups--, in += 64) {
        vx_group(d, in, hib, mask, ins1, ins2, ins3, r4);
        vx_carry(d);
    }
    vx_group(d, in, hib, mask, ins1, ins2, ins3, rl);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        out[i] = d[i][0] + d[i][1];
}

POLYMAC_LANES4_KERNEL(s390x_vx, "s390x-vx", POLYMAC_CPU_S390X_VX,
                      POLYMAC_VX_COLD_BLOCKS, POLYMAC_VX_WARM_BLOCKS, vx_groups,
                      .lanes = NULL);
