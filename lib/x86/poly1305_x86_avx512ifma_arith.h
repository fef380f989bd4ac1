/* poly1305_x86_avx512ifma_arith.h -- x86-avx512ifma's arithmetic: radix 2^44
 *                                   in eight 64-bit lanes with vpmadd52
 *                                   (included by its kernel file only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_X86_AVX512IFMA_ARITH_H
#define POLYMAC_X86_AVX512IFMA_ARITH_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Technique (after the base 2^44 vpmadd52 path of OpenSSL's
 * poly1305-x86_64.pl, as its comments explain it, and Goll and Gueron's
 * vectorised Horner evaluation with precomputed powers; the code is our
 * own):
 *
 * h and r^e are three limbs of 44, 44 and 42 bits.  vpmadd52luq/huq add the
 * low and the high 52 bits of a 52x52-bit product to an accumulator, so a
 * block costs 9 product pairs instead of the 25 of radix 2^26.  With
 * 2^132 = 4 * 2^130 == 20 (mod p), the wrapped products use s1 = 20 r1 and
 * s2 = 20 r2:
 *
 *     d0 = h0 r0 + h1 s2 + h2 s1
 *     d1 = h0 r1 + h1 r0 + h2 s2
 *     d2 = h0 r2 + h1 r1 + h2 r0
 *
 * Each d_i arrives as a low half l_i (a sum of 52-bit values) and a high
 * half g_i worth g_i 2^52 = (g_i << 8) 2^44 within its limb.
 *
 * Sixteen blocks are in flight: two sets (A, B) of eight 64-bit lanes, one
 * block per lane, two independent dependency chains.  Each group of 16
 * blocks is folded in Horner fashion, V = V r^16 + M, the message limbs
 * starting the accumulators of the multiplication; the last group of a call
 * is multiplied lane-wise by r^16..r^1 and the lanes are summed.  A leading
 * group of k = nblocks mod 16 blocks sits in lanes 0..k-1 (the others hold
 * 0) and is multiplied by r^k, which lines it up with the full groups that
 * follow; a call of fewer than 16 blocks multiplies lane j by r^(n - j).
 *
 * Carry analysis (worst-case bounds, so they hold for all-0xff keys,
 * messages and h; test/unit/bounds.c propagates upper bounds through every
 * instruction of ifma_mulred and ifma_mulpow to a fixed point):
 *   - vpmadd52 ignores bits 52 and up of its factors, so every factor must
 *     be below 2^52, and a shift or a multiplication by 5 done by IFMA is
 *     exact only while the product stays below 2^52.
 *   - powers leave ifma_mulpow with limbs below 2^44, 2^44 + 2^5, 2^42,
 *     so s1 < 2^48.4 and s2 < 2^46.4.
 *   - lanes leave ifma_mulred with h0 < 2^44 + 2^14, h1 < 2^44, h2 < 2^42
 *     + 2^11 (ifma_carry leaves 5 c in h0 uncarried); h from radix 2^64
 *     has limbs below 2^44, 2^44, 2^43 (h2 <= 4).  A message added before
 *     a product has limbs below 2^44, 2^44, 2^41, so every multiplicand is
 *     below 2^45.  A message that starts the accumulators (ifma_load8_acc)
 *     has limb 1 below 2^52 + 2^20.
 *   - then d0 < 2^45 (2^44 + 2^46.4 + 2^48.4): g0 < 2^40.7, g1 < 2^38.9,
 *     g2 < 2^37.7, so g0 << 8, g1 << 8 < 2^48.7 and 5 * 2^10 g2 < 2^50;
 *     l_i < 2^54.1.
 *   - c = l2 >> 42 < 2^11.6 (ifma_carry reads l2 before limb 1's carry),
 *     5 c < 2^14.  No 64-bit intermediate exceeds 2^55.
 *   - live lanes are stored as ifma_mulred left them (or, before the
 *     first product, as a message plus h, below 2^45), so the bounds
 *     above hold across calls.
 *   - the last step of a call sums its accumulators over 16 lanes without
 *     a carry (see ifma_final): limbs below 2^59, inside the 63 bits that
 *     polymac_r64_from_r44 accepts.
 */

#define IFMA_M44 0xfffffffffffULL
#define IFMA_M42 0x3ffffffffffULL

#define IFMA_INLINE static inline __attribute__((always_inline))

/* A power of r (or any multiplier) as the five vectors a product needs. */
struct ifma_pow {
    __m512i r0, r1, r2, s1, s2;
};

/* Eight lanes of values mod p in radix 2^44. */
struct ifma_h {
    __m512i h0, h1, h2;
};

