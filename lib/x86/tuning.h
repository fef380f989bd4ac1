/* tuning.h -- the x86 kernels' break-evens per microarchitecture: the
 *             rows, and the one the CPU probe chose for this process */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#ifndef POLYMAC_X86_TUNING_H
#define POLYMAC_X86_TUNING_H

#include <stddef.h>
#include <stdint.h>

/*
 * The default row: the values compiled in before the table existed,
 * measured by tools/tune on Intel Emerald Rapids (docs/tuning.md).  Every
 * CPU without a measured row of its own runs these.
 */
#define POLYMAC_X86_DEFAULT_AVX2_COLD 36
#define POLYMAC_X86_DEFAULT_AVX2_WARM 4
#define POLYMAC_X86_DEFAULT_AVX2_R8 32
#define POLYMAC_X86_DEFAULT_AVX512_MIN4_COLD 36
#define POLYMAC_X86_DEFAULT_AVX512_MIN4_WARM 4
#define POLYMAC_X86_DEFAULT_AVX512_MIN8_COLD 46
#define POLYMAC_X86_DEFAULT_AVX512_MIN8_WARM 5
#define POLYMAC_X86_DEFAULT_IFMA_COLD 23
#define POLYMAC_X86_DEFAULT_IFMA_WARM 3
#define POLYMAC_X86_DEFAULT_IFMA_LANES 3

/* Each kernel's break-evens in blocks per call (the kernels' sources say
 * what each one chooses).  They only ever pick a path: every value a row
 * holds is one the kernel allows (x86/tuning.c checks each row), and a
 * kernel that reads one as a bound clamps it. */
struct polymac_x86_tuning {
    uint32_t avx2_cold, avx2_warm, avx2_r8;
    uint32_t avx512_min4_cold, avx512_min4_warm, avx512_min8_cold, avx512_min8_warm;
    uint32_t ifma_cold, ifma_warm, ifma_lanes;
};

/* CPU vendors as the probe reports them */
#define POLYMAC_X86_VENDOR_OTHER 0u
#define POLYMAC_X86_VENDOR_INTEL 1u
#define POLYMAC_X86_VENDOR_AMD 2u
/* a row for every model of its family */
#define POLYMAC_X86_ANY_MODEL 0xffffffffu

struct polymac_x86_tuning_row {
    const char *name;       /* "intel-emerald-rapids", ..., "default" */
    const char *source;     /* where its values come from: date, CPU, tool */
    uint32_t vendor, family, model;     /* family and model as /proc/cpuinfo
                                           prints them (base + extended) */
    struct polymac_x86_tuning t;
};

/* The values the x86 kernels read: the chosen row's, set by the CPU probe
 * (lib/cpu.c) before any kernel is selected; the default row's until then.
 * Hidden in the library. */
extern struct polymac_x86_tuning polymac_x86_tuned;

/* Each x86 kernel's longest inline one-shot (kernel.h: scalar_max_at),
 * from the row in use; the default row's until the probe sets it. */
struct polymac_x86_scalar_max {
    size_t avx2, avx512, ifma;
};
extern struct polymac_x86_scalar_max polymac_x86_scalar_max;

/* The table, default last (the only row with vendor OTHER). */
extern const struct polymac_x86_tuning_row polymac_x86_tuning_rows[];
extern const unsigned polymac_x86_tuning_nrows;

/* The row for a CPU: its own where the table has one, else the default. */
const struct polymac_x86_tuning_row *polymac_x86_tuning_find(uint32_t vendor, uint32_t family,
                                                             uint32_t model);

/* Makes row the one in use: polymac_x86_tuned, and the scalar_max of
 * each x86 kernel this build has (the front end's inline one-shot follows
 * the cold break-even).  Called by the CPU probe, before it publishes the
 * CPU's bits; the first call writes, later and concurrent ones return
 * once it has written (every call passes the same row). */
void polymac_x86_tuning_use(const struct polymac_x86_tuning_row *row);

/* Whether t holds values every kernel allows (each row must). */
int polymac_x86_tuning_ok(const struct polymac_x86_tuning *t);

/* The row in use: the CPU probe's choice (it probes if it has not yet). */
const struct polymac_x86_tuning_row *polymac_x86_tuning_row(void);

#endif
