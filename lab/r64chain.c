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
 *             each: what interleaving independent chains gives;
 *   two-block: such a step itself, built here and nowhere in the library
 *             (below: h = (h + m) r^2 + m' r with r^2 unclamped, so three
 *             columns of full 64 x 64 products, their carries and a fold
 *             a step), its h checked against the loop's at every even
 *             length first; CPUs with BMI2 (mulx) only.
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

/* The block loop with the library's step, PRE (a reset of h, or
 * nothing) before it and ADD (the block's add into h) in place of its
 * own: the chain's knockouts below. */
#define STEP_LOOP(name, pre, add)                                              \
    static void name(const uint8_t *in)                                        \
    {                                                                          \
        uint64_t h0 = 0, h1 = 0, h2 = 0, t0, t1, f0, f1, rr0 = r0, rr1 = r1, ss1 = s1; \
        size_t n = BLOCKS;                                                     \
        __asm__ volatile("1:\n\t" pre POLYMAC_R64_ASM_LOAD add POLYMAC_R64_ASM_MUL \
                         "add $16, %[in]\n\t"                                   \
                         "sub $1, %[n]\n\t"                                     \
                         "jnz 1b"                                              \
                         : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2),     \
                           [in] "+&r"(in), [n] "+&r"(n), [t0] "=&r"(t0),       \
                           [t1] "=&r"(t1), [f0] "=&r"(f0), [f1] "=&r"(f1)      \
                         : [r0] "r"(rr0), [r1] "r"(rr1), [s1] "r"(ss1)         \
                         : "rax", "rdx", "cc", "memory");                      \
        sink = h0 ^ h1 ^ h2;                                                   \
    }

/* h from constants before each block: no chain */
STEP_LOOP(unchained, "mov %[r1], %[h0]\n\t" "mov %[r0], %[h1]\n\t" "mov $3, %[h2]\n\t",
          POLYMAC_R64_ASM_ADD("$1"))

/* One of h's three words taken from a constant each block (r0 for h0 or
 * h1, 3 for h2), the other two carried as the library carries them:
 * which of the three chains from one block's h to the next sets the pace.
 * If holding one of them leaves the time as chained, that word's path
 * alone does not; a reordering that shortens only it cannot gain. */
STEP_LOOP(held_h0, "", "add %[r0], %[t0]\n\t" "adc %[h1], %[t1]\n\t" "adc $1, %[h2]\n\t")
STEP_LOOP(held_h1, "", "add %[h0], %[t0]\n\t" "adc %[r0], %[t1]\n\t" "adc $1, %[h2]\n\t")
STEP_LOOP(held_h2, "", "add %[h0], %[t0]\n\t" "adc %[h1], %[t1]\n\t" "mov $3, %[h2]\n\t")

static void pairs(const uint8_t *in)
{
    uint64_t a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
    const uint64_t k[8] = {r0, r1, s1, r0 * 5, r0, r1, s1, r0 * 5};
    polymac_pairs_core(a, b, k, in, msg[1] - msg[0], BLOCKS, 1);
    sink = a[0] ^ b[0];
}


/* ---- a two-block step with r^2 (h = (h + m) R + m' r), mulx (BMI2) ----
 * Not in the library: measured slower than the chained step on the CPUs
 * it ran on (docs/log.md, 2026-12-06).  R = r^2 mod p, U = 2^64 R mod p, V = 2^128 R mod p, each fully reduced
 * (top word at most 3), so that (h + m) R = a0 R + a1 U + t V lands in
 * three columns, the one at 2^128 two words wide, folded at the step's
 * end (h2 <= 4 between steps); m' r as the one-block step's product, its
 * 2^128 bit as s1 at 2^64 and r0 at 2^128, off the chain. */
static uint64_t tbl[16];     /* R0 R1 R2 U0 U1 U2 V0 V1 V2 r0 r1 s1 */