/*
 * A fresh zero accumulator.  vpmadd52 adds to its destination, so every
 * product that starts a sum needs a zeroed register.  From one shared zero
 * register GCC copies each accumulator with vmovdqa64 (six copies a set
 * per group in ifma_mulred); a zeroing idiom per accumulator, which the
 * renamer handles without a port, measured faster (docs/log.md,
 * x86-avx512ifma break-evens and code).
 * volatile: identical statements must not be merged back into one
 * register.
 */
IFMA_INLINE __m512i ifma_zero(void)
{
    __m512i z;
    __asm__ __volatile__("vpxord %0, %0, %0" : "=v"(z));
    return z;
}

/*
 * The small factors of the loop and the 2^128 bit of a block, broadcast
 * from memory.  GCC builds _mm512_set1_epi64 of a small constant with a
 * move and a vpbroadcastq from a general register, a uop on port 5, one
 * of the two ports the 512-bit IFMAs are bound by; a broadcast from memory
 * is a load only.  In a 1 KiB streamed call, which sets up its constants
 * anew, that was five uops of the loop's ports per call.  The asm is not
 * volatile: GCC still hoists and merges it like any load.
 */
static const struct {
    uint64_t c5, c20, c5120, sh8, sh20;
    uint64_t hibit[2];          /* the 2^128 bit at bit 40 of limb 2 */
} ifma_k = { 5, 20, 5 << 10, 1 << 8, 1 << 20, { 0, 1ULL << 40 } };

IFMA_INLINE __m512i ifma_bcastk(const uint64_t *k)
{
    __m512i x;
    __asm__("vpbroadcastq %1, %0" : "=v"(x) : "m"(*k));
    return x;
}

/* hibit is 0 or 1, from the front end: public */
IFMA_INLINE __m512i ifma_hibit(uint32_t hibit)
{
    return ifma_bcastk(&ifma_k.hibit[hibit & 1]);
}

/* 20 x, the factor that folds 2^132 back below 2^130, for x < 2^47: one
 * exact IFMA rather than two shifts and an add. */
IFMA_INLINE __m512i ifma_times20(__m512i x)
{
    return _mm512_madd52lo_epu64(ifma_zero(), x, ifma_bcastk(&ifma_k.c20));
}

IFMA_INLINE struct ifma_pow ifma_mkpow(__m512i r0, __m512i r1, __m512i r2)
{
    struct ifma_pow p = { r0, r1, r2, ifma_times20(r1), ifma_times20(r2) };
    return p;
}

/*
 * The six column sums of a product: the low halves l_i at 2^(44 i) and the
 * high halves g_i, worth (g_i << 8) 2^(44 (i + 1)).
 */
struct ifma_acc {
    __m512i l0, l1, l2, g0, g1, g2;
};

/* Sums that start at e (a message, or 0) in the low halves and at 0 in
 * the high ones. */
IFMA_INLINE struct ifma_acc ifma_acc_start(struct ifma_h e)
{
    struct ifma_acc a = { e.h0, e.h1, e.h2, ifma_zero(), ifma_zero(), ifma_zero() };
    return a;
}

IFMA_INLINE struct ifma_acc ifma_acc_zero(void)
{
    struct ifma_acc a = { ifma_zero(), ifma_zero(), ifma_zero(),
                          ifma_zero(), ifma_zero(), ifma_zero() };
    return a;
}

/* x0 y0, x1 y1 and x2 y2 into columns 0, 1 and 2. */
IFMA_INLINE struct ifma_acc ifma_madd3(struct ifma_acc a, __m512i x0, __m512i y0,
                                       __m512i x1, __m512i y1, __m512i x2, __m512i y2)
{
    a.l0 = _mm512_madd52lo_epu64(a.l0, x0, y0);
    a.g0 = _mm512_madd52hi_epu64(a.g0, x0, y0);
    a.l1 = _mm512_madd52lo_epu64(a.l1, x1, y1);
    a.g1 = _mm512_madd52hi_epu64(a.g1, x1, y1);
    a.l2 = _mm512_madd52lo_epu64(a.l2, x2, y2);
    a.g2 = _mm512_madd52hi_epu64(a.g2, x2, y2);
    return a;
}

/*
 * h p added to the sums: d0 = h0 r0 + h1 s2 + h2 s1, d1 = h0 r1 + h1 r0 +
 * h2 s2, d2 = h0 r2 + h1 r1 + h2 r0.  Each limb's products chain through
 * one accumulator, those of h1 first and those of h2 last, in the order in
 * which ifma_carry settles them (h2 waits for limb 1's carry; faster than
 * h2, h0, h1 on Zen 5: docs/log.md, 2026-12-02).
 */
