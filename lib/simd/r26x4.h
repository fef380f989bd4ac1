/* r26x4.h -- the radix-2^26 SIMD kernels' shared parts (h in 26-bit limbs
 *             between calls, r^1..r^n in 26-bit limbs), and the two-blocks-
 *             per-lane kernels (power-vsx, s390x-vx) on the skeleton */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_R26X4_H
#define POLYMAC_R26X4_H

#include <stddef.h>

#include "skeleton.h"
#include "../generic/r26.h"

/* ---- Radix 2^26 on 128-bit vectors (aarch64-neon, power-vsx, s390x-vx) */

/* The head of a radix-2^26 kernel's state: the skeleton's part, and h
 * while it lives in the vector form (s.vec == 1). */
struct polymac_simd26 {
    struct polymac_simd s;
    uint32_t h26[5];            /* limbs < 2^26 + 2^10 after a vector step;
                                   the top one < 2^27 after to_vec */
    uint32_t pad_;
};

/* The skeleton's radix conversions for a state that starts with a struct
 * polymac_simd26. */
static inline void polymac_simd26_to_vec(void *ks)
{
    struct polymac_simd26 *c = ks;
    uint64_t l[5];
    polymac_r64_to_r26(&c->s.sc, l);
    for (int i = 0; i < 5; i++)
        c->h26[i] = (uint32_t)l[i];     /* h2 <= 4: limb 4 < 2^27 */
}

static inline void polymac_simd26_to_r64(void *ks)
{
    struct polymac_simd26 *c = ks;
    uint64_t l[5];
    for (int i = 0; i < 5; i++)
        l[i] = c->h26[i];
    polymac_r64_from_r26(&c->s.sc, l);
}

/* p[k] = r^(k+1) for k < n, in 26-bit limbs: limbs 0, 2, 3, 4 below 2^26,
 * limb 1 at most 2^26 (the carry out of the top limb goes around once).
 * The caller wipes p. */
static inline void polymac_r26_powers(uint32_t (*p)[5], const struct polymac_simd *s,
                                      unsigned n)
{
    struct polymac_r64 t;
    uint64_t l[5];
    for (unsigned k = 0; k < n; k++) {
        polymac_simd_power(&t, s, k + 1);
        polymac_r64_to_r26(&t, l);
        polymac_r26_carry(p[k], l);
    }
    polymac_wipe(&t, sizeof t);
    polymac_wipe(l, sizeof l);
}

/* ---- Two blocks per 64-bit lane (power-vsx, s390x-vx) */

/* The vector loops keep two blocks in each 64-bit lane: limb i of four
 * blocks shares one register, the lane's low 32-bit word holding block j
 * (j = 0, 1) and its high word block j + 2.  Each step multiplies the low
 * words (h plus the block) by r^4 and the high words (the block two later)
 * by r^2, adding both into the same five 64-bit accumulators: per lane,
 * h' = (h + m_j) r^4 + m_(j+2) r^2, Horner's rule on every other block.
 * The carried accumulators are h's limbs again with zero high words, so
 * nothing is repacked between steps.  The tables hold r^4 in the low
 * words and r^2 in the high ones; the last group's table multiplies lane 0
 * by (r^4, r^2) and lane 1 by (r^3, r), so the two lanes summed give h.
 * Which 32-bit element is the low word depends on the byte order.
 *
 * Why not x86/r26vec.h's layout (one block per 64-bit lane, its limb in
 * the low word): x86's vpmuludq multiplies only the low word of each
 * lane, and its 256-bit vectors still hold four lanes, so one register
 * carries a limb of four blocks.  On 128-bit vectors that layout holds
 * two: four blocks a step need ten message-limb registers, not five, and
 * a second table with r^2 in the low words, for the same 50 multiplies
 * (a 128-bit multiply yields two 64-bit products either way).  POWER's
 * vmulouw/vmuleuw and s390x's VMLOF/VMLEF (and VMALOF/VMALEF) multiply
 * either word of a lane, so here one register of four words feeds both
 * multiplies of a step, as NEON's umlal/umlal2 do with its two halves.
 * Measured with lab/kernel-cost on s390x-vx, the other layout in its
 * cheapest form (the blocks two later shifted into their own registers,
 * one VESRLG a limb, and multiplied with VMALOF by a shifted table) is
 * 117 instructions a step instead of 102 (the shifts and, out of vector
 * registers, the second table reloaded every step), and slower a block
 * on the z14, z15 and z16 models (docs/log.md, Figures moved out of lib/
 * comments). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#  define POLYMAC_R26X4_LO 1
#else
#  define POLYMAC_R26X4_LO 0
#endif
#define POLYMAC_R26X4_HI (1 - POLYMAC_R26X4_LO)

struct polymac_r26x4 {
    struct polymac_simd26 c;
    /* Tables as plain words, loaded with unaligned vector loads: nothing is
     * assumed of ks beyond the contract's alignment, and the struct has no
     * padding that depends on vector alignment. */
    uint32_t r4[10][4];         /* limbs 0..4, then 5x: (r^4, r^2) per lane */
    uint32_t rl[10][4];         /* the same for the last group: (r^4, r^2),
                                   (r^3, r) */
};
_Static_assert(sizeof(struct polymac_r26x4) <= POLYMAC_KS_BYTES, "state fits");

