/* r64.h -- scalar radix-2^64 Poly1305 arithmetic, shared by generic-r64 and
 *          the short-message paths of the SIMD kernels */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_R64_H
#define POLYMAC_R64_H

#include "../util.h"

#if !defined(__SIZEOF_INT128__)
#error "radix 2^64 needs unsigned __int128"
#endif

typedef unsigned __int128 polymac_u128;

/* h = h0 + h1 2^64 + h2 2^128, partially reduced: h2 < 2^63 between
 * blocks (polymac_r64_core says why).  r = r0 + r1 2^64 (clamped, so
 * r0, r1 < 2^60 and 4 | r1). */
struct polymac_r64 {
    uint64_t h0, h1, h2;
    uint64_t r0, r1;
};

static inline void polymac_r64_init(struct polymac_r64 *st, const uint8_t r[16])
{
    st->h0 = st->h1 = st->h2 = 0;
    polymac_clamp64(&st->r0, &st->r1, r);     /* a no-op on a clamped r */
}

/* x86-64 builds run the block loop below as inline assembly: GCC keeps
 * the 128-bit sums in flag carries there (in C it spills them to memory
 * or builds carries with setb), and the order of the multiplies, those of
 * the new message words first, is the one that keeps the multiplier busy
 * while the carry into h2 settles.  Same arithmetic, same limbs, so the
 * two paths give bit-identical h; POLYMAC_R64_PORTABLE forces the C one
 * (tools/run-tests runs the kernel suites on such a build too).  Sanitizers cannot see inside the
 * assembly, so their builds use C too. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(POLYMAC_R64_PORTABLE)
#  define POLYMAC_R64_ASM 1
#  if defined(__SANITIZE_ADDRESS__)
#    undef POLYMAC_R64_ASM
#  endif
#  if defined(__has_feature)
#    if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#      undef POLYMAC_R64_ASM
#    endif
#  endif
#endif

#ifdef POLYMAC_R64_ASM
#  include <emmintrin.h>            /* the tag's one 16-byte store */
#endif

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
 * builds (the frame pointer is r11), POLYMAC_R64_PORTABLE and sanitizer
 * builds use C. */
#if defined(__s390x__) && defined(__GNUC__) && defined(__OPTIMIZE__) \
    && !defined(POLYMAC_R64_PORTABLE)
#  define POLYMAC_R64_ASM_S390X 1
#  if defined(__SANITIZE_ADDRESS__)
#    undef POLYMAC_R64_ASM_S390X
#  endif
#  if defined(__has_feature)
#    if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#      undef POLYMAC_R64_ASM_S390X
#    endif
#  endif
#endif

/* aarch64 (little-endian) builds run it as inline assembly too: GCC's
 * code for the C loop waits on each block's load and orders the products
 * so that in-order cores (Cortex-A53/A55) stall on every carry.  Same
 * arithmetic and limbs as the C loop (bit-identical h), the next block
 * loaded while this one's products settle, so the loop's last block runs
 * once more after it without a load (nothing past the input is read).
 * POLYMAC_R64_PORTABLE and sanitizer builds use C. */
#if defined(__aarch64__) && defined(__GNUC__) && !defined(POLYMAC_R64_PORTABLE) \
    && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#  define POLYMAC_R64_ASM_A64 1
#  if defined(__SANITIZE_ADDRESS__)
#    undef POLYMAC_R64_ASM_A64
#  endif
#  if defined(__has_feature)
#    if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#      undef POLYMAC_R64_ASM_A64
#    endif
#  endif
#endif

/* ppc64le builds run it as inline assembly too: GCC's code for the C loop
 * builds each carry with subfc/subfe/neg instead of using the carry bit.
 * Same arithmetic and limbs as the C loop (bit-identical h), the products
 * of a block all issued before their sums, each sum a fresh carry chain
 * (addc starts one, adde continues it); every operand a register; only
 * ISA 2.07 (POWER8) instructions.  Big-endian POWER, POLYMAC_R64_PORTABLE
 * and sanitizer builds use C. */
#if defined(__powerpc64__) && defined(__GNUC__) && !defined(POLYMAC_R64_PORTABLE) \
    && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#  define POLYMAC_R64_ASM_PPC64 1
