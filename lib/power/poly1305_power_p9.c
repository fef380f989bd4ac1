/* poly1305_power_p9.c -- POWER9 (ISA 3.0) kernel: radix 2^44, four blocks a
 *                        step through vmsumudm's paired 64x64 products */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../simd/skeleton.h"
#include "../registry.h"

#include <altivec.h>
#undef vector
#undef pixel
#undef bool

/* meson builds this file for ppc64le only, like power-vsx */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "power-p9 is written for little-endian POWER (ppc64le)"
#endif

typedef __vector unsigned long long vu64;
typedef __vector unsigned __int128 vu128;

/* Technique (after Nettle's powerpc64/p9 code): vmsumudm computes
 * a0 b0 + a1 b1 + c exactly in 128 bits.  With h in three limbs of 44,
 * 44 and 42 bits, the column sums of a product are at most a few 2^93,
 * so two blocks can share one instruction if each lane carries its own
 * power of r, and the sum across the lanes is exactly what Horner's rule
 * wants.  Four blocks a step:
 *     h' = (h + m0) r^4 + m1 r^3 + m2 r^2 + m3 r
 * is 18 vmsumudm, and h' comes out as one value, never as lanes: there is
 * nothing to fold at the end of a call, and 1 to 3 remaining blocks use
 * the same step with lower powers.  Carries run in scalar registers on the
 * three 128-bit column sums.
 *
 * Products at 2^132 and 2^176 wrap to 2^2 and 2^46 times 5 (mod p):
 * s = 20 r for limbs 1 and 2.
 *
 * Break-even (not measured here: qemu cannot time).  By the published
 * figures (OpenSSL's for its scalar base 2^64 code on POWER9, Nettle's
 * for this method against its scalar code: docs/log.md, Figures moved
 * out of lib/ comments) the method is well ahead of scalar code, and
 * Nettle processes four blocks at a time only from 12 blocks up, since
 * it recomputes r^2..r^4 on every call.  We
 * compute the powers once per key, so the first vector call pays what
 * Nettle pays on every call: 12 blocks before the powers exist; once h is
 * in radix 2^44 a later call needs no setup, only the conversion of h
 * if a short call ran in between: 4 blocks after, so pieces of fewer than
 * four blocks always run the scalar code.  A build may set either
 * break-even (lab/tune measures them where it can time). */
#ifndef POLYMAC_P9_COLD
#define POLYMAC_P9_COLD 12
#endif
#ifndef POLYMAC_P9_WARM
#define POLYMAC_P9_WARM 4
#endif
_Static_assert(POLYMAC_P9_WARM >= 4
               && POLYMAC_P9_COLD >= POLYMAC_P9_WARM,
               "short pieces run the scalar code");

#define M44 0xfffffffffffull
#define M42 0x3ffffffffffull

struct p9_state {
    struct polymac_simd s;      /* the skeleton's state */
    uint64_t h44[3];            /* h while s.vec == 1 */
    /* pw[k] = r^k in radix 2^44: limbs 0, 1, 2, then 20 limb1, 20 limb2.
     * pw[0] stays zero: lanes without a block multiply by it. */
    uint64_t pw[5][5];
};
_Static_assert(sizeof(struct p9_state) <= POLYMAC_KS_BYTES, "state fits");

/* One power per lane: lane 0 for the earlier block of a pair. */
struct p9_pair {
    vu64 r0, r1, r2, s1, s2;
};

/* The skeleton's powers(): r^1..r^4 (one level). */
static void p9_powers(void *ks, uint32_t level)
{
    struct p9_state *st = ks;
    struct polymac_r64 t;
    uint64_t l[3];

    (void)level;
    memset(st->pw[0], 0, sizeof st->pw[0]);
    for (unsigned k = 1; k <= 4; k++) {
        polymac_simd_power(&t, &st->s, k);
        polymac_r64_to_r44(&t, l);       /* h2 <= 4: limb 2 < 2^43 */
        st->pw[k][0] = l[0];
        st->pw[k][1] = l[1];
        st->pw[k][2] = l[2];
        st->pw[k][3] = 20 * l[1];
        st->pw[k][4] = 20 * l[2];
    }
    polymac_wipe(&t, sizeof t);
    polymac_wipe(l, sizeof l);
}

