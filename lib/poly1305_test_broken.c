/* poly1305_test_broken.c -- a deliberately wrong kernel for testing the
 *                           dispatcher's self-test (-Dtest_kernels=true only) */
/* SPDX-License-Identifier: MIT */
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
#include "generic/r26.h"
#include "kernels.h"

#define BROKEN_VECTOR_BLOCKS 8

struct broken_state {
    struct polymac_r26_key key;
    uint32_t h[5];
};
_Static_assert(sizeof(struct broken_state) <= POLYMAC_KS_BYTES, "state fits");

static void polymac_init_test_broken(void *ks, const uint8_t r[16])
{
    struct broken_state *st = ks;
    uint32_t l[5];
    polymac_r26_split(l, r, 0);
    polymac_r26_key_set(&st->key, l);
    memset(st->h, 0, sizeof st->h);
}

static void polymac_blocks_test_broken(void *ks, const uint8_t *in, size_t nblocks,
                                       uint32_t hibit)
{
    struct broken_state *st = ks;
    uint32_t h[5], m[5];
    if (nblocks >= BROKEN_VECTOR_BLOCKS)
        nblocks--;                        /* the planted fault */
    memcpy(h, st->h, sizeof h);
    for (; nblocks; nblocks--, in += 16) {
        uint64_t d[5] = {0, 0, 0, 0, 0};
        polymac_r26_split(m, in, hibit);
        for (int i = 0; i < 5; i++)
            h[i] += m[i];
        polymac_r26_mul_acc(d, h, &st->key);
        polymac_r26_carry(h, d);
    }
    memcpy(st->h, h, sizeof h);
}

static void polymac_emit_test_broken(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    struct broken_state *st = ks;
    polymac_r26_finish(st->h, tag, s);
    polymac_wipe(st, sizeof *st);
}

const struct polymac_kernel polymac_kernel_test_broken = {
    .name = "test-broken",
    .cpu_required = 0,
    .init = polymac_init_test_broken,
    .blocks = polymac_blocks_test_broken,
    .emit = polymac_emit_test_broken,
};
