/* broken.c -- deliberately wrong kernels for testing the dispatcher's
 *             self-test (-Dtest_kernels=true only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * Each is generic-r26 with one planted fault of the kind a SIMD kernel
 * gets, on a path only some calls reach (test/trust/test_selftest.c checks
 * that the self-test catches each and what it leaves right):
 *
 * - "test-broken": a call of 8 blocks or more (its "vector path") drops
 *   its last block.  Short messages get right tags.  It needs no CPU
 *   feature and sits first in a test build's registry, so automatic
 *   selection meets it before every real kernel.
 * - "test-broken-tail": when a call's block count leaves a partial group
 *   of four after one or more full groups, the full groups' sum is
 *   multiplied by one power of r too many (a zero block without the 2^128
 *   bit is absorbed between them and the tail).  Calls of whole groups,
 *   and calls shorter than a group, are right: the 64- and 2061-byte
 *   one-shots pass it.
 * - "test-broken-stream": a four-lane kernel that, like x86-avx2, keeps
 *   its lanes unmerged after a call of whole groups; a call of whole
 *   groups that finds the lanes live multiplies them by one power of r too
 *   many.  Every one-shot tag is right; only a stream whose calls of whole
 *   groups follow one another gets a wrong tag.
 *
 * Never built into a release: test/kernels/meson.build hands this file
 * to lib/meson.build only with -Dtest_kernels=true.
 */
#ifndef POLYMAC_TEST_KERNELS
#error "test/kernels/broken.c belongs in test builds only (-Dtest_kernels=true)"
#endif
#include "registry.h"

#define GROUP 4
#define BROKEN_VECTOR_BLOCKS 8
/* test-broken-stream's "lanes live" flag: the last word of the kernel
 * state, far past generic-r26's own state */
#define LIVE_AT (POLYMAC_KS_BYTES - sizeof(uint32_t))

static const uint8_t zero[16];

static uint32_t *live_flag(void *ks)
{
    return (uint32_t *)((unsigned char *)ks + LIVE_AT);
}

static void r26_blocks(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit)
{
    polymac_kernel_generic_r26.blocks(ks, in, nblocks, hibit);
}

/* init and emit of all three: generic-r26's, and the stream flag cleared */
static void broken_init(void *ks, const uint8_t r[16])
{
    polymac_kernel_generic_r26.init(ks, r);
    *live_flag(ks) = 0;
}

static void broken_emit(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    polymac_kernel_generic_r26.emit(ks, tag, s);
    *live_flag(ks) = 0;
}

static void blocks_broken(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit)
{
    if (nblocks >= BROKEN_VECTOR_BLOCKS)
        nblocks--;                                  /* the planted fault */
    r26_blocks(ks, in, nblocks, hibit);
}

static void blocks_broken_tail(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit)
{
    size_t full = nblocks - nblocks % GROUP;
    if (full == 0 || full == nblocks) {
        r26_blocks(ks, in, nblocks, hibit);
        return;
    }
    r26_blocks(ks, in, full, hibit);
    r26_blocks(ks, zero, 1, 0);                     /* the planted fault */
    r26_blocks(ks, in + 16 * full, nblocks - full, hibit);
}

static void blocks_broken_stream(void *ks, const uint8_t *in, size_t nblocks, uint32_t hibit)
{
    uint32_t *live = live_flag(ks);
    int groups = nblocks >= GROUP && nblocks % GROUP == 0;
    if (groups && *live == 1)
        r26_blocks(ks, zero, 1, 0);                 /* the planted fault */
    *live = groups ? 1 : 0;
    r26_blocks(ks, in, nblocks, hibit);
}

/* generic-r26's stack policy */
#define BROKEN_KERNEL(kname, blocks_fn)                                      \
    {                                                                       \
        .name = kname, .cpu_required = 0, .init = broken_init,              \
        .blocks = blocks_fn, .emit = broken_emit,                           \
        .stack_bytes = 2048,                                                \
    }

const struct polymac_kernel polymac_kernel_test_broken =
    BROKEN_KERNEL("test-broken", blocks_broken);
const struct polymac_kernel polymac_kernel_test_broken_tail =
    BROKEN_KERNEL("test-broken-tail", blocks_broken_tail);
const struct polymac_kernel polymac_kernel_test_broken_stream =
    BROKEN_KERNEL("test-broken-stream", blocks_broken_stream);
