/* polymac.h -- Poly1305 one-time authenticator (RFC 8439): the public API */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_H
#define POLYMAC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define POLYMAC_EXPORT __attribute__((visibility("default")))
#define POLYMAC_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define POLYMAC_EXPORT
#define POLYMAC_WARN_UNUSED
#endif

#define POLYMAC_KEYBYTES 32
#define POLYMAC_TAGBYTES 16
/* Size of polymac_state: part of the ABI, fixed for soname 1. */
#define POLYMAC_STATEBYTES 1152

/* Return codes: 0 on success, negative on error. */
#define POLYMAC_OK           0
#define POLYMAC_EINVAL      -1  /* NULL pointer, or NULL message with len > 0 */
#define POLYMAC_EBADTAG     -2  /* verify: tag does not match */
#define POLYMAC_ESTATE      -3  /* state not initialised, already finished or corrupt */
#define POLYMAC_EBACKEND    -4  /* backend name unknown or not built in */
#define POLYMAC_EUNSUPPORTED -5 /* backend built in, but this CPU lacks its features
                                   or it failed its load-time self-test */

/* Streaming state.  Opaque; any address will do (no alignment rule), and
 * a live state may be copied with memcpy and continued from the copy. */
typedef struct polymac_state {
    unsigned char opaque[POLYMAC_STATEBYTES];
} polymac_state;

/* A Poly1305 key authenticates ONE message.  Using a key for two messages
 * lets an attacker forge tags.  Derive a fresh key per message (as
 * ChaCha20-Poly1305 does). */

/* tag = Poly1305(key, msg[0..len)).  msg may be NULL when len is 0. */
POLYMAC_EXPORT int polymac_auth(uint8_t tag[POLYMAC_TAGBYTES], const void *msg, size_t len,
                                const uint8_t key[POLYMAC_KEYBYTES]);

/* 0 when tag is Poly1305(key, msg), else POLYMAC_EBADTAG (or
 * POLYMAC_EINVAL).  The comparison takes the same time for every tag. */
POLYMAC_EXPORT POLYMAC_WARN_UNUSED int
polymac_verify(const uint8_t tag[POLYMAC_TAGBYTES], const void *msg, size_t len,
               const uint8_t key[POLYMAC_KEYBYTES]);

/* Begins a message under the kernel active now; the state keeps that
 * kernel until it is finished, whatever polymac_backend_select does. */
POLYMAC_EXPORT int polymac_init(polymac_state *st, const uint8_t key[POLYMAC_KEYBYTES]);

/* Appends len bytes; any split of a message gives the same tag. */
POLYMAC_EXPORT int polymac_update(polymac_state *st, const void *msg, size_t len);

/* Writes the tag and wipes the state; a second final returns
 * POLYMAC_ESTATE until polymac_init is called again. */
POLYMAC_EXPORT int polymac_final(polymac_state *st, uint8_t tag[POLYMAC_TAGBYTES]);

/* Like polymac_final but compares with tag in constant time: 0 on match,
 * POLYMAC_EBADTAG otherwise.  Wipes the state either way. */
POLYMAC_EXPORT POLYMAC_WARN_UNUSED int
polymac_final_verify(polymac_state *st, const uint8_t tag[POLYMAC_TAGBYTES]);

/* sizeof(polymac_state), for bindings. */
POLYMAC_EXPORT size_t polymac_statebytes(void);

/* Name of the kernel new messages use, e.g. "x86-avx512ifma". */
POLYMAC_EXPORT const char *polymac_backend_name(void);

/* Stores up to cap names of kernels usable on this CPU, best first;
 * returns how many there are (names may be NULL when cap is 0). */
POLYMAC_EXPORT size_t polymac_backend_list(const char **names, size_t cap);

/* Makes the named kernel active for messages begun from now on.  NULL,
 * "" or "auto" restore automatic selection (the best kernel for this CPU).
 * Returns POLYMAC_EBACKEND for a name not built in, POLYMAC_EUNSUPPORTED
 * when this CPU lacks what it needs or the kernel failed its known-answer
 * self-test; the active kernel is then unchanged. */
POLYMAC_EXPORT int polymac_backend_select(const char *name);

/* "1.0.0" */
POLYMAC_EXPORT const char *polymac_version(void);

#ifdef __cplusplus
}
#endif

#endif
