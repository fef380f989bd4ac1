/* lanes4.h -- the scalar side of the four-lane radix-2^26 vector kernels
 *             (power-vsx, s390x-vx): state, powers of r, radix switching
 *             and emit; each kernel supplies only its vector loop */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_LANES4_H
#define POLYMAC_LANES4_H

#include <stddef.h>

#include "skeleton.h"
#include "../generic/r26.h"

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
 * Which 32-bit element is the low word depends on the byte order. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#  define POLYMAC_LANES4_LO 1
#else
#  define POLYMAC_LANES4_LO 0
#endif
#define POLYMAC_LANES4_HI (1 - POLYMAC_LANES4_LO)

struct polymac_lanes4 {
    struct polymac_r64 sc;      /* r always; h while in_r26 != 1 */
    uint32_t in_r26;            /* 1: h lives in h26 */
    uint32_t have_pow;          /* 1: the tables below hold this key's powers */
    uint32_t seen;              /* blocks the scalar code has taken
                                   (polymac_seen_add, kernel.h) */
    uint32_t h26[5];            /* h in radix 2^26 (limbs <= 2^26 + 2^12) */
    /* Tables as plain words, loaded with unaligned vector loads: nothing is
     * assumed of ks beyond the contract's alignment, and the struct has no
     * padding that depends on vector alignment. */
    uint32_t r4[10][4];         /* limbs 0..4, then 5x: (r^4, r^2) per lane */
    uint32_t rl[10][4];         /* the same for the last group: (r^4, r^2),
                                   (r^3, r) */
};
_Static_assert(sizeof(struct polymac_lanes4) <= POLYMAC_KS_BYTES, "state fits");

/* The kernel's vector loop: absorbs 4 * ngroups blocks (ngroups >= 1) into
 * h26, the last group multiplied by the rl table, and leaves the lane sums,
 * not yet carried, in out. */
typedef void polymac_lanes4_groups(const struct polymac_lanes4 *st, const uint8_t *in,
                                   size_t ngroups, uint32_t hibit, uint64_t out[5]);

static inline void polymac_lanes4_init(void *ks, const uint8_t r[16])
{
    struct polymac_lanes4 *st = ks;
    polymac_r64_init(&st->sc, r);
    st->in_r26 = 0;
    st->have_pow = 0;
    st->seen = 0;
}

/* Computes r^1..r^4 once per key, in radix 2^26, the first time a call is
 * long enough for the vector code. */
static inline void polymac_lanes4_powers(struct polymac_lanes4 *st)
{
    static const uint8_t zero[16];
    struct polymac_r64 t = st->sc;
    uint32_t p[4][5];                    /* p[k] = r^(k+1) */
    uint64_t l[5];

    t.h0 = t.r0;
    t.h1 = t.r1;
    t.h2 = 0;
    for (int k = 0; k < 4; k++) {
        if (k > 0)                       /* h = (h + 0) r: the next power */
            polymac_r64_blocks(&t, zero, 1, 0);
        polymac_r64_to_r26(&t, l);
        polymac_r26_carry(p[k], l);      /* limbs < 2^26 + 2^6 */
    }
    for (int i = 0; i < 5; i++) {
        for (int f = 0; f < 2; f++) {       /* f = 1: the 5x limbs */
            uint32_t *k = st->r4[5 * f + i], *l = st->rl[5 * f + i];
            uint32_t m = f ? 5 : 1;
            k[POLYMAC_LANES4_LO] = k[2 + POLYMAC_LANES4_LO] = m * p[3][i];
            k[POLYMAC_LANES4_HI] = k[2 + POLYMAC_LANES4_HI] = m * p[1][i];
            l[POLYMAC_LANES4_LO] = m * p[3][i];
            l[POLYMAC_LANES4_HI] = m * p[1][i];
            l[2 + POLYMAC_LANES4_LO] = m * p[2][i];
            l[2 + POLYMAC_LANES4_HI] = m * p[0][i];
        }
    }
    polymac_wipe(&t, sizeof t);
    polymac_wipe(p, sizeof p);
    polymac_wipe(l, sizeof l);
    st->have_pow = 1;
}

