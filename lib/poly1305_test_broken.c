/* poly1305_test_broken.c -- a deliberately wrong kernel for testing the
 *                           dispatcher's self-test (-Dtest_kernels=true only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* "test-broken" needs no CPU feature and sits first in the registry of a
 * test build, so automatic selection meets it before every real kernel.
 * It is generic-r26 with a planted fault on its "vector path": a call
 * with 8 blocks or more drops its last block, the kind of tail bug a SIMD
 * loop gets.  Short messages (the scalar path) get right tags, so only a
 * self-test that runs the vector path can catch it.  Never built into a
 * release: lib/meson.build adds this file only with -Dtest_kernels=true. */
#ifndef POLYMAC_TEST_KERNELS
#error "poly1305_test_broken.c belongs in test builds only (-Dtest_kernels=true)"
#endif
#include "kernels.h"

#define BROKEN_VECTOR_BLOCKS 8

/* generic-r26's state and functions, with one block lost on long calls */
static void polymac_blocks_test_broken(void *ks, const uint8_t *in, size_t nblocks,
                                       uint32_t hibit)
{
    if (nblocks >= BROKEN_VECTOR_BLOCKS)
        nblocks--;                        /* the planted fault */
    polymac_kernel_generic_r26.blocks(ks, in, nblocks, hibit);
}

static void polymac_init_test_broken(void *ks, const uint8_t r[16])
{
    polymac_kernel_generic_r26.init(ks, r);
}

static void polymac_emit_test_broken(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    polymac_kernel_generic_r26.emit(ks, tag, s);
}

const struct polymac_kernel polymac_kernel_test_broken = {
    .name = "test-broken",
    .cpu_required = 0,
    .init = polymac_init_test_broken,
    .blocks = polymac_blocks_test_broken,
    .emit = polymac_emit_test_broken,
    .stack_bytes = 2048,      /* generic-r26's */
    .stack_bytes_short = 512,
};
