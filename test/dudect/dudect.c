/* dudect.c -- timing test of every kernel: fixed versus random secrets,
 *             Welch's t-test on cycle counts (the method of dudect) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * An independent check beside the MemorySanitizer and valgrind ones: it
 * sees what the machine does, not what the code says (a multiply whose
 * time depends on its operands, a branch the compiler put in), but only
 * as far as statistics can resolve on this machine.
 *
 * The method of dudect (Reparaz, Balasch, Verbauwhede, "Dude, is my code
 * constant time?", 2017): two classes of inputs, the secret fixed (class
 * 0) or random (class 1), interleaved in a random order; the cycle count
 * of each call (rdtsc between lfences); Welch's t-test between the
 * classes, once on every measurement and once per cropping threshold
 * (measurements above the p-th percentile of a first batch dropped, for
 * 20 values of p from 0.34 up to 0.9990, as dudect does, since the upper
 * tail is mostly interrupts and other tenants).  The result is the
 * largest |t| over those tests with enough measurements; dudect reads
 * |t| > 10 as a leak, and so does this test by default.
 *
 * Per kernel, two tests, the message length fixed (1 KiB: the vector path
 * of every kernel, one-shot):
 *   key     polymac_auth, class 0 an all-zero key, class 1 a random key
 *   tag     polymac_verify, key and message fixed, class 0 the right tag,
 *           class 1 a random tag (an early-exit compare would show here)
 *
 *   dudect [--time S] [--threshold T] [--planted] [KERNEL...]
 *       S seconds in all (default 12), shared evenly by the tests; every
 *       usable kernel when none is named.  --planted: the tag test runs an
 *       early-exit compare instead of polymac_verify (test of the test:
 *       it must be reported as a leak).
 *       --fixed-random: the key test's fixed class is a fixed random key
 *       instead of the all-zero key.
 *   dudect --best     prints the kernel automatic selection chooses here
 * Prints one line per test; exit 0 no leak, 1 a leak (|t| > T), 2 usage,
 * 77 nothing could run.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "polymac.h"
#include "../rand.h"
#include "../ticks.h"

#define MSGLEN 1024
#define BATCH 5000
#define NCROP 20
#define NTESTS (1 + NCROP)
#define ENOUGH 10000          /* measurements per test before its t counts */

static uint64_t seed = 0x64756465u;

static uint64_t rnd(void) { return test_rand(&seed); }
static void fill(uint8_t *p, size_t n) { test_fill(p, n, &seed); }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Welch's t-test, accumulated online (Welford) */
struct welch {
    double n[2], mean[2], m2[2];
};

static void welch_add(struct welch *w, int c, double x)
{
    w->n[c] += 1;
    double d = x - w->mean[c];
    w->mean[c] += d / w->n[c];
    w->m2[c] += d * (x - w->mean[c]);
}