#  if defined(__SANITIZE_ADDRESS__)
#    undef POLYMAC_R64_ASM_PPC64
#  endif
#  if defined(__has_feature)
#    if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#      undef POLYMAC_R64_ASM_PPC64
#    endif
#  endif
#endif

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

/* h = (h + m) r mod p for each block, partially reduced.  With
 * h = h0 + h1 2^64 + h2 2^128 and r = r0 + r1 2^64 (4 | r1):
 *   h1 r1 2^128 = h1 (r1/4) 2^130        == s1 h1           (s1 = 5 r1/4)
 *   h2 r1 2^192 = h2 (r1/4) 2^64 2^130   == s1 h2 2^64
 *   h2 r0 2^128 = (4 q + t) r0 2^128     == 5 r0 q + t r0 2^128  (q = h2/4, t = h2%4)
 * so the product lands in three columns with no reduction step after the
 * multiplies: the 2^130 fold of h2 happens on the way in, off the critical
 * path (the arrangement of Nettle's x86-64 code).  h2 is not kept small:
 * it stays below 2^63 (a < 2^125.5, b + (a >> 64) < 2^125.4, so the new
 * h2 < 2^61.4 + 3 r0 < 2^62.3; with a carry and hibit added it is still
 * below 2^63).  Keeping h2 below 8 instead (a reduction after the
 * multiplies, as OpenSSL does) saves two full multiplies but lengthens
 * the chain from one block to the next: measured slower on Intel, in C
 * and in assembly alike.  Works on plain scalars so callers can keep h in
 * registers. */
static inline void polymac_r64_core(uint64_t h[3], uint64_t r0, uint64_t r1,
                                    const uint8_t *in, size_t nblocks, uint64_t hibit)
{
    const uint64_t s1 = (r1 >> 2) * 5;                /* < 2^60.4 */
    uint64_t h0 = h[0], h1 = h[1], h2 = h[2];

#ifdef POLYMAC_R64_ASM
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
#elif defined(POLYMAC_R64_ASM_S390X)
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
#elif defined(POLYMAC_R64_ASM_PPC64)
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
#elif defined(POLYMAC_R64_ASM_A64)
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
#else
    const uint64_t r0x5 = r0 * 5;                     /* < 2^62.4 */
    while (nblocks--) {
        /* h += m, with 64-bit carries (GCC spills 128-bit sums to memory) */
        uint64_t m0 = polymac_load64le(in), m1 = polymac_load64le(in + 8);
        h0 += m0;
        uint64_t c = h0 < m0;
        h1 += c;
        c = h1 < c;
        h1 += m1;
        c += h1 < m1;
        h2 += c + hibit;                              /* < 2^63 */

        polymac_u128 a = (polymac_u128)h0 * r0 + (polymac_u128)h1 * s1
                         + (polymac_u128)(h2 >> 2) * r0x5;
        polymac_u128 b = (polymac_u128)h0 * r1 + (polymac_u128)h1 * r0
                         + (polymac_u128)h2 * s1;
        h0 = (uint64_t)a;
        b += (uint64_t)(a >> 64);
        h1 = (uint64_t)b;
        h2 = (uint64_t)(b >> 64) + (h2 & 3) * r0;
        in += 16;
    }
#endif
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
}

static inline void polymac_r64_blocks(struct polymac_r64 *st, const uint8_t *in,
                                      size_t nblocks, uint64_t hibit)
{
    uint64_t h[3] = {st->h0, st->h1, st->h2};
    polymac_r64_core(h, st->r0, st->r1, in, nblocks, hibit);
    st->h0 = h[0];
    st->h1 = h[1];
    st->h2 = h[2];
}

/* h mod 2^130 + 5 (h >> 130): the same value mod p, with h2 <= 4. */
static inline void polymac_r64_fold(uint64_t h[3], uint64_t h0, uint64_t h1, uint64_t h2)
{
    uint64_t c = (h2 >> 2) * 5;
    polymac_u128 t = (polymac_u128)h0 + c;
    h[0] = (uint64_t)t;
    t = (t >> 64) + h1;
    h[1] = (uint64_t)t;
    h[2] = (h2 & 3) + (uint64_t)(t >> 64);
}