IFMA_INLINE struct ifma_acc ifma_prod(struct ifma_acc a, struct ifma_h h, struct ifma_pow p)
{
    a = ifma_madd3(a, h.h1, p.s2, h.h1, p.r0, h.h1, p.r1);
    a = ifma_madd3(a, h.h0, p.r0, h.h0, p.r1, h.h0, p.r2);
    return ifma_madd3(a, h.h2, p.s1, h.h2, p.s2, h.h2, p.r0);
}

/*
 * The sums carried with the shifts by 8 and the multiplications by 5 * 2^10
 * and 5 as IFMAs: ifma_mulred's chain, ordered for its latency.  g2, at
 * 2^140 == 5 * 2^10 (mod p, as 2^130 == 5), folds into limb 0 the moment
 * it is ready, beside g0 and g1 joining limbs 1 and 2; limb 0 carries
 * into limb 1; the fold c = l2 >> 42 reads limb 2 before the carry out of
 * limb 1 reaches it, and that carry joins h2 after the mask.  c is then
 * small (l2 < 2^55), 5 c stays in h0 uncarried, and no step waits on a
 * carry out of h0: the chain from the last product to h is an IFMA, a
 * shift and an add (h1), or two IFMAs and a shift (h0), about two thirds
 * of the sequential order's (d0 -> d1 -> d2 -> 5 c -> d0 -> d1), with
 * fewer instructions (docs/log.md, 2026-12-02).  Results: h0 < 2^44 +
 * 2^15.2, h1 < 2^44, h2 < 2^42 + 2^11 (test/unit/bounds.c).
 */
IFMA_INLINE struct ifma_h ifma_carry(struct ifma_acc a)
{
    const __m512i m44 = _mm512_set1_epi64(IFMA_M44);
    const __m512i m42 = _mm512_set1_epi64(IFMA_M42);
    struct ifma_h o;
    const __m512i l0 = _mm512_madd52lo_epu64(a.l0, a.g2, ifma_bcastk(&ifma_k.c5120));
    __m512i l1 = _mm512_madd52lo_epu64(a.l1, a.g0, ifma_bcastk(&ifma_k.sh8));
    const __m512i l2 = _mm512_madd52lo_epu64(a.l2, a.g1, ifma_bcastk(&ifma_k.sh8));
    l1 = _mm512_add_epi64(l1, _mm512_srli_epi64(l0, 44));
    o.h1 = _mm512_and_si512(l1, m44);
    o.h2 = _mm512_add_epi64(_mm512_and_si512(l2, m42), _mm512_srli_epi64(l1, 44));
    /* bits 130 and up of limb 2: c 2^130 == 5 c */
    o.h0 = _mm512_madd52lo_epu64(_mm512_and_si512(l0, m44), _mm512_srli_epi64(l2, 42),
                                 ifma_bcastk(&ifma_k.c5));
    return o;
}

/*
 * Returns h p + e mod p per lane, carried to h0 < 2^44, h1 < 2^44 + 2^6,
 * h2 < 2^42 (see the analysis at the top).  e (a message group, or 0)
 * starts the low accumulators, so absorbing a message costs no add.
 *
 * Two independent sets keep the multiplier busy here, so the count of
 * instructions decides: the shifts by 8 and 10 and the multiplication by 5
 * of the carries are IFMAs too (exact: every factor is below 2^49 and
 * every product below 2^52), one instruction instead of two or three for
 * the ALU ports that also split the messages.
 */
IFMA_INLINE struct ifma_h ifma_mulred(struct ifma_h h, struct ifma_pow p,
                                      struct ifma_h e)
{
    return ifma_carry(ifma_prod(ifma_acc_start(e), h, p));
}

/*
 * The same carries as ifma_carry, with 1-cycle shifts and adds in place
 * of the IFMA shifts and multiplication by 5: a shorter chain from the
 * last product to h1 (docs/log.md, "Figures moved out of lib/ comments"),
 * more instructions on the shift port.  For chains that wait on the carry: the powers of r
 * (ifma_mulpow) and the batch lanes.  Same values as ifma_carry; the
 * bounds are those of ifma_mulred (test/unit/bounds.c).
 */
