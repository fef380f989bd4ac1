/* r26vec.h -- what the x86 radix-2^26 vector kernels share: the lazy
 *             radix state, the once-per-key powers of r, the 4-lane core */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_R26VEC_H
#define POLYMAC_R26VEC_H

#include <immintrin.h>

#include "../simd/skeleton.h"

#define POLYMAC_R26VEC_MASK 0x3ffffffu

/*
 * The part of the state every radix-2^26 vector kernel has.
 *
 * Short messages run the scalar radix-2^64 code, long ones the vectors, and
 * h lives in whichever radix ran last (Linux's is_base2_26): converting costs
 * a dozen scalar operations, so it happens only when the other code runs.
 *
 * The state may be copied to another address between calls, so nothing in
 * it points anywhere; it may be garbage, so the flags are only ever
 * compared, never used as an index or a count.
 */
struct polymac_r26vec_head {
    struct polymac_r64 r64;   /* r always; h while base2_26 == 0 */
    uint64_t h26[5];          /* h while base2_26 != 0: five 26-bit limbs,
                                 each below 2^27 (carries pending) */
    uint32_t base2_26;        /* nonzero: h lives in h26 */
    uint32_t powers;          /* highest power of r in the tables: 0, 4, 8
                                 (any other value reads as 0) */
    uint32_t seen;            /* blocks the scalar code has taken in this
                                 message (polymac_seen_add, kernel.h) */
};


/*
 * The powers table of an N-lane kernel: row i < 5 is limb i of the power
 * each lane multiplies by in its last step, rows 5..8 are 5 times limbs
 * 1..4 (limb products at 2^130 and above fold back times 5), one 64-bit
 * lane per vector lane so that the cores load rows as they are.
 *
 * The lanes are in the order the loads leave the blocks in (see
 * polymac_r26vec_core4), which is why the powers are not monotone.
 * Lane 0 always holds the first block of a group and so the highest power,
 * which is also the one every lane multiplies by in the loop.
 *
 * The powers are computed with the same vector multiplication as the
 * messages, several at once: two dependent steps give r^4, r^2, r^3, r
 * (a chain of three scalar multiplications took longer than hashing four
 * blocks), and one more step the eight-lane powers.  The results come out
 * already transposed into rows.
 */

/* 256-bit spellings for the macros below */
#define polymac_y_i      __m256i
#define polymac_y_add    _mm256_add_epi64
#define polymac_y_and    _mm256_and_si256
#define polymac_y_or     _mm256_or_si256
#define polymac_y_srli   _mm256_srli_epi64
#define polymac_y_slli   _mm256_slli_epi64
#define polymac_y_mul    _mm256_mul_epu32
#define polymac_y_set1   _mm256_set1_epi64x
#define polymac_y_loadu(p) _mm256_loadu_si256((const __m256i *)(p))
#define polymac_y_hsum   polymac_r26vec_hsum4

/* polymac_wipe for the vector kernels' states: GCC 12 turns memset of
 * these sizes, and even a loop of zero vector stores, into rep stos, whose
 * start-up cost exceeds hashing a short message.  Hiding the zero from the
 * optimiser keeps the plain stores.  n is a multiple of 8. */
