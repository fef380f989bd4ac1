/* batch_scan.h -- the batch's one validation pass over its entries: in C,
 *                 and on x86-64 four entries an instruction (AVX2) or
 *                 eight (AVX-512) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_BATCH_SCAN_H
#define POLYMAC_BATCH_SCAN_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define POLYMAC_SCAN_X86 1
#include <immintrin.h>
#endif

/*
 * What the pass finds: whether an entry is invalid (a NULL tag or key, a
 * NULL message with bytes), the longest message, diff 0 when every length
 * is the first's, and whether the tags' span lies apart from the inputs'
 * (the messages with bytes, and the keys).  Spans, not entries: apart
 * spans (tags in an array of their own) prove that writing a tag cannot
 * change an input read later; meeting spans send the batch through a
 * buffer, correct whatever the layout.  The NULL tests come from the same
 * minima: a NULL pointer makes its minimum 0.  An empty message stands
 * for its key.  For verify, tags are the expected tags, inputs too,
 * checked by the same minimum.  lib/batch.c chooses the widest the CPU
 * has; test/unit/test_batch_scan.c checks each against the C one.
 */
struct polymac_scan {
    int bad;
    int apart;
    size_t max, diff;
};

/* The running minima and maxima: inputs [lo, hi), tags [tlo, thi + 16) */
struct polymac_scan_acc {
    uintptr_t lo, hi, tlo, thi;
    size_t max, diff;
};

#define POLYMAC_SCAN_ACC_INIT {UINTPTR_MAX, 0, UINTPTR_MAX, 0, 0, 0}

/* entries [i, n) into a, in C */
static inline __attribute__((always_inline)) void
polymac_scan_rest(struct polymac_scan_acc *a, const uint8_t *const tags[],
                  const void *const msgs[], const size_t lens[], const uint8_t *const keys[],
                  size_t i, size_t n)
{
    uintptr_t lo = a->lo, hi = a->hi, tlo = a->tlo, thi = a->thi;
    size_t max = a->max, diff = a->diff;
    for (; i < n; i++) {
        const uintptr_t t = (uintptr_t)tags[i], kp = (uintptr_t)keys[i];
        const size_t len = lens[i];
        const uintptr_t m = len ? (uintptr_t)msgs[i] : kp;
        const uintptr_t in_lo = m < kp ? m : kp;
        const uintptr_t in_hi = m + len > kp + 32 ? m + len : kp + 32;
        max = len > max ? len : max;
        diff |= len ^ lens[0];
        lo = in_lo < lo ? in_lo : lo;
        hi = in_hi > hi ? in_hi : hi;
        tlo = t < tlo ? t : tlo;
        thi = t > thi ? t : thi;
    }
    *a = (struct polymac_scan_acc){lo, hi, tlo, thi, max, diff};
}

static inline struct polymac_scan polymac_scan_result(const struct polymac_scan_acc *a)
{
    struct polymac_scan r = {a->lo == 0 || a->tlo == 0, a->thi + 16 <= a->lo || a->tlo >= a->hi,
                             a->max, a->diff};
    return r;
}

__attribute__((unused, noinline)) static struct polymac_scan
polymac_scan_c(const uint8_t *const tags[], const void *const msgs[], const size_t lens[],
               const uint8_t *const keys[], size_t n)
{
    struct polymac_scan_acc a = POLYMAC_SCAN_ACC_INIT;
    polymac_scan_rest(&a, tags, msgs, lens, keys, 0, n);
    return polymac_scan_result(&a);
}

#ifdef POLYMAC_SCAN_X86
/*
 * AVX2: four entries a step, the last n % 4 in C.  AVX2 compares 64-bit
 * words only as signed: every word is kept with its top bit flipped
 * (xor bias), under which the signed order is the unsigned one.  Faster
 * than the C pass at 8 and 32 messages of 64 B (measured: docs/log.md,
 * the batch's scan in AVX2).
 */
#define POLYMAC_SCAN_AVX2 __attribute__((target("avx2")))

POLYMAC_SCAN_AVX2 static inline __m256i polymac_scan_min(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}

POLYMAC_SCAN_AVX2 static inline __m256i polymac_scan_max(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(b, a));
}

/* the minimum (min 1) or the maximum of the four lanes, in every lane */
POLYMAC_SCAN_AVX2 static inline __m256i polymac_scan_lanes(__m256i a, int min)
{
    const __m256i b = _mm256_permute4x64_epi64(a, 0x4e);     /* lanes 2 3 0 1 */
    a = min ? polymac_scan_min(a, b) : polymac_scan_max(a, b);
    const __m256i c = _mm256_permute4x64_epi64(a, 0xb1);     /* lanes 1 0 3 2 */
    return min ? polymac_scan_min(a, c) : polymac_scan_max(a, c);
}

/* lane 0 of a, xor bias */
POLYMAC_SCAN_AVX2 static inline uint64_t polymac_scan_word(__m256i a, __m256i bias)
{
    return (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(_mm256_xor_si256(a, bias)));
}

