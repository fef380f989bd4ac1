/* hook_x86_avx512ifma.c -- test builds only: x86-avx512ifma with its injection hook
 *                          (inject.h), built in place of its source */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../../lib/x86/poly1305_x86_avx512ifma.c"
#include "inject.h"

/* also the live accumulators with t and a pending part (which need the
 * powers: a vector call ran) */
int polymac_test_set_h_x86_avx512ifma(void *ks, const struct polymac_test_h *h)
{
    struct ifma_state *st = ks;
    if (polymac_simd_test_set_r64(&st->sm, h) == 0)
        return 0;
    if (h->form == POLYMAC_TEST_LANES && st->sm.powers >= IFMA_LEVEL && h->t < 16) {
        for (unsigned i = 0; i < 3; i++)
            for (unsigned j = 0; j < 16; j++)
                st->v[j / 8][i][j % 8] = h->v[i * 16 + j];
        st->sm.vec = 1;
        st->t = h->t;
        st->pend = h->pending ? 1 : 0;
        if (h->pending) {
            st->sm.sc.h0 = h->x[0];
            st->sm.sc.h1 = h->x[1];
            st->sm.sc.h2 = h->x[2];
        }
        return 0;
    }
    return -1;
}
