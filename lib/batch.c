/* batch.c -- the batch calls: many independent messages, one key each,
 *            across a kernel's vector lanes or through its one-shot path */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "dispatch.h"
#include "core.h"
#include "util.h"
#include "kernels.h"

/* Entries per run: the tags of a run are computed into a private buffer
 * on the stack (1 KiB) and handed to the kernel's lanes entry at once. */
#define RUN 64

/* POLYMAC_EINVAL before anything is computed or written. */
static int check(const void *tags, const void *const msgs[], const size_t lens[],
                 const uint8_t *const keys[], size_t n)
{
    if (n == 0)
        return POLYMAC_OK;
    if (!tags || !msgs || !lens || !keys)
        return POLYMAC_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!keys[i] || (!msgs[i] && lens[i]))
            return POLYMAC_EINVAL;
    return POLYMAC_OK;
}

/* The fewest messages worth the lanes: of one length (diff 0), or not,
 * the longest max bytes. */
static inline size_t lanes_min(const struct polymac_kernel *k, size_t diff, size_t max)
{
    for (size_t i = 0; i < POLYMAC_LANES_COUNTS && k->lanes_counts[i].upto; i++)
        if (max <= k->lanes_counts[i].upto)
            return diff ? k->lanes_counts[i].mixed : k->lanes_counts[i].same;
    return 1;
}

/* The fewest messages worth the lanes at any length. */
static inline size_t lanes_least(const struct polymac_kernel *k)
{
    size_t least = SIZE_MAX;
    for (size_t i = 0; i < POLYMAC_LANES_COUNTS && k->lanes_counts[i].upto; i++) {
        const struct polymac_lanes_count *c = &k->lanes_counts[i];
        least = c->same < least ? c->same : least;
        least = c->mixed < least ? c->mixed : least;
    }
    return least == SIZE_MAX ? 1 : least;
}

/* out[i] = the tag of entry i < n (n <= RUN): the messages of at most
 * lanes_max bytes, when the run has as many of them as
 * the kernel's lanes_counts ask (lanes_min), through the
 * lanes, the others one by one as polymac_auth takes them (with its
 * stack policy).  The policy for the lanes is applied from this frame,
 * the one they are called from. */
__attribute__((noinline)) static void run(const struct polymac_kernel *k,
                                          uint8_t (*out)[16], const void *const msgs[],
                                          const size_t lens[],
                                          const uint8_t *const keys[], size_t n)
{
    uint8_t *lo[RUN];
    const uint8_t *lm[RUN], *lk[RUN];
    size_t ll[RUN], nl = 0;
    int lanes = 0;
    if (k->lanes) {
        size_t c = 0, first = SIZE_MAX, diff = 0, max = 0;
        for (size_t i = 0; i < n; i++) {
            const size_t in = lens[i] <= k->lanes_max;
            c += in;
            first = in && first == SIZE_MAX ? lens[i] : first;
            diff |= in ? lens[i] ^ first : 0;
            max = in && lens[i] > max ? lens[i] : max;
        }
        lanes = c && c >= lanes_min(k, diff, max);
    }
    for (size_t i = 0; i < n; i++) {
        const uint8_t *msg = msgs[i];
        size_t len = lens[i];
        if (lanes && len <= k->lanes_max) {
            lo[nl] = out[i];
            lm[nl] = msg;
            ll[nl] = len;
            lk[nl] = keys[i];
            nl++;
            continue;
        }
        polymac_auth_one(k, out[i], msg, len, keys[i]);
    }
    if (nl) {
        k->lanes(lo, lm, ll, lk, nl);
        polymac_after_kernel(k);
    }
}

/* Whether any tag lies inside the span of the messages and keys (then a
 * tag written early could change a message or key read later). */
static int tags_inside(uint8_t *const tags[], const void *const msgs[],
                       const size_t lens[], const uint8_t *const keys[], size_t n)
{
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        uintptr_t m = (uintptr_t)msgs[i], kp = (uintptr_t)keys[i];
        if (lens[i]) {
            lo = m < lo ? m : lo;
            hi = m + lens[i] > hi ? m + lens[i] : hi;
        }
        lo = kp < lo ? kp : lo;
        hi = kp + 32 > hi ? kp + 32 : hi;
    }
    for (size_t i = 0; i < n; i++) {
        uintptr_t t = (uintptr_t)tags[i];
        if (t < hi && t + 16 > lo)
            return 1;
    }
    return 0;
}

/*
 * The one pass over a batch longer than one run: whether any entry is
 * invalid (a NULL tag or key, a NULL message with a non-zero length), the
 * longest message, and
 * whether the tags' span [tlo, thi) meets the inputs' span [lo, hi) (the
 * messages with bytes, and the keys).  Spans, not entries: disjoint spans
 * (the usual layout, tags in an array of their own) prove that writing a
 * tag cannot change an input read later; meeting spans send the batch
 * the careful way (every input read before a tag is written), correct
 * whatever the layout.  The NULL tests come from the same minima: a NULL
 * tag, key or message with bytes makes its minimum 0.  An empty message
 * stands for its key (it has no bytes).  Branch-free over the entries,
 * out of line so that the loop has the registers to itself.
 */
