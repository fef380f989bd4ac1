/* neon.h -- the NEON kernels (aarch64-neon, arm-neon): radix 2^26, four
 *           blocks per step, on the SIMD skeleton */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_SIMD_NEON_H
#define POLYMAC_SIMD_NEON_H

/*
 * Technique (after the comments of OpenSSL's poly1305-armv8.pl and
 * poly1305-armv4.pl and the Linux arm and arm64 glue; the code is our own):
 *
 * h lives in five 26-bit limbs so that a limb product fits umull/umlal
 * (32x32->64 multiply-accumulate, two lanes per instruction).  Two lanes
 * hold two independent accumulators, A for the even and B for the odd
 * blocks, and each step absorbs four blocks m0..m3:
 *
 *     (A, B) = (A + m0, B + m1) * r^4 + (m2, m3) * r^2
 *
 * The last step of a call uses (r^4, r^3) and (r^2, r^1) instead, so that
 * A + B is then exactly the Horner value h; the lanes are added and h
 * leaves the call as one number in radix 2^26.  Every call therefore ends
 * with a single h and the next call may start anywhere (any split of the
 * message, any later call size) without extra bookkeeping.
 *
 * Short inputs run the scalar radix-2^64 code of r64.h (in 32-bit words
 * on AArch32): its multiplies beat the vector set-up (four powers of r,
 * two radix conversions, the lane fold) until a few blocks.  The state
 * machine (radix switches, powers once per key, the blocks short of a
 * group of four through the scalar code after the loop) is the SIMD
 * skeleton's (simd/skeleton.h, simd/r26x4.h).
 *
 * The same state, powers, last step and lane fold serve AArch64 and
 * AArch32 (ARMv7-A with NEON); the inner step is each ISA's own
 * (neon_steps), since AArch32 has half the vector registers: there it is
 * inline assembly (arm/neon_steps_a32.h, little-endian only).  AArch64
 * multiplies by a lane of a q register and by a q register's high half
 * directly; AArch32 has neither form, but there a q register's halves are
 * the d registers it is made of, so taking a half costs nothing.
 *
 * OpenSSL's armv4 code switches to NEON from 64 bytes; the break-evens
 * below are aarch64's, not measured on ARMv7 (docs/log.md, 2026-12-02).
 *
 * Break-even, estimated from the cycle counts OpenSSL publishes for its
 * scalar and NEON code (qemu cannot time anything; the figures and the
 * estimate: docs/log.md, Figures moved out of lib/ comments): what each
 * block saves repays the fixed vector cost (three scalar multiplications
 * for r^2..r^4, splitting them into limbs, the final lane fold and the
 * conversions) from about 128 bytes = 8 blocks, which is also where
 * OpenSSL and Linux switch on aarch64; the same figure serves before the
 * powers exist (cold) and after (warm).  A build may set either
 * break-even (lab/tune measures them where it can time).
 */

#include <arm_neon.h>
#include <stddef.h>

#include "r26x4.h"

#ifndef POLYMAC_NEON_COLD
#define POLYMAC_NEON_COLD 8
#endif
#ifndef POLYMAC_NEON_WARM
#define POLYMAC_NEON_WARM 8
#endif
_Static_assert(POLYMAC_NEON_WARM >= 4
               && POLYMAC_NEON_COLD >= POLYMAC_NEON_WARM,
               "a vector call takes a group of four");

#define M26 0x3ffffffu

/* Limb table index: R0..R4 are the limbs of a power of r, S1..S4 five
 * times them (2^130 == 5 mod p folds the columns above limb 4). */
enum { T_R0, T_R1, T_R2, T_R3, T_R4, T_S1, T_S2, T_S3, T_S4, T_COUNT };

