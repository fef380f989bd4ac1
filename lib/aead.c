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
 * The padded layout is never built: it is described as spans of whole
 * blocks (kernel.h), the caller's AAD and ciphertext where they lie, and
 * only each one's last partial block and the lengths in a 48-byte block
 * buffer b (zeros after the bytes, hibit 1: unlike Poly1305's own final
 * padding).  Empty spans are left out: at most four, at least one (the
 * lengths).
 */
#define AEAD_BUF 48

/* n (0..7) bytes at p as a little-endian word, reading no byte past them */
static inline uint64_t load_partial(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    size_t o = 0;
    if (n & 4) {
        v = polymac_load32le(p);
        o = 4;
    }
    if (n & 2) {
        v |= (uint64_t)(p[o] | (unsigned)p[o + 1] << 8) << (8 * o);
        o += 2;
    }
    if (n & 1)
        v |= (uint64_t)p[o] << (8 * o);
    return v;
}

/* zeros after the bytes: b holds rest (1..15) bytes of p, then zeros.
 * Built in two words and stored as such, so that the block loop's word
 * loads take them from the store buffer (bytes copied there, a memcpy's
 * overlapping stores, made each load wait for the stores to retire: about
 * 30 cycles a tag). */
static inline void pad_zeros(uint8_t b[16], const uint8_t *p, size_t rest)
{
    uint64_t lo, hi = 0;
    if (rest >= 8) {
        lo = polymac_load64le(p);
        hi = load_partial(p + 8, rest - 8);
    } else {
        lo = load_partial(p, rest);
    }
    polymac_store64le(b, lo);
    polymac_store64le(b + 8, hi);
}

/* The AAD's spans (none, one or two), its padded block in b */
static inline size_t spans_aad(struct polymac_span *sp, uint8_t b[16], const uint8_t *aad,
                               size_t alen)
{
    size_t n = 0;
    if (alen >= 16)
        sp[n++] = (struct polymac_span){aad, alen / 16};
    if (alen % 16) {
        pad_zeros(b, aad + (alen - alen % 16), alen % 16);
        sp[n++] = (struct polymac_span){b, 1};
    }
    return n;
}

/* The span after the ciphertext's whole blocks: its padded block, if
 * any, and the lengths, in b */
static inline struct polymac_span span_tail(uint8_t b[32], const uint8_t *ct, size_t clen,
                                            size_t alen)
{
    const size_t t = clen % 16 != 0;
    if (t)
        pad_zeros(b, ct + (clen - clen % 16), clen % 16);
    polymac_store64le(b + 16 * t, (uint64_t)alen);
    polymac_store64le(b + 16 * t + 8, (uint64_t)clen);
    return (struct polymac_span){b, t + 1};
}

static inline size_t aead_spans(struct polymac_span sp[POLYMAC_SPANS_MAX], uint8_t b[AEAD_BUF],
                                const uint8_t *aad, size_t alen, const uint8_t *ct,
                                size_t clen)
{
    size_t n = spans_aad(sp, b, aad, alen);
    if (clen >= 16)
        sp[n++] = (struct polymac_span){ct, clen / 16};
    sp[n++] = span_tail(b + 16, ct, clen, alen);
    return n;
}

/* Through k's init, blocks and emit, out of line for the same reason as
 * polymac.c's auth_blocks (the 1 KiB kernel state); the dead stack is
 * zeroed from the frame the kernel calls were made from. */
__attribute__((noinline)) static void aead_blocks(const struct polymac_kernel *k,
                                                  uint8_t tag[16],
                                                  const struct polymac_span sp[], size_t n,
                                                  const uint8_t key[32])
{
    _Alignas(POLYMAC_KS_ALIGN) unsigned char ks[POLYMAC_KS_BYTES];
    polymac_kernel_init(k, ks, key);
    for (size_t i = 0; i < n; i++)
        k->blocks(ks, sp[i].p, sp[i].nblocks, 1);
    k->emit(ks, tag, key + 16);
    polymac_wipe_dead_stack(k);
}