struct scan {
    int bad;
    int apart;          /* the tags' span is apart from the inputs' */
    size_t max;
};

__attribute__((noinline)) static struct scan scan(uint8_t *const tags[],
                                                  const void *const msgs[],
                                                  const size_t lens[],
                                                  const uint8_t *const keys[], size_t n)
{
    uintptr_t mlo = UINTPTR_MAX, mhi = 0, klo = UINTPTR_MAX, khi = 0;
    uintptr_t tlo = UINTPTR_MAX, thi = 0;
    size_t max = 0;
    for (size_t i = 0; i < n; i++) {
        const uintptr_t t = (uintptr_t)tags[i], kp = (uintptr_t)keys[i];
        const size_t len = lens[i];
        const uintptr_t m = len ? (uintptr_t)msgs[i] : kp;
        max = len > max ? len : max;
        mlo = m < mlo ? m : mlo;
        mhi = m + len > mhi ? m + len : mhi;
        klo = kp < klo ? kp : klo;
        khi = kp > khi ? kp : khi;
        tlo = t < tlo ? t : tlo;
        thi = t > thi ? t : thi;
    }
    const uintptr_t lo = mlo < klo ? mlo : klo;
    const uintptr_t hi = mhi > khi + 32 ? mhi : khi + 32;
    struct scan r = { lo == 0 || tlo == 0, thi + 16 <= lo || tlo >= hi, max };
    return r;
}

/* tags[i] = buf[i] for i < n, each buf[i] zeroed once copied: 16-byte
 * stores in the loop (the barrier keeps them there: a memset of the
 * whole buffer after it becomes rep stos, whose start-up costs more than
 * a short batch's copies). */
static void copy_wipe(uint8_t *const tags[], uint8_t (*buf)[16], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memcpy(tags[i], buf[i], 16);
        memset(buf[i], 0, 16);
        __asm__ __volatile__("" : : "r"(buf[i]) : "memory");
    }
}

/* Whether any entry is invalid (a NULL tag or key, a NULL message with a
 * non-zero length); the longest message into *max, and into *diff a
 * value that is 0 when every message has the length of the first: the
 * checks alone, for the batches that need no spans (scan).  One pass:
 * the three tests combined into one branch an entry made 8 x 64 B 6%
 * slower, a second loop over the lengths 4%. */
static int bad_entry(uint8_t *const tags[], const void *const msgs[], const size_t lens[],
                     const uint8_t *const keys[], size_t n, size_t *max, size_t *diff)
{
    size_t m = 0, d = 0;
    for (size_t i = 0; i < n; i++) {
        if (!tags[i] || !keys[i] || (!msgs[i] && lens[i]))
            return 1;
        m = lens[i] > m ? lens[i] : m;
        d |= lens[i] ^ lens[0];
    }
    *max = m;
    *diff = d;
    return 0;
}

static int by_runs(const struct polymac_kernel *k, uint8_t *const tags[],
                   const void *const msgs[], const size_t lens[],
                   const uint8_t *const keys[], size_t n, int apart);

/* A batch of at most a run through the kernel's own checks (lanes_batch,
 * lib/kernel.h): its result, or 1 when the kernel has no such entry or
 * the batch is too small for its lanes at the first length or does not
 * suit it (the caller then goes on as without it). */
static int kernel_batch(const struct polymac_kernel *k, uint8_t *const tags[],
                        const void *const msgs[], const size_t lens[],
                        const uint8_t *const keys[], size_t n)
{
    if (!k->lanes_batch || n > RUN || n < lanes_min(k, 0, lens[0]))
        return 1;
    const int rc = k->lanes_batch(tags, msgs, lens, keys, n);
    if (rc <= 0)
        polymac_after_kernel(k);
    return rc;
}

