/* r26vec.h -- what the x86 radix-2^26 vector kernels share: five limb
 *             vectors and their arithmetic, the powers of r, the
 *             four-lane core */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_R26VEC_H
#define POLYMAC_R26VEC_H

#include <immintrin.h>

#include "hsum.h"

#include "../simd/skeleton.h"

/* Everything the x86 radix-2^26 kernels' burned vector functions call is
 * inlined, whatever the compiler would choose: the dead stack such a
 * function leaves is then its own frame, which burn.h zeroes after it.
 * (GCC 14 kept polymac_r26vec_table4 out of line, and its frame, deeper
 * than the depth x86-avx2 zeroes, kept limbs of r and r^2.) */
#define POLYMAC_R26VEC_INLINE static inline __attribute__((always_inline))

#define POLYMAC_R26VEC_MASK 0x3ffffffu

/* h (or a power of r) in each 64-bit lane: five 26-bit limbs, one vector
 * each.  The functions below take and return them by value and are always
 * inlined, so that GCC keeps the limbs in registers; written out limb by
 * limb (the rounds' loops are unrolled by pragma), since plain loops
 * changed GCC's inlining of the kernels' vector paths, whose frames must
 * stay as measured (burn.h). */
struct r26v4 {
    __m256i l0, l1, l2, l3, l4;
};
#ifdef __AVX512F__
struct r26v8 {
    __m512i l0, l1, l2, l3, l4;
};
#endif

/* What a radix-2^26 kernel's state holds besides its tables and lanes. */
struct polymac_r26vec {
    struct polymac_simd s;   /* r; h while s.vec != 1 */
    uint64_t h26[5];         /* h while s.vec == 1: five 26-bit limbs, each
                                below 2^27 (carries pending) */
};

POLYMAC_R26VEC_INLINE uint64_t polymac_r26vec_hsum4(__m256i v)
{
    return polymac_x86_hsum4(v);
}

/* The vector operations on 64-bit lanes, for either width: each picks the
 * intrinsic of its operand's width (like: any vector of that width). */
#ifdef __AVX512F__
#define POLYMAC_V(like, y, z) _Generic((like), __m256i: y, __m512i: z)
#define POLYMAC_V4(a) _Generic((a), __m256i: (a), default: _mm256_setzero_si256())
#define POLYMAC_V8(a) _Generic((a), __m512i: (a), default: _mm512_setzero_si512())
POLYMAC_R26VEC_INLINE uint64_t polymac_r26vec_hsum8(__m512i v)
{
    return polymac_x86_hsum8(v);
}
static inline __m512i polymac_r26vec_loadu8(const void *p)
{
    return _mm512_loadu_si512(p);
}
static inline void polymac_r26vec_storeu8(void *p, __m512i v)
{
    _mm512_storeu_si512(p, v);
}
#else
#define POLYMAC_V(like, y, z) y
#define POLYMAC_V4(a) (a)
#define POLYMAC_V8(a) (a)
#endif
static inline __m256i polymac_r26vec_loadu4(const void *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}
static inline void polymac_r26vec_storeu4(void *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)p, v);
}
#define polymac_v_add(a, b) POLYMAC_V(a, _mm256_add_epi64, _mm512_add_epi64)(a, b)
#define polymac_v_and(a, b) POLYMAC_V(a, _mm256_and_si256, _mm512_and_si512)(a, b)
#define polymac_v_or(a, b)  POLYMAC_V(a, _mm256_or_si256, _mm512_or_si512)(a, b)
#define polymac_v_mul(a, b) POLYMAC_V(a, _mm256_mul_epu32, _mm512_mul_epu32)(a, b)
/* the immediate shifts are macros when GCC does not optimise: their
 * operand is converted to the width of each branch (a zero in the branch
 * not taken) so that both compile */
#define polymac_v_srli(a, n) \
    POLYMAC_V(a, _mm256_srli_epi64(POLYMAC_V4(a), n), _mm512_srli_epi64(POLYMAC_V8(a), n))
#define polymac_v_slli(a, n) \
    POLYMAC_V(a, _mm256_slli_epi64(POLYMAC_V4(a), n), _mm512_slli_epi64(POLYMAC_V8(a), n))