#ifdef POLYMAC_HAVE_R64
#ifdef POLYMAC_R64_SPANS
/* the layout the spans' assembly walks (r64_asm.h) */
_Static_assert(offsetof(struct polymac_span, p) == 0 && offsetof(struct polymac_span, nblocks) == 8
               && sizeof(struct polymac_span) == 16, "a span is an address and a count");
#endif
/* The radix-2^64 code over the spans from h = hv[0..3), h and r in
 * locals as in polymac_r64_auth, one block loop for all spans; then the
 * tag into tag, or without one (the batch's AAD) h folded into hv (h2 <=
 * 4: kernel.h's h record). */
static inline __attribute__((always_inline)) void
r64_spans(uint8_t *tag, uint64_t hv[3], const struct polymac_span sp[], size_t n,
          const uint8_t key[32])
{
    uint64_t h[3] = {hv[0], hv[1], hv[2]};
#ifdef POLYMAC_R64_SPANS
    if (n)
        polymac_r64_spans_arch(h, sp, sp[0].p, sp[0].nblocks, n, key);
#else
    uint64_t r0, r1;
    polymac_clamp64(&r0, &r1, key);
    for (size_t i = 0; i < n; i++)
        polymac_r64_core(h, r0, r1, sp[i].p, sp[i].nblocks, 1);
#endif
    if (tag)
        polymac_r64_finish(tag, h[0], h[1], h[2], key + 16);
    else
        polymac_r64_fold(hv, h[0], h[1], h[2]);
}

/* r64_spans under the stack rule, as polymac_r64_oneshot: inline where
 * the block loop is assembly (h, r and the key stay in registers:
 * test_stack), else out of line with its dead frame zeroed right after,
 * as deep as AEAD_R64_STACK_BYTES (on x86-64, the C loop: six pushes,
 * the return address and a frame of at most 120 bytes, GCC 12 and
 * clang 14, rounded up with room; elsewhere r64.h's depth for its
 * one-shot, whose frames these match). */
#ifdef POLYMAC_R64_ASM
static inline __attribute__((always_inline)) void
r64_spans_oneshot(uint8_t *tag, uint64_t hv[3], const struct polymac_span sp[], size_t n,
                  const uint8_t key[32])
{
    r64_spans(tag, hv, sp, n, key);
}
#else
#if defined(__x86_64__)
#define AEAD_R64_STACK_BYTES 256
#elif defined(POLYMAC_R64_STACK_BYTES)
#define AEAD_R64_STACK_BYTES POLYMAC_R64_STACK_BYTES
#else
#define AEAD_R64_STACK_BYTES 512
#endif
__attribute__((noinline)) static void r64_spans_frame(uint8_t *tag, uint64_t hv[3],
                                                      const struct polymac_span sp[],
                                                      size_t n, const uint8_t key[32])
{
    r64_spans(tag, hv, sp, n, key);
}

static inline void r64_spans_oneshot(uint8_t *tag, uint64_t hv[3],
                                     const struct polymac_span sp[], size_t n,
                                     const uint8_t key[32])
{
    r64_spans_frame(tag, hv, sp, n, key);
    polymac_burn_stack(AEAD_R64_STACK_BYTES);
}
#endif
#endif

/* Whether kernel k's tag of the layout runs in radix 2^64 in the front
 * end, where k has an auth: under the cut (polymac_auth's rule,
 * dispatch.h: polymac_auth_cut), or where k's auth_spans would leave it
 * there for certain, every span shorter than the cut, below every cold
 * break-even of this CPU's kernels. */
static inline int aead_brief_layout(const struct polymac_kernel *k, size_t alen, size_t clen)
{
#ifdef POLYMAC_HAVE_R64
    const size_t cut = polymac_auth_cut_bytes();
    return k->auth && alen < cut && clen < cut
           && (k->auth_spans || (alen + 15) / 16 + (clen + 15) / 16 + 1 < cut / 16);
#else
    (void)k, (void)alen, (void)clen;
    return 0;
#endif
}