/* Fully reduces h mod p (constant time) and returns it in (*lo, *hi);
 * h2 may be anything below 2^63. */
static inline void polymac_r64_reduce(uint64_t h0, uint64_t h1, uint64_t h2,
                                      uint64_t *lo, uint64_t *hi)
{
    uint64_t f[3];
    polymac_r64_fold(f, h0, h1, h2);
    h0 = f[0];
    h1 = f[1];
    h2 = f[2];
    /* g = h + 5 - 2^130; use it when h >= p, i.e. when g has bit 130 */
    polymac_u128 t = (polymac_u128)h0 + 5;
    uint64_t g0 = (uint64_t)t;
    t = (t >> 64) + h1;
    uint64_t g1 = (uint64_t)t;
    uint64_t g2 = h2 + (uint64_t)(t >> 64);
    uint64_t mask = (uint64_t)0 - (g2 >> 2);      /* all ones when h >= p */
    *lo = (h0 & ~mask) | (g0 & mask);
    *hi = (h1 & ~mask) | (g1 & mask);
}

/* (h mod p + s) mod 2^128 into tag, h2 below 2^63.  On x86-64 in
 * assembly, the steps of polymac_r64_reduce (h2's bits from 2^130 folded
 * in times 5; g = h + 5, which reaches 2^130 exactly when h >= p, chosen
 * by a mask, no branch) and the sum with s: GCC 12 builds the C's
 * 128-bit sums with long chains of flag-to-register moves.  One 16-byte
 * store, which a 16-byte load of the tag (the batch front end copies
 * tags on) can forward from. */
static inline void polymac_r64_finish(uint8_t tag[16], uint64_t h0, uint64_t h1,
                                      uint64_t h2, const uint8_t s[16])
{
#ifdef POLYMAC_R64_ASM
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
#else
    uint64_t lo, hi;
    polymac_r64_reduce(h0, h1, h2, &lo, &hi);
    polymac_add_s_store(tag, lo, hi, s);
#endif
}

/* The tag from h in radix 2^64: reduced, plus s, stored.  Every kernel's
 * emit ends here; wiping is the caller's (it knows what it stored). */
static inline void polymac_r64_tag(const struct polymac_r64 *st, uint8_t tag[16],
                                   const uint8_t s[16])
{
    polymac_r64_finish(tag, st->h0, st->h1, st->h2, s);
}

static inline void polymac_r64_emit(struct polymac_r64 *st, uint8_t tag[16],
                                    const uint8_t s[16])
{
    polymac_r64_tag(st, tag, s);
    polymac_wipe(st, sizeof *st);
}

/* The whole one-shot MAC in radix 2^64.  h and r stay in local scalars
 * (registers); only the padded copy of a partial block touches memory,
 * and it is wiped.  Callers keep the stack rule with polymac_r64_oneshot. */
static inline void polymac_r64_auth(uint8_t tag[16], const uint8_t *msg, size_t len,
                                    const uint8_t key[32])
{
    uint64_t h[3] = {0, 0, 0}, r0, r1;
    size_t rest = len % 16;
    polymac_clamp64(&r0, &r1, key);
    polymac_r64_core(h, r0, r1, msg, len / 16, 1);
    if (rest) {
        uint8_t last[16];
        polymac_pad_last(last, msg + (len - rest), rest);
        polymac_r64_core(h, r0, r1, last, 1, 0);
        polymac_wipe(last, sizeof last);
    }
    polymac_r64_finish(tag, h[0], h[1], h[2], key + 16);
}

/*
 * polymac_r64_auth under the stack rule (kernel.h), the short messages'
 * one-shot of every kernel with an auth.  Where the block loop is x86-64
 * assembly, h, r and the key stay in registers and the code is inlined
 * into its caller.  Elsewhere the loop is C, and compilers spill r, s1 or
 * h into the frame (GCC 12 on s390x spills r1): the code runs out of
 * line, and its dead frame is zeroed right after, as deep as
 * POLYMAC_R64_STACK_BYTES (the frame -fstack-usage gives, rounded up with
 * room to spare).
 */
