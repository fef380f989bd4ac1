/* neon_steps_a32.h -- arm-neon's inner loop on AArch32, in inline assembly */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_ARM_NEON_STEPS_A32_H
#define POLYMAC_ARM_NEON_STEPS_A32_H

/*
 * Included by simd/neon.h on little-endian AArch32: neon_steps for 16 q
 * registers, one asm statement (GCC 12 compiling the same steps from
 * intrinsics needed one register more than there are and waited on the
 * carry chain: docs/log.md, arm-neon).  The layout follows the comments
 * of OpenSSL's poly1305-armv4.pl; the code is our own:
 *
 *   d0..d8    the table R0..R4, S1..S4 as (r^4, r^2) pairs, one d
 *             register each, so that a product takes its power by lane
 *   q5..q9    the columns D0..D4; the carry leaves h0 in d15, h1 d11, h2
 *             d14, h3 d16, h4 d17, so that each vbic masks two limbs
 *   q10..q14  the group's limbs L0..L4: low halves blocks 0 and 1 (a vld4
 *             of two blocks fills one half of q10..q13), high halves
 *             blocks 2 and 3
 *   d9        x4 = L4's low half + h4 (L4 itself keeps its top byte, the
 *             2^128 bit, so that one vsri makes the next L4)
 *   d30, d31  the carries
 *
 * A step adds h into the low halves, takes the 50 products, (m2, m3) r^2
 * by lane 1 and (h + (m0, m1)) r^4 by lane 0, and loads and splits the
 * next group while the carry settles.  The carry is NEON_CARRY's order
 * with each limb narrowed to 32 bits once its carry is out:
 *
 *     d3 -> d4, d0 -> d1, c = d4 >> 26, d1 -> d2, h0 = (d0 & M) + 5c in
 *     64 bits, d2 -> h3, h0 -> h1, h3 -> h4
 *
 * Overflow (neon.h's bound: columns below 2^59, d4 below 2^56): c < 2^30,
 * h0 + c and 4c fit 32 bits; after it h0, h2, h3 < 2^26, h1 and h4 <
 * 2^26 + 2^7 (test/unit/bounds.c, "arm-neon").  hibit is 1: neon_loop
 * hands a call of hibit 0 to the scalar code.
 */

