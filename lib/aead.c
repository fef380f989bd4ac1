/* aead.c -- the ChaCha20-Poly1305 tag of RFC 8439 section 2.8: AAD and
 *           ciphertext each padded with zeros to 16 bytes, then their
 *           lengths; one-shot, streaming and batch, through the kernel
 *           polymac_auth uses */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stddef.h>
#include <string.h>

#include "polymac.h"
#include "dispatch.h"
#include "core.h"
#include "util.h"
#ifdef POLYMAC_HAVE_R64
#include "generic/r64.h"
#endif

/*
 * The padded layout is never built: the kernel absorbs the caller's AAD
 * and ciphertext where they lie, in whole blocks, and only each one's
 * last partial block and the lengths go through a 32-byte block buffer b
 * (zeros after the bytes, hibit 1: unlike Poly1305's own final padding).
 * One absorb, two sinks: SINK(p, nblocks) is a kernel's blocks, or the
 * radix-2^64 code the short messages run (as polymac_auth's below
 * POLYMAC_AUTH_MIN).  A macro, so that the radix-2^64 sink's h and r are
 * plain locals, not a context reached through a pointer.
 */
#define AEAD_ABSORB(SINK, b, aad, alen, ct, clen)                                  \
    do {                                                                           \
        size_t n_ = 0;                                                             \
        if ((alen) >= 16)                                                          \
            SINK((aad), (alen) / 16);                                              \
        if ((alen) % 16) {                                                         \
            pad_zeros((b), (aad) + ((alen) - (alen) % 16), (alen) % 16);           \
            SINK((b), 1);                                                          \
        }                                                                          \
        if ((clen) >= 16)                                                          \
            SINK((ct), (clen) / 16);                                               \
        if ((clen) % 16) {                                                         \
            pad_zeros((b), (ct) + ((clen) - (clen) % 16), (clen) % 16);            \
            n_ = 1;                                                                \
        }                                                                          \
        polymac_store64le((b) + 16 * n_, (uint64_t)(alen));                        \
        polymac_store64le((b) + 16 * n_ + 8, (uint64_t)(clen));                    \
        SINK((b), n_ + 1);                                                         \
        polymac_wipe((b), 32);                                                     \
    } while (0)

/* zeros after the bytes: the block buffer's half holds rest (1..15)
 * bytes of p, then zeros */
static inline void pad_zeros(uint8_t b[16], const uint8_t *p, size_t rest)
{
    memset(b, 0, 16);
    memcpy(b, p, rest);
}

/* Through k's init, blocks and emit, out of line for the same reason as
 * polymac.c's auth_blocks (the 1 KiB kernel state); the dead stack is
 * zeroed from the frame the kernel calls were made from. */
__attribute__((noinline)) static void aead_blocks(const struct polymac_kernel *k,
                                                  uint8_t tag[16], const uint8_t *aad,
                                                  size_t alen, const uint8_t *ct, size_t clen,
                                                  const uint8_t key[32])
{
    _Alignas(POLYMAC_KS_ALIGN) unsigned char ks[POLYMAC_KS_BYTES];
    uint8_t b[32];
    polymac_kernel_init(k, ks, key);
#define KERNEL_SINK(p, n) k->blocks(ks, (p), (n), 1)
    AEAD_ABSORB(KERNEL_SINK, b, aad, alen, ct, clen);
#undef KERNEL_SINK
    k->emit(ks, tag, key + 16);
    polymac_wipe_dead_stack(k);
}

#ifdef POLYMAC_HAVE_R64
/* The radix-2^64 code, h and r in locals as in polymac_r64_auth.  Four
 * block loops keep more live than the registers hold, so GCC spills r,
 * 5 r1 / 4 and h into the frame (test_stack finds them), on x86-64 as
 * elsewhere: out of line, and its dead frame zeroed right after, as deep
 * as AEAD_R64_STACK_BYTES (on x86-64 six pushes, the return address and
 * a frame of at most 120 bytes, GCC 12 and clang 14, release and debug
 * builds: rounded up with room; elsewhere r64.h's depth for its one-shot,
 * whose frames these match). */
