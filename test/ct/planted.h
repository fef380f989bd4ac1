/* planted.h -- the two leaks every constant-time check must report: an
 *              early-exit tag compare and a tag-indexed table lookup */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_TEST_PLANTED_H
#define POLYMAC_TEST_PLANTED_H

#include <stdint.h>

#include "polymac.h"

/* Tests of the test.  noinline and volatile keep the compiler from turning
 * the planted leaks into branch-free code. */
__attribute__((noinline)) static int leaky_compare(const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < 16; i++)
        if (a[i] != b[i])
            return POLYMAC_EBADTAG;           /* early exit: time depends on the tag */
    return 0;
}

static volatile uint8_t table[256];

__attribute__((noinline)) static unsigned leaky_lookup(const uint8_t *a)
{
    unsigned sum = 0;
    for (int i = 0; i < 16; i++)
        sum += table[a[i]];                  /* address depends on the tag */
    return sum;
}

#endif