#define polymac_v_unpacklo(a, b) \
    POLYMAC_V(a, _mm256_unpacklo_epi64, _mm512_unpacklo_epi64)(a, b)
#define polymac_v_unpackhi(a, b) \
    POLYMAC_V(a, _mm256_unpackhi_epi64, _mm512_unpackhi_epi64)(a, b)
#define polymac_v_set1(like, x) \
    POLYMAC_V(like, _mm256_set1_epi64x, _mm512_set1_epi64)((long long)(x))
#define polymac_v_hsum(a) POLYMAC_V(a, polymac_r26vec_hsum4, polymac_r26vec_hsum8)(a)
#define polymac_v_loadu(like, p) \
    POLYMAC_V(like, polymac_r26vec_loadu4, polymac_r26vec_loadu8)(p)
#define polymac_v_storeu(p, v) \
    POLYMAC_V(v, polymac_r26vec_storeu4, polymac_r26vec_storeu8)(p, v)
#if defined(POLYMAC_SANITIZED)
/* MemorySanitizer checks an asm's operands strictly (a false report on
 * these secret sums): sanitizer builds drop the barrier, which has no
 * instruction, so they compute the same */
#define polymac_v_keep(d) ((void)0)
#else
#define polymac_v_keep(d) \
    __asm__("" : "+v"(d.l0), "+v"(d.l1), "+v"(d.l2), "+v"(d.l3), "+v"(d.l4))
#endif

/*
 * The sums of the lanes' unreduced products (each below 2^60: see the
 * bounds in r26vec_ops.h) carried into the state's limbs.  Sequential
 * carries: this runs once per call.  Limbs end below 2^26 except limb 1,
 * below 2^26 + 2^12.
 */
POLYMAC_R26VEC_INLINE void polymac_r26vec_carry_out(uint64_t h26[5], const uint64_t d[5])
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

#define POLYMAC_R26V struct r26v4
#define POLYMAC_R26V_VEC __m256i
#define POLYMAC_R26V_FN(op) polymac_r26v4_##op
#define POLYMAC_R26V_WORDS 1
#include "r26vec_ops.h"
#undef POLYMAC_R26V
#undef POLYMAC_R26V_VEC
#undef POLYMAC_R26V_FN
#undef POLYMAC_R26V_WORDS
#ifdef __AVX512F__
#define POLYMAC_R26V struct r26v8
#define POLYMAC_R26V_VEC __m512i
#define POLYMAC_R26V_FN(op) polymac_r26v8_##op
#define POLYMAC_R26V_WORDS 0
#include "r26vec_ops.h"
#undef POLYMAC_R26V
#undef POLYMAC_R26V_VEC
#undef POLYMAC_R26V_FN
#undef POLYMAC_R26V_WORDS
#endif

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

/* The skeleton's wipe (simd/skeleton.h) for these kernels: a short
 * message's few bytes with plain stores, a longer one's tables out of
 * line, so that their vector stores stay out of the short path. */
static __attribute__((noinline)) void polymac_r26vec_wipe_long(void *p, size_t n)
{
    polymac_r26vec_wipe(p, n);
}

static inline void polymac_r26vec_wipe_state(void *p, size_t n)
{
    if (n == sizeof(struct polymac_simd))
        polymac_wipe(p, sizeof(struct polymac_simd));
    else
        polymac_r26vec_wipe_long(p, n);
}

/* The skeleton's radix conversions (simd/skeleton.h): h from radix 2^64
 * (h2 <= 4) to five 26-bit limbs, the top one below 2^26.33, well inside
 * what the cores accept; and back. */
POLYMAC_R26VEC_INLINE void polymac_r26vec_to_vec(struct polymac_r26vec *v)
{
    polymac_r64_to_r26(&v->s.sc, v->h26);
}

POLYMAC_R26VEC_INLINE void polymac_r26vec_to_r64(struct polymac_r26vec *v)
{
    polymac_r64_from_r26(&v->s.sc, v->h26);
}