static inline void polymac_r26vec_wipe(void *p, size_t n)
{
    uint8_t *b = p;
    size_t i = 0;
    __m256i z = _mm256_setzero_si256();
    __asm__("" : "+x"(z));
    for (; i + 32 <= n; i += 32)
        _mm256_storeu_si256((__m256i *)(b + i), z);
    for (; i + 8 <= n; i += 8)
        _mm_storel_epi64((__m128i *)(b + i), _mm256_castsi256_si128(z));
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* h from radix 2^64 (partially reduced, h2 <= 4) to five 26-bit limbs;
 * the top limb may reach 2^26.33, well inside what the cores accept. */
static inline void polymac_r26vec_to26(struct polymac_r26vec_head *hd)
{
    if (!hd->base2_26) {
        polymac_r64_to_r26(&hd->r64, hd->h26);
        hd->base2_26 = 1;
    }
}

/* h back to radix 2^64 before scalar code or emit runs. */
static inline void polymac_r26vec_to64(struct polymac_r26vec_head *hd)
{
    if (hd->base2_26) {
        polymac_r64_from_r26(&hd->r64, hd->h26);
        hd->base2_26 = 0;
    }
}

static inline void polymac_r26vec_init(struct polymac_r26vec_head *hd, const uint8_t r[16])
{
    polymac_r64_init(&hd->r64, r);
    hd->base2_26 = 0;
    hd->powers = 0;
    hd->seen = 0;
}

/* The scalar path of a call: h to radix 2^64, the blocks, counted. */
static inline void polymac_r26vec_scalar(struct polymac_r26vec_head *hd, const uint8_t *in,
                                         size_t nblocks, uint32_t hibit)
{
    polymac_r26vec_to64(hd);
    polymac_r64_blocks(&hd->r64, in, nblocks, hibit);
    hd->seen = polymac_seen_add(hd->seen, nblocks);
}

/*
 * The sums of the lanes' unreduced products (each below 2^60: see the
 * bounds in core4) carried into the state's limbs.  Sequential carries:
 * this runs once per call.  Limbs end below 2^26 except limb 1, below
 * 2^26 + 2^12.
 */
static inline void polymac_r26vec_carry_out(uint64_t h26[5], const uint64_t d[5])
{
    uint64_t c, t0, t1, t2, t3, t4;
    c = d[0] >> 26; t0 = d[0] & POLYMAC_R26VEC_MASK;
    t1 = d[1] + c; c = t1 >> 26; t1 &= POLYMAC_R26VEC_MASK;
    t2 = d[2] + c; c = t2 >> 26; t2 &= POLYMAC_R26VEC_MASK;
    t3 = d[3] + c; c = t3 >> 26; t3 &= POLYMAC_R26VEC_MASK;
    t4 = d[4] + c; c = t4 >> 26; t4 &= POLYMAC_R26VEC_MASK;
    t0 += c * 5;                   /* c < 2^35: t0 < 2^38, next c < 2^12 */
    c = t0 >> 26; t0 &= POLYMAC_R26VEC_MASK;
    t1 += c;
    h26[0] = t0; h26[1] = t1; h26[2] = t2; h26[3] = t3; h26[4] = t4;
}

/* The square of lane 0 of an n-lane table, limbs and fives: r^8 from a
 * 4-lane table (lane 0 of each row is r^4) for the two-group loop of
 * core4, r^16 from an 8-lane one for x86-avx512's.  Limbs below 2^26 + 2^12 as
 * carry_out leaves them, fives below 2^28.33, as the bounds below
 * assume of a power. */
static inline void polymac_r26vec_square(uint64_t r8[9], const uint64_t *table,
                                         unsigned n)
{
    uint64_t r[5], s[5], d[5];
    for (unsigned i = 0; i < 5; i++)
        r[i] = table[i * n];
    for (unsigned i = 1; i < 5; i++)
        s[i] = table[(4 + i) * n];
    d[0] = r[0] * r[0] + r[1] * s[4] + r[2] * s[3] + r[3] * s[2] + r[4] * s[1];
    d[1] = r[0] * r[1] + r[1] * r[0] + r[2] * s[4] + r[3] * s[3] + r[4] * s[2];
    d[2] = r[0] * r[2] + r[1] * r[1] + r[2] * r[0] + r[3] * s[4] + r[4] * s[3];
    d[3] = r[0] * r[3] + r[1] * r[2] + r[2] * r[1] + r[3] * r[0] + r[4] * s[4];
    d[4] = r[0] * r[4] + r[1] * r[3] + r[2] * r[2] + r[3] * r[1] + r[4] * r[0];
    polymac_r26vec_carry_out(r8, d);
    for (unsigned i = 1; i < 5; i++)
        r8[4 + i] = r8[i] * 5;
}

static inline void polymac_r26vec_r8(uint64_t r8[9], const uint64_t table[9 * 4])
{
    polymac_r26vec_square(r8, table, 4);
}

/*
 * Bounds, for all-0xff keys and messages in every lane.
 *
 * Entering a multiplication each lane's limbs are h + m: h limbs below
 * 2^26 + 2^9 after a vector carry chain (2^26 + 2^12 from carry_out,
 * 2^26.33 for the top limb after to26), message limbs below 2^26 (the top
 * one below 2^25 with hibit), so below 2^27.1 < 2^32 as vpmuludq needs.
 * Power limbs come out of the same carry chain, below 2^26 + 2^10, their
 * fives below 2^28.33, so each column sums five products below
 * 2^27.1 2^28.33: d < 2^57.8, and eight lanes summed stay below 2^61.
 * (Computing the powers multiplies two such powers: below 2^26.01 times
 * 2^28.33, five times, d < 2^57.7.)
 *
 * The carry chain after each multiplication runs two interleaved chains
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
#define POLYMAC_R26VEC_CARRY(W, d0, d1, d2, d3, d4, mask) do {             \
        W##i c_;                                                            \
        c_ = W##srli(d3, 26); d3 = W##and(d3, mask); d4 = W##add(d4, c_);  \
        c_ = W##srli(d0, 26); d0 = W##and(d0, mask); d1 = W##add(d1, c_);  \
        c_ = W##srli(d4, 26); d4 = W##and(d4, mask);                        \
        d0 = W##add(d0, W##add(c_, W##slli(c_, 2)));                        \
        c_ = W##srli(d1, 26); d1 = W##and(d1, mask); d2 = W##add(d2, c_);  \
        c_ = W##srli(d0, 26); d0 = W##and(d0, mask); d1 = W##add(d1, c_);  \
        c_ = W##srli(d2, 26); d2 = W##and(d2, mask); d3 = W##add(d3, c_);  \
        c_ = W##srli(d3, 26); d3 = W##and(d3, mask); d4 = W##add(d4, c_);  \
    } while (0)

/* d = h r in each lane, before carrying (r limbs r0..r4, fives s1..s4).
 * Named variables, not arrays: GCC 12 keeps arrays of vectors in memory. */
#define POLYMAC_R26VEC_MUL(W, d, h, r, s) do {                              \
        d##0 = W##add(W##add(W##mul(h##0, r##0), W##mul(h##1, s##4)),       \
                      W##add(W##add(W##mul(h##2, s##3), W##mul(h##3, s##2)),\
                             W##mul(h##4, s##1)));                          \
        d##1 = W##add(W##add(W##mul(h##0, r##1), W##mul(h##1, r##0)),       \
                      W##add(W##add(W##mul(h##2, s##4), W##mul(h##3, s##3)),\
                             W##mul(h##4, s##2)));                          \
        d##2 = W##add(W##add(W##mul(h##0, r##2), W##mul(h##1, r##1)),       \
                      W##add(W##add(W##mul(h##2, r##0), W##mul(h##3, s##4)),\
                             W##mul(h##4, s##3)));                          \
        d##3 = W##add(W##add(W##mul(h##0, r##3), W##mul(h##1, r##2)),       \
                      W##add(W##add(W##mul(h##2, r##1), W##mul(h##3, r##0)),\
                             W##mul(h##4, s##4)));                          \
        d##4 = W##add(W##add(W##mul(h##0, r##4), W##mul(h##1, r##3)),       \
                      W##add(W##add(W##mul(h##2, r##2), W##mul(h##3, r##1)),\
                             W##mul(h##4, r##0)));                          \
    } while (0)

