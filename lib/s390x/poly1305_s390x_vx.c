/* poly1305_s390x_vx.c -- z13 vector-facility kernel: radix 2^26, four blocks
 *                        in flight with vector multiply-and-add */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../generic/lanes4.h"
#include "../kernels.h"

#include <vecintrin.h>

typedef __vector unsigned char vu8;
typedef __vector unsigned int vu32;
typedef __vector unsigned long long vu64;

/* Technique (after the vector section of OpenSSL's poly1305-s390x.pl,
 * laid out like the POWER8 kernel): limb i of four consecutive blocks
 * shares one register, one block per 32-bit lane.  VMALEF/VMALOF multiply
 * the even or odd lanes and add to 64-bit accumulators in one instruction,
 * so advancing four blocks by r^4 is 50 instructions with no separate
 * adds.  Lane j accumulates blocks j, j+4, ...; the last group multiplies
 * lane j by r^(4-j) and the lanes are summed.
 *
 * s390x is big-endian: message words are byte-reversed by the same VPERM
 * that transposes them into lanes, and every scalar load goes through
 * polymac_load*le.
 *
 * z14's VMSLG (64x64 multiply-sum, like POWER9's vmsumudm) would allow a
 * radix-2^44 kernel; we do not use it.  It would need its own runtime bit
 * (POLYMAC_CPU_S390X_VXE) and a second kernel that no emulator here can
 * time, and nobody has published a figure showing it beats this loop.
 *
 * Break-even (not measured here: qemu cannot time).  OpenSSL reports
 * ~2.3 cycles/byte for its scalar base 2^64 code on z196 and later, and
 * "sub-cycle" for this vector method on z13+; its vector path starts at
 * 128 bytes, computing the powers on first use as we do.  Hence 8 blocks
 * before the powers exist and 4 once they do; below that the scalar
 * radix-2^64 code of r64.h runs. */
#define VX_MIN_BLOCKS_COLD 8
#define VX_MIN_BLOCKS_WARM 4

/* VL has no alignment requirement; memcpy lets the compiler emit it
 * without claiming an alignment the pointer lacks. */
static inline vu8 vx_load(const void *p)
{
    vu8 v;
    memcpy(&v, p, 16);
    return v;
}

/* Splits four blocks into limb vectors, lane j = block j. */
static inline void vx_load4(vu32 m[5], const uint8_t *in, vu32 hib)
{
    /* Pick words 0 and 1 (2 and 3) of two blocks, alternating, each with
     * its bytes reversed: big-endian lanes holding little-endian values. */
    const vu8 lo01 = {3, 2, 1, 0, 19, 18, 17, 16, 7, 6, 5, 4, 23, 22, 21, 20};
    const vu8 hi23 = {11, 10, 9, 8, 27, 26, 25, 24, 15, 14, 13, 12, 31, 30, 29, 28};
    vu8 a = vx_load(in), b = vx_load(in + 16);
    vu8 c = vx_load(in + 32), d = vx_load(in + 48);
    vu64 ab01 = (vu64)vec_perm(a, b, lo01), cd01 = (vu64)vec_perm(c, d, lo01);
    vu64 ab23 = (vu64)vec_perm(a, b, hi23), cd23 = (vu64)vec_perm(c, d, hi23);
    vu32 w0 = (vu32)vec_mergeh(ab01, cd01), w1 = (vu32)vec_mergel(ab01, cd01);
    vu32 w2 = (vu32)vec_mergeh(ab23, cd23), w3 = (vu32)vec_mergel(ab23, cd23);

    m[0] = w0 & 0x3ffffff;
    m[1] = ((w0 >> 26) | (w1 << 6)) & 0x3ffffff;
    m[2] = ((w1 >> 20) | (w2 << 12)) & 0x3ffffff;
    m[3] = ((w2 >> 14) | (w3 << 18)) & 0x3ffffff;
    m[4] = (w3 >> 8) | hib;
}

/* (de, dO) = h * r per lane, before carrying: de holds lanes 0 and 2, dO
 * lanes 1 and 3.  Products that land at 2^130 and above use s = 5 r.
 * Bounds: h < 2^27.01, s < 2^28.33, so five products stay below 2^58. */
static inline void vx_mul(vu64 de[5], vu64 dO[5], const vu32 h[5],
                          const vu32 r[10])
{
    #pragma GCC unroll 5
    for (int k = 0; k < 5; k++) {
        de[k] = vec_mule(h[0], r[k]);
        dO[k] = vec_mulo(h[0], r[k]);
        #pragma GCC unroll 4
        for (int i = 1; i < 5; i++) {
            vu32 f = i <= k ? r[k - i] : r[10 + k - i];
            de[k] = vec_meadd(h[i], f, de[k]);
            dO[k] = vec_moadd(h[i], f, dO[k]);
        }
    }
}

/* Lazy carry on 64-bit lanes (two chains interleaved, one fold of the top
 * times 5).  Afterwards every limb is below 2^26 + 2^10, so it fits the
 * 32-bit lanes again. */
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

/* Absorbs 4 ngroups blocks (ngroups >= 1) into h26 and leaves the sum of
 * the lanes, uncarried (each below 2^61), in out. */
static void vx_groups(const struct polymac_lanes4 *st, const uint8_t *in,
                      size_t ngroups, uint32_t hibit, uint64_t out[5])
{
    /* the low words of the 64-bit lanes, even lanes then odd, interleaved */
    const vu8 pack = {4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31};
    vu32 r4[10], rl[10], h[5], m[5];
    vu64 de[5], dO[5];
    const vu32 hib = vec_splats(hibit << 24);

    /* Every small loop is unrolled fully so that GCC keeps these arrays
     * in registers; otherwise GCC 12 runs the loops through the stack. */
    #pragma GCC unroll 10
    for (int i = 0; i < 10; i++) {
        r4[i] = (vu32)vx_load(st->r4[i]);
        rl[i] = (vu32)vx_load(st->rl[i]);
    }
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        h[i] = (vu32){st->h26[i], 0, 0, 0};   /* h joins lane 0's block */

    for (; ngroups > 1; ngroups--, in += 64) {
        vx_load4(m, in, hib);
        #pragma GCC unroll 5
        for (int i = 0; i < 5; i++)
            h[i] += m[i];
        vx_mul(de, dO, h, r4);
        vx_carry(de);
        vx_carry(dO);
        #pragma GCC unroll 5
        for (int i = 0; i < 5; i++)
            h[i] = (vu32)vec_perm((vu8)de[i], (vu8)dO[i], pack);
    }
    vx_load4(m, in, hib);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++)
        h[i] += m[i];
    vx_mul(de, dO, h, rl);
    #pragma GCC unroll 5
    for (int i = 0; i < 5; i++) {
        vu64 t = de[i] + dO[i];
        out[i] = t[0] + t[1];
    }
}

POLYMAC_LANES4_KERNEL(s390x_vx, "s390x-vx", POLYMAC_CPU_S390X_VX,
                      VX_MIN_BLOCKS_COLD, VX_MIN_BLOCKS_WARM, vx_groups);
