/* tune_row.c -- which break-even row (lib/x86/tuning.c) this CPU gets,
 *               checked against /proc/cpuinfo, and the table's own checks */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
/*
 * usage: polymac-tune-row [--expect ROW]
 * prints the row in use, then checks:
 *   - every row holds values every kernel allows, a row not yet
 *     measured the default's values;
 *   - a CPU without a row (other models, families, vendors) gets the
 *     default row;
 *   - the row the probe chose is the one /proc/cpuinfo's vendor, family
 *     and model name (by a mapping of its own, not the table's lookup),
 *     and the values the kernels read are that row's, chosen once a
 *     kernel is active; with --expect, that it is ROW instead (under
 *     qemu, which emulates another CPU than /proc/cpuinfo describes).
 * Exit 0 when all hold, 1 when one fails, 77 (skipped) on an x86-64
 * machine without /proc/cpuinfo.  x86-64 only: the table is the x86
 * kernels'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polymac.h"
#include "cpu.h"
#include "x86/tuning.h"
#include "dispatch.h"

static int failed;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        failed = 1;
    }
}

static int same(const struct polymac_x86_tuning *a, const struct polymac_x86_tuning *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* The first processor's vendor, family and model, as /proc/cpuinfo
 * prints them; 0 when it cannot be read. */
static int cpuinfo(char vendor[32], unsigned *family, unsigned *model)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    int got = 0;
    if (!f)
        return 0;
    vendor[0] = 0;
    while (got != 7 && fgets(line, sizeof line, f)) {
        if (!(got & 1) && sscanf(line, "vendor_id : %31s", vendor) == 1)
            got |= 1;
        else if (!(got & 2) && sscanf(line, "cpu family : %u", family) == 1)
            got |= 2;
        else if (!(got & 4) && strncmp(line, "model name", 10) != 0
                 && sscanf(line, "model : %u", model) == 1)
            got |= 4;
    }
    fclose(f);
    return got == 7;
}

static const struct polymac_x86_tuning_row *find(uint32_t vendor, uint32_t family,
                                                 uint32_t model)
{
    struct polymac_cpu_id id = {vendor, family, model};
    return polymac_x86_tuning_find(id);
}

