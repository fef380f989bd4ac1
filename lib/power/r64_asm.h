/* r64_asm.h -- ppc64le: the radix-2^64 block loop as inline assembly, and
 *              its block step for the batch pairs (included by
 *              generic/r64.h only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_POWER_R64_ASM_H
#define POLYMAC_POWER_R64_ASM_H

/* ppc64le builds run it as inline assembly too: GCC's code for the C loop
 * builds each carry with subfc/subfe/neg instead of using the carry bit.
 * Same arithmetic and limbs as the C loop (bit-identical h), the products
 * of a block all issued before their sums, each sum a fresh carry chain
 * (addc starts one, adde continues it); every operand a register; only
 * ISA 2.07 (POWER8) instructions.  Big-endian POWER uses C. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define POLYMAC_R64_ASM_PPC64 1
#define POLYMAC_R64_LOOP 1

/* Where the batch pairs (r64_pairs.h) have ppc64le assembly: optimised
 * builds only, since -O0's frame pointer leaves its operands too few
 * registers. */
#if defined(POLYMAC_R64_ASM_PPC64) && defined(__OPTIMIZE__)
#  define POLYMAC_PAIRS_PPC64 1
#endif

/* One block of the ppc64le loop after its load: t = h + m formed in h0
 * and h1, every product issued before the sums, each sum a fresh carry
 * chain.  Every register is a parameter (an operand such as "%[h0]", or
 * a register number), so that the batch pairs (r64_pairs.h) can run two
 * messages in one loop with the same instructions. */
#define POLYMAC_R64_PPC_STEP_R(H0, H1, H2, M0, M1, A0, A1, X0, X1, B0, B1, Y0, Y1, W0, W1, \
                               Z0, Z1, R0, R1, S1, R05, HB)                      \
    "addc " H0 ", " H0 ", " M0 "\n\t"       /* t = h + m */                    \
    "adde " H1 ", " H1 ", " M1 "\n\t"                                          \
    "adde " H2 ", " H2 ", " HB "\n\t"                                          \
    "mulld " A0 ", " H0 ", " R0 "\n\t"      /* a = t0 r0 */                    \
    "mulhdu " A1 ", " H0 ", " R0 "\n\t"                                        \
    "mulld " X0 ", " H1 ", " S1 "\n\t"      /*     + t1 s1 */                  \
    "mulhdu " X1 ", " H1 ", " S1 "\n\t"                                        \
    "mulld " B0 ", " H0 ", " R1 "\n\t"      /* b = t0 r1 */                    \
    "mulhdu " B1 ", " H0 ", " R1 "\n\t"                                        \
    "mulld " Y0 ", " H1 ", " R0 "\n\t"      /*     + t1 r0 */                  \
    "mulhdu " Y1 ", " H1 ", " R0 "\n\t"                                        \
    "srdi " M0 ", " H2 ", 2\n\t"                                               \
    "mulld " W0 ", " H2 ", " S1 "\n\t"      /*     + h2 s1 */                  \
    "mulhdu " W1 ", " H2 ", " S1 "\n\t"                                        \
    "mulld " Z0 ", " M0 ", " R05 "\n\t"     /* a += (h2 >> 2) 5 r0 */          \
    "mulhdu " Z1 ", " M0 ", " R05 "\n\t"                                       \
    "clrldi " M1 ", " H2 ", 62\n\t"                                            \
    "mulld " H2 ", " M1 ", " R0 "\n\t"      /* (h2 & 3) r0 */                  \
    "addc " A0 ", " A0 ", " X0 "\n\t"                                          \
    "adde " A1 ", " A1 ", " X1 "\n\t"                                          \
    "addc " B0 ", " B0 ", " Y0 "\n\t"                                          \
    "adde " B1 ", " B1 ", " Y1 "\n\t"                                          \
    "addc " B0 ", " B0 ", " W0 "\n\t"                                          \
    "adde " B1 ", " B1 ", " W1 "\n\t"                                          \
    "addc " H0 ", " A0 ", " Z0 "\n\t"       /* h0 = a mod 2^64 */              \
    "adde " A1 ", " A1 ", " Z1 "\n\t"                                          \
    "addc " H1 ", " B0 ", " A1 "\n\t"       /* h1 = b + (a >> 64) */           \
    "adde " H2 ", " H2 ", " B1 "\n\t"

static inline void polymac_r64_loop(uint64_t *hp0, uint64_t *hp1, uint64_t *hp2, uint64_t r0,
                                    uint64_t r1, uint64_t s1, const uint8_t *in, size_t nblocks,
                                    uint64_t hibit)
{
    uint64_t h0 = *hp0, h1 = *hp1, h2 = *hp2;
    if (nblocks) {
        uint64_t m0, m1, a0, a1, x0, x1, b0, b1, y0, y1, w0, w1, z0, z1;
        const uint64_t r0x5 = r0 * 5;                 /* < 2^62.4 */
        /* t0, t1 are formed in h0, h1; a = (a1, a0), b = (b1, b0) */
        __asm__("mtctr %[n]\n"
                "0:\n\t"
                "ld %[m0], 0(%[in])\n\t"
                "ld %[m1], 8(%[in])\n\t"
                "addi %[in], %[in], 16\n\t"
                POLYMAC_R64_PPC_STEP_R("%[h0]", "%[h1]", "%[h2]", "%[m0]", "%[m1]", "%[a0]",
                                       "%[a1]", "%[x0]", "%[x1]", "%[b0]", "%[b1]", "%[y0]",
                                       "%[y1]", "%[w0]", "%[w1]", "%[z0]", "%[z1]", "%[r0]",
                                       "%[r1]", "%[s1]", "%[r05]", "%[hb]")
                "bdnz 0b"
                : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [in] "+&b"(in),
                  [m0] "=&r"(m0), [m1] "=&r"(m1), [a0] "=&r"(a0), [a1] "=&r"(a1),
                  [x0] "=&r"(x0), [x1] "=&r"(x1), [b0] "=&r"(b0), [b1] "=&r"(b1),
                  [y0] "=&r"(y0), [y1] "=&r"(y1), [w0] "=&r"(w0), [w1] "=&r"(w1),
                  [z0] "=&r"(z0), [z1] "=&r"(z1)
                : [n] "r"(nblocks), [r0] "r"(r0), [r1] "r"(r1), [s1] "r"(s1),
                  [r05] "r"(r0x5), [hb] "r"(hibit)
                : "ctr", "xer", "cc", "memory");
    }
    *hp0 = h0;
    *hp1 = h1;
    *hp2 = h2;
}
#endif

#endif
