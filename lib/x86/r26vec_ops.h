/* r26vec_ops.h -- the radix-2^26 arithmetic on five limb vectors, written
 *                 once for 256- and 512-bit vectors: r26vec.h includes it
 *                 once per width */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */

/*
 * No include guard: r26vec.h defines, before each inclusion,
 *   POLYMAC_R26V          the type, struct r26v4 or struct r26v8
 *   POLYMAC_R26V_VEC      its vector, __m256i or __m512i
 *   POLYMAC_R26V_FN(op)   the functions' names, polymac_r26v4_op or
 *                         polymac_r26v8_op
 *   POLYMAC_R26V_WORDS    1 where two's h k2 goes by k2's words
 *                         (muladd_words), 0 where by h's limbs
 * and the operations polymac_v_* (r26vec.h) pick the intrinsic of the
 * width from their operand's type.  Every function is inlined: a struct
 * of vectors passed to a call would go through memory.
 *
 * Bounds, for all-0xff keys and messages in every lane.
 *
 * Entering a multiplication each lane's limbs are h + m: h limbs below
 * 2^26 + 2^9 after a vector carry chain (2^26 + 2^12 from
 * polymac_r26vec_carry_out, 2^26.33 for the top limb after the radix
 * conversion), message limbs below 2^26 (the top one below 2^25 with
 * hibit), so below 2^27.1 < 2^32 as vpmuludq needs.  Power limbs come
 * out of the same carry chain, below 2^26 + 2^10, their fives below
 * 2^28.33, so each column sums five products below 2^27.1 2^28.33:
 * d < 2^57.8, and eight lanes summed stay below 2^61.  (Computing the
 * powers multiplies two such powers: below 2^26.01 times 2^28.33, five
 * times, d < 2^57.7.)
 */

#define POLYMAC_R26V_INLINE static inline __attribute__((always_inline))
#define POLYMAC_R26V_LANES ((unsigned)(sizeof(POLYMAC_R26V_VEC) / 8))

/*
 * The carry chain after a multiplication: two interleaved chains
 * (d3 -> d4 -> d0 -> d1 and d0 -> d1 -> d2 -> d3 -> d4) in the order of
 * OpenSSL's and Linux's vector code:
 *   d3 -> d4, d0 -> d1        carries < 2^32
 *   d4 -> d0 (times 5), d1 -> d2   d0 < 2^26 + 5 2^32 < 2^35
 *   d0 -> d1, d2 -> d3        d1 < 2^26 + 2^9, d3 < 2^26 + 2^32
 *   d3 -> d4                  d4 < 2^26 + 2^7
 * so every limb ends below 2^26 + 2^9, and the next h + m below 2^27.1.
 * (With d < 2^59 the same steps give carries below 2^33 and limbs below
 * 2^26 + 2^10.)
 */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(carry)(POLYMAC_R26V d)
{
    const POLYMAC_R26V_VEC mask = polymac_v_set1(d.l0, POLYMAC_R26VEC_MASK);
    POLYMAC_R26V_VEC c;
    c = polymac_v_srli(d.l3, 26); d.l3 = polymac_v_and(d.l3, mask); d.l4 = polymac_v_add(d.l4, c);
    c = polymac_v_srli(d.l0, 26); d.l0 = polymac_v_and(d.l0, mask); d.l1 = polymac_v_add(d.l1, c);
    c = polymac_v_srli(d.l4, 26); d.l4 = polymac_v_and(d.l4, mask);
    d.l0 = polymac_v_add(d.l0, polymac_v_add(c, polymac_v_slli(c, 2)));
    c = polymac_v_srli(d.l1, 26); d.l1 = polymac_v_and(d.l1, mask); d.l2 = polymac_v_add(d.l2, c);
    c = polymac_v_srli(d.l0, 26); d.l0 = polymac_v_and(d.l0, mask); d.l1 = polymac_v_add(d.l1, c);
    c = polymac_v_srli(d.l2, 26); d.l2 = polymac_v_and(d.l2, mask); d.l3 = polymac_v_add(d.l3, c);
    c = polymac_v_srli(d.l3, 26); d.l3 = polymac_v_and(d.l3, mask); d.l4 = polymac_v_add(d.l4, c);
    return d;
}

/* 5 x, the fives of a multiplier's limbs: products at 2^130 and above
 * fold back times 5. */
POLYMAC_R26V_INLINE POLYMAC_R26V_VEC POLYMAC_R26V_FN(five)(POLYMAC_R26V_VEC x)
{
    return polymac_v_add(x, polymac_v_slli(x, 2));
}

POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(add)(POLYMAC_R26V a, POLYMAC_R26V b)
{
    POLYMAC_R26V s = {polymac_v_add(a.l0, b.l0), polymac_v_add(a.l1, b.l1),
                      polymac_v_add(a.l2, b.l2), polymac_v_add(a.l3, b.l3),
                      polymac_v_add(a.l4, b.l4)};
    return s;
}

/* The fives of a multiplier r: s.l1..s.l4 = 5 r.l1..5 r.l4 (s.l0 unused). */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(fives)(POLYMAC_R26V r)
{
    POLYMAC_R26V s = {r.l0, POLYMAC_R26V_FN(five)(r.l1), POLYMAC_R26V_FN(five)(r.l2),
                      POLYMAC_R26V_FN(five)(r.l3), POLYMAC_R26V_FN(five)(r.l4)};
    return s;
}

/* h r in each lane, before carrying, for r with its fives s (s.l0
 * unused) in registers: a tree of the products, for the loops that have
 * the registers for it. */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(mul)(POLYMAC_R26V h, POLYMAC_R26V r,
                                                      POLYMAC_R26V s)
{
#define POLYMAC_R26V_DOT(a0, a1, a2, a3, a4)                                       \
    polymac_v_add(polymac_v_add(polymac_v_mul(h.l0, a0), polymac_v_mul(h.l1, a1)),  \
                  polymac_v_add(polymac_v_add(polymac_v_mul(h.l2, a2),             \
                                              polymac_v_mul(h.l3, a3)),            \
                                polymac_v_mul(h.l4, a4)))
    POLYMAC_R26V d = {POLYMAC_R26V_DOT(r.l0, s.l4, s.l3, s.l2, s.l1),
                      POLYMAC_R26V_DOT(r.l1, r.l0, s.l4, s.l3, s.l2),
                      POLYMAC_R26V_DOT(r.l2, r.l1, r.l0, s.l4, s.l3),
                      POLYMAC_R26V_DOT(r.l3, r.l2, r.l1, r.l0, s.l4),
                      POLYMAC_R26V_DOT(r.l4, r.l3, r.l2, r.l1, r.l0)};
#undef POLYMAC_R26V_DOT
    return d;
}

/* Limb j of the group of blocks whose 64-bit halves are lo and hi (one
 * block per lane), hib (2^24, or 0 for the padded last block) in the top
 * limb. */
POLYMAC_R26V_INLINE POLYMAC_R26V_VEC POLYMAC_R26V_FN(limb)(POLYMAC_R26V_VEC lo,
                                                           POLYMAC_R26V_VEC hi,
                                                           POLYMAC_R26V_VEC hib, unsigned j)
{
    const POLYMAC_R26V_VEC mask = polymac_v_set1(lo, POLYMAC_R26VEC_MASK);
    switch (j) {
    case 0: return polymac_v_and(lo, mask);
    case 1: return polymac_v_and(polymac_v_srli(lo, 26), mask);
    case 2: return polymac_v_and(polymac_v_or(polymac_v_srli(lo, 52), polymac_v_slli(hi, 12)),
                                 mask);
    case 3: return polymac_v_and(polymac_v_srli(hi, 14), mask);
    default: return polymac_v_or(polymac_v_srli(hi, 40), hib);
    }
}

/* One group of blocks, one per lane, as five limbs, from two loads a and
 * b: their 64-bit halves unpacked, which leaves the lanes in the order 0,
 * N/2, 1, N/2 + 1, ... that the tables follow. */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(split)(POLYMAC_R26V_VEC a, POLYMAC_R26V_VEC b,
                                                        POLYMAC_R26V_VEC hib)
{
    const POLYMAC_R26V_VEC lo = polymac_v_unpacklo(a, b), hi = polymac_v_unpackhi(a, b);
    POLYMAC_R26V m = {POLYMAC_R26V_FN(limb)(lo, hi, hib, 0), POLYMAC_R26V_FN(limb)(lo, hi, hib, 1),
                      POLYMAC_R26V_FN(limb)(lo, hi, hib, 2), POLYMAC_R26V_FN(limb)(lo, hi, hib, 3),
                      POLYMAC_R26V_FN(limb)(lo, hi, hib, 4)};
    return m;
}

POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(group)(const uint8_t *in, POLYMAC_R26V_VEC hib)
{
    return POLYMAC_R26V_FN(split)(polymac_v_loadu(hib, in), polymac_v_loadu(hib, in + sizeof hib),
                                  hib);
}