/* The skeleton's radix conversions. */
static void p9_to_vec(void *ks)
{
    struct p9_state *st = ks;
    polymac_r64_to_r44(&st->s.sc, st->h44);
}

static void p9_to_r64(void *ks)
{
    struct p9_state *st = ks;
    polymac_r64_from_r44(&st->s.sc, st->h44);
}

/* a, b index pw; both <= 4 by construction at every call site. */
static inline struct p9_pair p9_pair(const struct p9_state *st, unsigned a, unsigned b)
{
    struct p9_pair p;
    p.r0 = (vu64){st->pw[a][0], st->pw[b][0]};
    p.r1 = (vu64){st->pw[a][1], st->pw[b][1]};
    p.r2 = (vu64){st->pw[a][2], st->pw[b][2]};
    p.s1 = (vu64){st->pw[a][3], st->pw[b][3]};
    p.s2 = (vu64){st->pw[a][4], st->pw[b][4]};
    return p;
}

static inline void p9_split(uint64_t m[3], const uint8_t *b, uint64_t hib)
{
    uint64_t lo = polymac_load64le(b), hi = polymac_load64le(b + 8);
    m[0] = lo & M44;
    m[1] = ((lo >> 44) | (hi << 20)) & M44;
    m[2] = (hi >> 24) | hib;
}

/* d += x p, column by column.  Bounds: x limbs 0, 1 < 2^45.01, limb 2
 * < 2^43.6; multipliers < 2^48.33 (20 times a 44-bit limb).  A column of
 * a four-block step sums twelve products, at most 4 (2^89.01 + 2^92.34 +
 * 2^91.93) < 2^95.3: far from 2^128, and d >> 44 fits 64 bits. */
static inline void p9_mul_acc(vu128 d[3], vu64 x0, vu64 x1, vu64 x2,
                              const struct p9_pair *p)
{
    d[0] = vec_msum(x0, p->r0, d[0]);
    d[1] = vec_msum(x0, p->r1, d[1]);
    d[2] = vec_msum(x0, p->r2, d[2]);
    d[0] = vec_msum(x1, p->s2, d[0]);
    d[1] = vec_msum(x1, p->r0, d[1]);
    d[2] = vec_msum(x1, p->r1, d[2]);
    d[0] = vec_msum(x2, p->s1, d[0]);
    d[1] = vec_msum(x2, p->s2, d[1]);
    d[2] = vec_msum(x2, p->r0, d[2]);
}

/* The same for x holding h: the three products of a column start from
 * their own sums and are added after, so that the chain from h to d
 * passes one vmsumudm, not three. */
static inline void p9_mul_acc_h(vu128 d[3], vu64 x0, vu64 x1, vu64 x2,
                                const struct p9_pair *p)
{
    const vu128 z = {0};
    vu128 a0 = vec_msum(x0, p->r0, d[0]), b0 = vec_msum(x1, p->s2, z);
    vu128 a1 = vec_msum(x0, p->r1, d[1]), b1 = vec_msum(x1, p->r0, z);
    vu128 a2 = vec_msum(x0, p->r2, d[2]), b2 = vec_msum(x1, p->r1, z);
    vu128 c0 = vec_msum(x2, p->s1, z), c1 = vec_msum(x2, p->s2, z);
    vu128 c2 = vec_msum(x2, p->r0, z);
    d[0] = vec_add(a0, vec_add(b0, c0));
    d[1] = vec_add(a1, vec_add(b1, c1));
    d[2] = vec_add(a2, vec_add(b2, c2));
}

/* Absorbs k blocks (1 <= k <= 4) into h: block j is multiplied by
 * r^(k-j).  hi holds the powers of blocks 0 and 1, lo of blocks 2 and 3.
 * Always inlined: k must fold to a constant and h must stay in registers
 * (GCC 12 otherwise calls one generic copy from the hot loop). */