/* The same for limbs already carried, as h26 always is in x86-avx2 (set
 * by to_vec, or by carry_out: limbs below 2^26 but limb 1, below 2^26 +
 * 2^12, and limb 4, below 5 2^24 from to_vec): the limbs' sum in two
 * 64-bit adds with their carries and no fold.  l0 + l1 2^26 is below
 * 2^53, l2 >> 12 + l3 2^14 + a carry below 2^41, and h2 = l4 >> 24 + a
 * carry is at most 4: below 2^128 times 5 either way (to_vec's limbs are
 * a folded h; carry_out's sum is below 2^130 + 2^105).  GCC 12 spills the
 * 128-bit sums of polymac_r64_from_r26 to the stack. */
POLYMAC_R26VEC_INLINE void polymac_r26vec_carried_r64(struct polymac_r26vec *v)
{
    const uint64_t *l = v->h26;
    const uint64_t a = l[0] + (l[1] << 26), h0 = a + (l[2] << 52);
    const uint64_t b = (l[2] >> 12) + (l[3] << 14) + (h0 < a), h1 = b + (l[4] << 40);
    v->s.sc.h0 = h0;
    v->s.sc.h1 = h1;
    v->s.sc.h2 = (l[4] >> 24) + (h1 < b);
}

/* The square of lane 0 of an n-lane table, limbs and fives: r^8 from a
 * 4-lane table (lane 0 of each row is r^4) for the two-group loop of
 * core4, r^16 from an 8-lane one for x86-avx512's.  Limbs below 2^26 +
 * 2^12 as carry_out leaves them, fives below 2^28.33, as the bounds in
 * r26vec_ops.h assume of a power. */
POLYMAC_R26VEC_INLINE void polymac_r26vec_square(uint64_t r8[9], const uint64_t *table, unsigned n)
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

/*
 * The powers table of an N-lane kernel: row i < 5 is limb i of the power
 * each lane multiplies by in its last step, rows 5..8 are 5 times limbs
 * 1..4, one 64-bit lane per vector lane so that the cores load rows as
 * they are.  The lanes are in the order the loads leave the blocks in
 * (r26vec_ops.h, split), which is why the powers are not monotone.  Lane
 * 0 always holds the first block of a group and so the highest power,
 * which is also the one every lane multiplies by in the loop.
 *
 * The powers are computed with the same vector multiplication as the
 * messages, several at once (two dependent steps give r^4, r^2, r^3, r;
 * one more the eight-lane powers), and come out already transposed into
 * rows.
 *
 * The 4-lane table, lanes r^4, r^2, r^3, r, from the key (key holds r):
 * [r, r, r, r] [r, r, r, 1] = [r^2, r^2, r^2, r], then times
 * [r^2, 1, r, 1] = [r^4, r^2, r^3, r].
 */