IFMA_INLINE struct ifma_h ifma_shift_carry(struct ifma_acc a)
{
    const __m512i m44 = _mm512_set1_epi64(IFMA_M44);
    const __m512i m42 = _mm512_set1_epi64(IFMA_M42);
    struct ifma_h o;
    __m512i l1 = _mm512_add_epi64(a.l1, _mm512_add_epi64(_mm512_slli_epi64(a.g0, 8),
                                                         _mm512_srli_epi64(a.l0, 44)));
    o.h0 = _mm512_and_si512(a.l0, m44);
    __m512i l2 = _mm512_add_epi64(a.l2, _mm512_slli_epi64(a.g1, 8));
    o.h1 = _mm512_and_si512(l1, m44);
    l2 = _mm512_add_epi64(l2, _mm512_srli_epi64(l1, 44));
    o.h2 = _mm512_and_si512(l2, m42);
    /* bits 130 and up: c 2^130 == 5 c */
    const __m512i c = _mm512_add_epi64(_mm512_slli_epi64(a.g2, 10), _mm512_srli_epi64(l2, 42));
    o.h0 = _mm512_add_epi64(_mm512_add_epi64(o.h0, c), _mm512_slli_epi64(c, 2));
    o.h1 = _mm512_add_epi64(o.h1, _mm512_srli_epi64(o.h0, 44));
    o.h0 = _mm512_and_si512(o.h0, m44);
    return o;
}

/*
 * Returns x y mod p per lane for the powers of r: the same arithmetic as
 * ifma_mulred, scheduled for a chain of four dependent products.  Spelling
 * out every product and carry in parallel made the chain slower, not
 * faster, so instructions, shifts above all (one port runs them), are
 * what this schedule saves: the factors 20 go on x (ready before y, a
 * permutation of x) as IFMAs, each limb's products chain through one
 * accumulator (in an order of its own: ifma_prod's made a one-shot
 * message's powers slower), and the carries are sequential, with 1-cycle
 * shifts and adds where they lie on the chain.  With x, y below 2^45 per
 * limb the bounds of ifma_mulred hold; the result is carried to limbs
 * below 2^44, 2^44 + 2^5, 2^42.
 */
IFMA_INLINE struct ifma_h ifma_mulpow(struct ifma_h x, struct ifma_h y)
{
    const __m512i u1 = ifma_times20(x.h1), u2 = ifma_times20(x.h2);
    struct ifma_acc a = ifma_madd3(ifma_acc_zero(), u2, y.h1, u2, y.h2, x.h2, y.h0);
    a = ifma_madd3(a, x.h0, y.h0, x.h0, y.h1, x.h0, y.h2);
    a = ifma_madd3(a, u1, y.h2, x.h1, y.h0, x.h1, y.h1);
    return ifma_shift_carry(a);
}

/*
 * r^2 per lane for a clamped r (limbs below 2^44, 2^44, 2^36) and its
 * s2 (s1 is not read): the first round of ifma_powers and the batch
 * lanes' keys.  A square has two equal cross products per column, so
 *     d0 = r0 r0 + r1 (40 r2), d1 = r0 (2 r1) + r2 (20 r2),
 *     d2 = r0 (2 r2) + r1 r1,
 * six products where ifma_mulpow takes nine, two (not three) chained in
 * each column, and the factor 20 is p's.  Carried as
 * ifma_mulpow carries (limbs below 2^44, 2^44 + 2^5, 2^42); the bounds
 * are test/unit/bounds.c's "lanes r^2".
 */
IFMA_INLINE struct ifma_h ifma_sqr_clamped(const struct ifma_pow *p)
{
    const __m512i d1 = _mm512_add_epi64(p->r1, p->r1), d2 = _mm512_add_epi64(p->r2, p->r2);
    const __m512i t2 = _mm512_add_epi64(p->s2, p->s2);
    struct ifma_acc a = ifma_madd3(ifma_acc_zero(), p->r0, p->r0, p->r0, d1, p->r0, d2);
    a = ifma_madd3(a, p->r1, t2, p->r2, p->s2, p->r1, p->r1);
    return ifma_shift_carry(a);
}

/*
 * The last step of a call: a p (+ b q when two), summed over the lanes into
 * limbs for polymac_r64_from_r44, with no vector carry at all: the six
 * accumulators are summed across the lanes as they are (16 lanes of at
 * most 3 * 2^52 + 2^45 stay below 2^58) and the high halves join their
 * limbs in scalar code, g0 << 8 and g1 << 8 one limb up and g2, at 2^140,
 * as 5 (g2 << 10) in limb 0; every limb stays below 2^60.  This takes a
 * dozen cycles of latency off every call.
 */
