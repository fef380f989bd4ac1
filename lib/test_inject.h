/* test_inject.h -- test builds only: set a kernel state's accumulator to
 *                  given limbs, to run the kernels from the largest values
 *                  their invariants allow (test/test_inject.c) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_TEST_INJECT_H
#define POLYMAC_TEST_INJECT_H

#ifndef POLYMAC_TEST_KERNELS
#error "test_inject.h is for -Dtest_kernels=true builds only"
#endif

#include "kernel.h"

/* The forms h takes in a kernel state between calls. */
enum polymac_test_form {
    /* v[0..2] = h0, h1, h2 of struct polymac_r64: h = h0 + h1 2^64 +
     * h2 2^128 (the scalar code of every kernel below its break-even) */
    POLYMAC_TEST_R64 = 1,
    /* v[0..4]: h = sum v[i] 2^(26 i) (generic-r26, generic-r26x2, and the
     * x86 radix-2^26 kernels' h26 after a vector call) */
    POLYMAC_TEST_R26,
    /* a kernel's vector lanes kept unmerged between calls; limb i of lane j
     * at v[i * lanes + j].  x86-avx2: five radix-2^26 limbs of 4 lanes.
     * x86-avx512ifma: three radix-2^44 limbs of 16 lanes (lanes 0-7 the
     * first set, 8-15 the second), plus the pending radix-2^64 part x when
     * pending is 1, and t: h = (lanes) r^t + x.  The state must hold the
     * powers (a vector call ran) */
    POLYMAC_TEST_LANES,
};

struct polymac_test_h {
    int form;
    uint64_t v[48];
    uint64_t x[3];
    unsigned pending, t;
};

/* Sets the accumulator of ks, a state of kernel k, to h (and the flags
 * that say where h lives), leaving r, the powers and the counters as they
 * are.  Returns 0, or -1 when k keeps h in no such form or the state is
 * not ready for it (lanes before the powers exist). */
int polymac_test_set_h(const struct polymac_kernel *k, void *ks,
                       const struct polymac_test_h *h);

/* each kernel's part, in its own file */
int polymac_test_set_h_generic_r26(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_generic_r26x2(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_generic_r64(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_x86_avx2(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_x86_avx512(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_x86_avx512ifma(void *ks, const struct polymac_test_h *h);

#endif
