/* tune_x86_avx512ifma.c -- the AVX-512 IFMA kernel built with its
 *                          break-evens forced, for lab/tune */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "tune.h"

/*
 * TUNE_VARIANT (lab/meson.build builds 0 to 3):
 *   0  the source as the library has it (the values of the row the CPU
 *      probe chose: x86/tuning.c)
 *   1  every threshold at 1: the vector path for any call
 *   2  as 1, WARM never: no call takes the vector path (its calls
 *      below the cold break-even, too, must reach WARM)
 *   3  as 1, LANES at 16: a call of fewer blocks on live lanes goes
 *      through the scalar code into the pending part
 */
#if TUNE_VARIANT > 3
#error "variants 0 to 3"
#endif
#if TUNE_VARIANT >= 1
#define POLYMAC_IFMA_COLD 1
#define POLYMAC_IFMA_WARM (TUNE_VARIANT == 2 ? TUNE_NEVER : 1)
#define POLYMAC_IFMA_LIVE (TUNE_VARIANT == 3 ? 16 : 1)
#endif

#define polymac_kernel_x86_avx512ifma TUNE_CAT(tune_x86_avx512ifma_, TUNE_VARIANT)
#include "../lib/x86/poly1305_x86_avx512ifma.c"

#if TUNE_VARIANT == 0
extern struct polymac_kernel tune_x86_avx512ifma_1, tune_x86_avx512ifma_2,
    tune_x86_avx512ifma_3;

TUNE_COMPILED(compiled_cold, POLYMAC_IFMA_COLD)
TUNE_COMPILED(compiled_warm, POLYMAC_IFMA_WARM)
TUNE_COMPILED(compiled_live, POLYMAC_IFMA_LIVE)

const struct tune_row tune_rows_x86_avx512ifma[] = {
    {"x86-avx512ifma", "POLYMAC_IFMA_COLD", compiled_cold, TUNE_COLD,
     &tune_x86_avx512ifma_1, NULL, "r64 one-shot", 1, 0},
    /* a vector call leaves the lanes live, and live lanes never read
     * WARM: what it decides is a stream's first vector call, so it is
     * timed from a state without powers (TUNE_FIRST) */
    {"x86-avx512ifma", "POLYMAC_IFMA_WARM", compiled_warm, TUNE_FIRST,
     &tune_x86_avx512ifma_1, &tune_x86_avx512ifma_2, "scalar", 1, 0},
    /* 16 blocks and more are whole groups on either build */
    {"x86-avx512ifma", "POLYMAC_IFMA_LIVE", compiled_live, TUNE_LIVE,
     &tune_x86_avx512ifma_1, &tune_x86_avx512ifma_3, "scalar, pending", 1, 15},
    {0},
};
#endif
