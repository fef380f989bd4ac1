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

/* The version of this header, the same as the library's project version
 * (a test checks that they agree).  polymac_version() gives the version
 * of the library actually loaded, which may be newer. */
#define POLYMAC_VERSION_MAJOR 1
#define POLYMAC_VERSION_MINOR 2
#define POLYMAC_VERSION_PATCH 0
#define POLYMAC_VERSION_STRING "1.2.0"

#define POLYMAC_KEYBYTES 32
#define POLYMAC_TAGBYTES 16
/* Size of polymac_state: part of the ABI, fixed for soname 1. */
#define POLYMAC_STATEBYTES 1152
/* Size of polymac_aead_state (since 1.2): part of the ABI, fixed for
 * soname 1. */
#define POLYMAC_AEAD_STATEBYTES 1216

/*
 * Return codes: 0 on success, negative on error.  Each function below
 * lists every code it returns; no function returns any other value.
 *
 * Thread safety: every function may be called from any thread at any
 * time, including the first call (selection of the kernel on first use
 * is atomic).  A polymac_state belongs to one thread at a time: two
 * threads may use two states at once, but not one state without a lock
 * of their own.  polymac_backend_select is process-wide: it changes the
 * kernel of messages begun afterwards in every thread; states already
 * begun keep theirs.
 *
 * Strings returned by polymac_backend_name, polymac_backend_list and
 * polymac_version are static, owned by the library and never freed by
 * the caller; they stay valid until the library is unloaded (dlclose).
 *
 * Environment, read with secure_getenv (set-user-ID and set-group-ID
 * programs ignore both):
 *   POLYMAC_BACKEND=NAME  use kernel NAME instead of the automatic choice.
 *       Read once, when the library first selects a kernel (at load for
 *       the shared library, else at the first call).  "auto" or empty
 *       means automatic.  A name that is unknown, not built in, not
 *       supported by this CPU or that failed its self-test is ignored:
 *       automatic selection is used, and nothing is printed unless
 *       POLYMAC_DEBUG=1.
 *   POLYMAC_DEBUG=1  print the kernel chosen, and why an override or a
 *       kernel was refused, on standard error.  Any other value is silent.
 */
#define POLYMAC_OK           0
#define POLYMAC_EINVAL      -1  /* NULL pointer, or NULL message with len > 0 */
#define POLYMAC_EBADTAG     -2  /* verify: tag does not match */
#define POLYMAC_ESTATE      -3  /* state not initialised, already finished, begun by
                                   another build, or its header damaged; AEAD:
                                   AAD after ciphertext */
#define POLYMAC_EBACKEND    -4  /* backend name unknown or not built in */
#define POLYMAC_EUNSUPPORTED -5 /* backend built in, but this CPU lacks its features
                                   or it failed its load-time self-test */
#define POLYMAC_ENOKERNEL   -6  /* no kernel of this build passed its self-test
                                   (a miscompiled library): no MAC is computed
                                   rather than a wrong one */
#define POLYMAC_ENOMEM      -7  /* batch calls only: memory for the tags of a
                                   large batch whose tags lie among its
                                   messages could not be allocated */

/* Streaming state.  Opaque; any address will do (no alignment rule), and
 * a live state may be copied with memcpy and continued from the copy.
 * The calls refuse with POLYMAC_ESTATE a state whose header is damaged:
 * its offset, live marker, build or kernel index changed.  Any other
 * change to a live state's bytes is not detected and gives a wrong tag,
 * never a crash. */
typedef struct polymac_state {
    unsigned char opaque[POLYMAC_STATEBYTES];
} polymac_state;

/* A Poly1305 key authenticates ONE message.  Using a key for two messages
 * lets an attacker forge tags.  Derive a fresh key per message (as
 * ChaCha20-Poly1305 does). */

/* tag = Poly1305(key, msg[0..len)).  msg may be NULL when len is 0.
 * Returns POLYMAC_OK; POLYMAC_EINVAL when tag or key is NULL or msg is
 * NULL with len > 0; POLYMAC_ENOKERNEL when no kernel passed its
 * self-test.  On an error tag is not written. */
POLYMAC_EXPORT int polymac_auth(uint8_t tag[POLYMAC_TAGBYTES], const void *msg, size_t len,
                                const uint8_t key[POLYMAC_KEYBYTES]);

/* Returns POLYMAC_OK when tag is Poly1305(key, msg), POLYMAC_EBADTAG when
 * it is not, POLYMAC_EINVAL when tag or key is NULL or msg is NULL with
 * len > 0, POLYMAC_ENOKERNEL when no kernel passed its self-test.  The
 * comparison takes the same time for every tag. */