/* x y mod p, x and y below 2^130 as three words, fully reduced */
static void mulmod(uint64_t out[3], const uint64_t x[3], const uint64_t y[3])
{
    uint64_t a[5], b[5], d[5];
    const uint64_t m = (1u << 26) - 1;
    for (int i = 0; i < 5; i++) {
        const int s = 26 * i;
        uint64_t wx, wy;
        if (s < 64) {
            wx = x[0] >> s | (s ? x[1] << (64 - s) : 0);
            wy = y[0] >> s | (s ? y[1] << (64 - s) : 0);
        } else if (s < 128) {
            wx = x[1] >> (s - 64) | (s > 64 ? x[2] << (128 - s) : 0);
            wy = y[1] >> (s - 64) | (s > 64 ? y[2] << (128 - s) : 0);
        } else {
            wx = x[2] >> (s - 128);
            wy = y[2] >> (s - 128);
        }
        a[i] = wx & m;
        b[i] = wy & m;
    }
    for (int i = 0; i < 5; i++) {
        polymac_u128 t = 0;
        for (int j = 0; j < 5; j++) {
            const int k = i - j;
            t += k >= 0 ? (polymac_u128)a[j] * b[k] : (polymac_u128)a[j] * b[k + 5] * 5;
        }
        d[i] = (uint64_t)t;   /* below 2^64: 5 * 5 * 2^52 */
    }
    uint64_t c = 0;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 5; i++) {
            d[i] += c;
            c = d[i] >> 26;
            d[i] &= m;
        }
        d[0] += c * 5;
        c = 0;
    }
    /* d < 2^130 + small: subtract p where d >= p */
    uint64_t g[5], cc = 5;
    for (int i = 0; i < 5; i++) {
        g[i] = d[i] + cc;
        cc = g[i] >> 26;
        g[i] &= m;
    }
    const uint64_t use = 0 - cc;     /* all ones when d + 5 >= 2^130 */
    for (int i = 0; i < 5; i++)
        d[i] = (d[i] & ~use) | (g[i] & use);
    out[0] = d[0] | d[1] << 26 | d[2] << 52;
    out[1] = d[2] >> 12 | d[3] << 14 | d[4] << 40;
    out[2] = d[4] >> 24;
}

static void two_block_keys(void)
{
    const uint64_t r[3] = {r0, r1, 0}, x64[3] = {0, 1, 0}, x128[3] = {0, 0, 1};
    uint64_t R[3], U[3], V[3];
    mulmod(R, r, r);
    mulmod(U, R, x64);
    mulmod(V, R, x128);
    memcpy(tbl, R, 24);
    memcpy(tbl + 3, U, 24);
    memcpy(tbl + 6, V, 24);
    tbl[9] = r0;
    tbl[10] = r1;
    tbl[11] = s1;
}

/* npairs two-block steps from h; h2 <= 4 in and out */
static void two_block_loop(uint64_t h[3], const uint8_t *in, size_t npairs)
{
    uint64_t h0 = h[0], h1 = h[1], h2 = h[2], lo, hi, c0, c1, c2, c3, y;
    const uint64_t *t = tbl;
    __asm__ volatile(
        "1:\n\t"
        /* m' r and its 2^128 bit: off the chain */
        "mov 16(%[in]), %%rdx\n\t"
        "mulx 72(%[t]), %[c0], %[c1]\n\t"       /* y0 r0 */
        "mulx 80(%[t]), %[lo], %[c2]\n\t"       /* y0 r1 */
        "mov 24(%[in]), %%rdx\n\t"
        "mulx 88(%[t]), %[y], %[hi]\n\t"        /* y1 s1 */
        "add %[y], %[c0]\n\t"
        "adc %[hi], %[c1]\n\t"
        "mulx 72(%[t]), %[y], %[hi]\n\t"        /* y1 r0 */
        "add %[y], %[lo]\n\t"
        "adc %[hi], %[c2]\n\t"
        "add %[lo], %[c1]\n\t"
        "adc 72(%[t]), %[c2]\n\t"               /* + r0 at 2^128 */
        "add 88(%[t]), %[c1]\n\t"               /* + s1 at 2^64 */
        "adc $0, %[c2]\n\t"
        "xor %k[c3], %k[c3]\n\t"
        /* a = h + m, t = its 2^128 coefficient */
        "add 0(%[in]), %[h0]\n\t"
        "adc 8(%[in]), %[h1]\n\t"
        "adc $1, %[h2]\n\t"
        "mov %[h0], %%rdx\n\t"
        "mulx 0(%[t]), %[lo], %[hi]\n\t"        /* a0 R0 */
        "add %[lo], %[c0]\n\t"
        "adc %[hi], %[c1]\n\t"
        "adc $0, %[c2]\n\t"
        "mulx 8(%[t]), %[lo], %[hi]\n\t"        /* a0 R1 */
        "add %[lo], %[c1]\n\t"
        "adc %[hi], %[c2]\n\t"
        "adc $0, %[c3]\n\t"
        "mulx 16(%[t]), %[lo], %[hi]\n\t"       /* a0 R2 */
        "add %[lo], %[c2]\n\t"
        "adc %[hi], %[c3]\n\t"
        "mov %[h1], %%rdx\n\t"
        "mulx 24(%[t]), %[lo], %[hi]\n\t"       /* a1 U0 */
        "add %[lo], %[c0]\n\t"
        "adc %[hi], %[c1]\n\t"
        "adc $0, %[c2]\n\t"
        "adc $0, %[c3]\n\t"
        "mulx 32(%[t]), %[lo], %[hi]\n\t"       /* a1 U1 */
        "add %[lo], %[c1]\n\t"
        "adc %[hi], %[c2]\n\t"
        "adc $0, %[c3]\n\t"
        "mulx 40(%[t]), %[lo], %[hi]\n\t"       /* a1 U2 */
        "add %[lo], %[c2]\n\t"
        "adc %[hi], %[c3]\n\t"
        "mov %[h2], %%rdx\n\t"
        "mulx 48(%[t]), %[lo], %[hi]\n\t"       /* t V0 */
        "add %[lo], %[c0]\n\t"
        "adc %[hi], %[c1]\n\t"
        "adc $0, %[c2]\n\t"
        "adc $0, %[c3]\n\t"
        "mulx 56(%[t]), %[lo], %[hi]\n\t"       /* t V1 */
        "add %[lo], %[c1]\n\t"
        "adc %[hi], %[c2]\n\t"
        "adc $0, %[c3]\n\t"
        "imul 64(%[t]), %%rdx\n\t"              /* t V2 */
        "add %%rdx, %[c2]\n\t"
        "adc $0, %[c3]\n\t"
        /* fold: c mod 2^130 + 5 (c >> 130) */
        "mov %[c2], %[h2]\n\t"
        "and $3, %[h2]\n\t"
        "and $-4, %[c2]\n\t"
        "add %[c2], %[c0]\n\t"
        "adc %[c3], %[c1]\n\t"
        "adc $0, %[h2]\n\t"
        "shrd $2, %[c3], %[c2]\n\t"
        "shr $2, %[c3]\n\t"
        "add %[c2], %[c0]\n\t"
        "adc %[c3], %[c1]\n\t"
        "adc $0, %[h2]\n\t"
        "mov %[c0], %[h0]\n\t"
        "mov %[c1], %[h1]\n\t"
        "add $32, %[in]\n\t"
        "sub $1, %[n]\n\t"
        "jnz 1b"
        : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [in] "+&r"(in), [n] "+&r"(npairs),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [c0] "=&r"(c0), [c1] "=&r"(c1), [c2] "=&r"(c2),
          [c3] "=&r"(c3), [y] "=&r"(y)
        : [t] "r"(t)
        : "rdx", "cc", "memory");
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
}