static inline __attribute__((always_inline)) void p9_step(uint64_t h[3], const uint8_t *in, unsigned k,
                           uint64_t hib, const struct p9_pair *hi,
                           const struct p9_pair *lo)
{
    uint64_t m0[3], m1[3] = {0, 0, 0}, m2[3] = {0, 0, 0}, m3[3] = {0, 0, 0};
    vu128 d[3] = {(vu128){0}, (vu128){0}, (vu128){0}};

    p9_split(m0, in, hib);
    if (k > 1)
        p9_split(m1, in + 16, hib);
    if (k > 2) {
        p9_split(m2, in + 32, hib);
        if (k > 3)
            p9_split(m3, in + 48, hib);
        /* the later pair first: it does not wait for h */
        p9_mul_acc(d, (vu64){m2[0], m3[0]}, (vu64){m2[1], m3[1]},
                   (vu64){m2[2], m3[2]}, lo);
    }
    p9_mul_acc_h(d, (vu64){h[0] + m0[0], m1[0]}, (vu64){h[1] + m0[1], m1[1]},
               (vu64){h[2] + m0[2], m1[2]}, hi);

    /* Carry the column sums (each < 2^96): limbs end below 2^44, 2^44 +
     * 2^14 and 2^42, bits 130 and up fold back times 5. */
    unsigned __int128 d0 = d[0][0], d1 = d[1][0], d2 = d[2][0];
    uint64_t h0, h1, h2, c;
    h0 = (uint64_t)d0 & M44;
    d1 += (uint64_t)(d0 >> 44);
    h1 = (uint64_t)d1 & M44;
    d2 += (uint64_t)(d1 >> 44);
    h2 = (uint64_t)d2 & M42;
    c = (uint64_t)(d2 >> 42);
    h0 += c * 5;
    h1 += h0 >> 44;
    h0 &= M44;
    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
}

/* The skeleton's loop(): every block, the last one to three by the same
 * step with lower powers; h stays in radix 2^44. */
static size_t p9_loop(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit)
{
    struct p9_state *st = ks;
    const uint64_t hib = (uint64_t)hibit << 40;
    const size_t all = nblocks;
    uint64_t h[3];

    h[0] = st->h44[0];
    h[1] = st->h44[1];
    h[2] = st->h44[2];
    if (nblocks >= 4) {
        const struct p9_pair p43 = p9_pair(st, 4, 3), p21 = p9_pair(st, 2, 1);
        for (; nblocks >= 4; nblocks -= 4, in += 64)
            p9_step(h, in, 4, hib, &p43, &p21);
    }
    if (nblocks == 3) {
        const struct p9_pair p32 = p9_pair(st, 3, 2), p10 = p9_pair(st, 1, 0);
        p9_step(h, in, 3, hib, &p32, &p10);
    } else if (nblocks == 2) {
        const struct p9_pair p21 = p9_pair(st, 2, 1);
        p9_step(h, in, 2, hib, &p21, &p21);
    } else if (nblocks == 1) {
        const struct p9_pair p10 = p9_pair(st, 1, 0);
        p9_step(h, in, 1, hib, &p10, &p10);
    }
    st->h44[0] = h[0];
    st->h44[1] = h[1];
    st->h44[2] = h[2];
    return all;
}

static const struct polymac_simd_kernel p9_kernel = {
    .level = 1,
    .powers = p9_powers,
    .to_vec = p9_to_vec,
    .to_r64 = p9_to_r64,
    .loop = p9_loop,
    .small = offsetof(struct p9_state, pw),
    .state = sizeof(struct p9_state),
};

POLYMAC_SIMD_FUNCTIONS(power_p9, struct p9_state, s, p9_kernel, POLYMAC_P9_COLD,
                       POLYMAC_P9_WARM)

/* Usable on POWER10, but its loop is slower there than power-vsx's under
 * LLVM's pwr10 model (docs/platforms.md, the static cost model).  Stack:
 * the deepest frames -fstack-usage gives, rounded up with room to spare;
 * test_stack checks it under qemu-user. */
#ifdef POLYMAC_PAIRS_PPC64
/* the batch entry: two messages at a time in scalar radix 2^64
 * (generic/r64_pairs.h) */
#include "../generic/r64_pairs.h"
#define P9_LANES .lanes = &polymac_pairs_lanes
#else
#define P9_LANES .lanes = NULL
#endif

POLYMAC_SIMD_REGISTER(power_p9, "power-p9", POLYMAC_CPU_PPC_ISA300 | POLYMAC_CPU_PPC_VSX,
                      POLYMAC_P9_COLD,
                      .cpu_avoid = POLYMAC_CPU_PPC_ISA310,
                      .stack_bytes = 768,       /* deepest measured: 608 (blocks, p9_loop) */
                      P9_LANES);