POLYMAC_SCAN_AVX2 __attribute__((unused, noinline)) static struct polymac_scan
polymac_scan_avx2(const uint8_t *const tags[], const void *const msgs[], const size_t lens[],
                  const uint8_t *const keys[], size_t n)
{
    const __m256i bias = _mm256_set1_epi64x(INT64_MIN), zero = _mm256_setzero_si256();
    const __m256i l0 = _mm256_set1_epi64x((long long)lens[0]), k32 = _mm256_set1_epi64x(32);
    /* biased: UINTPTR_MAX is INT64_MAX, 0 is INT64_MIN */
    __m256i lo = _mm256_set1_epi64x(INT64_MAX), tlo = lo, hi = bias, thi = bias, max = bias;
    __m256i diff = zero;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256i t = _mm256_loadu_si256((const __m256i *)(const void *)(tags + i));
        const __m256i m = _mm256_loadu_si256((const __m256i *)(const void *)(msgs + i));
        const __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(keys + i));
        const __m256i l = _mm256_loadu_si256((const __m256i *)(const void *)(lens + i));
        /* an empty message stands for its key */
        const __m256i mm = _mm256_blendv_epi8(m, y, _mm256_cmpeq_epi64(l, zero));
        diff = _mm256_or_si256(diff, _mm256_xor_si256(l, l0));
        max = polymac_scan_max(max, _mm256_xor_si256(l, bias));
        const __m256i yb = _mm256_xor_si256(y, bias);
        lo = polymac_scan_min(lo, polymac_scan_min(_mm256_xor_si256(mm, bias), yb));
        hi = polymac_scan_max(hi, polymac_scan_max(
                                      _mm256_xor_si256(_mm256_add_epi64(mm, l), bias),
                                      _mm256_add_epi64(yb, k32)));
        const __m256i tb = _mm256_xor_si256(t, bias);
        tlo = polymac_scan_min(tlo, tb);
        thi = polymac_scan_max(thi, tb);
    }
    /* each vector's lanes into one word, unbiased (with no step run, the
     * starting values: POLYMAC_SCAN_ACC_INIT's) */
    diff = _mm256_or_si256(diff, _mm256_permute4x64_epi64(diff, 0x4e));
    struct polymac_scan_acc a = {
        polymac_scan_word(polymac_scan_lanes(lo, 1), bias),
        polymac_scan_word(polymac_scan_lanes(hi, 0), bias),
        polymac_scan_word(polymac_scan_lanes(tlo, 1), bias),
        polymac_scan_word(polymac_scan_lanes(thi, 0), bias),
        polymac_scan_word(polymac_scan_lanes(max, 0), bias),
        polymac_scan_word(_mm256_or_si256(diff, _mm256_permute4x64_epi64(diff, 0xb1)), zero)};
    polymac_scan_rest(&a, tags, msgs, lens, keys, i, n);
    return polymac_scan_result(&a);
}

/*
 * AVX-512: eight entries an instruction (masked loads read no entry past
 * n).  Faster than the C pass at 8 and 32 messages of 64 B (measured:
 * docs/log.md, Figures moved out of lib/ comments).  NULL entries show
 * as minima of 0, as in C; polymac_scan_nulls tests them directly for
 * lib/batch.c's short batches, which compare no spans.
 */
#define POLYMAC_SCAN_AVX512 __attribute__((target("avx512f,avx512vl")))

POLYMAC_SCAN_AVX512 static inline __mmask8 polymac_scan_first(size_t n)
{
    return (__mmask8)(n >= 8 ? 0xff : (1u << n) - 1);
}

/* the NULL entries of eight, as a mask */
POLYMAC_SCAN_AVX512 static inline __mmask8 polymac_scan_nulls(__mmask8 k, __m512i t, __m512i m,
                                                              __m512i y, __m512i l)
{
    return _mm512_mask_testn_epi64_mask(k, t, t) | _mm512_mask_testn_epi64_mask(k, y, y)
           | (_mm512_mask_testn_epi64_mask(k, m, m) & _mm512_mask_test_epi64_mask(k, l, l));
}

POLYMAC_SCAN_AVX512 __attribute__((unused, noinline)) static struct polymac_scan
polymac_scan_avx512(const uint8_t *const tags[], const void *const msgs[], const size_t lens[],
                    const uint8_t *const keys[], size_t n)
{
    const __m512i ones = _mm512_set1_epi64(-1), l0 = _mm512_set1_epi64((long long)lens[0]);
    __m512i tlo = ones, lo = ones, thi = _mm512_setzero_si512(), hi = thi, max = thi;
    __mmask8 diff = 0;
    for (size_t i = 0; i < n; i += 8) {
        const __mmask8 k = polymac_scan_first(n - i);
        const __m512i t = _mm512_maskz_loadu_epi64(k, tags + i);
        const __m512i m = _mm512_maskz_loadu_epi64(k, msgs + i);
        const __m512i y = _mm512_maskz_loadu_epi64(k, keys + i);
        const __m512i l = _mm512_maskz_loadu_epi64(k, lens + i);
        diff |= _mm512_mask_cmpneq_epu64_mask(k, l, l0);
        max = _mm512_mask_max_epu64(max, k, max, l);
        tlo = _mm512_mask_min_epu64(tlo, k, tlo, t);
        thi = _mm512_mask_max_epu64(thi, k, thi, t);
        /* an empty message stands for its key */
        const __m512i mm = _mm512_mask_blend_epi64(_mm512_test_epi64_mask(l, l), y, m);
        lo = _mm512_mask_min_epu64(lo, k, lo, _mm512_min_epu64(mm, y));
        hi = _mm512_mask_max_epu64(hi, k, hi,
                                   _mm512_max_epu64(_mm512_add_epi64(mm, l),
                                                    _mm512_add_epi64(y, _mm512_set1_epi64(32))));
    }
    /* a NULL entry makes its minimum 0, as in C */
    const struct polymac_scan_acc a = {
        _mm512_reduce_min_epu64(lo), _mm512_reduce_max_epu64(hi), _mm512_reduce_min_epu64(tlo),
        _mm512_reduce_max_epu64(thi), _mm512_reduce_max_epu64(max), diff != 0};
    return polymac_scan_result(&a);
}
#endif

#endif