POLYMAC_EXPORT POLYMAC_WARN_UNUSED int
polymac_verify(const uint8_t tag[POLYMAC_TAGBYTES], const void *msg, size_t len,
               const uint8_t key[POLYMAC_KEYBYTES]);

/* Begins a message under the kernel active now; the state keeps that
 * kernel until it is finished, whatever polymac_backend_select does.
 * Any state may be passed, live or not: it is overwritten.
 * Returns POLYMAC_OK; POLYMAC_EINVAL when st or key is NULL;
 * POLYMAC_ENOKERNEL when no kernel passed its self-test (st is then not
 * live). */
POLYMAC_EXPORT int polymac_init(polymac_state *st, const uint8_t key[POLYMAC_KEYBYTES]);

/* Appends len bytes; any split of a message gives the same tag (len 0,
 * with msg NULL or not, appends nothing).
 * Returns POLYMAC_OK; POLYMAC_EINVAL when st is NULL or msg is NULL with
 * len > 0; POLYMAC_ESTATE when st was never initialised, is finished, has a
 * damaged header, or was begun by another build of the library (nothing is
 * appended on an error). */
POLYMAC_EXPORT int polymac_update(polymac_state *st, const void *msg, size_t len);

/* Writes the tag and wipes the state; a second final returns
 * POLYMAC_ESTATE until polymac_init is called again.
 * Returns POLYMAC_OK; POLYMAC_EINVAL when st or tag is NULL;
 * POLYMAC_ESTATE when st was never initialised, is finished, has a damaged
 * header, or was begun by another build of the library.  A live state is left
 * unchanged by POLYMAC_EINVAL. */
POLYMAC_EXPORT int polymac_final(polymac_state *st, uint8_t tag[POLYMAC_TAGBYTES]);

/* Like polymac_final but compares with tag in constant time.
 * Returns POLYMAC_OK on a match, POLYMAC_EBADTAG on a mismatch,
 * POLYMAC_EINVAL when st or tag is NULL, POLYMAC_ESTATE when st was never
 * initialised, is finished, has a damaged header, or was begun by another
 * build of the library.  The state is wiped on every path, a NULL tag included:
 * after this call st is finished. */
POLYMAC_EXPORT POLYMAC_WARN_UNUSED int
polymac_final_verify(polymac_state *st, const uint8_t tag[POLYMAC_TAGBYTES]);

/* sizeof(polymac_state) (POLYMAC_STATEBYTES), for bindings.  Cannot fail. */
POLYMAC_EXPORT size_t polymac_statebytes(void);

/* Name of the kernel new messages use, e.g. "x86-avx512ifma"; "none"
 * when no kernel passed its self-test.  Never NULL; a static string (see
 * above). */
POLYMAC_EXPORT const char *polymac_backend_name(void);

/* Stores up to cap names of kernels usable on this CPU, best first
 * (static strings); returns how many there are, which may exceed cap.
 * names may be NULL, then nothing is stored.  Cannot fail; 0 only when
 * no kernel passed its self-test. */
POLYMAC_EXPORT size_t polymac_backend_list(const char **names, size_t cap);

/* Makes the named kernel active for messages begun from now on, in every
 * thread (process-wide).  NULL, "" or "auto" restore automatic selection
 * (the best kernel for this CPU; POLYMAC_BACKEND is not read again).
 * Returns POLYMAC_OK; POLYMAC_EBACKEND for a name not built in;
 * POLYMAC_EUNSUPPORTED when this CPU lacks what it needs or the kernel
 * failed its known-answer self-test; POLYMAC_ENOKERNEL (automatic
 * selection only) when no kernel passed its self-test.  On an error the
 * active kernel is unchanged. */
POLYMAC_EXPORT int polymac_backend_select(const char *name);

/*
 * Batch calls (since 1.1, version node POLYMAC_1.1): n independent
 * messages, each with its own key, in one call.  For programs that
 * authenticate many short messages at once (the packets of a burst, the
 * records of a write): a kernel with vector lanes puts one message in
 * each lane, with its own r, a group of messages of one length or of
 * similar lengths (the batch ordered by length) at a time, where
 * polymac_auth would run them one after another.  Batches too small for
 * the lanes, other kernels, and messages long enough for the
 * single-message vector code go through the one-shot path.  The kernel is the one polymac_auth uses
 * (polymac_backend_name, POLYMAC_BACKEND).  Any mix of lengths; n may be
 * 0 (the arrays may then be NULL).  Entry i is msgs[i][0..lens[i]) under
 * keys[i]; msgs[i] may be NULL when lens[i] is 0.  No alignment rule.
 * The tags are the same as polymac_auth's, entry by entry.
 */

