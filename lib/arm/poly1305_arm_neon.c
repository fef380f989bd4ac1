/* poly1305_arm_neon.c -- AArch32 (ARMv7-A) NEON kernel: radix 2^26, four blocks per step */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */

/*
 * The kernel is simd/neon.h's, shared with aarch64-neon.  NEON is an
 * option of ARMv7-A (Debian's armhf baseline is VFPv3-D16 without it:
 * NVIDIA Tegra 2, Marvell Armada 370/XP), so this file alone is built
 * with -mfpu=neon and the dispatcher runs it only where HWCAP_NEON says
 * the CPU has it.  Short messages and the blocks short of a group run
 * r64.h's scalar code in 32-bit words.  No batch entry: two messages in
 * the scalar loop would only interleave 32-bit multiplies, which the
 * loop already has enough of.
 */

#include "../simd/neon.h"
#include "../registry.h"

/* stack: the deepest frames -fstack-usage gives, rounded up with room to
 * spare; test_stack checks it under qemu-user */
POLYMAC_NEON_KERNEL(arm_neon, "arm-neon",
                    .stack_bytes = 1024,      /* above -fstack-usage's deepest (docs/log.md) */
                    .lanes = NULL);