POLYMAC_R26V_INLINE POLYMAC_R26V_VEC POLYMAC_R26V_FN(get)(POLYMAC_R26V x, unsigned j)
{
    switch (j) {
    case 0: return x.l0;
    case 1: return x.l1;
    case 2: return x.l2;
    case 3: return x.l3;
    default: return x.l4;
    }
}

/*
 * h k in each lane, before carrying, for a multiplier k in memory: k[0..8]
 * its limbs r0..r4 and fives s1..s4, k[i * stride] one 64-bit word each,
 * broadcast to every lane as the product reads it; or, with rows, each
 * lane's own multiplier, row i of a table (k + i * lanes: limb or five i
 * of every lane), loaded as a vector (the batch's lanes, one key each).  The products of one h
 * limb at a time go into five running sums (h2's first: the carry chain
 * settles it first), so that only the sums, h and one product are live:
 * the tree of mul needs every product at once, more registers than AVX2
 * has.
 *
 * round: the products of limb j, x, into the sums: sum t takes k[t - j],
 * or the five k[t - j + 9] where t - j wraps.  Two hints to GCC 12, each
 * checked by building without it:
 * - k is read through an address the compiler cannot see through, so
 *   that each broadcast is a load at its product (under AVX-512VL an
 *   embedded broadcast operand): hoisted, the broadcast powers spill
 *   (x86-avx2's vector frame grows from 448 to 672 bytes, key-derived
 *   words the kernel must then zero);
 * - the empty asm over the sums keeps GCC from re-associating them into
 *   the tree, which spills (frames of 1.2 KiB).
 */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(round)(POLYMAC_R26V d, POLYMAC_R26V_VEC x,
                                                        unsigned j, const uint64_t *k,
                                                        size_t stride, int rows)
{
#define POLYMAC_R26V_K(t) ((t) >= j ? (t) - j : (t) + 9 - j)
#define POLYMAC_R26V_TERM(t)                                                        \
    polymac_v_mul(x, rows ? polymac_v_loadu(x, k + POLYMAC_R26V_K(t) * POLYMAC_R26V_LANES) \
                          : polymac_v_set1(x, k[POLYMAC_R26V_K(t) * stride]))
    __asm__ __volatile__("" : "+r"(k));
    d.l3 = polymac_v_add(d.l3, POLYMAC_R26V_TERM(3));
    d.l4 = polymac_v_add(d.l4, POLYMAC_R26V_TERM(4));
    d.l0 = polymac_v_add(d.l0, POLYMAC_R26V_TERM(0));
    d.l1 = polymac_v_add(d.l1, POLYMAC_R26V_TERM(1));
    d.l2 = polymac_v_add(d.l2, POLYMAC_R26V_TERM(2));
#undef POLYMAC_R26V_TERM
#undef POLYMAC_R26V_K
    polymac_v_keep(d);
    return d;
}

/* d.l[t] += v */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(acc)(POLYMAC_R26V d, unsigned t,
                                                      POLYMAC_R26V_VEC v)
{
    switch (t) {
    case 0: d.l0 = polymac_v_add(d.l0, v); break;
    case 1: d.l1 = polymac_v_add(d.l1, v); break;
    case 2: d.l2 = polymac_v_add(d.l2, v); break;
    case 3: d.l3 = polymac_v_add(d.l3, v); break;
    default: d.l4 = polymac_v_add(d.l4, v); break;
    }
    return d;
}

/*
 * d + x k for a multiplier k in memory (k[0..8] its limbs and fives,
 * stride apart), by the multiplier's words: each word broadcast once and
 * multiplied into every sum that takes it (r0 five sums, r1 and s4 four,
 * ..., nine broadcasts for 25 products, where round's order by x's limbs
 * broadcasts at each product).  All five limbs of x, the sums, the word
 * and a product are live, twelve registers; k is opaque to the compiler
 * at each word, as in round, so that no broadcast is hoisted out of a
 * loop (and spilled).
 */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(muladd_words)(POLYMAC_R26V d, POLYMAC_R26V x,
                                                               const uint64_t *k, size_t stride)
{
#pragma GCC unroll 9
    for (unsigned w = 0; w < 9; w++) {
        __asm__ __volatile__("" : "+r"(k));
        const POLYMAC_R26V_VEC b = polymac_v_set1(x.l0, k[w * stride]);
#pragma GCC unroll 5
        for (unsigned j = 0; j < 5; j++)
            if (w < 5 ? j + w < 5 : j + w >= 9)
                d = POLYMAC_R26V_FN(acc)(d, w < 5 ? j + w : j + w - 9,
                                         polymac_v_mul(POLYMAC_R26V_FN(get)(x, j), b));
        /* the word's products summed before the next word's: left free,
         * GCC computes every product first and spills them */
        polymac_v_keep(d);
    }
    return d;
}