/* The kernel's vector loop: absorbs 4 * ngroups blocks (ngroups >= 1) into
 * h26, the last group multiplied by the rl table, and leaves the lane sums,
 * not yet carried, in out. */
typedef void polymac_r26x4_groups(const struct polymac_r26x4 *st, const uint8_t *in,
                                   size_t ngroups, uint32_t hibit, uint64_t out[5]);

/* The skeleton's powers(): the tables from r^1..r^4 (one level). */
static inline void polymac_r26x4_powers(void *ks, uint32_t level)
{
    struct polymac_r26x4 *st = ks;
    uint32_t p[4][5];                    /* p[k] = r^(k+1) */

    (void)level;
    polymac_r26_powers(p, &st->c.s, 4);
    for (int i = 0; i < 5; i++) {
        for (int f = 0; f < 2; f++) {       /* f = 1: the 5x limbs */
            uint32_t *k = st->r4[5 * f + i], *l = st->rl[5 * f + i];
            uint32_t m = f ? 5 : 1;
            k[POLYMAC_R26X4_LO] = k[2 + POLYMAC_R26X4_LO] = m * p[3][i];
            k[POLYMAC_R26X4_HI] = k[2 + POLYMAC_R26X4_HI] = m * p[1][i];
            l[POLYMAC_R26X4_LO] = m * p[3][i];
            l[POLYMAC_R26X4_HI] = m * p[1][i];
            l[2 + POLYMAC_R26X4_LO] = m * p[2][i];
            l[2 + POLYMAC_R26X4_HI] = m * p[0][i];
        }
    }
    polymac_wipe(p, sizeof p);
}

/* The skeleton's loop(): the groups of four; the one to three blocks left
 * go to the scalar code, and then the lane sums go straight to radix 2^64
 * (no carry in radix 2^26 first). */
static inline size_t polymac_r26x4_loop(void *ks, const uint8_t *in, size_t nblocks,
                                         uint32_t hibit, polymac_r26x4_groups *groups)
{
    struct polymac_r26x4 *st = ks;
    uint64_t l[5];
    size_t tail = nblocks & 3;

    groups(st, in, nblocks >> 2, hibit, l);
    if (tail) {
        polymac_r64_from_r26(&st->c.s.sc, l);
        st->c.s.vec = 0;
    } else {
        polymac_r26_carry(st->c.h26, l);
    }
    return nblocks - tail;
}

/* A kernel built on this file: its name, CPU bits, break-evens (blocks,
 * before and after the powers exist; warm >= 4, the loop takes groups of
 * four) and vector loop.  One-shot messages shorter than the cold
 * break-even never reach the vector code: they run the radix-2^64
 * one-shot (simd/skeleton.h, POLYMAC_SIMD_AUTH).  The arguments after groups_fn are further fields
 * of the kernel's entry (its batch entry, or .lanes = NULL). */
#define POLYMAC_R26X4_KERNEL(sym, kname, cpu, cold_, warm_, groups_fn, ...)        \
    _Static_assert((warm_) >= 4 && (cold_) >= (warm_), "a call takes a group");     \
    static size_t polymac_loop_##sym(void *ks, const uint8_t *in, size_t nblocks,   \
                                     uint32_t hibit)                               \
    {                                                                              \
        return polymac_r26x4_loop(ks, in, nblocks, hibit, groups_fn);             \
    }                                                                              \
    static const struct polymac_simd_kernel polymac_simd_##sym = {                 \
        .level = 1,                                                                \
        .powers = polymac_r26x4_powers,                                           \
        .to_vec = polymac_simd26_to_vec,                                           \
        .to_r64 = polymac_simd26_to_r64,                                           \
        .loop = polymac_loop_##sym,                                                \
        .small = offsetof(struct polymac_r26x4, r4),                              \
        .state = sizeof(struct polymac_r26x4),                                    \
    };                                                                             \
    POLYMAC_SIMD_FUNCTIONS(sym, struct polymac_r26x4, c.s, polymac_simd_##sym,     \
                           cold_, warm_)                                           \
    /* stack: deepest measured 1080 (s390x), 864 (ppc64le) */                   \
    POLYMAC_SIMD_REGISTER(sym, kname, cpu, cold_, .stack_bytes = 1536, __VA_ARGS__)

#endif
