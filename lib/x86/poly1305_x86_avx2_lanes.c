/* poly1305_x86_avx2_lanes.c -- x86-avx2's batch entry: four messages at
 *                              once, one per 64-bit lane, radix 2^26 */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <immintrin.h>

#include "../generic/r64.h"
#include "../kernels.h"

/*
 * Each lane carries one message with its own r (no powers of r: every
 * lane multiplies by its own r once per block).  A run takes as many
 * steps as the lane with the fewest blocks left in its current segment
 * (its full blocks, then its padded last block); after a run, a lane whose
 * message ended emits its tag and takes the next message of the batch
 * (lanes_x86.h, the manager shared with the IFMA entry).
 */
#define L 4
#define M26 0x3ffffffu

/* Whole vectors, written only by vector stores: a vector load of lanes
 * just written by scalar stores would stall on store forwarding. */
struct lanes_vec {
    __m256i h[5];                /* h limbs by lane, partially carried */
    __m256i r[5];                /* r limbs */
    __m256i s[5];                /* 5 r limbs 1..4 (row 0 unused) */
};

/* lane l starts a message: r from key, h = 0 */
static void set_lane(struct lanes_vec *v, unsigned l, const uint8_t key[32])
{
    uint64_t r0, r1;
    polymac_clamp64(&r0, &r1, key);
    const __m256i sel = _mm256_cmpeq_epi64(_mm256_set_epi64x(3, 2, 1, 0),
                                           _mm256_set1_epi64x((long long)l));
    const uint64_t t[5] = {r0 & M26, (r0 >> 26) & M26, ((r0 >> 52) | (r1 << 12)) & M26,
                           (r1 >> 14) & M26, r1 >> 40};
    for (int i = 0; i < 5; i++) {
        __m256i x = _mm256_set1_epi64x((long long)t[i]);
        v->h[i] = _mm256_andnot_si256(sel, v->h[i]);
        v->r[i] = _mm256_blendv_epi8(v->r[i], x, sel);
        v->s[i] = _mm256_blendv_epi8(v->s[i], _mm256_add_epi64(x, _mm256_slli_epi64(x, 2)), sel);
    }
}

/* h of lane l as (h mod p + s) mod 2^128, constant time. */
static void lane_tag(const struct lanes_vec *v, unsigned l, uint8_t tag[16],
                     const uint8_t s[16])
{
    uint64_t limbs[5];
    for (int i = 0; i < 5; i++)
        limbs[i] = ((const uint64_t *)&v->h[i])[l];
    struct polymac_r64 st;
    uint64_t lo, hi;
    polymac_r64_from_r26(&st, limbs);
    polymac_r64_reduce(st.h0, st.h1, st.h2, &lo, &hi);
    polymac_add_s_store(tag, lo, hi, s);
    polymac_wipe(&st, sizeof st);
    polymac_wipe(limbs, sizeof limbs);
}

#define LD(p) (p)
#define ST(p, x) ((p) = (x))

/* steps blocks for every lane: h = (h + m) r, lane l reading from p[l]
 * and moving on by step[l] bytes; hib is 2^24 for full blocks, 0 for a
 * padded last block, by lane. */
