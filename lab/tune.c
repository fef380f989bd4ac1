/* tune.c -- lab/tune's helper: each usable x86 kernel's cold and warm
 *           break-evens timed on this machine, beside the values of the
 *           library's row for this CPU (x86/tuning.c) */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * Method (docs/performance.md, "Lab tools"): for each threshold a row names two
 * builds of its kernel, one where the path the threshold guards runs from
 * the lowest length the kernel allows (fast) and one where it never runs
 * (slow, or the front end's radix-2^64 one-shot for a cold break-even).
 * For every length n in the row's range both are timed, interleaved, the
 * order alternating, 8 calls a sample (each message its own key), and
 * the median of the per-round differences says which wins at n.  The
 * break-even is the smallest n from which fast wins at every n timed
 * above it.  The whole sweep runs K times; the spread of the K
 * break-evens is the noise, and a compiled value outside it is flagged.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "polymac.h"
#include "kernel.h"
#include "generic/r64.h"
#include "tune.h"
#include "../test/ticks.h"
#include "cpu.h"
#include "x86/tuning.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define TUNE_TSC 1
#endif

#ifdef TUNE_HAVE_X86_AVX2
extern const struct tune_row tune_rows_x86_avx2[];
#endif
#ifdef TUNE_HAVE_X86_AVX512
extern const struct tune_row tune_rows_x86_avx512[];
#endif
#ifdef TUNE_HAVE_X86_AVX512IFMA
extern const struct tune_row tune_rows_x86_avx512ifma[];
#endif

/* The kernels lab/tune knows, and the rows of those this build has. */
static const struct {
    const char *name;
    const struct tune_row *rows;
} known[] = {
#ifdef TUNE_HAVE_X86_AVX512IFMA
    {"x86-avx512ifma", tune_rows_x86_avx512ifma},
#else
    {"x86-avx512ifma", NULL},
#endif
#ifdef TUNE_HAVE_X86_AVX512
    {"x86-avx512", tune_rows_x86_avx512},
#else
    {"x86-avx512", NULL},
#endif
#ifdef TUNE_HAVE_X86_AVX2
    {"x86-avx2", tune_rows_x86_avx2},
#else
    {"x86-avx2", NULL},
#endif
};
#define NKNOWN (sizeof known / sizeof known[0])

#define MSGS 8                  /* calls a sample, each its own message and key */
#define STREAM_CALLS 16         /* calls of a stream (every mode but TUNE_COLD) */
#define SLOT_BLOCKS 512         /* room of a message */
#define NMAX_LIMIT 256          /* longest length a cold row may time */

static _Alignas(4096) unsigned char msgbuf[MSGS][SLOT_BLOCKS * 16 + 4096];
static uint8_t keys[MSGS][32];
static uint8_t prep[(TUNE_PREP + 16) * 16];     /* what makes a warm state */
static _Alignas(POLYMAC_KS_ALIGN) unsigned char states[MSGS][POLYMAC_KS_BYTES];
static _Alignas(POLYMAC_KS_ALIGN) unsigned char tmpl[POLYMAC_KS_BYTES];
static uint8_t tags[MSGS][16];

/* message i, at its own offset in a page (and the state of call i at
 * another, ks_at): see auth_kernel */
static const uint8_t *msg(unsigned i)
{
    return msgbuf[i] + (i * 3 % 64) * 64;
}

static void clamp(uint8_t r[16], const uint8_t key[16])
{
    memcpy(r, key, 16);
    r[3] &= 15;
    r[7] &= 15;
    r[11] &= 15;
    r[15] &= 15;
    r[4] &= 252;
    r[8] &= 252;
    r[12] &= 252;
}

/* The front end's one-shot through a kernel's init, blocks and emit
 * (lib/core.c, polymac_auth_blocks), for whole blocks; the x86 kernels zero their own
 * dead stack.  The front end keeps the state in its frame, at an offset
 * in a page that ASLR chooses per process, and a caller's message may be
 * anywhere: a kernel's stores into the state may alias (4K) with its
 * loads of the message.  So call i of a sample has its state and its
 * message at offsets of its own (ks_at, msg): eight layouts in every
 * sample, the same in every process, and no single one decides. */
static _Alignas(4096) unsigned char kspool[MSGS][POLYMAC_KS_BYTES + 4096];

static unsigned char *ks_at(unsigned i)
{
    return kspool[i] + (i * 9 % 64) * 64;
}

__attribute__((noinline)) static void auth_kernel(const struct polymac_kernel *k, void *ks,
                                                  uint8_t tag[16], const uint8_t *m,
                                                  size_t nblocks, const uint8_t key[32])
{
    uint8_t r[16];
    clamp(r, key);
    k->init(ks, r);
    if (nblocks)
        k->blocks(ks, m, nblocks, 1);
    k->emit(ks, tag, key + 16);
}

/* The radix-2^64 one-shot (lib/generic/r64.h, polymac_r64_oneshot), which
 * a kernel's auth runs below its cold break-even. */
__attribute__((noinline)) static void auth_r64(uint8_t tag[16], const uint8_t *m, size_t len,
                                               const uint8_t key[32])
{
    polymac_r64_auth(tag, m, len, key);
}

/* The state row's stream starts from, in tmpl (enum tune_mode): made by
 * fast (warm; live: its lanes live too), or by slow (first). */
static void make_state(const struct tune_row *row)
{
    const struct polymac_kernel *k = row->mode == TUNE_FIRST ? row->slow : row->fast;
    uint8_t r[16];
    clamp(r, keys[0]);
    k->init(tmpl, r);
    k->blocks(tmpl, prep, TUNE_PREP, 1);
    if (row->mode == TUNE_LIVE)
        k->blocks(tmpl, prep + TUNE_PREP * 16, 16, 1);
}

/* One sample: MSGS calls of row mode at n blocks through k (NULL: the
 * r64 one-shot), in ticks. */
static uint64_t sample(const struct tune_row *row, const struct polymac_kernel *k, size_t n)
{
    uint64_t t0, t1;
    unsigned i, j;
    switch (row->mode) {
    case TUNE_COLD:
        t0 = test_ticks();
        if (k)
            for (i = 0; i < MSGS; i++)
                auth_kernel(k, ks_at(i), tags[i], msg(i), n, keys[i]);
        else
            for (i = 0; i < MSGS; i++)
                auth_r64(tags[i], msg(i), n * 16, keys[i]);
        t1 = test_ticks();
        return t1 - t0;
    case TUNE_WARM:
    case TUNE_FIRST:
        for (i = 0; i < MSGS; i++)
            memcpy(states[i], tmpl, sizeof tmpl);
        t0 = test_ticks();
        for (i = 0; i < MSGS; i++) {
            for (j = 0; j < STREAM_CALLS; j++)
                k->blocks(states[i], msg(i) + 16 * n * j, n, 1);
            k->emit(states[i], tags[i], keys[0] + 16);
        }
        t1 = test_ticks();
        return t1 - t0;
    case TUNE_LIVE:
        for (i = 0; i < MSGS; i++)
            memcpy(states[i], tmpl, sizeof tmpl);
        t0 = test_ticks();
        for (i = 0; i < MSGS; i++)
            for (j = 0; j < STREAM_CALLS; j++)
                k->blocks(states[i], msg(i) + 16 * n * j, n, 1);
        t1 = test_ticks();
        return t1 - t0;
    }
    return 0;
}

/* calls a sample */
static unsigned calls(const struct tune_row *row)
{
    return row->mode == TUNE_COLD ? MSGS : MSGS * STREAM_CALLS;
}

/* Both builds of a row give the right tag at n (the r64 one-shot over the
 * same bytes): a forced build that computed something else would time
 * nothing worth knowing. */
static int check(const struct tune_row *row, size_t n)
{
    static uint8_t whole[sizeof prep + SLOT_BLOCKS * 16];
    uint8_t want[16], got[16];
    const struct polymac_kernel *ks[2] = {row->fast, row->slow};
    size_t len = 0;
    if (row->mode != TUNE_COLD) {
        len = TUNE_PREP * 16 + (row->mode == TUNE_LIVE ? 256 : 0);
        memcpy(whole, prep, len);
    }
    size_t body = n * 16 * (row->mode == TUNE_COLD ? 1 : STREAM_CALLS);
    memcpy(whole + len, msg(1), body);
    polymac_r64_auth(want, whole, len + body, keys[row->mode == TUNE_COLD ? 1 : 0]);
    for (int v = 0; v < 2; v++) {
        const struct polymac_kernel *k = ks[v];
        if (!k)
            continue;
        if (row->mode == TUNE_COLD) {
            auth_kernel(k, ks_at(1), got, msg(1), n, keys[1]);
        } else {
            make_state(row);
            memcpy(states[1], tmpl, sizeof tmpl);
            for (unsigned j = 0; j < STREAM_CALLS; j++)
                k->blocks(states[1], msg(1) + 16 * n * j, n, 1);
            k->emit(states[1], got, keys[0] + 16);
        }
        if (memcmp(got, want, 16) != 0) {
            fprintf(stderr, "tune: %s %s: the %s build gives a wrong tag at %zu blocks\n",
                    row->kernel, row->name, v ? "slow" : "fast", n);
            return -1;
        }
    }
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int64_t median(int64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_i64);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One sweep's medians at each n, per call, in ticks. */
struct curve {
    double fast[NMAX_LIMIT + 1], slow[NMAX_LIMIT + 1], diff[NMAX_LIMIT + 1];
};

static size_t row_nmax(const struct tune_row *row)
{
    size_t n = row->nmax;
    if (n == 0) {
        /* twice the compiled value and then some, so that a break-even
         * that moved is still inside */
        n = 2 * (size_t)row->compiled() + 8;
        if (n < 24)
            n = 24;
    }
    const size_t cap = row->mode == TUNE_COLD ? NMAX_LIMIT : SLOT_BLOCKS / STREAM_CALLS;
    return n > cap ? cap : n;
}

/* Times row over its range, rounds interleaved rounds; fills c. */
static void sweep(const struct tune_row *row, unsigned rounds, struct curve *c)
{
    const size_t lo = row->nmin, hi = row_nmax(row), w = hi - lo + 1;
    int64_t *f = malloc(sizeof *f * rounds * w), *s = malloc(sizeof *s * rounds * w),
            *d = malloc(sizeof *d * rounds * w);
    if (!f || !s || !d) {
        perror("tune");
        exit(1);
    }
    const struct polymac_kernel *slowk = row->slow;
    /* both builds run on the same state */
    if (row->mode != TUNE_COLD)
        make_state(row);
    /* warm-up: clocks, caches, branch predictors, the vector units */
    for (unsigned r = 0; r < 20; r++) {
        sample(row, row->fast, hi);
        sample(row, slowk, hi);
    }
    for (size_t n = lo; n <= hi; n++)
        for (unsigned r = 0; r < rounds; r++) {
            uint64_t a, b;
            size_t at = (n - lo) * rounds + r;
            if ((r + n) % 2 == 0) {
                a = sample(row, row->fast, n);
                b = sample(row, slowk, n);
            } else {
                b = sample(row, slowk, n);
                a = sample(row, row->fast, n);
            }
            f[at] = (int64_t)a;
            s[at] = (int64_t)b;
            d[at] = (int64_t)a - (int64_t)b;
        }
    const double per = calls(row);
    for (size_t n = lo; n <= hi; n++) {
        size_t at = (n - lo) * rounds;
        c->fast[n] = median(f + at, rounds) / per;
        c->slow[n] = median(s + at, rounds) / per;
        c->diff[n] = median(d + at, rounds) / per;
    }
    free(f);
    free(s);
    free(d);
}

/* The smallest n from which fast wins at every n timed above it; hi + 1
 * when it does not win at hi. */
static size_t break_even(const struct tune_row *row, const struct curve *c)
{
    const size_t lo = row->nmin, hi = row_nmax(row);
    size_t n = hi + 1;
    while (n > lo && c->diff[n - 1] < 0)
        n--;
    return n;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static void print_cpu(void)
{
#ifdef TUNE_TSC
    unsigned a, b, c, d;
    char vendor[13] = {0}, brand[49] = {0};
    if (__get_cpuid(0, &a, &b, &c, &d)) {
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &d, 4);
        memcpy(vendor + 8, &c, 4);
    }
    unsigned family = 0, model = 0, stepping = 0;
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        family = (a >> 8) & 15;
        model = (a >> 4) & 15;
        stepping = a & 15;
        if (family == 15)
            family += (a >> 20) & 255;
        if (family == 6 || family >= 15)
            model |= ((a >> 16) & 15) << 4;
    }
    if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000004)
        for (unsigned i = 0; i < 3; i++) {
            __get_cpuid(0x80000002 + i, &a, &b, &c, &d);
            memcpy(brand + 16 * i, &a, 4);
            memcpy(brand + 16 * i + 4, &b, 4);
            memcpy(brand + 16 * i + 8, &c, 4);
            memcpy(brand + 16 * i + 12, &d, 4);
        }
    const char *p = brand;
    while (*p == ' ')
        p++;
    /* the cores this project's rows are for (lib/x86/tuning.c, their runs
     * in docs/log.md); others by family and model only */
    const char *uarch = "";
    if (strcmp(vendor, "GenuineIntel") == 0 && family == 6 && model == 143)
        uarch = " (Sapphire Rapids)";
    else if (strcmp(vendor, "GenuineIntel") == 0 && family == 6 && model == 207)
        uarch = " (Emerald Rapids)";
    else if (strcmp(vendor, "AuthenticAMD") == 0 && family == 25)
        uarch = " (Zen 3 or Zen 4)";
    else if (strcmp(vendor, "AuthenticAMD") == 0 && family == 26)
        uarch = " (Zen 5)";
    printf("CPU: %s family %u model %u stepping %u%s: %s\n", vendor, family, model, stepping,
           uarch, p);
    /* the values "compiled" compares against: the library's row for this
     * CPU, chosen by the same probe (x86/tuning.c) */
    polymac_x86_tuning_choose();
    const struct polymac_x86_tuning_row *row = polymac_x86_tuning_in_use;
    printf("break-even row: %s (%s)\n", row->name, row->source);
#else
    printf("CPU: (not x86: no CPUID)\n");
#endif
}