IFMA_INLINE void ifma_final(struct ifma_h a, struct ifma_pow p, struct ifma_h b,
                            struct ifma_pow q, const int two, uint64_t l[3])
{
    struct ifma_acc x = ifma_prod(ifma_acc_zero(), a, p);
    if (two) {
        const struct ifma_acc y = ifma_prod(ifma_acc_zero(), b, q);
        x.l0 = _mm512_add_epi64(x.l0, y.l0);
        x.l1 = _mm512_add_epi64(x.l1, y.l1);
        x.l2 = _mm512_add_epi64(x.l2, y.l2);
        x.g0 = _mm512_add_epi64(x.g0, y.g0);
        x.g1 = _mm512_add_epi64(x.g1, y.g1);
        x.g2 = _mm512_add_epi64(x.g2, y.g2);
    }
    const __m512i v[6] = { x.l0, x.l1, x.l2, x.g0, x.g1, x.g2 };
    uint64_t sum[6];
    polymac_x86_hsum8x6(v, sum);
    l[0] = sum[0] + 5 * (sum[5] << 10);
    l[1] = sum[1] + (sum[3] << 8);
    l[2] = sum[2] + (sum[4] << 8);
}

IFMA_INLINE struct ifma_h ifma_add(struct ifma_h a, struct ifma_h b)
{
    struct ifma_h o = { _mm512_add_epi64(a.h0, b.h0), _mm512_add_epi64(a.h1, b.h1),
                        _mm512_add_epi64(a.h2, b.h2) };
    return o;
}

/* Splits two registers of 4 blocks each (x: blocks 0-3, y: 4-7) into the
 * radix-2^44 limbs of 8 lanes, block j in lane j; hb is the 2^128 bit of
 * each lane, already shifted to bit 40 of limb 2. */
IFMA_INLINE struct ifma_h ifma_split(__m512i x, __m512i y, __m512i hb)
{
    const __m512i m44 = _mm512_set1_epi64(IFMA_M44);
    const __m512i ilo = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i ihi = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    __m512i lo = _mm512_permutex2var_epi64(x, ilo, y);
    __m512i hi = _mm512_permutex2var_epi64(x, ihi, y);
    struct ifma_h m;
    m.h0 = _mm512_and_si512(lo, m44);
    /* (a | b) & c in one vpternlogq: 0xa8 = (0xf0 | 0xcc) & 0xaa */
#if defined(POLYMAC_SANITIZED)
    /* MemorySanitizer (clang 14) checks vpternlogq strictly: sanitizer
     * builds compute the same with vpor and vpand */
    m.h1 = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44),
                                            _mm512_slli_epi64(hi, 20)), m44);
#else
    m.h1 = _mm512_ternarylogic_epi64(_mm512_srli_epi64(lo, 44),
                                     _mm512_slli_epi64(hi, 20), m44, 0xa8);
#endif
    m.h2 = _mm512_or_si512(_mm512_srli_epi64(hi, 24), hb);
    return m;
}

/* The 8 blocks at in, carried (limbs below 2^44, 2^44, 2^41): fit to be
 * added to h before a product. */
IFMA_INLINE struct ifma_h ifma_load8(const uint8_t *in, __m512i hb)
{
    return ifma_split(_mm512_loadu_si512((const void *)in),
                      _mm512_loadu_si512((const void *)(in + 64)), hb);
}

/*
 * 8 blocks (x: blocks 0-3, y: 4-7, as ifma_split takes them) as the
 * starting values of ifma_mulred's accumulators, with fewer instructions
 * and no shift of hi: limb 1 takes block bits
 * 64..95 as the low half of hi * 2^20 (one IFMA for a shift, an add and a
 * mask), so it reaches 2^52 + 2^20 and carries block bits 88..95 into
 * limb 2 itself; limb 2 takes bits 96..127 only, moved by a byte shuffle.
 * Never a factor: limb 1 may exceed 52 bits.
 */
IFMA_INLINE struct ifma_h ifma_split_acc(__m512i x, __m512i y, __m512i hb)
{
    const __m512i ilo = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i ihi = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    const __m512i lo = _mm512_permutex2var_epi64(x, ilo, y);
    const __m512i hi = _mm512_permutex2var_epi64(x, ihi, y);
    struct ifma_h m;
    m.h0 = _mm512_and_si512(lo, _mm512_set1_epi64(IFMA_M44));
    m.h1 = _mm512_madd52lo_epu64(_mm512_srli_epi64(lo, 44), hi, ifma_bcastk(&ifma_k.sh20));
    /* bytes 4..7 of hi to bytes 1..4 of limb 2 (block bits 96..127 at
     * limb bit 8): a byte shuffle instead of a shift, on a port the IFMAs
     * and shifts leave idle */
    const long long s0 = (long long)0x8080800706050480ULL, s1 = (long long)0x8080800f0e0d0c80ULL;
    const __m512i sh = _mm512_set4_epi64(s1, s0, s1, s0);
    m.h2 = _mm512_or_si512(_mm512_shuffle_epi8(hi, sh), hb);
    return m;
}