#if defined(__x86_64__)
#define AEAD_R64_STACK_BYTES 256
#elif defined(POLYMAC_R64_STACK_BYTES)
#define AEAD_R64_STACK_BYTES POLYMAC_R64_STACK_BYTES
#else
#define AEAD_R64_STACK_BYTES 512
#endif
__attribute__((noinline)) static void r64_aead_frame(uint8_t tag[16], const uint8_t *aad,
                                                     size_t alen, const uint8_t *ct,
                                                     size_t clen, const uint8_t key[32])
{
    uint64_t h[3] = {0, 0, 0}, r0, r1;
    uint8_t b[32];
    polymac_clamp64(&r0, &r1, key);
#define R64_SINK(p, n) polymac_r64_core(h, r0, r1, (p), (n), 1)
    AEAD_ABSORB(R64_SINK, b, aad, alen, ct, clen);
#undef R64_SINK
    polymac_r64_finish(tag, h[0], h[1], h[2], key + 16);
}

static inline void r64_aead_oneshot(uint8_t tag[16], const uint8_t *aad, size_t alen,
                                    const uint8_t *ct, size_t clen, const uint8_t key[32])
{
    r64_aead_frame(tag, aad, alen, ct, clen, key);
    polymac_burn_stack(AEAD_R64_STACK_BYTES);
}
#endif

/* One tag with kernel k: the padded layout under POLYMAC_AUTH_MIN bytes
 * in radix 2^64 where k has an auth (polymac_auth's rule), else k's
 * blocks. */
static inline __attribute__((always_inline)) void aead_one(const struct polymac_kernel *k,
                                                           uint8_t tag[16], const uint8_t *aad,
                                                           size_t alen, const uint8_t *ct,
                                                           size_t clen, const uint8_t key[32])
{
#ifdef POLYMAC_HAVE_R64
    if (k->auth && alen < POLYMAC_AUTH_MIN && clen < POLYMAC_AUTH_MIN
        && (alen + 15) / 16 + (clen + 15) / 16 + 1 < POLYMAC_AUTH_MIN / 16) {
        r64_aead_oneshot(tag, aad, alen, ct, clen, key);
        return;
    }
#endif
    aead_blocks(k, tag, aad, alen, ct, clen, key);
}

/* polymac_aead_auth's work into tag (never NULL here) with the active
 * kernel, after the other arguments' checks: verify's too. */
static inline __attribute__((always_inline)) int
aead_active(uint8_t tag[16], const uint8_t *aad, size_t alen, const uint8_t *ct, size_t clen,
            const uint8_t key[32])
{
    if (!key || (!aad && alen) || (!ct && clen))
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;
    aead_one(k, tag, aad, alen, ct, clen, key);
    return POLYMAC_OK;
}

int polymac_aead_auth(uint8_t tag[POLYMAC_TAGBYTES], const void *aad, size_t aadlen,
                      const void *ct, size_t ctlen, const uint8_t key[POLYMAC_KEYBYTES])
{
    return tag ? aead_active(tag, aad, aadlen, ct, ctlen, key) : POLYMAC_EINVAL;
}

int polymac_aead_verify(const uint8_t tag[POLYMAC_TAGBYTES], const void *aad, size_t aadlen,
                        const void *ct, size_t ctlen, const uint8_t key[POLYMAC_KEYBYTES])
{
    uint8_t mine[16];
    if (!tag)
        return POLYMAC_EINVAL;
    int rc = aead_active(mine, aad, aadlen, ct, ctlen, key);
    if (rc)
        return rc;
    rc = polymac_compare_tags(mine, tag);
    polymac_wipe(mine, sizeof mine);
    return rc;
}