int main(int argc, char **argv)
{
    /* --expect NAME: the row in use must be NAME (a CPU qemu emulates,
     * whose /proc/cpuinfo is the host's) */
    const char *expect = argc == 3 && strcmp(argv[1], "--expect") == 0 ? argv[2] : NULL;
    if (argc != 1 && !expect) {
        fputs("usage: polymac-tune-row [--expect ROW]\n", stderr);
        return 2;
    }
    const struct polymac_x86_tuning_row *rows = polymac_x86_tuning_rows;
    const unsigned n = polymac_x86_tuning_nrows;
    const struct polymac_x86_tuning_row *def = &rows[n - 1];

    /* a kernel selected: the dispatcher chose the row before */
    (void)polymac_backend_name();
    const struct polymac_x86_tuning_row *row = polymac_x86_tuning_in_use;
    printf("row in use: %s (%s)\n", row->name, row->source);

    /* the table */
    check(strcmp(def->name, "default") == 0 && def->vendor == POLYMAC_CPU_VENDOR_OTHER,
          "the last row is the default");
    for (unsigned i = 0; i < n; i++) {
        char what[128];
        snprintf(what, sizeof what, "row %s holds values every kernel allows", rows[i].name);
        check(POLYMAC_X86_TUNING_OK(rows[i].t), what);
        if (strstr(rows[i].source, "not yet measured")) {
            snprintf(what, sizeof what, "row %s, not yet measured, is the default", rows[i].name);
            check(same(&rows[i].t, &def->t), what);
        }
        if (i + 1 < n) {
            snprintf(what, sizeof what, "row %s is found for its own CPU", rows[i].name);
            struct polymac_cpu_id id = {rows[i].vendor, rows[i].family,
                                        rows[i].model == POLYMAC_X86_ANY_MODEL ? 1 : rows[i].model};
            check(polymac_x86_tuning_find(id) == &rows[i], what);
        }
    }

    /* CPUs without a row */
    check(find(POLYMAC_CPU_VENDOR_INTEL, 6, 143) == def,
          "Sapphire Rapids (unmeasured) gets the default");
    check(find(POLYMAC_CPU_VENDOR_INTEL, 6, 85) == def,
          "Skylake-SP gets the default");
    check(find(POLYMAC_CPU_VENDOR_AMD, 25, 97) == def,
          "a Zen 4 desktop part (family 25 as Zen 3 and Genoa, unmeasured) gets the default");
    check(find(POLYMAC_CPU_VENDOR_AMD, 25, 33) == def,
          "a Zen 3 desktop part (unmeasured) gets the default");
    check(find(POLYMAC_CPU_VENDOR_OTHER, 6, 207) == def,
          "another vendor with Emerald Rapids' numbers gets the default");
    check(find(POLYMAC_CPU_VENDOR_OTHER, 26, 2) == def,
          "another vendor with Zen 5's family gets the default");
    check(find(POLYMAC_CPU_VENDOR_INTEL, 26, 2) == def,
          "Intel with Zen 5's family gets the default");

    /* what the kernels read is the row in use */
    check(polymac_x86_tuning() == &row->t, "the kernels read the row in use");

    /* the front end's cut (dispatch.h: polymac_auth_cut): for every row
     * and every set of the x86 kernels' CPU bits, at least
     * POLYMAC_AUTH_MIN and at most 16 times the cold break-even of each
     * kernel those bits allow, equal to one of them where any is allowed;
     * the cut in use is the row in use's for this CPU's bits */
    const uint32_t ifma = POLYMAC_CPU_X86_AVX512IFMA | POLYMAC_CPU_X86_AVX512F;
    for (unsigned i = 0; i < n; i++)
        for (uint32_t b = 0; b < 8; b++) {
            const uint32_t bits = (b & 1 ? POLYMAC_CPU_X86_AVX2 : 0)
                                  | (b & 2 ? POLYMAC_CPU_X86_AVX512F : 0)
                                  | (b & 4 ? POLYMAC_CPU_X86_AVX512IFMA : 0);
            const struct polymac_x86_tuning *t = &rows[i].t;
            const uint32_t cut = polymac_x86_auth_cut(t, bits);
            /* the cold break-evens of the kernels these bits allow */
            uint32_t cold[4], nc = 0;
            if ((bits & ifma) == ifma)
                cold[nc++] = t->ifma_cold;
            if (bits & POLYMAC_CPU_X86_AVX2)
                cold[nc++] = t->avx2_cold;
            if (bits & POLYMAC_CPU_X86_AVX512F) {
                cold[nc++] = POLYMAC_X86_AVX512_MIN8_COLD;
                cold[nc++] = POLYMAC_X86_AVX512_MIN4_COLD;
            }
            int below_all = cut >= POLYMAC_AUTH_MIN, one_of = nc == 0 && cut == UINT32_C(1) << 30;
            for (uint32_t j = 0; j < nc; j++) {
                below_all &= cut <= 16 * cold[j];
                one_of |= cut == 16 * cold[j];
            }
            char what[160];
            snprintf(what, sizeof what,
                     "row %s, CPU bits %#x: the cut %u is at least %u, at most 16 x each "
                     "allowed kernel's cold break-even, and one of them",
                     rows[i].name, (unsigned)bits, (unsigned)cut, (unsigned)POLYMAC_AUTH_MIN);
            check(below_all && one_of, what);
        }
    check(polymac_auth_cut_bytes() == polymac_x86_auth_cut(&row->t, polymac_cpu_bits()),
          "the cut in use is the row in use's for this CPU");

    if (expect) {
        check(strcmp(row->name, expect) == 0, "the row in use is the one expected");
        return failed;
    }
    /* the row this CPU should get, by /proc/cpuinfo */
    char vendor[32];
    unsigned family = 0, model = 0;
    if (!cpuinfo(vendor, &family, &model)) {
        printf("skipped: no vendor, family and model in /proc/cpuinfo%s\n",
               failed ? " (and a check above failed)" : "");
        return failed ? 1 : 77;
    }
    const char *want = "default";
    if (strcmp(vendor, "GenuineIntel") == 0 && family == 6 && model == 207)
        want = "intel-emerald-rapids";
    else if (strcmp(vendor, "AuthenticAMD") == 0 && family == 26)
        want = "amd-zen5";
    else if (strcmp(vendor, "AuthenticAMD") == 0 && family == 25 && model == 1)
        want = "amd-zen3-milan";
    else if (strcmp(vendor, "AuthenticAMD") == 0 && family == 25 && model == 17)
        want = "amd-zen4-genoa";
    printf("/proc/cpuinfo: %s family %u model %u: row %s\n", vendor, family, model, want);
    check(strcmp(row->name, want) == 0, "the row in use is the one for /proc/cpuinfo's CPU");
    return failed;
}