/* d = h k per lane (MULACC) or d += h k (MULADD), k[0..8] the limbs
 * r0..r4 and fives s1..s4 of the multiplier, k[i * S] in memory, one
 * 64-bit word each, broadcast to every lane as the product reads it: the
 * products of one h limb at a time added into five running sums (h2's
 * first: the carry chain settles it first), so that only the sums, h and
 * one product are live.  The tree of POLYMAC_R26VEC_MUL needs every
 * product at once, more registers than AVX2 has.  The empty asm between
 * rounds keeps GCC from re-associating the sums back into that tree.
 * ROUND: the products of one limb x, into d_j with k[i_j].
 *
 * The multiplier is never stored broadcast (on the stack, 288 bytes a
 * power, which the kernel would then have to zero after every call): each
 * round reads its five words through an address the compiler cannot see
 * through, so that each broadcast is a load of its own at its product
 * (vpbroadcastq from memory is a load alone, and under AVX-512VL an
 * embedded broadcast operand of vpmuludq), never hoisted into registers
 * that AVX2 does not have, whence GCC would spill it. */
#define POLYMAC_R26VEC_KOP(W, k, S, i) W##set1((long long)(k)[(i) * (S)])
#if defined(POLYMAC_MSAN)
/* MemorySanitizer checks an asm's operands strictly (a false report on
 * these secret sums): its test build (test/msan) drops the barrier, which
 * has no instruction, so it computes the same */