struct neon_state {
    struct polymac_simd26 c;  /* the skeleton's state, h in radix 2^26 */
    /* pw[limb][lane]: lanes 0..3 hold r^4, r^3, r^2, r^1, so that the low
     * half gives (r^4, r^3), the high half (r^2, r^1), and lanes 0 and 2
     * broadcast r^4 and r^2 for the inner steps. */
    uint32_t pw[T_COUNT][4];
};

_Static_assert(sizeof(struct neon_state) <= POLYMAC_KS_BYTES, "state fits");

/* The skeleton's powers(): r^1..r^4 into the lane table (one level). */
static void neon_powers(void *ks, uint32_t level)
{
    struct neon_state *st = ks;
    uint32_t pw[4][5];                   /* pw[k] = r^(k+1) */

    (void)level;
    polymac_r26_powers(pw, &st->c.s, 4);
    for (int lane = 0; lane < 4; lane++) {
        const uint32_t *q = pw[3 - lane];
        for (int j = 0; j < 5; j++)
            st->pw[T_R0 + j][lane] = q[j];
        for (int j = 1; j < 5; j++)
            st->pw[T_S1 + j - 1][lane] = q[j] * 5;
    }
    polymac_wipe(pw, sizeof pw);
}

/* Four blocks -> 26-bit limbs, lane i = block i.  vld4q de-interleaves the
 * 32-bit words so that each limb needs only shifts and masks. */
#define NEON_LOAD4(in, L0, L1, L2, L3, L4, hib)                                       \
    do {                                                                          \
        uint32x4x4_t w_ = vld4q_u32((const uint32_t *)(const void *)(in));        \
        NEON_WORDS_LE(w_);                                                        \
        const uint32x4_t m_ = vdupq_n_u32(M26);                                   \
        L0 = vandq_u32(w_.val[0], m_);                                            \
        L1 = vandq_u32(vsliq_n_u32(vshrq_n_u32(w_.val[0], 26), w_.val[1], 6), m_); \
        L2 = vandq_u32(vsliq_n_u32(vshrq_n_u32(w_.val[1], 20), w_.val[2], 12), m_); \
        L3 = vandq_u32(vsliq_n_u32(vshrq_n_u32(w_.val[2], 14), w_.val[3], 18), m_); \
        L4 = vorrq_u32(vshrq_n_u32(w_.val[3], 8), hib);                           \
    } while (0)

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
/* the message is little-endian whatever the host */
#define NEON_WORDS_LE(w)                                                          \
    for (int i_ = 0; i_ < 4; i_++)                                                \
        (w).val[i_] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32((w).val[i_])))
#else
#define NEON_WORDS_LE(w) ((void)0)
#endif

/* h += the low halves (blocks 0 and 1 of a group) of L0..L4. */
#define NEON_ADD_LOW(h0, h1, h2, h3, h4, L0, L1, L2, L3, L4) do {                 \
        h0 = vadd_u32(h0, vget_low_u32(L0));                                      \
        h1 = vadd_u32(h1, vget_low_u32(L1));                                      \
        h2 = vadd_u32(h2, vget_low_u32(L2));                                      \
        h3 = vadd_u32(h3, vget_low_u32(L3));                                      \
        h4 = vadd_u32(h4, vget_low_u32(L4));                                      \
    } while (0)

/* One carry pass over 64-bit lanes (Bernstein and Schwabe's "NEON crypto"
 * order: two independent chains interleaved).  With inputs below 2^59 the
 * outputs are h0, h2, h3 < 2^26, h1 < 2^26 + 2^10, h4 < 2^26 + 2^8.
 * A macro over named variables: GCC keeps arrays of vectors on the stack. */
