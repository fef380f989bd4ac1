/* hook_x86_avx512.c -- test builds only: x86-avx512 with its injection hook
 *                      (inject.h), built in place of its source */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../../lib/x86/poly1305_x86_avx512.c"
#include "inject.h"

int polymac_test_set_h_x86_avx512(void *ks, const struct polymac_test_h *h)
{
    struct avx512_state *st = ks;
    return polymac_r26vec_test_set_h(&st->v, h);
}