static void two_block(const uint8_t *in)
{
    uint64_t h[3] = {0, 0, 0};
    two_block_loop(h, in, BLOCKS / 2);
    sink = h[0] ^ h[1] ^ h[2];
}

/* Whether the two-block loop gives the chained loop's h mod p */
static int two_block_check(void)
{
    int bad = 0;
    for (size_t nb = 2; nb <= BLOCKS; nb += 2) {
        uint64_t a0 = 0, a1 = 0, a2 = 0, h[3] = {0, 0, 0}, x0, x1, y0, y1;
        polymac_r64_loop(&a0, &a1, &a2, r0, r1, s1, msg[1], nb, 1);
        two_block_loop(h, msg[1], nb / 2);
        polymac_r64_reduce(a0, a1, a2, &x0, &x1);
        polymac_r64_reduce(h[0], h[1], h[2], &y0, &y1);
        bad |= x0 != y0 || x1 != y1 || h[2] > 4;
    }
    return bad;
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
    const int bmi2 = __builtin_cpu_supports("bmi2");
    two_block_keys();
    if (bmi2 && two_block_check()) {
        fputs("polymac-r64-chain: the two-block step's h differs from the loop's\n", stderr);
        return 1;
    }

    (void)polymac_pairs_lanes;
    const double tpc = ticks_per_cycle();
    double c = 0, u = 0, p = 0, w = 0, held[3] = {0, 0, 0};
    const run_fn held_fn[3] = {held_h0, held_h1, held_h2};
    /* three passes, the least of each: a shared machine's slow moments
     * drop out */
    for (int pass = 0; pass < 3; pass++) {
        const double c1 = least(chained), u1 = least(unchained), p1 = least(pairs) / 2;
        c = pass == 0 || c1 < c ? c1 : c;
        u = pass == 0 || u1 < u ? u1 : u;
        p = pass == 0 || p1 < p ? p1 : p;
        for (int i = 0; i < 3; i++) {
            const double x = least(held_fn[i]);
            held[i] = pass == 0 || x < held[i] ? x : held[i];
        }
        const double w1 = bmi2 ? least(two_block) : 0;
        w = pass == 0 || w1 < w ? w1 : w;
    }
    printf("radix-2^64 block step, %d blocks, least of %d timings x 3, TSC ticks a block\n",
           BLOCKS, ROUNDS);
    printf("(core cycles = ticks / %.3f, from a chain of dependent adds)\n", tpc);
    printf("chained    %6.2f  (%5.2f core cycles)\n", c, c / tpc);
    printf("unchained  %6.2f  (%5.2f core cycles)\n", u, u / tpc);
    printf("pairs      %6.2f  (%5.2f core cycles), a block of each message\n", p, p / tpc);
    if (bmi2)
        printf("two-block  %6.2f  (%5.2f core cycles), with r^2 (mulx), its h checked\n", w,
               w / tpc);
    else
        printf("two-block  (no BMI2 here: its mulx cannot run)\n");
    for (int i = 0; i < 3; i++)
        printf("h%d held    %6.2f  (%5.2f core cycles), chained but h%d from a constant "
               "each block\n", i, held[i], held[i] / tpc, i);
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