#ifdef POLYMAC_R64_AEAD
/* A brief layout (aead_brief_layout): the whole of it in one asm
 * block, nothing staged in memory, h in registers to the tag; out of line,
 * where the larger paths' frame is not set up. */
__attribute__((noinline)) static int aead_brief(uint8_t tag[16], const uint8_t *aad,
                                                size_t alen, const uint8_t *ct, size_t clen,
                                                const uint8_t key[32])
{
    uint64_t h[3];
    polymac_r64_aead_arch(h, aad, alen, ct, clen, key);
    polymac_r64_finish(tag, h[0], h[1], h[2], key + 16);
    return POLYMAC_OK;
}
#endif

/* aead_tag's layouts that are not brief: through k's auth_spans, which
 * may leave them to the radix-2^64 code; else k's blocks.  Out of line,
 * as aead_brief is, so that neither path sets up the other's frame. */
__attribute__((noinline)) static int aead_spans_tag(uint8_t tag[16], const uint8_t *aad,
                                                    size_t alen, const uint8_t *ct,
                                                    size_t clen, const uint8_t key[32])
{
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;
#ifdef POLYMAC_R64_AEAD
    const int brief = 0;      /* aead_brief took those */
#else
    const int brief = aead_brief_layout(k, alen, clen);
#endif
    uint8_t b[AEAD_BUF];
    struct polymac_span sp[POLYMAC_SPANS_MAX];
    const size_t n = aead_spans(sp, b, aad, alen, ct, clen);
#ifdef POLYMAC_HAVE_R64
    uint64_t h[3] = {0, 0, 0};
    if (brief || (k->auth_spans && k->auth_spans(tag, sp, n, key)))
        r64_spans_oneshot(tag, h, sp, n, key);
    else if (!k->auth_spans)
        aead_blocks(k, tag, sp, n, key);
#else
    aead_blocks(k, tag, sp, n, key);
#endif
    polymac_wipe(b, sizeof b);
    return POLYMAC_OK;
}

/* One tag with kernel k: where k has an auth, a brief layout (under the
 * cut, aead_brief_layout) in radix 2^64 (polymac_auth's rule), longer
 * ones through aead_spans_tag; POLYMAC_OK.  Each path a call of
 * its own, which polymac_aead_auth makes as a tail call: it sets up no
 * frame of its own. */
static inline __attribute__((always_inline)) int aead_tag(const struct polymac_kernel *k,
                                                          uint8_t tag[16], const uint8_t *aad,
                                                          size_t alen, const uint8_t *ct,
                                                          size_t clen, const uint8_t key[32])
{
#ifdef POLYMAC_R64_AEAD
    if (aead_brief_layout(k, alen, clen))
        return aead_brief(tag, aad, alen, ct, clen, key);
#else
    (void)k;
#endif
    return aead_spans_tag(tag, aad, alen, ct, clen, key);
}

/* The first tag of the process: the kernel chosen, then the tag; out of
 * line, so that the call to choose it keeps no argument live in
 * aead_active's caller. */
__attribute__((noinline, cold)) static int aead_first(uint8_t tag[16], const uint8_t *aad,
                                                      size_t alen, const uint8_t *ct,
                                                      size_t clen, const uint8_t key[32])
{
    const struct polymac_kernel *k = polymac_select_first();
    return k ? aead_tag(k, tag, aad, alen, ct, clen, key) : POLYMAC_ENOKERNEL;
}

/* polymac_aead_auth's work into tag (never NULL here) with the active
 * kernel, after the other arguments' checks: verify's too. */
