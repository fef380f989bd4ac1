/* poly1305_generic_r26.c -- portable kernel: radix 2^26, one block a step */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "r26.h"
#include "../registry.h"

struct r26_state {
    struct polymac_r26_key key;
    uint32_t h[5];
};
_Static_assert(sizeof(struct r26_state) <= POLYMAC_KS_BYTES, "state fits");

static void polymac_init_generic_r26(void *ks, const uint8_t r[16])
{
    struct r26_state *st = ks;
    polymac_r26_start(&st->key, st->h, r);
}

static void polymac_blocks_generic_r26(void *ks, const uint8_t *in, size_t nblocks,
                                       uint32_t hibit)
{
    struct r26_state *st = ks;
    uint32_t h[5];
    memcpy(h, st->h, sizeof h);
    for (; nblocks; nblocks--, in += 16)
        polymac_r26_block(h, in, hibit, &st->key);
    memcpy(st->h, h, sizeof h);
}

/* deepest frame: 152 bytes (-fstack-usage, i386), below the 512 the
 * front end zeroes */
POLYMAC_R26_KERNEL(generic_r26, "generic-r26", struct r26_state)