/* The 8 blocks at in, as ifma_split_acc leaves them. */
IFMA_INLINE struct ifma_h ifma_load8_acc(const uint8_t *in, __m512i hb)
{
    return ifma_split_acc(_mm512_loadu_si512((const void *)in),
                          _mm512_loadu_si512((const void *)(in + 64)), hb);
}

/*
 * ifma_load8_acc of 8 blocks of which the last t (1 or 2) are not at in
 * but at tail (a padded block and the AEAD's lengths, in a buffer of the
 * caller's), with the 2^128 bit thb (hb's form) there: the last group of
 * a one-shot message spliced together in registers, so that those blocks
 * need no scalar step after the lanes' sum.  Masked loads read nothing
 * past block 7 - t at in.
 */
IFMA_INLINE struct ifma_h ifma_load8_acc_tail(const uint8_t *in, const uint8_t *tail,
                                              unsigned t, __m512i hb, __m512i thb)
{
    const __m512i x = _mm512_loadu_si512((const void *)in);
    __m512i y;
    if (t == 1)
        y = _mm512_inserti32x4(_mm512_maskz_loadu_epi64(0x3f, in + 64),
                               _mm_loadu_si128((const __m128i *)(const void *)tail), 3);
    else
        y = _mm512_inserti64x4(_mm512_maskz_loadu_epi64(0x0f, in + 64),
                               _mm256_loadu_si256((const __m256i *)(const void *)tail), 1);
    const __mmask8 mt = (__mmask8)(0xffu << (8 - t));
    return ifma_split_acc(x, y, _mm512_mask_mov_epi64(hb, mt, thb));
}

/* The first nb (0..8) of 8 blocks at in, in lanes 0..nb-1; the other lanes
 * (and their 2^128 bits) are zero.  Masked loads read nothing past block
 * nb - 1, and no address past it is formed. */
IFMA_INLINE struct ifma_h ifma_load_part(const uint8_t *in, size_t nb, __m512i hb)
{
    __m512i x = _mm512_setzero_si512(), y = x;
    if (nb >= 4)
        x = _mm512_loadu_si512((const void *)in);
    else if (nb > 0)
        x = _mm512_maskz_loadu_epi64((__mmask8)((1u << (2 * nb)) - 1), in);
    if (nb > 4)
        y = _mm512_maskz_loadu_epi64((__mmask8)((1u << (2 * (nb - 4))) - 1), in + 64);
    return ifma_split(x, y, _mm512_maskz_mov_epi64((__mmask8)((1u << nb) - 1), hb));
}

IFMA_INLINE void ifma_storepow(uint64_t pw[3][8], const struct ifma_pow *p)
{
    _mm512_storeu_si512((void *)pw[0], p->r0);
    _mm512_storeu_si512((void *)pw[1], p->r1);
    _mm512_storeu_si512((void *)pw[2], p->r2);
}

/* Lane j of the result takes lane j - sh of x (0 <= sh <= 7); lanes below
 * sh are zero.  sh comes from the caller's block count. */
IFMA_INLINE struct ifma_h ifma_up(struct ifma_h x, unsigned sh)
{
    const __m512i i = _mm512_sub_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0),
                                       _mm512_set1_epi64((long long)sh));
    const __mmask8 m = (__mmask8)(0xffu << sh);
    struct ifma_h o = {
        _mm512_maskz_permutexvar_epi64(m, i, x.h0),
        _mm512_maskz_permutexvar_epi64(m, i, x.h1),
        _mm512_maskz_permutexvar_epi64(m, i, x.h2),
    };
    return o;
}

/*
 * The k (1..15) blocks at in, plus x (h, or 0) added to the first block,
 * in the top k lanes of A || B: block i (1-based) in the lane whose power
 * is r^(k + 1 - i), so that they line up with lanes multiplied by r^k.
 * For k <= 8 they fill lanes 8 - k..7 of B; for k > 8 the first k - 8 fill
 * lanes 16 - k..7 of A and the last 8 all of B.  Carried like ifma_load8.
 */
IFMA_INLINE void ifma_load_top(const uint8_t *in, size_t k, struct ifma_h x,
                               __m512i hb, struct ifma_h *a, struct ifma_h *b)
{
    if (k > 8) {
        *a = ifma_up(ifma_add(x, ifma_load_part(in, k - 8, hb)), 16 - (unsigned)k);
        *b = ifma_load8(in + 16 * (k - 8), hb);
    } else {
        const __m512i z = _mm512_setzero_si512();
        const struct ifma_h zero = {z, z, z};
        *a = zero;
        *b = ifma_up(ifma_add(x, ifma_load_part(in, k, hb)), 8 - (unsigned)k);
    }
}

/* Lane j of the result takes element i[j] mod 16 of the 16 elements
 * a || b, where element q holds r^(16 - q). */