static void usage(void)
{
    fputs("usage: tune [-r ROUNDS] [-k REPEATS] [-v] [-o KERNEL]\n"
          "  -r  interleaved rounds per length (default 401)\n"
          "  -k  sweeps of every row, for the noise (default 7)\n"
          "  -v  print each row's medians per length (ticks per call)\n"
          "  -o  only this kernel\n",
          stderr);
}

int main(int argc, char **argv)
{
    unsigned rounds = 401, reps = 7;
    int verbose = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            rounds = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc)
            reps = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else {
            usage();
            return 2;
        }
    }
    if (rounds < 1 || reps < 1 || reps > 99) {
        usage();
        return 2;
    }
    /* the probe chooses the row whose values the rows compare against */
    (void)polymac_cpu_bits();

    srand(1305);
    for (size_t i = 0; i < sizeof msgbuf; i++)
        ((unsigned char *)msgbuf)[i] = (unsigned char)rand();
    for (size_t i = 0; i < sizeof keys; i++)
        ((unsigned char *)keys)[i] = (unsigned char)rand();
    for (size_t i = 0; i < sizeof prep; i++)
        prep[i] = (unsigned char)rand();

    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    print_cpu();
    printf("date: %s; libpolymac %s, automatic choice %s\n", date, polymac_version(),
           polymac_backend_name());
    /* other work on these cores moves the figures (docs/performance.md) */
    FILE *la = fopen("/proc/loadavg", "r");
    double load;
    if (la && fscanf(la, "%lf", &load) == 1)
        printf("load: %.2f (last minute, a build just before included) on %ld CPUs\n", load,
               sysconf(_SC_NPROCESSORS_ONLN));
    if (la)
        fclose(la);