/* tags[i] = Poly1305(keys[i], msgs[i][0..lens[i])) for every i < n.
 * Every message and key is read before any tag is written, so a tag may
 * lie inside any message or key of the batch (its own entry's or
 * another's); tags must not overlap one another.
 * Returns POLYMAC_OK; POLYMAC_EINVAL, before anything is computed, when
 * n > 0 and tags, msgs, lens or keys is NULL, or some tags[i] or keys[i]
 * is NULL, or some msgs[i] is NULL with lens[i] > 0; POLYMAC_ENOKERNEL
 * when no kernel passed its self-test; POLYMAC_ENOMEM when n > 64, some
 * tag lies inside a message or key of the batch, and the n x 16 bytes
 * this needs could not be allocated.  On an error no tag is written. */
POLYMAC_EXPORT int polymac_auth_batch(uint8_t *const tags[], const void *const msgs[],
                                      const size_t lens[], const uint8_t *const keys[],
                                      size_t n);

/* results[i] = POLYMAC_OK when tags[i] is Poly1305(keys[i], msgs[i]),
 * POLYMAC_EBADTAG when it is not, for every i < n; each comparison takes
 * the same time for every tag, and every entry is computed and compared
 * whatever the others give.  results must not overlap a tag, message or
 * key.
 * Returns POLYMAC_OK when every tag matches (n = 0 included),
 * POLYMAC_EBADTAG when at least one does not; POLYMAC_EINVAL, before
 * anything is computed, when n > 0 and tags, msgs, lens, keys or results
 * is NULL, or some tags[i] or keys[i] is NULL, or some msgs[i] is NULL
 * with lens[i] > 0; POLYMAC_ENOKERNEL when no kernel passed its
 * self-test.  On those two errors results is not written. */
POLYMAC_EXPORT POLYMAC_WARN_UNUSED int
polymac_verify_batch(const uint8_t *const tags[], const void *const msgs[],
                     const size_t lens[], const uint8_t *const keys[], size_t n,
                     int results[]);

/*
 * The ChaCha20-Poly1305 tag of RFC 8439 section 2.8 (since 1.2, version
 * node POLYMAC_1.2):
 *
 *   tag = Poly1305_key(AAD || pad16(AAD) || C || pad16(C)
 *                      || le64(len AAD) || le64(len C))
 *
 * where pad16(x) is 0 to 15 zero bytes, making the length of x a multiple
 * of 16.  The library pads and counts; the caller passes the AAD and the
 * ciphertext as they are.  libpolymac has no cipher: key is the one-time
 * key, the first 32 bytes of the ChaCha20 keystream block with counter 0
 * under the message's key and nonce (RFC 8439 section 2.6), and the
 * ciphertext is the caller's (counter 1 on).  The key authenticates one
 * message: a nonce is never reused.  aad (ct) may be NULL when aadlen
 * (ctlen) is 0.  No alignment rule.  The tag is the one libsodium's
 * crypto_aead_chacha20poly1305_ietf and OpenSSL's chacha20-poly1305 give.
 */

/* tag of (aad, ct) under key.  Returns POLYMAC_OK; POLYMAC_EINVAL when
 * tag or key is NULL, or aad (ct) is NULL with aadlen (ctlen) > 0;
 * POLYMAC_ENOKERNEL when no kernel passed its self-test.  On an error tag
 * is not written. */
POLYMAC_EXPORT int polymac_aead_auth(uint8_t tag[POLYMAC_TAGBYTES], const void *aad,
                                     size_t aadlen, const void *ct, size_t ctlen,
                                     const uint8_t key[POLYMAC_KEYBYTES]);

/* Returns POLYMAC_OK when tag is the tag of (aad, ct) under key,
 * POLYMAC_EBADTAG when it is not (compared in constant time);
 * POLYMAC_EINVAL and POLYMAC_ENOKERNEL as for polymac_aead_auth, a NULL
 * tag included.  Decrypt only after POLYMAC_OK. */
POLYMAC_EXPORT POLYMAC_WARN_UNUSED int
polymac_aead_verify(const uint8_t tag[POLYMAC_TAGBYTES], const void *aad, size_t aadlen,
                    const void *ct, size_t ctlen, const uint8_t key[POLYMAC_KEYBYTES]);

/* Streaming state for the AEAD tag: any number of AAD pieces, then any
 * number of ciphertext pieces, then final; any split gives the tag of
 * polymac_aead_auth.  Opaque, any address, may be copied with memcpy and
 * continued from the copy (like polymac_state); wiped by final.  Lengths
 * are counted in 64 bits, on 32-bit systems too. */
