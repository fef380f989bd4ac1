/* core.h -- the front end's core: one-shot and streamed MACs through a
 *           given kernel, under the stack policy (internal) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_CORE_H
#define POLYMAC_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "polymac.h"
#include "kernel.h"

/* The longest one-shot message the front end computes inline for k
 * (kernel.h: scalar_max, or the CPU's value where scalar_max_at points). */
static inline size_t polymac_scalar_max(const struct polymac_kernel *k)
{
    return k->scalar_max_at ? *k->scalar_max_at : k->scalar_max;
}

/* One-shot MAC with a given kernel; ks is POLYMAC_KS_BYTES aligned to
 * POLYMAC_KS_ALIGN.  Shared by polymac_auth and the self-test. */
void polymac_auth_with(const struct polymac_kernel *k, void *ks, uint8_t tag[16],
                       const uint8_t *msg, size_t len, const uint8_t key[32]);

/* 0 when the tags are equal, POLYMAC_EBADTAG otherwise, without a branch
 * or an early exit on the data: every verify call compares with this. */
static inline int polymac_compare_tags(const uint8_t a[16], const uint8_t b[16])
{
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a, 8);
    memcpy(&a1, a + 8, 8);
    memcpy(&b0, b, 8);
    memcpy(&b1, b + 8, 8);
    const uint64_t diff = (a0 ^ b0) | (a1 ^ b1);
    const unsigned bad = (unsigned)((diff | (0 - diff)) >> 63);   /* 1 iff diff != 0 */
    return -(int)bad & POLYMAC_EBADTAG;
}

/* The front end's stack policy (core.c): zeroes k->stack_bytes of
 * the dead stack below the caller's frame, where a kernel call made from
 * that frame may have left key-derived values. */
void polymac_after_kernel(const struct polymac_kernel *k);
/* Zeroes n bytes of dead stack below the caller's frame (n a multiple of
 * 8), for code that runs a kernel's scalar path itself. */
void polymac_burn_stack(uint32_t n);
/* polymac_auth's work with kernel k, without the argument checks: the
 * radix-2^64 one-shot up to k's scalar_max, else the kernel's one-shot
 * path, each under that policy (defined in polymac.c; the batch front
 * end runs the messages its lanes do not take through it). */
void polymac_auth_one(const struct polymac_kernel *k, uint8_t tag[16], const uint8_t *msg,
                      size_t len, const uint8_t key[32]);

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
