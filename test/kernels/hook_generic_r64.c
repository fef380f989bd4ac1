/* hook_generic_r64.c -- test builds only: generic-r64 with its injection hook
 *                       (inject.h), built in place of its source */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../../lib/generic/poly1305_generic_r64.c"
#include "inject.h"

int polymac_test_set_h_generic_r64(void *ks, const struct polymac_test_h *h)
{
    struct polymac_r64 *st = ks;
    if (h->form != POLYMAC_TEST_R64)
        return -1;
    st->h0 = h->v[0];
    st->h1 = h->v[1];
    st->h2 = h->v[2];
    return 0;
}
