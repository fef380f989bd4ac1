/* poly1305_aarch64_neon.c -- aarch64 NEON kernel: radix 2^26, four blocks per step */
/* SPDX-License-Identifier: MIT */

/*
 * Technique (after the comments of OpenSSL's poly1305-armv8.pl and the Linux
 * arm64 glue; the code is our own):
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
 * Short inputs run the scalar radix-2^64 code of r64.h: a 64x64->128 mul
 * + umulh pair per limb product beats the vector set-up (four powers of r,
 * two radix conversions, the lane fold) until a few blocks.  The radix of h
 * is converted lazily, only when the path changes (Linux's is_base2_26).
 *
 * Break-even, estimated from the published cycle counts (qemu cannot time
 * anything): OpenSSL's poly1305-armv8.pl gives, in cycles per byte of
 * poly1305_blocks, scalar vs NEON: Cortex-A53 2.69 vs 1.47, Cortex-A57
 * 2.70 vs 1.14, Apple A7 1.86 vs 0.72, Kryo 2.70 vs 1.13.  With about 150
 * cycles of fixed vector cost (three r64 multiplications for r^2..r^4,
 * splitting them into limbs, the final lane fold and the conversions), the
 * vector path wins from about 128 bytes = 8 blocks, which is also where
 * OpenSSL and Linux switch.  On cores whose scalar multiplier is much
 * stronger than their NEON unit (ThunderX2: 1.17 vs 1.36) the vector path
 * does not win at all; such a core can select generic-r64 by name.
 */

#include <arm_neon.h>
#include <stddef.h>

#include "../generic/r64.h"
#include "../kernels.h"

/* Below this many blocks in one call, the scalar radix-2^64 path runs. */
#define NEON_MIN_BLOCKS 8

#define M26 0x3ffffffu

/* Limb table index: R0..R4 are the limbs of a power of r, S1..S4 five
 * times them (2^130 == 5 mod p folds the columns above limb 4). */
enum { T_R0, T_R1, T_R2, T_R3, T_R4, T_S1, T_S2, T_S3, T_S4, T_COUNT };

struct neon_state {
    struct polymac_r64 b64;   /* r, and h while the scalar path owns it */
    uint32_t h26[5];          /* h while the vector path owns it */
    uint32_t is26;            /* nonzero: h is in h26, else in b64 */
    uint32_t have_powers;     /* nonzero: pw holds r^1..r^4 for this key */
    /* pw[limb][lane]: lanes 0..3 hold r^4, r^3, r^2, r^1, so that the low
     * half gives (r^4, r^3), the high half (r^2, r^1), and lanes 0 and 2
     * broadcast r^4 and r^2 for the inner steps. */
    uint32_t pw[T_COUNT][4];
};

_Static_assert(sizeof(struct neon_state) <= POLYMAC_KS_BYTES, "state fits");

/* Bytes to wipe when the powers were never made: everything before pw. */
#define NEON_SMALL_BYTES offsetof(struct neon_state, pw)

static void polymac_init_aarch64_neon(void *ks, const uint8_t r[16])
{
    struct neon_state *st = ks;

    polymac_r64_init(&st->b64, r);
    st->is26 = 0;
    st->have_powers = 0;
}

/* h: radix 2^64 -> 2^26 (to_r26 keeps every bit; the top limb stays below
 * 5 * 2^24 because h2 <= 4). */
static inline void neon_to26(struct neon_state *st)
{
    uint64_t l[5];

    polymac_r64_to_r26(&st->b64, l);
    for (int i = 0; i < 5; i++)
        st->h26[i] = (uint32_t)l[i];
    st->is26 = 1;
}

static inline void neon_to64(struct neon_state *st)
{
    uint64_t l[5];

    for (int i = 0; i < 5; i++)
        l[i] = st->h26[i];
    polymac_r64_from_r26(&st->b64, l);
    st->is26 = 0;
}

/* Splits a partially reduced radix-2^64 value (h2 <= 4) into 26-bit limbs,
 * carrying once around so that every limb is at most 2^26: the bound the
 * overflow analysis of the vector step assumes. */
static inline void neon_limbs(const struct polymac_r64 *p, uint32_t out[5])
{
    uint64_t l[5];

    polymac_r64_to_r26(p, l);
    uint64_t c = l[4] >> 26;
    l[4] &= M26;
    l[0] += c * 5;
    c = l[0] >> 26;
    l[0] &= M26;
    l[1] += c;
    for (int i = 0; i < 5; i++)
        out[i] = (uint32_t)l[i];
}

