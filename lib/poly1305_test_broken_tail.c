/* poly1305_test_broken_tail.c -- a kernel wrong only on a partial group
 *                                after full ones (-Dtest_kernels=true only) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/* "test-broken-tail" is generic-r26 seen as a four-lane kernel with the
 * tail bug a SIMD loop gets: when a call's block count leaves a partial
 * group after one or more full groups, the full groups' sum is multiplied
 * by one power of r too many (a zero block without the 2^128 bit is
 * absorbed between them and the tail), as if the tail were lined up with
 * the wrong power.  Calls of whole groups, and calls shorter than a
 * group, are right: a self-test of 4 and 128 blocks plus a padded final
 * block (the 64- and 2061-byte one-shots) passes it.  Never built into a
 * release: lib/meson.build adds this file only with -Dtest_kernels=true. */
#ifndef POLYMAC_TEST_KERNELS
#error "poly1305_test_broken_tail.c belongs in test builds only (-Dtest_kernels=true)"
#endif
#include "kernels.h"

#define TAIL_GROUP 4

static void polymac_blocks_test_broken_tail(void *ks, const uint8_t *in, size_t nblocks,
                                            uint32_t hibit)
{
    static const uint8_t zero[16];
    size_t full = nblocks - nblocks % TAIL_GROUP;
    if (full == 0 || full == nblocks) {
        polymac_kernel_generic_r26.blocks(ks, in, nblocks, hibit);
        return;
    }
    polymac_kernel_generic_r26.blocks(ks, in, full, hibit);
    polymac_kernel_generic_r26.blocks(ks, zero, 1, 0);        /* the planted fault */
    polymac_kernel_generic_r26.blocks(ks, in + 16 * full, nblocks - full, hibit);
}

static void polymac_init_test_broken_tail(void *ks, const uint8_t r[16])
{
    polymac_kernel_generic_r26.init(ks, r);
}

static void polymac_emit_test_broken_tail(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    polymac_kernel_generic_r26.emit(ks, tag, s);
}

const struct polymac_kernel polymac_kernel_test_broken_tail = {
    .name = "test-broken-tail",
    .cpu_required = 0,
    .init = polymac_init_test_broken_tail,
    .blocks = polymac_blocks_test_broken_tail,
    .emit = polymac_emit_test_broken_tail,
    .stack_bytes = 2048,      /* generic-r26's */
    .stack_bytes_short = 512,
};