/* The order of the rounds (unrolled: the loops below keep j constant). */
static const unsigned POLYMAC_R26V_FN(order)[5] = {2, 0, 1, 3, 4};

/* d + h k (d zero: h k). */
POLYMAC_R26V_INLINE POLYMAC_R26V
POLYMAC_R26V_FN(muladd)(POLYMAC_R26V d, POLYMAC_R26V h, const uint64_t *k, size_t stride)
{
#pragma GCC unroll 5
    for (unsigned i = 0; i < 5; i++) {
        const unsigned j = POLYMAC_R26V_FN(order)[i];
        d = POLYMAC_R26V_FN(round)(d, POLYMAC_R26V_FN(get)(h, j), j, k, stride, 0);
    }
    return d;
}

POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(zero)(void)
{
    const POLYMAC_R26V_VEC z = {0};
    const POLYMAC_R26V d = {z, z, z, z, z};
    return d;
}

POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(mulmem)(POLYMAC_R26V h, const uint64_t *k,
                                                         size_t stride)
{
    return POLYMAC_R26V_FN(muladd)(POLYMAC_R26V_FN(zero)(), h, k, stride);
}

/* d + h k with each lane's own multiplier, the nine rows of table
 * (round's rows). */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(mulrows)(POLYMAC_R26V d, POLYMAC_R26V h,
                                                          const uint64_t *table)
{
#pragma GCC unroll 5
    for (unsigned i = 0; i < 5; i++) {
        const unsigned j = POLYMAC_R26V_FN(order)[i];
        d = POLYMAC_R26V_FN(round)(d, POLYMAC_R26V_FN(get)(h, j), j, table, 0, 1);
    }
    return d;
}

/* d + m k, m the group of blocks at in, each of its limbs split where its
 * round reads it: the two halves stay live rather than five limbs beside
 * h and the sums (AVX2 has 16 registers). */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(mk)(POLYMAC_R26V d, const uint8_t *in,
                                                     POLYMAC_R26V_VEC hib, const uint64_t *k)
{
    const POLYMAC_R26V_VEC a = polymac_v_loadu(hib, in), b = polymac_v_loadu(hib, in + sizeof a);
    const POLYMAC_R26V_VEC lo = polymac_v_unpacklo(a, b), hi = polymac_v_unpackhi(a, b);
#pragma GCC unroll 5
    for (unsigned i = 0; i < 5; i++) {
        const unsigned j = POLYMAC_R26V_FN(order)[i];
        d = POLYMAC_R26V_FN(round)(d, POLYMAC_R26V_FN(limb)(lo, hi, hib, j), j, k,
                                   POLYMAC_R26V_LANES, 0);
    }
    return d;
}

/*
 * Two groups per carry chain: h = (h k + m) k + m' computed as m k + h k2
 * + m' (k2 = k^2, nine words), both products summed into the same five
 * sums and one carry chain for the two.  Bounds: m k below 2^56.7 (m's
 * limbs below 2^26) and h k2 below 2^57.8, the sum below 2^59: the chain
 * leaves limbs below 2^26 + 2^10, and h + m' stays below 2^27.1.
 *
 * 256-bit vectors (POLYMAC_R26V_WORDS, r26vec.h): h k2 first, by k2's
 * words (nine broadcasts), then m k, 2-3% faster from 4 KiB on AMD Zen 3
 * than m k first and h k2 by h's limbs (measured: docs/log.md, the AVX2
 * loop's products by words); 512-bit: m k first, which does not wait for
 * h, and h k2 by h's limbs (its broadcasts are operands of the
 * multiplies), not measured otherwise.
 */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(two_product)(POLYMAC_R26V h,
                                                              const uint8_t *in,
                                                              POLYMAC_R26V_VEC hib,
                                                              const uint64_t *k,
                                                              const uint64_t *k2)
{
#if POLYMAC_R26V_WORDS
    POLYMAC_R26V d = POLYMAC_R26V_FN(muladd_words)(POLYMAC_R26V_FN(zero)(), h, k2, 1);
    return POLYMAC_R26V_FN(carry)(POLYMAC_R26V_FN(mk)(d, in, hib, k));
#else
    const POLYMAC_R26V d = POLYMAC_R26V_FN(mk)(POLYMAC_R26V_FN(zero)(), in, hib, k);
    return POLYMAC_R26V_FN(carry)(POLYMAC_R26V_FN(muladd)(d, h, k2, 1));
#endif
}

