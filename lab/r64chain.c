/* r64chain.c -- is the radix-2^64 block step bound by its chain or by its
 *               instructions on this CPU? (build/lab/polymac-r64-chain) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * The scalar code every kernel runs below its vector break-even is one
 * block step a block, each waiting on the h of the block before
 * (generic/r64.h).  A step over two blocks with r^2 (one product by r^2
 * on the chain, the other block's product by r beside it) shortens that
 * chain by half, at the cost of more multiplies and adds a block: it can
 * pay only where the chain, not the instructions, sets the speed.  This
 * program measures which, with the library's own instructions (x86/
 * r64_asm.h's step, the same string the one-shot, the state's blocks and
 * the spans run), over 256 blocks, the least of 301 timings, in TSC
 * ticks a block:
 *   chained:  the block loop as the library runs it (polymac_r64_loop);
 *   unchained: the same step with h reset from constants before each
 *              block, so that no block waits on the one before: the
 *              bound of its instructions alone;
 *   pairs:    two messages in one loop (r64_pairs.h's step), a block of
 *             each: what interleaving independent chains gives.
 * chained / unchained near 1 says the step is bound by its instructions
 * (a two-block step with r^2, which adds instructions, cannot win there);
 * above 1, 1 - unchained / chained is the share of the time the chain
 * holds up, the most such a step could save before its own cost.  Also
 * TSC ticks per core cycle, from a chain of dependent adds, to turn ticks
 * into core cycles, and the throughput of the 128-bit multiply both
 * steps are made of.  x86-64 native
 * builds only.
 */
#include <stdio.h>
#include <string.h>

#include "kernel.h"
#include "generic/r64.h"
#include "../test/ticks.h"

#ifndef POLYMAC_R64_ASM
int main(void)
{
    fputs("polymac-r64-chain: times x86/r64_asm.h's step; this build has the C loop "
          "(a sanitizer or POLYMAC_R64_PORTABLE build)\n", stderr);
    return 1;
}
#else
#include "generic/r64_pairs.h"

enum { BLOCKS = 256, ROUNDS = 301 };

static uint8_t msg[2][16 * BLOCKS];

typedef void (*run_fn)(const uint8_t *in);

static uint64_t r0, r1, s1;
static volatile uint64_t sink;

static void chained(const uint8_t *in)
{
    uint64_t h0 = 0, h1 = 0, h2 = 0;
    polymac_r64_loop(&h0, &h1, &h2, r0, r1, s1, in, BLOCKS, 1);
    sink = h0 ^ h1 ^ h2;
}

static void unchained(const uint8_t *in)
{
    uint64_t h0 = 0, h1 = 0, h2 = 0, t0, t1, f0, f1, rr0 = r0, rr1 = r1, ss1 = s1;
    size_t n = BLOCKS;
    __asm__ volatile("1:\n\t"
                     "mov %[r1], %[h0]\n\t"         /* h from constants: no chain */
                     "mov %[r0], %[h1]\n\t"
                     "mov $3, %[h2]\n\t"
                     POLYMAC_R64_ASM_BLOCK("$1")
                     "sub $1, %[n]\n\t"
                     "jnz 1b"
                     : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [in] "+&r"(in),
                       [n] "+&r"(n), [t0] "=&r"(t0), [t1] "=&r"(t1), [f0] "=&r"(f0),
                       [f1] "=&r"(f1)
                     : [r0] "r"(rr0), [r1] "r"(rr1), [s1] "r"(ss1)
                     : "rax", "rdx", "cc", "memory");
    sink = h0 ^ h1 ^ h2;
}

static void pairs(const uint8_t *in)
{
    uint64_t a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
    const uint64_t k[8] = {r0, r1, s1, r0 * 5, r0, r1, s1, r0 * 5};
    polymac_pairs_core(a, b, k, in, msg[1] - msg[0], BLOCKS, 1);
    sink = a[0] ^ b[0];
}

static double least(run_fn f)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < ROUNDS; i++) {
        const uint64_t t0 = test_ticks();
        f(msg[0]);
        const uint64_t t = test_ticks() - t0;
        best = t < best ? t : best;
    }
    return (double)best / BLOCKS;
}