#define POLYMAC_R26VEC_KEEP(d) ((void)0)
#else
#define POLYMAC_R26VEC_KEEP(d)                                              \
    __asm__("" : "+x"(d##0), "+x"(d##1), "+x"(d##2), "+x"(d##3), "+x"(d##4))
#endif
#define POLYMAC_R26VEC_ROUND(W, d, x, k, S, i0, i1, i2, i3, i4) do {        \
        const uint64_t *kr_ = (k);                                          \
        __asm__ __volatile__("" : "+r"(kr_));                               \
        d##3 = W##add(d##3, W##mul(x, POLYMAC_R26VEC_KOP(W, kr_, S, i3)));  \
        d##4 = W##add(d##4, W##mul(x, POLYMAC_R26VEC_KOP(W, kr_, S, i4)));  \
        d##0 = W##add(d##0, W##mul(x, POLYMAC_R26VEC_KOP(W, kr_, S, i0)));  \
        d##1 = W##add(d##1, W##mul(x, POLYMAC_R26VEC_KOP(W, kr_, S, i1)));  \
        d##2 = W##add(d##2, W##mul(x, POLYMAC_R26VEC_KOP(W, kr_, S, i2)));  \
        POLYMAC_R26VEC_KEEP(d);                                             \
    } while (0)
#define POLYMAC_R26VEC_MULACC_REST(W, d, h, k, S) do {                      \
        POLYMAC_R26VEC_ROUND(W, d, h##0, k, S, 0, 1, 2, 3, 4);              \
        POLYMAC_R26VEC_ROUND(W, d, h##1, k, S, 8, 0, 1, 2, 3);              \
        POLYMAC_R26VEC_ROUND(W, d, h##3, k, S, 6, 7, 8, 0, 1);              \
        POLYMAC_R26VEC_ROUND(W, d, h##4, k, S, 5, 6, 7, 8, 0);              \
    } while (0)
#define POLYMAC_R26VEC_MULACC(W, d, h, k, S) do {                           \
        const uint64_t *ka_ = (k);                                          \
        __asm__ __volatile__("" : "+r"(ka_));                               \
        d##3 = W##mul(h##2, POLYMAC_R26VEC_KOP(W, ka_, S, 1));              \
        d##4 = W##mul(h##2, POLYMAC_R26VEC_KOP(W, ka_, S, 2));              \
        d##0 = W##mul(h##2, POLYMAC_R26VEC_KOP(W, ka_, S, 7));              \
        d##1 = W##mul(h##2, POLYMAC_R26VEC_KOP(W, ka_, S, 8));              \
        d##2 = W##mul(h##2, POLYMAC_R26VEC_KOP(W, ka_, S, 0));              \
        POLYMAC_R26VEC_KEEP(d);                                             \
        POLYMAC_R26VEC_MULACC_REST(W, d, h, k, S);                          \
    } while (0)
#define POLYMAC_R26VEC_MULADD(W, d, h, k, S) do {                           \
        POLYMAC_R26VEC_ROUND(W, d, h##2, k, S, 7, 8, 0, 1, 2);              \
        POLYMAC_R26VEC_MULACC_REST(W, d, h, k, S);                          \
    } while (0)

/* Splits the blocks whose low and high halves are in lo and hi (one block
 * per 64-bit lane) into five 26-bit limbs, adding them to h. */
#define POLYMAC_R26VEC_ADD_MSG(W, h, lo, hi, mask, hib) do {                \
        h##0 = W##add(h##0, W##and(lo, mask));                              \
        h##1 = W##add(h##1, W##and(W##srli(lo, 26), mask));                 \
        h##2 = W##add(h##2, W##and(W##or(W##srli(lo, 52), W##slli(hi, 12)),\
                                   mask));                                  \
        h##3 = W##add(h##3, W##and(W##srli(hi, 14), mask));                 \
        h##4 = W##add(h##4, W##or(W##srli(hi, 40), hib));                   \
    } while (0)