#define NEON_CARRY(d0, d1, d2, d3, d4)                                            \
    do {                                                                          \
        const uint64x2_t m_ = vdupq_n_u64(M26);                                   \
        uint64x2_t c_;                                                            \
        d1 = vsraq_n_u64(d1, d0, 26); d0 = vandq_u64(d0, m_);                     \
        d4 = vsraq_n_u64(d4, d3, 26); d3 = vandq_u64(d3, m_);                     \
        d2 = vsraq_n_u64(d2, d1, 26); d1 = vandq_u64(d1, m_);                     \
        c_ = vshrq_n_u64(d4, 26); d4 = vandq_u64(d4, m_);                         \
        d0 = vaddq_u64(d0, vaddq_u64(c_, vshlq_n_u64(c_, 2)));                    \
        d3 = vsraq_n_u64(d3, d2, 26); d2 = vandq_u64(d2, m_);                     \
        d1 = vsraq_n_u64(d1, d0, 26); d0 = vandq_u64(d0, m_);                     \
        d4 = vsraq_n_u64(d4, d3, 26); d3 = vandq_u64(d3, m_);                     \
    } while (0)

/* d += x * (lane of the power table) for the five columns: the schoolbook
 * product of a 5-limb x with one power of r, columns above limb 4 folded
 * with S = 5 R.  MUL starts a column set, MLA accumulates into it. */
#define NEON_PRODUCT(OP, d0, d1, d2, d3, d4, x0, x1, x2, x3, x4, ...)             \
    do {                                                                          \
        NEON_ROW(OP, d0, d1, d2, d3, d4, x0, R0, R1, R2, R3, R4, __VA_ARGS__);    \
        NEON_ROW(OP, d0, d1, d2, d3, d4, x1, S4, R0, R1, R2, R3, __VA_ARGS__);    \
        NEON_ROW(OP, d0, d1, d2, d3, d4, x2, S3, S4, R0, R1, R2, __VA_ARGS__);    \
        NEON_ROW(OP, d0, d1, d2, d3, d4, x3, S2, S3, S4, R0, R1, __VA_ARGS__);    \
        NEON_ROW(OP, d0, d1, d2, d3, d4, x4, S1, S2, S3, S4, R0, __VA_ARGS__);    \
    } while (0)

/* One limb x of the product: column k gains x times T<k>. */
#define NEON_ROW(OP, d0, d1, d2, d3, d4, x, T0, T1, T2, T3, T4, ...)               \
    d0 = OP(d0, x, T0, __VA_ARGS__); d1 = OP(d1, x, T1, __VA_ARGS__);             \
    d2 = OP(d2, x, T2, __VA_ARGS__); d3 = OP(d3, x, T3, __VA_ARGS__);             \
    d4 = OP(d4, x, T4, __VA_ARGS__)

/* The last step's operations: lane-wise by the table's low or high half
 * (AArch32 has no _high forms; there a q register's halves are d
 * registers, free to take), and both lanes of d set to their sum. */
#define MLA_LOW(d, x, T, unused) vmlal_u32(d, x, vget_low_u32(T))
#if defined(__aarch64__)
#define MLA_HIGH(d, x, T, unused) vmlal_high_u32(d, x, T)
#define NEON_LANE_SUM(d) vdupq_n_u64(vaddvq_u64(d))
#else
#define MLA_HIGH(d, x, T, unused) vmlal_u32(d, vget_high_u32(x), vget_high_u32(T))
#define NEON_LANE_SUM(d) vaddq_u64(d, vextq_u64(d, d, 1))
#endif

/*
 * The last step of a call, shared by both ISAs' loops: the group in
 * L0..L4, lane A (h0..h4's lane 0) by (r^4, r^2), lane B by (r^3, r^1), so
 * that A + B = h; the lanes folded, carried once and stored in st->h26.
 */
