/* hsum.h -- sums of a vector's 64-bit lanes, modulo 2^64, for the x86
 *           kernels (AVX2, and AVX-512 where the file is built with it) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_X86_HSUM_H
#define POLYMAC_X86_HSUM_H

#include <immintrin.h>
#include <stdint.h>

/* Vector adds wrap; GCC's _mm512_reduce_add_epi64 adds in signed C
 * arithmetic, whose overflow (a forged state's garbage lanes can reach
 * it) is undefined. */
static inline uint64_t polymac_x86_hsum4(__m256i v)
{
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    t = _mm_add_epi64(t, _mm_unpackhi_epi64(t, t));
    return (uint64_t)_mm_cvtsi128_si64(t);
}

#ifdef __AVX512F__
static inline uint64_t polymac_x86_hsum8(__m512i v)
{
    return polymac_x86_hsum4(_mm256_add_epi64(_mm512_castsi512_si256(v),
                                              _mm512_extracti64x4_epi64(v, 1)));
}

/* Two vectors' halves summed: [a's lo4 + hi4, b's lo4 + hi4]. */
static inline __m512i polymac_x86_fold2(__m512i a, __m512i b)
{
    return _mm512_add_epi64(_mm512_shuffle_i64x2(a, b, 0x44), _mm512_shuffle_i64x2(a, b, 0xee));
}

/*
 * s[i] = the sum of v[i]'s eight lanes, for six vectors at once: the
 * vectors are folded into each other (three, then one and a half) before
 * any lane leaves, 29 vector instructions where six polymac_x86_hsum8
 * take 42, for three more cycles of latency.
 */
static inline void polymac_x86_hsum8x6(const __m512i v[6], uint64_t s[6])
{
    const __m512i s01 = polymac_x86_fold2(v[0], v[1]);
    const __m512i s23 = polymac_x86_fold2(v[2], v[3]);
    const __m512i s45 = polymac_x86_fold2(v[4], v[5]);
    /* two partial sums each of v0..v3, one 128-bit lane per vector */
    __m512i t = _mm512_add_epi64(_mm512_shuffle_i64x2(s01, s23, 0x88),
                                 _mm512_shuffle_i64x2(s01, s23, 0xdd));
    /* the same of v4 and v5, in 256 bits */
    const __m512i w = _mm512_shuffle_i64x2(s45, s45, 0xd8);
    __m256i u = _mm256_add_epi64(_mm512_castsi512_si256(w), _mm512_extracti64x4_epi64(w, 1));
    t = _mm512_add_epi64(t, _mm512_unpackhi_epi64(t, t));
    u = _mm256_add_epi64(u, _mm256_unpackhi_epi64(u, u));
    s[0] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(t));
    s[1] = (uint64_t)_mm_cvtsi128_si64(_mm512_extracti32x4_epi32(t, 1));
    s[2] = (uint64_t)_mm_cvtsi128_si64(_mm512_extracti32x4_epi32(t, 2));
    s[3] = (uint64_t)_mm_cvtsi128_si64(_mm512_extracti32x4_epi32(t, 3));
    s[4] = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(u));
    s[5] = (uint64_t)_mm_cvtsi128_si64(_mm256_extracti128_si256(u, 1));
}
#endif

#endif