/* The two-group step: two_product, (h k + m) k carried, then m' (the
 * group after m) added; x86-avx2's AEAD adds a gathered group instead. */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(two)(POLYMAC_R26V h, const uint8_t *in,
                                                      POLYMAC_R26V_VEC hib, const uint64_t *k,
                                                      const uint64_t *k2)
{
    h = POLYMAC_R26V_FN(two_product)(h, in, hib, k, k2);
    return POLYMAC_R26V_FN(add)(h, POLYMAC_R26V_FN(group)(in + 2 * sizeof hib, hib));
}

/* One group per step: h = h k + m, the product's limbs broadcast from k
 * (mulmem) or in registers (mul, with r and its fives s).  The next
 * group is loaded after the product, not before: loaded first, its limbs
 * stay live across the product and GCC spills. */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(step)(POLYMAC_R26V d, const uint8_t *in,
                                                       POLYMAC_R26V_VEC hib)
{
    d = POLYMAC_R26V_FN(carry)(d);
    return POLYMAC_R26V_FN(add)(d, POLYMAC_R26V_FN(group)(in, hib));
}

/* Five rows of n-lane table (row i: limb i of each lane). */
POLYMAC_R26V_INLINE POLYMAC_R26V POLYMAC_R26V_FN(load)(const uint64_t *rows)
{
#define POLYMAC_R26V_ROW(i) polymac_v_loadu((POLYMAC_R26V_VEC){0}, rows + (i) * POLYMAC_R26V_LANES)
    POLYMAC_R26V x = {POLYMAC_R26V_ROW(0), POLYMAC_R26V_ROW(1), POLYMAC_R26V_ROW(2),
                      POLYMAC_R26V_ROW(3), POLYMAC_R26V_ROW(4)};
#undef POLYMAC_R26V_ROW
    return x;
}

POLYMAC_R26V_INLINE void POLYMAC_R26V_FN(store)(uint64_t *rows, POLYMAC_R26V x)
{
    const unsigned n = POLYMAC_R26V_LANES;
    polymac_v_storeu(rows, x.l0);
    polymac_v_storeu(rows + n, x.l1);
    polymac_v_storeu(rows + 2 * n, x.l2);
    polymac_v_storeu(rows + 3 * n, x.l3);
    polymac_v_storeu(rows + 4 * n, x.l4);
}

/* A table of powers (r26vec.h): the limbs p, then their fives. */
POLYMAC_R26V_INLINE void POLYMAC_R26V_FN(store_power)(uint64_t *table, POLYMAC_R26V p)
{
    const unsigned n = POLYMAC_R26V_LANES;
    POLYMAC_R26V_FN(store)(table, p);
    polymac_v_storeu(table + 5 * n, POLYMAC_R26V_FN(five)(p.l1));
    polymac_v_storeu(table + 6 * n, POLYMAC_R26V_FN(five)(p.l2));
    polymac_v_storeu(table + 7 * n, POLYMAC_R26V_FN(five)(p.l3));
    polymac_v_storeu(table + 8 * n, POLYMAC_R26V_FN(five)(p.l4));
}

/* The last step of a message's lanes: h times each lane's own power from
 * the table, the lanes summed and carried into h26. */
POLYMAC_R26V_INLINE void POLYMAC_R26V_FN(last)(uint64_t h26[5], const uint64_t *table,
                                               POLYMAC_R26V h)
{
    /* rows 4..8: s.l1..s.l4 are the fives */
    const POLYMAC_R26V d = POLYMAC_R26V_FN(mul)(h, POLYMAC_R26V_FN(load)(table),
                                                POLYMAC_R26V_FN(load)(table + 4 * POLYMAC_R26V_LANES));
    const uint64_t t[5] = {polymac_v_hsum(d.l0), polymac_v_hsum(d.l1), polymac_v_hsum(d.l2),
                           polymac_v_hsum(d.l3), polymac_v_hsum(d.l4)};
    polymac_r26vec_carry_out(h26, t);
}

#undef POLYMAC_R26V_LANES
#undef POLYMAC_R26V_INLINE
