/* registry.c -- the kernels this build holds (best first), their indexes
 *               and the build's fingerprint */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdatomic.h>

#include "polymac.h"
#include "registry.h"
#include "registry.h"

/* Best first: the first kernel whose cpu_required bits the CPU has (and
 * that passes its self-test) is chosen automatically. */
const struct polymac_kernel *const polymac_registry[] = {
#ifdef POLYMAC_TEST_KERNELS
    &polymac_kernel_test_broken,
    &polymac_kernel_test_broken_tail,
    &polymac_kernel_test_broken_stream,
#endif
#ifdef POLYMAC_HAVE_AVX512IFMA
    &polymac_kernel_x86_avx512ifma,
#endif
#ifdef POLYMAC_HAVE_AVX512
    &polymac_kernel_x86_avx512,
#endif
#ifdef POLYMAC_HAVE_AVX2
    &polymac_kernel_x86_avx2,
#endif
#ifdef POLYMAC_HAVE_NEON
    &polymac_kernel_aarch64_neon,
#endif
#ifdef POLYMAC_HAVE_ARM_NEON
    &polymac_kernel_arm_neon,
#endif
#ifdef POLYMAC_HAVE_P9
    &polymac_kernel_power_p9,
#endif
#ifdef POLYMAC_HAVE_VSX
    &polymac_kernel_power_vsx,
#endif
#ifdef POLYMAC_HAVE_S390X_VX
    &polymac_kernel_s390x_vx,
#endif
#ifdef POLYMAC_HAVE_R64
    &polymac_kernel_generic_r64,
#endif
    &polymac_kernel_generic_r26x2,
    &polymac_kernel_generic_r26,
};
#define NKERNELS (sizeof polymac_registry / sizeof polymac_registry[0])
_Static_assert(NKERNELS <= 32, "runnable bits fit");
_Static_assert(NKERNELS <= POLYMAC_NKERNELS, "verdicts fit");
const unsigned polymac_registry_size = NKERNELS;

_Atomic uint32_t polymac_runnable;

/* The CPU has every feature the kernel needs. */
int polymac_kernel_supported(const struct polymac_kernel *k)
{
    return (k->cpu_required & ~polymac_cpu_bits()) == 0;
}

unsigned polymac_kernel_index(const struct polymac_kernel *k)
{
    for (unsigned i = 0; i < NKERNELS; i++)
        if (polymac_registry[i] == k)
            return i;
    return 0;
}

_Atomic uint32_t polymac_fingerprint;

uint32_t polymac_registry_fingerprint_compute(void)
{
    /* FNV-1a over the version and the names, each with its terminator */
    uint32_t h = 2166136261u;
    for (unsigned i = 0; i <= NKERNELS; i++) {
        const char *p = i == 0 ? POLYMAC_VERSION : polymac_registry[i - 1]->name;
        do
            h = (h ^ (unsigned char)*p) * 16777619u;
        while (*p++);
    }
    if (h == 0)
        h = 1;
    atomic_store_explicit(&polymac_fingerprint, h, memory_order_relaxed);
    return h;
}

const struct polymac_kernel *polymac_kernel_at_lookup(unsigned idx)
{
    if (idx >= NKERNELS || !polymac_kernel_supported(polymac_registry[idx]))
        return NULL;
    atomic_fetch_or_explicit(&polymac_runnable, 1u << idx, memory_order_relaxed);
    return polymac_registry[idx];
}