#ifdef TUNE_TSC
    printf("unit: TSC ticks per call; %u rounds per length, %u sweeps\n", rounds, reps);
#else
    printf("unit: nanoseconds per call; %u rounds per length, %u sweeps\n", rounds, reps);
#endif

    /* which kernels: the library's usable ones that lab/tune knows */
    const char *usable[64];
    size_t nusable = polymac_backend_list(usable, 64);
    if (nusable > 64)
        nusable = 64;
    const struct tune_row *rows[64];
    size_t nrows = 0;
    for (size_t i = 0; i < NKNOWN; i++) {
        int ok = 0;
        for (size_t j = 0; j < nusable; j++)
            ok |= strcmp(usable[j], known[i].name) == 0;
        if (only && strcmp(only, known[i].name) != 0)
            printf("skipped %s: not asked for (-o)\n", known[i].name);
        else if (!known[i].rows)
            printf("skipped %s: not built (the compiler lacks its flags, or -Dx86=disabled)\n",
                   known[i].name);
        else if (!ok)
            printf("skipped %s: this CPU lacks it (or it failed its self-test)\n", known[i].name);
        else
            for (const struct tune_row *r = known[i].rows; r->kernel && nrows < 64; r++)
                rows[nrows++] = r;
    }
    for (size_t j = 0; j < nusable; j++) {
        int seen = strncmp(usable[j], "generic-", 8) == 0;
        for (size_t i = 0; i < NKNOWN; i++)
            seen |= strcmp(usable[j], known[i].name) == 0;
        if (!seen)
            printf("skipped %s: lab/tune has no forced build of it\n", usable[j]);
    }
    printf("not timed here: aarch64, POWER and s390x kernels (not built for this host; "
           "qemu cannot time them: docs/platforms.md, the static cost model)\n");
    if (nrows == 0) {
        printf("no kernel to time\n");
        return 0;
    }

    /* every build of every row right at each length it is timed at */
    for (size_t i = 0; i < nrows; i++)
        for (size_t n = rows[i]->nmin; n <= row_nmax(rows[i]); n++)
            if (check(rows[i], n) != 0)
                return 1;

    struct curve *curves = calloc(nrows * reps, sizeof *curves);
    size_t *be = calloc(nrows * reps, sizeof *be);
    if (!curves || !be) {
        perror("tune");
        return 1;
    }
    struct rusage ru0;
    long nivcsw0 = getrusage(RUSAGE_SELF, &ru0) == 0 ? ru0.ru_nivcsw : 0;
    clock_t c0 = clock();
    for (unsigned k = 0; k < reps; k++)
        for (size_t i = 0; i < nrows; i++) {
            struct curve *c = &curves[i * reps + k];
            sweep(rows[i], rounds, c);
            be[i * reps + k] = break_even(rows[i], c);
        }
    double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    struct rusage ru;
    long preempted = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_nivcsw - nivcsw0 : -1;

    printf("\n%-15s %-26s %-16s %8s %8s %9s %7s %7s\n", "kernel", "threshold", "against",
           "compiled", "measured", "spread", "loss", "noise");
    int flagged = 0;
    for (size_t i = 0; i < nrows; i++) {
        const struct tune_row *row = rows[i];
        const size_t hi = row_nmax(row);
        size_t v[99];
        memcpy(v, be + i * reps, reps * sizeof *v);
        qsort(v, reps, sizeof *v, cmp_size);
        size_t med = v[reps / 2], lo = v[0], top = v[reps - 1];
        /* the median curve of the sweeps: what a length costs either way;
         * rng: the range of the sweeps' differences at each length */
        struct curve m, rng;
        for (size_t n = row->nmin; n <= hi; n++) {
            double xs[3][99];
            for (unsigned k = 0; k < reps; k++) {
                xs[0][k] = curves[i * reps + k].fast[n];
                xs[1][k] = curves[i * reps + k].slow[n];
                xs[2][k] = curves[i * reps + k].diff[n];
            }
            for (int q = 0; q < 3; q++)
                for (unsigned a = 1; a < reps; a++)
                    for (unsigned b = a; b > 0 && xs[q][b - 1] > xs[q][b]; b--) {
                        double t = xs[q][b];
                        xs[q][b] = xs[q][b - 1];
                        xs[q][b - 1] = t;
                    }
            m.fast[n] = xs[0][reps / 2];
            m.slow[n] = xs[1][reps / 2];
            m.diff[n] = xs[2][reps / 2];
            rng.diff[n] = xs[2][reps - 1] - xs[2][0];
        }
        /* loss: the worst length between the compiled and the measured
         * value, where the compiled value runs the path that loses (per
         * cent of the faster path's cost) */
        const size_t compiled = row->compiled();
        double loss = 0, noise = 0;
        size_t a = compiled < med ? compiled : med;
        size_t b = compiled < med ? med : compiled;
        for (size_t n = a < row->nmin ? row->nmin : a; n < b && n <= hi; n++) {
            int runs_fast = n >= compiled;
            double x = runs_fast ? m.diff[n] : -m.diff[n];   /* > 0: it loses */
            double best = m.fast[n] < m.slow[n] ? m.fast[n] : m.slow[n];
            if (x > 0 && best > 0 && 100 * x / best > loss) {
                loss = 100 * x / best;
                noise = 100 * rng.diff[n] / best;
            }
        }
        /* outside the sweeps' break-evens (the noise of the quantity
         * compared), unless it costs less than 1% at its worst length:
         * a flat crossing, finer than any benchmark of this project */
        int differs = (compiled < lo || compiled > top) && loss >= 1.0;
        /* the lowest value a kernel allows is where the sweep starts: a
         * break-even there may lie lower still */
        if (compiled <= row->nmin && lo <= row->nmin)
            differs = 0;
        flagged |= differs;
        char mbuf[16], sbuf[24];
        snprintf(mbuf, sizeof mbuf, "%s%zu", med > hi ? ">" : med == row->nmin ? "<=" : "",
                 med > hi ? hi : med);
        snprintf(sbuf, sizeof sbuf, "%zu-%zu%s", lo, top > hi ? hi : top, top > hi ? "+" : "");
        printf("%-15s %-26s %-16s %8zu %8s %9s %6.1f%% %6.1f%%  %s\n", row->kernel,
               row->name, row->against, compiled, mbuf, sbuf, loss, noise,
               differs ? "DIFFERS" : "");
        if (verbose) {
            printf("    n   fast   slow   fast-slow (median of the sweeps)\n");
            for (size_t n = row->nmin; n <= hi; n++)
                printf("  %3zu %6.1f %6.1f %+7.1f\n", n, m.fast[n], m.slow[n], m.diff[n]);
        }
    }
    printf("\nmeasured: the median of the sweeps' break-evens (the smallest length\n"
           "from which the path wins at every length timed above it); spread: their\n"
           "range (+: past the last length timed); loss: the extra cost, at the worst\n"
           "length between the two, of the compiled value against the measured one;\n"
           "noise: the range of the sweeps' differences at that length, of the same\n"
           "cost; DIFFERS: the compiled value is outside the spread, and its loss\n"
           "is 1%% or more.\n");
    printf("timing took %.1f s of CPU; preempted %ld times (other work on this core)\n", secs,
           preempted);
    free(curves);
    free(be);
    (void)flagged;
    return 0;
}