IFMA_INLINE struct ifma_pow ifma_permpow(const struct ifma_pow *a,
                                         const struct ifma_pow *b, __m512i i)
{
    struct ifma_pow p = {
        _mm512_permutex2var_epi64(a->r0, i, b->r0),
        _mm512_permutex2var_epi64(a->r1, i, b->r1),
        _mm512_permutex2var_epi64(a->r2, i, b->r2),
        _mm512_permutex2var_epi64(a->s1, i, b->s1),
        _mm512_permutex2var_epi64(a->s2, i, b->s2),
    };
    return p;
}

/* Lane j takes element (j + sh) mod 16.  sh comes from the caller's
 * block count, never from the state. */
IFMA_INLINE struct ifma_pow ifma_shiftpow(const struct ifma_pow *a,
                                          const struct ifma_pow *b, unsigned sh)
{
    return ifma_permpow(a, b, _mm512_add_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0),
                                               _mm512_set1_epi64((long long)sh)));
}

/* r^e in every lane, 1 <= e <= 16 (element 16 - e of a || b). */
IFMA_INLINE struct ifma_pow ifma_bcast(const struct ifma_pow *a,
                                       const struct ifma_pow *b, unsigned e)
{
    return ifma_permpow(a, b, _mm512_set1_epi64((long long)(16 - e)));
}

/* r^32 from r^16 (the limbs below 2^44, 2^44 + 2^5, 2^42 that
 * ifma_mulpow leaves, so the bounds of a power hold): the factor of
 * ifma_groups' two-group step. */
IFMA_INLINE struct ifma_pow ifma_pow32(const struct ifma_pow *p16)
{
    const struct ifma_h x = { p16->r0, p16->r1, p16->r2 };
    const struct ifma_h y = ifma_mulpow(x, x);
    return ifma_mkpow(y.h0, y.h1, y.h2);
}

/*
 * x y + a for y = row[i], a power's limb or factor broadcast from its row
 * (r0, r1, r2, s1, s2) as the instruction's memory operand.  The two-group
 * step needs r^16 and r^32 and the sets' values at once, more than the 32
 * registers hold: with both powers in registers, GCC spilled them to the
 * stack (and left them there, test_stack).  r^16 stays in registers (the
 * single-group step has it there anyway) and r^32 is read from its row in
 * the state, a load each, for which Zen 5's and Intel's load ports have
 * room; with both read from rows, GCC added register copies around the
 * memory-operand IFMAs and the loop was slower (docs/log.md, "r^16 and
 * r^32 in the IFMA loops").
 * asm, not an intrinsic of a broadcast, which GCC would hoist out of the
 * loop into a register again; sanitizer builds, which must see every
 * read, take the intrinsics.
 */