static inline __attribute__((always_inline)) int
aead_active(uint8_t tag[16], const uint8_t *aad, size_t alen, const uint8_t *ct, size_t clen,
            const uint8_t key[32])
{
    if (!key || (!aad && alen) || (!ct && clen))
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k =
        atomic_load_explicit(&polymac_active_kernel, memory_order_acquire);
    if (!k)
        return aead_first(tag, aad, alen, ct, clen, key);
    return aead_tag(k, tag, aad, alen, ct, clen, key);
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
 * The batch calls: every entry checked first, then the tags with the
 * kernel polymac_aead_auth uses, AEAD_RUN entries at a time: through its
 * lanes' run_h (kernel.h) where it has one, each packet's AAD in radix
 * 2^64 first, then its ciphertext's whole blocks, padded block and
 * lengths in the lanes; the entries the lanes do not take (no whole
 * block of ciphertext, more than max_len_h, or of those longer than
 * max_len more than whole sets: kernel.h, full), or all of a run with
 * fewer than the lanes ask (min_h, else min_same of one length and
 * min_mixed of mixed ones), one by one.
 */
#define AEAD_RUN 64

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

/* aead_tag out of line, for the batch: its radix-2^64 code keeps h and
 * r in registers in a frame of its own (inlined into the batch loops,
 * GCC spilled 5 r1 / 4 there: test_stack). */
__attribute__((noinline)) static void aead_one_call(const struct polymac_kernel *k,
                                                    uint8_t tag[16], const uint8_t *aad,
                                                    size_t alen, const uint8_t *ct,
                                                    size_t clen, const uint8_t key[32])
{
    (void)aead_tag(k, tag, aad, alen, ct, clen, key);
}

#ifdef POLYMAC_HAVE_R64
/* The lanes' records of the packets at[0..m): each one's AAD from h = 0
 * into its h, and its padded block and lengths at the end of its tail.
 * Out of line, its frame zeroed after, AEAD_PART_STACK deep (the loop
 * around the block loop keeps 5 r1 / 4 in it: test_stack; x86-64, GCC 12:
 * six pushes, the return address and a frame of 88 bytes, rounded up with
 * room). */
#define AEAD_PART_STACK 512
__attribute__((noinline)) static void aead_r64_part(struct polymac_aead_rec rec[],
                                                    const void *const aads[],
                                                    const size_t alens[],
                                                    const void *const cts[],
                                                    const size_t clens[],
                                                    const uint8_t *const keys[],
                                                    const size_t at[], size_t m)
{
    for (size_t j = 0; j < m; j++) {
        const size_t i = at[j];
        uint8_t b[16];
        struct polymac_span sp[2];
        const size_t t = clens[i] % 16 != 0;
        rec[j].h[0] = rec[j].h[1] = rec[j].h[2] = 0;
        rec[j].nt = t + 1;
        (void)span_tail(rec[j].tail + 16 - 16 * t, (const uint8_t *)cts[i], clens[i], alens[i]);
        const size_t ns = spans_aad(sp, b, aads[i], alens[i]);
        if (ns)
            r64_spans_oneshot(NULL, rec[j].h, sp, ns, keys[i]);
    }
}

/* The tags of n <= AEAD_RUN entries, at least enough of them for the
 * lanes (at[0..m): their indices, ml the bytes they take: whole blocks
 * and tail), the others before them one by one.  Out of line: the
 * records (key-derived, wiped) and the arrays stay out of the callers'
 * frames. */
__attribute__((noinline)) static void
aead_lanes(const struct polymac_kernel *k, uint8_t *const tags[], const void *const aads[],
           const size_t alens[], const void *const cts[], const size_t clens[],
           const uint8_t *const keys[], size_t n, const size_t at[], size_t ml[],
           size_t m)
{
    _Alignas(64) struct polymac_aead_rec rec[AEAD_RUN];
    _Alignas(16) uint8_t tb[AEAD_RUN][16];
    const struct polymac_aead_rec *rp[AEAD_RUN];
    uint8_t *tp[AEAD_RUN];
    const uint8_t *mp[AEAD_RUN], *kp[AEAD_RUN];
    for (size_t i = 0, j = 0; i < n; i++) {
        if (j < m && at[j] == i)
            j++;
        else
            aead_one_call(k, tags[i], aads[i], alens[i], cts[i], clens[i], keys[i]);
    }
    aead_r64_part(rec, aads, alens, cts, clens, keys, at, m);
    polymac_burn_stack(AEAD_PART_STACK);
    for (size_t j = 0; j < m; j++) {
        rp[j] = &rec[j];
        tp[j] = tb[j];
        mp[j] = cts[at[j]];
        kp[j] = keys[at[j]];
        ml[j] += 16 * rec[j].nt;
    }
    k->lanes->run_h(tp, rp, mp, ml, kp, m);
    polymac_wipe_dead_stack(k);
    polymac_wipe(rec, sizeof rec[0] * m);
    /* the tags staged: a caller's tag may lie inside another packet's
     * ciphertext, which a later group of lanes still reads */
    for (size_t j = 0; j < m; j++)
        memcpy(tags[at[j]], tb[j], 16);
    polymac_wipe(tb, 16 * m);
}
#endif

/* The tags of n <= AEAD_RUN entries into tags[i]. */
static void aead_run(const struct polymac_kernel *k, uint8_t *const tags[],
                     const void *const aads[], const size_t alens[], const void *const cts[],
                     const size_t clens[], const uint8_t *const keys[], size_t n)
{
#ifdef POLYMAC_HAVE_R64
    const struct polymac_lanes *l = k->lanes;
    if (l && l->run_h) {
        size_t at[AEAD_RUN], ml[AEAD_RUN], m = 0, diff = 0, longer = 0;
        for (size_t i = 0; i < n; i++) {
            const size_t whole = clens[i] - clens[i] % 16;
            if (whole >= 16 && whole <= l->max_len_h) {
                ml[m] = whole;
                diff |= whole ^ ml[0];
                longer += whole > l->max_len;
                at[m++] = i;
            }
        }
        /* of the longer ciphertexts, whole sets (kernel.h: full): the
         * last ones past them left out */
        size_t drop = longer - polymac_lanes_longer(l, longer);
        if (drop) {
            size_t j = m;
            m = 0;
            diff = 0;
            for (size_t q = 0; q < j; q++) {
                if (ml[q] > l->max_len && longer-- <= drop)
                    continue;
                ml[m] = ml[q];
                at[m] = at[q];
                diff |= ml[m] ^ ml[0];
                m++;
            }
        }
        if (m && m >= (l->min_h ? l->min_h : diff ? l->min_mixed : l->min_same)) {
            aead_lanes(k, tags, aads, alens, cts, clens, keys, n, at, ml, m);
            return;
        }
    }
#endif
    for (size_t i = 0; i < n; i++)
        aead_one_call(k, tags[i], aads[i], alens[i], cts[i], clens[i], keys[i]);
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
    for (size_t w = 0; w < n; w += AEAD_RUN) {
        const size_t c = n - w < AEAD_RUN ? n - w : AEAD_RUN;
        aead_run(k, tags + w, aads + w, aadlens + w, cts + w, ctlens + w, keys + w, c);
    }
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
    uint8_t mine[AEAD_RUN][16], *mp[AEAD_RUN];
    const size_t most = n < AEAD_RUN ? n : AEAD_RUN;
    for (size_t i = 0; i < most; i++)
        mp[i] = mine[i];
    int acc = 0;
    /* every tag computed and compared; no early exit on a mismatch */
    for (size_t w = 0; w < n; w += AEAD_RUN) {
        const size_t c = n - w < AEAD_RUN ? n - w : AEAD_RUN;
        aead_run(k, mp, aads + w, aadlens + w, cts + w, ctlens + w, keys + w, c);
        for (size_t i = 0; i < c; i++) {
            results[w + i] = polymac_compare_tags(mine[i], tags[w + i]);
            acc |= results[w + i];
        }
    }
    polymac_wipe(mine, 16 * most);
    return acc;
}