/* 128-bit products (mul r64) a TSC tick: 16 x 2^20 of them, none
 * waiting on another, so that only the multipliers' throughput bounds
 * them.  The step has six such products and one 64-bit one a block; a
 * two-block step with r^2 has about nine on its chain (r^2 is not
 * clamped: docs/log.md, 2026-12-05). */
#define MUL2(x, y) "mov %[" x "], %%rax\n\t" "mulq %[" y "]\n\t"
#define MUL8 MUL2("a", "b") MUL2("c", "d") MUL2("a", "c") MUL2("b", "d") \
             MUL2("a", "d") MUL2("b", "c") MUL2("c", "b") MUL2("d", "a")
static double mul_ticks(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 11; i++) {
        uint64_t n = 1u << 20;
        const uint64_t a = r0 | 1, b = r1 | 1, c = s1 | 1, d = r0 ^ r1;
        const uint64_t t0 = test_ticks();
        __asm__ volatile("1:\n\t"
                         MUL8 MUL8
                         "sub $1, %[n]\n\t"
                         "jnz 1b"
                         : [n] "+r"(n)
                         : [a] "r"(a), [b] "r"(b), [c] "r"(c), [d] "r"(d)
                         : "rax", "rdx", "cc");
        const uint64_t t = test_ticks() - t0;
        best = t < best ? t : best;
    }
    return (double)best / (16.0 * (1u << 20));
}

/* TSC ticks per core cycle: 4 x 2^22 dependent adds, one cycle each */
static double ticks_per_cycle(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 11; i++) {
        uint64_t x = 1, n = 1u << 22;
        const uint64_t t0 = test_ticks();
        __asm__ volatile("1:\n\t"
                         "add %[x], %[x]\n\t"
                         "add %[x], %[x]\n\t"
                         "add %[x], %[x]\n\t"
                         "add %[x], %[x]\n\t"
                         "sub $1, %[n]\n\t"
                         "jnz 1b"
                         : [x] "+r"(x), [n] "+r"(n)
                         :
                         : "cc");
        const uint64_t t = test_ticks() - t0;
        best = t < best ? t : best;
    }
    return (double)best / (4.0 * (1u << 22));
}

int main(void)
{
    for (size_t i = 0; i < sizeof msg; i++)
        ((uint8_t *)msg)[i] = (uint8_t)(i * 131 + 7);
    uint8_t key[16];
    for (int i = 0; i < 16; i++)
        key[i] = (uint8_t)(0xa5 ^ (i * 29));
    polymac_clamp64(&r0, &r1, key);
    s1 = (r1 >> 2) * 5;

    (void)polymac_pairs_lanes;
    const double tpc = ticks_per_cycle();
    double c = 0, u = 0, p = 0;
    /* three passes, the least of each: a shared machine's slow moments
     * drop out */
    for (int pass = 0; pass < 3; pass++) {
        const double c1 = least(chained), u1 = least(unchained), p1 = least(pairs) / 2;
        c = pass == 0 || c1 < c ? c1 : c;
        u = pass == 0 || u1 < u ? u1 : u;
        p = pass == 0 || p1 < p ? p1 : p;
    }
    printf("radix-2^64 block step, %d blocks, least of %d timings x 3, TSC ticks a block\n",
           BLOCKS, ROUNDS);
    printf("(core cycles = ticks / %.3f, from a chain of dependent adds)\n", tpc);
    printf("chained    %6.2f  (%5.2f core cycles)\n", c, c / tpc);
    printf("unchained  %6.2f  (%5.2f core cycles)\n", u, u / tpc);
    printf("pairs      %6.2f  (%5.2f core cycles), a block of each message\n", p, p / tpc);
    printf("chained / unchained %.2f: the chain holds up %.0f%% of the chained time, the most\n"
           "a two-block step with r^2 could save before its own extra instructions\n",
           c / u, 100.0 * (1.0 - u / c));
    const double m = mul_ticks();
    printf("128-bit products (mul r64): %.2f a core cycle, none waiting on another; the\n"
           "step's six take %.2f core cycles a block, a two-block step's nine %.2f\n",
           tpc / m, 6.0 * m / tpc, 9.0 * m / tpc);
    return 0;
}
#endif
