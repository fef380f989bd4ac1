/* r64_asm.h -- aarch64: the radix-2^64 block loop as inline assembly, and
 *              its block step for the batch pairs (included by
 *              generic/r64.h only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_AARCH64_R64_ASM_H
#define POLYMAC_AARCH64_R64_ASM_H

/* aarch64 (little-endian) builds run it as inline assembly too: GCC's
 * code for the C loop waits on each block's load and orders the products
 * so that in-order cores (Cortex-A53/A55) stall on every carry.  Same
 * arithmetic and limbs as the C loop (bit-identical h), the next block
 * loaded while this one's products settle, so the loop's last block runs
 * once more after it without a load (nothing past the input is read).
 * Big-endian builds use C. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define POLYMAC_R64_ASM_A64 1
#define POLYMAC_R64_LOOP 1

/* One block of the aarch64 loop: M0, M1 hold the block; LOAD (the next
 * block's ldp, or nothing for the last block) sits where the load has
 * time to land; COUNT (the loop counter's step, or nothing) beside it.
 * a = t0 r0 + t1 s1 + (h2 >> 2) 5 r0 -> h0 and the carry into b;
 * b = t0 r1 + t1 r0 + h2 s1 + (a >> 64) -> h1 and h2.  Every register is
 * a parameter (an operand such as "%[h0]", or a register such as
 * "x10"), so that the batch pairs (r64_pairs.h) can run two messages in
 * one loop with the same instructions. */
#define POLYMAC_R64_A64_STEP_R(H0, H1, H2, M0, M1, R0, R1, S1, R05, Q, T, X0, X1, Y0, Y1, \
                               HB, LOAD, COUNT)                                   \
    "adds " M0 ", " M0 ", " H0 "\n\t"          /* t = h + m */                 \
    "adcs " M1 ", " M1 ", " H1 "\n\t"                                          \
    "adc " H2 ", " H2 ", " HB "\n\t"                                           \
    "mul " H0 ", " M0 ", " R0 "\n\t"           /* a = t0 r0 */                 \
    "umulh " H1 ", " M0 ", " R0 "\n\t"                                         \
    "lsr " Q ", " H2 ", #2\n\t"                                                \
    "mul " X0 ", " M1 ", " S1 "\n\t"           /*     + t1 s1 */               \
    "and " T ", " H2 ", #3\n\t"                                                \
    "umulh " X1 ", " M1 ", " S1 "\n\t"                                         \
    "mul " Y0 ", " Q ", " R05 "\n\t"           /*     + (h2 >> 2) 5 r0 */      \
    "umulh " Y1 ", " Q ", " R05 "\n\t"                                         \
    "adds " H0 ", " H0 ", " X0 "\n\t"                                          \
    "mul " X0 ", " M0 ", " R1 "\n\t"           /* b = t0 r1 */                 \
    "adc " H1 ", " H1 ", " X1 "\n\t"                                           \
    "umulh " X1 ", " M0 ", " R1 "\n\t"                                         \
    "adds " H0 ", " H0 ", " Y0 "\n\t"          /* h0 = a mod 2^64 */           \
    "mul " Y0 ", " M1 ", " R0 "\n\t"           /*     + t1 r0 */               \
    "adc " H1 ", " H1 ", " Y1 "\n\t"           /* h1 = a >> 64 */              \
    "umulh " Y1 ", " M1 ", " R0 "\n\t"                                         \
    "adds " X0 ", " X0 ", " Y0 "\n\t"                                          \
    "mul " Y0 ", " H2 ", " S1 "\n\t"           /*     + h2 s1 */               \
    "adc " X1 ", " X1 ", " Y1 "\n\t"                                           \
    "umulh " Y1 ", " H2 ", " S1 "\n\t"                                         \
    LOAD                                                                       \
    "adds " X0 ", " X0 ", " H1 "\n\t"          /*     + (a >> 64) */           \
    "adc " X1 ", " X1 ", xzr\n\t"                                              \
    "mul " Q ", " T ", " R0 "\n\t"             /* (h2 & 3) r0 */               \
    COUNT                                                                      \
    "adds " H1 ", " X0 ", " Y0 "\n\t"                                          \
    "adc " X1 ", " X1 ", " Y1 "\n\t"                                           \
    "add " H2 ", " X1 ", " Q "\n\t"

#define POLYMAC_R64_A64_STEP(LOAD)                                                  \
    POLYMAC_R64_A64_STEP_R("%[h0]", "%[h1]", "%[h2]", "%[m0]", "%[m1]", "%[r0]", "%[r1]", \
                           "%[s1]", "%[r05]", "%[q]", "%[t]", "%[x0]", "%[x1]", "%[y0]", \
                           "%[y1]", "%[hb]", LOAD, "sub %[n], %[n], #1\n\t")

static inline void polymac_r64_loop(uint64_t *hp0, uint64_t *hp1, uint64_t *hp2, uint64_t r0,
                                    uint64_t r1, uint64_t s1, const uint8_t *in, size_t nblocks,
                                    uint64_t hibit)
{
    uint64_t h0 = *hp0, h1 = *hp1, h2 = *hp2;
    if (nblocks) {
        uint64_t m0, m1, q, t, x0, x1, y0, y1;
        const uint64_t r0x5 = r0 * 5;                 /* < 2^62.4 */
        /* every operand a register: nothing derived from the key is
         * spilled by the loop itself */
        __asm__("ldp %[m0], %[m1], [%[in]], #16\n\t"
                "subs %[n], %[n], #1\n\t"
                "b.eq 2f\n"
                "1:\n\t"
                POLYMAC_R64_A64_STEP("ldp %[m0], %[m1], [%[in]], #16\n\t")
                "cbnz %[n], 1b\n"
                "2:\n\t"
                POLYMAC_R64_A64_STEP("")
                : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [in] "+&r"(in),
                  [n] "+&r"(nblocks), [m0] "=&r"(m0), [m1] "=&r"(m1), [q] "=&r"(q),
                  [t] "=&r"(t), [x0] "=&r"(x0), [x1] "=&r"(x1), [y0] "=&r"(y0),
                  [y1] "=&r"(y1)
                : [r0] "r"(r0), [r1] "r"(r1), [s1] "r"(s1), [r05] "r"(r0x5),
                  [hb] "r"(hibit)
                : "cc", "memory");
    }
    *hp0 = h0;
    *hp1 = h1;
    *hp2 = h2;
}
#endif

#endif
