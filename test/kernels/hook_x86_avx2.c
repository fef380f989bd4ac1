/* hook_x86_avx2.c -- test builds only: x86-avx2 with its injection hook
 *                    (inject.h), built in place of its source */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../../lib/x86/poly1305_x86_avx2.c"
#include "inject.h"

/* also the unmerged lanes (which need the table: a vector call ran) */
int polymac_test_set_h_x86_avx2(void *ks, const struct polymac_test_h *h)
{
    struct avx2_state *st = ks;
    if (polymac_r26vec_test_set_h(&st->v, h) == 0) {
        st->lanes_live = 0;
        return 0;
    }
    if (h->form == POLYMAC_TEST_LANES && st->v.s.powers >= 4) {
        memcpy(st->lanes, h->v, sizeof st->lanes);
        st->lanes_live = 1;
        st->lanes_used = 1;
        st->v.s.vec = 1;
        return 0;
    }
    return -1;
}
