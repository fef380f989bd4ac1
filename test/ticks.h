/* ticks.h -- the clock the timing programs share: the time-stamp counter
 *            between fences on x86, a monotonic nanosecond clock elsewhere */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_TEST_TICKS_H
#define POLYMAC_TEST_TICKS_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))   /* lfence is SSE2 */
#  include <x86intrin.h>
#  define POLYMAC_TEST_TSC 1
#endif

static inline uint64_t test_ticks(void)
{
#ifdef POLYMAC_TEST_TSC
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

#endif