/* Sum of the four 64-bit lanes. */
static inline uint64_t polymac_r26vec_hsum4(__m256i v)
{
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(v),
                              _mm256_extracti128_si256(v, 1));
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    return (uint64_t)_mm_cvtsi128_si64(t);
}

/* The last step of a message's lanes: h times each lane's own power (the
 * nine rows of table, n lanes wide: limbs, then fives), the lanes summed
 * and carried into h26. */
#define POLYMAC_R26VEC_LAST(W, table, n, h, h26) do {                       \
        const W##i lr0 = W##loadu((table) + 0 * (n));                       \
        const W##i lr1 = W##loadu((table) + 1 * (n));                       \
        const W##i lr2 = W##loadu((table) + 2 * (n));                       \
        const W##i lr3 = W##loadu((table) + 3 * (n));                       \
        const W##i lr4 = W##loadu((table) + 4 * (n));                       \
        const W##i ls1 = W##loadu((table) + 5 * (n));                       \
        const W##i ls2 = W##loadu((table) + 6 * (n));                       \
        const W##i ls3 = W##loadu((table) + 7 * (n));                       \
        const W##i ls4 = W##loadu((table) + 8 * (n));                       \
        W##i ld0, ld1, ld2, ld3, ld4;                                       \
        uint64_t lt_[5];                                                    \
        POLYMAC_R26VEC_MUL(W, ld, h, lr, ls);                               \
        lt_[0] = W##hsum(ld0);                                              \
        lt_[1] = W##hsum(ld1);                                              \
        lt_[2] = W##hsum(ld2);                                              \
        lt_[3] = W##hsum(ld3);                                              \
        lt_[4] = W##hsum(ld4);                                              \
        polymac_r26vec_carry_out(h26, lt_);                                 \
    } while (0)

/* Five limb vectors to table rows: the limbs and 5 times limbs 1..4. */
/* t1..t4 = 5 times limbs 1..4 of y: a multiplier's fives. */
#define POLYMAC_R26VEC_FIVES(W, t, y) do {                                  \
        t##1 = W##add(y##1, W##slli(y##1, 2));                              \
        t##2 = W##add(y##2, W##slli(y##2, 2));                              \
        t##3 = W##add(y##3, W##slli(y##3, 2));                              \
        t##4 = W##add(y##4, W##slli(y##4, 2));                              \
    } while (0)

