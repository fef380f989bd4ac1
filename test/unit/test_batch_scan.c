/* test_batch_scan.c -- the batch's validation pass (lib/batch_scan.h):
 *                      each vector version this CPU runs against the C one */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * Batches of 1 to 40 entries (every n % 4 and n % 8, so that the vector
 * versions' tails run) whose pointers and lengths are
 *   - laid out as programs lay them out (arrays of tags before, after or
 *     among the messages and the keys; empty messages; NULL entries), or
 *   - random words, high bits included (the unsigned order, sums that
 *     wrap),
 * are scanned by the C pass and by the AVX2 and AVX-512 passes where the
 * CPU has them: the verdicts (bad, apart), the longest length and whether
 * the lengths differ must agree.  A must-fail check: a C pass with one
 * entry left out disagrees on the same batches.  The C pass itself is
 * checked against a direct overlap test of every tag against every input.
 * Exit 0 when all agree, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "batch_scan.h"

#define MAXN 40

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

struct entries {
    const uint8_t *tags[MAXN];
    const void *msgs[MAXN];
    size_t lens[MAXN];
    const uint8_t *keys[MAXN];
    size_t n;
};

static uint8_t arena[1 << 16];

/* A batch as programs lay one out: one region holds the messages, the
 * keys and the tags, each array at a random offset; some entries empty,
 * now and then one NULL pointer. */
static void layout(struct entries *e, uint64_t *x)
{
    const size_t n = e->n;
    const size_t mo = rnd(x) % 16384, ko = rnd(x) % 16384 + 16384, to = rnd(x) % 49152;
    const size_t step = 1 + rnd(x) % 300;
    for (size_t i = 0; i < n; i++) {
        e->lens[i] = rnd(x) % 4 == 0 ? 0 : rnd(x) % 300;
        e->msgs[i] = arena + mo + step * i;
        e->keys[i] = arena + ko + 33 * i;
        e->tags[i] = arena + to + 17 * i;
    }
    if (rnd(x) % 4 == 0) {
        const size_t i = rnd(x) % n;
        switch (rnd(x) % 3) {
        case 0: e->tags[i] = NULL; break;
        case 1: e->keys[i] = NULL; break;
        default: e->msgs[i] = NULL; break;
        }
    }
}

/* random words, one in eight 0 */
static void words(struct entries *e, uint64_t *x)
{
    for (size_t i = 0; i < e->n; i++) {
        uint64_t w[4];
        for (unsigned j = 0; j < 4; j++)
            w[j] = rnd(x) % 8 == 0 ? 0 : rnd(x) >> (rnd(x) % 64);
        e->tags[i] = (const uint8_t *)(uintptr_t)w[0];
        e->msgs[i] = (const void *)(uintptr_t)w[1];
        e->keys[i] = (const uint8_t *)(uintptr_t)w[2];
        e->lens[i] = rnd(x) % 2 ? (size_t)w[3] : (size_t)(w[3] % 64);
    }
}

/* The C pass's verdicts from their definition, entry by entry: a NULL
 * tag or key or a NULL message with bytes is bad; apart unless the span
 * of the tags meets the span of the inputs (layout batches only: no sums
 * wrap there). */
static void direct(const struct entries *e, int *bad, int *apart)
{
    uintptr_t tlo = UINTPTR_MAX, thi = 0, lo = UINTPTR_MAX, hi = 0;
    *bad = 0;
    for (size_t i = 0; i < e->n; i++) {
        const uintptr_t t = (uintptr_t)e->tags[i], k = (uintptr_t)e->keys[i];
        const uintptr_t m = (uintptr_t)e->msgs[i];
        *bad |= !t || !k || (!m && e->lens[i]);
        tlo = t < tlo ? t : tlo;
        thi = t + 16 > thi ? t + 16 : thi;
        lo = k < lo ? k : lo;
        hi = k + 32 > hi ? k + 32 : hi;
        if (e->lens[i]) {
            lo = m < lo ? m : lo;
            hi = m + e->lens[i] > hi ? m + e->lens[i] : hi;
        }
    }
    *apart = thi <= lo || tlo >= hi;
}

static int same(struct polymac_scan a, struct polymac_scan b)
{
    return a.bad == b.bad && a.apart == b.apart && a.max == b.max
           && (a.diff != 0) == (b.diff != 0);
}

typedef struct polymac_scan (*scan_fn)(const uint8_t *const[], const void *const[],
                                       const size_t[], const uint8_t *const[], size_t);

/* the C pass without entry n - 1: the must-fail model */
static struct polymac_scan scan_short(const uint8_t *const t[], const void *const m[],
                                      const size_t l[], const uint8_t *const k[], size_t n)
{
    return polymac_scan_c(t, m, l, k, n > 1 ? n - 1 : n);
}

int main(void)
{
    const uint32_t cpu = polymac_cpu_bits();
    struct {
        const char *name;
        scan_fn f;
        int runs;
    } v[] = {
#ifdef POLYMAC_SCAN_X86
        {"avx2", polymac_scan_avx2, (cpu & POLYMAC_CPU_X86_AVX2) != 0},
        {"avx512", polymac_scan_avx512, (cpu & POLYMAC_CPU_X86_AVX512F) != 0},
#endif
        {"c without its last entry (must disagree)", scan_short, 1},
    };
    const unsigned nv = sizeof v / sizeof v[0];
    unsigned long bad[8] = {0}, checked = 0, direct_bad = 0;
    static struct entries e;
    uint64_t x = 0x243f6a8885a308d3ull;
    (void)cpu;
    for (unsigned it = 0; it < 200000; it++) {
        e.n = 1 + rnd(&x) % MAXN;
        const int real = it % 2 == 0;
        if (real)
            layout(&e, &x);
        else
            words(&e, &x);
        const struct polymac_scan want = polymac_scan_c(e.tags, e.msgs, e.lens, e.keys, e.n);
        if (real) {
            int b, a;
            direct(&e, &b, &a);
            direct_bad += b != want.bad || (!b && a != want.apart);
        }
        for (unsigned j = 0; j < nv; j++)
            if (v[j].runs)
                bad[j] += !same(v[j].f(e.tags, e.msgs, e.lens, e.keys, e.n), want);
        checked++;
    }
    int fail = direct_bad != 0;
    printf("C pass against the direct overlap test: %lu of %lu layouts disagree\n", direct_bad,
           checked / 2);
    for (unsigned j = 0; j < nv; j++) {
        const int must_fail = j == nv - 1;
        if (!v[j].runs) {
            printf("%s: not run (this CPU lacks it)\n", v[j].name);
            continue;
        }
        printf("%s: %lu of %lu batches disagree with the C pass\n", v[j].name, bad[j], checked);
        fail |= must_fail ? bad[j] == 0 : bad[j] != 0;
    }
    printf("%s\n", fail ? "FAIL" : "ok");
    return fail;
}
