/* hook_generic_r26x2.c -- test builds only: generic-r26x2 with its injection hook
 *                         (inject.h), built in place of its source */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include "../../lib/generic/poly1305_generic_r26x2.c"
#include "inject.h"

int polymac_test_set_h_generic_r26x2(void *ks, const struct polymac_test_h *h)
{
    return polymac_r26_test_set_h(((struct r26x2_state *)ks)->h, h);
}
