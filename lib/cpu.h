/* cpu.h -- CPU feature bits the dispatcher matches against kernels */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_CPU_H
#define POLYMAC_CPU_H

#include <stdint.h>

/* One bit per instruction-set feature a kernel may need.  A bit is set only
 * when both the CPU and the operating system support it (for AVX and AVX-512
 * that means XCR0 enables the registers; cpu_features checks this). */
#define POLYMAC_CPU_X86_AVX2        (1u << 0)
#define POLYMAC_CPU_X86_AVX512F     (1u << 1)   /* F + VL + BW */
#define POLYMAC_CPU_X86_AVX512IFMA  (1u << 2)   /* IFMA + VL */
#define POLYMAC_CPU_ARM_NEON        (1u << 8)
#define POLYMAC_CPU_PPC_VSX         (1u << 12)  /* ISA 2.07 (POWER8) */
#define POLYMAC_CPU_PPC_ISA300      (1u << 13)  /* ISA 3.0 (POWER9) */
#define POLYMAC_CPU_PPC_ISA310      (1u << 14)  /* ISA 3.1 (POWER10): power-p9 is
                                                   slower there than power-vsx */
#define POLYMAC_CPU_S390X_VX        (1u << 16)  /* z13 vector facility */

/* Not a feature but a property: 512-bit instructions lower the core clock
 * (Intel Skylake-SP / Cascade Lake / Cooper Lake).  Automatic selection
 * avoids kernels that list this bit in cpu_avoid. */
#define POLYMAC_CPU_X86_ZMM_DOWNCLOCK (1u << 30)

/* The bits of the running CPU; probed once, cheap afterwards.
 * Thread-safe: the probe is idempotent. */
uint32_t polymac_cpu_bits(void);

/* What the CPU is, for the kernels' folders to look up their tuning in
 * (lib/x86/tuning.c): on x86-64 CPUID's vendor, and family and model as
 * /proc/cpuinfo prints them (base plus extended); zero elsewhere.  The
 * probe knows no kernel's thresholds. */
#define POLYMAC_CPU_VENDOR_OTHER 0u
#define POLYMAC_CPU_VENDOR_INTEL 1u
#define POLYMAC_CPU_VENDOR_AMD 2u
struct polymac_cpu_id {
    uint32_t vendor, family, model;
};
struct polymac_cpu_id polymac_cpu_id(void);

/* Writes a space-separated list of the feature names in bits to buf
 * (always NUL-terminated when cap > 0). */
void polymac_cpu_describe(uint32_t bits, char *buf, unsigned cap);

#endif
