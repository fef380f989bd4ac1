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
#endif

#endif
