/* poly1305_test_broken_stream.c -- a kernel wrong only when a stream
 *                                  continues live lanes (-Dtest_kernels=true only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* "test-broken-stream" is generic-r26 seen as a four-lane kernel that,
 * like x86-avx2, keeps its lanes unmerged after a call of whole groups
 * and continues them in the next such call.  The planted fault is in that
 * continuation: a call of whole groups that finds the lanes live
 * multiplies them by one power of r too many (a zero block without the
 * 2^128 bit is absorbed first).  A one-shot message makes at most one call
 * of whole groups, so every one-shot tag is right; only a stream whose
 * calls of whole groups follow one another gets a wrong tag.  Never built
 * into a release: lib/meson.build adds this file only with
 * -Dtest_kernels=true. */
#ifndef POLYMAC_TEST_KERNELS
#error "poly1305_test_broken_stream.c belongs in test builds only (-Dtest_kernels=true)"
#endif
#include "kernels.h"

#define STREAM_GROUP 4
/* The "lanes live" flag sits in the last word of the kernel state, far
 * past generic-r26's own state. */
#define LIVE_AT (POLYMAC_KS_BYTES - sizeof(uint32_t))

static uint32_t *live_flag(void *ks)
{
    return (uint32_t *)((unsigned char *)ks + LIVE_AT);
}

static void polymac_blocks_test_broken_stream(void *ks, const uint8_t *in, size_t nblocks,
                                              uint32_t hibit)
{
    static const uint8_t zero[16];
    uint32_t *live = live_flag(ks);
    int groups = nblocks >= STREAM_GROUP && nblocks % STREAM_GROUP == 0;
    if (groups && *live == 1)
        polymac_kernel_generic_r26.blocks(ks, zero, 1, 0);    /* the planted fault */
    *live = groups ? 1 : 0;
    polymac_kernel_generic_r26.blocks(ks, in, nblocks, hibit);
}

static void polymac_init_test_broken_stream(void *ks, const uint8_t r[16])
{
    polymac_kernel_generic_r26.init(ks, r);
    *live_flag(ks) = 0;
}

static void polymac_emit_test_broken_stream(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    polymac_kernel_generic_r26.emit(ks, tag, s);
    *live_flag(ks) = 0;
}

const struct polymac_kernel polymac_kernel_test_broken_stream = {
    .name = "test-broken-stream",
    .cpu_required = 0,
    .init = polymac_init_test_broken_stream,
    .blocks = polymac_blocks_test_broken_stream,
    .emit = polymac_emit_test_broken_stream,
    .stack_bytes = 2048,      /* generic-r26's */
    .stack_bytes_short = 512,
};