#if defined(POLYMAC_SANITIZED)
#define IFMA_MADD_ROW(op, a, x, row, i)                                          \
    ((a) = _mm512_madd52##op##_epu64((a), (x), _mm512_set1_epi64((long long)(row)[i])))
#else
#define IFMA_ASM_lo "vpmadd52luq"
#define IFMA_ASM_hi "vpmadd52huq"
/* one base register for the whole row: an "m" operand per word made GCC
 * hold an address register per word */
#define IFMA_MADD_ROW(op, a, x, row, i)                                          \
    __asm__(IFMA_ASM_##op " %c3(%2)%{1to8%}, %1, %0"                             \
            : "+v"(a)                                                            \
            : "v"(x), "r"(row), "i"(8 * (i)), "m"(*(const uint64_t(*)[5])(row)))
#endif

/* x row[i] into a column: its low and high halves */
#define IFMA_COL_ROW(acc, col, x, row, i)                                        \
    do {                                                                         \
        IFMA_MADD_ROW(lo, (acc).l##col, (x), (row), (i));                         \
        IFMA_MADD_ROW(hi, (acc).g##col, (x), (row), (i));                         \
    } while (0)

enum { IFMA_R0, IFMA_R1, IFMA_R2, IFMA_S1, IFMA_S2 };

/* ifma_prod with the power read from its row: the same products in the
 * same order. */
IFMA_INLINE struct ifma_acc ifma_prod_row(struct ifma_acc a, struct ifma_h h,
                                          const uint64_t row[5])
{
    IFMA_COL_ROW(a, 0, h.h1, row, IFMA_S2);
    IFMA_COL_ROW(a, 1, h.h1, row, IFMA_R0);
    IFMA_COL_ROW(a, 2, h.h1, row, IFMA_R1);
    IFMA_COL_ROW(a, 0, h.h0, row, IFMA_R0);
    IFMA_COL_ROW(a, 1, h.h0, row, IFMA_R1);
    IFMA_COL_ROW(a, 2, h.h0, row, IFMA_R2);
    IFMA_COL_ROW(a, 0, h.h2, row, IFMA_S1);
    IFMA_COL_ROW(a, 1, h.h2, row, IFMA_S2);
    IFMA_COL_ROW(a, 2, h.h2, row, IFMA_R0);
    return a;
}

/*
 * V = V r^32 + M1 r^16 + M2 for one set, M1 and M2 its blocks of two
 * groups: M2 starts the accumulators, M1 r^16 (which does not wait for V;
 * r^16 in registers) and V r^32 (from its row) go into the same six sums,
 * and one carry serves 16 blocks.
 * Against two steps of ifma_mulred that is one carry and one message
 * split fewer, and a chain from V to V (one product and one carry) per two
 * groups instead of per group.  Bounds: test/unit/bounds.c's "two groups"
 * (g2 < 2^38.2, 5 * 2^10 g2 < 2^50.5, h0 + 5 c < 2^44 + 2^15).
 */
IFMA_INLINE struct ifma_h ifma_mulred2(struct ifma_h v, const uint64_t p32[5],
                                       struct ifma_h m1, const struct ifma_pow *p16,
                                       struct ifma_h m2)
{
    return ifma_carry(ifma_prod_row(ifma_prod(ifma_acc_start(m2), m1, *p16), v, p32));
}

/*
 * The blocks that end a one-shot message but lie elsewhere: its padded
 * last block, or the AEAD's padded block and lengths (n = 1 or 2, hibit
 * theirs).  They end the last group of the vector part, spliced in
 * registers (ifma_load8_acc_tail): after the lanes' sum, in the scalar
 * code, they cost a block each on the chain to the tag (docs/log.md).
 */
struct ifma_tail {
    const uint8_t *p;
    unsigned n;
    uint32_t hibit;
};

/* Set B's blocks of the group at in (in + 128 onwards), which tl's blocks
 * end when tl is not NULL (the message's last group). */
IFMA_INLINE struct ifma_h ifma_load8_acc_b(const uint8_t *in, const struct ifma_tail *tl,
                                           __m512i hb)
{
    if (tl)
        return ifma_load8_acc_tail(in + 128, tl->p, tl->n, hb, ifma_hibit(tl->hibit));
    return ifma_load8_acc(in + 128, hb);
}

IFMA_INLINE void ifma_group(struct ifma_h *a, struct ifma_h *b, const struct ifma_pow *p16,
                            const uint8_t *in, __m512i hb, const struct ifma_tail *tl)
{
    *a = ifma_mulred(*a, *p16, ifma_load8_acc(in, hb));
    *b = ifma_mulred(*b, *p16, ifma_load8_acc_b(in, tl, hb));
}

IFMA_INLINE void ifma_pair(struct ifma_h *a, struct ifma_h *b, const struct ifma_pow *p16,
                           const uint64_t *row32, const uint8_t *in, __m512i hb,
                           const struct ifma_tail *tl)
{
    *a = ifma_mulred2(*a, row32, ifma_load8(in, hb), p16, ifma_load8_acc(in + 256, hb));
    *b = ifma_mulred2(*b, row32, ifma_load8(in + 128, hb), p16,
                      ifma_load8_acc_b(in + 256, tl, hb));
}

/*
 * V = V r^16 + M for each of groups groups of 16 blocks at in (set A the
 * first 8 blocks of a group, set B the last 8): the main loop.  p16 is
 * r^16 in every lane; with row32 (r^32's row), two groups a step
 * (ifma_mulred2), an odd group first, while r^32 is made.  tl (or NULL)
 * ends the last group; the step that takes it is the loop's last, peeled.
 */
IFMA_INLINE void ifma_groups(struct ifma_h *a, struct ifma_h *b, const struct ifma_pow *p16,
                             const uint64_t *row32,
                             const uint8_t *in, size_t groups, __m512i hb,
                             const struct ifma_tail *tl)
{
    const size_t peel = tl != NULL && groups > 0;
    if (!row32) {
        for (size_t g = peel; g < groups; g++, in += 256)
            ifma_group(a, b, p16, in, hb, NULL);
        if (peel)
            ifma_group(a, b, p16, in, hb, tl);
        return;
    }
    if (groups % 2) {
        ifma_group(a, b, p16, in, hb, groups == 1 ? tl : NULL);
        in += 256;
    }
    const size_t pairs = groups / 2, last = peel && pairs > 0;
    for (size_t g = last; g < pairs; g++, in += 512)
        ifma_pair(a, b, p16, row32, in, hb, NULL);
    if (last)
        ifma_pair(a, b, p16, row32, in, hb, tl);
}

#endif