/*
 * The streaming state: a polymac_state (opaque[0..POLYMAC_STATEBYTES),
 * which keeps its own alignment rule, magic and check word), then the
 * AEAD's own part, read and written with memcpy at any address.  Its
 * check word binds the phase to the build (polymac_bind(256 + phase)):
 * a changed phase or a state from another build is refused.
 */
#define AEAD_MAGIC UINT64_C(0x706f6c7961656164)   /* "polyaead" */
#define PHASE_AAD 0
#define PHASE_CT 1

struct aead_part {
    uint64_t magic;
    uint64_t aadlen, ctlen;   /* bytes so far, 64-bit on every target */
    uint32_t check;           /* polymac_bind(256 + phase) */
    uint8_t phase;            /* PHASE_AAD, then PHASE_CT */
    uint8_t pad[3];
};
_Static_assert(POLYMAC_STATEBYTES + sizeof(struct aead_part) <= POLYMAC_AEAD_STATEBYTES,
               "polymac_aead_state holds a polymac_state and the AEAD's part");

static polymac_state *inner(polymac_aead_state *st)
{
    return (polymac_state *)(void *)st->opaque;
}

static void put(polymac_aead_state *st, struct aead_part *a, uint8_t phase)
{
    a->phase = phase;
    a->check = polymac_bind(256u + phase);
    memcpy(st->opaque + POLYMAC_STATEBYTES, a, sizeof *a);
}

/* The AEAD's part of a live state into a, or POLYMAC_ESTATE (nothing
 * changed) when st or its polymac_state is not live, or its phase is past
 * upto (AAD after ciphertext). */
static int get(polymac_aead_state *st, struct aead_part *a, uint8_t upto)
{
    memcpy(a, st->opaque + POLYMAC_STATEBYTES, sizeof *a);
    if (a->magic != AEAD_MAGIC || a->phase > upto || a->check != polymac_bind(256u + a->phase))
        return POLYMAC_ESTATE;
    /* appends nothing: POLYMAC_ESTATE unless the polymac_state is live */
    return polymac_update_nocheck(inner(st), NULL, 0);
}

/* zeros to the next multiple of 16 bytes, through the block buffer */
static void pad16(polymac_aead_state *st, uint64_t len)
{
    static const uint8_t zeros[16];
    (void)polymac_update_nocheck(inner(st), zeros, (size_t)(-len & 15));
}

int polymac_aead_init(polymac_aead_state *st, const uint8_t key[POLYMAC_KEYBYTES])
{
    if (!st || !key)
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;
    struct aead_part a = {AEAD_MAGIC, 0, 0, 0, 0, {0, 0, 0}};
    polymac_init_nocheck(k, inner(st), key);
    put(st, &a, PHASE_AAD);
    return POLYMAC_OK;
}

/* Appends len bytes of AAD (phase PHASE_AAD) or of ciphertext
 * (PHASE_CT), which completes the AAD: its zeros go in first. */
static int update(polymac_aead_state *st, const void *p, size_t len, uint8_t phase)
{
    struct aead_part a;
    if (!st || (!p && len))
        return POLYMAC_EINVAL;
    int rc = get(st, &a, phase);
    if (rc)
        return rc;
    if (a.phase < phase)
        pad16(st, a.aadlen);
    (void)polymac_update_nocheck(inner(st), p, len);
    if (phase == PHASE_AAD)
        a.aadlen += len;
    else
        a.ctlen += len;
    put(st, &a, phase);
    return POLYMAC_OK;
}

int polymac_aead_update_aad(polymac_aead_state *st, const void *aad, size_t len)
{
    return update(st, aad, len, PHASE_AAD);
}

int polymac_aead_update_ct(polymac_aead_state *st, const void *ct, size_t len)
{
    return update(st, ct, len, PHASE_CT);
}