static inline __attribute__((always_inline)) void
neon_last(struct neon_state *st, uint32x4_t L0, uint32x4_t L1, uint32x4_t L2, uint32x4_t L3,
          uint32x4_t L4, uint32x2_t h0, uint32x2_t h1, uint32x2_t h2, uint32x2_t h3,
          uint32x2_t h4)
{
    uint32_t *h26 = st->c.h26;
    const uint32x4_t R0 = vld1q_u32(st->pw[T_R0]), R1 = vld1q_u32(st->pw[T_R1]),
                     R2 = vld1q_u32(st->pw[T_R2]), R3 = vld1q_u32(st->pw[T_R3]),
                     R4 = vld1q_u32(st->pw[T_R4]), S1 = vld1q_u32(st->pw[T_S1]),
                     S2 = vld1q_u32(st->pw[T_S2]), S3 = vld1q_u32(st->pw[T_S3]),
                     S4 = vld1q_u32(st->pw[T_S4]);
    uint64x2_t d0, d1, d2, d3, d4;
    d0 = d1 = d2 = d3 = d4 = vdupq_n_u64(0);
    NEON_PRODUCT(MLA_HIGH, d0, d1, d2, d3, d4, L0, L1, L2, L3, L4, 0);
    NEON_ADD_LOW(h0, h1, h2, h3, h4, L0, L1, L2, L3, L4);
    NEON_PRODUCT(MLA_LOW, d0, d1, d2, d3, d4, h0, h1, h2, h3, h4, 0);

    /* Fold the lanes (each below 2^59, so the sum fits) and carry once;
     * the same carry order gives the same limb bounds as inside the loop. */
    d0 = NEON_LANE_SUM(d0);
    d1 = NEON_LANE_SUM(d1);
    d2 = NEON_LANE_SUM(d2);
    d3 = NEON_LANE_SUM(d3);
    d4 = NEON_LANE_SUM(d4);
    NEON_CARRY(d0, d1, d2, d3, d4);
    h26[0] = (uint32_t)vgetq_lane_u64(d0, 0);
    h26[1] = (uint32_t)vgetq_lane_u64(d1, 0);
    h26[2] = (uint32_t)vgetq_lane_u64(d2, 0);
    h26[3] = (uint32_t)vgetq_lane_u64(d3, 0);
    h26[4] = (uint32_t)vgetq_lane_u64(d4, 0);
}

/* h enters lane A; lane B starts empty. */
#define NEON_H_IN(h26, h0, h1, h2, h3, h4)                                        \
    uint32x2_t h0 = vset_lane_u32((h26)[0], vdup_n_u32(0), 0);                    \
    uint32x2_t h1 = vset_lane_u32((h26)[1], vdup_n_u32(0), 0);                    \
    uint32x2_t h2 = vset_lane_u32((h26)[2], vdup_n_u32(0), 0);                    \
    uint32x2_t h3 = vset_lane_u32((h26)[3], vdup_n_u32(0), 0);                    \
    uint32x2_t h4 = vset_lane_u32((h26)[4], vdup_n_u32(0), 0)

/*
 * neon_steps absorbs 4 * nsteps blocks (nsteps >= 1) into st->h26.
 *
 * Overflow bound: limbs of h below 2^26 + 2^10 (the top one below
 * 5 * 2^24 after to_vec, when m's top limb is below 2^25), of m below 2^26, so
 * x = h + m < 2^27; power limbs at most 2^26, S limbs at most 5 * 2^26.
 * A column sums five x * S and five m * S products:
 * 25 * 2^53 + 25 * 2^52 < 2^59, far from 2^64; column 4 has no S:
 * 5 * 2^53 + 5 * 2^52 < 2^56.
 */
#if defined(__aarch64__)
/* The operations of the inner steps: by one broadcast lane of the table. */
#define MLA_HIGH_LANE(d, x, T, lane) vmlal_high_laneq_u32(d, x, T, lane)
#define MLA_LOW_LANE(d, x, T, lane) vmlal_laneq_u32(d, x, T, lane)

