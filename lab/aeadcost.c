/* aeadcost.c -- the AEAD tag's cost over polymac_auth of the padded
 *               bytes, split between the kernel and the front end
 *               (build/lab/polymac-aead-cost [KERNEL] [AAD CT]...) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * For each (AAD, ciphertext) length pair (default 13 1024, 20 1200, 0
 * 1040, 0 16384), with the active kernel (or KERNEL, through
 * polymac_backend_select), four calls over the same bytes, interleaved
 * over 2001 rounds of 16 calls each (a new key byte each call), medians in
 * ticks a call (test/ticks.h; TSC cycles on x86):
 *   auth:        polymac_auth of the padded layout;
 *   k->auth:     the kernel's own auth of it, without the front end;
 *   k->spans:    the kernel's auth_spans over the layout cut as the AEAD
 *                cuts it (the AAD's whole blocks, its padded block, the
 *                ciphertext's whole blocks, its padded block and the
 *                lengths), here all inside the padded bytes;
 *   aead:        polymac_aead_auth.
 * aead - auth is what the target bounds; k->spans - k->auth is
 * the kernel's share of it, aead - k->spans the AEAD front end's.  This
 * is what polymac-ab --aead-vs-auth cannot show.  Linked with the
 * library's own objects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "dispatch.h"
#include "kernel.h"
#include "util.h"
#include "../test/aead_layout.h"
#include "../test/ticks.h"

enum { ROUNDS = 2001, REP = 16, WAYS = 4, MAXLEN = 65536 };

static int cmp(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double median(uint64_t *t)
{
    qsort(t, ROUNDS, sizeof *t, cmp);
    return (double)t[ROUNDS / 2] / REP;
}

struct work {
    const struct polymac_kernel *k;
    const uint8_t *aad, *ct, *padded;
    size_t alen, clen, plen;
    struct polymac_span sp[4];
    size_t nsp;
};

static uint64_t run(const struct work *w, int way, uint8_t key[32])
{
    uint8_t tag[16];
    const uint64_t t0 = test_ticks();
    for (unsigned q = 0; q < REP; q++) {
        key[0] = (uint8_t)q;
        switch (way) {
        case 0: polymac_auth(tag, w->padded, w->plen, key); break;
        case 1: w->k->auth(tag, w->padded, w->plen, key); break;
        case 2: w->k->auth_spans(tag, w->sp, w->nsp, key); break;
        default: polymac_aead_auth(tag, w->aad, w->alen, w->ct, w->clen, key); break;
        }
    }
    return test_ticks() - t0;
}

int main(int argc, char **argv)
{
    int a = 1;
    if (argc > 1 && (argv[1][0] < '0' || argv[1][0] > '9')) {
        if (polymac_backend_select(argv[1]) != POLYMAC_OK) {
            fprintf(stderr, "polymac-aead-cost: no usable kernel %s\n", argv[1]);
            return 2;
        }
        a = 2;
    }
    static const size_t def[] = {13, 1024, 20, 1200, 0, 1040, 0, 16384};
    const struct polymac_kernel *k = polymac_active();
    static uint8_t aad[MAXLEN], ct[MAXLEN], padded[2 * MAXLEN + 32];
    static uint64_t t[WAYS][ROUNDS];
    uint8_t key[32];
    if ((argc - a) % 2) {
        fprintf(stderr, "usage: polymac-aead-cost [KERNEL] [AAD CT]... (lengths up to %d)\n",
                MAXLEN);
        return 2;
    }
    if (!k || !k->auth || !k->auth_spans) {
        fprintf(stderr, "polymac-aead-cost: kernel %s has no auth and auth_spans of its own "
                        "(the front end's radix-2^64 code runs its AEAD)\n",
                k ? k->name : "(none)");
        return 2;
    }
    for (size_t i = 0; i < MAXLEN; i++) {
        aad[i] = (uint8_t)(i * 5 + 3);
        ct[i] = (uint8_t)(i * 7 + 1);
    }
    for (unsigned i = 0; i < 32; i++)
        key[i] = (uint8_t)(i * 3 + 5);
    printf("%s; medians of %u interleaved rounds of %u calls, ticks a call (TSC cycles on x86)\n"
           "   AAD      CT     auth  k->auth  k->spans     aead  aead/auth   kernel  front end\n",
           k->name, ROUNDS, REP);
    const int pairs = argc > a ? (argc - a) / 2 : 4;
    for (int c = 0; c < pairs; c++) {
        struct work w = {k, aad, ct, padded, 0, 0, 0, {{0}}, 0};
        w.alen = argc > a ? strtoul(argv[a + 2 * c], NULL, 0) : def[2 * c];
        w.clen = argc > a ? strtoul(argv[a + 2 * c + 1], NULL, 0) : def[2 * c + 1];
        if (w.alen > MAXLEN || w.clen > MAXLEN) {
            fprintf(stderr, "polymac-aead-cost: lengths up to %d\n", MAXLEN);
            return 2;
        }
        const size_t pa = (w.alen + 15) / 16 * 16;
        memset(padded, 0, sizeof padded);
        w.plen = aead_layout(padded, aad, w.alen, ct, w.clen);
        if (w.alen >= 16)
            w.sp[w.nsp++] = (struct polymac_span){padded, w.alen / 16};
        if (w.alen % 16)
            w.sp[w.nsp++] = (struct polymac_span){padded + w.alen / 16 * 16, 1};
        if (w.clen >= 16)
            w.sp[w.nsp++] = (struct polymac_span){padded + pa, w.clen / 16};
        w.sp[w.nsp++] = (struct polymac_span){padded + pa + w.clen / 16 * 16,
                                              (size_t)(w.clen % 16 != 0) + 1};
        /* the four give one tag, or the split means nothing */
        uint8_t want[16], got[16];
        polymac_auth(want, padded, w.plen, key);
        for (int way = 1; way < WAYS; way++) {
            if (way == 1)
                k->auth(got, padded, w.plen, key);
            else if (way == 2 && k->auth_spans(got, w.sp, w.nsp, key)) {
                fprintf(stderr, "polymac-aead-cost: %zu + %zu is below the kernel's vector "
                                "break-even (its auth_spans leaves it to the front end)\n",
                        w.alen, w.clen);
                return 2;
            } else if (way == 3)
                polymac_aead_auth(got, aad, w.alen, ct, w.clen, key);
            if (memcmp(got, want, 16) != 0) {
                fprintf(stderr, "polymac-aead-cost: way %d gives another tag at %zu + %zu\n",
                        way, w.alen, w.clen);
                return 1;
            }
        }
        /* each round starts with another of the four */
        for (unsigned r = 0; r < ROUNDS; r++)
            for (int i = 0; i < WAYS; i++) {
                const int way = (i + (int)r) % WAYS;
                t[way][r] = run(&w, way, key);
            }
        double m[WAYS];
        for (int way = 0; way < WAYS; way++)
            m[way] = median(t[way]);
        printf("%6zu %7zu %8.1f %8.1f %9.1f %8.1f %9.3fx %8.1f %10.1f\n", w.alen, w.clen, m[0],
               m[1], m[2], m[3], m[3] / m[0], m[2] - m[1], m[3] - m[2]);
    }
    return 0;
}
