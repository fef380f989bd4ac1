/* inject.c -- test builds only: sets a kernel state's accumulator through
 *             the kernel's own hook (inject.h) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "registry.h"
#include "inject.h"

int polymac_test_set_h(const struct polymac_kernel *k, void *ks,
                       const struct polymac_test_h *h)
{
    if (k == &polymac_kernel_generic_r26)
        return polymac_test_set_h_generic_r26(ks, h);
    if (k == &polymac_kernel_generic_r26x2)
        return polymac_test_set_h_generic_r26x2(ks, h);
#ifdef POLYMAC_HAVE_R64
    if (k == &polymac_kernel_generic_r64)
        return polymac_test_set_h_generic_r64(ks, h);
#endif
#ifdef POLYMAC_HAVE_AVX2
    if (k == &polymac_kernel_x86_avx2)
        return polymac_test_set_h_x86_avx2(ks, h);
#endif
#ifdef POLYMAC_HAVE_AVX512
    if (k == &polymac_kernel_x86_avx512)
        return polymac_test_set_h_x86_avx512(ks, h);
#endif
#ifdef POLYMAC_HAVE_AVX512IFMA
    if (k == &polymac_kernel_x86_avx512ifma)
        return polymac_test_set_h_x86_avx512ifma(ks, h);
#endif
    return -1;
}