typedef struct polymac_aead_state {
    unsigned char opaque[POLYMAC_AEAD_STATEBYTES];
} polymac_aead_state;

/* Begins a tag under key with the kernel active now (as polymac_init);
 * any state may be passed, live or not: it is overwritten.  Returns
 * POLYMAC_OK; POLYMAC_EINVAL when st or key is NULL; POLYMAC_ENOKERNEL
 * (st is then not live). */
POLYMAC_EXPORT int polymac_aead_init(polymac_aead_state *st, const uint8_t key[POLYMAC_KEYBYTES]);

/* Appends len bytes of AAD.  Returns POLYMAC_OK; POLYMAC_EINVAL when st
 * is NULL or aad is NULL with len > 0; POLYMAC_ESTATE when ciphertext was
 * already appended (polymac_aead_update_ct was called, with len 0 too),
 * or st is not live (never initialised, finished, damaged header, another
 * build).  On an error the state is unchanged. */
POLYMAC_EXPORT int polymac_aead_update_aad(polymac_aead_state *st, const void *aad, size_t len);

/* Appends len bytes of ciphertext; the AAD is complete from the first
 * call on.  Returns POLYMAC_OK; POLYMAC_EINVAL when st is NULL or ct is
 * NULL with len > 0; POLYMAC_ESTATE when st is not live.  On an error
 * the state is unchanged. */
POLYMAC_EXPORT int polymac_aead_update_ct(polymac_aead_state *st, const void *ct, size_t len);

/* Writes the tag and wipes the state.  Returns POLYMAC_OK; POLYMAC_EINVAL
 * when st or tag is NULL (a live state is then unchanged);
 * POLYMAC_ESTATE when st is not live (a second final included). */
POLYMAC_EXPORT int polymac_aead_final(polymac_aead_state *st, uint8_t tag[POLYMAC_TAGBYTES]);

/* Like polymac_aead_final but compares with tag in constant time:
 * POLYMAC_OK on a match, POLYMAC_EBADTAG on a mismatch; POLYMAC_EINVAL
 * when st or tag is NULL; POLYMAC_ESTATE when st is not live.  A live
 * state is finished and wiped on every path, a NULL tag included. */
POLYMAC_EXPORT POLYMAC_WARN_UNUSED int
polymac_aead_final_verify(polymac_aead_state *st, const uint8_t tag[POLYMAC_TAGBYTES]);

/* sizeof(polymac_aead_state) (POLYMAC_AEAD_STATEBYTES), for bindings.
 * Cannot fail. */
POLYMAC_EXPORT size_t polymac_aead_statebytes(void);

/* tags[i] = the tag of (aads[i][0..aadlens[i]), cts[i][0..ctlens[i]))
 * under keys[i], for every i < n (n = 0 valid, the arrays may then be
 * NULL); the kernel and the tags are polymac_aead_auth's.  Every entry is
 * checked before anything is computed.  The tags must not overlap one
 * another, nor any AAD, ciphertext or key of the batch.
 * Returns POLYMAC_OK; POLYMAC_EINVAL, before anything is computed or
 * written, when n > 0 and an array is NULL, or some tags[i] or keys[i] is
 * NULL, or some aads[i] (cts[i]) is NULL with aadlens[i] (ctlens[i]) > 0;
 * POLYMAC_ENOKERNEL when no kernel passed its self-test.  On an error no
 * tag is written. */
POLYMAC_EXPORT int polymac_aead_auth_batch(uint8_t *const tags[], const void *const aads[],
                                           const size_t aadlens[], const void *const cts[],
                                           const size_t ctlens[], const uint8_t *const keys[],
                                           size_t n);

/* results[i] = POLYMAC_OK when tags[i] is the tag of entry i,
 * POLYMAC_EBADTAG when it is not, as polymac_verify_batch: every entry
 * computed and compared in constant time whatever the others give;
 * results must not overlap a tag, AAD, ciphertext or key.
 * Returns POLYMAC_OK when every tag matches (n = 0 included),
 * POLYMAC_EBADTAG when one does not; POLYMAC_EINVAL as for
 * polymac_aead_auth_batch, or a NULL results; POLYMAC_ENOKERNEL.  On those
 * two errors results is not written. */
POLYMAC_EXPORT POLYMAC_WARN_UNUSED int
polymac_aead_verify_batch(const uint8_t *const tags[], const void *const aads[],
                          const size_t aadlens[], const void *const cts[],
                          const size_t ctlens[], const uint8_t *const keys[], size_t n,
                          int results[]);

/* The loaded library's version, e.g. "1.2.0"; a static string.  Cannot
 * fail. */
POLYMAC_EXPORT const char *polymac_version(void);

#ifdef __cplusplus
}
#endif

#endif