#ifdef POLYMAC_R64_ASM
static inline void polymac_r64_oneshot(uint8_t tag[16], const uint8_t *msg, size_t len,
                                       const uint8_t key[32])
{
    polymac_r64_auth(tag, msg, len, key);
}
#else
#if defined(__aarch64__) || defined(__powerpc64__)
#define POLYMAC_R64_STACK_BYTES 256     /* frames of 112 (aarch64), 208 (ppc64le) */
#else
#define POLYMAC_R64_STACK_BYTES 512     /* s390x: 280, a 160-byte register save area */
#endif
__attribute__((noinline)) static void polymac_r64_oneshot_frame(uint8_t tag[16],
                                                                const uint8_t *msg, size_t len,
                                                                const uint8_t key[32])
{
    polymac_r64_auth(tag, msg, len, key);
}

static inline void polymac_r64_oneshot(uint8_t tag[16], const uint8_t *msg, size_t len,
                                       const uint8_t key[32])
{
    polymac_r64_oneshot_frame(tag, msg, len, key);
    polymac_burn_stack(POLYMAC_R64_STACK_BYTES);
}
#endif

/* Radix conversions for SIMD kernels that keep h in smaller limbs.
 * r26: five limbs of 26 bits (the top limb may exceed 26 bits slightly
 * when h is only partially reduced; to_r26 keeps all bits). */
static inline void polymac_r64_to_r26(const struct polymac_r64 *st, uint64_t l[5])
{
    uint64_t h[3];
    polymac_r64_fold(h, st->h0, st->h1, st->h2);      /* h2 <= 4 */
    l[0] = h[0] & 0x3ffffff;
    l[1] = (h[0] >> 26) & 0x3ffffff;
    l[2] = ((h[0] >> 52) | (h[1] << 12)) & 0x3ffffff;
    l[3] = (h[1] >> 14) & 0x3ffffff;
    l[4] = (h[1] >> 40) | (h[2] << 24);
}

/* Takes limbs of up to 63 bits each (carries not yet propagated) and
 * stores their sum h = l0 + l1 2^26 + ... + l4 2^104 in st, partially
 * reduced (h2 <= 4). */
static inline void polymac_r64_from_r26(struct polymac_r64 *st, const uint64_t l[5])
{
    polymac_u128 t = (polymac_u128)l[0] + ((polymac_u128)l[1] << 26)
                     + ((polymac_u128)l[2] << 52);
    uint64_t h0 = (uint64_t)t;
    t = (t >> 64) + ((polymac_u128)l[3] << 14) + ((polymac_u128)l[4] << 40);
    uint64_t f[3];
    polymac_r64_fold(f, h0, (uint64_t)t, (uint64_t)(t >> 64));
    st->h0 = f[0];
    st->h1 = f[1];
    st->h2 = f[2];
}

/* r44: three limbs of 44, 44 and 42 bits (radix 2^44, for IFMA). */
static inline void polymac_r64_to_r44(const struct polymac_r64 *st, uint64_t l[3])
{
    uint64_t h[3];
    polymac_r64_fold(h, st->h0, st->h1, st->h2);      /* h2 <= 4 */
    l[0] = h[0] & 0xfffffffffff;
    l[1] = ((h[0] >> 44) | (h[1] << 20)) & 0xfffffffffff;
    l[2] = (h[1] >> 24) | (h[2] << 40);
}

/* Takes limbs of up to 63 bits each and stores their sum
 * l0 + l1 2^44 + l2 2^88 in st, partially reduced. */
static inline void polymac_r64_from_r44(struct polymac_r64 *st, const uint64_t l[3])
{
    polymac_u128 t = (polymac_u128)l[0] + ((polymac_u128)l[1] << 44);
    uint64_t h0 = (uint64_t)t;
    t = (t >> 64) + ((polymac_u128)l[2] << 24);
    uint64_t f[3];
    polymac_r64_fold(f, h0, (uint64_t)t, (uint64_t)(t >> 64));
    st->h0 = f[0];
    st->h1 = f[1];
    st->h2 = f[2];
}

#endif