/* h back to radix 2^64 after vector calls. */
static inline void polymac_lanes4_to_r64(struct polymac_lanes4 *st)
{
    uint64_t l[5];
    for (int i = 0; i < 5; i++)
        l[i] = st->h26[i];
    polymac_r64_from_r26(&st->sc, l);
    st->in_r26 = 0;
}

/* A kernel's blocks(): the vector loop from min_cold blocks (min_warm once
 * the powers exist), the scalar radix-2^64 code below that and for the one
 * to three blocks left over (min_warm >= 4: the loop takes groups of
 * four).  Before the powers exist, the blocks the scalar code took earlier
 * in the message count towards min_cold, so a stream of short pieces
 * reaches the vector loop too (as on x86).  Flags and the count are only
 * compared, so a forged state can only pick a branch, never an address or
 * a loop bound. */
static inline void polymac_lanes4_blocks(struct polymac_lanes4 *st, const uint8_t *in,
                                         size_t nblocks, uint32_t hibit, size_t min_cold,
                                         size_t min_warm, polymac_lanes4_groups *groups)
{
    if (nblocks >= min_warm
        && (st->have_pow == 1 || polymac_seen_reaches(st->seen, nblocks, min_cold))) {
        uint64_t l[5];
        size_t tail = nblocks & 3;
        if (st->have_pow != 1)
            polymac_lanes4_powers(st);
        if (st->in_r26 != 1) {
            polymac_r64_to_r26(&st->sc, l);
            for (int i = 0; i < 5; i++)
                st->h26[i] = (uint32_t)l[i];  /* h2 <= 4: limb 4 < 2^27 */
            st->in_r26 = 1;
        }
        groups(st, in, nblocks >> 2, hibit, l);
        in += 16 * (nblocks - tail);
        nblocks = tail;
        if (!tail) {
            /* h stays in radix 2^26 for the next long call */
            polymac_r26_carry(st->h26, l);
            return;
        }
        polymac_r64_from_r26(&st->sc, l);
        st->in_r26 = 0;
    } else {
        if (st->in_r26 == 1) {
            /* a short call after a long one: back to radix 2^64, once */
            polymac_lanes4_to_r64(st);
        }
        st->seen = polymac_seen_add(st->seen, nblocks);
    }
    polymac_r64_blocks(&st->sc, in, nblocks, hibit);
}

static inline void polymac_lanes4_emit(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct polymac_lanes4 *st = ks;
    if (st->in_r26 == 1)
        polymac_lanes4_to_r64(st);
    polymac_r64_tag(&st->sc, tag, s);
    /* the power tables exist only if a long call made them */
    polymac_wipe(st, st->have_pow == 1 ? sizeof *st
                                       : offsetof(struct polymac_lanes4, r4));
}

/* A kernel built on this file: its name, CPU bits, break-evens (blocks,
 * before and after the powers exist) and vector loop.  One-shot messages
 * shorter than the cold break-even never reach the vector code, so the
 * front end runs them inline (scalar_max). */
#define POLYMAC_LANES4_KERNEL(sym, kname, cpu, cold, warm, groups_fn)            \
    static void polymac_blocks_##sym(void *ks, const uint8_t *in, size_t nblocks,   \
                                     uint32_t hibit)                               \
    {                                                                              \
        polymac_lanes4_blocks(ks, in, nblocks, hibit, cold, warm, groups_fn);      \
    }                                                                              \
    const struct polymac_kernel polymac_kernel_##sym = {                           \
        .name = kname,                                                             \
        .cpu_required = cpu,                                                       \
        .init = polymac_lanes4_init,                                               \
        .blocks = polymac_blocks_##sym,                                            \
        .emit = polymac_lanes4_emit,                                               \
        .scalar_max = (cold) * 16 - 1,                                             \
        .stack_bytes = 1536,   /* deepest measured: 1000 (s390x), 816 (ppc64le) */\
    }

#endif
