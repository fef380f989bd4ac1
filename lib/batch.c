/* batch.c -- the batch calls: many independent messages, one key each,
 *            across a kernel's lanes or through its one-shot path */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "dispatch.h"
#include "core.h"
#include "util.h"
#include "cpu.h"
#include "batch_scan.h"

/* Entries per run: the most the lanes are handed at once. */
#define RUN 64

#ifdef POLYMAC_SCAN_X86
/* A batch of n <= 8 the lanes l read whole (polymac_lanes.reads_first),
 * on a CPU with AVX-512: the checks alone, with no span to compare, and
 * the tags written in place.  POLYMAC_EINVAL for an invalid entry,
 * POLYMAC_OK with the tags written, or 1 when the lanes do not take it
 * (too few, or a message too long). */
POLYMAC_SCAN_AVX512 __attribute__((noinline)) static int
small_avx512(const struct polymac_kernel *k, uint8_t *const tags[], const void *const msgs[],
             const size_t lens[], const uint8_t *const keys[], size_t n)
{
    const struct polymac_lanes *l = k->lanes;
    const __mmask8 m8 = polymac_scan_first(n);
    const __m512i t = _mm512_maskz_loadu_epi64(m8, tags);
    const __m512i m = _mm512_maskz_loadu_epi64(m8, msgs);
    const __m512i y = _mm512_maskz_loadu_epi64(m8, keys);
    const __m512i len = _mm512_maskz_loadu_epi64(m8, lens);
    if (polymac_scan_nulls(m8, t, m, y, len))
        return POLYMAC_EINVAL;
    const int same = _mm512_mask_cmpneq_epu64_mask(m8, len, _mm512_set1_epi64((long long)lens[0])) == 0;
    if (_mm512_mask_cmpgt_epu64_mask(m8, len, _mm512_set1_epi64((long long)l->max_len))
        || n < (same ? l->min_same : l->min_mixed))
        return 1;
    l->run(tags, (const uint8_t *const *)msgs, lens, keys, n);
    polymac_wipe_dead_stack(k);
    return POLYMAC_OK;
}
#endif

/* The validation pass (batch_scan.h) in the widest vectors the CPU has */
static struct polymac_scan scan(const uint8_t *const tags[], const void *const msgs[],
                                const size_t lens[], const uint8_t *const keys[], size_t n)
{
#ifdef POLYMAC_SCAN_X86
    const uint32_t cpu = polymac_cpu_bits();
    if (cpu & POLYMAC_CPU_X86_AVX512F)
        return polymac_scan_avx512(tags, msgs, lens, keys, n);
    if (cpu & POLYMAC_CPU_X86_AVX2)
        return polymac_scan_avx2(tags, msgs, lens, keys, n);
#endif
    return polymac_scan_c(tags, msgs, lens, keys, n);
}

/* Whether the lanes l take a message of len bytes: up to max_len, or up
 * to max_len_full while *full (the count of those left to take:
 * polymac_lanes_longer) lasts. */
static inline int lanes_take(const struct polymac_lanes *l, size_t len, size_t *full)
{
    if (len <= l->max_len)
        return 1;
    if (len > l->max_len_full || !*full)
        return 0;
    --*full;
    return 1;
}

/* out[i] = the tag of entry i < n (n <= RUN).  The messages of at most
 * the lanes' max_len (and of the longer ones, up to max_len_full, whole
 * sets) go to the lanes when the run has as many of them as the
 * lanes ask (one set of lanes costs about as much for one message as for
 * a full set, and a loop of one-shot calls overlaps short messages by
 * itself); the others one by one as polymac_auth takes them. */
__attribute__((noinline)) static void run(const struct polymac_kernel *k,
                                          uint8_t *const out[], const void *const msgs[],
                                          const size_t lens[],
                                          const uint8_t *const keys[], size_t n)
{
    const struct polymac_lanes *l = k->lanes;
    size_t nl = 0, nfull = 0;
    if (l) {
        /* the longer messages as whole sets of lanes */
        if (l->full) {
            for (size_t i = 0; i < n; i++)
                nfull += lens[i] > l->max_len && lens[i] <= l->max_len_full;
            nfull = polymac_lanes_longer(l, nfull);
        }
        size_t first = SIZE_MAX, diff = 0, left = nfull;
        for (size_t i = 0; i < n; i++) {
            const size_t in = (size_t)lanes_take(l, lens[i], &left);
            nl += in;
            first = in && first == SIZE_MAX ? lens[i] : first;
            diff |= in ? lens[i] ^ first : 0;
        }
        if (nl < (diff ? l->min_mixed : l->min_same))
            nl = 0;
    }
    if (nl == n) {
        l->run(out, (const uint8_t *const *)msgs, lens, keys, n);
        polymac_wipe_dead_stack(k);
        return;
    }
    uint8_t *lo[RUN];
    const uint8_t *lm[RUN], *lk[RUN];
    size_t ll[RUN], j = 0, left = nfull;
    for (size_t i = 0; i < n; i++) {
        if (nl && lanes_take(l, lens[i], &left)) {
            lo[j] = out[i];
            lm[j] = msgs[i];
            ll[j] = lens[i];
            lk[j] = keys[i];
            j++;
        } else {
            polymac_auth_nocheck(k, out[i], msgs[i], lens[i], keys[i]);
        }
    }
    if (j) {
        l->run(lo, lm, ll, lk, j);
        polymac_wipe_dead_stack(k);
    }
}

