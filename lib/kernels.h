/* kernels.h -- every kernel object this build may contain */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_KERNELS_H
#define POLYMAC_KERNELS_H

#include "kernel.h"

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

#endif