POLYMAC_R26VEC_INLINE void polymac_r26vec_table4(uint64_t table[9 * 4], const struct polymac_r64 *key)
{
    const __m256i one = _mm256_set1_epi64x(1), zero = _mm256_setzero_si256();
    struct polymac_r64 rr = {key->r0, key->r1, 0, key->r0, key->r1};
    uint64_t l[5];

    polymac_r64_to_r26(&rr, l);     /* r < 2^124: exact 26-bit limbs */
    const struct r26v4 x = {_mm256_set1_epi64x((long long)l[0]),
                            _mm256_set1_epi64x((long long)l[1]),
                            _mm256_set1_epi64x((long long)l[2]),
                            _mm256_set1_epi64x((long long)l[3]),
                            _mm256_set1_epi64x((long long)l[4])};
    /* lane 3 becomes 1: limb 0 one, the others zero (blend of 64-bit lane
     * 3 is dwords 6 and 7) */
    const struct r26v4 y = {_mm256_blend_epi32(x.l0, one, 0xc0),
                            _mm256_blend_epi32(x.l1, zero, 0xc0),
                            _mm256_blend_epi32(x.l2, zero, 0xc0),
                            _mm256_blend_epi32(x.l3, zero, 0xc0),
                            _mm256_blend_epi32(x.l4, zero, 0xc0)};
    const struct r26v4 d = polymac_r26v4_carry(polymac_r26v4_mul(x, y, polymac_r26v4_fives(y)));
    /* [r^2, 1, r, 1]: lane 0 from d, lane 2 from x, lanes 1 and 3 one */
#define POLYMAC_R26VEC_PICK(i, other) \
    _mm256_blend_epi32(_mm256_blend_epi32(d.l##i, x.l##i, 0x30), other, 0xcc)
    const struct r26v4 z = {POLYMAC_R26VEC_PICK(0, one), POLYMAC_R26VEC_PICK(1, zero),
                            POLYMAC_R26VEC_PICK(2, zero), POLYMAC_R26VEC_PICK(3, zero),
                            POLYMAC_R26VEC_PICK(4, zero)};
#undef POLYMAC_R26VEC_PICK
    polymac_r26v4_store_power(table, polymac_r26v4_carry(polymac_r26v4_mul(d, z, polymac_r26v4_fives(z))));
}

/* ngroups groups of four at in, each a step after the lanes h: two at a
 * time with r^8 when r8 is not NULL, then one at a time with r^4. */
static inline __attribute__((always_inline)) struct r26v4
polymac_r26vec_steps4(struct r26v4 h, const uint8_t *in, size_t ngroups, __m256i hib,
                      const uint64_t table[9 * 4], const uint64_t *r8)
{
    if (r8)
        for (; ngroups >= 2; ngroups -= 2, in += 128)
            h = polymac_r26v4_two(h, in, hib, table, r8);
    for (; ngroups; ngroups--, in += 64)
        h = polymac_r26v4_step(polymac_r26v4_mulmem(h, table, 4), in, hib);
    return h;
}

/* h26 in lane 0 of an otherwise zero h */
static inline __attribute__((always_inline)) struct r26v4
polymac_r26vec_lane0(const uint64_t h26[5])
{
    const struct r26v4 h0 = {_mm256_set_epi64x(0, 0, 0, (long long)h26[0]),
                             _mm256_set_epi64x(0, 0, 0, (long long)h26[1]),
                             _mm256_set_epi64x(0, 0, 0, (long long)h26[2]),
                             _mm256_set_epi64x(0, 0, 0, (long long)h26[3]),
                             _mm256_set_epi64x(0, 0, 0, (long long)h26[4])};
    return h0;
}

/*
 * Four lanes (Goll and Gueron): lane j absorbs blocks j, j+4, j+8, ... of
 * ngroups >= 1 groups of four; every step but the last multiplies all
 * lanes by r^4 (lane 0 of the table, broadcast at each product; the
 * two-group loop by r^8 as well, broadcast once a word), the last
 * multiplies each lane by the power that brings its blocks to the right
 * weight, and the lanes are summed.  h enters in lane 0 with the first
 * block.
 *
 * For a streamed message the lanes can stay unmerged between calls: with
 * lanes non-NULL the last step is left out and the lanes are stored there
 * (lanes[limb * 4 + lane], limbs below 2^27.1 as they enter a product);
 * with lanes_in they are where the call starts, h26 unused, and the
 * first group is a step of its own.  polymac_r26v4_last ends them.  r8,
 * if not NULL, is r^8 (limbs and fives) for the two-group loop.
 *
 * Inlined into each caller's one call site: as a function of its own it
 * paid a frame set-up per call.
 */
static inline __attribute__((always_inline)) void
polymac_r26vec_core4(uint64_t h26[5], const uint64_t table[9 * 4], const uint64_t *r8,
                     uint64_t *lanes, int lanes_in, const uint8_t *in, size_t ngroups,
                     uint32_t hibit)
{
    const __m256i hib = _mm256_set1_epi64x(hibit ? (1 << 24) : 0);
    struct r26v4 h;

    if (lanes_in) {
        /* h is the lanes of earlier calls, still to be multiplied by r^4
         * before the first group joins them: every group is a step */
        h = polymac_r26v4_load(lanes);
    } else {
        /* h in lane 0 joins the first group */
        h = polymac_r26v4_add(polymac_r26vec_lane0(h26), polymac_r26v4_group(in, hib));
        in += 64;
        ngroups--;              /* groups still to load */
    }
    h = polymac_r26vec_steps4(h, in, ngroups, hib, table, r8);
    if (lanes)
        polymac_r26v4_store(lanes, h);      /* unmerged, for the next call */
    else
        polymac_r26v4_last(h26, table, h);
}


#endif