/* r^1..r^4 into the lane table.  Run once per key, on the first call that
 * takes the vector path. */
static void neon_powers(struct neon_state *st)
{
    /* An all-zero block with hibit 0 turns r64_blocks into h = h * r. */
    static const uint8_t zero[16];
    struct polymac_r64 p = st->b64;
    uint32_t pw[4][5];

    p.h0 = p.r0;
    p.h1 = p.r1;
    p.h2 = 0;
    neon_limbs(&p, pw[0]);
    for (int k = 1; k < 4; k++) {
        polymac_r64_blocks(&p, zero, 1, 0);
        neon_limbs(&p, pw[k]);
    }
    for (int lane = 0; lane < 4; lane++) {
        const uint32_t *q = pw[3 - lane];
        for (int j = 0; j < 5; j++)
            st->pw[T_R0 + j][lane] = q[j];
        for (int j = 1; j < 5; j++)
            st->pw[T_S1 + j - 1][lane] = q[j] * 5;
    }
    st->have_powers = 1;
    polymac_wipe(&p, sizeof p);
    polymac_wipe(pw, sizeof pw);
}

/* Four blocks -> 26-bit limbs, lane i = block i.  vld4q de-interleaves the
 * 32-bit words so that L[k] needs only shifts and masks. */
static inline void neon_load4(const uint8_t *in, uint32x4_t L[5], uint32x4_t hib)
{
    uint32x4x4_t w = vld4q_u32((const uint32_t *)(const void *)in);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    /* the message is little-endian whatever the host */
    for (int i = 0; i < 4; i++)
        w.val[i] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(w.val[i])));
#endif
    const uint32x4_t m = vdupq_n_u32(M26);

    L[0] = vandq_u32(w.val[0], m);
    L[1] = vandq_u32(vorrq_u32(vshrq_n_u32(w.val[0], 26), vshlq_n_u32(w.val[1], 6)), m);
    L[2] = vandq_u32(vorrq_u32(vshrq_n_u32(w.val[1], 20), vshlq_n_u32(w.val[2], 12)), m);
    L[3] = vandq_u32(vorrq_u32(vshrq_n_u32(w.val[2], 14), vshlq_n_u32(w.val[3], 18)), m);
    L[4] = vorrq_u32(vshrq_n_u32(w.val[3], 8), hib);
}

/* One carry pass over 64-bit lanes (Bernstein and Schwabe's "NEON crypto"
 * order: two independent chains interleaved).  With inputs below 2^59 the
 * outputs are h0, h2, h3 < 2^26, h1 < 2^26 + 2^10, h4 < 2^26 + 2^8. */
static inline void neon_carry(uint64x2_t d[5])
{
    const uint64x2_t m = vdupq_n_u64(M26);
    uint64x2_t c;

    c = vshrq_n_u64(d[0], 26); d[0] = vandq_u64(d[0], m); d[1] = vaddq_u64(d[1], c);
    c = vshrq_n_u64(d[3], 26); d[3] = vandq_u64(d[3], m); d[4] = vaddq_u64(d[4], c);
    c = vshrq_n_u64(d[1], 26); d[1] = vandq_u64(d[1], m); d[2] = vaddq_u64(d[2], c);
    c = vshrq_n_u64(d[4], 26); d[4] = vandq_u64(d[4], m);
    d[0] = vaddq_u64(d[0], vaddq_u64(c, vshlq_n_u64(c, 2)));
    c = vshrq_n_u64(d[2], 26); d[2] = vandq_u64(d[2], m); d[3] = vaddq_u64(d[3], c);
    c = vshrq_n_u64(d[0], 26); d[0] = vandq_u64(d[0], m); d[1] = vaddq_u64(d[1], c);
    c = vshrq_n_u64(d[3], 26); d[3] = vandq_u64(d[3], m); d[4] = vaddq_u64(d[4], c);
}

/*
 * Absorbs 4 * nsteps blocks (nsteps >= 1) into st->h26.
 *
 * Overflow bound: limbs of h below 2^26 + 2^10, of m below 2^26, so
 * x = h + m < 2^27; power limbs at most 2^26, S limbs at most 5 * 2^26.
 * A column sums five x * S and five m * S products:
 * 25 * 2^53 + 25 * 2^52 < 2^59, far from 2^64.
 */
