/* rand.h -- the seeded generator every test program shares (no Check or
 *           libsodium needed, so the sanitizer and timing programs use it) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_TEST_RAND_H
#define POLYMAC_TEST_RAND_H

#include <stddef.h>
#include <stdint.h>

/* Deterministic xorshift64*: every run tests the same inputs, and a
 * failure names the seed state to reproduce it. */
static inline uint64_t test_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static inline void test_fill(uint8_t *p, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(test_rand(s) >> 56);
}

#endif
