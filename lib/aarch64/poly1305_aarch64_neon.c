/* poly1305_aarch64_neon.c -- aarch64 NEON kernel: radix 2^26, four blocks per step */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */

/*
 * The kernel is simd/neon.h's, shared with arm-neon (AArch32).  On cores
 * whose scalar multiplier is much stronger than their NEON unit
 * (ThunderX2, by OpenSSL's figures) the vector path does not win at all;
 * such a core can select generic-r64 by name.
 */

#include "../simd/neon.h"
#include "../registry.h"

#ifdef POLYMAC_R64_ASM_A64
/* the batch entry: two messages at a time in scalar radix 2^64 (one
 * message per NEON lane would cost 25 products a block, against 7
 * scalar multiplies; generic/r64_pairs.h) */
#include "../generic/r64_pairs.h"
#define NEON_LANES .lanes = &polymac_pairs_lanes
#else
#define NEON_LANES .lanes = NULL
#endif

/* stack: the deepest frames -fstack-usage gives, rounded up with room to
 * spare; test_stack checks it under qemu-user */
POLYMAC_NEON_KERNEL(aarch64_neon, "aarch64-neon",
                    .stack_bytes = 512,       /* deepest measured: 304 (blocks, GCC 12) */
                    NEON_LANES);