#define POLYMAC_R26VEC_STORE_ROWS(W, store, table, n, p) do {                \
        store((table) + 0 * (n), p##0);                                     \
        store((table) + 1 * (n), p##1);                                     \
        store((table) + 2 * (n), p##2);                                     \
        store((table) + 3 * (n), p##3);                                     \
        store((table) + 4 * (n), p##4);                                     \
        store((table) + 5 * (n), W##add(p##1, W##slli(p##1, 2)));           \
        store((table) + 6 * (n), W##add(p##2, W##slli(p##2, 2)));           \
        store((table) + 7 * (n), W##add(p##3, W##slli(p##3, 2)));           \
        store((table) + 8 * (n), W##add(p##4, W##slli(p##4, 2)));           \
    } while (0)

static inline void polymac_r26vec_store4(uint64_t *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)p, v);
}

/* The 4-lane table, lanes r^4, r^2, r^3, r, from the key (r64 holds r):
 * [r, r, r, r] [r, r, r, 1] = [r^2, r^2, r^2, r], then times
 * [r^2, 1, r, 1] = [r^4, r^2, r^3, r]. */
static inline void polymac_r26vec_table4(uint64_t table[9 * 4],
                                         const struct polymac_r64 *key)
{
    const __m256i mask = _mm256_set1_epi64x(POLYMAC_R26VEC_MASK);
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i zero = _mm256_setzero_si256();
    __m256i x0, x1, x2, x3, x4, y0, y1, y2, y3, y4, t1, t2, t3, t4;
    __m256i d0, d1, d2, d3, d4, p0, p1, p2, p3, p4;
    struct polymac_r64 rr = {key->r0, key->r1, 0, key->r0, key->r1};
    uint64_t l[5];

    polymac_r64_to_r26(&rr, l);     /* r < 2^124: exact 26-bit limbs */
    x0 = _mm256_set1_epi64x((long long)l[0]);
    x1 = _mm256_set1_epi64x((long long)l[1]);
    x2 = _mm256_set1_epi64x((long long)l[2]);
    x3 = _mm256_set1_epi64x((long long)l[3]);
    x4 = _mm256_set1_epi64x((long long)l[4]);
    /* lane 3 becomes 1: limb 0 one, the others zero (blend of 64-bit lane
     * 3 is dwords 6 and 7) */
    y0 = _mm256_blend_epi32(x0, one, 0xc0);
    y1 = _mm256_blend_epi32(x1, zero, 0xc0);
    y2 = _mm256_blend_epi32(x2, zero, 0xc0);
    y3 = _mm256_blend_epi32(x3, zero, 0xc0);
    y4 = _mm256_blend_epi32(x4, zero, 0xc0);
    POLYMAC_R26VEC_FIVES(polymac_y_, t, y);
    POLYMAC_R26VEC_MUL(polymac_y_, d, x, y, t);
    POLYMAC_R26VEC_CARRY(polymac_y_, d0, d1, d2, d3, d4, mask);
    /* [r^2, 1, r, 1]: lane 0 from d, lane 2 from x, lanes 1 and 3 one */
    y0 = _mm256_blend_epi32(_mm256_blend_epi32(d0, x0, 0x30), one, 0xcc);
    y1 = _mm256_blend_epi32(_mm256_blend_epi32(d1, x1, 0x30), zero, 0xcc);
    y2 = _mm256_blend_epi32(_mm256_blend_epi32(d2, x2, 0x30), zero, 0xcc);
    y3 = _mm256_blend_epi32(_mm256_blend_epi32(d3, x3, 0x30), zero, 0xcc);
    y4 = _mm256_blend_epi32(_mm256_blend_epi32(d4, x4, 0x30), zero, 0xcc);
    POLYMAC_R26VEC_FIVES(polymac_y_, t, y);
    POLYMAC_R26VEC_MUL(polymac_y_, p, d, y, t);
    POLYMAC_R26VEC_CARRY(polymac_y_, p0, p1, p2, p3, p4, mask);
    POLYMAC_R26VEC_STORE_ROWS(polymac_y_, polymac_r26vec_store4, table, 4, p);
}

/* h26 = the four lanes h, each times its own power from the table, summed
 * and carried: the last step of a message's lanes. */
static inline void polymac_r26vec_merge4(uint64_t h26[5], const uint64_t table[9 * 4],
                                         __m256i h0, __m256i h1, __m256i h2, __m256i h3,
                                         __m256i h4)
{
    POLYMAC_R26VEC_LAST(polymac_y_, table, 4, h, h26);
}

/* The same for lanes kept in memory (lanes[limb * 4 + lane]). */
static inline void polymac_r26vec_merge4_mem(uint64_t h26[5], const uint64_t table[9 * 4],
                                             const uint64_t lanes[5 * 4])
{
    polymac_r26vec_merge4(h26, table, polymac_y_loadu(lanes + 0 * 4),
                          polymac_y_loadu(lanes + 1 * 4), polymac_y_loadu(lanes + 2 * 4),
                          polymac_y_loadu(lanes + 3 * 4), polymac_y_loadu(lanes + 4 * 4));
}

/*
 * Four lanes (Goll and Gueron): lane j absorbs blocks j, j+4, j+8, ... of
 * ngroups >= 1 groups of four; every step but the last multiplies all lanes
 * by r^4, the last multiplies each lane by the power that brings its blocks
 * to the right weight, and the lanes are summed.  h enters in lane 0 with
 * the first block.
 *
 * For a streamed message the lanes can stay unmerged between calls: with
 * lanes non-NULL the last step is left out and the lanes are stored there
 * (lanes[limb * 4 + lane], limbs below 2^27.1 as they enter a product);
 * with lanes_in they are where the call starts, h26 unused, and the first
 * group is a step of its own.  polymac_r26vec_merge4_mem ends them.  r8,
 * if not NULL, is r^8 (limbs and fives) for the two-group loop.
 *
 * Two 32-byte loads hold blocks (0, 1) and (2, 3); unpacking their 64-bit
 * halves leaves the lanes in the order 0, 2, 1, 3, which the table follows
 * (table4 above) instead of spending a cross-lane permute per group.
 */
/* Inlined into each caller's one call site: as a function of its own it
 * cost a streamed 1 KiB call about 14 TSC cycles of frame set-up. */
static inline __attribute__((always_inline)) void
polymac_r26vec_core4(uint64_t h26[5], const uint64_t table[9 * 4], const uint64_t *r8, uint64_t *lanes, int lanes_in, const uint8_t *in,
                     size_t ngroups, uint32_t hibit)
{
    const __m256i mask = _mm256_set1_epi64x(POLYMAC_R26VEC_MASK);
    const __m256i hib = _mm256_set1_epi64x(hibit ? (1 << 24) : 0);
    __m256i h0, h1, h2, h3, h4, d0, d1, d2, d3, d4;
    /* lane 0 of each row is r^4, the loop's multiplier: read from the
     * table, broadcast at each product (POLYMAC_R26VEC_MULACC) */
    const uint64_t *k4 = table;

#define POLYMAC_R26VEC_LOAD4(W, h, p) do {                                  \
        __m256i a_ = _mm256_loadu_si256((const __m256i *)(p));              \
        __m256i b_ = _mm256_loadu_si256((const __m256i *)((p) + 32));       \
        __m256i lo_ = _mm256_unpacklo_epi64(a_, b_);                        \
        __m256i hi_ = _mm256_unpackhi_epi64(a_, b_);                        \
        POLYMAC_R26VEC_ADD_MSG(W, h, lo_, hi_, mask, hib);                  \
    } while (0)

    if (lanes_in) {
        /* h is the lanes of earlier calls, still to be multiplied by r^4
         * before the first group joins them: every group is a step */
        h0 = polymac_y_loadu(lanes + 0 * 4);
        h1 = polymac_y_loadu(lanes + 1 * 4);
        h2 = polymac_y_loadu(lanes + 2 * 4);
        h3 = polymac_y_loadu(lanes + 3 * 4);
        h4 = polymac_y_loadu(lanes + 4 * 4);
    } else {
        /* h in lane 0 joins the first group */
        h0 = _mm256_set_epi64x(0, 0, 0, (long long)h26[0]);
        h1 = _mm256_set_epi64x(0, 0, 0, (long long)h26[1]);
        h2 = _mm256_set_epi64x(0, 0, 0, (long long)h26[2]);
        h3 = _mm256_set_epi64x(0, 0, 0, (long long)h26[3]);
        h4 = _mm256_set_epi64x(0, 0, 0, (long long)h26[4]);
        POLYMAC_R26VEC_LOAD4(polymac_y_, h, in);
        in += 64;
        ngroups--;              /* groups still to load */
    }

    /*
     * Two groups per carry chain when r^8 is at hand: h = (h r^4 + m) r^4
     * + m' computed as m r^4 + h r^8 + m', both products summed into the
     * same five sums and one carry chain for the two (as the eight-lane
     * core does with r^16): a step of 86 vector operations becomes two
     * of 77.  Bounds: m r^4 below 2^56.7 (m's limbs below 2^26) and h r^8
     * below 2^57.8, the sum below 2^59: the chain leaves limbs below
     * 2^26 + 2^10 (see above), and h + m' stays below 2^27.1.
     */
    if (r8 && ngroups >= 2) {
        do {
            __m256i m0, m1, m2, m3, m4;
            m0 = m1 = m2 = m3 = m4 = _mm256_setzero_si256();
            POLYMAC_R26VEC_LOAD4(polymac_y_, m, in);
            POLYMAC_R26VEC_MULACC(polymac_y_, d, m, k4, 4);
            POLYMAC_R26VEC_MULADD(polymac_y_, d, h, r8, 1);
            POLYMAC_R26VEC_CARRY(polymac_y_, d0, d1, d2, d3, d4, mask);
            h0 = d0; h1 = d1; h2 = d2; h3 = d3; h4 = d4;
            POLYMAC_R26VEC_LOAD4(polymac_y_, h, in + 64);
            in += 128;
            ngroups -= 2;
        } while (ngroups >= 2);
    }
    while (ngroups) {
        POLYMAC_R26VEC_MULACC(polymac_y_, d, h, k4, 4);
        POLYMAC_R26VEC_CARRY(polymac_y_, d0, d1, d2, d3, d4, mask);
        h0 = d0; h1 = d1; h2 = d2; h3 = d3; h4 = d4;
        POLYMAC_R26VEC_LOAD4(polymac_y_, h, in);
        in += 64;
        ngroups--;
    }
#undef POLYMAC_R26VEC_LOAD4

    if (lanes) {
        /* the lanes stay unmerged for the next call (or emit) */
        _mm256_storeu_si256((__m256i *)(lanes + 0 * 4), h0);
        _mm256_storeu_si256((__m256i *)(lanes + 1 * 4), h1);
        _mm256_storeu_si256((__m256i *)(lanes + 2 * 4), h2);
        _mm256_storeu_si256((__m256i *)(lanes + 3 * 4), h3);
        _mm256_storeu_si256((__m256i *)(lanes + 4 * 4), h4);
        return;
    }
    /* last step: each lane times its own power, then the lanes summed */
    polymac_r26vec_merge4(h26, table, h0, h1, h2, h3, h4);
}

#ifdef POLYMAC_TEST_KERNELS
#include "../test_inject.h"
/* test builds only: h set as given in radix 2^64 or in h26, for the
 * kernels' injection points (test/test_inject.c); 0, or -1 for another
 * form (left to the kernel) */
static inline int polymac_r26vec_test_set_h(struct polymac_r26vec_head *hd,
                                            const struct polymac_test_h *h)
{
    if (h->form == POLYMAC_TEST_R64) {
        hd->r64.h0 = h->v[0];
        hd->r64.h1 = h->v[1];
        hd->r64.h2 = h->v[2];
        hd->base2_26 = 0;
        return 0;
    }
    if (h->form == POLYMAC_TEST_R26) {
        memcpy(hd->h26, h->v, sizeof hd->h26);
        hd->base2_26 = 1;
        return 0;
    }
    return -1;
}
#endif

#endif
