/* dispatch.h -- kernel registry, selection and the self-test (internal) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_DISPATCH_H
#define POLYMAC_DISPATCH_H

#include "polymac.h"
#include "kernel.h"

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

/* The kernel new messages use (NULL when none passed its self-test): one
 * acquire load on the hot path. */
static inline const struct polymac_kernel *polymac_active(void)
{
    const struct polymac_kernel *k =
        atomic_load_explicit(&polymac_active_kernel, memory_order_acquire);
    return k ? k : polymac_select_first();
}

/* Registry index of k, for recording in a state. */
unsigned polymac_kernel_index(const struct polymac_kernel *k);

/* Nonzero hash of this build's version and registry (the kernel names in
 * order), recorded in a state beside the kernel index: a state begun by a
 * build whose registry differs (another copy of the library in the same
 * process, a state shared between processes) is refused, never misread. */
uint32_t polymac_registry_fingerprint_slow(void);
extern _Atomic uint32_t polymac_fingerprint;

static inline uint32_t polymac_registry_fingerprint(void)
{
    uint32_t f = atomic_load_explicit(&polymac_fingerprint, memory_order_relaxed);
    return f ? f : polymac_registry_fingerprint_slow();
}

extern const struct polymac_kernel *const polymac_registry[];
/* How many kernels polymac_registry holds. */
extern const unsigned polymac_registry_size;
/* Bit i set: registry[i] was checked (in range, runnable on this CPU). */
extern _Atomic uint32_t polymac_runnable;

/* The checks behind polymac_kernel_at; sets the kernel's runnable bit. */
const struct polymac_kernel *polymac_kernel_at_slow(unsigned idx);

/* The kernel at registry index idx, or NULL when idx is out of range or
 * the kernel cannot run on this CPU: a state's recorded index is checked
 * here on every entry, so a forged state never becomes a wild jump.  A bit
 * is set only after the full check, so the fast path cannot admit an
 * index the slow path would refuse. */
static inline const struct polymac_kernel *polymac_kernel_at(unsigned idx)
{
    if (idx < 32
        && ((atomic_load_explicit(&polymac_runnable, memory_order_relaxed) >> idx) & 1))
        return polymac_registry[idx];
    return polymac_kernel_at_slow(idx);
}

/* One-shot MAC with a given kernel; ks is POLYMAC_KS_BYTES aligned to
 * POLYMAC_KS_ALIGN.  Shared by polymac_auth and the self-test. */
void polymac_auth_with(const struct polymac_kernel *k, void *ks, uint8_t tag[16],
                       const uint8_t *msg, size_t len, const uint8_t key[32]);

/* 0 when the tags are equal, POLYMAC_EBADTAG otherwise, without a branch
 * or an early exit on the data: every verify call compares with this. */
static inline int polymac_compare_tags(const uint8_t a[16], const uint8_t b[16])
{
    unsigned diff = 0;
    for (int i = 0; i < 16; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    unsigned bad = (diff + 0xff) >> 8;            /* 1 iff diff != 0 */
    return -(int)bad & POLYMAC_EBADTAG;
}

/* The front end's stack policy (lib/polymac.c): zeroes k->stack_bytes of
 * the dead stack below the caller's frame, where a kernel call made from
 * that frame may have left key-derived values. */
void polymac_after_kernel(const struct polymac_kernel *k);
/* The front end's radix-2^64 one-shot under that policy (out of line and
 * followed by a zeroing where r64.h's loop is C, lib/polymac.c). */
void polymac_auth_scalar(uint8_t tag[16], const uint8_t *msg, size_t len,
                         const uint8_t key[32]);

/* The streaming calls as the library makes them (hidden, never through
 * the PLT): polymac_init's work with a given kernel, polymac_update's
 * body, polymac_final without its argument checks.  The self-test streams
 * its known answers through them. */
struct polymac_state;
void polymac_init_with(const struct polymac_kernel *k, struct polymac_state *st,
                       const uint8_t key[32]);
int polymac_update_impl(struct polymac_state *st, const void *msg, size_t len);
int polymac_final_impl(struct polymac_state *st, uint8_t tag[16]);

#endif
