/* registry.h -- every kernel object this build may contain, the registry
 *               of them, their indexes and the build's fingerprint
 *               (internal) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_REGISTRY_H
#define POLYMAC_REGISTRY_H

#include <stdatomic.h>
#include <stdint.h>

#include "kernel.h"

/* The kernels, each defined in its own file (the POLYMAC_HAVE_* macros
 * come from lib/meson.build, for the kernels the compiler could build). */
extern const struct polymac_kernel polymac_kernel_generic_r26;
extern const struct polymac_kernel polymac_kernel_generic_r26x2;
#if defined(__SIZEOF_INT128__)
#define POLYMAC_HAVE_R64 1
extern const struct polymac_kernel polymac_kernel_generic_r64;
#endif
#ifdef POLYMAC_HAVE_AVX2
extern const struct polymac_kernel polymac_kernel_x86_avx2;
#endif
#ifdef POLYMAC_HAVE_AVX512
extern const struct polymac_kernel polymac_kernel_x86_avx512;
#endif
#ifdef POLYMAC_HAVE_AVX512IFMA
extern const struct polymac_kernel polymac_kernel_x86_avx512ifma;
#endif
#ifdef POLYMAC_HAVE_NEON
extern const struct polymac_kernel polymac_kernel_aarch64_neon;
#endif
#ifdef POLYMAC_HAVE_ARM_NEON
extern const struct polymac_kernel polymac_kernel_arm_neon;
#endif
#ifdef POLYMAC_HAVE_VSX
extern const struct polymac_kernel polymac_kernel_power_vsx;
#endif
#ifdef POLYMAC_HAVE_P9
extern const struct polymac_kernel polymac_kernel_power_p9;
#endif
#ifdef POLYMAC_HAVE_S390X_VX
extern const struct polymac_kernel polymac_kernel_s390x_vx;
#endif

#ifdef POLYMAC_TEST_KERNELS
/* test builds only (-Dtest_kernels=true): wrong on its vector path, on a
 * partial group after full ones, on a stream's continued lanes */
extern const struct polymac_kernel polymac_kernel_test_broken;
extern const struct polymac_kernel polymac_kernel_test_broken_tail;
extern const struct polymac_kernel polymac_kernel_test_broken_stream;
#endif

/* An upper bound on the registry's size (registry.c checks it), for
 * arrays indexed by kernel. */
#define POLYMAC_NKERNELS 32

/* The CPU has every feature k needs. */
int polymac_kernel_supported(const struct polymac_kernel *k);

/* Registry index of k, for recording in a state. */
unsigned polymac_kernel_index(const struct polymac_kernel *k);

/* Nonzero hash of this build's version and registry (the kernel names in
 * order), recorded in a state beside the kernel index: a state begun by a
 * build whose registry differs (another copy of the library in the same
 * process, a state shared between processes) is refused, never misread. */
uint32_t polymac_registry_fingerprint_compute(void);
extern _Atomic uint32_t polymac_fingerprint;

static inline uint32_t polymac_registry_fingerprint(void)
{
    uint32_t f = atomic_load_explicit(&polymac_fingerprint, memory_order_relaxed);
    return f ? f : polymac_registry_fingerprint_compute();
}

extern const struct polymac_kernel *const polymac_registry[];
/* How many kernels polymac_registry holds. */
extern const unsigned polymac_registry_size;
/* Bit i set: registry[i] was checked (in range, runnable on this CPU). */
extern _Atomic uint32_t polymac_runnable;

/* The checks behind polymac_kernel_at; sets the kernel's runnable bit. */
const struct polymac_kernel *polymac_kernel_at_lookup(unsigned idx);

/* The kernel at registry index idx when its runnable bit is set, else
 * NULL (not checked yet, or not runnable): polymac_kernel_at's fast path,
 * with no call. */
static inline const struct polymac_kernel *polymac_kernel_marked(unsigned idx)
{
    if (idx < 32
        && ((atomic_load_explicit(&polymac_runnable, memory_order_relaxed) >> idx) & 1))
        return polymac_registry[idx];
    return NULL;
}

/* The kernel at registry index idx, or NULL when idx is out of range or
 * the kernel cannot run on this CPU: a state's recorded index is checked
 * here on every entry, so a forged state never becomes a wild jump.  A bit
 * is set only after the full check, so the fast path cannot admit an
 * index the slow path would refuse. */
static inline const struct polymac_kernel *polymac_kernel_at(unsigned idx)
{
    const struct polymac_kernel *k = polymac_kernel_marked(idx);
    return k ? k : polymac_kernel_at_lookup(idx);
}

#endif