static void neon_steps(struct neon_state *st, const uint8_t *in, size_t nsteps,
                       uint32_t hibit)
{
    const uint32x4_t R0 = vld1q_u32(st->pw[T_R0]), R1 = vld1q_u32(st->pw[T_R1]),
                     R2 = vld1q_u32(st->pw[T_R2]), R3 = vld1q_u32(st->pw[T_R3]),
                     R4 = vld1q_u32(st->pw[T_R4]), S1 = vld1q_u32(st->pw[T_S1]),
                     S2 = vld1q_u32(st->pw[T_S2]), S3 = vld1q_u32(st->pw[T_S3]),
                     S4 = vld1q_u32(st->pw[T_S4]);
    const uint32x4_t hib = vdupq_n_u32(hibit << 24);
    const uint64x2_t zero = vdupq_n_u64(0);
    uint32x4_t L0, L1, L2, L3, L4;
    uint64x2_t d0, d1, d2, d3, d4;
    NEON_H_IN(st->c.h26, h0, h1, h2, h3, h4);

    while (--nsteps) {
        NEON_LOAD4(in, L0, L1, L2, L3, L4, hib);
        in += 64;
        d0 = d1 = d2 = d3 = d4 = zero;
        /* (m2, m3) * r^2: high halves of L against lane 2 of the table.
         * Independent of h, so it overlaps the previous carry chain. */
        NEON_PRODUCT(MLA_HIGH_LANE, d0, d1, d2, d3, d4, L0, L1, L2, L3, L4, 2);
        /* (h + (m0, m1)) * r^4: low halves against lane 0. */
        NEON_ADD_LOW(h0, h1, h2, h3, h4, L0, L1, L2, L3, L4);
        NEON_PRODUCT(MLA_LOW_LANE, d0, d1, d2, d3, d4, h0, h1, h2, h3, h4, 0);
        NEON_CARRY(d0, d1, d2, d3, d4);
        h0 = vmovn_u64(d0);
        h1 = vmovn_u64(d1);
        h2 = vmovn_u64(d2);
        h3 = vmovn_u64(d3);
        h4 = vmovn_u64(d4);
    }
    NEON_LOAD4(in, L0, L1, L2, L3, L4, hib);
    neon_last(st, L0, L1, L2, L3, L4, h0, h1, h2, h3, h4);
}
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* AArch32: the loop in inline assembly (16 q registers, not 32) */
#include "../arm/neon_steps_a32.h"
#else
#error "arm-neon is built for little-endian AArch32 only (lib/arm/meson.build)"
#endif

/* The skeleton's loop(): every whole group of four; the one to three
 * blocks left go to the scalar code.  On AArch32 so does a call of hibit
 * 0 (the front end makes it for one padded block only, kernel.h): its
 * loop keeps 2^128 in the top byte of L4's register, a register fewer. */
static size_t neon_loop(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit)
{
#if !defined(__aarch64__)
    if (hibit != 1)
        return 0;
#endif
    neon_steps(ks, in, nblocks / 4, hibit);
    return nblocks & ~(size_t)3;
}

static const struct polymac_simd_kernel neon_kernel = {
    .level = 1,
    .powers = neon_powers,
    .to_vec = polymac_simd26_to_vec,
    .to_r64 = polymac_simd26_to_r64,
    .loop = neon_loop,
    .small = offsetof(struct neon_state, pw),
    .state = sizeof(struct neon_state),
};

/* A NEON kernel: its init, blocks and emit, its entry (name, and further
 * fields: its stack rule and batch entry).  The CPU bit is the probe's
 * NEON (HWCAP_ASIMD on aarch64, HWCAP_NEON on AArch32). */
#define POLYMAC_NEON_KERNEL(sym, kname, ...)                                      \
    POLYMAC_SIMD_FUNCTIONS(sym, struct neon_state, c.s, neon_kernel,              \
                           POLYMAC_NEON_COLD, POLYMAC_NEON_WARM)                  \
    POLYMAC_SIMD_REGISTER(sym, kname, POLYMAC_CPU_ARM_NEON, POLYMAC_NEON_COLD,    \
                          __VA_ARGS__)

#endif