/* The whole batch into rows[i] (pointers to 16-byte tags): one by one
 * when it is short and every message is below the lanes' min_len, in one
 * call of the lanes when every message fits them and there are enough,
 * else run by run. */
static void runs(const struct polymac_kernel *k, uint8_t *const rows[],
                 const void *const msgs[], const size_t lens[],
                 const uint8_t *const keys[], size_t n, const struct polymac_scan *sc)
{
    const struct polymac_lanes *l = k->lanes;
    if (l && n <= POLYMAC_LANES_SHORT_RUN && sc->max < l->min_len) {
        for (size_t i = 0; i < n; i++)
            polymac_auth_nocheck(k, rows[i], msgs[i], lens[i], keys[i]);
        return;
    }
    if (l && sc->max <= l->max_len && n >= (sc->diff ? l->min_mixed : l->min_same)) {
        l->run(rows, (const uint8_t *const *)msgs, lens, keys, n);
        polymac_wipe_dead_stack(k);
        return;
    }
    for (size_t i = 0; i < n; i += RUN)
        run(k, rows + i, msgs + i, lens + i, keys + i, n - i < RUN ? n - i : RUN);
}

/* The tags copied out of a buffer, which is zeroed: 16-byte stores a row
 * (the barrier keeps them: a memset of the buffer becomes rep stos, whose
 * start-up costs a short batch more). */
static void copy_wipe(uint8_t *const tags[], uint8_t (*buf)[16], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memcpy(tags[i], buf[i], 16);
        memset(buf[i], 0, 16);
        __asm__ __volatile__("" : : "r"(buf[i]) : "memory");
    }
}

int polymac_auth_batch(uint8_t *const tags[], const void *const msgs[],
                       const size_t lens[], const uint8_t *const keys[], size_t n)
{
    if (n == 0)
        return POLYMAC_OK;
    if (!tags || !msgs || !lens || !keys)
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
#ifdef POLYMAC_SCAN_X86
    if (k && k->lanes && n <= k->lanes->reads_first && n <= 8
        && (polymac_cpu_bits() & POLYMAC_CPU_X86_AVX512F)) {
        const int rc = small_avx512(k, tags, msgs, lens, keys, n);
        if (rc <= 0)
            return rc;
    }
#endif
    const struct polymac_scan sc = scan((const uint8_t *const *)tags, msgs, lens, keys, n);
    if (sc.bad)
        return POLYMAC_EINVAL;
    if (!k)
        return POLYMAC_ENOKERNEL;
    if (sc.apart) {
        /* the common layout: the tags written in place */
        runs(k, tags, msgs, lens, keys, n, &sc);
        return POLYMAC_OK;
    }
    /* some tag lies among the inputs: every input is read before any tag
     * is written, through a buffer (on the stack for one run) */
    uint8_t local[RUN][16], (*buf)[16] = local;
    if (n > RUN && (n > SIZE_MAX / (16 + sizeof(uint8_t *))
                    || !(buf = malloc(n * (16 + sizeof(uint8_t *))))))
        return POLYMAC_ENOMEM;
    uint8_t *lrows[RUN], **rows = n > RUN ? (uint8_t **)(buf + n) : lrows;
    for (size_t i = 0; i < n; i++)
        rows[i] = buf[i];
    runs(k, rows, msgs, lens, keys, n, &sc);
    copy_wipe(tags, buf, n);
    if (buf != local)
        free(buf);
    return POLYMAC_OK;
}

int polymac_verify_batch(const uint8_t *const tags[], const void *const msgs[],
                         const size_t lens[], const uint8_t *const keys[],
                         size_t n, int results[])
{
    if (n == 0)
        return POLYMAC_OK;
    if (!tags || !msgs || !lens || !keys || !results)
        return POLYMAC_EINVAL;
    const struct polymac_scan sc = scan(tags, msgs, lens, keys, n);
    if (sc.bad)
        return POLYMAC_EINVAL;
    const struct polymac_kernel *k = polymac_active();
    if (!k)
        return POLYMAC_ENOKERNEL;

    /* every tag is computed and compared; no early exit on a mismatch */
    uint8_t local[RUN][16], *rows[RUN];
    for (size_t j = 0; j < RUN; j++)
        rows[j] = local[j];
    int acc = 0;
    for (size_t i = 0; i < n; i += RUN) {
        size_t c = n - i < RUN ? n - i : RUN;
        runs(k, rows, msgs + i, lens + i, keys + i, c, &sc);
        for (size_t j = 0; j < c; j++) {
            int r = polymac_compare_tags(local[j], tags[i + j]);
            results[i + j] = r;
            acc |= r;
            /* the expected tag, zeroed once compared (a 16-byte store a
             * row, as copy_wipe) */
            memset(local[j], 0, 16);
            __asm__ __volatile__("" : : "r"(local[j]) : "memory");
        }
    }
    return acc;
}
