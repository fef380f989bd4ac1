/* tune_x86_avx512.c -- the AVX-512F kernel built with its break-evens
 *                      forced, for lab/tune */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "tune.h"

/*
 * TUNE_VARIANT (lab/meson.build builds 0 to 3):
 *   0  the source as the library has it (the values of the row the CPU
 *      probe chose: x86/tuning.c)
 *   1  four lanes only, from the lowest the kernel allows (one group)
 *   2  as 1, and eight lanes from one block
 *   3  no vector path on a warm state (cold from one group, four lanes)
 */
#if TUNE_VARIANT > 3
#error "variants 0 to 3"
#endif
#if TUNE_VARIANT >= 1
#define POLYMAC_AVX512_MIN4_COLD 4
#define POLYMAC_AVX512_MIN4_WARM (TUNE_VARIANT == 3 ? TUNE_NEVER : 4)
#define POLYMAC_AVX512_MIN8_COLD (TUNE_VARIANT == 2 ? 1 : TUNE_NEVER)
#define POLYMAC_AVX512_MIN8_WARM (TUNE_VARIANT == 2 ? 1 : TUNE_NEVER)
#endif

#define polymac_kernel_x86_avx512 TUNE_CAT(tune_x86_avx512_, TUNE_VARIANT)
#include "../lib/x86/poly1305_x86_avx512.c"

#if TUNE_VARIANT == 0
extern struct polymac_kernel tune_x86_avx512_1, tune_x86_avx512_2, tune_x86_avx512_3;

TUNE_COMPILED(min4_cold, POLYMAC_AVX512_MIN4_COLD)
TUNE_COMPILED(min4_warm, POLYMAC_AVX512_MIN4_WARM)
TUNE_COMPILED(min8_cold, POLYMAC_AVX512_MIN8_COLD)
TUNE_COMPILED(min8_warm, POLYMAC_AVX512_MIN8_WARM)

const struct tune_row tune_rows_x86_avx512[] = {
    {"x86-avx512", "POLYMAC_AVX512_MIN4_COLD", min4_cold, TUNE_COLD,
     &tune_x86_avx512_1, NULL, "r64 one-shot", 4, 0},
    {"x86-avx512", "POLYMAC_AVX512_MIN4_WARM", min4_warm, TUNE_WARM,
     &tune_x86_avx512_1, &tune_x86_avx512_3, "scalar", 4, 0},
    /* the baseline of the eight lanes: four from one group, scalar below */
    {"x86-avx512", "POLYMAC_AVX512_MIN8_COLD", min8_cold, TUNE_COLD,
     &tune_x86_avx512_2, &tune_x86_avx512_1, "four lanes", 1, 0},
    {"x86-avx512", "POLYMAC_AVX512_MIN8_WARM", min8_warm, TUNE_WARM,
     &tune_x86_avx512_2, &tune_x86_avx512_1, "four lanes", 1, 0},
    {0},
};
#endif
