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
#include "registry.h"
#include "util.h"

/* A state's check word: this build's fingerprint bound to v (a kernel
 * index below 256 for polymac_state, 256 + its phase for
 * polymac_aead_state), so that a state begun by another build, or whose
 * recorded value was changed, is refused with POLYMAC_ESTATE. */
static inline uint32_t polymac_bind_to(uint32_t fingerprint, uint32_t v)
{
    return fingerprint ^ (v * UINT32_C(0x9e3779b1));
}

static inline uint32_t polymac_bind(uint32_t v)
{
    return polymac_bind_to(polymac_registry_fingerprint(), v);
}

/* r = key[0..16) with the bits RFC 8439 section 2.5 requires cleared,
 * stored as whole words: a kernel reads r back in words, and byte stores
 * followed by word loads stall store forwarding. */
static inline void polymac_clamp(uint8_t r[16], const uint8_t key[32])
{
    uint64_t r0, r1;
    polymac_clamp64(&r0, &r1, key);
    polymac_store64le(r, r0);
    polymac_store64le(r + 8, r1);
}

/* k's init of ks with r, clamped from key[0..16) (and wiped after). */
void polymac_kernel_init(const struct polymac_kernel *k, void *ks, const uint8_t key[32]);

/* One-shot MAC through k's init, blocks and emit; ks is POLYMAC_KS_BYTES
 * aligned to POLYMAC_KS_ALIGN. */
void polymac_auth_blocks(const struct polymac_kernel *k, void *ks, uint8_t tag[16],
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
void polymac_wipe_dead_stack(const struct polymac_kernel *k);
/* polymac_auth's work with kernel k, without the argument checks: the
 * kernel's auth, else its init, blocks and emit, each under the stack
 * rule (polymac.c; the batch calls and the self-test use it too). */
void polymac_auth_nocheck(const struct polymac_kernel *k, uint8_t tag[16], const uint8_t *msg,
                      size_t len, const uint8_t key[32]);

/* The streaming calls as the library makes them (hidden, never through
 * the PLT): polymac_init's work with a given kernel, polymac_update's
 * body, polymac_final without its argument checks.  The self-test streams
 * its known answers through them. */
struct polymac_state;
void polymac_init_nocheck(const struct polymac_kernel *k, struct polymac_state *st,
                       const uint8_t key[32]);
int polymac_update_nocheck(struct polymac_state *st, const void *msg, size_t len);
int polymac_final_nocheck(struct polymac_state *st, uint8_t tag[16]);

#endif
