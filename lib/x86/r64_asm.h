/* r64_asm.h -- x86-64: the radix-2^64 block loop and the tag's reduction
 *              as inline assembly (included by generic/r64.h only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_X86_R64_ASM_H
#define POLYMAC_X86_R64_ASM_H

#include <emmintrin.h>            /* the tag's one 16-byte store */

/* x86-64 builds run the block loop below as inline assembly: GCC keeps
 * the 128-bit sums in flag carries there (in C it spills them to memory
 * or builds carries with setb), and the order of the multiplies, those of
 * the new message words first, is the one that keeps the multiplier busy
 * while the carry into h2 settles.  Same arithmetic, same limbs, so the
 * two paths give bit-identical h; POLYMAC_R64_PORTABLE forces the C one
 * (tools/run-tests runs the kernel suites on such a build too). */
#define POLYMAC_R64_ASM 1
#define POLYMAC_R64_LOOP 1
#define POLYMAC_R64_FINISH 1

static inline void polymac_r64_loop(uint64_t *hp0, uint64_t *hp1, uint64_t *hp2, uint64_t r0,
                                    uint64_t r1, uint64_t s1, const uint8_t *in, size_t nblocks,
                                    uint64_t hibit)
{
    uint64_t h0 = *hp0, h1 = *hp1, h2 = *hp2;
    if (nblocks) {
        uint64_t t0, t1, f0, f1;
        /* Every operand is a register except hibit (public; it may be an
         * immediate or sit in memory): nothing derived from the key is
         * spilled.  14 registers, so it fits beside a frame pointer. */
        __asm__("1:\n\t"
                "mov 0(%[in]), %[t0]\n\t"
                "mov 8(%[in]), %[t1]\n\t"
                "add %[h0], %[t0]\n\t"            /* t = h + m */
                "adc %[h1], %[t1]\n\t"
                "adc %[hb], %[h2]\n\t"
                "mov %[r1], %%rax\n\t"
                "mulq %[t0]\n\t"                  /* f = r1 t0 */
                "mov %%rax, %[f0]\n\t"
                "mov %%rdx, %[f1]\n\t"
                "mov %[r0], %%rax\n\t"
                "mulq %[t0]\n\t"                  /* a = r0 t0 */
                "mov %%rax, %[h0]\n\t"
                "mov %%rdx, %[h1]\n\t"
                "mov %[r0], %%rax\n\t"
                "mulq %[t1]\n\t"                  /* f += r0 t1 */
                "add %%rax, %[f0]\n\t"
                "adc %%rdx, %[f1]\n\t"
                "mov %[s1], %%rax\n\t"
                "mulq %[t1]\n\t"                  /* a += s1 t1 */
                "add %%rax, %[h0]\n\t"
                "adc %%rdx, %[h1]\n\t"
                "mov %[s1], %%rax\n\t"
                "mulq %[h2]\n\t"                  /* f += s1 h2 */
                "add %%rax, %[f0]\n\t"
                "adc %%rdx, %[f1]\n\t"
                "mov %[h2], %[t0]\n\t"
                "and $3, %[h2]\n\t"
                "shr $2, %[t0]\n\t"
                "lea (%[r0],%[r0],4), %%rax\n\t"
                "mulq %[t0]\n\t"                  /* a += 5 r0 (h2 >> 2) */
                "add %%rax, %[h0]\n\t"
                "adc %%rdx, %[h1]\n\t"
                "imul %[r0], %[h2]\n\t"           /* (h2 & 3) r0 */
                "add %[f0], %[h1]\n\t"            /* h1 = (a >> 64) + f */
                "adc %[f1], %[h2]\n\t"
                "add $16, %[in]\n\t"
                "sub $1, %[n]\n\t"
                "jnz 1b"
                : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [in] "+&r"(in),
                  [n] "+&r"(nblocks), [t0] "=&r"(t0), [t1] "=&r"(t1), [f0] "=&r"(f0),
                  [f1] "=&r"(f1)
                : [r0] "r"(r0), [r1] "r"(r1), [s1] "r"(s1), [hb] "rme"(hibit)
                : "rax", "rdx", "cc", "memory");
    }
    *hp0 = h0;
    *hp1 = h1;
    *hp2 = h2;
}

/* (h mod p + s) mod 2^128 into tag, h2 below 2^63: polymac_r64_reduce's
 * steps and the sum with s in assembly (GCC 12 builds the C's 128-bit sums
 * with long chains of flag-to-register moves), one 16-byte store, which a
 * 16-byte load of the tag can forward from. */
static inline void polymac_r64_finish_arch(uint8_t tag[16], uint64_t h0, uint64_t h1,
                                           uint64_t h2, const uint8_t s[16])
{
    uint64_t c, g0, g1;
    __asm__("mov %[h2], %[c]\n\t"
            "shr $2, %[c]\n\t"
            "and $3, %[h2]\n\t"
            "lea (%[c],%[c],4), %[c]\n\t"       /* 5 (h2 >> 2) */
            "add %[c], %[h0]\n\t"
            "adc $0, %[h1]\n\t"
            "adc $0, %[h2]\n\t"                 /* h2 <= 4 */
            "mov %[h0], %[g0]\n\t"
            "mov %[h1], %[g1]\n\t"
            "mov %[h2], %[c]\n\t"
            "add $5, %[g0]\n\t"                 /* g = h + 5 */
            "adc $0, %[g1]\n\t"
            "adc $0, %[c]\n\t"
            "shr $2, %[c]\n\t"                  /* 1 when h >= p */
            "neg %[c]\n\t"
            "xor %[h0], %[g0]\n\t"
            "xor %[h1], %[g1]\n\t"
            "and %[c], %[g0]\n\t"
            "and %[c], %[g1]\n\t"
            "xor %[g0], %[h0]\n\t"
            "xor %[g1], %[h1]\n\t"
            "add %[s0], %[h0]\n\t"              /* + s */
            "adc %[s1], %[h1]"
            : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [c] "=&r"(c), [g0] "=&r"(g0),
              [g1] "=&r"(g1)
            : [s0] "m"(*(const uint64_t *)s), [s1] "m"(*(const uint64_t *)(s + 8))
            : "cc");
    _mm_storeu_si128((__m128i *)tag, _mm_set_epi64x((long long)h1, (long long)h0));
}

#endif