static void neon_steps(struct neon_state *st, const uint8_t *in, size_t nsteps,
                       uint32_t hibit)
{
    /* where h (q5, q7, q8: columns D0, D2, D3) and the last group leave the loop */
    register uint64x2_t D0 __asm__("q5"), D2 __asm__("q7"), D3 __asm__("q8");
    register uint32x4_t L0 __asm__("q10"), L1 __asm__("q11"), L2 __asm__("q12"),
        L3 __asm__("q13"), L4 __asm__("q14");
    const uint32_t *h26 = st->c.h26, *pw = st->pw[0];
    size_t n = nsteps - 1;

    (void)hibit;
    __asm__(
        /* h into lane 0, lane 1 zero (as NEON_H_IN): h0 d15, h1 d11, h2
         * d14, h3 d16, h4 d17, where the carry leaves them */
        "vmov.i64 q5, #0\n\t"
        "vmov.i64 q7, #0\n\t"
        "vmov.i64 q8, #0\n\t"
        "vld1.32 {d15[0]}, [%[h]]!\n\t"
        "vld1.32 {d11[0]}, [%[h]]!\n\t"
        "vld1.32 {d14[0]}, [%[h]]!\n\t"
        "vld1.32 {d16[0]}, [%[h]]!\n\t"
        "vld1.32 {d17[0]}, [%[h]]\n\t"
        /* the first group; q14's top byte, 2^24 >> 24, stays from here on:
         * vsri replaces only the low 24 bits, and h4 goes to d9 */
        "vmov.i32 q14, #0x1000000\n\t"
        "vld4.32 {d20, d22, d24, d26}, [%[in]]!\n\t"
        "vld4.32 {d21, d23, d25, d27}, [%[in]]!\n\t"
        "vsri.32 q14, q13, #8\n\t"
        "vshl.i32 q13, q13, #18\n\t"
        "vsri.32 q13, q12, #14\n\t"
        "vshl.i32 q12, q12, #12\n\t"
        "vsri.32 q12, q11, #20\n\t"
        "vshl.i32 q11, q11, #6\n\t"
        "vsri.32 q11, q10, #26\n\t"
        "vbic.i32 q10, #0xfc000000\n\t"
        "vbic.i32 q11, #0xfc000000\n\t"
        "vbic.i32 q12, #0xfc000000\n\t"
        "vbic.i32 q13, #0xfc000000\n\t"
        "cmp %[n], #0\n\t"
        "beq 2f\n\t"
        /* lanes 0 and 2 of each table row, (r^4, r^2); each vld2's other
         * pair, (r^3, r^1), lands in the next register, loaded over next */
        "vld2.32 {d0, d1}, [%[pw]]!\n\t"
        "vld2.32 {d1, d2}, [%[pw]]!\n\t"
        "vld2.32 {d2, d3}, [%[pw]]!\n\t"
        "vld2.32 {d3, d4}, [%[pw]]!\n\t"
        "vld2.32 {d4, d5}, [%[pw]]!\n\t"
        "vld2.32 {d5, d6}, [%[pw]]!\n\t"
        "vld2.32 {d6, d7}, [%[pw]]!\n\t"
        "vld2.32 {d7, d8}, [%[pw]]!\n\t"
        "vld2.32 {d8, d9}, [%[pw]]\n\t"
        /* the steps, in the order a list scheduler found under LLVM's
         * Cortex-A9, A57 and Swift models (docs/log.md) */
        "1:\n\t"
        "vadd.i32 d22, d22, d11\n\t"
        "vadd.i32 d26, d26, d16\n\t"
        "vadd.i32 d9, d28, d17\n\t"
        "vadd.i32 d20, d20, d15\n\t"
        "vadd.i32 d24, d24, d14\n\t"
        "vmull.u32 q6, d23, d0[1]\n\t"
        "vmull.u32 q5, d21, d0[1]\n\t"
        "vmull.u32 q8, d27, d0[1]\n\t"
        "vmull.u32 q9, d29, d0[1]\n\t"
        "vmull.u32 q7, d25, d0[1]\n\t"
        "subs %[n], %[n], #1\n\t"
        "vmlal.u32 q6, d21, d1[1]\n\t"
        "vmlal.u32 q8, d21, d3[1]\n\t"
        "vmlal.u32 q9, d21, d4[1]\n\t"
        "vmlal.u32 q7, d21, d2[1]\n\t"
        "vmlal.u32 q5, d23, d8[1]\n\t"
        "vmlal.u32 q6, d25, d8[1]\n\t"
        "vmlal.u32 q8, d23, d2[1]\n\t"
        "vmlal.u32 q7, d23, d1[1]\n\t"
        "vmlal.u32 q9, d23, d3[1]\n\t"
        "vmlal.u32 q5, d25, d7[1]\n\t"
        "vmlal.u32 q6, d27, d7[1]\n\t"
        "vmlal.u32 q8, d25, d1[1]\n\t"
        "vmlal.u32 q9, d25, d2[1]\n\t"
        "vmlal.u32 q5, d27, d6[1]\n\t"
        "vmlal.u32 q7, d27, d8[1]\n\t"
        "vmlal.u32 q6, d29, d6[1]\n\t"
        "vmlal.u32 q9, d27, d1[1]\n\t"
        "vmlal.u32 q8, d29, d8[1]\n\t"
        "vmlal.u32 q5, d29, d5[1]\n\t"
        "vmlal.u32 q7, d29, d7[1]\n\t"
        "vmlal.u32 q6, d20, d1[0]\n\t"
        "vmlal.u32 q9, d20, d4[0]\n\t"
        "vmlal.u32 q5, d20, d0[0]\n\t"
        "vmlal.u32 q7, d20, d2[0]\n\t"
        "vmlal.u32 q8, d20, d3[0]\n\t"
        "vmlal.u32 q6, d22, d0[0]\n\t"
        "vmlal.u32 q9, d22, d3[0]\n\t"
        "vmlal.u32 q5, d22, d8[0]\n\t"
        "vmlal.u32 q8, d22, d2[0]\n\t"
        "vmlal.u32 q7, d22, d1[0]\n\t"
        "vmlal.u32 q6, d24, d8[0]\n\t"
        "vmlal.u32 q9, d24, d2[0]\n\t"
        "vmlal.u32 q8, d24, d1[0]\n\t"
        "vmlal.u32 q7, d24, d0[0]\n\t"
        "vmlal.u32 q5, d24, d7[0]\n\t"
        "vmlal.u32 q6, d26, d7[0]\n\t"
        "vmlal.u32 q9, d26, d1[0]\n\t"
        "vmlal.u32 q8, d26, d0[0]\n\t"
        "vmlal.u32 q5, d26, d6[0]\n\t"
        "vmlal.u32 q7, d26, d8[0]\n\t"
        "vld4.32 {d20, d22, d24, d26}, [%[in]]!\n\t"
        "vmlal.u32 q6, d9, d6[0]\n\t"
        "vmlal.u32 q9, d9, d0[0]\n\t"
        "vld4.32 {d21, d23, d25, d27}, [%[in]]!\n\t"
        "vmlal.u32 q5, d9, d5[0]\n\t"
        "vmlal.u32 q8, d9, d8[0]\n\t"
        "vsri.32 q14, q13, #8\n\t"
        "vshl.i32 q13, q13, #18\n\t"
        "vmlal.u32 q7, d9, d7[0]\n\t"
        "vsra.u64 q6, q5, #26\n\t"
        "vsri.32 q13, q12, #14\n\t"
        "vshl.i32 q12, q12, #12\n\t"
        "vsra.u64 q9, q8, #26\n\t"
        "vmovn.i64 d10, q5\n\t"
        "vsri.32 q12, q11, #20\n\t"
        "vmovn.i64 d11, q6\n\t"
        "vshl.i32 q11, q11, #6\n\t"
        "vmovn.i64 d16, q8\n\t"
        "vbic.i32 q5, #0xfc000000\n\t"
        "vshrn.i64 d30, q9, #26\n\t"
        "vsri.32 q11, q10, #26\n\t"
        "vbic.i32 q10, #0xfc000000\n\t"
        "vadd.i32 d10, d10, d30\n\t"
        "vbic.i32 q11, #0xfc000000\n\t"
        "vshl.i32 d30, d30, #2\n\t"
        "vsra.u64 q7, q6, #26\n\t"
        "vmovn.i64 d17, q9\n\t"
        "vbic.i32 q13, #0xfc000000\n\t"
        "vaddl.u32 q6, d10, d30\n\t"
        "vbic.i32 q8, #0xfc000000\n\t"
        "vbic.i32 q12, #0xfc000000\n\t"
        "vshrn.i64 d31, q7, #26\n\t"
        "vmovn.i64 d14, q7\n\t"
        "vmovn.i64 d15, q6\n\t"
        "vadd.i32 d16, d16, d31\n\t"
        "vshrn.i64 d31, q6, #26\n\t"
        "vbic.i32 q7, #0xfc000000\n\t"
        "vsra.u32 d17, d16, #26\n\t"
        "vadd.i32 d11, d11, d31\n\t"
        "vbic.i32 d16, #0xfc000000\n\t"
        "bne 1b\n\t"
        "2:\n\t"
        : "=&w"(D0), "=&w"(D2), "=&w"(D3),
          "=&w"(L0), "=&w"(L1), "=&w"(L2), "=&w"(L3), "=&w"(L4),
          [in] "+r"(in), [n] "+r"(n), [h] "+r"(h26), [pw] "+r"(pw)
        :
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9",
          "d12", "d13", "d18", "d19", "d30", "d31", "cc", "memory");
    neon_last(st, L0, L1, L2, L3, L4,
              vreinterpret_u32_u64(vget_high_u64(D2)), vreinterpret_u32_u64(vget_high_u64(D0)),
              vreinterpret_u32_u64(vget_low_u64(D2)), vreinterpret_u32_u64(vget_low_u64(D3)),
              vreinterpret_u32_u64(vget_high_u64(D3)));
}

#endif