static void neon_steps(struct neon_state *st, const uint8_t *in, size_t nsteps,
                       uint32_t hibit)
{
    const uint32x4_t R0 = vld1q_u32(st->pw[T_R0]), R1 = vld1q_u32(st->pw[T_R1]),
                     R2 = vld1q_u32(st->pw[T_R2]), R3 = vld1q_u32(st->pw[T_R3]),
                     R4 = vld1q_u32(st->pw[T_R4]), S1 = vld1q_u32(st->pw[T_S1]),
                     S2 = vld1q_u32(st->pw[T_S2]), S3 = vld1q_u32(st->pw[T_S3]),
                     S4 = vld1q_u32(st->pw[T_S4]);
    const uint32x4_t hib = vdupq_n_u32(hibit << 24);
    uint32x2_t H[5];
    uint32x4_t L[5];
    uint64x2_t d[5];

    /* h enters lane A; lane B starts empty. */
    for (int i = 0; i < 5; i++)
        H[i] = vset_lane_u32(st->h26[i], vdup_n_u32(0), 0);

    while (--nsteps) {
        neon_load4(in, L, hib);
        in += 64;

        /* (m2, m3) * r^2: high halves of L against lane 2 of the table.
         * Independent of h, so it overlaps the previous carry chain. */
        d[0] = vmull_high_laneq_u32(L[0], R0, 2);
        d[1] = vmull_high_laneq_u32(L[0], R1, 2);
        d[2] = vmull_high_laneq_u32(L[0], R2, 2);
        d[3] = vmull_high_laneq_u32(L[0], R3, 2);
        d[4] = vmull_high_laneq_u32(L[0], R4, 2);
        d[0] = vmlal_high_laneq_u32(d[0], L[1], S4, 2);
        d[1] = vmlal_high_laneq_u32(d[1], L[1], R0, 2);
        d[2] = vmlal_high_laneq_u32(d[2], L[1], R1, 2);
        d[3] = vmlal_high_laneq_u32(d[3], L[1], R2, 2);
        d[4] = vmlal_high_laneq_u32(d[4], L[1], R3, 2);
        d[0] = vmlal_high_laneq_u32(d[0], L[2], S3, 2);
        d[1] = vmlal_high_laneq_u32(d[1], L[2], S4, 2);
        d[2] = vmlal_high_laneq_u32(d[2], L[2], R0, 2);
        d[3] = vmlal_high_laneq_u32(d[3], L[2], R1, 2);
        d[4] = vmlal_high_laneq_u32(d[4], L[2], R2, 2);
        d[0] = vmlal_high_laneq_u32(d[0], L[3], S2, 2);
        d[1] = vmlal_high_laneq_u32(d[1], L[3], S3, 2);
        d[2] = vmlal_high_laneq_u32(d[2], L[3], S4, 2);
        d[3] = vmlal_high_laneq_u32(d[3], L[3], R0, 2);
        d[4] = vmlal_high_laneq_u32(d[4], L[3], R1, 2);
        d[0] = vmlal_high_laneq_u32(d[0], L[4], S1, 2);
        d[1] = vmlal_high_laneq_u32(d[1], L[4], S2, 2);
        d[2] = vmlal_high_laneq_u32(d[2], L[4], S3, 2);
        d[3] = vmlal_high_laneq_u32(d[3], L[4], S4, 2);
        d[4] = vmlal_high_laneq_u32(d[4], L[4], R0, 2);

        /* (h + (m0, m1)) * r^4: low halves against lane 0. */
        uint32x2_t x0 = vadd_u32(H[0], vget_low_u32(L[0]));
        uint32x2_t x1 = vadd_u32(H[1], vget_low_u32(L[1]));
        uint32x2_t x2 = vadd_u32(H[2], vget_low_u32(L[2]));
        uint32x2_t x3 = vadd_u32(H[3], vget_low_u32(L[3]));
        uint32x2_t x4 = vadd_u32(H[4], vget_low_u32(L[4]));
        d[0] = vmlal_laneq_u32(d[0], x0, R0, 0);
        d[1] = vmlal_laneq_u32(d[1], x0, R1, 0);
        d[2] = vmlal_laneq_u32(d[2], x0, R2, 0);
        d[3] = vmlal_laneq_u32(d[3], x0, R3, 0);
        d[4] = vmlal_laneq_u32(d[4], x0, R4, 0);
        d[0] = vmlal_laneq_u32(d[0], x1, S4, 0);
        d[1] = vmlal_laneq_u32(d[1], x1, R0, 0);
        d[2] = vmlal_laneq_u32(d[2], x1, R1, 0);
        d[3] = vmlal_laneq_u32(d[3], x1, R2, 0);
        d[4] = vmlal_laneq_u32(d[4], x1, R3, 0);
        d[0] = vmlal_laneq_u32(d[0], x2, S3, 0);
        d[1] = vmlal_laneq_u32(d[1], x2, S4, 0);
        d[2] = vmlal_laneq_u32(d[2], x2, R0, 0);
        d[3] = vmlal_laneq_u32(d[3], x2, R1, 0);
        d[4] = vmlal_laneq_u32(d[4], x2, R2, 0);
        d[0] = vmlal_laneq_u32(d[0], x3, S2, 0);
        d[1] = vmlal_laneq_u32(d[1], x3, S3, 0);
        d[2] = vmlal_laneq_u32(d[2], x3, S4, 0);
        d[3] = vmlal_laneq_u32(d[3], x3, R0, 0);
        d[4] = vmlal_laneq_u32(d[4], x3, R1, 0);
        d[0] = vmlal_laneq_u32(d[0], x4, S1, 0);
        d[1] = vmlal_laneq_u32(d[1], x4, S2, 0);
        d[2] = vmlal_laneq_u32(d[2], x4, S3, 0);
        d[3] = vmlal_laneq_u32(d[3], x4, S4, 0);
        d[4] = vmlal_laneq_u32(d[4], x4, R0, 0);

        neon_carry(d);
        for (int i = 0; i < 5; i++)
            H[i] = vmovn_u64(d[i]);
    }

    /* Last step: lane A by (r^4, r^2), lane B by (r^3, r^1), so that
     * A + B = h.  Whole-vector products against the table's halves. */
    neon_load4(in, L, hib);
    {
        const uint32x2_t r0 = vget_low_u32(R0), r1 = vget_low_u32(R1),
                         r2 = vget_low_u32(R2), r3 = vget_low_u32(R3),
                         r4 = vget_low_u32(R4), s1 = vget_low_u32(S1),
                         s2 = vget_low_u32(S2), s3 = vget_low_u32(S3),
                         s4 = vget_low_u32(S4);
        uint32x2_t x0 = vadd_u32(H[0], vget_low_u32(L[0]));
        uint32x2_t x1 = vadd_u32(H[1], vget_low_u32(L[1]));
        uint32x2_t x2 = vadd_u32(H[2], vget_low_u32(L[2]));
        uint32x2_t x3 = vadd_u32(H[3], vget_low_u32(L[3]));
        uint32x2_t x4 = vadd_u32(H[4], vget_low_u32(L[4]));

        d[0] = vmull_high_u32(L[0], R0);
        d[1] = vmull_high_u32(L[0], R1);
        d[2] = vmull_high_u32(L[0], R2);
        d[3] = vmull_high_u32(L[0], R3);
        d[4] = vmull_high_u32(L[0], R4);
        d[0] = vmlal_high_u32(d[0], L[1], S4);
        d[1] = vmlal_high_u32(d[1], L[1], R0);
        d[2] = vmlal_high_u32(d[2], L[1], R1);
        d[3] = vmlal_high_u32(d[3], L[1], R2);
        d[4] = vmlal_high_u32(d[4], L[1], R3);
        d[0] = vmlal_high_u32(d[0], L[2], S3);
        d[1] = vmlal_high_u32(d[1], L[2], S4);
        d[2] = vmlal_high_u32(d[2], L[2], R0);
        d[3] = vmlal_high_u32(d[3], L[2], R1);
        d[4] = vmlal_high_u32(d[4], L[2], R2);
        d[0] = vmlal_high_u32(d[0], L[3], S2);
        d[1] = vmlal_high_u32(d[1], L[3], S3);
        d[2] = vmlal_high_u32(d[2], L[3], S4);
        d[3] = vmlal_high_u32(d[3], L[3], R0);
        d[4] = vmlal_high_u32(d[4], L[3], R1);
        d[0] = vmlal_high_u32(d[0], L[4], S1);
        d[1] = vmlal_high_u32(d[1], L[4], S2);
        d[2] = vmlal_high_u32(d[2], L[4], S3);
        d[3] = vmlal_high_u32(d[3], L[4], S4);
        d[4] = vmlal_high_u32(d[4], L[4], R0);

        d[0] = vmlal_u32(d[0], x0, r0);
        d[1] = vmlal_u32(d[1], x0, r1);
        d[2] = vmlal_u32(d[2], x0, r2);
        d[3] = vmlal_u32(d[3], x0, r3);
        d[4] = vmlal_u32(d[4], x0, r4);
        d[0] = vmlal_u32(d[0], x1, s4);
        d[1] = vmlal_u32(d[1], x1, r0);
        d[2] = vmlal_u32(d[2], x1, r1);
        d[3] = vmlal_u32(d[3], x1, r2);
        d[4] = vmlal_u32(d[4], x1, r3);
        d[0] = vmlal_u32(d[0], x2, s3);
        d[1] = vmlal_u32(d[1], x2, s4);
        d[2] = vmlal_u32(d[2], x2, r0);
        d[3] = vmlal_u32(d[3], x2, r1);
        d[4] = vmlal_u32(d[4], x2, r2);
        d[0] = vmlal_u32(d[0], x3, s2);
        d[1] = vmlal_u32(d[1], x3, s3);
        d[2] = vmlal_u32(d[2], x3, s4);
        d[3] = vmlal_u32(d[3], x3, r0);
        d[4] = vmlal_u32(d[4], x3, r1);
        d[0] = vmlal_u32(d[0], x4, s1);
        d[1] = vmlal_u32(d[1], x4, s2);
        d[2] = vmlal_u32(d[2], x4, s3);
        d[3] = vmlal_u32(d[3], x4, s4);
        d[4] = vmlal_u32(d[4], x4, r0);
    }

    /* Fold the lanes (each below 2^59, so the sum fits) and carry once;
     * the same carry order gives the same limb bounds as inside the loop. */
    uint64x2_t f[5];
    for (int i = 0; i < 5; i++)
        f[i] = vdupq_n_u64(vaddvq_u64(d[i]));
    neon_carry(f);
    for (int i = 0; i < 5; i++)
        st->h26[i] = (uint32_t)vgetq_lane_u64(f[i], 0);
}