int polymac_auth_batch(uint8_t *const tags[], const void *const msgs[],
                       const size_t lens[], const uint8_t *const keys[], size_t n)
{
    if (n == 0)
        return POLYMAC_OK;
    if (!tags || !msgs || !lens || !keys)
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
    if (n == 1 && k) {
        /* one message: polymac_auth's checks and path, when its tag lies
         * apart from its key (polymac_auth's every path reads the
         * message before it writes the tag, but some read s while they
         * write it) */
        uint8_t *const t = tags[0];
        const uint8_t *const key = keys[0];
        if (!t || !key || (!msgs[0] && lens[0]))
            return POLYMAC_EINVAL;
        if ((uintptr_t)t + 16 <= (uintptr_t)key || (uintptr_t)t >= (uintptr_t)key + 32) {
            polymac_auth_one(k, t, msgs[0], lens[0], key);
            return POLYMAC_OK;
        }
    }
    if (k) {
        const int rc = kernel_batch(k, tags, msgs, lens, keys, n);
        if (rc <= 0)
            return rc;
    }
    if (!k || !k->lanes || n <= RUN) {
        /* The NULL checks alone (the spans matter only for a long batch
         * with lanes, below). */
        size_t max, diff;
        if (bad_entry(tags, msgs, lens, keys, n, &max, &diff))
            return POLYMAC_EINVAL;
        if (!k)
            return POLYMAC_ENOKERNEL;
        /* the entries the lanes would take */
        size_t c = n;
        if (k->lanes && max > k->lanes_max) {
            c = 0;
            for (size_t i = 0; i < n; i++)
                c += (lens[i] <= k->lanes_max);
        }
        if (!k->lanes || (c == n ? c < lanes_min(k, diff, max) : c < lanes_least(k))) {
            if (n > RUN)
                return by_runs(k, tags, msgs, lens, keys, n, 0);
            /* no lanes: one by one, into a buffer (every input is read
             * before a tag is written), with less to set up than a run
             * (2 or 3 x 64 B 10% faster, 8 x 64 B 8%) */
            uint8_t buf[RUN][16];
            for (size_t i = 0; i < n; i++)
                polymac_auth_one(k, buf[i], msgs[i], lens[i], keys[i]);
            for (size_t i = 0; i < n; i++)
                memcpy(tags[i], buf[i], 16);
            return POLYMAC_OK;
        }
        /* lanes for some of these messages: the one-shot paths and the
         * lanes run by run */
        if (c < n)
            return by_runs(k, tags, msgs, lens, keys, n, 0);
        /* A short batch into a buffer of its own: every input is read
         * before the first tag is written, whatever the layout, so the
         * spans need no scan (copying the tags costs less). */
        uint8_t buf[RUN][16], *to[RUN];
        for (size_t i = 0; i < n; i++)
            to[i] = buf[i];
        k->lanes(to, (const uint8_t *const *)msgs, lens, keys, n);
        polymac_after_kernel(k);
        copy_wipe(tags, buf, n);
        return POLYMAC_OK;
    }
    const struct scan sc = scan(tags, msgs, lens, keys, n);
    if (sc.bad)
        return POLYMAC_EINVAL;

    if (sc.max <= k->lanes_max) {
        if (sc.apart) {
            /* the common case: the lanes write the tags in place */
            k->lanes(tags, (const uint8_t *const *)msgs, lens, keys, n);
            polymac_after_kernel(k);
            return POLYMAC_OK;
        }
    }

    return by_runs(k, tags, msgs, lens, keys, n, sc.apart);
}

/* Messages too long for the lanes among them, a long batch whose spans
 * meet, or a kernel without lanes.  Every message and key is read before
 * any tag is written: a batch of one run always, a longer one through a
 * heap buffer when some tag lies among the inputs (else run by run). */
static int by_runs(const struct polymac_kernel *k, uint8_t *const tags[],
                   const void *const msgs[], const size_t lens[],
                   const uint8_t *const keys[], size_t n, int apart)
{
    uint8_t local[RUN][16];
    uint8_t (*all)[16] = NULL;
    if (n > RUN && !apart && tags_inside(tags, msgs, lens, keys, n)) {
        if (n > SIZE_MAX / 16 || !(all = malloc(n * 16)))
            return POLYMAC_ENOMEM;
    }
    for (size_t i = 0; i < n; i += RUN) {
        size_t c = n - i < RUN ? n - i : RUN;
        uint8_t (*out)[16] = all ? all + i : local;
        run(k, out, msgs + i, lens + i, keys + i, c);
        if (!all)
            for (size_t j = 0; j < c; j++)
                memcpy(tags[i + j], out[j], 16);
    }
    if (all) {
        for (size_t i = 0; i < n; i++)
            memcpy(tags[i], all[i], 16);
        free(all);
    }
    return POLYMAC_OK;
}

int polymac_verify_batch(const uint8_t *const tags[], const void *const msgs[],
                         const size_t lens[], const uint8_t *const keys[],
                         size_t n, int results[])
{
    int rc = check(tags, msgs, lens, keys, n);
    if (rc)
        return rc;
    if (n && !results)
        return POLYMAC_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!tags[i])
            return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;

    /* every tag is computed and compared; no early exit on a mismatch */
    uint8_t local[RUN][16];
    int acc = 0;
    for (size_t i = 0; i < n; i += RUN) {
        size_t c = n - i < RUN ? n - i : RUN;
        /* the kernel's own batch path, into these rows (apart from every
         * input), or a run */
        uint8_t *rows[RUN];
        for (size_t j = 0; j < c; j++)
            rows[j] = local[j];
        if (kernel_batch(k, rows, msgs + i, lens + i, keys + i, c) != 0)
            run(k, local, msgs + i, lens + i, keys + i, c);
        for (size_t j = 0; j < c; j++) {
            int r = polymac_compare_tags(local[j], tags[i + j]);
            results[i + j] = r;
            acc |= r;
            /* the expected tag, zeroed once compared: a 16-byte store a
             * row (a memset of the rows becomes rep stos, whose start-up
             * cost 8 x 64 B about 8%) */
            memset(local[j], 0, 16);
            __asm__ __volatile__("" : : "r"(local[j]) : "memory");
        }
    }
    return acc;
}
