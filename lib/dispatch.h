/* dispatch.h -- the self-test and kernel selection (internal) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_DISPATCH_H
#define POLYMAC_DISPATCH_H

#include "polymac.h"
#include "registry.h"

#include <stdatomic.h>

/* Returned by the MAC functions when no kernel of this build passed its
 * self-test (documented in the README; the public header may define it). */
#ifndef POLYMAC_ENOKERNEL
#define POLYMAC_ENOKERNEL -6
#endif

/* The kernel new messages use, once selected (NULL before). */
extern _Atomic(const struct polymac_kernel *) polymac_active_kernel;

/* Selects the kernel on first use (thread-safe) and returns it; NULL when
 * no kernel of this build passed its self-test. */
const struct polymac_kernel *polymac_select_first(void);

/* The shortest message, in bytes, that the front end hands a kernel's
 * auth (below it, and for the AEAD's layouts whose AAD and ciphertext are
 * each below it, the front end runs the radix-2^64 one-shot itself): the
 * smallest cold break-even among the kernels this CPU can run, times 16,
 * so that every kernel would have run such a message in radix 2^64 too.
 * POLYMAC_AUTH_MIN (kernel.h) until the tuning rows are chosen, and where
 * the architecture has none; set before any kernel is published. */
extern _Atomic uint32_t polymac_auth_cut;

static inline size_t polymac_auth_cut_bytes(void)
{
    return atomic_load_explicit(&polymac_auth_cut, memory_order_relaxed);
}

/* The kernel new messages use (NULL when none passed its self-test): one
 * acquire load on the hot path. */
static inline const struct polymac_kernel *polymac_active(void)
{
    const struct polymac_kernel *k =
        atomic_load_explicit(&polymac_active_kernel, memory_order_acquire);
    return k ? k : polymac_select_first();
}

#endif