/* The tag of a live state (a from get), which is wiped. */
static void finish(polymac_aead_state *st, const struct aead_part *a, uint8_t tag[16])
{
    uint8_t lens[16];
    if (a->phase == PHASE_AAD)
        pad16(st, a->aadlen);
    pad16(st, a->ctlen);
    polymac_store64le(lens, a->aadlen);
    polymac_store64le(lens + 8, a->ctlen);
    (void)polymac_update_nocheck(inner(st), lens, 16);
    (void)polymac_final_nocheck(inner(st), tag);
    polymac_wipe(st->opaque + POLYMAC_STATEBYTES, POLYMAC_AEAD_STATEBYTES - POLYMAC_STATEBYTES);
}

int polymac_aead_final(polymac_aead_state *st, uint8_t tag[POLYMAC_TAGBYTES])
{
    struct aead_part a;
    if (!st || !tag)
        return POLYMAC_EINVAL;
    int rc = get(st, &a, PHASE_CT);
    if (rc)
        return rc;
    finish(st, &a, tag);
    return POLYMAC_OK;
}

int polymac_aead_final_verify(polymac_aead_state *st, const uint8_t tag[POLYMAC_TAGBYTES])
{
    struct aead_part a;
    uint8_t mine[16];
    if (!st)
        return POLYMAC_EINVAL;
    int rc = get(st, &a, PHASE_CT);
    if (rc)
        return rc;
    /* finished on every path, a NULL tag included (as polymac_final_verify) */
    finish(st, &a, mine);
    rc = tag ? polymac_compare_tags(mine, tag) : POLYMAC_EINVAL;
    polymac_wipe(mine, sizeof mine);
    return rc;
}

size_t polymac_aead_statebytes(void)
{
    return sizeof(polymac_aead_state);
}

/*
 * The batch calls: every entry checked first, then each tag with the
 * kernel polymac_aead_auth uses.  The kernels' lanes (lib/kernel.h) take
 * one contiguous message per lane, which the padded layout is not (the
 * AAD and the ciphertext lie apart): the entries run one after another.
 */
static int bad_entries(const void *const tags[], const void *const aads[],
                       const size_t aadlens[], const void *const cts[], const size_t ctlens[],
                       const uint8_t *const keys[], size_t n)
{
    if (!tags || !aads || !aadlens || !cts || !ctlens || !keys)
        return 1;
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= !tags[i] || !keys[i] || (!aads[i] && aadlens[i]) || (!cts[i] && ctlens[i]);
    return bad;
}

int polymac_aead_auth_batch(uint8_t *const tags[], const void *const aads[],
                            const size_t aadlens[], const void *const cts[],
                            const size_t ctlens[], const uint8_t *const keys[], size_t n)
{
    if (n == 0)
        return POLYMAC_OK;
    if (bad_entries((const void *const *)tags, aads, aadlens, cts, ctlens, keys, n))
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;
    for (size_t i = 0; i < n; i++)
        aead_one(k, tags[i], aads[i], aadlens[i], cts[i], ctlens[i], keys[i]);
    return POLYMAC_OK;
}

int polymac_aead_verify_batch(const uint8_t *const tags[], const void *const aads[],
                              const size_t aadlens[], const void *const cts[],
                              const size_t ctlens[], const uint8_t *const keys[], size_t n,
                              int results[])
{
    if (n == 0)
        return POLYMAC_OK;
    if (!results || bad_entries((const void *const *)tags, aads, aadlens, cts, ctlens, keys, n))
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;
    uint8_t mine[16];
    int acc = 0;
    /* every tag computed and compared; no early exit on a mismatch */
    for (size_t i = 0; i < n; i++) {
        aead_one(k, mine, aads[i], aadlens[i], cts[i], ctlens[i], keys[i]);
        results[i] = polymac_compare_tags(mine, tags[i]);
        acc |= results[i];
    }
    polymac_wipe(mine, sizeof mine);
    return acc;
}