static void run_steps(struct lanes_vec *v, const uint8_t *p[L], const size_t step[L],
                      const uint64_t hib[L], size_t steps)
{
    const __m256i mask = _mm256_set1_epi64x(M26);
    const __m256i hb = _mm256_loadu_si256((const __m256i *)hib);
    __m256i h0 = LD(v->h[0]), h1 = LD(v->h[1]), h2 = LD(v->h[2]), h3 = LD(v->h[3]),
            h4 = LD(v->h[4]);
    const __m256i r0 = LD(v->r[0]), r1 = LD(v->r[1]), r2 = LD(v->r[2]), r3 = LD(v->r[3]),
                  r4 = LD(v->r[4]);
    const __m256i s1 = LD(v->s[1]), s2 = LD(v->s[2]), s3 = LD(v->s[3]), s4 = LD(v->s[4]);
    const uint8_t *p0 = p[0], *p1 = p[1], *p2 = p[2], *p3 = p[3];
    const size_t t0 = step[0], t1 = step[1], t2 = step[2], t3 = step[3];

    for (size_t k = 0; k < steps; k++) {
        __m128i x0 = _mm_loadu_si128((const __m128i *)p0);
        __m128i x1 = _mm_loadu_si128((const __m128i *)p1);
        __m128i x2 = _mm_loadu_si128((const __m128i *)p2);
        __m128i x3 = _mm_loadu_si128((const __m128i *)p3);
        p0 += t0;
        p1 += t1;
        p2 += t2;
        p3 += t3;
        __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi64(x0, x1)),
                                             _mm_unpacklo_epi64(x2, x3), 1);
        __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpackhi_epi64(x0, x1)),
                                             _mm_unpackhi_epi64(x2, x3), 1);
        h0 = _mm256_add_epi64(h0, _mm256_and_si256(lo, mask));
        h1 = _mm256_add_epi64(h1, _mm256_and_si256(_mm256_srli_epi64(lo, 26), mask));
        h2 = _mm256_add_epi64(h2, _mm256_and_si256(
            _mm256_or_si256(_mm256_srli_epi64(lo, 52), _mm256_slli_epi64(hi, 12)), mask));
        h3 = _mm256_add_epi64(h3, _mm256_and_si256(_mm256_srli_epi64(hi, 14), mask));
        h4 = _mm256_add_epi64(h4, _mm256_or_si256(_mm256_srli_epi64(hi, 40), hb));

#define MUL _mm256_mul_epu32
#define ADD _mm256_add_epi64
        __m256i d0 = ADD(ADD(MUL(h0, r0), MUL(h1, s4)), ADD(ADD(MUL(h2, s3), MUL(h3, s2)), MUL(h4, s1)));
        __m256i d1 = ADD(ADD(MUL(h0, r1), MUL(h1, r0)), ADD(ADD(MUL(h2, s4), MUL(h3, s3)), MUL(h4, s2)));
        __m256i d2 = ADD(ADD(MUL(h0, r2), MUL(h1, r1)), ADD(ADD(MUL(h2, r0), MUL(h3, s4)), MUL(h4, s3)));
        __m256i d3 = ADD(ADD(MUL(h0, r3), MUL(h1, r2)), ADD(ADD(MUL(h2, r1), MUL(h3, r0)), MUL(h4, s4)));
        __m256i d4 = ADD(ADD(MUL(h0, r4), MUL(h1, r3)), ADD(ADD(MUL(h2, r2), MUL(h3, r1)), MUL(h4, r0)));
        /* two interleaved carry chains (d0 -> d1 -> d2 -> d3, d3 -> d4 ->
         * 5 x d0): every limb ends below 2^26 plus a small carry */
        __m256i c0 = _mm256_srli_epi64(d0, 26), c3 = _mm256_srli_epi64(d3, 26);
        d0 = _mm256_and_si256(d0, mask);
        d3 = _mm256_and_si256(d3, mask);
        d1 = ADD(d1, c0);
        d4 = ADD(d4, c3);
        __m256i c1 = _mm256_srli_epi64(d1, 26), c4 = _mm256_srli_epi64(d4, 26);
        d1 = _mm256_and_si256(d1, mask);
        d4 = _mm256_and_si256(d4, mask);
        d2 = ADD(d2, c1);
        d0 = ADD(d0, ADD(c4, _mm256_slli_epi64(c4, 2)));
        __m256i c2 = _mm256_srli_epi64(d2, 26);
        c0 = _mm256_srli_epi64(d0, 26);
        d2 = _mm256_and_si256(d2, mask);
        d0 = _mm256_and_si256(d0, mask);
        d3 = ADD(d3, c2);
        d1 = ADD(d1, c0);
        c3 = _mm256_srli_epi64(d3, 26);
        d3 = _mm256_and_si256(d3, mask);
        d4 = ADD(d4, c3);
#undef MUL
#undef ADD
        h0 = d0;
        h1 = d1;
        h2 = d2;
        h3 = d3;
        h4 = d4;
    }
    ST(v->h[0], h0);
    ST(v->h[1], h1);
    ST(v->h[2], h2);
    ST(v->h[3], h3);
    ST(v->h[4], h4);
}

#define LANES_N L
#define LANES_HIBIT (UINT64_C(1) << 24)
#define LANES_FN polymac_lanes_x86_avx2
#include "lanes_x86.h"
