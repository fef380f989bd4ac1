/* poly1305_generic_r64.c -- portable kernel: radix 2^64 with 64x64->128 multiplies */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "r64.h"
#include "../registry.h"
#if defined(POLYMAC_R64_ASM) || defined(POLYMAC_R64_ASM_A64) || defined(POLYMAC_PAIRS_PPC64)
/* x86-64, aarch64 and ppc64le: the batch entry of the SIMD kernels there,
 * two messages at a time in this kernel's own steps (elsewhere, and
 * where r64.h has no assembly, a batch runs the one-shot path) */
#define GENERIC_R64_PAIRS 1
#include "r64_pairs.h"
#endif

_Static_assert(sizeof(struct polymac_r64) <= POLYMAC_KS_BYTES, "state fits");

static void polymac_init_generic_r64(void *ks, const uint8_t r[16])
{
    polymac_r64_init(ks, r);
}

static void polymac_blocks_generic_r64(void *ks, const uint8_t *in, size_t nblocks,
                                       uint32_t hibit)
{
    polymac_r64_blocks(ks, in, nblocks, hibit);
}

static void polymac_emit_generic_r64(void *ks, uint8_t tag[16], const uint8_t s[16])
{
    polymac_r64_emit(ks, tag, s);
}

/* the one-shot with h, r and the key in registers at any length */
static int polymac_auth_generic_r64(uint8_t tag[16], const uint8_t *msg, size_t len,
                                    const uint8_t key[32])
{
    polymac_r64_oneshot(tag, msg, len, key);
    return 0;
}

const struct polymac_kernel polymac_kernel_generic_r64 = {
    .name = "generic-r64",
    .init = polymac_init_generic_r64,
    .blocks = polymac_blocks_generic_r64,
    .emit = polymac_emit_generic_r64,
    .auth = polymac_auth_generic_r64,
#ifdef POLYMAC_R64_ASM
    .stack_bytes = 0,         /* h, r and the key stay in registers; the
                                 pairs zero their own frames */
#else
    .stack_bytes = 256,       /* C: GCC 12 spills r on s390x (a 240-byte frame) */
#endif
#ifdef GENERIC_R64_PAIRS
    .lanes = &polymac_pairs_lanes,
#endif
};

