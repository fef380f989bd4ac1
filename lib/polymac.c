/* polymac.c -- the public calls: argument checks, the one-shot paths
 *              (scalar inline or the kernel's), verify */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stddef.h>
#include <string.h>

#include "polymac.h"
#include "dispatch.h"
#include "core.h"
#include "registry.h"
#include "util.h"
#ifdef POLYMAC_HAVE_R64
#include "generic/r64.h"
#endif

/* init, blocks and emit, out of line: their 1 KiB stack state (never
 * memset: the kernel initialises what it uses and emit wipes it) would
 * otherwise cost every short message a realigned frame. */
__attribute__((noinline)) static void auth_blocks(const struct polymac_kernel *k,
                                                  uint8_t tag[16], const uint8_t *msg,
                                                  size_t len, const uint8_t key[32])
{
    _Alignas(POLYMAC_KS_ALIGN) unsigned char ks[POLYMAC_KS_BYTES];
    polymac_auth_blocks(k, ks, tag, msg, len, key);
}

/* Inlined into polymac_auth and polymac_verify: a short message's whole
 * path is then one function, with h, r and the key in registers. */
static inline __attribute__((always_inline)) void auth_one(const struct polymac_kernel *k,
                                                           uint8_t tag[16], const uint8_t *msg,
                                                           size_t len, const uint8_t key[32])
{
#ifdef POLYMAC_HAVE_R64
    if (k->auth && len < polymac_auth_cut_bytes()) {
        polymac_r64_oneshot(tag, msg, len, key);
        return;
    }
#endif
    if (k->auth && k->auth(tag, msg, len, key) == 0)
        return;
    auth_blocks(k, tag, msg, len, key);
}

void polymac_auth_nocheck(const struct polymac_kernel *k, uint8_t tag[16], const uint8_t *msg,
                          size_t len, const uint8_t key[32])
{
    auth_one(k, tag, msg, len, key);
}

/* polymac_auth's work with the active kernel, without the argument
 * checks.  polymac_verify calls this directly: a call to the exported
 * symbol would go through the PLT (an extra jump, and interposable). */
static int auth_active(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;
    auth_one(k, tag, msg, len, key);
    return POLYMAC_OK;
}

int polymac_auth(uint8_t tag[POLYMAC_TAGBYTES], const void *msg, size_t len,
                 const uint8_t key[POLYMAC_KEYBYTES])
{
    if (!tag || !key || (!msg && len))
        return POLYMAC_EINVAL;
    return auth_active(tag, msg, len, key);
}

int polymac_verify(const uint8_t tag[POLYMAC_TAGBYTES], const void *msg, size_t len,
                   const uint8_t key[POLYMAC_KEYBYTES])
{
    uint8_t mine[16];
    if (!tag || !key || (!msg && len))
        return POLYMAC_EINVAL;
    int rc = auth_active(mine, msg, len, key);
    if (rc)
        return rc;
    rc = polymac_compare_tags(mine, tag);
    polymac_wipe(mine, sizeof mine);
    return rc;
}

int polymac_init(polymac_state *st, const uint8_t key[POLYMAC_KEYBYTES])
{
    if (!st || !key)
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;
    polymac_init_nocheck(k, st, key);
    return POLYMAC_OK;
}

int polymac_update(polymac_state *st, const void *msg, size_t len)
{
    return polymac_update_nocheck(st, msg, len);
}

int polymac_final(polymac_state *st, uint8_t tag[POLYMAC_TAGBYTES])
{
    if (!st || !tag)
        return POLYMAC_EINVAL;
    return polymac_final_nocheck(st, tag);
}

int polymac_final_verify(polymac_state *st, const uint8_t tag[POLYMAC_TAGBYTES])
{
    uint8_t mine[16];
    if (!st)
        return POLYMAC_EINVAL;
    /* the state is finished on every path, a NULL tag included: a caller
     * that drops the result must not be left with a live state */
    int rc = polymac_final_nocheck(st, mine);
    if (!tag) {
        polymac_wipe(mine, sizeof mine);
        return POLYMAC_EINVAL;
    }
    if (rc)
        return rc;
    rc = polymac_compare_tags(mine, tag);
    polymac_wipe(mine, sizeof mine);
    return rc;
}

size_t polymac_statebytes(void)
{
    return sizeof(polymac_state);
}

const char *polymac_version(void)
{
    return POLYMAC_VERSION;
}