static void polymac_blocks_aarch64_neon(void *ks, const uint8_t *in, size_t nblocks,
                                        uint32_t hibit)
{
    struct neon_state *st = ks;

    hibit &= 1;
    if (nblocks < NEON_MIN_BLOCKS) {
        if (st->is26)
            neon_to64(st);
        polymac_r64_blocks(&st->b64, in, nblocks, hibit);
        return;
    }
    /* The vector step takes four blocks; the odd ones go first, through
     * the scalar code, so that h leaves in radix 2^26. */
    size_t rem = nblocks % 4;
    if (rem) {
        if (st->is26)
            neon_to64(st);
        polymac_r64_blocks(&st->b64, in, rem, hibit);
        in += 16 * rem;
        nblocks -= rem;
    }
    if (!st->is26)
        neon_to26(st);
    if (!st->have_powers)
        neon_powers(st);
    neon_steps(st, in, nblocks / 4, hibit);
}

static void polymac_emit_aarch64_neon(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct neon_state *st = ks;
    uint64_t lo, hi;

    if (st->is26)
        neon_to64(st);
    polymac_r64_reduce(st->b64.h0, st->b64.h1, st->b64.h2, &lo, &hi);
    polymac_add_s_store(tag, lo, hi, s);
    /* The flag picks one of two constant lengths: a forged state cannot
     * make the wipe run past the state. */
    polymac_wipe(st, st->have_powers ? sizeof *st : NEON_SMALL_BYTES);
}

const struct polymac_kernel polymac_kernel_aarch64_neon = {
    .name = "aarch64-neon",
    .cpu_required = POLYMAC_CPU_ARM_NEON,
    .init = polymac_init_aarch64_neon,
    .blocks = polymac_blocks_aarch64_neon,
    .emit = polymac_emit_aarch64_neon,
    /* one-shot messages this short would run only the scalar path anyway */
    .scalar_max = NEON_MIN_BLOCKS * 16 - 1,
};
