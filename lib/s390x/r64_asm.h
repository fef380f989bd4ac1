/* r64_asm.h -- s390x: the radix-2^64 block loop as inline assembly
 *              (included by generic/r64.h only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_S390X_R64_ASM_H
#define POLYMAC_S390X_R64_ASM_H

/* s390x builds run it as inline assembly too: GCC's code for the C loop
 * copies registers in and out of the even/odd pairs MLGR needs, stores and
 * reloads intermediates and keeps the loop counter in a floating-point
 * register.  Same arithmetic and limbs as the C loop (bit-identical h),
 * only z196 instructions (Debian's s390x baseline).  Each of the six
 * products has an even/odd pair to itself but one (s1 h2 reuses the pair
 * of r1 t0, the earliest), so no multiply waits for another's pair; the
 * key-derived constants and hibit are memory operands (MLG, MSG, or
 * loaded into a pair before its multiply) so that the pairs, h2, the
 * pointer and the counter fit in the registers GCC leaves.  Unoptimized
 * builds (the frame pointer is r11) use C. */
#if defined(__OPTIMIZE__)
#define POLYMAC_R64_ASM_S390X 1
#define POLYMAC_R64_LOOP 1

static inline void polymac_r64_loop(uint64_t *hp0, uint64_t *hp1, uint64_t *hp2, uint64_t r0,
                                    uint64_t r1, uint64_t s1, const uint8_t *in, size_t nblocks,
                                    uint64_t hibit)
{
    uint64_t h0 = *hp0, h1 = *hp1, h2 = *hp2;
    if (nblocks) {
        /* MLGR p, x: the pair p (even = high, odd = low) = p.odd * x.
         * h0 and h1 live in r7 and r9, where t0 and t1 are formed: the
         * odd halves of (r6, r7) and (r8, r9), which take t0 r0 and t1 s1
         * in place; (r10, r11) takes r1 t0, then s1 h2; (r0, r1) r0 t1;
         * (r2, r3) hibit, then (h2 >> 2) 5 r0.  b collects in (r0, r1), a in (r6, r7).
         * h2 lives in r14.  k (the key-derived constants) is wiped after
         * the loop. */
        register uint64_t x7 __asm__("r7") = h0;
        register uint64_t x9 __asm__("r9") = h1;
        register uint64_t x14 __asm__("r14") = h2;
        uint64_t k[5] = {r1, r0, s1, r0 * 5, hibit};  /* 5 r0 < 2^62.4 */
        __asm__("0:\n\t"
                "lrvg %%r3, 0(%[in])\n\t"
                "lrvg %%r1, 8(%[in])\n\t"
                "la %[in], 16(%[in])\n\t"
                "lg %%r2, 32+%[k]\n\t"           /* hibit */
                "algr %%r7, %%r3\n\t"            /* t = h + m */
                "alcgr %%r9, %%r1\n\t"
                "alcgr %%r14, %%r2\n\t"
                "lg %%r11, %[k]\n\t"
                "mlgr %%r10, %%r7\n\t"           /* b = r1 t0 */
                "mlg %%r6, 8+%[k]\n\t"           /* a = r0 t0 */
                "lg %%r1, 8+%[k]\n\t"
                "mlgr %%r0, %%r9\n\t"            /* b += r0 t1 */
                "mlg %%r8, 16+%[k]\n\t"          /* a += s1 t1 */
                "srlg %%r3, %%r14, 2\n\t"
                "mlg %%r2, 24+%[k]\n\t"          /* a += (h2 >> 2) 5 r0 */
                "algr %%r1, %%r11\n\t"
                "alcgr %%r0, %%r10\n\t"
                "lg %%r11, 16+%[k]\n\t"
                "mlgr %%r10, %%r14\n\t"          /* b += s1 h2 */
                "algr %%r7, %%r9\n\t"
                "alcgr %%r6, %%r8\n\t"
                "risbg %%r14, %%r14, 62, 128+63, 0\n\t"
                "msg %%r14, 8+%[k]\n\t"          /* (h2 & 3) r0 */
                "algr %%r1, %%r11\n\t"
                "alcgr %%r0, %%r10\n\t"
                "algr %%r7, %%r3\n\t"            /* h0 = a mod 2^64 */
                "alcgr %%r6, %%r2\n\t"
                "algrk %%r9, %%r1, %%r6\n\t"     /* h1 = b + (a >> 64) */
                "alcgr %%r14, %%r0\n\t"          /* h2 */
                "brctg %[n], 0b"
                : "+&r"(x7), "+&r"(x9), "+&r"(x14), [in] "+&a"(in), [n] "+&d"(nblocks)
                : [k] "m"(k)
                : "r0", "r1", "r2", "r3", "r6", "r8", "r10", "r11", "cc", "memory");
        polymac_wipe(k, sizeof k);
        h0 = x7;
        h1 = x9;
        h2 = x14;
    }
    *hp0 = h0;
    *hp1 = h1;
    *hp2 = h2;
}
#endif

#endif