static double welch_t(const struct welch *w)
{
    if (w->n[0] < 2 || w->n[1] < 2)
        return 0;
    double v0 = w->m2[0] / (w->n[0] - 1), v1 = w->m2[1] / (w->n[1] - 1);
    double den = sqrt(v0 / w->n[0] + v1 / w->n[1]);
    return den > 0 ? (w->mean[0] - w->mean[1]) / den : 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

enum which { T_KEY, T_TAG };

static uint8_t msg[MSGLEN];
static uint8_t keys[BATCH][32], tags[BATCH][16];
static uint8_t cls[BATCH];
static uint64_t times[BATCH];
static int planted;
static int fixed_random;       /* --fixed-random: class 0 a fixed random key, not zero */
static uint8_t fixed_class_key[32];

/* test of the test: the tag compared byte by byte with an early exit */
__attribute__((noinline)) static int leaky_verify(const uint8_t *want, const uint8_t *key)
{
    uint8_t tag[16];
    if (polymac_auth(tag, msg, MSGLEN, key) != 0)
        return -1;
    for (int i = 0; i < 16; i++)
        if (((volatile uint8_t *)tag)[i] != want[i])
            return POLYMAC_EBADTAG;
    return 0;
}

/* one test of one kernel for about `budget` seconds: the largest |t| */
static double run_test(enum which which, double budget, double *measured)
{
    struct welch w[NTESTS];
    uint64_t crop[NCROP];
    uint8_t fixed_key[32], right[16], tag[16];
    int have_crop = 0;
    double t_end = now() + budget;
    memset(w, 0, sizeof w);
    fill(msg, MSGLEN);
    fill(fixed_key, 32);
    if (fixed_random)
        memcpy(fixed_class_key, fixed_key, 32);
    else
        memset(fixed_class_key, 0, 32);
    if (polymac_auth(right, msg, MSGLEN, fixed_key) != 0)
        return -1;
    *measured = 0;
    do {
        /* inputs first, random class order; then only the timed calls */
        for (int i = 0; i < BATCH; i++) {
            cls[i] = (uint8_t)(rnd() >> 63);
            if (which == T_KEY) {
                if (cls[i] == 0)
                    memcpy(keys[i], fixed_class_key, 32);
                else
                    fill(keys[i], 32);
            } else if (cls[i] == 0) {
                memcpy(tags[i], right, 16);
            } else {
                fill(tags[i], 16);
            }
        }
        for (int i = 0; i < BATCH; i++) {
            volatile int rc;
            uint64_t t0 = test_ticks();
            if (which == T_KEY)
                rc = polymac_auth(tag, msg, MSGLEN, keys[i]);
            else if (planted)
                rc = leaky_verify(tags[i], fixed_key);
            else
                rc = polymac_verify(tags[i], msg, MSGLEN, fixed_key);
            times[i] = test_ticks() - t0;
            (void)rc;
        }
        if (!have_crop) {
            /* thresholds from the first batch, which is then discarded
             * (it also warms caches and the predictor) */
            static uint64_t sorted[BATCH];
            memcpy(sorted, times, sizeof sorted);
            qsort(sorted, BATCH, sizeof *sorted, cmp_u64);
            for (int k = 0; k < NCROP; k++) {
                double p = 1 - pow(0.5, 10.0 * (k + 1) / NCROP);
                crop[k] = sorted[(size_t)(p * BATCH)];
            }
            have_crop = 1;
            continue;
        }
        for (int i = 0; i < BATCH; i++) {
            double x = (double)times[i];
            welch_add(&w[0], cls[i], x);
            for (int k = 0; k < NCROP; k++)
                if (times[i] < crop[k])
                    welch_add(&w[1 + k], cls[i], x);
        }
        *measured += BATCH;
    } while (now() < t_end);
    double worst = 0;
    for (int k = 0; k < NTESTS; k++) {
        if (w[k].n[0] + w[k].n[1] < ENOUGH)
            continue;
        double t = fabs(welch_t(&w[k]));
        if (t > worst)
            worst = t;
    }
    return worst;
}

int main(int argc, char **argv)
{
    double total = 12, threshold = 10;
    const char *names[32];
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
            total = atof(argv[++i]);
        else if (strcmp(argv[i], "--threshold") == 0 && i + 1 < argc)
            threshold = atof(argv[++i]);
        else if (strcmp(argv[i], "--planted") == 0)
            planted = 1;
        else if (strcmp(argv[i], "--fixed-random") == 0)
            fixed_random = 1;
        else if (strcmp(argv[i], "--best") == 0) {
            printf("%s\n", polymac_backend_name());    /* the automatic choice */
            return 0;
        }
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: dudect [--time S] [--threshold T] [--planted] [KERNEL...]\n");
            return 2;
        } else if (n < 32)
            names[n++] = argv[i];
    }
    if (n == 0)
        n = polymac_backend_list(names, 32);
    if (n > 32)
        n = 32;
    seed ^= (uint64_t)time(NULL);
    size_t ran = 0, leaks = 0;
    int ntests = planted ? 1 : 2;
    double per = total / (double)(n * (size_t)ntests);
    for (size_t i = 0; i < n; i++) {
        int rc = polymac_backend_select(names[i]);
        if (rc != 0) {
            printf("SKIP %s: %s\n", names[i],
                   rc == POLYMAC_EBACKEND ? "not built in" : "not runnable on this CPU");
            continue;
        }
        for (int which = planted ? T_TAG : T_KEY; which <= T_TAG; which++) {
            double measured = 0, t0 = now();
            double t = run_test((enum which)which, per, &measured);
            int leak = t < 0 || t > threshold;
            printf("%s %s %s: %.0f measurements in %.1f s, max |t| = %.2f (threshold %.1f)\n",
                   leak ? "LEAK" : "ok", names[i],
                   which == T_KEY ? "key" : planted ? "tag (planted early-exit compare)" : "tag",
                   measured, now() - t0, t, threshold);
            fflush(stdout);
            leaks += leak;
            ran++;
        }
    }
    if (ran == 0)
        return 77;
    return leaks ? 1 : 0;
}
