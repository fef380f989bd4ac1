/* inject.h -- test builds only: set a kernel state's accumulator to given
 *             limbs, to run the kernels from the largest values their
 *             invariants allow (test/trust/test_inject.c) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_TEST_INJECT_H
#define POLYMAC_TEST_INJECT_H

#ifndef POLYMAC_TEST_KERNELS
#error "inject.h is for -Dtest_kernels=true builds only"
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

/* each kernel's part: hook_<kernel>.c, which compiles the kernel's
 * source with its hook after it */
int polymac_test_set_h_generic_r26(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_generic_r26x2(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_generic_r64(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_x86_avx2(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_x86_avx512(void *ks, const struct polymac_test_h *h);
int polymac_test_set_h_x86_avx512ifma(void *ks, const struct polymac_test_h *h);

/* The hooks' shared parts, for the kernel sources included before this
 * header: h in radix 2^64 in the skeleton's scalar part, and in h26 of
 * the x86 radix-2^26 kernels.  0, or -1 for another form. */
#ifdef POLYMAC_SIMD_SKELETON_H
static inline int polymac_simd_test_set_r64(struct polymac_simd *s,
                                            const struct polymac_test_h *h)
{
    if (h->form != POLYMAC_TEST_R64)
        return -1;
    s->sc.h0 = h->v[0];
    s->sc.h1 = h->v[1];
    s->sc.h2 = h->v[2];
    s->vec = 0;
    return 0;
}
#endif

#ifdef POLYMAC_R26VEC_H
static inline int polymac_r26vec_test_set_h(struct polymac_r26vec *v,
                                            const struct polymac_test_h *h)
{
    if (polymac_simd_test_set_r64(&v->s, h) == 0)
        return 0;
    if (h->form == POLYMAC_TEST_R26) {
        memcpy(v->h26, h->v, sizeof v->h26);
        v->s.vec = 1;
        return 0;
    }
    return -1;
}
#endif

/* generic-r26's and generic-r26x2's h[5] */
static inline int polymac_r26_test_set_h(uint32_t h[5], const struct polymac_test_h *v)
{
    if (v->form != POLYMAC_TEST_R26)
        return -1;
    for (int i = 0; i < 5; i++)
        h[i] = (uint32_t)v->v[i];
    return 0;
}

#endif
