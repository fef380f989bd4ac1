/* poly1305_generic_r26x2.c -- portable kernel: radix 2^26, two blocks a step
 *                             ((h + m1) r^2 + m2 r, one carry chain per pair) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "r26.h"
#include "../registry.h"

struct r26x2_state {
    struct polymac_r26_key r1, r2;
    uint32_t h[5];
    uint32_t have_r2;            /* 1: r2 holds r^2 for this key */
};
_Static_assert(sizeof(struct r26x2_state) <= POLYMAC_KS_BYTES, "state fits");

static void polymac_init_generic_r26x2(void *ks, const uint8_t r[16])
{
    struct r26x2_state *st = ks;
    polymac_r26_start(&st->r1, st->h, r);
    st->have_r2 = 0;
}

/* r^2, once per key, on the first call with a pair of blocks: a one-block
 * message never pays for it. */
static void r26x2_square(struct r26x2_state *st)
{
    uint32_t l[5];
    uint64_t d[5] = {0, 0, 0, 0, 0};
    polymac_r26_mul_acc(d, st->r1.r, &st->r1);
    polymac_r26_carry(l, d);
    polymac_r26_key_set(&st->r2, l);
    polymac_wipe(l, sizeof l);
    st->have_r2 = 1;
}

static void polymac_blocks_generic_r26x2(void *ks, const uint8_t *in, size_t nblocks,
                                         uint32_t hibit)
{
    struct r26x2_state *st = ks;
    uint32_t h[5], m[5];
    if (nblocks >= 2 && st->have_r2 != 1)
        r26x2_square(st);
    memcpy(h, st->h, sizeof h);
    for (; nblocks >= 2; nblocks -= 2, in += 32) {
        uint64_t d[5] = {0, 0, 0, 0, 0};
        polymac_r26_split(m, in, hibit);
        for (int i = 0; i < 5; i++)
            h[i] += m[i];
        polymac_r26_mul_acc(d, h, &st->r2);
        polymac_r26_split(m, in + 16, hibit);
        polymac_r26_mul_acc(d, m, &st->r1);
        polymac_r26_carry(h, d);
    }
    if (nblocks)
        polymac_r26_block(h, in, hibit, &st->r1);
    memcpy(st->h, h, sizeof h);
}

/* deepest frame: 240 bytes (-fstack-usage, i386), below the 512 the
 * front end zeroes */
POLYMAC_R26_KERNEL(generic_r26x2, "generic-r26x2", struct r26x2_state)
