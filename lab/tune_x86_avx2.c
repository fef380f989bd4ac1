/* tune_x86_avx2.c -- the AVX2 kernel built with its break-evens forced,
 *                    for lab/tune */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "tune.h"

/*
 * TUNE_VARIANT (lab/meson.build builds 0 to 4):
 *   0  the source as the library has it (the values of the row the CPU
 *      probe chose: x86/tuning.c)
 *   1  COLD and WARM at the lowest the kernel allows (one group of four)
 *   2  as 1, WARM never: a call on a warm state runs the scalar code
 *   3  as 1, R8 at 1: the first vector call makes r^8
 *   4  as 1, R8 never: the one-group loop only
 */
#if TUNE_VARIANT > 4
#error "variants 0 to 4"
#endif
#if TUNE_VARIANT >= 1
#define POLYMAC_AVX2_COLD 4
#define POLYMAC_AVX2_WARM (TUNE_VARIANT == 2 ? TUNE_NEVER : 4)
#endif
#if TUNE_VARIANT == 3
#define POLYMAC_AVX2_R8 1
#elif TUNE_VARIANT == 4
#define POLYMAC_AVX2_R8 TUNE_NEVER
#endif

#define polymac_kernel_x86_avx2 TUNE_CAT(tune_x86_avx2_, TUNE_VARIANT)
#include "../lib/x86/poly1305_x86_avx2.c"

#if TUNE_VARIANT == 0
extern struct polymac_kernel tune_x86_avx2_1, tune_x86_avx2_2, tune_x86_avx2_3,
    tune_x86_avx2_4;

TUNE_COMPILED(avx2_cold, POLYMAC_AVX2_COLD)
TUNE_COMPILED(avx2_warm, POLYMAC_AVX2_WARM)
TUNE_COMPILED(avx2_r8, POLYMAC_AVX2_R8)

const struct tune_row tune_rows_x86_avx2[] = {
    {"x86-avx2", "POLYMAC_AVX2_COLD", avx2_cold, TUNE_COLD,
     &tune_x86_avx2_1, NULL, "r64 one-shot", 4, 0},
    {"x86-avx2", "POLYMAC_AVX2_WARM", avx2_warm, TUNE_WARM,
     &tune_x86_avx2_1, &tune_x86_avx2_2, "scalar", 4, 0},
    {"x86-avx2", "POLYMAC_AVX2_R8", avx2_r8, TUNE_COLD,
     &tune_x86_avx2_3, &tune_x86_avx2_4, "one-group loop", 4, 0},
    {0},
};
#endif
